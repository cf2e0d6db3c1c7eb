//! The [`Store`]: evidence, cache entries, human evidence requests.

use crate::StoreError;
use crate::db::{self, Arg, Backend, Pool, Row, Tx, args};
use crate::model::*;
use jiff::Timestamp;
use sgw_contract::{
    Answer, AnswerPassage, CacheKey, Evidence, EvidenceSource, HttpValidators, Passage,
    SearchResult, SourceTier,
};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Largest evidence text accepted (bytes, before compression).
pub const MAX_TEXT_BYTES: usize = 64 << 20;
/// Largest screenshot accepted (bytes).
pub const MAX_SCREENSHOT_BYTES: usize = 32 << 20;
/// zstd level for evidence text: fast, and text compresses well at it.
const ZSTD_LEVEL: i32 = 3;

/// The evidence store. Cheap to clone (clones share one connection pool).
#[derive(Clone)]
pub struct Store {
    pub(crate) pool: Pool,
    staleness: StalenessRules,
    location: String,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("backend", &self.pool.backend())
            .field("location", &self.location)
            .finish()
    }
}

/// Fields of the evidence table, in the order `decode_evidence` reads them.
const EVIDENCE_COLS: &str = "id, normalized_query, topic_type, jurisdiction_or_scope, effective_date, \
    tier, publisher, url, final_url, title, extracted_at_ms, published_at, answer_fields, confidence, \
    content_hash, extraction_method, text_zstd, text_len, passages, etag, last_modified, extra";

const CACHE_COLS: &str = "normalized_query, topic_type, jurisdiction_or_scope, effective_date, \
    result, evidence_ids, confidence, created_at_ms, refreshed_at_ms, stale_after_ms";

const REQUEST_COLS: &str = "id, status, normalized_query, topic_type, jurisdiction_or_scope, \
    effective_date, query, attempts, blocked, created_at_ms, resolved_at_ms, evidence_id";

/// Where a [`CachePage`] ends: the last entry's place in the list order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheCursor {
    pub refreshed_at_ms: i64,
    pub key: CacheKey,
}

/// One page of cache entries ([`Store::list_page`]).
#[derive(Debug, Clone)]
pub struct CachePage {
    pub entries: Vec<CacheEntrySummary>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<CacheCursor>,
}

const KEY_MATCH: &str = "normalized_query = $1 AND topic_type = $2 AND jurisdiction_or_scope = $3 AND effective_date = $4";

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
        };
        tracing::debug!(location = %store.location, backend = store.backend().as_str(), "store opened");
        Ok(store)
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

    /// Closes the pool, waiting for connections to be returned.
    pub async fn close(&self) {
        self.pool.close().await;
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

    // ----- evidence -----------------------------------------------------

    /// Stores (or replaces, by id) one evidence record.
    pub async fn put_evidence(&self, record: &StoredEvidence) -> Result<(), StoreError> {
        let mut tx = self.pool.write().await?;
        insert_evidence(&mut tx, record).await?;
        tx.commit().await
    }

    /// The evidence record `id`, if stored.
    pub async fn get_evidence(&self, id: &str) -> Result<Option<StoredEvidence>, StoreError> {
        check_id("evidence", "ev-", id)?;
        let mut tx = self.pool.read().await?;
        let row = tx
            .fetch_optional(
                "reading evidence",
                &format!("SELECT {EVIDENCE_COLS} FROM evidence WHERE id = $1"),
                args![id],
            )
            .await?;
        row.map(|r| decode_evidence(&r)).transpose()
    }

    /// The records for `ids` that are stored, in the order of `ids` (one
    /// read; unknown ids are skipped, malformed ones are an error). Handy
    /// for loading a cache entry's evidence: `get_evidence_batch(&entry.evidence_ids)`.
    pub async fn get_evidence_batch(
        &self,
        ids: &[String],
    ) -> Result<Vec<StoredEvidence>, StoreError> {
        for id in ids {
            check_id("evidence", "ev-", id)?;
        }
        let mut tx = self.pool.read().await?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(row) = tx
                .fetch_optional(
                    "reading evidence",
                    &format!("SELECT {EVIDENCE_COLS} FROM evidence WHERE id = $1"),
                    args![id],
                )
                .await?
            {
                out.push(decode_evidence(&row)?);
            }
        }
        Ok(out)
    }

    /// Every evidence record gathered for `key`, newest first.
    pub async fn evidence_for_key(
        &self,
        key: &CacheKey,
    ) -> Result<Vec<StoredEvidence>, StoreError> {
        let mut tx = self.pool.read().await?;
        let rows = tx
            .fetch_all(
                "reading evidence for a key",
                &format!(
                    "SELECT {EVIDENCE_COLS} FROM evidence WHERE {KEY_MATCH} ORDER BY extracted_at_ms DESC, id DESC"
                ),
                key_args(key),
            )
            .await?;
        rows.iter().map(decode_evidence).collect()
    }

    /// Replaces the HTTP validators of evidence `id` (after a revalidation
    /// that returned new ones). Returns false when there is no such evidence.
    pub async fn set_validators(
        &self,
        id: &str,
        validators: &HttpValidators,
    ) -> Result<bool, StoreError> {
        check_id("evidence", "ev-", id)?;
        let mut tx = self.pool.write().await?;
        let n = tx
            .execute(
                "updating validators",
                "UPDATE evidence SET etag = $1, last_modified = $2 WHERE id = $3",
                args![
                    validators.etag.clone(),
                    validators.last_modified.clone(),
                    id
                ],
            )
            .await?;
        tx.commit().await?;
        Ok(n > 0)
    }

    /// Stores an image linked to evidence `evidence_id`; returns its record.
    pub async fn put_screenshot(
        &self,
        evidence_id: &str,
        mime: &str,
        bytes: Vec<u8>,
        now: Timestamp,
    ) -> Result<Screenshot, StoreError> {
        let now = whole_ms(now);
        check_id("evidence", "ev-", evidence_id)?;
        let mut tx = self.pool.write().await?;
        let shot = insert_screenshot(&mut tx, evidence_id, mime, bytes, now).await?;
        tx.commit().await?;
        Ok(shot)
    }

    /// The images linked to evidence `evidence_id`, oldest first.
    pub async fn screenshots(&self, evidence_id: &str) -> Result<Vec<Screenshot>, StoreError> {
        check_id("evidence", "ev-", evidence_id)?;
        let mut tx = self.pool.read().await?;
        let rows = tx
            .fetch_all(
                "reading screenshots",
                "SELECT id, evidence_id, mime, bytes, created_at_ms FROM screenshots WHERE evidence_id = $1 ORDER BY id",
                args![evidence_id],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(Screenshot {
                    id: r.text("id")?,
                    evidence_id: r.text("evidence_id")?,
                    mime: r.text("mime")?,
                    bytes: r.bytes("bytes")?,
                    created_at: ts(r.int("created_at_ms")?, "screenshot created_at")?,
                })
            })
            .collect()
    }

    // ----- cache --------------------------------------------------------

    /// Writes (or replaces) the cache entry for `key`: `result`, its
    /// evidence ids, `refreshed_at = now` and `stale_after` from the
    /// staleness rules. `created_at` survives replacement.
    pub async fn put_cache_entry(
        &self,
        key: &CacheKey,
        result: &SearchResult,
        now: Timestamp,
    ) -> Result<CacheEntry, StoreError> {
        let now = whole_ms(now);
        let mut tx = self.pool.write().await?;
        let entry = upsert_cache(&mut tx, key, result, &self.staleness, now).await?;
        tx.commit().await?;
        Ok(entry)
    }

    /// The entry for `key`, fresh or stale at `now`, or a miss.
    pub async fn lookup(&self, key: &CacheKey, now: Timestamp) -> Result<CacheLookup, StoreError> {
        let mut tx = self.pool.read().await?;
        let row = tx
            .fetch_optional(
                "looking up the cache",
                &format!("SELECT {CACHE_COLS} FROM cache_entries WHERE {KEY_MATCH}"),
                key_args(key),
            )
            .await?;
        let Some(row) = row else {
            return Ok(CacheLookup::Miss);
        };
        let entry = decode_cache_entry(&row)?;
        Ok(if entry.is_stale(now) {
            CacheLookup::Stale(entry)
        } else {
            CacheLookup::Fresh(entry)
        })
    }

    /// Records a revalidation that found the content unchanged:
    /// `refreshed_at = now` and `stale_after` recomputed. Returns the
    /// updated entry, or `None` when there is no entry for `key`.
    pub async fn refresh(
        &self,
        key: &CacheKey,
        now: Timestamp,
    ) -> Result<Option<CacheEntry>, StoreError> {
        let now = whole_ms(now);
        let stale_after = self.staleness.stale_after(&key.topic_type, now);
        let mut tx = self.pool.write().await?;
        let mut a = key_args(key);
        a.extend(args![now.as_millisecond(), stale_after.as_millisecond()]);
        let n = tx
            .execute(
                "refreshing a cache entry",
                &format!(
                    "UPDATE cache_entries SET refreshed_at_ms = $5, stale_after_ms = $6 WHERE {KEY_MATCH}"
                ),
                a,
            )
            .await?;
        if n == 0 {
            return Ok(None);
        }
        let row = tx
            .fetch_optional(
                "reading a refreshed cache entry",
                &format!("SELECT {CACHE_COLS} FROM cache_entries WHERE {KEY_MATCH}"),
                key_args(key),
            )
            .await?;
        let entry = row.map(|r| decode_cache_entry(&r)).transpose()?;
        tx.commit().await?;
        Ok(entry)
    }

    /// Cache entries matching `filter` (all when `None`), most recently
    /// refreshed first, with staleness judged at `now`. Loads every match:
    /// prefer [`Store::list_page`] where the store may be large.
    pub async fn list(
        &self,
        filter: Option<&CacheFilter>,
        now: Timestamp,
    ) -> Result<Vec<CacheEntrySummary>, StoreError> {
        self.list_query(filter, now, None, None).await
    }

    /// One page of [`Store::list`]: at most `limit` entries (at least 1)
    /// after `after` (the previous page's [`CachePage::next`]; `None` for the
    /// first page). Keyset paging on the list order, so each page costs the
    /// same however deep it is and entries written meanwhile never repeat one.
    pub async fn list_page(
        &self,
        filter: Option<&CacheFilter>,
        now: Timestamp,
        after: Option<&CacheCursor>,
        limit: usize,
    ) -> Result<CachePage, StoreError> {
        let limit = limit.max(1);
        let mut entries = self.list_query(filter, now, after, Some(limit + 1)).await?;
        let next = if entries.len() > limit {
            entries.truncate(limit);
            entries.last().map(|e| CacheCursor {
                refreshed_at_ms: e.refreshed_at.as_millisecond(),
                key: e.key.clone(),
            })
        } else {
            None
        };
        Ok(CachePage { entries, next })
    }

    async fn list_query(
        &self,
        filter: Option<&CacheFilter>,
        now: Timestamp,
        after: Option<&CacheCursor>,
        limit: Option<usize>,
    ) -> Result<Vec<CacheEntrySummary>, StoreError> {
        let (cond, mut a) = match filter {
            Some(f) => f.sql(now, 2),
            None => (String::new(), Vec::new()),
        };
        a.insert(0, Arg::from(now.as_millisecond()));
        let mut conds: Vec<String> = Vec::new();
        if !cond.is_empty() {
            conds.push(cond);
        }
        if let Some(c) = after {
            let n = a.len() + 1;
            conds.push(format!(
                "(refreshed_at_ms < ${n} OR (refreshed_at_ms = ${n} AND \
                 (normalized_query, topic_type, jurisdiction_or_scope, effective_date) > \
                 (${}, ${}, ${}, ${})))",
                n + 1,
                n + 2,
                n + 3,
                n + 4
            ));
            a.push(Arg::from(c.refreshed_at_ms));
            a.extend(key_args(&c.key));
        }
        let where_ = if conds.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", conds.join(" AND "))
        };
        let limit = match limit {
            Some(l) => format!(" LIMIT {}", l.min(i64::MAX as usize)),
            None => String::new(),
        };
        let mut tx = self.pool.read().await?;
        let rows = tx
            .fetch_all(
                "listing the cache",
                &format!(
                    "SELECT normalized_query, topic_type, jurisdiction_or_scope, effective_date, evidence_ids, \
                     confidence, created_at_ms, refreshed_at_ms, stale_after_ms, \
                     CAST(CASE WHEN stale_after_ms <= $1 THEN 1 ELSE 0 END AS BIGINT) AS stale \
                     FROM cache_entries {where_} \
                     ORDER BY refreshed_at_ms DESC, normalized_query, topic_type, jurisdiction_or_scope, effective_date{limit}"
                ),
                a,
            )
            .await?;
        rows.iter()
            .map(|r| {
                let key = decode_key(r)?;
                Ok(CacheEntrySummary {
                    evidence_ids: json_col(r, "evidence_ids", &key)?,
                    confidence: r.opt_float("confidence")?,
                    created_at: ts(r.int("created_at_ms")?, "cache created_at")?,
                    refreshed_at: ts(r.int("refreshed_at_ms")?, "cache refreshed_at")?,
                    stale_after: ts(r.int("stale_after_ms")?, "cache stale_after")?,
                    stale: r.int("stale")? != 0,
                    key,
                })
            })
            .collect()
    }

    /// Deletes the cache entries matching `filter` (judged at `now`) and
    /// the evidence records they leave unreferenced (evidence cited by
    /// another entry or by a human request stays). One transaction.
    pub async fn purge(
        &self,
        filter: &CacheFilter,
        now: Timestamp,
    ) -> Result<PurgeReport, StoreError> {
        if filter.is_empty() {
            return Err(StoreError::Invalid {
                field: "purge filter",
                message: "a purge needs at least one criterion (older than, topic, stale)".into(),
            });
        }
        let (cond, a) = filter.sql(now, 1);
        let mut tx = self.pool.write().await?;
        let purged = tx
            .fetch_all(
                "purging cache entries",
                &format!(
                    "DELETE FROM cache_entries WHERE {cond} \
                     RETURNING normalized_query, topic_type, jurisdiction_or_scope, effective_date, evidence_ids"
                ),
                a,
            )
            .await?;
        let mut candidates = BTreeSet::new();
        for row in &purged {
            let key = decode_key(row)?;
            let ids: Vec<String> = json_col(row, "evidence_ids", &key)?;
            candidates.extend(ids);
            for r in tx
                .fetch_all(
                    "finding evidence of purged entries",
                    &format!("SELECT id FROM evidence WHERE {KEY_MATCH}"),
                    key_args(&key),
                )
                .await?
            {
                candidates.insert(r.text("id")?);
            }
        }
        let mut evidence = 0;
        for id in &candidates {
            evidence += tx
                .execute(
                    "purging unreferenced evidence",
                    "DELETE FROM evidence WHERE id = $1 \
                     AND NOT EXISTS (SELECT 1 FROM cache_evidence WHERE evidence_id = $1) \
                     AND NOT EXISTS (SELECT 1 FROM human_requests WHERE evidence_id = $1)",
                    args![id],
                )
                .await?;
        }
        tx.commit().await?;
        let report = PurgeReport {
            cache_entries: purged.len() as u64,
            evidence,
        };
        tracing::info!(?report, ?filter, "store purge");
        Ok(report)
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

    /// What the orchestrator's [`sgw_contract::EvidenceSink`] does, in one
    /// transaction: stores every piece of `used` evidence (tier and
    /// extraction time from the result's matching source, answer fields
    /// that cite it, the result's confidence) and the cache entry for `key`.
    /// Evidence without a valid `ev-` id gets a new one. Returns the ids.
    pub async fn persist_result(
        &self,
        key: &CacheKey,
        result: &SearchResult,
        used: &[Evidence],
        now: Timestamp,
    ) -> Result<Vec<String>, StoreError> {
        let now = whole_ms(now);
        let mut tx = self.pool.write().await?;
        // Cache entry first, then evidence: the same lock order as `purge`,
        // so concurrent persists and purges on PostgreSQL cannot deadlock.
        upsert_cache(&mut tx, key, result, &self.staleness, now).await?;
        let mut ids = Vec::with_capacity(used.len());
        for ev in used {
            let record = record_for_result(key, result, ev, now);
            if ev.evidence_id.as_deref() != Some(record.id.as_str()) {
                tracing::warn!(url = %ev.url, id = %record.id, "evidence without a valid ev- id: assigned one");
            }
            insert_evidence(&mut tx, &record).await?;
            ids.push(record.id);
        }
        tx.commit().await?;
        Ok(ids)
    }

    // ----- human evidence requests ---------------------------------------

    /// Opens a human evidence request.
    pub async fn create_request(
        &self,
        new: NewHumanRequest,
        now: Timestamp,
    ) -> Result<HumanRequest, StoreError> {
        let now = whole_ms(now);
        let req = HumanRequest {
            id: new_request_id(),
            status: RequestStatus::Open,
            key: new.key,
            query: new.query,
            attempts: new.attempts,
            blocked: new.blocked,
            created_at: now,
            resolved_at: None,
            evidence_id: None,
        };
        let mut a = vec![Arg::from(&req.id), Arg::from(req.status.as_str())];
        a.extend(key_args(&req.key));
        a.extend(args![
            &req.query,
            to_json(&req.attempts, "request attempts")?,
            to_json(&req.blocked, "request blocked URLs")?,
            now.as_millisecond()
        ]);
        let mut tx = self.pool.write().await?;
        tx.execute(
            "creating a human evidence request",
            &format!(
                "INSERT INTO human_requests ({REQUEST_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, NULL)"
            ),
            a,
        )
        .await?;
        tx.commit().await?;
        tracing::info!(id = %req.id, key = %req.key, "human evidence request opened");
        Ok(req)
    }

    /// The request `id`, if stored.
    pub async fn get_request(&self, id: &str) -> Result<Option<HumanRequest>, StoreError> {
        check_id("human evidence request", "hr-", id)?;
        let mut tx = self.pool.read().await?;
        fetch_request(&mut tx, id, false).await
    }

    /// Requests with `status` (all when `None`), oldest first.
    pub async fn list_requests(
        &self,
        status: Option<RequestStatus>,
    ) -> Result<Vec<HumanRequest>, StoreError> {
        let mut tx = self.pool.read().await?;
        let rows = match status {
            Some(s) => {
                tx.fetch_all(
                    "listing requests",
                    &format!(
                        "SELECT {REQUEST_COLS} FROM human_requests WHERE status = $1 ORDER BY created_at_ms, id"
                    ),
                    args![s.as_str()],
                )
                .await?
            }
            None => {
                tx.fetch_all(
                    "listing requests",
                    &format!("SELECT {REQUEST_COLS} FROM human_requests ORDER BY created_at_ms, id"),
                    vec![],
                )
                .await?
            }
        };
        rows.iter().map(decode_request).collect()
    }

    /// Resolves open request `id` with what a person submitted, in one
    /// transaction: stores the evidence as USER_SUPPLIED_EVIDENCE under the
    /// request's key (plus the screenshot, if any), marks the request
    /// resolved, and writes the cache entry for the key so the next
    /// identical query answers from cache. When the submission carries no
    /// result, one is built from the evidence alone (its passages, scored
    /// by the contract's default scoring: USER_SUPPLIED_EVIDENCE, low).
    pub async fn resolve_request(
        &self,
        id: &str,
        submission: Submission,
        now: Timestamp,
    ) -> Result<HumanRequest, StoreError> {
        let now = whole_ms(now);
        check_id("human evidence request", "hr-", id)?;
        let mut tx = self.pool.write().await?;
        let mut req = fetch_open_request(&mut tx, id).await?;
        let mut record = StoredEvidence::new(
            req.key.clone(),
            SourceTier::UserSuppliedEvidence,
            submission.evidence,
        );
        record.extracted_at = now;
        record.evidence.tier_hint = Some(SourceTier::UserSuppliedEvidence);
        let mut result = match submission.result {
            Some(r) => r,
            None => result_from_user_evidence(&record, now),
        };
        if !result.evidence_ids.contains(&record.id) {
            result.evidence_ids.push(record.id.clone());
        }
        result
            .human_request_id
            .get_or_insert_with(|| id.to_string());
        result.cache_key.get_or_insert_with(|| req.key.clone());
        record.confidence = Some(result.confidence);
        insert_evidence(&mut tx, &record).await?;
        if let Some((mime, bytes)) = submission.screenshot {
            insert_screenshot(&mut tx, &record.id, &mime, bytes, now).await?;
        }
        let n = tx
            .execute(
                "resolving a request",
                "UPDATE human_requests SET status = 'resolved', resolved_at_ms = $1, evidence_id = $2 \
                 WHERE id = $3 AND status = 'open'",
                args![now.as_millisecond(), &record.id, id],
            )
            .await?;
        if n != 1 {
            return Err(StoreError::InvalidState {
                id: id.to_string(),
                status: "no longer open".into(),
                expected: "open",
            });
        }
        upsert_cache(&mut tx, &req.key, &result, &self.staleness, now).await?;
        tx.commit().await?;
        req.status = RequestStatus::Resolved;
        req.resolved_at = Some(now);
        req.evidence_id = Some(record.id);
        tracing::info!(id, evidence = ?req.evidence_id, "human evidence request resolved");
        Ok(req)
    }

    /// Cancels open request `id`.
    pub async fn cancel_request(
        &self,
        id: &str,
        now: Timestamp,
    ) -> Result<HumanRequest, StoreError> {
        let now = whole_ms(now);
        check_id("human evidence request", "hr-", id)?;
        let mut tx = self.pool.write().await?;
        let mut req = fetch_open_request(&mut tx, id).await?;
        tx.execute(
            "cancelling a request",
            "UPDATE human_requests SET status = 'cancelled', resolved_at_ms = $1 WHERE id = $2 AND status = 'open'",
            args![now.as_millisecond(), id],
        )
        .await?;
        tx.commit().await?;
        req.status = RequestStatus::Cancelled;
        req.resolved_at = Some(now);
        Ok(req)
    }
}

// ----- helpers used inside transactions -----------------------------------

fn key_args(key: &CacheKey) -> Vec<Arg> {
    args![
        &key.normalized_query,
        &key.topic_type,
        &key.jurisdiction_or_scope,
        &key.effective_date
    ]
}

fn to_json<T: serde::Serialize + ?Sized>(v: &T, what: &'static str) -> Result<String, StoreError> {
    serde_json::to_string(v).map_err(|e| StoreError::Invalid {
        field: what,
        message: e.to_string(),
    })
}

/// `t` without its sub-millisecond part (the store keeps milliseconds).
pub(crate) fn whole_ms(t: Timestamp) -> Timestamp {
    Timestamp::from_millisecond(t.as_millisecond()).unwrap_or(t)
}

fn ts(ms: i64, what: &str) -> Result<Timestamp, StoreError> {
    Timestamp::from_millisecond(ms).map_err(|e| StoreError::corrupt(what.to_string(), e))
}

fn json_col<T: serde::de::DeserializeOwned>(
    row: &Row,
    col: &str,
    owner: &dyn std::fmt::Display,
) -> Result<T, StoreError> {
    let text = row.text(col)?;
    serde_json::from_str(&text)
        .map_err(|e| StoreError::corrupt(format!("{owner} field `{col}`"), e))
}

fn decode_key(row: &Row) -> Result<CacheKey, StoreError> {
    Ok(CacheKey {
        normalized_query: row.text("normalized_query")?,
        topic_type: row.text("topic_type")?,
        jurisdiction_or_scope: row.text("jurisdiction_or_scope")?,
        effective_date: row.text("effective_date")?,
    })
}

async fn insert_evidence(tx: &mut Tx, r: &StoredEvidence) -> Result<(), StoreError> {
    check_id("evidence", "ev-", &r.id)?;
    let ev = &r.evidence;
    if ev.text.len() > MAX_TEXT_BYTES {
        return Err(StoreError::Invalid {
            field: "evidence text",
            message: format!(
                "{} is {} bytes, more than the {MAX_TEXT_BYTES}-byte limit",
                r.id,
                ev.text.len()
            ),
        });
    }
    let compressed =
        zstd::bulk::compress(ev.text.as_bytes(), ZSTD_LEVEL).map_err(|e| StoreError::Invalid {
            field: "evidence text",
            message: format!("{}: zstd compression failed: {e}", r.id),
        })?;
    // Everything of the evidence that has no column of its own (metadata,
    // tier hint, flags, found fields, and whatever the contract adds later)
    // is kept as the evidence's own JSON with the bulky parts emptied.
    let extra = Evidence {
        text: String::new(),
        passages: Vec::new(),
        evidence_id: None,
        ..ev.clone()
    };
    let mut a = vec![Arg::from(&r.id)];
    a.extend(key_args(&r.key));
    a.extend(args![
        r.tier.as_str(),
        ev.publisher.clone(),
        ev.url.to_string(),
        ev.final_url.as_ref().map(|u| u.to_string()),
        &ev.title,
        r.extracted_at.as_millisecond(),
        ev.published_at.clone(),
        to_json(&r.answer_fields, "evidence answer_fields")?,
        r.confidence,
        &ev.content_hash,
        &ev.extraction_method,
        compressed,
        ev.text.len() as i64,
        to_json(&ev.passages, "evidence passages")?,
        ev.validators.etag.clone(),
        ev.validators.last_modified.clone(),
        to_json(&extra, "evidence metadata")?,
    ]);
    let updates = EVIDENCE_COLS
        .split(',')
        .map(str::trim)
        .filter(|c| *c != "id")
        .map(|c| format!("{c} = excluded.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let placeholders = (1..=22)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    tx.execute(
        "storing evidence",
        &format!(
            "INSERT INTO evidence ({EVIDENCE_COLS}) VALUES ({placeholders}) ON CONFLICT (id) DO UPDATE SET {updates}"
        ),
        a,
    )
    .await?;
    Ok(())
}

/// Largest text length believed when decompressing (guards against a corrupt length).
const MAX_STORED_TEXT: i64 = MAX_TEXT_BYTES as i64;

fn decode_evidence(row: &Row) -> Result<StoredEvidence, StoreError> {
    let id = row.text("id")?;
    decode_evidence_of(row, id.clone()).map_err(|e| in_record(e, &format!("evidence {id}")))
}

/// Prefixes a column-level `Corrupt` error with the record it belongs to.
fn in_record(e: StoreError, owner: &str) -> StoreError {
    match e {
        StoreError::Corrupt { what, message } if !what.starts_with(owner) => StoreError::Corrupt {
            what: format!("{owner} {what}"),
            message,
        },
        other => other,
    }
}

fn decode_evidence_of(row: &Row, id: String) -> Result<StoredEvidence, StoreError> {
    let what = |field: &str| format!("evidence {id} field `{field}`");
    let key = decode_key(row)?;
    let tier: SourceTier = row
        .text("tier")?
        .parse()
        .map_err(|e| StoreError::corrupt(what("tier"), e))?;
    let url =
        url::Url::parse(&row.text("url")?).map_err(|e| StoreError::corrupt(what("url"), e))?;
    let final_url = row
        .opt_text("final_url")?
        .map(|u| url::Url::parse(&u))
        .transpose()
        .map_err(|e| StoreError::corrupt(what("final_url"), e))?;
    let text_len = row.int("text_len")?;
    if !(0..=MAX_STORED_TEXT).contains(&text_len) {
        return Err(StoreError::corrupt(
            what("text_len"),
            format!("{text_len} is out of range"),
        ));
    }
    let compressed = row.bytes("text_zstd")?;
    let raw = zstd::bulk::decompress(&compressed, text_len as usize)
        .map_err(|e| StoreError::corrupt(what("text_zstd"), e))?;
    if raw.len() as i64 != text_len {
        return Err(StoreError::corrupt(
            what("text_zstd"),
            format!("decompressed to {} bytes, expected {text_len}", raw.len()),
        ));
    }
    let text = String::from_utf8(raw).map_err(|e| StoreError::corrupt(what("text_zstd"), e))?;
    let passages: Vec<Passage> = serde_json::from_str(&row.text("passages")?)
        .map_err(|e| StoreError::corrupt(what("passages"), e))?;
    let mut evidence: Evidence = serde_json::from_str(&row.text("extra")?)
        .map_err(|e| StoreError::corrupt(what("extra"), e))?;
    let answer_fields = serde_json::from_str(&row.text("answer_fields")?)
        .map_err(|e| StoreError::corrupt(what("answer_fields"), e))?;
    // The columns are authoritative for what they hold.
    evidence.url = url;
    evidence.final_url = final_url;
    evidence.title = row.text("title")?;
    evidence.publisher = row.opt_text("publisher")?;
    evidence.published_at = row.opt_text("published_at")?;
    evidence.text = text;
    evidence.passages = passages;
    evidence.content_hash = row.text("content_hash")?;
    evidence.extraction_method = row.text("extraction_method")?;
    evidence.validators = HttpValidators {
        etag: row.opt_text("etag")?,
        last_modified: row.opt_text("last_modified")?,
    };
    evidence.evidence_id = Some(id.clone());
    Ok(StoredEvidence {
        extracted_at: ts(row.int("extracted_at_ms")?, &what("extracted_at_ms"))?,
        confidence: row.opt_float("confidence")?,
        id,
        key,
        tier,
        answer_fields,
        evidence,
    })
}

async fn upsert_cache(
    tx: &mut Tx,
    key: &CacheKey,
    result: &SearchResult,
    rules: &StalenessRules,
    now: Timestamp,
) -> Result<CacheEntry, StoreError> {
    let now = whole_ms(now);
    let stale_after = rules.stale_after(&key.topic_type, now);
    let mut ids: Vec<String> = Vec::new();
    for id in &result.evidence_ids {
        if !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    let mut a = key_args(key);
    a.extend(args![
        to_json(result, "cache result")?,
        to_json(&ids, "cache evidence_ids")?,
        Some(result.confidence),
        now.as_millisecond(),
        now.as_millisecond(),
        stale_after.as_millisecond()
    ]);
    let row = tx
        .fetch_optional(
            "writing a cache entry",
            &format!(
                "INSERT INTO cache_entries ({CACHE_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                 ON CONFLICT (normalized_query, topic_type, jurisdiction_or_scope, effective_date) DO UPDATE SET \
                 result = excluded.result, evidence_ids = excluded.evidence_ids, confidence = excluded.confidence, \
                 refreshed_at_ms = excluded.refreshed_at_ms, stale_after_ms = excluded.stale_after_ms \
                 RETURNING created_at_ms"
            ),
            a,
        )
        .await?;
    let created_ms = match row {
        Some(r) => r.int("created_at_ms")?,
        None => now.as_millisecond(),
    };
    tx.execute(
        "relinking cache evidence",
        &format!("DELETE FROM cache_evidence WHERE {KEY_MATCH}"),
        key_args(key),
    )
    .await?;
    for id in &ids {
        let mut a = key_args(key);
        a.push(Arg::from(id));
        tx.execute(
            "linking cache evidence",
            "INSERT INTO cache_evidence (normalized_query, topic_type, jurisdiction_or_scope, effective_date, evidence_id) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            a,
        )
        .await?;
    }
    Ok(CacheEntry {
        key: key.clone(),
        result: result.clone(),
        evidence_ids: ids,
        created_at: ts(created_ms, "cache created_at")?,
        refreshed_at: now,
        stale_after,
    })
}

fn decode_cache_entry(row: &Row) -> Result<CacheEntry, StoreError> {
    let key = decode_key(row)?;
    let owner = format!("cache entry {key}");
    decode_cache_entry_of(row, key).map_err(|e| in_record(e, &owner))
}

fn decode_cache_entry_of(row: &Row, key: CacheKey) -> Result<CacheEntry, StoreError> {
    Ok(CacheEntry {
        result: json_col(row, "result", &key)?,
        evidence_ids: json_col(row, "evidence_ids", &key)?,
        created_at: ts(row.int("created_at_ms")?, "cache created_at")?,
        refreshed_at: ts(row.int("refreshed_at_ms")?, "cache refreshed_at")?,
        stale_after: ts(row.int("stale_after_ms")?, "cache stale_after")?,
        key,
    })
}

async fn insert_screenshot(
    tx: &mut Tx,
    evidence_id: &str,
    mime: &str,
    bytes: Vec<u8>,
    now: Timestamp,
) -> Result<Screenshot, StoreError> {
    let now = whole_ms(now);
    let mime = mime.trim().to_ascii_lowercase();
    if !mime.starts_with("image/") || mime.len() > 100 {
        return Err(StoreError::Invalid {
            field: "screenshot MIME type",
            message: format!(
                "`{}` is not an image/* type",
                mime.chars().take(100).collect::<String>()
            ),
        });
    }
    if bytes.is_empty() || bytes.len() > MAX_SCREENSHOT_BYTES {
        return Err(StoreError::Invalid {
            field: "screenshot",
            message: format!("{} bytes (must be 1..={MAX_SCREENSHOT_BYTES})", bytes.len()),
        });
    }
    let id = new_screenshot_id();
    tx.execute(
        "storing a screenshot",
        "INSERT INTO screenshots (id, evidence_id, mime, bytes, created_at_ms) VALUES ($1, $2, $3, $4, $5)",
        args![&id, evidence_id, mime.as_str(), bytes.clone(), now.as_millisecond()],
    )
    .await?;
    Ok(Screenshot {
        id,
        evidence_id: evidence_id.to_string(),
        mime,
        bytes,
        created_at: now,
    })
}

/// Request `id`, locked for update, which must exist and be open.
async fn fetch_open_request(tx: &mut Tx, id: &str) -> Result<HumanRequest, StoreError> {
    let req = fetch_request(tx, id, true)
        .await?
        .ok_or_else(|| StoreError::NotFound {
            kind: "human evidence request",
            id: id.to_string(),
        })?;
    if req.status != RequestStatus::Open {
        return Err(StoreError::InvalidState {
            id: id.to_string(),
            status: req.status.to_string(),
            expected: "open",
        });
    }
    Ok(req)
}

async fn fetch_request(
    tx: &mut Tx,
    id: &str,
    for_update: bool,
) -> Result<Option<HumanRequest>, StoreError> {
    // SQLite write transactions already hold the database's write lock.
    let lock = if for_update && tx.backend() == Backend::Postgres {
        " FOR UPDATE"
    } else {
        ""
    };
    let row = tx
        .fetch_optional(
            "reading a request",
            &format!("SELECT {REQUEST_COLS} FROM human_requests WHERE id = $1{lock}"),
            args![id],
        )
        .await?;
    row.map(|r| decode_request(&r)).transpose()
}

fn decode_request(row: &Row) -> Result<HumanRequest, StoreError> {
    let id = row.text("id")?;
    let owner = format!("human evidence request {id}");
    decode_request_of(row, id, &owner).map_err(|e| in_record(e, &owner))
}

fn decode_request_of(row: &Row, id: String, owner: &str) -> Result<HumanRequest, StoreError> {
    Ok(HumanRequest {
        status: row.text("status")?.parse()?,
        key: decode_key(row)?,
        query: row.text("query")?,
        attempts: json_col(row, "attempts", &owner)?,
        blocked: json_col(row, "blocked", &owner)?,
        created_at: ts(row.int("created_at_ms")?, "request created_at")?,
        resolved_at: row
            .opt_int("resolved_at_ms")?
            .map(|ms| ts(ms, "request resolved_at"))
            .transpose()?,
        evidence_id: row.opt_text("evidence_id")?,
        id,
    })
}

/// The stored record for one piece of evidence a result used.
fn record_for_result(
    key: &CacheKey,
    result: &SearchResult,
    ev: &Evidence,
    now: Timestamp,
) -> StoredEvidence {
    let now = whole_ms(now);
    let mut record = StoredEvidence::new(
        key.clone(),
        ev.tier_hint.unwrap_or(SourceTier::GeneralWeb),
        ev.clone(),
    );
    record.extracted_at = now;
    if let Some(src) = result
        .sources
        .iter()
        .find(|s| s.evidence_id.as_deref() == Some(record.id.as_str()))
    {
        record.tier = src.tier;
        if let Ok(t) = src.extracted_at.parse::<Timestamp>() {
            record.extracted_at = t;
        }
    }
    let fields: serde_json::Map<String, serde_json::Value> = result
        .answer
        .fields
        .iter()
        .filter(|(_, f)| f.sources.iter().any(|s| s == &record.id))
        .filter_map(|(name, f)| serde_json::to_value(f).ok().map(|v| (name.clone(), v)))
        .collect();
    record.answer_fields = serde_json::Value::Object(fields);
    record.confidence = Some(result.confidence);
    record
}

/// A result made of one piece of user-supplied evidence.
fn result_from_user_evidence(record: &StoredEvidence, now: Timestamp) -> SearchResult {
    let ev = &record.evidence;
    let tier = SourceTier::UserSuppliedEvidence;
    let mut passages: Vec<AnswerPassage> = ev
        .passages
        .iter()
        .map(|p| AnswerPassage {
            text: p.text.clone(),
            evidence_id: Some(record.id.clone()),
            url: ev.url.to_string(),
            tier,
            start: p.start,
            end: p.end,
            score: p.score,
        })
        .collect();
    if passages.is_empty() && !ev.text.trim().is_empty() {
        let mut end = ev.text.len().min(1000);
        while !ev.text.is_char_boundary(end) {
            end -= 1;
        }
        passages.push(AnswerPassage {
            text: ev.text[..end].to_string(),
            evidence_id: Some(record.id.clone()),
            url: ev.url.to_string(),
            tier,
            start: 0,
            end,
            score: 1.0,
        });
    }
    let mut source =
        EvidenceSource::new(ev.url.to_string(), ev.title.clone(), tier, now.to_string());
    source.publisher = ev.publisher.clone();
    source.published_at = ev.published_at.clone();
    source.evidence_id = Some(record.id.clone());
    source.extraction_method = Some(ev.extraction_method.clone());
    let mut result = sgw_contract::build_result(
        Answer {
            passages,
            fields: Default::default(),
        },
        vec![source],
        Vec::new(),
        true,
        vec!["answered from user-supplied evidence".into()],
    );
    result.verified_at = now;
    result
}
