//! `sgw providers`: the provider kinds linked into this binary.

use crate::exit::CliResult;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub async fn run(args: Args) -> CliResult {
    let rows: Vec<_> = sgw_contract::factories()
        .into_iter()
        .map(|f| {
            let feature = search_gateway::feature_of(f.kind).unwrap_or("-");
            (
                f.kind,
                f.step.as_str(),
                f.crate_name,
                feature,
                f.description,
            )
        })
        .collect();
    if args.json {
        let json: Vec<_> = rows
            .iter()
            .map(|(kind, step, krate, feature, description)| {
                serde_json::json!({"kind": kind, "step": step, "crate": krate, "feature": feature, "description": description})
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        println!("no providers are linked into this build (enable the search-gateway features)");
        return Ok(ExitCode::SUCCESS);
    }
    let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(4);
    let s = rows.iter().map(|r| r.1.len()).max().unwrap_or(4).max(4);
    let c = rows.iter().map(|r| r.2.len()).max().unwrap_or(5).max(5);
    println!(
        "{:w$}  {:s$}  {:c$}  DESCRIPTION",
        "KIND", "CHAIN STEP", "CRATE"
    );
    for (kind, step, krate, _, description) in rows {
        println!("{kind:w$}  {step:s$}  {krate:c$}  {description}");
    }
    Ok(ExitCode::SUCCESS)
}
