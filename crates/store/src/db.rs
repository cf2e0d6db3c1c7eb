//! A tiny typed layer over the two backends: one SQL text (with `$N`
//! placeholders, which both SQLite and PostgreSQL accept) runs on either.

use crate::StoreError;
#[cfg(feature = "postgres")]
use sqlx::Postgres;
#[cfg(feature = "sqlite")]
use sqlx::Sqlite;
#[cfg(feature = "postgres")]
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};
#[cfg(feature = "sqlite")]
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};
use sqlx::{Row as _, Transaction};
#[cfg(feature = "sqlite")]
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

#[cfg(not(any(feature = "sqlite", feature = "postgres")))]
compile_error!("sgw-store needs a backend: enable its `sqlite` and/or `postgres` feature");

/// The schemes [`crate::Store::open`] understands (in this build).
#[cfg(all(feature = "sqlite", feature = "postgres"))]
pub(crate) const SUPPORTED: &str =
    "`sqlite:` URLs, plain file paths (SQLite), `postgres://` and `postgresql://` URLs";
#[cfg(all(feature = "sqlite", not(feature = "postgres")))]
pub(crate) const SUPPORTED: &str = "`sqlite:` URLs and plain file paths (SQLite); this build has no PostgreSQL backend (sgw-store's `postgres` feature)";
#[cfg(all(feature = "postgres", not(feature = "sqlite")))]
pub(crate) const SUPPORTED: &str = "`postgres://` and `postgresql://` URLs; this build has no SQLite backend (sgw-store's `sqlite` feature)";

/// Which database a store lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An embedded SQLite file (WAL mode), the default.
    Sqlite,
    /// A PostgreSQL database, for several gateway processes or machines.
    Postgres,
}

impl Backend {
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// How long a SQLite writer waits for another writer's lock before failing.
#[cfg(feature = "sqlite")]
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Clone)]
pub(crate) enum Pool {
    #[cfg(feature = "sqlite")]
    Sqlite(SqlitePool),
    #[cfg(feature = "postgres")]
    Postgres(PgPool),
}

/// `postgres://user:secret@host/db` → `postgres://user:***@host/db`, for messages.
pub(crate) fn redact(location: &str) -> String {
    match url::Url::parse(location) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => location.to_string(),
    }
}

/// The scheme of `location` if it looks like a URL (`x:` with a 2+ letter
/// scheme, so Windows drive letters stay paths).
fn scheme_of(location: &str) -> Option<&str> {
    let (scheme, _) = location.split_once(':')?;
    let ok = scheme.len() >= 2
        && scheme.chars().next()?.is_ascii_alphabetic()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    ok.then_some(scheme)
}

/// Whether `location` names an SQLite database file that already exists (a
/// plain path or a `sqlite:` URL; not `:memory:`). Opening such a store
/// creates nothing the user would not already have.
pub(crate) fn existing_sqlite_file(location: &str) -> bool {
    #[cfg(feature = "sqlite")]
    {
        match scheme_of(location).map(|s| s.to_ascii_lowercase()) {
            Some(s) if s == "sqlite" => {
                if location.contains(":memory:") || location.contains("mode=memory") {
                    return false;
                }
                SqliteConnectOptions::from_str(location).is_ok_and(|o| o.get_filename().is_file())
            }
            Some(_) => false,
            None => !location.trim().is_empty() && Path::new(location).is_file(),
        }
    }
    #[cfg(not(feature = "sqlite"))]
    {
        let _ = location;
        false
    }
}

pub(crate) async fn connect(location: &str) -> Result<Pool, StoreError> {
    let shown = redact(location);
    match scheme_of(location).map(|s| s.to_ascii_lowercase()) {
        #[cfg(feature = "postgres")]
        Some(s) if s == "postgres" || s == "postgresql" => {
            let opts = PgConnectOptions::from_str(location).map_err(|e| StoreError::Location {
                location: shown.clone(),
                message: e.to_string(),
            })?;
            // One direct attempt first: the pool would retry a refused
            // connection until its acquire timeout; a wrong URL should fail now.
            sqlx::Connection::close(
                <sqlx::PgConnection as sqlx::Connection>::connect_with(&opts)
                    .await
                    .map_err(StoreError::db("connecting to PostgreSQL"))?,
            )
            .await
            .map_err(StoreError::db("connecting to PostgreSQL"))?;
            let pool = PgPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(30))
                .connect_with(opts)
                .await
                .map_err(StoreError::db("connecting to PostgreSQL"))?;
            Ok(Pool::Postgres(pool))
        }
        #[cfg(feature = "sqlite")]
        Some(s) if s == "sqlite" => {
            let opts =
                SqliteConnectOptions::from_str(location).map_err(|e| StoreError::Location {
                    location: shown.clone(),
                    message: e.to_string(),
                })?;
            let memory = location.contains(":memory:") || location.contains("mode=memory");
            if !memory {
                ensure_parent(opts.get_filename())?;
            }
            sqlite_pool(opts, memory).await
        }
        Some(scheme) => Err(StoreError::UnsupportedScheme {
            location: shown,
            scheme: scheme.to_string(),
            supported: SUPPORTED,
        }),
        None => {
            if location.trim().is_empty() {
                return Err(StoreError::Location {
                    location: shown,
                    message: "empty location".into(),
                });
            }
            #[cfg(feature = "sqlite")]
            {
                let path = PathBuf::from(location);
                ensure_parent(&path)?;
                sqlite_pool(SqliteConnectOptions::new().filename(&path), false).await
            }
            #[cfg(not(feature = "sqlite"))]
            Err(StoreError::UnsupportedScheme {
                location: shown,
                scheme: "a file path (SQLite)".into(),
                supported: SUPPORTED,
            })
        }
    }
}

#[cfg(feature = "sqlite")]
fn ensure_parent(path: &Path) -> Result<(), StoreError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| StoreError::Io {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    Ok(())
}

#[cfg(feature = "sqlite")]
async fn sqlite_pool(opts: SqliteConnectOptions, memory: bool) -> Result<Pool, StoreError> {
    let opts = opts
        .create_if_missing(true)
        .foreign_keys(true)
        .busy_timeout(BUSY_TIMEOUT);
    let opts = if memory {
        opts
    } else {
        // WAL: readers never block the writer; FULL: a committed transaction
        // survives a crash of the process *and* of the machine.
        opts.journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
    };
    // Opening switches a new file to WAL, which takes the database's
    // exclusive lock; a process opening the same new store at that moment
    // can get SQLITE_BUSY at once (the busy timeout does not cover every
    // step of opening). Such an open is retried, with a growing pause,
    // within the busy timeout; any other error is final.
    let started = std::time::Instant::now();
    let mut pause = Duration::from_millis(10);
    loop {
        match sqlite_connect(opts.clone(), memory).await {
            Err(e) if is_busy(&e) && started.elapsed() + pause < BUSY_TIMEOUT => {
                tracing::debug!(error = %e, "SQLite store busy while opening; retrying");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_millis(500));
            }
            result => return result.map_err(StoreError::db("opening SQLite")),
        }
    }
}

/// SQLITE_BUSY or SQLITE_LOCKED, extended codes included.
#[cfg(feature = "sqlite")]
fn is_busy(e: &sqlx::Error) -> bool {
    let code = match e {
        sqlx::Error::Database(db) => db.code().and_then(|c| c.parse::<i32>().ok()),
        _ => None,
    };
    code.is_some_and(|c| matches!(c & 0xff, 5 | 6))
}

#[cfg(feature = "sqlite")]
async fn sqlite_connect(opts: SqliteConnectOptions, memory: bool) -> Result<Pool, sqlx::Error> {
    let pool = SqlitePoolOptions::new()
        // One connection per process. An in-memory database exists once per
        // connection, so it must be exactly one; for a file, SQLite runs one
        // writer at a time anyway, and a second connection would mostly be
        // opened (a thread, the file, its schema) while the first is still on
        // its way back to the pool — three opens for one cached answer. Here
        // the next query waits for the returning connection instead, and
        // writers of one process queue in order rather than in SQLite's
        // busy-wait sleeps.
        .max_connections(1)
        .min_connections(if memory { 1 } else { 0 })
        // No ping before each use: the connection is a file this process
        // holds open, not a socket that can die, and each ping is a round
        // trip to the connection's worker thread (sqlx still pings once on
        // each release, which also flushes a dropped transaction's rollback).
        .test_before_acquire(false)
        .idle_timeout(if memory {
            None
        } else {
            Some(Duration::from_secs(600))
        })
        .max_lifetime(if memory {
            None
        } else {
            Some(Duration::from_secs(3600))
        })
        .acquire_timeout(BUSY_TIMEOUT + Duration::from_secs(5))
        .connect_with(opts)
        .await?;
    Ok(Pool::Sqlite(pool))
}

macro_rules! bind_all {
    ($q:expr, $args:expr) => {{
        let mut q = $q;
        for a in $args {
            q = match a {
                Arg::Text(v) => q.bind(v),
                Arg::Int(v) => q.bind(v),
                Arg::Float(v) => q.bind(v),
                Arg::Bytes(v) => q.bind(v),
            };
        }
        q
    }};
}

impl Pool {
    pub(crate) fn backend(&self) -> Backend {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(_) => Backend::Sqlite,
            #[cfg(feature = "postgres")]
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// A read transaction (one consistent snapshot).
    pub(crate) async fn read(&self) -> Result<Tx, StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(p) => Ok(Tx::Sqlite(
                p.begin().await.map_err(StoreError::db("starting a read"))?,
            )),
            #[cfg(feature = "postgres")]
            Pool::Postgres(p) => Ok(Tx::Postgres(
                p.begin().await.map_err(StoreError::db("starting a read"))?,
            )),
        }
    }

    /// Runs one read statement outside any transaction and returns its
    /// rows. A single statement reads one consistent snapshot by itself, so
    /// this saves the `BEGIN` and the rollback of [`Pool::read`]: on SQLite
    /// each is a round trip to the connection's worker thread. It runs on an
    /// acquired connection, not on the pool as executor: sqlx's pool
    /// executor made a cache hit ~15 % slower (measured, paired runs).
    pub(crate) async fn fetch_all(
        &self,
        op: &'static str,
        sql: &str,
        args: Vec<Arg>,
    ) -> Result<Vec<Row>, StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(p) => bind_all!(sqlx::query(sql), args)
                .fetch_all(&mut *p.acquire().await.map_err(StoreError::db(op))?)
                .await
                .map(|rows| rows.into_iter().map(Row::Sqlite).collect()),
            #[cfg(feature = "postgres")]
            Pool::Postgres(p) => bind_all!(sqlx::query(sql), args)
                .fetch_all(&mut *p.acquire().await.map_err(StoreError::db(op))?)
                .await
                .map(|rows| rows.into_iter().map(Row::Postgres).collect()),
        }
        .map_err(StoreError::db(op))
    }

    /// [`Pool::fetch_all`] for at most one row.
    pub(crate) async fn fetch_optional(
        &self,
        op: &'static str,
        sql: &str,
        args: Vec<Arg>,
    ) -> Result<Option<Row>, StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(p) => bind_all!(sqlx::query(sql), args)
                .fetch_optional(&mut *p.acquire().await.map_err(StoreError::db(op))?)
                .await
                .map(|r| r.map(Row::Sqlite)),
            #[cfg(feature = "postgres")]
            Pool::Postgres(p) => bind_all!(sqlx::query(sql), args)
                .fetch_optional(&mut *p.acquire().await.map_err(StoreError::db(op))?)
                .await
                .map(|r| r.map(Row::Postgres)),
        }
        .map_err(StoreError::db(op))
    }

    /// A write transaction. On SQLite it takes the write lock up front
    /// (`BEGIN IMMEDIATE`), so a concurrent writer waits (busy timeout)
    /// instead of failing on a read-to-write lock upgrade.
    pub(crate) async fn write(&self) -> Result<Tx, StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(p) => Ok(Tx::Sqlite(
                p.begin_with("BEGIN IMMEDIATE")
                    .await
                    .map_err(StoreError::db("starting a write"))?,
            )),
            #[cfg(feature = "postgres")]
            Pool::Postgres(p) => Ok(Tx::Postgres(
                p.begin()
                    .await
                    .map_err(StoreError::db("starting a write"))?,
            )),
        }
    }

    pub(crate) async fn close(&self) {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(p) => p.close().await,
            #[cfg(feature = "postgres")]
            Pool::Postgres(p) => p.close().await,
        }
    }
}

/// One bind parameter.
#[derive(Debug, Clone)]
pub(crate) enum Arg {
    Text(Option<String>),
    Int(Option<i64>),
    Float(Option<f64>),
    Bytes(Option<Vec<u8>>),
}

impl From<String> for Arg {
    fn from(v: String) -> Arg {
        Arg::Text(Some(v))
    }
}
impl From<&String> for Arg {
    fn from(v: &String) -> Arg {
        Arg::Text(Some(v.clone()))
    }
}
impl From<&str> for Arg {
    fn from(v: &str) -> Arg {
        Arg::Text(Some(v.to_string()))
    }
}
impl From<Option<String>> for Arg {
    fn from(v: Option<String>) -> Arg {
        Arg::Text(v)
    }
}
impl From<Option<&str>> for Arg {
    fn from(v: Option<&str>) -> Arg {
        Arg::Text(v.map(str::to_string))
    }
}
impl From<i64> for Arg {
    fn from(v: i64) -> Arg {
        Arg::Int(Some(v))
    }
}
impl From<Option<i64>> for Arg {
    fn from(v: Option<i64>) -> Arg {
        Arg::Int(v)
    }
}
impl From<Option<f64>> for Arg {
    fn from(v: Option<f64>) -> Arg {
        Arg::Float(v)
    }
}
impl From<Vec<u8>> for Arg {
    fn from(v: Vec<u8>) -> Arg {
        Arg::Bytes(Some(v))
    }
}

/// `args![a, b]` → `vec![Arg::from(a), Arg::from(b)]`.
macro_rules! args {
    ($($e:expr),* $(,)?) => { vec![$($crate::db::Arg::from($e)),*] };
}
pub(crate) use args;

/// An open transaction on either backend. Dropping it rolls back.
pub(crate) enum Tx {
    #[cfg(feature = "sqlite")]
    Sqlite(Transaction<'static, Sqlite>),
    #[cfg(feature = "postgres")]
    Postgres(Transaction<'static, Postgres>),
}

impl Tx {
    pub(crate) fn backend(&self) -> Backend {
        match self {
            #[cfg(feature = "sqlite")]
            Tx::Sqlite(_) => Backend::Sqlite,
            #[cfg(feature = "postgres")]
            Tx::Postgres(_) => Backend::Postgres,
        }
    }

    /// Runs one statement; returns the number of rows affected.
    pub(crate) async fn execute(
        &mut self,
        op: &'static str,
        sql: &str,
        args: Vec<Arg>,
    ) -> Result<u64, StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            Tx::Sqlite(tx) => bind_all!(sqlx::query(sql), args)
                .execute(&mut **tx)
                .await
                .map(|r| r.rows_affected()),
            #[cfg(feature = "postgres")]
            Tx::Postgres(tx) => bind_all!(sqlx::query(sql), args)
                .execute(&mut **tx)
                .await
                .map(|r| r.rows_affected()),
        }
        .map_err(StoreError::db(op))
    }

    pub(crate) async fn fetch_all(
        &mut self,
        op: &'static str,
        sql: &str,
        args: Vec<Arg>,
    ) -> Result<Vec<Row>, StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            Tx::Sqlite(tx) => bind_all!(sqlx::query(sql), args)
                .fetch_all(&mut **tx)
                .await
                .map(|rows| rows.into_iter().map(Row::Sqlite).collect()),
            #[cfg(feature = "postgres")]
            Tx::Postgres(tx) => bind_all!(sqlx::query(sql), args)
                .fetch_all(&mut **tx)
                .await
                .map(|rows| rows.into_iter().map(Row::Postgres).collect()),
        }
        .map_err(StoreError::db(op))
    }

    pub(crate) async fn fetch_optional(
        &mut self,
        op: &'static str,
        sql: &str,
        args: Vec<Arg>,
    ) -> Result<Option<Row>, StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            Tx::Sqlite(tx) => bind_all!(sqlx::query(sql), args)
                .fetch_optional(&mut **tx)
                .await
                .map(|r| r.map(Row::Sqlite)),
            #[cfg(feature = "postgres")]
            Tx::Postgres(tx) => bind_all!(sqlx::query(sql), args)
                .fetch_optional(&mut **tx)
                .await
                .map(|r| r.map(Row::Postgres)),
        }
        .map_err(StoreError::db(op))
    }

    /// Runs a script of several statements (migrations).
    pub(crate) async fn script(&mut self, op: &'static str, sql: &str) -> Result<(), StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            Tx::Sqlite(tx) => sqlx::raw_sql(sql).execute(&mut **tx).await.map(|_| ()),
            #[cfg(feature = "postgres")]
            Tx::Postgres(tx) => sqlx::raw_sql(sql).execute(&mut **tx).await.map(|_| ()),
        }
        .map_err(StoreError::db(op))
    }

    pub(crate) async fn commit(self) -> Result<(), StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            Tx::Sqlite(tx) => tx.commit().await,
            #[cfg(feature = "postgres")]
            Tx::Postgres(tx) => tx.commit().await,
        }
        .map_err(StoreError::db("committing"))
    }
}

/// A result row from either backend.
pub(crate) enum Row {
    #[cfg(feature = "sqlite")]
    Sqlite(SqliteRow),
    #[cfg(feature = "postgres")]
    Postgres(PgRow),
}

macro_rules! getter {
    ($name:ident, $t:ty) => {
        pub(crate) fn $name(&self, col: &str) -> Result<$t, StoreError> {
            match self {
                #[cfg(feature = "sqlite")]
                Row::Sqlite(r) => r.try_get::<$t, _>(col),
                #[cfg(feature = "postgres")]
                Row::Postgres(r) => r.try_get::<$t, _>(col),
            }
            .map_err(|e| StoreError::corrupt(format!("column `{col}`"), e))
        }
    };
}

impl Row {
    getter!(text, String);
    getter!(opt_text, Option<String>);
    getter!(int, i64);
    getter!(opt_int, Option<i64>);
    getter!(opt_float, Option<f64>);
    getter!(bytes, Vec<u8>);
}

/// One schema migration.
struct Migration {
    version: i64,
    name: &'static str,
    sqlite: &'static str,
    postgres: &'static str,
}

const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "initial schema",
        sqlite: include_str!("../migrations/sqlite/0001_init.sql"),
        postgres: include_str!("../migrations/postgres/0001_init.sql"),
    },
    Migration {
        version: 2,
        name: "provider suspensions",
        sqlite: include_str!("../migrations/sqlite/0002_suspensions.sql"),
        postgres: include_str!("../migrations/postgres/0002_suspensions.sql"),
    },
    Migration {
        version: 3,
        name: "cache list index",
        sqlite: include_str!("../migrations/sqlite/0003_cache_list_index.sql"),
        postgres: include_str!("../migrations/postgres/0003_cache_list_index.sql"),
    },
];

/// Applies the migrations this build knows and the database lacks, in one
/// transaction, serialized across processes (SQLite write lock / PostgreSQL
/// advisory lock on the current schema). Refuses a database whose schema is
/// newer than this build.
///
/// A store already at this build's schema (every open after the first) is
/// recognised by one read: no write lock, no write transaction.
pub(crate) async fn migrate(pool: &Pool) -> Result<(), StoreError> {
    let newest_known = MIGRATIONS.last().map(|m| m.version).unwrap_or(0);
    if let Some(version) = schema_version(pool).await {
        if version == newest_known {
            return Ok(());
        }
        if version > newest_known {
            return Err(newer_schema(version, newest_known));
        }
    }
    let mut tx = pool.write().await?;
    if tx.backend() == Backend::Postgres {
        let schema = tx
            .fetch_optional(
                "reading the current schema",
                "SELECT current_schema() AS s, current_setting('search_path') AS p",
                vec![],
            )
            .await?;
        if let Some(row) = schema
            && row.opt_text("s")?.is_none()
        {
            return Err(StoreError::Schema(format!(
                "no schema of the search_path `{}` exists: create it (CREATE SCHEMA …) or fix `options[search_path]` in the URL",
                row.text("p")?
            )));
        }
        tx.execute(
            "locking the schema for migration",
            "SELECT pg_advisory_xact_lock(hashtext('sgw-store:' || coalesce(current_schema(), '')))",
            vec![],
        )
        .await?;
    }
    tx.script(
        "creating the migrations table",
        "CREATE TABLE IF NOT EXISTS sgw_schema_migrations (
            version BIGINT PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at_ms BIGINT NOT NULL
        )",
    )
    .await?;
    let applied: Vec<i64> = tx
        .fetch_all(
            "reading applied migrations",
            "SELECT version FROM sgw_schema_migrations ORDER BY version",
            vec![],
        )
        .await?
        .iter()
        .map(|r| r.int("version"))
        .collect::<Result<_, _>>()?;
    if let Some(&newest) = applied.last()
        && newest > newest_known
    {
        return Err(newer_schema(newest, newest_known));
    }
    let backend = tx.backend();
    for m in MIGRATIONS.iter().filter(|m| !applied.contains(&m.version)) {
        let sql = match backend {
            Backend::Sqlite => m.sqlite,
            Backend::Postgres => m.postgres,
        };
        tx.script("applying a migration", sql)
            .await
            .map_err(|e| StoreError::Migration {
                version: m.version,
                name: m.name,
                source: Box::new(e),
            })?;
        tx.execute(
            "recording a migration",
            "INSERT INTO sgw_schema_migrations (version, name, applied_at_ms) VALUES ($1, $2, $3)",
            args![m.version, m.name, jiff::Timestamp::now().as_millisecond()],
        )
        .await?;
        tracing::info!(
            version = m.version,
            name = m.name,
            backend = backend.as_str(),
            "store migration applied"
        );
    }
    tx.commit().await
}

/// The newest applied migration, read without a write lock; `None` when it
/// cannot be read (a new database, no migrations table yet, or a schema
/// missing from the search path: the write path then says which).
async fn schema_version(pool: &Pool) -> Option<i64> {
    let row = pool
        .fetch_optional(
            "reading the schema version",
            "SELECT max(version) AS v FROM sgw_schema_migrations",
            vec![],
        )
        .await
        .ok()??;
    row.opt_int("v").ok()?
}

fn newer_schema(version: i64, newest_known: i64) -> StoreError {
    StoreError::Schema(format!(
        "the store is at schema version {version}, newer than this build supports ({newest_known}); upgrade the gateway"
    ))
}
