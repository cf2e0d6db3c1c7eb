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
    /// The database schema does not fit this build: it is newer, or
    /// PostgreSQL's `search_path` names no existing schema.
    #[error("store schema: {0}")]
    Schema(String),
    /// Applying schema migration `version` (`name`) failed (the source says how).
    #[error("store schema: migration {version} ({name}) failed: {source}")]
    Migration {
        version: i64,
        name: &'static str,
        #[source]
        source: Box<StoreError>,
    },
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
    /// Database errors are classified by the backend's own codes (SQLite
    /// result codes, PostgreSQL SQLSTATE classes), not by their messages.
    pub fn kind(&self) -> StorageErrorKind {
        match self {
            StoreError::UnsupportedScheme { .. }
            | StoreError::Location { .. }
            | StoreError::Schema(_) => StorageErrorKind::Config,
            StoreError::Open { source, .. } | StoreError::Migration { source, .. } => source.kind(),
            StoreError::Io { source, .. } => io_kind(source.kind()),
            StoreError::Database { source, .. } => sqlx_kind(source),
            StoreError::Corrupt { .. } => StorageErrorKind::Corrupt,
            StoreError::InvalidId { .. } | StoreError::Invalid { .. } => StorageErrorKind::Invalid,
            StoreError::NotFound { .. } => StorageErrorKind::NotFound,
            StoreError::InvalidState { .. } => StorageErrorKind::Conflict,
        }
    }

    /// True when trying again later can help ([`StoreError::kind`] is
    /// `Busy` or `Unavailable`): the database was busy or locked, the pool
    /// timed out, or the connection failed. A closed pool, a refused
    /// privilege or a bad location is not temporary.
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

/// The kind of an error sqlx reports.
fn sqlx_kind(e: &sqlx::Error) -> StorageErrorKind {
    use sqlx::Error as E;
    match e {
        E::Database(db) => database_kind(db.as_ref()),
        E::Io(io) => io_kind(io.kind()),
        E::PoolTimedOut => StorageErrorKind::Busy,
        // The program closed its own pool: waiting does not reopen it.
        E::PoolClosed => StorageErrorKind::Unexpected,
        E::Configuration(_) | E::Tls(_) => StorageErrorKind::Config,
        E::RowNotFound => StorageErrorKind::NotFound,
        E::TypeNotFound { .. }
        | E::ColumnIndexOutOfBounds { .. }
        | E::ColumnNotFound(_)
        | E::ColumnDecode { .. }
        | E::Decode(_) => StorageErrorKind::Corrupt,
        E::Encode(_) | E::InvalidArgument(_) => StorageErrorKind::Invalid,
        E::Migrate(_) => StorageErrorKind::Corrupt,
        _ => StorageErrorKind::Unexpected,
    }
}

/// The kind of an error the database itself returned, by its backend's codes.
fn database_kind(db: &dyn sqlx::error::DatabaseError) -> StorageErrorKind {
    #[cfg(feature = "postgres")]
    if let Some(pg) = db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
        return sqlstate_kind(pg.code());
    }
    #[cfg(feature = "sqlite")]
    if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
        return match db.code().and_then(|c| c.parse::<i64>().ok()) {
            Some(code) => sqlite_code_kind(code),
            None => StorageErrorKind::Unexpected,
        };
    }
    StorageErrorKind::Unexpected
}

/// The kind of a SQLite result code. Extended codes (`SQLITE_BUSY_SNAPSHOT`
/// = 517, …) keep the primary code in their low byte.
#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
pub(crate) fn sqlite_code_kind(code: i64) -> StorageErrorKind {
    match code & 0xff {
        5 /* BUSY */ | 6 /* LOCKED */ => StorageErrorKind::Busy,
        3 /* PERM */ | 8 /* READONLY */ | 23 /* AUTH */ => StorageErrorKind::PermissionDenied,
        14 /* CANTOPEN */ => StorageErrorKind::Config,
        11 /* CORRUPT */ | 26 /* NOTADB */ => StorageErrorKind::Corrupt,
        19 /* CONSTRAINT */ => StorageErrorKind::Conflict,
        18 /* TOOBIG */ | 20 /* MISMATCH */ | 25 /* RANGE */ => StorageErrorKind::Invalid,
        _ => StorageErrorKind::Unexpected,
    }
}

/// The kind of a PostgreSQL SQLSTATE, by class and the codes that need a
/// finer answer than their class.
#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
pub(crate) fn sqlstate_kind(sqlstate: &str) -> StorageErrorKind {
    match sqlstate {
        // insufficient_privilege: retrying as the same role never helps.
        "42501" => StorageErrorKind::PermissionDenied,
        // undefined table / column / object / function: the schema is not ours.
        "42P01" | "42703" | "42704" | "42883" => StorageErrorKind::Corrupt,
        // lock_not_available, object_in_use; query_canceled (statement timeout);
        // too_many_connections, out_of_memory.
        "55P03" | "55006" | "57014" | "53300" | "53200" => StorageErrorKind::Busy,
        "53400" => StorageErrorKind::Config,
        // read_only_sql_transaction (a hot standby).
        "25006" => StorageErrorKind::PermissionDenied,
        // invalid_catalog_name (no such database), invalid_schema_name.
        "3D000" | "3F000" => StorageErrorKind::Config,
        // data_corrupted, index_corrupted.
        "XX001" | "XX002" => StorageErrorKind::Corrupt,
        _ => match sqlstate.get(..2).unwrap_or("") {
            // connection exception
            "08" => StorageErrorKind::Unavailable,
            // transaction rollback: serialization failure, deadlock
            "40" => StorageErrorKind::Busy,
            // operator intervention: shutting down, cannot connect now
            "57" => StorageErrorKind::Unavailable,
            // invalid authorization specification (role, password)
            "28" => StorageErrorKind::PermissionDenied,
            // integrity constraint violation
            "23" => StorageErrorKind::Conflict,
            // data exception, syntax error or access rule violation
            "22" | "42" => StorageErrorKind::Invalid,
            _ => StorageErrorKind::Unexpected,
        },
    }
}

/// The kind of a filesystem or socket error. `AlreadyExists` comes from
/// creating the store's directory where a file is in the way.
fn io_kind(kind: std::io::ErrorKind) -> StorageErrorKind {
    use std::io::ErrorKind as K;
    match kind {
        K::PermissionDenied | K::ReadOnlyFilesystem => StorageErrorKind::PermissionDenied,
        K::ConnectionRefused
        | K::ConnectionReset
        | K::ConnectionAborted
        | K::NotConnected
        | K::BrokenPipe
        | K::TimedOut
        | K::UnexpectedEof
        | K::HostUnreachable
        | K::NetworkUnreachable
        | K::NetworkDown => StorageErrorKind::Unavailable,
        K::NotFound
        | K::AlreadyExists
        | K::NotADirectory
        | K::IsADirectory
        | K::InvalidFilename => StorageErrorKind::Config,
        _ => StorageErrorKind::Unexpected,
    }
}

impl From<StoreError> for StorageError {
    /// The store error as the contract's storage error: its kind, its whole
    /// message, and itself as the source.
    fn from(e: StoreError) -> StorageError {
        StorageError::new(e.kind(), e.to_string()).with_source(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use StorageErrorKind::*;

    #[test]
    fn sqlite_busy_and_locked_are_busy_with_extended_codes() {
        for code in [
            5, 6, 261, /* BUSY_RECOVERY */
            517, /* BUSY_SNAPSHOT */
            262, /* LOCKED_SHAREDCACHE */
        ] {
            assert_eq!(sqlite_code_kind(code), Busy, "{code}");
        }
        assert_eq!(sqlite_code_kind(8), PermissionDenied, "READONLY");
        assert_eq!(sqlite_code_kind(1032), PermissionDenied, "READONLY_DBMOVED");
        assert_eq!(sqlite_code_kind(11), Corrupt);
        assert_eq!(sqlite_code_kind(26), Corrupt, "NOTADB");
        assert_eq!(sqlite_code_kind(2067), Conflict, "CONSTRAINT_UNIQUE");
        assert_eq!(sqlite_code_kind(14), Config, "CANTOPEN");
        assert_eq!(sqlite_code_kind(1), Unexpected);
        assert!(!sqlite_code_kind(8).is_temporary());
    }

    #[test]
    fn postgres_is_classified_by_sqlstate() {
        let cases = [
            ("42501", PermissionDenied),
            ("28P01", PermissionDenied),
            ("25006", PermissionDenied),
            ("08006", Unavailable),
            ("08001", Unavailable),
            ("57P01", Unavailable),
            ("57P03", Unavailable),
            ("57014", Busy),
            ("40001", Busy),
            ("40P01", Busy),
            ("55P03", Busy),
            ("53300", Busy),
            ("23505", Conflict),
            ("23503", Conflict),
            ("42P01", Corrupt),
            ("42703", Corrupt),
            ("42601", Invalid),
            ("22001", Invalid),
            ("3D000", Config),
            ("XX001", Corrupt),
            ("P0001", Unexpected),
            ("", Unexpected),
        ];
        for (code, kind) in cases {
            assert_eq!(sqlstate_kind(code), kind, "{code}");
        }
        assert!(
            !sqlstate_kind("42501").is_temporary(),
            "insufficient_privilege is not worth retrying"
        );
    }

    #[test]
    fn a_closed_pool_is_not_temporary_and_a_timed_out_one_is() {
        let closed = StoreError::db("reading")(sqlx::Error::PoolClosed);
        assert!(!closed.is_temporary(), "{closed}");
        let timed_out = StoreError::db("reading")(sqlx::Error::PoolTimedOut);
        assert_eq!(timed_out.kind(), Busy);
    }

    #[test]
    fn open_and_migration_errors_keep_their_cause_s_kind() {
        let refused = StoreError::Open {
            location: "postgres://db/x".into(),
            source: Box::new(StoreError::db("connecting")(sqlx::Error::Io(
                std::io::Error::from(std::io::ErrorKind::ConnectionRefused),
            ))),
        };
        assert_eq!(refused.kind(), Unavailable);
        assert!(refused.is_temporary());
        let denied = StoreError::Migration {
            version: 1,
            name: "init",
            source: Box::new(StoreError::Io {
                path: "/x".into(),
                source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
            }),
        };
        assert_eq!(denied.kind(), PermissionDenied);
        let storage = StorageError::from(denied);
        assert_eq!(storage.kind(), PermissionDenied);
        assert!(
            storage.to_string().contains("migration 1 (init) failed"),
            "{storage}"
        );
        assert!(std::error::Error::source(&storage).is_some());
    }
}
