//! The evidence cache: one entry per [`CacheKey`] with topic-aware
//! staleness; lookup, refresh, keyset-paged listing and purge.

use crate::Store;
use crate::StoreError;
use crate::db::{Arg, Row, Tx, args};
use crate::model::*;
use crate::store::{KEY_MATCH, decode_key, in_record, json_col, key_args, to_json, ts, whole_ms};
use jiff::Timestamp;
use sgw_contract::{CacheKey, SearchResult};
use std::collections::BTreeSet;

const CACHE_COLS: &str = "normalized_query, topic_type, jurisdiction_or_scope, effective_date, \
    result, evidence_ids, confidence, created_at_ms, refreshed_at_ms, stale_after_ms";

/// Where a [`CachePage`] ends: the last entry's place in the list order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheCursor {
    pub refreshed_at_ms: i64,
    pub key: CacheKey,
}

/// The columns of the cache list's order, as the `cache_by_list` index
/// holds them.
const LIST_ORDER_COLUMNS: &str =
    "refreshed_at_ms, normalized_query, topic_type, jurisdiction_or_scope, effective_date";

/// The cache list's order: most recently refreshed first, then by key (both
/// descending: the `cache_by_list` index read backwards, with no sort).
const LIST_ORDER: &str = "refreshed_at_ms DESC, normalized_query DESC, topic_type DESC, \
     jurisdiction_or_scope DESC, effective_date DESC";

/// The cache list's query (`$1`: the instant staleness is judged at), with
/// its `WHERE …` (or nothing) and ` LIMIT …` (or nothing).
fn list_sql(where_: &str, limit: &str) -> String {
    format!(
        "SELECT normalized_query, topic_type, jurisdiction_or_scope, effective_date, evidence_ids, \
         confidence, created_at_ms, refreshed_at_ms, stale_after_ms, \
         CAST(CASE WHEN stale_after_ms <= $1 THEN 1 ELSE 0 END AS BIGINT) AS stale \
         FROM cache_entries {where_} \
         ORDER BY {LIST_ORDER}{limit}"
    )
}

/// The entries after a cursor in the list order (`$n`: its refresh instant,
/// `$n+1..$n+4`: its key): one row-value comparison over the `cache_by_list`
/// index's columns, so that a page starts at the cursor instead of sorting
/// the entries that share its refresh instant.
fn after_cursor(n: usize) -> String {
    format!(
        "({LIST_ORDER_COLUMNS}) < (${n}, ${}, ${}, ${}, ${})",
        n + 1,
        n + 2,
        n + 3,
        n + 4
    )
}

/// One page of cache entries ([`Store::list_page`]).
#[derive(Debug, Clone)]
pub struct CachePage {
    pub entries: Vec<CacheEntrySummary>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<CacheCursor>,
}

impl Store {
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
        let mut tx = self.write().await?;
        let entry = upsert_cache(&mut tx, key, result, &self.staleness, now).await?;
        tx.commit().await?;
        Ok(entry)
    }

    /// The entry for `key`, fresh or stale at `now`, or a miss.
    pub async fn lookup(&self, key: &CacheKey, now: Timestamp) -> Result<CacheLookup, StoreError> {
        let row = self
            .pool
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
        let mut tx = self.write().await?;
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
    /// refreshed first (entries refreshed at the same millisecond by key,
    /// descending), with staleness judged at `now`. Loads every match:
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
            conds.push(after_cursor(a.len() + 1));
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
            .fetch_all("listing the cache", &list_sql(&where_, &limit), a)
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
        let mut tx = self.write().await?;
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
}

pub(crate) async fn upsert_cache(
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

pub(crate) fn decode_cache_entry(row: &Row) -> Result<CacheEntry, StoreError> {
    let key = decode_key(row)?;
    let owner = format!("cache entry {key}");
    decode_cache_entry_of(row, key).map_err(|e| in_record(e, &owner))
}

pub(crate) fn decode_cache_entry_of(row: &Row, key: CacheKey) -> Result<CacheEntry, StoreError> {
    Ok(CacheEntry {
        result: json_col(row, "result", &key)?,
        evidence_ids: json_col(row, "evidence_ids", &key)?,
        created_at: ts(row.int("created_at_ms")?, "cache created_at")?,
        refreshed_at: ts(row.int("refreshed_at_ms")?, "cache refreshed_at")?,
        stale_after: ts(row.int("stale_after_ms")?, "cache stale_after")?,
        key,
    })
}

#[cfg(all(test, feature = "sqlite"))]
mod tests {
    use super::*;
    use crate::db::args;

    /// SQLite's plan for a page after a cursor: what makes each page cost
    /// the same however deep it is and however many entries share one
    /// refresh instant.
    #[tokio::test]
    async fn a_page_after_a_cursor_walks_the_list_index_without_sorting() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        let sql = format!(
            "EXPLAIN QUERY PLAN {}",
            list_sql(&format!("WHERE {}", after_cursor(2)), " LIMIT 501")
        );
        let mut tx = store.pool.read().await.unwrap();
        let rows = tx
            .fetch_all("planning", &sql, args![0i64, 0i64, "q", "t", "s", "d"])
            .await
            .unwrap();
        let plan: Vec<String> = rows.iter().map(|r| r.text("detail").unwrap()).collect();
        assert!(plan.iter().any(|d| d.contains("cache_by_list")), "{plan:?}");
        assert!(!plan.iter().any(|d| d.contains("TEMP B-TREE")), "{plan:?}");
    }
}
