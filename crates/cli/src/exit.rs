//! Exit codes of both command lines (`sgw` and `research`): the one place where
//! library errors become process exit codes.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | a result was produced |
//! | 1 | usage error (bad flag, bad policy, bad input file, bad store location) |
//! | 2 | operational failure (no evidence could be obtained, not found, conflict) |
//! | 3 | I/O failure (disk, store) |
//!
//! The evidence store's errors map by their [`StorageErrorKind`]
//! ([`store_exit_code`]), so the same bad `--store` gives the same code in
//! every command of both tools. A store write that failed during a search
//! ([`SearchResult::store_failures`](sgw_contract::SearchResult::store_failures))
//! is an I/O failure (3) whatever its kind: the store opened and the search
//! ran, but what it should have recorded is lost.

use search_gateway::OpenError;
use sgw_contract::{StorageErrorKind, StoreWriteFailure};
use sgw_provider_human_intake::ingest::IngestError;
use sgw_research::BackendError;
use sgw_store::StoreError;
use std::fmt;
use std::process::ExitCode;

/// Exit code of a usage error.
pub const USAGE: u8 = 1;
/// Exit code of an operational failure.
pub const OPERATIONAL: u8 = 2;
/// Exit code of an I/O or store failure.
pub const IO: u8 = 3;

/// The exit code of an evidence-store failure of `kind`: the location or the
/// value given is wrong (1), the record is missing or in the wrong state (2),
/// anything else (access, busy, unreachable, corrupt) is I/O (3).
pub fn store_exit_code(kind: StorageErrorKind) -> u8 {
    match kind {
        StorageErrorKind::Config | StorageErrorKind::Invalid => USAGE,
        StorageErrorKind::NotFound | StorageErrorKind::Conflict => OPERATIONAL,
        _ => IO,
    }
}

/// The exit code of a `research` error.
pub fn research_exit_code(error: &sgw_research::Error) -> u8 {
    use sgw_research::Error;
    match error {
        Error::Usage(_) => USAGE,
        Error::NotFound(_) | Error::Malformed { .. } | Error::Operational(_) => OPERATIONAL,
        Error::Io { .. } => IO,
        Error::Gateway(e) => backend_exit_code(e),
    }
}

/// The exit code of a gateway (backend) failure.
pub fn backend_exit_code(error: &BackendError) -> u8 {
    match error {
        BackendError::Usage(_) => USAGE,
        BackendError::Operational(_) => OPERATIONAL,
        BackendError::Store { kind, .. } => store_exit_code(*kind),
        BackendError::Io(_) => IO,
    }
}

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
    /// The process exit code.
    pub fn code(&self) -> u8 {
        match self {
            CliError::Usage(_) => USAGE,
            CliError::Operational(_) => OPERATIONAL,
            CliError::Io(_) => IO,
        }
    }

    /// `message` as the error of exit code `code` (1, 2, else 3).
    fn with_code(code: u8, message: String) -> CliError {
        match code {
            USAGE => CliError::Usage(message),
            OPERATIONAL => CliError::Operational(message),
            _ => CliError::Io(message),
        }
    }
}

impl From<StoreError> for CliError {
    fn from(e: StoreError) -> CliError {
        CliError::with_code(store_exit_code(e.kind()), e.to_string())
    }
}

impl From<OpenError> for CliError {
    /// The store's failure by its kind; any other cause is the policy (usage).
    fn from(e: OpenError) -> CliError {
        match e {
            OpenError::Store(e) => {
                CliError::with_code(store_exit_code(e.kind()), OpenError::Store(e).to_string())
            }
            e => CliError::Usage(e.to_string()),
        }
    }
}

impl From<sgw_extract::InputError> for CliError {
    /// The input's fault (missing, too large, not extractable) is usage; a
    /// read the machine failed is I/O.
    fn from(e: sgw_extract::InputError) -> CliError {
        if e.is_input_fault() {
            CliError::Usage(e.to_string())
        } else {
            CliError::Io(e.to_string())
        }
    }
}

impl From<&StoreWriteFailure> for CliError {
    /// Exit 3 once the result has been printed, never a silent success.
    fn from(failure: &StoreWriteFailure) -> CliError {
        CliError::Io(failure.to_string())
    }
}

impl From<IngestError> for CliError {
    fn from(e: IngestError) -> CliError {
        match e {
            IngestError::BadInput(m) => CliError::Usage(m),
            e @ IngestError::NotDone { .. } => CliError::Operational(e.to_string()),
            IngestError::Io(m) => CliError::Io(m),
        }
    }
}

impl From<search_gateway::evidence::SubmitError> for CliError {
    fn from(e: search_gateway::evidence::SubmitError) -> CliError {
        match e {
            search_gateway::evidence::SubmitError::Network(e) => e.into(),
            search_gateway::evidence::SubmitError::Ingest(e) => e.into(),
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
