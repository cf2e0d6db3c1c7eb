//! The `Provider` trait every adapter implements, what it is told and what it reports.

use crate::{
    Attempt, CacheKey, ChainStep, Evidence, FailureCode, PlannedSource, SearchRequest,
    SearchResult, StorageError, StoreWriteFailure,
};
use std::time::{Duration, Instant};

/// Everything a provider is told about one run.
#[derive(Debug, Clone, Copy)]
pub struct ProviderCall<'a> {
    /// The chain step being run.
    pub step: ChainStep,
    /// This provider instance's name.
    pub provider: &'a str,
    pub request: &'a SearchRequest,
    /// The decided topic type and cache key.
    pub key: &'a CacheKey,
    /// Registry sources planning chose for this request (best fit first).
    pub sources: &'a [PlannedSource],
    /// The whole run's deadline; the orchestrator also enforces the provider's timeout.
    pub deadline: Instant,
    /// The attempts made by earlier steps (human intake reports what was tried).
    pub prior_attempts: &'a [Attempt],
    /// How many pieces of evidence are useful at most.
    pub max_sources: usize,
    /// True when the orchestrator consults the evidence cache before the chain:
    /// only a fresh entry may answer; stale entries wait for the `cached_evidence` step.
    pub fresh_only: bool,
}

impl ProviderCall<'_> {
    /// Time left before the deadline.
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// What a provider found.
#[derive(Debug, Clone, Default)]
pub struct ProviderReport {
    /// Evidence read (possibly none).
    pub evidence: Vec<Evidence>,
    /// Per-target attempts (one per URL fetched, say). Each failed one carries its code.
    pub attempts: Vec<Attempt>,
    /// Result-level codes the provider observed (EVIDENCE_CACHE_MISS, EVIDENCE_CACHE_STALE, …).
    pub codes: Vec<FailureCode>,
    /// True when the evidence came from the evidence cache.
    pub from_cache: bool,
    /// Set by human intake: the request it opened.
    pub human_request_id: Option<String>,
    pub notes: Vec<String>,
}

/// A provider-level failure: the provider as a whole could not run
/// (engine CAPTCHA'd, rate limited, misconfigured). Feeds suspension.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ProviderError {
    pub code: FailureCode,
    pub message: String,
    pub http_status: Option<u16>,
    /// From a `Retry-After` header: suspension uses it when longer than the policy's.
    pub retry_after: Option<Duration>,
    /// Per-target attempts made before failing.
    pub attempts: Vec<Attempt>,
    /// Set when the failure was a store write (human intake could not record
    /// its request): the chain copies it into [`SearchResult::store_failures`].
    pub store_failure: Option<StoreWriteFailure>,
}

impl ProviderError {
    pub fn new(code: FailureCode, message: impl Into<String>) -> ProviderError {
        ProviderError {
            code,
            message: message.into(),
            http_status: None,
            retry_after: None,
            attempts: Vec::new(),
            store_failure: None,
        }
    }

    /// Whether retrying later can help (see [`FailureCode::is_temporary`]).
    pub fn is_temporary(&self) -> bool {
        self.code.is_temporary()
    }
}

/// One retrieval adapter. Implementations hold no politeness, retry or SSRF
/// logic: the network layer and the orchestrator own those.
#[async_trait::async_trait]
pub trait Provider: Send + Sync {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError>;
}

/// Where the orchestrator keeps the evidence a result used.
#[async_trait::async_trait]
pub trait EvidenceSink: Send + Sync {
    /// Persists every piece of `used` evidence (each already has its
    /// `evidence_id`, none is [`Evidence::stored`]) and the cache entry for
    /// `key` pointing at `result`.
    async fn persist(
        &self,
        key: &CacheKey,
        result: &SearchResult,
        used: &[Evidence],
    ) -> Result<(), StorageError>;

    /// [`EvidenceSink::persist`], and `rests` (suspensions decided during the
    /// search, such as a host that kept a request waiting) recorded in the
    /// same write, for a sink that is also the gateway's
    /// [`SuspensionLedger`]: one commit instead of one per write, on the path
    /// of the answer. Returns whether the rests were kept; the default only
    /// persists and returns `false`, and the caller records them itself.
    async fn persist_with_rests(
        &self,
        key: &CacheKey,
        result: &SearchResult,
        used: &[Evidence],
        rests: &[SuspensionRecord],
    ) -> Result<bool, StorageError> {
        let _ = rests;
        self.persist(key, result, used).await.map(|()| false)
    }

    /// Finishes the sink's work and releases what it holds, waiting until it
    /// is done; nothing may be persisted through it afterwards. A process
    /// that ends after its last search calls it so that the next one finds
    /// nothing to recover (an SQLite store checkpoints its write-ahead log
    /// here, instead of leaving it for the next opener to replay). Dropping a
    /// sink without it loses nothing that [`EvidenceSink::persist`] reported
    /// written. The default does nothing.
    async fn close(&self) {}
}

/// One provider instance's suspension, as kept beyond the process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuspensionRecord {
    /// `<policy name>/<provider instance name>`.
    pub provider: String,
    /// When the provider may run again.
    pub until: jiff::Timestamp,
    /// The failure that suspended it.
    pub reason: FailureCode,
    /// Consecutive timeouts so far (drives the timeout back-off).
    pub consecutive_timeouts: u32,
}

/// Where suspensions outlive the process (the evidence store), so a
/// CAPTCHA'd engine also rests across separate `sgw` runs and across gateway
/// processes sharing one store.
#[async_trait::async_trait]
pub trait SuspensionLedger: Send + Sync {
    /// Suspensions still running at `now`.
    async fn active_suspensions(
        &self,
        now: jiff::Timestamp,
    ) -> Result<Vec<SuspensionRecord>, StorageError>;
    /// Records (or replaces) a provider's suspension.
    async fn record_suspension(&self, record: &SuspensionRecord) -> Result<(), StorageError>;
}
