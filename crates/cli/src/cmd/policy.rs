//! `sgw policy check FILE...`: validate policies against the linked providers.

use crate::exit::{CliError, CliResult};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Validate policy files: schema, paths, thresholds, provider kinds and
    /// configs. Prints warnings (e.g. chain steps with no provider) and exits 1
    /// on the first invalid file's errors.
    Check {
        /// Policy files (YAML).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON object per file instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(args: Args) -> CliResult {
    let Action::Check { files, json } = args.action;
    let mut failed = Vec::new();
    for file in &files {
        let name = file.display().to_string();
        let outcome = match search_gateway::load_policy(file) {
            Err(errors) => Err(errors.0.iter().map(ToString::to_string).collect::<Vec<_>>()),
            Ok((policy, warnings)) => {
                // Build every provider too: their configs are checked by their factories.
                let options = search_gateway::OpenOptions {
                    no_store: true,
                    ..Default::default()
                };
                match search_gateway::build(policy.clone(), options).await {
                    Err(e) => Err(vec![e.to_string()]),
                    Ok(gateway) => Ok((policy, warnings, gateway)),
                }
            }
        };
        match outcome {
            Ok((policy, warnings, gateway)) => {
                if json {
                    let chain: Vec<_> = gateway
                        .chain()
                        .into_iter()
                        .map(|(step, names)| serde_json::json!({"step": step.as_str(), "providers": names}))
                        .collect();
                    let warnings: Vec<_> = warnings.iter().map(ToString::to_string).collect();
                    println!(
                        "{}",
                        serde_json::json!({"file": name, "valid": true, "name": policy.name, "chain": chain, "warnings": warnings})
                    );
                } else {
                    for w in &warnings {
                        eprintln!("warning: {name}: {w}");
                    }
                    let bound: usize = gateway.chain().iter().map(|(_, p)| p.len()).sum();
                    println!(
                        "ok: {name} (policy `{}`, {} chain steps, {bound} providers)",
                        policy.name,
                        policy.fallback_chain.len()
                    );
                }
            }
            Err(errors) => {
                if json {
                    println!(
                        "{}",
                        serde_json::json!({"file": name, "valid": false, "errors": errors})
                    );
                } else {
                    for e in &errors {
                        eprintln!("error: {e}");
                    }
                }
                failed.push(name);
            }
        }
    }
    if failed.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(CliError::Usage(format!(
            "invalid policy: {}",
            failed.join(", ")
        )))
    }
}
