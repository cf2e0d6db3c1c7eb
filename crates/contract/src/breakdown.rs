//! The score breakdown: every term of a confidence, so a reader can recompute it.

use crate::{EvidenceSource, FailureCode, Scoring, SourceTier};
use serde::{Deserialize, Serialize};

/// One source counted by a score (one per independent publisher).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CountedSource {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    pub tier: SourceTier,
    /// The tier's base confidence in the scoring model used.
    pub base: f64,
}

/// One penalty subtracted from a score, with the failure code that caused it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScorePenalty {
    pub code: FailureCode,
    pub amount: f64,
}

/// An upper bound put on a score by a rule of the confidence model
/// (`docs/confidence.md`): the score is `min(max, seed score)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreCap {
    pub max: f64,
    /// Why: `no_value`, `ambiguous`, `snippet_only`, `partial_coverage`,
    /// `weak_candidate`, `other_period`, ….
    pub reason: String,
}

/// How a confidence was computed: the seed's `score_sources` over
/// `sources_counted` with the codes of `penalties`, then the caps.
///
/// `confidence = min(caps…, clamp(round(base + corroboration_bonus +
/// official_bonus − Σ penalties, 3), 0, 0.99))`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreBreakdown {
    /// The sources the score counts, one per independent publisher.
    pub sources_counted: Vec<CountedSource>,
    /// The best base confidence among them (0 without sources).
    pub base: f64,
    /// `min(0.08, 0.03·(n−1))`.
    pub corroboration_bonus: f64,
    /// 0.03 when an official source is among ≥ 2.
    pub official_bonus: f64,
    /// The codes that bear on the evidence used, with their amounts.
    #[serde(default)]
    pub penalties: Vec<ScorePenalty>,
    /// The result's other codes: diagnosis only, no effect on this score.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnosis_only: Vec<FailureCode>,
    /// Upper bounds applied after the seed's formula.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caps: Vec<ScoreCap>,
    /// The resulting confidence.
    pub confidence: f64,
}

impl ScoreBreakdown {
    /// The penalty codes, for [`crate::score_sources`].
    pub fn penalty_codes(&self) -> Vec<FailureCode> {
        self.penalties.iter().map(|p| p.code).collect()
    }

    /// Adds a cap (`max` rounded to three places); lowers the confidence when needed.
    pub fn cap(&mut self, max: f64, reason: impl Into<String>) {
        let max = non_negative(round3(max));
        self.caps.push(ScoreCap {
            max,
            reason: reason.into(),
        });
        if self.confidence > max {
            self.confidence = max;
        }
    }
}

impl Scoring {
    /// [`Scoring::score`] with every term kept. `failure_codes` are the codes
    /// that bear on the scored evidence; each code with a penalty in the model
    /// is listed once.
    pub fn breakdown(
        &self,
        sources: &[EvidenceSource],
        failure_codes: &[FailureCode],
    ) -> ScoreBreakdown {
        let counted = sources
            .iter()
            .map(|s| self.counted(s.evidence_id.as_deref(), s.publisher.as_deref(), s.tier))
            .collect();
        self.breakdown_counted(counted, failure_codes)
    }

    /// One source as a score counts it in this model: its tier's base, its
    /// evidence id (an empty id is none) and publisher.
    pub fn counted(
        &self,
        evidence_id: Option<&str>,
        publisher: Option<&str>,
        tier: SourceTier,
    ) -> CountedSource {
        CountedSource {
            evidence_id: evidence_id.filter(|id| !id.is_empty()).map(str::to_owned),
            publisher: publisher.map(str::to_owned),
            tier,
            base: self.tier_bases.base(tier),
        }
    }

    /// [`Scoring::breakdown`] of sources already counted ([`Scoring::counted`]),
    /// for a caller that holds the evidence rather than [`EvidenceSource`]s.
    pub fn breakdown_counted(
        &self,
        sources_counted: Vec<CountedSource>,
        failure_codes: &[FailureCode],
    ) -> ScoreBreakdown {
        if sources_counted.is_empty() {
            return ScoreBreakdown::default();
        }
        let base = sources_counted
            .iter()
            .map(|s| s.base)
            .fold(f64::MIN, f64::max);
        let n = sources_counted.len();
        let official_count = sources_counted
            .iter()
            .filter(|s| s.tier.is_official())
            .count();
        let corroboration_bonus = f64::min(0.08, (n.saturating_sub(1)) as f64 * 0.03);
        let official_bonus = if official_count >= 1 && n >= 2 {
            0.03
        } else {
            0.0
        };
        let penalties: Vec<ScorePenalty> = self
            .penalties
            .0
            .iter()
            .filter(|(code, _)| failure_codes.contains(code))
            .map(|(code, amount)| ScorePenalty {
                code: *code,
                amount: *amount,
            })
            .collect();
        let penalty: f64 = penalties.iter().map(|p| p.amount).sum();
        let score = base + corroboration_bonus + official_bonus - penalty;
        ScoreBreakdown {
            sources_counted,
            base,
            corroboration_bonus: round3(corroboration_bonus),
            official_bonus,
            penalties,
            diagnosis_only: Vec::new(),
            caps: Vec::new(),
            confidence: non_negative(round3(score).clamp(0.0, 0.99)),
        }
    }
}

pub(crate) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// `-0.0` becomes `0.0` (a score is never printed as `-0.0`).
pub(crate) fn non_negative(x: f64) -> f64 {
    if x <= 0.0 { 0.0 } else { x }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(tier: SourceTier) -> EvidenceSource {
        EvidenceSource::new("https://x.example/", "x", tier, "2026-01-01T00:00:00Z")
    }

    #[test]
    fn the_breakdown_gives_the_score_and_its_terms() {
        let s = Scoring::default();
        let sources = [
            src(SourceTier::OfficialPrimary),
            src(SourceTier::AuthoritativeMedia),
        ];
        let codes = [
            FailureCode::SourceConflictNeedsReview,
            FailureCode::EvidenceCacheMiss,
        ];
        let b = s.breakdown(&sources, &codes);
        assert_eq!(b.confidence, s.score(&sources, &codes));
        assert_eq!(b.base, 0.95);
        assert_eq!(b.corroboration_bonus, 0.03);
        assert_eq!(b.official_bonus, 0.03);
        assert_eq!(
            b.penalty_codes(),
            vec![FailureCode::SourceConflictNeedsReview]
        );
        assert_eq!(b.confidence, 0.76);
    }

    #[test]
    fn sources_counted_by_hand_score_as_the_sources_do() {
        let s = Scoring::default();
        let mut official = src(SourceTier::OfficialPrimary);
        official.evidence_id = Some("ev-1".into());
        official.publisher = Some("Statistics Norland".into());
        let mut media = src(SourceTier::AuthoritativeMedia);
        media.evidence_id = Some(String::new());
        let sources = [official, media];
        let codes = [FailureCode::EvidenceCacheStale];
        let counted = sources
            .iter()
            .map(|x| s.counted(x.evidence_id.as_deref(), x.publisher.as_deref(), x.tier))
            .collect();
        let by_hand = s.breakdown_counted(counted, &codes);
        assert_eq!(by_hand, s.breakdown(&sources, &codes));
        assert_eq!(
            by_hand.sources_counted[0].evidence_id.as_deref(),
            Some("ev-1")
        );
        assert_eq!(
            by_hand.sources_counted[1].evidence_id, None,
            "an empty id is none"
        );
        assert_eq!(
            s.breakdown_counted(Vec::new(), &codes),
            ScoreBreakdown::default()
        );
    }

    #[test]
    fn scores_are_never_negative_zero() {
        let s = Scoring::default();
        let all = [
            FailureCode::SourceConflictNeedsReview,
            FailureCode::HumanEvidenceRequired,
            FailureCode::EvidenceCacheStale,
            FailureCode::SourceExtractionFailed,
        ];
        let score = s.score(&[src(SourceTier::UserSuppliedEvidence)], &all);
        assert_eq!(score.to_string(), "0");
        assert!(score.is_sign_positive());
        let mut b = s.breakdown(&[src(SourceTier::OfficialPrimary)], &[]);
        b.cap(-0.0001, "test");
        assert!(b.confidence.is_sign_positive());
    }

    #[test]
    fn a_cap_only_lowers() {
        let mut b = Scoring::default().breakdown(&[src(SourceTier::GeneralWeb)], &[]);
        b.cap(0.64, "snippet_only");
        assert_eq!(b.confidence, 0.55);
        b.cap(0.3, "no_value");
        assert_eq!(b.confidence, 0.3);
        assert_eq!(b.caps.len(), 2);
    }
}
