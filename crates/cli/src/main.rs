//! `sgw` — the Search Gateway command line (see [`sgw_cli::main`]).

fn main() -> std::process::ExitCode {
    sgw_cli::main()
}
