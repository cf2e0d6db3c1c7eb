//! `research` — the research session store CLI with the search gateway behind
//! it (see [`sgw_cli::research_main`]).

fn main() -> std::process::ExitCode {
    sgw_cli::research_main()
}
