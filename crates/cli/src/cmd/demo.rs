//! `sgw demo`: the fallback chain on a simulated web, in-process, with no
//! network and no keys.

use crate::cmd::search::render;
use crate::exit::{CliError, CliResult};
use search_gateway::{FieldSpec, SearchRequest, SearchResult};
use sgw_testkit::demo::{Scenario, scenarios};
use sgw_testkit::world;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Run only this scenario (healthy, official-blocked, engine-captcha, conflict, all-blocked).
    #[arg(long)]
    pub scenario: Option<String>,
    /// Print each scenario's result contract as JSON lines.
    #[arg(long)]
    pub json: bool,
}

pub async fn run(args: Args) -> CliResult {
    let all = scenarios();
    let chosen: Vec<&Scenario> = match &args.scenario {
        None => all.iter().collect(),
        Some(name) => {
            let s = all.iter().find(|s| s.name == name).ok_or_else(|| {
                let names: Vec<_> = all.iter().map(|s| s.name).collect();
                CliError::Usage(format!(
                    "unknown scenario `{name}` (known: {})",
                    names.join(", ")
                ))
            })?;
            vec![s]
        }
    };
    let scratch = std::env::temp_dir().join(format!(
        "sgw-demo-{}-{}",
        std::process::id(),
        jiff::Timestamp::now().as_millisecond()
    ));
    std::fs::create_dir_all(&scratch)
        .map_err(|e| CliError::Io(format!("{}: {e}", scratch.display())))?;
    let outcome = run_all(&chosen, &scratch, args.json).await;
    let _ = std::fs::remove_dir_all(&scratch);
    outcome?;
    Ok(ExitCode::SUCCESS)
}

async fn run_all(
    chosen: &[&Scenario],
    scratch: &std::path::Path,
    json: bool,
) -> Result<(), CliError> {
    if !json {
        println!(
            "Search Gateway demo: a simulated web on 127.0.0.1 (official office, ministry, newspaper, blog,"
        );
        println!(
            "SearXNG engine, web archive). Question: \"{}\"\n",
            world::QUESTION
        );
    }
    for (i, s) in chosen.iter().enumerate() {
        let (_world, yaml) = s.start().await;
        let (policy, _) = search_gateway::parse_policy(yaml.as_bytes(), "demo-policy.yaml")
            .map_err(|e| {
                CliError::Usage(format!("the demo policy does not load in this build: {e}"))
            })?;
        let store = scratch.join(format!("{}.sqlite", s.name));
        let options = search_gateway::OpenOptions {
            store: Some(store.display().to_string()),
            no_store: false,
        };
        let gateway = search_gateway::build(policy, options)
            .await
            .map_err(|e| CliError::Io(e.to_string()))?;
        let mut request = SearchRequest::new(world::QUESTION);
        for f in s.fields {
            request.fields.push(
                f.parse::<FieldSpec>()
                    .map_err(|e| CliError::Usage(e.to_string()))?,
            );
        }
        let result: SearchResult = gateway
            .search(&request)
            .await
            .map_err(|e| CliError::Usage(e.to_string()))?;
        if json {
            let line = serde_json::json!({"scenario": s.name, "result": result});
            println!("{line}");
        } else {
            println!("━━ {}/{} {} ━━", i + 1, chosen.len(), s.name);
            println!("{}\n", textwrap(s.what));
            print!("{}", render(&result));
            println!();
        }
    }
    Ok(())
}

fn textwrap(s: &str) -> String {
    let mut out = String::new();
    let mut width = 0;
    for word in s.split_whitespace() {
        if width + word.len() > 90 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += word.len();
    }
    out
}
