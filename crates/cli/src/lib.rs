//! `sgw-cli` — the Search Gateway command lines as a library.
//!
//! Two entry points, one per binary:
//!
//! * [`main`] runs the whole `sgw` CLI (every subcommand). A third party that
//!   links its own provider crate builds its own `sgw`, with every command and
//!   its provider kind included, in a few lines:
//!
//!   ```no_run
//!   // use my_provider as _; // links the provider's registration
//!   fn main() -> std::process::ExitCode {
//!       sgw_cli::main()
//!   }
//!   ```
//!
//! * [`research_main`] runs the `research` CLI (the research session store)
//!   with the search gateway behind `search`, `extract` and `gates --resolve`;
//!   [`research::run`] runs one invocation in-process (arguments, environment
//!   and streams as parameters), as the tests and the fuzzer do.
//!
//! The crate holds argument parsing, output and exit codes ([`exit`]: the one
//! mapping from library errors to codes); the work is done by the libraries.
//!
//! Exit codes (both tools): 0 ok, 1 usage, 2 operational / not found, 3 I/O / store.

mod cmd;
pub mod exit;
mod progress;
pub mod research;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Evidence-first search: a fallback chain of providers with trust tiers,
/// confidence scores and structured failure codes.
#[derive(Debug, Parser)]
#[command(
    name = "sgw",
    version,
    about = "Evidence-first search: a fallback chain of providers with trust tiers, confidence scores and structured failure codes.",
    after_help = "Start with `sgw demo` (no network, no keys), then `sgw search \"your question\"`.\n\nExit codes: 0 a result was produced, 1 usage error (bad flag, bad policy, bad input file),\n2 operational failure (no evidence could be obtained, not found), 3 I/O failure (disk, store).\n\nDocs: README.md and docs/ (policy-reference.md, failure-codes.md, network.md, store.md)."
)]
struct Cli {
    /// More log output (-v info, -vv debug, -vvv trace). `RUST_LOG` overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Extract main text, metadata and ranked passages from a local file (HTML, feed, PDF, text; gzip accepted).
    Extract(cmd::extract::Args),
    /// Fetch one URL through the network layer (SSRF guard, robots.txt, caps)
    /// and print its status, classification (failure code or OK), timing,
    /// charset, final URL, redirects and first lines of text. Exit 2 on failure.
    Fetch(cmd::fetch::Args),
    /// Watch the fallback chain work on a simulated web: tiers, codes and
    /// confidence in a few seconds, with no network and no keys.
    Demo(cmd::demo::Args),
    /// Ask a question: run the policy's fallback chain and print the answer,
    /// its sources with trust tiers, confidence, failure codes and the trace.
    /// Exit 0 with an answer, 2 when no evidence could be obtained.
    Search(cmd::search::Args),
    /// List the provider kinds linked into this binary.
    Providers(cmd::providers::Args),
    /// Check policy files.
    Policy(cmd::policy::Args),
    /// Inspect and trim the evidence cache: list, show, stats, purge.
    Cache(cmd::cache::Args),
    /// The human evidence loop: list requests, show evidence or a request,
    /// submit evidence (text, file, screenshot, URL) for a request.
    Evidence(cmd::evidence::Args),
}

/// Runs the `sgw` command line on the process's arguments and returns its exit
/// code. Every provider kind linked into the final binary (the facade's
/// features, plus any crate the binary names with `use some_provider as _;`)
/// is available to `sgw search`, `sgw providers` and `sgw policy check`.
pub fn main() -> ExitCode {
    // Run as the memory-limited PDF worker when started as one (see sgw_extract::pdf).
    sgw_extract::worker_hook();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    progress::init_tracing(cli.verbose);
    // One command, one thread: the chain runs its steps and providers as
    // futures of one task and its CPU work inline, so worker threads would
    // only add their start-up (and a malloc arena each) to every command.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(err) => {
            return exit::report(Err(exit::CliError::Io(format!(
                "cannot start runtime: {err}"
            ))));
        }
    };
    exit::report(runtime.block_on(async move {
        match cli.command {
            Command::Extract(args) => cmd::extract::run(args).await,
            Command::Fetch(args) => cmd::fetch::run(args).await,
            Command::Demo(args) => cmd::demo::run(args).await,
            Command::Search(args) => cmd::search::run(args).await,
            Command::Providers(args) => cmd::providers::run(args).await,
            Command::Policy(args) => cmd::policy::run(args).await,
            Command::Cache(args) => cmd::cache::run(args).await,
            Command::Evidence(args) => cmd::evidence::run(args).await,
        }
    }))
}

/// Runs the `research` command line on the process's arguments, with the
/// search gateway behind `search`, `extract` and `gates --resolve`, and returns
/// its exit code.
pub fn research_main() -> ExitCode {
    // Run as the memory-limited PDF worker when started as one (see sgw_extract::pdf).
    sgw_extract::worker_hook();
    progress::init_tracing(0);
    let code = match sgw_research::gateway_backend::GatewayBackend::new() {
        Ok(backend) => research::main_with(Some(&research::gateway::SpinningGateway(backend))),
        Err(e) => {
            eprintln!("research: error: cannot start the gateway runtime: {e}");
            3
        }
    };
    ExitCode::from(code)
}
