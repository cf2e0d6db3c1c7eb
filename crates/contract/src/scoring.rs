//! Confidence scoring, exactly as the seed's `score_sources`.

use crate::{EvidenceSource, FailureCode, SourceTier};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Base confidence per tier (the seed's `SOURCE_CONFIDENCE_BASE` by default;
/// a policy's `source_priority.*.confidence_base` overrides it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TierBases(pub BTreeMap<SourceTier, f64>);

impl Default for TierBases {
    fn default() -> Self {
        TierBases(
            SourceTier::ALL
                .iter()
                .map(|t| (*t, t.default_base_confidence()))
                .collect(),
        )
    }
}

impl TierBases {
    pub fn base(&self, tier: SourceTier) -> f64 {
        self.0
            .get(&tier)
            .copied()
            .unwrap_or_else(|| tier.default_base_confidence())
    }
}

/// Score penalties per result-level failure code (the seed's five by default).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Penalties(pub BTreeMap<FailureCode, f64>);

impl Default for Penalties {
    fn default() -> Self {
        Penalties(BTreeMap::from([
            (FailureCode::SourceConflictNeedsReview, 0.25),
            (FailureCode::SearchResultTruncated, 0.05),
            (FailureCode::SourceExtractionFailed, 0.08),
            (FailureCode::EvidenceCacheStale, 0.10),
            (FailureCode::HumanEvidenceRequired, 0.15),
        ]))
    }
}

/// The scoring model: tier bases and penalties. `Scoring::default()` is the seed's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Scoring {
    pub tier_bases: TierBases,
    pub penalties: Penalties,
}

impl Scoring {
    /// The seed's algorithm: best tier base + corroboration bonus
    /// `min(0.08, 0.03·(n−1))` + official bonus 0.03 (an official source among
    /// ≥ 2) − penalties (each code counted once), clamped to `[0, 0.99]` and
    /// rounded to three places. No sources scores 0.
    ///
    /// Callers pass one source per independent publisher: corroboration is
    /// about independence, which the orchestrator decides. Never `-0.0`.
    /// [`Scoring::breakdown`] gives every term.
    pub fn score(&self, sources: &[EvidenceSource], failure_codes: &[FailureCode]) -> f64 {
        self.breakdown(sources, failure_codes).confidence
    }
}

/// The seed's `score_sources` with the default model.
pub fn score_sources(sources: &[EvidenceSource], failure_codes: &[FailureCode]) -> f64 {
    Scoring::default().score(sources, failure_codes)
}
