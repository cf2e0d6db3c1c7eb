//! The [`Store`] type: opening (backend, migrations), housekeeping
//! (integrity, stats) and the row helpers the concern modules share. Each
//! concern adds its own `impl Store` block: [`crate::evidence`],
//! [`crate::cache`], [`crate::requests`], [`crate::suspensions`].

use crate::StoreError;
use crate::db::{self, Arg, Backend, Pool, Row, args};
use crate::model::*;
use jiff::Timestamp;
use sgw_contract::CacheKey;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The evidence store. Cheap to clone (clones share one connection pool).
#[derive(Clone)]
pub struct Store {
    pub(crate) pool: Pool,
    pub(crate) staleness: StalenessRules,
    pub(crate) location: String,
    /// Set by the first write through this store or a clone of it.
    wrote: Arc<AtomicBool>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("backend", &self.pool.backend())
            .field("location", &self.location)
            .finish()
    }
}

/// The `WHERE` condition matching one cache key (`$1`..`$4`, see [`key_args`]).
pub(crate) const KEY_MATCH: &str = "normalized_query = $1 AND topic_type = $2 AND jurisdiction_or_scope = $3 AND effective_date = $4";

impl Store {
    /// Opens (creating and migrating if needed) the store at `location`:
    ///
    /// - a plain file path, or a `sqlite:` URL (`sqlite:///abs/path.sqlite`,
    ///   `sqlite::memory:`): embedded SQLite in WAL mode;
    /// - `postgres://…` / `postgresql://…`: PostgreSQL (the schema is the
    ///   connection's `search_path`, e.g. `?options[search_path]=gw`).
    ///
    /// Any other scheme fails with [`StoreError::UnsupportedScheme`], which
    /// lists the supported ones.
    pub async fn open(location: &str) -> Result<Store, StoreError> {
        let shown = db::redact(location);
        let wrap = |e: StoreError| match e {
            e @ (StoreError::UnsupportedScheme { .. } | StoreError::Location { .. }) => e,
            other => StoreError::Open {
                location: shown.clone(),
                source: Box::new(other),
            },
        };
        let pool = db::connect(location).await.map_err(wrap)?;
        if let Err(e) = db::migrate(&pool).await {
            pool.close().await;
            return Err(wrap(e));
        }
        let store = Store {
            pool,
            staleness: StalenessRules::default(),
            location: shown,
            wrote: Arc::default(),
        };
        tracing::debug!(location = %store.location, backend = store.backend().as_str(), "store opened");
        Ok(store)
    }

    /// Whether `location` names an SQLite store file that already exists, so
    /// that opening it creates no file (see [`Store::open`] for the forms a
    /// location takes). Lets a caller open such a store early, before it knows
    /// it will need it, without leaving anything behind when it does not.
    pub fn is_existing_file(location: &str) -> bool {
        db::existing_sqlite_file(location)
    }

    /// Opens the default store: `search-gateway/store.sqlite` under the
    /// user's data directory (see [`Store::default_location`]).
    pub async fn open_default() -> Result<Store, StoreError> {
        let path = Store::default_location()?;
        Store::open(&path.to_string_lossy()).await
    }

    /// `$XDG_DATA_HOME/search-gateway/store.sqlite`, else
    /// `~/.local/share/search-gateway/store.sqlite` (macOS:
    /// `~/Library/Application Support/…`, Windows: `%LOCALAPPDATA%\…`).
    pub fn default_location() -> Result<PathBuf, StoreError> {
        let env_dir = |name: &str| {
            std::env::var_os(name)
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
        };
        let base = if cfg!(windows) {
            env_dir("LOCALAPPDATA").or_else(|| env_dir("APPDATA"))
        } else if let Some(xdg) = env_dir("XDG_DATA_HOME") {
            Some(xdg)
        } else {
            env_dir("HOME").map(|home| {
                if cfg!(target_os = "macos") {
                    home.join("Library").join("Application Support")
                } else {
                    home.join(".local").join("share")
                }
            })
        };
        base.map(|b| b.join("search-gateway").join("store.sqlite"))
            .ok_or_else(|| StoreError::Location {
                location: "(default)".into(),
                message: "no user data directory: set XDG_DATA_HOME or HOME, or give an explicit store path or URL".into(),
            })
    }

    /// Uses `rules` for the `stale_after` of cache entries written from now on.
    pub fn with_staleness(mut self, rules: StalenessRules) -> Store {
        self.staleness = rules;
        self
    }

    pub fn staleness(&self) -> &StalenessRules {
        &self.staleness
    }

    pub fn backend(&self) -> Backend {
        self.pool.backend()
    }

    /// The location it was opened with (password redacted).
    pub fn location(&self) -> &str {
        &self.location
    }

    /// Closes the pool, waiting for connections to be returned. The last
    /// connection of a process to an SQLite file checkpoints the
    /// write-ahead log into the database as it closes.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// [`Store::close`] when this store or a clone of it wrote since it was
    /// opened: what a process calls before it ends, so the next one finds
    /// no write-ahead log to replay. A store that only read is left for the
    /// process's end to release: it has nothing to checkpoint, and closing
    /// would only cost the reader time (SQLite removes the log and
    /// shared-memory files, which the next opener creates again).
    pub async fn close_after_writes(&self) {
        if self.wrote.load(Ordering::Relaxed) {
            self.close().await;
        }
    }

    /// A write transaction (see `Pool::write`), remembered for
    /// [`Store::close_after_writes`].
    pub(crate) async fn write(&self) -> Result<crate::db::Tx, StoreError> {
        self.wrote.store(true, Ordering::Relaxed);
        self.pool.write().await
    }

    /// SQLite: `PRAGMA integrity_check` and `foreign_key_check`; returns the
    /// problems found (empty when healthy). PostgreSQL: always empty (the
    /// server keeps its own integrity).
    pub async fn check_integrity(&self) -> Result<Vec<String>, StoreError> {
        if self.backend() != Backend::Sqlite {
            return Ok(Vec::new());
        }
        let mut tx = self.pool.read().await?;
        let mut problems = Vec::new();
        for row in tx
            .fetch_all("checking integrity", "PRAGMA integrity_check", vec![])
            .await?
        {
            let line = row.text("integrity_check")?;
            if line != "ok" {
                problems.push(line);
            }
        }
        let fk = tx
            .fetch_all("checking foreign keys", "PRAGMA foreign_key_check", vec![])
            .await?;
        if !fk.is_empty() {
            problems.push(format!("{} foreign key violation(s)", fk.len()));
        }
        Ok(problems)
    }

    /// Counts of everything, with staleness judged at `now`.
    pub async fn stats(&self, now: Timestamp) -> Result<StoreStats, StoreError> {
        let mut tx = self.pool.read().await?;
        let mut stats = StoreStats {
            backend: self.backend().as_str().to_string(),
            ..StoreStats::default()
        };
        let row = tx
            .fetch_optional(
                "counting evidence",
                "SELECT COUNT(*) AS n, CAST(COALESCE(SUM(length(text_zstd)), 0) AS BIGINT) AS bytes FROM evidence",
                vec![],
            )
            .await?;
        if let Some(r) = row {
            stats.evidence = r.int("n")? as u64;
            stats.evidence_text_bytes = r.int("bytes")? as u64;
        }
        for r in tx
            .fetch_all(
                "counting cache entries",
                "SELECT topic_type, COUNT(*) AS n, \
                 CAST(COALESCE(SUM(CASE WHEN stale_after_ms <= $1 THEN 1 ELSE 0 END), 0) AS BIGINT) AS stale \
                 FROM cache_entries GROUP BY topic_type ORDER BY topic_type",
                args![now.as_millisecond()],
            )
            .await?
        {
            let t = TopicStats {
                entries: r.int("n")? as u64,
                stale: r.int("stale")? as u64,
            };
            stats.cache_entries += t.entries;
            stats.stale += t.stale;
            stats.by_topic.insert(r.text("topic_type")?, t);
        }
        stats.fresh = stats.cache_entries - stats.stale;
        for r in tx
            .fetch_all(
                "counting requests",
                "SELECT status, COUNT(*) AS n FROM human_requests GROUP BY status",
                vec![],
            )
            .await?
        {
            let n = r.int("n")? as u64;
            match r.text("status")?.parse::<RequestStatus>()? {
                RequestStatus::Open => stats.requests_open = n,
                RequestStatus::Resolved => stats.requests_resolved = n,
                RequestStatus::Cancelled => stats.requests_cancelled = n,
            }
        }
        if let Some(r) = tx
            .fetch_optional(
                "counting screenshots",
                "SELECT COUNT(*) AS n FROM screenshots",
                vec![],
            )
            .await?
        {
            stats.screenshots = r.int("n")? as u64;
        }
        Ok(stats)
    }
}

// ----- helpers shared by the concern modules -------------------------------

pub(crate) fn key_args(key: &CacheKey) -> Vec<Arg> {
    args![
        &key.normalized_query,
        &key.topic_type,
        &key.jurisdiction_or_scope,
        &key.effective_date
    ]
}

pub(crate) fn to_json<T: serde::Serialize + ?Sized>(
    v: &T,
    what: &'static str,
) -> Result<String, StoreError> {
    serde_json::to_string(v).map_err(|e| StoreError::Invalid {
        field: what,
        message: e.to_string(),
    })
}

/// `t` without its sub-millisecond part (the store keeps milliseconds).
pub(crate) fn whole_ms(t: Timestamp) -> Timestamp {
    Timestamp::from_millisecond(t.as_millisecond()).unwrap_or(t)
}

pub(crate) fn ts(ms: i64, what: &str) -> Result<Timestamp, StoreError> {
    Timestamp::from_millisecond(ms).map_err(|e| StoreError::corrupt(what.to_string(), e))
}

pub(crate) fn json_col<T: serde::de::DeserializeOwned>(
    row: &Row,
    col: &str,
    owner: &dyn std::fmt::Display,
) -> Result<T, StoreError> {
    let text = row.text(col)?;
    serde_json::from_str(&text)
        .map_err(|e| StoreError::corrupt(format!("{owner} field `{col}`"), e))
}

pub(crate) fn decode_key(row: &Row) -> Result<CacheKey, StoreError> {
    Ok(CacheKey {
        normalized_query: row.text("normalized_query")?,
        topic_type: row.text("topic_type")?,
        jurisdiction_or_scope: row.text("jurisdiction_or_scope")?,
        effective_date: row.text("effective_date")?,
    })
}

/// Prefixes a column-level `Corrupt` error with the record it belongs to.
pub(crate) fn in_record(e: StoreError, owner: &str) -> StoreError {
    match e {
        StoreError::Corrupt { what, message } if !what.starts_with(owner) => StoreError::Corrupt {
            what: format!("{owner} {what}"),
            message,
        },
        other => other,
    }
}
