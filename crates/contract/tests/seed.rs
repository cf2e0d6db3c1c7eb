//! The seed's 12 tests (`tests/test_search_gateway_resilience_contract.py`), ported unchanged in meaning.

use sgw_contract::{
    Answer, ConfidenceLevel, EvidenceSource, FailureCode, SearchResult, SourceTier, build_result,
    classify_http_or_extraction_failure, confidence_level, score_sources,
};

fn source(tier: SourceTier, evidence_id: &str) -> EvidenceSource {
    EvidenceSource {
        evidence_id: Some(evidence_id.to_string()),
        ..EvidenceSource::new(
            "https://example.test/source",
            "Example source",
            tier,
            "2026-07-10T00:00:00+00:00",
        )
    }
}

fn answer() -> Answer {
    // The seed passes {"value": 1}; the answer's content does not affect scoring.
    Answer::default()
}

#[test]
fn test_official_primary_scores_high() {
    let result = build_result(
        answer(),
        vec![source(SourceTier::OfficialPrimary, "ev-1")],
        vec![],
        false,
        vec![],
    );
    assert!(result.confidence >= 0.85);
    assert_eq!(result.confidence_level, ConfidenceLevel::High);
}

#[test]
fn test_general_web_scores_low_without_corroboration() {
    let result = build_result(
        answer(),
        vec![source(SourceTier::GeneralWeb, "ev-1")],
        vec![],
        false,
        vec![],
    );
    assert_eq!(result.confidence_level, ConfidenceLevel::Low);
}

#[test]
fn test_multiple_sources_add_corroboration_bonus() {
    let one = score_sources(&[source(SourceTier::AuthoritativeMedia, "ev-1")], &[]);
    let two = score_sources(
        &[
            source(SourceTier::AuthoritativeMedia, "ev-1"),
            source(SourceTier::GeneralWeb, "ev-2"),
        ],
        &[],
    );
    assert!(two > one);
}

#[test]
fn test_conflict_penalty_lowers_score() {
    let clean = score_sources(&[source(SourceTier::OfficialPrimary, "ev-1")], &[]);
    let conflicted = score_sources(
        &[source(SourceTier::OfficialPrimary, "ev-1")],
        &[FailureCode::SourceConflictNeedsReview],
    );
    assert!(conflicted < clean);
}

#[test]
fn test_build_result_carries_failure_codes_and_fallback_flag() {
    let result = build_result(
        answer(),
        vec![source(SourceTier::OfficialSecondary, "ev-1")],
        vec![FailureCode::SearchResultTruncated],
        true,
        vec![],
    );
    assert!(result.fallback_used);
    assert!(
        result
            .failure_codes
            .contains(&FailureCode::SearchResultTruncated)
    );
}

#[test]
fn test_build_result_collects_evidence_ids() {
    let result = build_result(
        answer(),
        vec![
            source(SourceTier::OfficialPrimary, "ev-a"),
            source(SourceTier::AuthoritativeMedia, "ev-b"),
        ],
        vec![],
        false,
        vec![],
    );
    assert_eq!(
        result.evidence_ids,
        vec!["ev-a".to_string(), "ev-b".to_string()]
    );
}

#[test]
fn test_confidence_level_boundaries() {
    assert_eq!(confidence_level(0.85), ConfidenceLevel::High);
    assert_eq!(confidence_level(0.65), ConfidenceLevel::Medium);
    assert_eq!(confidence_level(0.64), ConfidenceLevel::Low);
}

#[test]
fn test_classify_403_as_cdn_blocked() {
    assert_eq!(
        classify_http_or_extraction_failure(Some(403), false, false),
        FailureCode::SourceBlockedByCdn
    );
}

#[test]
fn test_classify_404_as_removed() {
    assert_eq!(
        classify_http_or_extraction_failure(Some(404), false, false),
        FailureCode::Source404OrRemoved
    );
}

#[test]
fn test_classify_dynamic_page_as_unreadable() {
    assert_eq!(
        classify_http_or_extraction_failure(None, true, false),
        FailureCode::SourceDynamicPageUnreadable
    );
}

#[test]
fn test_classify_captcha_as_provider_captcha() {
    assert_eq!(
        classify_http_or_extraction_failure(None, false, true),
        FailureCode::SearchProviderCaptcha
    );
}

#[test]
fn test_no_sources_scores_zero() {
    assert_eq!(score_sources(&[], &[]), 0.0);
}

// Beyond the seed: exact figures of the formula and the wire spellings.

#[test]
fn exact_scores_follow_the_seed_formula() {
    let op = source(SourceTier::OfficialPrimary, "a");
    let media = source(SourceTier::AuthoritativeMedia, "b");
    let web = source(SourceTier::GeneralWeb, "c");
    assert_eq!(score_sources(std::slice::from_ref(&op), &[]), 0.95);
    // 0.95 + 0.03 corroboration + 0.03 official = 1.01 → clamped 0.99
    assert_eq!(score_sources(&[op.clone(), media.clone()], &[]), 0.99);
    // 0.80 + min(0.08, 0.06) = 0.86
    assert_eq!(
        score_sources(&[media.clone(), web.clone(), web.clone()], &[]),
        0.86
    );
    // 0.55 + 0.08 (capped) = 0.63
    assert_eq!(
        score_sources(
            &[
                web.clone(),
                web.clone(),
                web.clone(),
                web.clone(),
                web.clone()
            ],
            &[]
        ),
        0.63
    );
    // every penalty: 0.95 − 0.63 = 0.32
    let all = [
        FailureCode::SourceConflictNeedsReview,
        FailureCode::SearchResultTruncated,
        FailureCode::SourceExtractionFailed,
        FailureCode::EvidenceCacheStale,
        FailureCode::HumanEvidenceRequired,
    ];
    assert_eq!(score_sources(std::slice::from_ref(&op), &all), 0.32);
    // codes without a penalty change nothing; the floor is 0
    assert_eq!(
        score_sources(std::slice::from_ref(&op), &[FailureCode::EvidenceCacheMiss]),
        0.95
    );
    let user = source(SourceTier::UserSuppliedEvidence, "u");
    assert_eq!(score_sources(&[user], &all), 0.0);
}

#[test]
fn wire_spellings_match_the_seed() {
    let seed = [
        "SEARCH_PROVIDER_TIMEOUT",
        "SEARCH_PROVIDER_RATE_LIMITED",
        "SEARCH_PROVIDER_CAPTCHA",
        "SEARCH_RESULT_TRUNCATED",
        "SEARCH_RESULT_LOW_RELEVANCE",
        "SOURCE_BLOCKED_BY_CDN",
        "SOURCE_404_OR_REMOVED",
        "SOURCE_DYNAMIC_PAGE_UNREADABLE",
        "SOURCE_EXTRACTION_FAILED",
        "OFFICIAL_SOURCE_FOUND_BUT_EXTRACTION_FAILED",
        "SOURCE_CONFLICT_NEEDS_REVIEW",
        "EVIDENCE_CACHE_MISS",
        "EVIDENCE_CACHE_STALE",
        "HUMAN_EVIDENCE_REQUIRED",
    ];
    let ours: Vec<&str> = FailureCode::seed_codes().map(FailureCode::as_str).collect();
    assert_eq!(ours, seed);
    for code in FailureCode::ALL {
        let json = serde_json::to_string(code).unwrap();
        assert_eq!(json, format!("\"{}\"", code.as_str()));
        assert_eq!(code.as_str().parse::<FailureCode>().unwrap(), *code);
    }
    for tier in SourceTier::ALL {
        assert_eq!(
            serde_json::to_string(&tier).unwrap(),
            format!("\"{}\"", tier.as_str())
        );
    }
}

#[test]
fn result_json_has_the_contract_fields() {
    let result = build_result(
        answer(),
        vec![source(SourceTier::OfficialPrimary, "ev-1")],
        vec![],
        false,
        vec![],
    );
    let json = serde_json::to_value(&result).unwrap();
    for field in SearchResult::CONTRACT_FIELDS {
        assert!(json.get(field).is_some(), "missing {field}");
    }
    assert_eq!(json["confidence_level"], "high");
    assert_eq!(json["sources"][0]["tier"], "OFFICIAL_PRIMARY");
}
