//! `research` — the research session store CLI. All logic lives in `sgw_research::cli`.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(sgw_research::cli::main())
}
