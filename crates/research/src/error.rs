//! One error type for the whole crate; every variant knows its exit code.

use std::path::{Path, PathBuf};

/// What went wrong, and which exit code (0 ok, 1 usage, 2 operational, 3 I/O) it maps to.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Exit 1: bad or missing arguments, bad enum value, invalid session id, invalid input record.
    #[error("{0}")]
    Usage(String),
    /// Exit 2: the session (or gate, or sub-question) does not exist.
    #[error("{0}")]
    NotFound(String),
    /// Exit 2: a session file exists but is not a valid artifact. Names the file.
    #[error("malformed session file {}: {reason}", path.display())]
    Malformed { path: PathBuf, reason: String },
    /// Exit 2: the request was well formed but cannot be carried out in the session's state.
    #[error("{0}")]
    Operational(String),
    /// Exit 3: a disk read, write, mkdir, lock or delete failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// The process exit code this error maps to (the seed's table).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 1,
            Error::NotFound(_) | Error::Malformed { .. } | Error::Operational(_) => 2,
            Error::Io { .. } => 3,
        }
    }

    /// Whether trying again unchanged could help (only I/O failures may be transient).
    pub fn is_temporary(&self) -> bool {
        matches!(self, Error::Io { .. })
    }

    pub(crate) fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn malformed(path: &Path, reason: impl Into<String>) -> Self {
        Error::Malformed {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
