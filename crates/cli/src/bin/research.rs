//! `research` — the research session store CLI, with the search gateway behind
//! `search`, `extract` and `gates --resolve`. The CLI lives in `sgw_research::cli`;
//! the gateway side in `research_backend.rs`.

#[path = "../progress.rs"]
mod progress;
#[path = "../research_backend.rs"]
mod research_backend;

fn main() -> std::process::ExitCode {
    // Run as the memory-limited PDF worker when started as one (see sgw_extract::pdf).
    sgw_extract::worker_hook();
    progress::init_tracing(0);
    let code = match research_backend::GatewayBackend::new() {
        Ok(backend) => sgw_research::cli::main_with(Some(&backend)),
        Err(e) => {
            eprintln!("research: error: cannot start the gateway runtime: {e}");
            3
        }
    };
    std::process::ExitCode::from(code)
}
