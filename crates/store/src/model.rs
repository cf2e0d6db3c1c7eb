//! The records the store keeps, and the knobs of its queries.

use crate::StoreError;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use sgw_contract::{Attempt, CacheKey, Evidence, FailureCode, GateType, SearchResult, SourceTier};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

const DAY_MS: i64 = 86_400_000;

/// A new evidence id: `ev-` + a ULID.
pub fn new_evidence_id() -> String {
    format!("ev-{}", ulid::Ulid::new())
}

/// A new human evidence request id: `hr-` + a ULID.
pub fn new_request_id() -> String {
    format!("hr-{}", ulid::Ulid::new())
}

pub(crate) fn new_screenshot_id() -> String {
    format!("ss-{}", ulid::Ulid::new())
}

/// Checks that `id` is `prefix` followed by a ULID.
pub(crate) fn check_id(
    kind: &'static str,
    prefix: &'static str,
    id: &str,
) -> Result<(), StoreError> {
    match id.strip_prefix(prefix) {
        Some(rest) if ulid::Ulid::from_string(rest).is_ok() => Ok(()),
        _ => Err(StoreError::InvalidId {
            kind,
            prefix,
            id: id.chars().take(80).collect(),
        }),
    }
}

/// True when `id` is a well-formed evidence id (`ev-` + ULID).
pub fn is_evidence_id(id: &str) -> bool {
    check_id("evidence", "ev-", id).is_ok()
}

/// Days after which a cache entry of a topic type is stale (the policy's
/// `cache_policy.stale_after_days_by_topic`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StalenessRules {
    /// Days per topic type.
    pub by_topic: BTreeMap<String, u32>,
    /// Days for topic types not listed.
    pub default_days: u32,
}

impl Default for StalenessRules {
    /// The seed's values: news 7, policy_or_law 30, product_or_price 3,
    /// static_reference 180, default 14.
    fn default() -> Self {
        StalenessRules {
            by_topic: [
                ("news", 7),
                ("policy_or_law", 30),
                ("product_or_price", 3),
                ("static_reference", 180),
            ]
            .into_iter()
            .map(|(t, d)| (t.to_string(), d))
            .collect(),
            default_days: 14,
        }
    }
}

impl StalenessRules {
    /// From a policy's `stale_after_days_by_topic` map, where the key
    /// `default` is the fallback (14 when absent).
    pub fn from_days_by_topic(mut days: BTreeMap<String, u32>) -> StalenessRules {
        let default_days = days.remove("default").unwrap_or(14);
        StalenessRules {
            by_topic: days,
            default_days,
        }
    }

    /// The number of days entries of `topic_type` stay fresh.
    pub fn days_for(&self, topic_type: &str) -> u32 {
        self.by_topic
            .get(topic_type)
            .copied()
            .unwrap_or(self.default_days)
    }

    /// When an entry of `topic_type` (re)validated at `refreshed_at` goes stale.
    pub fn stale_after(&self, topic_type: &str, refreshed_at: Timestamp) -> Timestamp {
        let ms = refreshed_at
            .as_millisecond()
            .saturating_add(i64::from(self.days_for(topic_type)) * DAY_MS);
        Timestamp::from_millisecond(ms).unwrap_or(Timestamp::MAX)
    }
}

/// One stored piece of evidence: the contract's [`Evidence`] plus what the
/// store adds (id, cache key, final tier, extraction time, answer fields,
/// confidence).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredEvidence {
    /// `ev-` + ULID.
    pub id: String,
    /// The cache key of the query it was gathered for.
    pub key: CacheKey,
    /// The tier the orchestrator decided.
    pub tier: SourceTier,
    pub extracted_at: Timestamp,
    /// Typed answer fields read from this evidence (JSON object; `{}` when none).
    pub answer_fields: serde_json::Value,
    /// The confidence of the result this evidence supported, if known.
    pub confidence: Option<f64>,
    /// The evidence itself; `evidence.evidence_id` equals [`StoredEvidence::id`]
    /// when read back.
    pub evidence: Evidence,
}

impl StoredEvidence {
    /// A record for `evidence` gathered for `key`. The id is the evidence's
    /// own `evidence_id` when it is a valid `ev-` id, else a new one;
    /// `extracted_at` is now.
    pub fn new(key: CacheKey, tier: SourceTier, mut evidence: Evidence) -> StoredEvidence {
        let id = evidence
            .evidence_id
            .clone()
            .filter(|id| is_evidence_id(id))
            .unwrap_or_else(new_evidence_id);
        evidence.evidence_id = Some(id.clone());
        StoredEvidence {
            id,
            key,
            tier,
            extracted_at: crate::store::whole_ms(Timestamp::now()),
            answer_fields: serde_json::Value::Object(Default::default()),
            confidence: None,
            evidence,
        }
    }
}

impl StoredEvidence {
    /// The evidence as a provider hands it back on a cache hit: its
    /// `evidence_id` set and its `tier_hint` the tier stored with it.
    pub fn into_evidence(self) -> Evidence {
        let mut ev = self.evidence;
        ev.evidence_id = Some(self.id);
        ev.tier_hint = Some(self.tier);
        ev
    }
}

/// A cache entry: the result stored for one cache key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheEntry {
    pub key: CacheKey,
    pub result: SearchResult,
    /// The evidence the result cites (ids of [`StoredEvidence`]).
    pub evidence_ids: Vec<String>,
    pub created_at: Timestamp,
    /// Last time the content was fetched or revalidated as unchanged.
    pub refreshed_at: Timestamp,
    /// `refreshed_at` + the topic's staleness days.
    pub stale_after: Timestamp,
}

impl CacheEntry {
    /// True when `now` is at or past `stale_after`.
    pub fn is_stale(&self, now: Timestamp) -> bool {
        now >= self.stale_after
    }
}

/// A cache entry without its result body, for listings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheEntrySummary {
    pub key: CacheKey,
    pub confidence: Option<f64>,
    pub evidence_ids: Vec<String>,
    pub created_at: Timestamp,
    pub refreshed_at: Timestamp,
    pub stale_after: Timestamp,
    /// Stale at the `now` the listing was made for.
    pub stale: bool,
}

/// What [`crate::Store::lookup`] found for a key.
#[derive(Debug, Clone, PartialEq)]
pub enum CacheLookup {
    /// An entry younger than its topic's staleness limit.
    Fresh(CacheEntry),
    /// An entry past its limit (EVIDENCE_CACHE_STALE): usable with a penalty, or to revalidate.
    Stale(CacheEntry),
    /// No entry (EVIDENCE_CACHE_MISS).
    Miss,
}

impl CacheLookup {
    /// The entry, fresh or stale.
    pub fn entry(&self) -> Option<&CacheEntry> {
        match self {
            CacheLookup::Fresh(e) | CacheLookup::Stale(e) => Some(e),
            CacheLookup::Miss => None,
        }
    }

    /// The failure code this lookup implies, if any.
    pub fn failure_code(&self) -> Option<FailureCode> {
        match self {
            CacheLookup::Fresh(_) => None,
            CacheLookup::Stale(_) => Some(FailureCode::EvidenceCacheStale),
            CacheLookup::Miss => Some(FailureCode::EvidenceCacheMiss),
        }
    }
}

/// Selects cache entries for [`crate::Store::list`] and [`crate::Store::purge`].
///
/// It can never be empty: it is built from one criterion and narrowed with
/// more (all must hold), so a purge can never silently mean "everything".
/// To purge everything on purpose, say so: `CacheFilter::older_than_days(0)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheFilter {
    pub(crate) older_than_days: Option<u32>,
    pub(crate) topic: Option<String>,
    pub(crate) stale: bool,
    /// A normalized query (`sgw_contract::normalize_query`).
    pub(crate) question: Option<String>,
}

impl CacheFilter {
    /// Entries last refreshed more than `days` days before `now`.
    pub fn older_than_days(days: u32) -> CacheFilter {
        CacheFilter {
            older_than_days: Some(days),
            topic: None,
            stale: false,
            question: None,
        }
    }

    /// Entries of one topic type.
    pub fn topic(topic_type: impl Into<String>) -> CacheFilter {
        CacheFilter {
            older_than_days: None,
            topic: Some(topic_type.into()),
            stale: false,
            question: None,
        }
    }

    /// Entries stale at `now`.
    pub fn stale() -> CacheFilter {
        CacheFilter {
            older_than_days: None,
            topic: None,
            stale: true,
            question: None,
        }
    }

    /// Entries of one question, in its normalized form
    /// (`sgw_contract::normalize_query`): every topic, scope and date it was
    /// asked for. Read from the cache key's index, not by scanning.
    pub fn question(normalized_query: impl Into<String>) -> CacheFilter {
        CacheFilter {
            older_than_days: None,
            topic: None,
            stale: false,
            question: Some(normalized_query.into()),
        }
    }

    /// Also require: last refreshed more than `days` days ago.
    pub fn and_older_than_days(mut self, days: u32) -> CacheFilter {
        self.older_than_days = Some(days);
        self
    }

    /// Also require: topic type `topic_type`.
    pub fn and_topic(mut self, topic_type: impl Into<String>) -> CacheFilter {
        self.topic = Some(topic_type.into());
        self
    }

    /// Also require: stale at `now`.
    pub fn and_stale(mut self) -> CacheFilter {
        self.stale = true;
        self
    }

    /// Also require: the question `normalized_query` (see [`CacheFilter::question`]).
    pub fn and_question(mut self, normalized_query: impl Into<String>) -> CacheFilter {
        self.question = Some(normalized_query.into());
        self
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.older_than_days.is_none()
            && self.topic.is_none()
            && !self.stale
            && self.question.is_none()
    }

    /// `WHERE` conditions (joined by AND) and their arguments, numbered from `$first`.
    pub(crate) fn sql(&self, now: Timestamp, first: usize) -> (String, Vec<crate::db::Arg>) {
        let mut conds = Vec::new();
        let mut args = Vec::new();
        let mut n = first;
        if let Some(days) = self.older_than_days {
            conds.push(format!("refreshed_at_ms < ${n}"));
            args.push(crate::db::Arg::from(
                now.as_millisecond()
                    .saturating_sub(i64::from(days) * DAY_MS),
            ));
            n += 1;
        }
        if let Some(topic) = &self.topic {
            conds.push(format!("topic_type = ${n}"));
            args.push(crate::db::Arg::from(topic.as_str()));
            n += 1;
        }
        if self.stale {
            conds.push(format!("stale_after_ms <= ${n}"));
            args.push(crate::db::Arg::from(now.as_millisecond()));
            n += 1;
        }
        if let Some(question) = &self.question {
            conds.push(format!("normalized_query = ${n}"));
            args.push(crate::db::Arg::from(question.as_str()));
        }
        (conds.join(" AND "), args)
    }
}

/// What a purge removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PurgeReport {
    pub cache_entries: u64,
    /// Evidence records of the purged entries that nothing else referenced.
    pub evidence: u64,
}

/// Counts per topic type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicStats {
    pub entries: u64,
    pub stale: u64,
}

/// What [`crate::Store::stats`] reports.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoreStats {
    pub backend: String,
    pub evidence: u64,
    /// Compressed bytes of stored evidence text.
    pub evidence_text_bytes: u64,
    pub cache_entries: u64,
    pub fresh: u64,
    pub stale: u64,
    pub by_topic: BTreeMap<String, TopicStats>,
    pub requests_open: u64,
    pub requests_resolved: u64,
    pub requests_cancelled: u64,
    pub screenshots: u64,
}

/// The status of a human evidence request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestStatus {
    Open,
    Resolved,
    Cancelled,
}

impl RequestStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            RequestStatus::Open => "open",
            RequestStatus::Resolved => "resolved",
            RequestStatus::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for RequestStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RequestStatus {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "open" => Ok(RequestStatus::Open),
            "resolved" => Ok(RequestStatus::Resolved),
            "cancelled" => Ok(RequestStatus::Cancelled),
            other => Err(StoreError::Invalid {
                field: "request status",
                message: format!("`{other}` is not one of open, resolved, cancelled"),
            }),
        }
    }
}

/// A URL the gateway could not read, and what a person could do about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockedUrl {
    pub url: String,
    pub gate: GateType,
    /// A plain sentence: what is needed ("Open the page in a browser and paste the fee table").
    pub needed: String,
}

/// A human evidence request to create.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewHumanRequest {
    pub key: CacheKey,
    /// The query as the caller wrote it.
    pub query: String,
    /// What was tried (the chain's attempts).
    pub attempts: Vec<Attempt>,
    pub blocked: Vec<BlockedUrl>,
}

/// A stored human evidence request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanRequest {
    /// `hr-` + ULID.
    pub id: String,
    pub status: RequestStatus,
    pub key: CacheKey,
    pub query: String,
    pub attempts: Vec<Attempt>,
    pub blocked: Vec<BlockedUrl>,
    pub created_at: Timestamp,
    pub resolved_at: Option<Timestamp>,
    /// The USER_SUPPLIED_EVIDENCE record that resolved it.
    pub evidence_id: Option<String>,
}

/// An image submitted as evidence (kept as bytes + MIME type).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Screenshot {
    /// `ss-` + ULID.
    pub id: String,
    pub evidence_id: String,
    /// `image/png`, `image/jpeg`, …
    pub mime: String,
    #[serde(skip)]
    pub bytes: Vec<u8>,
    pub created_at: Timestamp,
}

/// What a person handed in to resolve a request.
#[derive(Debug, Clone, PartialEq)]
pub struct Submission {
    /// The evidence (text extracted from the pasted text, PDF, URL or image);
    /// stored as USER_SUPPLIED_EVIDENCE whatever its tier hint says.
    pub evidence: Evidence,
    /// The image itself when the submission is a screenshot: (MIME type, bytes).
    pub screenshot: Option<(String, Vec<u8>)>,
}

impl Submission {
    pub fn new(evidence: Evidence) -> Submission {
        Submission {
            evidence,
            screenshot: None,
        }
    }

    pub fn with_screenshot(mut self, mime: impl Into<String>, bytes: Vec<u8>) -> Submission {
        self.screenshot = Some((mime.into(), bytes));
        self
    }
}
