//! Per-field confidence, the stop rule, corroboration by agreement, ties and
//! time, snippet citations, and the reproducible score breakdown.

use crate::support::{calls, gateway, unique};
use sgw_contract::{
    CompetingReason, ConfidenceLevel, EvidenceSource, FieldSpec, ScoreBreakdown, Scoring,
    SearchRequest, SearchResult, SourceTier, score_sources,
};

const HEAD: &str = "version: 1\nname: t\nsources:\n  stats:\n    publisher: Stats Office\n    tier: OFFICIAL_PRIMARY\n    domains: [stats.example]\n  ministry:\n    publisher: Ministry\n    tier: OFFICIAL_PRIMARY\n    domains: [ministry.example]\n  courier:\n    publisher: Courier\n    tier: AUTHORITATIVE_MEDIA\n    domains: [courier.example]\n  post:\n    publisher: Post\n    tier: AUTHORITATIVE_MEDIA\n    domains: [post.example]\n";

fn provider(counter: &str, extra: &str) -> String {
    format!("{{kind: scripted, name: {counter}, config: {{counter: {counter}{extra}}}}}")
}

fn rate_request(q: &str) -> SearchRequest {
    let mut r = SearchRequest::new(q);
    r.fields.push("rate:percent".parse::<FieldSpec>().unwrap());
    r
}

/// The seed's `score_sources` over the counted sources and penalty codes
/// (with the policy's tier bases), then the caps.
fn recompute(b: &ScoreBreakdown) -> f64 {
    let sources: Vec<EvidenceSource> = b
        .sources_counted
        .iter()
        .map(|s| EvidenceSource::new("https://x.example/", "x", s.tier, "2026-01-01T00:00:00Z"))
        .collect();
    let seed = if b
        .sources_counted
        .iter()
        .all(|s| s.base == s.tier.default_base_confidence())
    {
        score_sources(&sources, &b.penalty_codes())
    } else {
        let mut scoring = Scoring::default();
        for s in &b.sources_counted {
            scoring.tier_bases.0.insert(s.tier, s.base);
        }
        scoring.score(&sources, &b.penalty_codes())
    };
    b.caps.iter().map(|c| c.max).fold(seed, f64::min)
}

fn assert_reproducible(r: &SearchResult) {
    let b = r.score_breakdown.as_ref().expect("a score breakdown");
    assert_eq!(recompute(b), r.confidence, "{b:#?}");
    assert_eq!(b.confidence, r.confidence);
    for (name, f) in &r.answer.fields {
        let b = f.score_breakdown.as_ref().expect("a field breakdown");
        assert_eq!(recompute(b), f.confidence, "{name}: {b:#?}");
    }
}

#[tokio::test(start_paused = true)]
async fn an_official_page_that_does_not_answer_does_not_stop_the_chain() {
    let (a, b) = (unique("a"), unique("b"));
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/\", title: \"Stats Office\", text: \"Latest releases of the statistics office: interest rate news and more.\"}]"
        ),
        provider(
            &b,
            ", docs: [{url: \"https://courier.example/r\", title: \"Policy rate\", text: \"The policy interest rate is 4.5%.\", fields: {rate: \"4.5%\"}}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    assert_eq!(calls(&b), 1, "the chain went on past the official page");
    let field = &r.answer.fields["rate"];
    assert_eq!(field.value.as_deref(), Some("4.5%"));
    assert_eq!(field.level, ConfidenceLevel::Medium, "one newspaper");
    assert_eq!(r.confidence_level, ConfidenceLevel::Medium);
    assert!(r.fallback_used);
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn a_requested_field_without_a_value_is_never_high() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/rates\", title: \"Policy interest rate\", text: \"The policy interest rate is decided by the board.\"}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    let field = &r.answer.fields["rate"];
    assert_eq!(field.value, None);
    assert_eq!(field.confidence, 0.0);
    assert_eq!(field.level, ConfidenceLevel::Low);
    assert_eq!(r.confidence, 0.0);
    assert_eq!(r.confidence_level, ConfidenceLevel::Low);
    assert!(r.has_answer(), "the passages are still shown");
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn half_the_query_words_is_not_an_answer() {
    let (a, b) = (unique("a"), unique("b"));
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/\", title: \"Statistics Office\", text: \"Census releases and news of the statistics office.\"}]"
        ),
        provider(
            &b,
            ", docs: [{url: \"https://stats.example/census-dates\", title: \"Census results\", text: \"Census 2028 results: publication date announced.\"}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&SearchRequest::new("census 2028 results publication date"))
        .await
        .unwrap();
    assert_eq!(
        calls(&b),
        1,
        "a landing page with half the words does not stop the chain"
    );
    assert_eq!(
        r.confidence_level,
        ConfidenceLevel::High,
        "{:#?}",
        r.score_breakdown
    );
    assert_eq!(
        r.score_breakdown.as_ref().unwrap().sources_counted.len(),
        1,
        "only the page that answers counts"
    );
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn a_page_about_another_year_is_never_high() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/census\", title: \"Census results\", text: \"The 2026 census results publication date is 4 May 2027.\", fields: {day: \"2027-05-04\"}}]"
        ),
    );
    let mut req = SearchRequest::new("census 2028 results publication date");
    req.fields.push("day:date".parse().unwrap());
    let r = gateway(&yaml).search(&req).await.unwrap();
    let f = &r.answer.fields["day"];
    assert_eq!(f.level, ConfidenceLevel::Low, "{:#?}", f.score_breakdown);
    assert!(
        f.score_breakdown
            .as_ref()
            .unwrap()
            .caps
            .iter()
            .any(|c| c.reason == "other_period")
    );
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn corroboration_counts_agreement_not_publishers() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/r\", title: \"Rate\", text: \"interest rate is 4.5%\", fields: {rate: \"4.5%\"}}, {url: \"https://one.example/r\", title: \"Rate\", text: \"interest rate 9%\", fields: {rate: \"9%\"}}, {url: \"https://two.example/r\", title: \"Rate\", text: \"the interest rate: 9%\", fields: {rate: \"9%\"}}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("interest rate"))
        .await
        .unwrap();
    let field = &r.answer.fields["rate"];
    assert_eq!(field.value.as_deref(), Some("4.5%"));
    assert_eq!(
        field.confidence, 0.95,
        "blogs giving another value add no bonus"
    );
    assert_eq!(field.competing[0].reason, Some(CompetingReason::Outranked));
    assert_eq!(r.confidence, 0.95);
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn one_wire_story_under_several_bylines_counts_once() {
    let story = "The central bank kept its policy interest rate at 4.5% on Thursday, citing easing inflation and a stable labour market, and said it would review the rate again at its next meeting in six weeks.";
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            &format!(
                ", docs: [{{url: \"https://courier.example/a\", title: \"Rate held\", text: \"By Ann Lee. {story}\", fields: {{rate: \"4.5%\"}}}}, {{url: \"https://post.example/b\", title: \"Bank holds rate\", text: \"Wire staff. {story} Related stories.\", fields: {{rate: \"4.5%\"}}}}]"
            )
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    let field = &r.answer.fields["rate"];
    assert_eq!(field.sources.len(), 2, "both cited");
    let b = field.score_breakdown.as_ref().unwrap();
    assert_eq!(b.sources_counted.len(), 1, "one story counts once");
    assert_eq!(field.confidence, 0.8);
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn a_snippet_is_the_engines_never_corroborates_and_is_never_enough_for_medium() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://searx.example/search\", about: \"https://stats.example/rates\", publisher: \"searxng search engine (searx.example)\", title: \"Policy interest rate\", text: \"Policy interest rate: 4.5%\", snippet: true, fields: {rate: \"4.5%\"}}, {url: \"https://courier.example/r\", title: \"Rate\", text: \"The policy interest rate is 4.5%.\", fields: {rate: \"4.5%\"}}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    let snippet = r
        .sources
        .iter()
        .find(|s| s.extraction_method.as_deref() == Some("snippet"))
        .unwrap();
    assert_eq!(snippet.tier, SourceTier::GeneralWeb);
    assert_eq!(
        snippet.publisher.as_deref(),
        Some("searxng search engine (searx.example)"),
        "never the page's publisher"
    );
    assert_eq!(snippet.metadata["about"], "https://stats.example/rates");
    assert!(!snippet.url.contains("stats.example"));
    let field = &r.answer.fields["rate"];
    assert_eq!(field.confidence, 0.8, "the snippet adds no corroboration");

    // Alone, a snippet stays low.
    let a = unique("a");
    let yaml = format!(
        "{HEAD}source_priority:\n  GENERAL_WEB:\n    confidence_base: 0.7\nproviders:\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://searx.example/search\", about: \"https://stats.example/rates\", title: \"Policy interest rate\", text: \"Policy interest rate: 4.5%\", snippet: true, fields: {rate: \"4.5%\"}}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    let field = &r.answer.fields["rate"];
    assert_eq!(field.value.as_deref(), Some("4.5%"));
    assert_eq!(
        field.level,
        ConfidenceLevel::Low,
        "{:#?}",
        field.score_breakdown
    );
    assert_eq!(r.sources[0].publisher.as_deref(), Some("search engine"));
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn equal_tier_sources_that_disagree_are_a_conflict_not_string_order() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://courier.example/r\", title: \"Rate\", text: \"policy interest rate is 4.5%\", fields: {rate: \"4.5%\"}}, {url: \"https://post.example/r\", title: \"Rate\", text: \"policy interest rate is 4.25%\", fields: {rate: \"4.25%\"}}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    let field = &r.answer.fields["rate"];
    assert!(field.ambiguous);
    assert_eq!(
        field.value.as_deref(),
        Some("4.5%"),
        "the first source read, not the smaller string"
    );
    assert_eq!(field.competing[0].reason, Some(CompetingReason::Conflict));
    assert_eq!(field.level, ConfidenceLevel::Low);
    assert!(
        r.failure_codes
            .contains(&sgw_contract::FailureCode::SourceConflictNeedsReview)
    );
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn a_newer_dated_statement_beats_an_older_one_of_the_same_tier() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://courier.example/old\", title: \"Rate\", text: \"policy interest rate is 20%\", published: \"2025-01-10\", fields: {rate: \"20%\"}}, {url: \"https://courier.example/new\", title: \"Rate\", text: \"policy interest rate is now 21%\", published: \"2026-01-02\", fields: {rate: \"21%\"}}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    let field = &r.answer.fields["rate"];
    assert_eq!(field.value.as_deref(), Some("21%"));
    assert_eq!(field.competing[0].reason, Some(CompetingReason::Superseded));
    assert!(!field.ambiguous);
    assert!(
        !r.failure_codes
            .contains(&sgw_contract::FailureCode::SourceConflictNeedsReview)
    );
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn a_stale_cached_value_never_beats_a_fresh_page() {
    let (e, c) = (unique("engine"), unique("cache"));
    let yaml = format!(
        "{HEAD}cache_policy:\n  answer_from_fresh_cache: false\nproviders:\n  search_engine_provider:\n    - {}\n  cached_evidence:\n    - {}\n",
        provider(
            &e,
            ", docs: [{url: \"https://courier.example/new\", title: \"Rate\", text: \"policy interest rate is 21%\", fields: {rate: \"21%\"}}]"
        ),
        provider(
            &c,
            ", from_cache: true, codes: [EVIDENCE_CACHE_STALE], docs: [{url: \"https://stats.example/rates\", title: \"Rate\", text: \"policy interest rate is 20%\", fields: {rate: \"20%\"}}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    let field = &r.answer.fields["rate"];
    assert_eq!(
        field.value.as_deref(),
        Some("21%"),
        "{:#?}",
        r.answer.fields
    );
    assert_eq!(field.competing[0].reason, Some(CompetingReason::Stale));
    assert_eq!(
        field.confidence, 0.8,
        "the stale penalty is the cache's, not the page's"
    );
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn a_page_that_does_not_separate_two_candidates_is_ambiguous() {
    let run = |top: f64, second: f64| async move {
        let a = unique("a");
        let yaml = format!(
            "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
            provider(
                &a,
                &format!(
                    ", docs: [{{url: \"https://stats.example/r\", title: \"Rates\", text: \"standard interest rate 21% and reduced interest rate 9%\", candidates: [[rate, \"21%\", {top}], [rate, \"9%\", {second}]]}}]"
                )
            ),
        );
        gateway(&yaml)
            .search(&rate_request("standard interest rate"))
            .await
            .unwrap()
    };
    let r = run(0.9, 0.85).await;
    let f = &r.answer.fields["rate"];
    assert!(f.ambiguous);
    assert_eq!(f.level, ConfidenceLevel::Low);
    assert_eq!(f.competing[0].value, "9%");
    assert_eq!(f.competing[0].reason, Some(CompetingReason::Ambiguous));
    assert_reproducible(&r);

    let r = run(0.9, 0.4).await;
    let f = &r.answer.fields["rate"];
    assert!(!f.ambiguous);
    assert_eq!(f.value.as_deref(), Some("21%"));
    assert_eq!(f.level, ConfidenceLevel::High);
    assert!(
        f.competing.is_empty(),
        "a clearly weaker runner-up is not competition"
    );
}

#[tokio::test(start_paused = true)]
async fn a_failed_sibling_of_an_answering_first_step_is_no_fallback() {
    let (a, b) = (unique("a"), unique("b"));
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n    - {}\n",
        provider(&a, ", error: SOURCE_BLOCKED_BY_CDN"),
        provider(
            &b,
            ", docs: [{url: \"https://stats.example/r\", title: \"Rate\", text: \"policy interest rate is 4.5%\", fields: {rate: \"4.5%\"}}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    assert_eq!(r.confidence_level, ConfidenceLevel::High);
    assert!(!r.fallback_used, "{:#?}", r.attempts);
    let b = r.score_breakdown.as_ref().unwrap();
    assert!(b.penalties.is_empty());
    assert_eq!(
        b.diagnosis_only,
        vec![sgw_contract::FailureCode::SourceBlockedByCdn],
        "the sibling's failure is diagnosis only"
    );
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn two_publishers_that_disagree_stay_a_conflict_whatever_their_dates() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/ev\", title: \"Electric cars\", text: \"electric cars at the end of 2025: 412000\", published: \"2026-04-02\", fields: {cars: \"412000\"}}, {url: \"https://ministry.example/ev\", title: \"Electric cars\", text: \"electric cars registered at the end of 2025: 398500\", published: \"2026-02-10\", fields: {cars: \"398500\"}}]"
        ),
    );
    let mut req = SearchRequest::new("electric cars end of 2025");
    req.fields.push("cars:number".parse().unwrap());
    let r = gateway(&yaml).search(&req).await.unwrap();
    let f = &r.answer.fields["cars"];
    assert_eq!(
        f.value.as_deref(),
        Some("412000"),
        "the newer statement is shown"
    );
    assert_eq!(f.competing[0].reason, Some(CompetingReason::Conflict));
    assert_eq!(f.level, ConfidenceLevel::Medium, "0.95 − 0.25");
    assert!(
        r.failure_codes
            .contains(&sgw_contract::FailureCode::SourceConflictNeedsReview)
    );
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn a_page_naming_every_term_but_answering_nowhere_is_not_a_passage_answer() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/\", title: \"Central bank\", text: \"The board lowered the policy rate today. Other news: monetary statistics; meetings of the staff council; the 2027 budget.\"}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&SearchRequest::new("monetary policy meetings 2027"))
        .await
        .unwrap();
    assert!(r.has_answer());
    assert_eq!(
        r.confidence_level,
        ConfidenceLevel::Low,
        "{:#?}",
        r.score_breakdown
    );
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn registry_sources_are_publishers_whatever_their_domains() {
    let a = unique("a");
    let yaml = format!(
        "version: 1\nname: t\nsources:\n  stats:\n    publisher: Statistics Agency\n    tier: OFFICIAL_PRIMARY\n    domains: [stats.gov.example]\n  transport:\n    publisher: Transport Agency\n    tier: OFFICIAL_PRIMARY\n    domains: [transport.gov.example, transport-agency.example]\nproviders:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.gov.example/r\", title: \"Rate\", text: \"policy interest rate is 4.5%\", fields: {rate: \"4.5%\"}}, {url: \"https://transport.gov.example/r\", title: \"Rate\", text: \"the policy interest rate: 4.5%\", fields: {rate: \"4.5%\"}}, {url: \"https://transport-agency.example/r\", title: \"Rate\", text: \"our policy interest rate page: 4.5%\", fields: {rate: \"4.5%\"}}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("policy interest rate"))
        .await
        .unwrap();
    let b = r.answer.fields["rate"].score_breakdown.clone().unwrap();
    assert_eq!(
        b.sources_counted.len(),
        2,
        "two agencies under one domain are two publishers; one agency on two domains is one"
    );
    assert_eq!(r.confidence, 0.99);
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn a_page_about_another_jurisdiction_neither_wins_nor_raises_a_conflict() {
    let a = unique("a");
    let yaml = format!(
        "version: 1\nname: t\nsources:\n  stats:\n    publisher: Statistics Norland\n    tier: OFFICIAL_PRIMARY\n    domains: [stats.example]\n    scopes: [norland]\n  courier:\n    publisher: Courier\n    tier: AUTHORITATIVE_MEDIA\n    domains: [courier.example]\nproviders:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/norland\", title: \"Unemployment\", text: \"The unemployment rate was 6.8% in the third quarter of 2026.\", fields: {rate: \"6.8%\"}}, {url: \"https://courier.example/estmark\", title: \"Jobless rate\", text: \"The unemployment rate rose to 7.4% in the 3rd quarter.\", published: \"2026-11-17\", fields: {rate: \"7.4%\"}}]"
        ),
    );
    let mut req = rate_request("Estmark unemployment rate third quarter 2026");
    req.scope = Some("estmark".into());
    let r = gateway(&yaml).search(&req).await.unwrap();
    let f = &r.answer.fields["rate"];
    assert_eq!(f.value.as_deref(), Some("7.4%"), "{:#?}", r.answer.fields);
    assert_eq!(f.competing[0].reason, Some(CompetingReason::OffTopic));
    assert!(
        !r.failure_codes
            .contains(&sgw_contract::FailureCode::SourceConflictNeedsReview)
    );
    assert_reproducible(&r);
}

#[tokio::test(start_paused = true)]
async fn a_weak_candidate_of_another_page_is_no_conflict() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/cpi\", title: \"Inflation\", text: \"annual inflation rate was 2.7% in October\", candidates: [[rate, \"2.7%\", 0.9]]}, {url: \"https://ministry.example/policy\", title: \"Inflation and rates\", text: \"annual inflation rate outlook; policy rate 3.75%\", candidates: [[rate, \"3.75%\", 0.55]]}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&rate_request("annual inflation rate"))
        .await
        .unwrap();
    let f = &r.answer.fields["rate"];
    assert_eq!(f.value.as_deref(), Some("2.7%"));
    assert_eq!(f.competing[0].reason, Some(CompetingReason::Outranked));
    assert_eq!(f.level, ConfidenceLevel::High);
    assert!(
        !r.failure_codes
            .contains(&sgw_contract::FailureCode::SourceConflictNeedsReview)
    );
    assert_reproducible(&r);
}
