#![doc = include_str!("../README.md")]

use jiff::Timestamp;
use serde::Deserialize;
use sgw_contract::{
    Attempt, AttemptOutcome, BuildContext, ChainStep, Evidence, FactoryError, FailureCode,
    Provider, ProviderCall, ProviderConfig, ProviderError, ProviderReport, content_hash,
};
use sgw_fetch::{FetchRequest, Fetcher};
use sgw_store::{CacheEntry, CacheLookup, Store, StoreError, StoredEvidence};
use std::sync::Arc;
use std::time::Instant;

/// The `extraction_method` of evidence served from the cache.
pub const CACHE_METHOD: &str = "cache";

/// `config:` of an `evidence-cache` provider.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheConfig {
    /// Revalidate a stale entry by conditional GET of its sources before
    /// serving it (default `true`). Sources without ETag/Last-Modified
    /// cannot be revalidated, so such an entry stays stale.
    #[serde(default = "yes")]
    pub revalidate: bool,
    /// Treat entries last refreshed more than this many days ago as stale,
    /// even when the policy's `stale_after_days_by_topic` says they are
    /// still fresh (it can only shorten freshness, never extend it).
    #[serde(default)]
    pub max_age_days: Option<u32>,
}

fn yes() -> bool {
    true
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            revalidate: true,
            max_age_days: None,
        }
    }
}

/// The evidence-cache provider. Without a store (`--no-store`) it answers
/// nothing and says so in its attempt.
pub struct CacheProvider {
    config: CacheConfig,
    store: Option<Arc<Store>>,
    fetcher: Option<Arc<Fetcher>>,
}

impl CacheProvider {
    /// A provider reading `store` and revalidating through `fetcher` (when
    /// absent, stale entries are served without revalidation).
    pub fn new(
        config: CacheConfig,
        store: Option<Arc<Store>>,
        fetcher: Option<Arc<Fetcher>>,
    ) -> CacheProvider {
        CacheProvider {
            config,
            store,
            fetcher,
        }
    }

    /// The lookup, with `max_age_days` applied.
    async fn lookup(
        &self,
        store: &Store,
        call: &ProviderCall<'_>,
        now: Timestamp,
    ) -> Result<CacheLookup, StoreError> {
        let found = store.lookup(call.key, now).await?;
        Ok(match (found, self.config.max_age_days) {
            (CacheLookup::Fresh(entry), Some(days)) => {
                let age_ms = now
                    .as_millisecond()
                    .saturating_sub(entry.refreshed_at.as_millisecond());
                if age_ms >= i64::from(days) * 86_400_000 {
                    CacheLookup::Stale(entry)
                } else {
                    CacheLookup::Fresh(entry)
                }
            }
            (other, _) => other,
        })
    }
}

fn ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn store_error(e: &StoreError) -> ProviderError {
    // The store being unreadable is the provider's failure (it feeds suspension).
    ProviderError::new(
        FailureCode::EvidenceCacheMiss,
        format!("the evidence store could not be read: {e}"),
    )
}

/// The evidence an entry cites, as cache evidence (id kept, method `cache`,
/// stored tier as hint). Ids the store no longer has are reported.
async fn entry_evidence(
    store: &Store,
    entry: &CacheEntry,
) -> Result<(Vec<StoredEvidence>, Vec<String>), StoreError> {
    // One read for all of them (not one per id).
    let records = store.get_evidence_batch(&entry.evidence_ids).await?;
    let missing = entry
        .evidence_ids
        .iter()
        .filter(|id| !records.iter().any(|r| &r.id == *id))
        .cloned()
        .collect();
    Ok((records, missing))
}

/// A stored record as evidence the orchestrator will not store again.
pub fn as_cache_evidence(record: &StoredEvidence) -> Evidence {
    let mut ev = record.evidence.clone();
    ev.evidence_id = Some(record.id.clone());
    ev.tier_hint = Some(record.tier);
    ev.extraction_method = CACHE_METHOD.to_string();
    ev.stored = true;
    ev
}

/// What revalidating an entry's sources found.
#[derive(Debug, Default)]
struct Revalidation {
    /// Sources confirmed unchanged (304, or 200 with identical content).
    unchanged: usize,
    /// Sources that could not be checked (no validators).
    unchecked: usize,
    /// Sources that changed or failed: keep the entry stale.
    blocking: usize,
    attempts: Vec<Attempt>,
    notes: Vec<String>,
}

impl CacheProvider {
    async fn revalidate(
        &self,
        fetcher: &Fetcher,
        store: &Store,
        records: &[StoredEvidence],
        call: &ProviderCall<'_>,
    ) -> Revalidation {
        let mut out = Revalidation::default();
        for record in records {
            let ev = &record.evidence;
            if ev.validators.is_empty() || !matches!(ev.url.scheme(), "http" | "https") {
                out.unchecked += 1;
                continue;
            }
            let started = Instant::now();
            let req = FetchRequest::page(ev.url.clone())
                .with_validators(ev.validators.clone())
                .with_deadline(call.deadline);
            let attempt = |outcome| {
                Attempt::new(call.step, call.provider, outcome)
                    .with_target(ev.url.as_str())
                    .with_elapsed_ms(ms(started.elapsed()))
            };
            match fetcher.fetch(&req).await {
                Ok(resp) if resp.not_modified => {
                    out.unchanged += 1;
                    out.attempts.push(
                        attempt(AttemptOutcome::Success)
                            .with_status(Some(resp.status))
                            .with_detail("revalidated: 304 Not Modified"),
                    );
                    if !resp.validators.is_empty()
                        && resp.validators != ev.validators
                        && let Err(e) = store.set_validators(&record.id, &resp.validators).await
                    {
                        tracing::warn!(id = %record.id, "could not update validators: {e}");
                    }
                }
                Ok(resp) => {
                    let same = sgw_extract::extract(
                        &resp.body,
                        Some(&resp.content_type_with_charset()),
                        Some(&resp.final_url),
                    )
                    .map(|doc| content_hash(&doc.text) == ev.content_hash)
                    .unwrap_or(false);
                    if same {
                        out.unchanged += 1;
                        out.attempts.push(
                            attempt(AttemptOutcome::Success)
                                .with_status(Some(resp.status))
                                .with_detail("revalidated: same content"),
                        );
                        if !resp.validators.is_empty()
                            && let Err(e) = store.set_validators(&record.id, &resp.validators).await
                        {
                            tracing::warn!(id = %record.id, "could not update validators: {e}");
                        }
                    } else {
                        out.blocking += 1;
                        out.attempts.push(
                            attempt(AttemptOutcome::Empty)
                                .with_status(Some(resp.status))
                                .with_detail("the source changed since it was cached"),
                        );
                        out.notes.push(format!(
                            "{} changed since it was cached (HTTP {}): the cache entry stays stale",
                            ev.url, resp.status
                        ));
                    }
                }
                Err(e) => {
                    out.blocking += 1;
                    out.attempts.push(
                        Attempt::failed(call.step, call.provider, e.code)
                            .with_target(e.url.as_str())
                            .with_status(e.http_status)
                            .with_elapsed_ms(ms(e.elapsed))
                            .with_detail(format!("revalidation failed: {}", e.message)),
                    );
                    out.notes.push(format!(
                        "{} could not be revalidated ({}): the cache entry stays stale",
                        ev.url, e.code
                    ));
                }
            }
        }
        out
    }
}

#[async_trait::async_trait]
impl Provider for CacheProvider {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let started = Instant::now();
        let key = call.key.to_string();
        let mut report = ProviderReport::default();
        let Some(store) = &self.store else {
            report.attempts.push(
                Attempt::skipped(call.step, call.provider, "no evidence store (--no-store)")
                    .with_target(key),
            );
            return Ok(report);
        };
        let now = Timestamp::now();
        let lookup = self
            .lookup(store, call, now)
            .await
            .map_err(|e| store_error(&e))?;
        let (entry, stale) = match lookup {
            CacheLookup::Miss => {
                report.codes.push(FailureCode::EvidenceCacheMiss);
                report.attempts.push(
                    Attempt::failed(call.step, call.provider, FailureCode::EvidenceCacheMiss)
                        .with_target(key)
                        .with_elapsed_ms(ms(started.elapsed()))
                        .with_detail("no cache entry for this key"),
                );
                return Ok(report);
            }
            CacheLookup::Stale(entry) if call.fresh_only => {
                report.attempts.push(
                    Attempt::new(call.step, call.provider, AttemptOutcome::Empty)
                        .with_target(key)
                        .with_elapsed_ms(ms(started.elapsed()))
                        .with_detail(format!(
                            "the entry went stale at {}: left for the cached_evidence step",
                            entry.stale_after
                        )),
                );
                return Ok(report);
            }
            CacheLookup::Fresh(entry) => (entry, false),
            CacheLookup::Stale(entry) => (entry, true),
        };
        let (records, missing) = entry_evidence(store, &entry)
            .await
            .map_err(|e| store_error(&e))?;
        if !missing.is_empty() {
            report.notes.push(format!(
                "the cache entry cites evidence the store no longer has: {}",
                missing.join(", ")
            ));
        }
        if records.is_empty() {
            report.codes.push(FailureCode::EvidenceCacheMiss);
            report.attempts.push(
                Attempt::failed(call.step, call.provider, FailureCode::EvidenceCacheMiss)
                    .with_target(key)
                    .with_elapsed_ms(ms(started.elapsed()))
                    .with_detail("the cache entry has no readable evidence"),
            );
            return Ok(report);
        }
        let mut stale = stale;
        if stale
            && self.config.revalidate
            && let Some(fetcher) = &self.fetcher
        {
            let r = self.revalidate(fetcher, store, &records, call).await;
            report.attempts.extend(r.attempts);
            report.notes.extend(r.notes);
            if r.unchanged > 0 && r.unchanged == records.len() {
                match store.refresh(call.key, Timestamp::now()).await {
                    Ok(Some(e)) => {
                        stale = false;
                        report.notes.push(format!(
                            "the stale cache entry was revalidated: {} source(s) unchanged; fresh until {}",
                            r.unchanged, e.stale_after
                        ));
                    }
                    Ok(None) => report
                        .notes
                        .push("the cache entry vanished while it was revalidated".into()),
                    Err(e) => report.notes.push(format!(
                        "the revalidated cache entry could not be refreshed: {e}"
                    )),
                }
            } else if r.unchecked > 0 && r.blocking == 0 {
                report.notes.push(format!(
                    "{} cached source(s) carry no validators and cannot be revalidated",
                    r.unchecked
                ));
            }
        }
        if stale {
            report.codes.push(FailureCode::EvidenceCacheStale);
            report.notes.push(format!(
                "answered from a stale cache entry (last refreshed {}, stale since {})",
                entry.refreshed_at, entry.stale_after
            ));
        } else {
            report.notes.push(format!(
                "answered from the evidence cache (refreshed {})",
                entry.refreshed_at
            ));
        }
        report.from_cache = true;
        report.evidence = records.iter().map(as_cache_evidence).collect();
        report.attempts.push(
            Attempt::new(call.step, call.provider, AttemptOutcome::Success)
                .with_target(key)
                .with_elapsed_ms(ms(started.elapsed()))
                .with_detail(format!(
                    "{} cached source(s){}",
                    report.evidence.len(),
                    if stale { ", stale" } else { "" }
                )),
        );
        Ok(report)
    }
}

/// Without a `Store` (`--no-store`) the provider answers nothing; without a
/// `Fetcher` stale entries are not revalidated.
impl ProviderConfig for CacheConfig {
    const KIND: &'static str = "evidence-cache";
    const STEP: ChainStep = ChainStep::CachedEvidence;
    const DESCRIPTION: &'static str = "answers from the evidence store's cache entry for the query's key; revalidates stale entries by conditional GET";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        let store = ctx.store::<Store>().ok();
        if store.is_none() {
            tracing::info!(provider = %ctx.name, "no evidence store: the evidence cache is off");
        }
        Ok(Arc::new(CacheProvider::new(
            self,
            store,
            ctx.fetcher().ok(),
        )))
    }
}

sgw_contract::register_provider!(CacheConfig);
