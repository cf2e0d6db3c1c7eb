//! The result contract: what every search returns.

use crate::{
    Attempt, CacheKey, FailureCode, FieldKind, ScoreBreakdown, Scoring, SourceTier,
    StoreWriteFailure,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The seed's `EvidenceSource`: one source as cited in a result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvidenceSource {
    pub url: String,
    pub title: String,
    pub tier: SourceTier,
    /// RFC 3339.
    pub extracted_at: String,
    #[serde(default)]
    pub publisher: Option<String>,
    #[serde(default)]
    pub published_at: Option<String>,
    #[serde(default)]
    pub evidence_id: Option<String>,
    #[serde(default)]
    pub extraction_method: Option<String>,
    #[serde(default)]
    pub metadata: serde_json::Map<String, serde_json::Value>,
}

impl EvidenceSource {
    /// A source with the required fields.
    pub fn new(
        url: impl Into<String>,
        title: impl Into<String>,
        tier: SourceTier,
        extracted_at: impl Into<String>,
    ) -> Self {
        EvidenceSource {
            url: url.into(),
            title: title.into(),
            tier,
            extracted_at: extracted_at.into(),
            publisher: None,
            published_at: None,
            evidence_id: None,
            extraction_method: None,
            metadata: serde_json::Map::new(),
        }
    }

    /// The seed's default base confidence of this source's tier.
    pub fn base_confidence(&self) -> f64 {
        self.tier.default_base_confidence()
    }
}

/// `high` ≥ 0.85, `medium` ≥ 0.65, else `low`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfidenceLevel {
    #[default]
    Low,
    Medium,
    High,
}

impl ConfidenceLevel {
    pub const fn as_str(self) -> &'static str {
        match self {
            ConfidenceLevel::Low => "low",
            ConfidenceLevel::Medium => "medium",
            ConfidenceLevel::High => "high",
        }
    }
}

impl fmt::Display for ConfidenceLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ConfidenceLevel {
    /// The level of `score` with the given thresholds (`high` ≥ `medium`).
    pub fn from_score(score: f64, high: f64, medium: f64) -> ConfidenceLevel {
        if score >= high {
            ConfidenceLevel::High
        } else if score >= medium {
            ConfidenceLevel::Medium
        } else {
            ConfidenceLevel::Low
        }
    }
}

/// The seed's `confidence_level` with its default thresholds (0.85, 0.65).
pub fn confidence_level(score: f64) -> ConfidenceLevel {
    ConfidenceLevel::from_score(score, 0.85, 0.65)
}

/// A ranked passage of the answer, citing its evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerPassage {
    pub text: String,
    pub evidence_id: Option<String>,
    pub url: String,
    pub tier: SourceTier,
    /// Byte offsets into the evidence text.
    pub start: usize,
    pub end: usize,
    pub score: f64,
}

/// Why a competing value was not chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompetingReason {
    /// A source of comparable tier backs it: the field is in conflict.
    Conflict,
    /// Less trusted or less corroborated than the chosen value (listed only).
    Outranked,
    /// An older dated statement of the same tier than the chosen value's.
    Superseded,
    /// Only a stale cache entry gives it; a fresh page says otherwise.
    Stale,
    /// Only search-engine snippets give it.
    Snippet,
    /// Only pages that do not cover the question give it (another place,
    /// year or subject than the question names).
    OffTopic,
    /// The runner-up candidate of a page that does not separate it from the chosen value.
    Ambiguous,
}

/// One value found for a field, with who says so.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldCandidate {
    pub value: String,
    /// Evidence ids (or URLs when not stored) that give this value.
    pub sources: Vec<String>,
    /// The best tier among those sources.
    pub tier: SourceTier,
    /// The verbatim span it was read from (first source).
    pub quote: String,
    /// How well the best of its candidates fits the question (the field finder's score).
    #[serde(default = "full_score")]
    pub score: f64,
    /// Why it was not chosen (absent in results written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<CompetingReason>,
}

fn full_score() -> f64 {
    1.0
}

/// A typed field of the answer, with its own confidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerField {
    #[serde(flatten)]
    pub kind: FieldKind,
    /// The chosen value (fresh before stale, most trusted, newest, best
    /// corroborated); `None` when no source gives one.
    pub value: Option<String>,
    /// The evidence ids that support the value (snippets included, though they never count).
    pub sources: Vec<String>,
    /// Other values seen for the field, each with its evidence and why it lost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub competing: Vec<FieldCandidate>,
    /// This field's confidence (0 without a value; see `score_breakdown`).
    #[serde(default)]
    pub confidence: f64,
    /// This field's level: never `high` without a value.
    #[serde(default)]
    pub level: ConfidenceLevel,
    /// True when the page or the sources do not separate the top candidates.
    #[serde(default)]
    pub ambiguous: bool,
    /// How `confidence` was computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_breakdown: Option<ScoreBreakdown>,
}

/// The answer: ranked passages and typed fields. Empty when nothing was found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    #[serde(default)]
    pub passages: Vec<AnswerPassage>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, AnswerField>,
}

impl Answer {
    pub fn is_empty(&self) -> bool {
        self.passages.is_empty() && self.fields.values().all(|f| f.value.is_none())
    }
}

/// The result contract (snake_case JSON): the seed's `result_contract` fields
/// plus `attempts` (the chain trace) and a few descriptive extras.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchResult {
    pub answer: Answer,
    pub confidence: f64,
    pub confidence_level: ConfidenceLevel,
    pub sources: Vec<EvidenceSource>,
    pub fallback_used: bool,
    pub failure_codes: Vec<FailureCode>,
    /// RFC 3339, when the result was assembled.
    pub verified_at: jiff::Timestamp,
    pub evidence_ids: Vec<String>,
    #[serde(default)]
    pub attempts: Vec<Attempt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_key: Option<CacheKey>,
    /// True when a fresh cache entry answered without running the chain.
    #[serde(default)]
    pub from_cache: bool,
    /// The human evidence request opened for this query, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_request_id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// How `confidence` was computed: the weakest requested field's breakdown,
    /// or the passages' when no field was requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_breakdown: Option<ScoreBreakdown>,
    /// Store writes that failed during the search (the human request, the
    /// evidence): the result stands, but it was not recorded. Absent from
    /// the JSON when every write succeeded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub store_failures: Vec<StoreWriteFailure>,
}

impl SearchResult {
    /// The fields of the result contract: the seed's `required_fields` plus
    /// `confidence_level` and `attempts`. Every result's JSON has them all.
    pub const CONTRACT_FIELDS: [&'static str; 9] = [
        "answer",
        "confidence",
        "confidence_level",
        "sources",
        "fallback_used",
        "failure_codes",
        "verified_at",
        "evidence_ids",
        "attempts",
    ];

    /// True when the answer carries at least one cited source.
    pub fn has_answer(&self) -> bool {
        !self.sources.is_empty() && !self.answer.is_empty()
    }
}

/// The seed's `build_result`: scores the sources, derives the level, collects
/// the evidence ids in source order.
pub fn build_result(
    answer: Answer,
    sources: Vec<EvidenceSource>,
    failure_codes: Vec<FailureCode>,
    fallback_used: bool,
    notes: Vec<String>,
) -> SearchResult {
    Scoring::default().build_result(answer, sources, failure_codes, fallback_used, notes)
}

impl Scoring {
    /// [`build_result`] with this scoring model.
    pub fn build_result(
        &self,
        answer: Answer,
        sources: Vec<EvidenceSource>,
        failure_codes: Vec<FailureCode>,
        fallback_used: bool,
        notes: Vec<String>,
    ) -> SearchResult {
        let breakdown = self.breakdown(&sources, &failure_codes);
        let confidence = breakdown.confidence;
        let evidence_ids = sources
            .iter()
            .filter_map(|s| s.evidence_id.clone())
            .filter(|id| !id.is_empty())
            .collect();
        SearchResult {
            answer,
            confidence,
            confidence_level: confidence_level(confidence),
            sources,
            fallback_used,
            failure_codes,
            verified_at: jiff::Timestamp::now(),
            evidence_ids,
            attempts: Vec::new(),
            cache_key: None,
            from_cache: false,
            human_request_id: None,
            notes,
            score_breakdown: Some(breakdown),
            store_failures: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_evidence_ids_are_not_collected_and_the_breakdown_is_kept() {
        let mut a =
            EvidenceSource::new("https://a.example/", "a", SourceTier::OfficialPrimary, "t");
        a.evidence_id = Some(String::new());
        let mut b = EvidenceSource::new("https://b.example/", "b", SourceTier::GeneralWeb, "t");
        b.evidence_id = Some("ev-b".into());
        let r = build_result(Answer::default(), vec![a, b], Vec::new(), false, Vec::new());
        assert_eq!(r.evidence_ids, vec!["ev-b".to_string()]);
        let breakdown = r.score_breakdown.unwrap();
        assert_eq!(breakdown.confidence, r.confidence);
        assert_eq!(breakdown.sources_counted[0].evidence_id, None);
    }
}
