//! The store's error type.

use sgw_contract::{StorageError, StorageErrorKind};

/// Everything that can go wrong in the store. Each variant names the record,
/// field or location at fault; [`StoreError::is_temporary`] says whether
/// trying again later can help.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `Store::open` was given a location whose scheme is not supported.
    #[error(
        "unsupported store location `{location}`: the scheme `{scheme}` is not supported (supported: {supported})"
    )]
    UnsupportedScheme {
        location: String,
        scheme: String,
        supported: &'static str,
    },
    /// The location could not be parsed or prepared.
    #[error("store location `{location}`: {message}")]
    Location { location: String, message: String },
    /// Opening the store at `location` failed (the source says how).
    #[error("opening store `{location}`: {source}")]
    Open {
        location: String,
        #[source]
        source: Box<StoreError>,
    },
    /// A filesystem operation on the store's directory failed.
    #[error("store directory `{path}`: {source}")]
    Io {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The database reported an error while doing `op`.
    #[error("store database error while {op}: {source}")]
    Database {
        op: &'static str,
        #[source]
        source: sqlx::Error,
    },
    /// The database schema is newer than this build, or a migration failed.
    #[error("store schema: {0}")]
    Schema(String),
    /// A stored record could not be decoded (`what` names record and field).
    #[error("corrupt store record {what}: {message}")]
    Corrupt { what: String, message: String },
    /// An id does not have the expected `prefix-ULID` form.
    #[error("invalid {kind} id `{id}`: expected `{prefix}` followed by a ULID")]
    InvalidId {
        kind: &'static str,
        prefix: &'static str,
        id: String,
    },
    /// A record that must exist does not.
    #[error("{kind} `{id}` not found")]
    NotFound { kind: &'static str, id: String },
    /// A human evidence request is not in the state the operation needs.
    #[error("human evidence request `{id}` is {status}, not {expected}")]
    InvalidState {
        id: String,
        status: String,
        expected: &'static str,
    },
    /// A value given to the store is not acceptable (`field` names it).
    #[error("invalid {field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
}

impl StoreError {
    /// What kind of failure this is, in the contract's storage vocabulary.
    pub fn kind(&self) -> StorageErrorKind {
        match self {
            StoreError::UnsupportedScheme { .. } | StoreError::Location { .. } => {
                StorageErrorKind::Config
            }
            StoreError::Open { source, .. } => source.kind(),
            StoreError::Io { source, .. } => match source.kind() {
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
                    StorageErrorKind::PermissionDenied
                }
                _ => StorageErrorKind::Unexpected,
            },
            StoreError::Database { source, .. } if is_temporary_sqlx(source) => {
                StorageErrorKind::Busy
            }
            StoreError::Database { .. } => StorageErrorKind::Unexpected,
            StoreError::Schema(_) | StoreError::Corrupt { .. } => StorageErrorKind::Corrupt,
            StoreError::InvalidId { .. } | StoreError::Invalid { .. } => StorageErrorKind::Invalid,
            StoreError::NotFound { .. } => StorageErrorKind::NotFound,
            StoreError::InvalidState { .. } => StorageErrorKind::Conflict,
        }
    }

    /// True when trying again later can help: the database was busy or
    /// locked, the pool timed out, or the connection failed.
    pub fn is_temporary(&self) -> bool {
        self.kind().is_temporary()
    }

    pub(crate) fn db(op: &'static str) -> impl FnOnce(sqlx::Error) -> StoreError {
        move |source| StoreError::Database { op, source }
    }

    pub(crate) fn corrupt(what: impl Into<String>, message: impl ToString) -> StoreError {
        StoreError::Corrupt {
            what: what.into(),
            message: message.to_string(),
        }
    }
}

fn is_temporary_sqlx(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed => true,
        sqlx::Error::Database(db) => {
            // SQLite: SQLITE_BUSY (5) / SQLITE_LOCKED (6), extended codes keep the low byte.
            // PostgreSQL: serialization failure, deadlock, too many connections, admin shutdown.
            let code = db.code().map(|c| c.to_string()).unwrap_or_default();
            let sqlite_busy = code
                .parse::<i64>()
                .map(|c| matches!(c & 0xff, 5 | 6))
                .unwrap_or(false);
            sqlite_busy || matches!(code.as_str(), "40001" | "40P01" | "53300" | "57P01")
        }
        _ => false,
    }
}

impl From<StoreError> for StorageError {
    /// The store error as the contract's storage error: its kind, its whole
    /// message, and itself as the source.
    fn from(e: StoreError) -> StorageError {
        StorageError::new(e.kind(), e.to_string()).with_source(e)
    }
}
