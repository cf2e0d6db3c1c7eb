use provider_hello as _;
use std::process::ExitCode;
fn main() -> ExitCode {
    sgw_cli::main()
}
