//! The policy file: the seed's keys, plus what running needs.
//!
//! Loading is strict: unknown keys, unknown chain steps, unknown failure codes
//! and bad numbers are errors that name their path in the file (and the line
//! where it can be found). Garbage input (binary, huge, deeply nested, alias
//! bombs) gets an error, never a panic or a hang: the size is capped before
//! parsing and the YAML parser runs under a budget.

mod load;
mod validate;

pub use load::{PolicyError, PolicyErrors};
pub use validate::Warning;

use serde::{Deserialize, Serialize};
pub use sgw_contract::ChainStep;
use sgw_contract::{FailureCode, PlannedSource, SourceTier};
use std::collections::BTreeMap;

use std::path::PathBuf;

/// A policy, as loaded and validated.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// Schema version; only `1` exists.
    pub version: u32,
    pub name: String,
    // --- descriptive keys of the seed (kept, not interpreted) ---
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    #[serde(default)]
    pub non_goals: Vec<String>,
    #[serde(default)]
    pub acceptance_signals: Vec<String>,
    // --- the seed's contract keys ---
    /// Tier → base confidence (and descriptive examples).
    #[serde(default)]
    pub source_priority: BTreeMap<SourceTier, TierPriority>,
    /// Step order. Steps may be left out; each appears at most once.
    #[serde(default = "default_chain")]
    pub fallback_chain: Vec<ChainStep>,
    /// The failure codes this deployment reports (must be known codes).
    #[serde(default)]
    pub failure_codes: Vec<FailureCode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_contract: Option<ResultContract>,
    #[serde(default)]
    pub cache_policy: CachePolicy,
    // --- running extensions ---
    /// Numeric level thresholds (the seed's 0.85 / 0.65 by default).
    #[serde(default)]
    pub confidence_thresholds: Thresholds,
    /// Providers bound to chain steps, run concurrently within a step.
    #[serde(default)]
    pub providers: BTreeMap<ChainStep, Vec<ProviderSpec>>,
    /// The registry of known sources (publisher, domains, tier, entry points).
    #[serde(default)]
    pub sources: BTreeMap<String, PlannedSource>,
    /// Domain and suffix rules that classify URLs not in the registry.
    #[serde(default)]
    pub tiering: Vec<TieringRule>,
    /// How a query's topic type is chosen when the caller gives none.
    #[serde(default)]
    pub topics: Vec<TopicRule>,
    #[serde(default)]
    pub suspension: Suspension,
    #[serde(default)]
    pub execution: Execution,
    /// The network layer's settings (see `docs/network.md`); validated by `sgw-fetch`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store: Option<StoreSettings>,
    /// Where the policy was loaded from (not a key of the file).
    #[serde(skip)]
    pub origin: Option<PathBuf>,
}

fn default_chain() -> Vec<ChainStep> {
    ChainStep::DEFAULT_CHAIN.to_vec()
}

/// `source_priority.<TIER>`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TierPriority {
    pub confidence_base: f64,
    #[serde(default)]
    pub examples: Vec<String>,
}

/// `result_contract` (descriptive in the seed; field names are checked).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultContract {
    #[serde(default)]
    pub required_fields: Vec<String>,
    #[serde(default)]
    pub confidence_levels: BTreeMap<String, String>,
}

/// `cache_policy`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CachePolicy {
    #[serde(default = "yes")]
    pub evidence_cache_enabled: bool,
    /// Must be the four key fields of the contract.
    #[serde(default = "default_cache_key_fields")]
    pub cache_key_fields: Vec<String>,
    /// Days after which an entry is stale, per topic type; `default` for the rest.
    /// A policy's map overrides only the topics it names; the others keep their defaults.
    #[serde(
        default = "default_stale_days",
        deserialize_with = "stale_days_over_defaults"
    )]
    pub stale_after_days_by_topic: BTreeMap<String, u32>,
    /// A fresh cache entry answers before the chain runs.
    #[serde(default = "yes")]
    pub answer_from_fresh_cache: bool,
}

impl Default for CachePolicy {
    fn default() -> Self {
        CachePolicy {
            evidence_cache_enabled: true,
            cache_key_fields: default_cache_key_fields(),
            stale_after_days_by_topic: default_stale_days(),
            answer_from_fresh_cache: true,
        }
    }
}

impl CachePolicy {
    /// Days before an entry of `topic` is stale.
    pub fn stale_after_days(&self, topic: &str) -> u32 {
        self.stale_after_days_by_topic
            .get(topic)
            .or_else(|| self.stale_after_days_by_topic.get("default"))
            .copied()
            .unwrap_or(14)
    }
}

fn yes() -> bool {
    true
}

/// The contract's cache key fields.
pub const CACHE_KEY_FIELDS: [&str; 4] = [
    "normalized_query",
    "topic_type",
    "jurisdiction_or_scope",
    "effective_date",
];

fn default_cache_key_fields() -> Vec<String> {
    CACHE_KEY_FIELDS.iter().map(|s| s.to_string()).collect()
}

/// The policy's `stale_after_days_by_topic` laid over [`default_stale_days`].
fn stale_days_over_defaults<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, u32>, D::Error> {
    let given = BTreeMap::<String, u32>::deserialize(deserializer)?;
    let mut days = default_stale_days();
    days.extend(given);
    Ok(days)
}

fn default_stale_days() -> BTreeMap<String, u32> {
    [
        ("news", 7),
        ("policy_or_law", 30),
        ("product_or_price", 3),
        ("static_reference", 180),
        ("default", 14),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// `confidence_thresholds`: score ≥ high is high, ≥ medium is medium.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    pub high: f64,
    pub medium: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            high: 0.85,
            medium: 0.65,
        }
    }
}

/// One provider bound to a chain step: `providers.<step>[i]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderSpec {
    /// A registered provider kind (`sgw providers` lists them).
    pub kind: String,
    /// Instance name, unique in the policy (defaults to the kind).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Per-run time limit of this provider.
    #[serde(default = "default_provider_timeout_ms")]
    pub timeout_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<RateLimit>,
    /// The provider's own settings (see its documentation).
    #[serde(default)]
    pub config: serde_json::Value,
}

impl ProviderSpec {
    pub fn instance_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.kind)
    }
}

fn default_provider_timeout_ms() -> u64 {
    10_000
}

/// `rate_limit`: at most `per_minute` runs a minute, in bursts of `burst`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimit {
    pub per_minute: u32,
    #[serde(default = "one")]
    pub burst: u32,
}

fn one() -> u32 {
    1
}

/// `tiering[i]`: exactly one of `domain` (the domain and its subdomains) or
/// `suffix` (host ends with it, e.g. `.gov`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TieringRule {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
    pub tier: SourceTier,
}

/// `topics[i]`: the first rule whose keyword or pattern matches the
/// normalized query decides the topic type.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicRule {
    pub topic: String,
    /// Whole words or phrases (matched case-insensitively on word boundaries).
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Regular expressions over the normalized query.
    #[serde(default)]
    pub patterns: Vec<String>,
}

/// `suspension`: how long a provider rests after a provider-level failure.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suspension {
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Seconds per failure code.
    #[serde(default = "default_suspension_secs")]
    pub durations_secs: BTreeMap<FailureCode, u64>,
    /// Timeouts back off: `initial_secs`, doubling per consecutive timeout, up to `max_secs`.
    #[serde(default)]
    pub timeout_backoff: Backoff,
    /// A `Retry-After` longer than the configured duration wins.
    #[serde(default = "yes")]
    pub honour_retry_after: bool,
}

impl Default for Suspension {
    fn default() -> Self {
        Suspension {
            enabled: true,
            durations_secs: default_suspension_secs(),
            timeout_backoff: Backoff::default(),
            honour_retry_after: true,
        }
    }
}

fn default_suspension_secs() -> BTreeMap<FailureCode, u64> {
    BTreeMap::from([
        (FailureCode::SearchProviderCaptcha, 3600),
        (FailureCode::SearchProviderRateLimited, 180),
        (FailureCode::SourceBlockedByCdn, 86_400),
        (FailureCode::SearchProviderMisconfigured, 3600),
    ])
}

/// `suspension.timeout_backoff`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Backoff {
    pub initial_secs: u64,
    pub max_secs: u64,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            initial_secs: 5,
            max_secs: 120,
        }
    }
}

/// `execution`: the run as a whole.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Execution {
    /// One deadline for the whole chain.
    #[serde(default = "default_deadline_ms")]
    pub deadline_ms: u64,
    /// Stop going down the chain once the confidence reaches this.
    #[serde(default = "default_target")]
    pub target_confidence: f64,
    /// Start the next step this long after the latest step started, when the
    /// chain has not stopped by then (off when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hedge_after_ms: Option<u64>,
    /// Patience: once the answer so far reaches `accept_level`, wait at most this
    /// long for a better one, then answer with what is there (off when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accept_after_ms: Option<u64>,
    /// The level an answer must reach for `accept_after_ms` to start counting.
    #[serde(default = "default_accept_level")]
    pub accept_level: sgw_contract::ConfidenceLevel,
    /// At most this many sources in a result.
    #[serde(default = "default_max_sources")]
    pub max_sources: usize,
    /// At most this many passages in the answer.
    #[serde(default = "default_max_passages")]
    pub max_passages: usize,
    /// Share of the query's key terms a source must contain to count (0..1).
    #[serde(default = "default_relevance")]
    pub relevance_threshold: f64,
}

impl Default for Execution {
    fn default() -> Self {
        Execution {
            deadline_ms: default_deadline_ms(),
            target_confidence: default_target(),
            hedge_after_ms: None,
            accept_after_ms: None,
            accept_level: default_accept_level(),
            max_sources: default_max_sources(),
            max_passages: default_max_passages(),
            relevance_threshold: default_relevance(),
        }
    }
}

fn default_deadline_ms() -> u64 {
    30_000
}
fn default_target() -> f64 {
    0.85
}
fn default_accept_level() -> sgw_contract::ConfidenceLevel {
    sgw_contract::ConfidenceLevel::Medium
}
fn default_max_sources() -> usize {
    8
}
fn default_max_passages() -> usize {
    5
}
fn default_relevance() -> f64 {
    0.5
}

/// `store`: where evidence is kept.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreSettings {
    /// A file path, `sqlite:…` or `postgres://…`; relative paths resolve against the policy's directory.
    pub url: String,
}

impl Policy {
    /// Tier bases: `source_priority` over the seed's defaults.
    pub fn scoring(&self) -> sgw_contract::Scoring {
        let mut scoring = sgw_contract::Scoring::default();
        for (tier, p) in &self.source_priority {
            scoring.tier_bases.0.insert(*tier, p.confidence_base);
        }
        scoring
    }

    /// The providers bound to `step` that are enabled.
    pub fn providers_for(&self, step: ChainStep) -> impl Iterator<Item = (usize, &ProviderSpec)> {
        self.providers
            .get(&step)
            .into_iter()
            .flatten()
            .enumerate()
            .filter(|(_, p)| p.enabled)
    }
}
