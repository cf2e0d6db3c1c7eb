//! What a person's evidence alone answers: the result cached when a human
//! evidence request is resolved, built and scored like any other result
//! (the policy's scoring model), so the store only stores it.

use crate::Policy;
use jiff::Timestamp;
use sgw_contract::{Answer, AnswerPassage, Evidence, EvidenceSource, SearchResult, SourceTier};

/// The result a person's evidence alone gives, to cache for a resolved human
/// evidence request (`sgw_store::Store::resolve_request`): one
/// USER_SUPPLIED_EVIDENCE source, the evidence's passages (or its opening
/// text) as the answer, scored by the **policy's** scoring model and verified
/// at `now`. Set the evidence's `evidence_id` first (`sgw_store::new_evidence_id`)
/// so the passages and the source cite it.
pub fn user_evidence_result(policy: &Policy, ev: &Evidence, now: Timestamp) -> SearchResult {
    let id = ev.evidence_id.clone().filter(|id| !id.is_empty());
    let tier = SourceTier::UserSuppliedEvidence;
    let mut passages: Vec<AnswerPassage> = ev
        .passages
        .iter()
        .map(|p| AnswerPassage {
            text: p.text.clone(),
            evidence_id: id.clone(),
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
            evidence_id: id.clone(),
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
    source.evidence_id = id;
    source.extraction_method = Some(ev.extraction_method.clone());
    let mut result = policy.scoring().build_result(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_evidence_is_scored_by_the_policy_and_cited() {
        let yaml = "version: 1\nname: t\nsource_priority:\n  USER_SUPPLIED_EVIDENCE: { confidence_base: 0.40 }\n";
        let (policy, _) = Policy::from_bytes(yaml.as_bytes(), Some("t.yaml"), &[])
            .unwrap_or_else(|e| panic!("{e}"));
        let mut ev = Evidence::new(
            "https://gov.example/fees".parse().unwrap(),
            "Fees",
            "The fee for X is 120 EUR.",
            "user-text",
        );
        ev.evidence_id = Some("ev-01JTEST0000000000000000000".into());
        let now: Timestamp = "2026-03-01T12:00:00Z".parse().unwrap();
        let r = user_evidence_result(&policy, &ev, now);
        assert_eq!(
            r.confidence, 0.4,
            "the policy's base for USER_SUPPLIED_EVIDENCE"
        );
        assert_eq!(r.sources[0].tier, SourceTier::UserSuppliedEvidence);
        assert_eq!(
            r.evidence_ids,
            vec!["ev-01JTEST0000000000000000000".to_string()]
        );
        assert_eq!(
            r.answer.passages[0].evidence_id.as_deref(),
            Some("ev-01JTEST0000000000000000000")
        );
        assert!(r.answer.passages[0].text.contains("120 EUR"));
        assert_eq!(r.verified_at, now);
    }
}
