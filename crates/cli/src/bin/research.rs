//! `research` — the research session store CLI, with the search gateway behind
//! `search`, `extract` and `gates --resolve`. The CLI lives in `sgw_research::cli`;
//! the gateway side in `research_backend.rs`.

#[path = "../research_backend.rs"]
mod research_backend;

/// Gateway logs on stderr: warnings by default, `RUST_LOG` overrides.
fn init_tracing() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

fn main() -> std::process::ExitCode {
    init_tracing();
    let code = match research_backend::GatewayBackend::new() {
        Ok(backend) => sgw_research::cli::main_with(Some(&backend)),
        Err(e) => {
            eprintln!("research: error: cannot start the gateway runtime: {e}");
            3
        }
    };
    std::process::ExitCode::from(code)
}
