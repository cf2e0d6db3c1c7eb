//! Exit codes shared by every `sgw` subcommand.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | a result was produced |
//! | 1 | usage error (bad flag, bad policy, bad input file) |
//! | 2 | operational failure (no evidence could be obtained, not found) |
//! | 3 | I/O failure (disk, store) |

use std::fmt;
use std::process::ExitCode;

/// An error that knows which exit code it maps to.
#[derive(Debug)]
pub enum CliError {
    /// Exit 1: the user asked for something malformed.
    Usage(String),
    /// Exit 2: the request was fine but could not be satisfied.
    Operational(String),
    /// Exit 3: reading or writing local state failed.
    Io(String),
}

impl CliError {
    pub fn code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 1,
            CliError::Operational(_) => 2,
            CliError::Io(_) => 3,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Operational(m) | CliError::Io(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CliError {}

/// Result type of every subcommand: `Ok(code)` lets a command choose a non-zero
/// exit without an error message (e.g. `search` with no answer still prints the
/// diagnosis and exits 2).
pub type CliResult = Result<ExitCode, CliError>;

/// Prints the error on stderr and turns it into the process exit code.
pub fn report(result: CliResult) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) => {
            // Messages may quote what a website or a file said: terminal-safe.
            eprintln!("error: {}", sgw_safeio::terminal_safe(&err.to_string()));
            ExitCode::from(err.code())
        }
    }
}
