//! The error a storage backend (the evidence store, a suspension ledger)
//! hands the orchestrator: a kind that says whether retrying can help, a
//! message, key/value context, and the backend's own error as the source.

use serde::{Deserialize, Serialize};
use std::error::Error;
use std::fmt;

/// What kind of storage failure happened. The kind, not the message, decides
/// what a caller does: retry later ([`StorageErrorKind::is_temporary`]), fix
/// the configuration, or report corrupt data. In JSON: its snake_case name
/// (`not_found`, `permission_denied`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StorageErrorKind {
    /// The store's location or settings are wrong (unknown scheme, bad path).
    Config,
    /// A value handed to the store is not acceptable (bad id, oversized text,
    /// a statement the database rejects).
    Invalid,
    /// A record that must exist does not.
    NotFound,
    /// The operation clashes with the stored state (a unique key, a request
    /// already resolved).
    Conflict,
    /// The store refused access (file permissions, database privileges).
    PermissionDenied,
    /// The store is busy or locked right now (lock, deadlock, serialization
    /// failure, pool exhausted): retrying later can help.
    Busy,
    /// The store cannot be reached right now (connection refused or lost,
    /// server shutting down): retrying later can help.
    Unavailable,
    /// Stored data or the schema cannot be read back as expected.
    Corrupt,
    /// Anything else.
    Unexpected,
}

impl StorageErrorKind {
    /// True for the kinds where trying again later can help ([`Busy`](Self::Busy),
    /// [`Unavailable`](Self::Unavailable)).
    pub fn is_temporary(self) -> bool {
        matches!(self, StorageErrorKind::Busy | StorageErrorKind::Unavailable)
    }

    /// The kind's name, as shown in messages (`not found`, `busy`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            StorageErrorKind::Config => "config",
            StorageErrorKind::Invalid => "invalid",
            StorageErrorKind::NotFound => "not found",
            StorageErrorKind::Conflict => "conflict",
            StorageErrorKind::PermissionDenied => "permission denied",
            StorageErrorKind::Busy => "busy",
            StorageErrorKind::Unavailable => "unavailable",
            StorageErrorKind::Corrupt => "corrupt",
            StorageErrorKind::Unexpected => "unexpected",
        }
    }
}

impl fmt::Display for StorageErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A storage failure: its [`StorageErrorKind`], a message, context (which
/// store, which record) and the backend's error as [`Error::source`].
///
/// `Display` shows kind, message and context, not the source: the message
/// already says what went wrong in words.
#[derive(Debug)]
pub struct StorageError {
    kind: StorageErrorKind,
    message: String,
    context: Vec<(&'static str, String)>,
    source: Option<Box<dyn Error + Send + Sync + 'static>>,
}

impl StorageError {
    /// An error of `kind` with `message`, no context and no source.
    pub fn new(kind: StorageErrorKind, message: impl Into<String>) -> StorageError {
        StorageError {
            kind,
            message: message.into(),
            context: Vec::new(),
            source: None,
        }
    }

    /// Adds one piece of context (`location`, `provider`, …).
    pub fn with_context(mut self, key: &'static str, value: impl fmt::Display) -> StorageError {
        self.context.push((key, value.to_string()));
        self
    }

    /// Sets the underlying error.
    pub fn with_source(
        mut self,
        source: impl Into<Box<dyn Error + Send + Sync + 'static>>,
    ) -> StorageError {
        self.source = Some(source.into());
        self
    }

    pub fn kind(&self) -> StorageErrorKind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The context added with [`StorageError::with_context`], in order.
    pub fn context(&self) -> &[(&'static str, String)] {
        &self.context
    }

    /// Whether trying again later can help (see [`StorageErrorKind::is_temporary`]).
    pub fn is_temporary(&self) -> bool {
        self.kind.is_temporary()
    }
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "storage {}: {}", self.kind, self.message)?;
        if !self.context.is_empty() {
            f.write_str(" (")?;
            for (i, (key, value)) in self.context.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{key}: {value}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl Error for StorageError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

/// What a search tried to write to the evidence store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoreWrite {
    /// The human evidence request the last chain step opens.
    HumanRequest,
    /// The evidence the result used and its cache entry.
    Evidence,
}

impl StoreWrite {
    /// What was lost, as a sentence start: "the human evidence request could
    /// not be recorded", "the evidence could not be stored".
    pub fn lost(self) -> &'static str {
        match self {
            StoreWrite::HumanRequest => "the human evidence request could not be recorded",
            StoreWrite::Evidence => "the evidence could not be stored",
        }
    }
}

/// A store write that failed while a search ran. The result is still
/// returned, but what it would have recorded (the human request, the
/// evidence) is lost: callers see it here, typed, instead of reading notes.
///
/// `Display`: `<what was lost>: <the storage error>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoreWriteFailure {
    /// What could not be written.
    pub write: StoreWrite,
    /// The storage error's kind.
    pub kind: StorageErrorKind,
    /// The storage error as displayed (kind, message, context).
    pub error: String,
}

impl StoreWriteFailure {
    /// The failure of `write` with an error of `kind` (a [`StorageError`] or
    /// a store's own error type), kept as displayed.
    pub fn new(
        write: StoreWrite,
        kind: StorageErrorKind,
        error: &dyn fmt::Display,
    ) -> StoreWriteFailure {
        StoreWriteFailure {
            write,
            kind,
            error: error.to_string(),
        }
    }
}

impl fmt::Display for StoreWriteFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.write.lost(), self.error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_busy_and_unavailable_are_temporary() {
        use StorageErrorKind::*;
        let temporary: Vec<_> = [
            Config,
            Invalid,
            NotFound,
            Conflict,
            PermissionDenied,
            Busy,
            Unavailable,
            Corrupt,
            Unexpected,
        ]
        .into_iter()
        .filter(|k| k.is_temporary())
        .collect();
        assert_eq!(temporary, [Busy, Unavailable]);
    }

    #[test]
    fn display_shows_kind_message_and_context_and_keeps_the_source() {
        let io = std::io::Error::other("disk on fire");
        let e = StorageError::new(StorageErrorKind::Unavailable, "cannot reach the database")
            .with_context("location", "postgres://db/x")
            .with_context("op", "reading suspensions")
            .with_source(io);
        assert_eq!(
            e.to_string(),
            "storage unavailable: cannot reach the database (location: postgres://db/x, op: reading suspensions)"
        );
        assert!(e.is_temporary());
        assert_eq!(e.source().unwrap().to_string(), "disk on fire");
        let bare = StorageError::new(StorageErrorKind::PermissionDenied, "no");
        assert_eq!(bare.to_string(), "storage permission denied: no");
        assert!(!bare.is_temporary());
        assert!(bare.source().is_none());
    }

    #[test]
    fn a_store_write_failure_names_what_was_lost_and_reads_back_from_json() {
        let e = StorageError::new(StorageErrorKind::PermissionDenied, "read-only database")
            .with_context("location", "sqlite://x");
        let f = StoreWriteFailure::new(StoreWrite::HumanRequest, e.kind(), &e);
        assert_eq!(
            f.to_string(),
            "the human evidence request could not be recorded: storage permission denied: read-only database (location: sqlite://x)"
        );
        let json = serde_json::to_value(&f).unwrap();
        assert_eq!(json["write"], "human_request");
        assert_eq!(json["kind"], "permission_denied");
        let back: StoreWriteFailure = serde_json::from_value(json).unwrap();
        assert_eq!(back, f);
        let ev = StoreWriteFailure::new(StoreWrite::Evidence, e.kind(), &e);
        assert!(
            ev.to_string()
                .starts_with("the evidence could not be stored: ")
        );
    }
}
