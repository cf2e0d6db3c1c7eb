//! One error type for the whole crate. Its variants are kinds a caller can act
//! on; the `research` CLI (crate `sgw-cli`) maps them to exit codes.

use std::path::{Path, PathBuf};

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad or missing arguments, bad enum value, invalid session id, invalid input record.
    #[error("{0}")]
    Usage(String),
    /// The session (or gate, or sub-question) does not exist.
    #[error("{0}")]
    NotFound(String),
    /// A session file exists but is not a valid artifact. Names the file.
    #[error("malformed session file {}: {reason}", path.display())]
    Malformed { path: PathBuf, reason: String },
    /// The request was well formed but cannot be carried out in the session's state.
    #[error("{0}")]
    Operational(String),
    /// A disk read, write, mkdir, lock or delete failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The gateway (a [`crate::Backend`]) failed; the error says how.
    #[error(transparent)]
    Gateway(#[from] crate::backend::BackendError),
}

impl Error {
    /// Whether trying again unchanged could help (only I/O failures may be transient).
    pub fn is_temporary(&self) -> bool {
        match self {
            Error::Io { .. } => true,
            Error::Gateway(e) => e.is_temporary(),
            _ => false,
        }
    }

    /// A failed disk operation: `action` (`cannot read`, …) on `path`.
    pub fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
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

impl From<crate::validate::Invalid> for Error {
    /// An invalid id or record handed in by the caller: a usage error.
    fn from(e: crate::validate::Invalid) -> Error {
        Error::Usage(e.0)
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
