//! The chain: order, concurrency, deadline, hedging, suspension, scoring, diagnosis.

use crate::support::{calls, gateway, unique};
use sgw_contract::{
    AttemptOutcome, ConfidenceLevel, FailureCode, FieldSpec, SearchRequest, SourceTier,
};
use std::time::Duration;

const HEAD: &str = "version: 1\nname: t\nsources:\n  stats:\n    publisher: Stats Office\n    tier: OFFICIAL_PRIMARY\n    domains: [stats.example]\n  ministry:\n    publisher: Ministry\n    tier: OFFICIAL_PRIMARY\n    domains: [ministry.example]\n";

fn doc(url: &str, text: &str) -> String {
    format!("{{url: \"{url}\", title: \"Rates\", text: \"{text}\"}}")
}

fn provider(counter: &str, extra: &str) -> String {
    format!("{{kind: scripted, name: {counter}, config: {{counter: {counter}{extra}}}}}")
}

/// A policy of three steps (official, engine, mirror) with these
/// `execution:` lines.
fn three_steps(execution: &str, official: String, engine: String, mirror: String) -> String {
    format!(
        "{HEAD}execution:\n{execution}providers:\n  direct_official_adapter:\n    - {official}\n  search_engine_provider:\n    - {engine}\n  authoritative_mirror_or_media:\n    - {mirror}\n"
    )
}

/// A general-web page that mentions the question's terms.
fn blog() -> String {
    doc("https://blog.example/r", "interest rate blog")
}

/// An official page that answers.
fn ministry() -> String {
    doc(
        "https://ministry.example/r",
        "The interest rate is 4.5 percent.",
    )
}

/// A provider that answers `docs` (one doc's YAML) after `delay_ms`.
fn answering(counter: &str, delay_ms: u64, docs: &str) -> String {
    provider(counter, &format!(", delay_ms: {delay_ms}, docs: [{docs}]"))
}

fn request(q: &str) -> SearchRequest {
    SearchRequest::new(q)
}

#[tokio::test(start_paused = true)]
async fn the_first_step_answers_with_high_confidence_and_later_steps_are_skipped() {
    let (a, b) = (unique("a"), unique("b"));
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            &format!(
                ", docs: [{}]",
                doc(
                    "https://stats.example/rates",
                    "The interest rate is 4.5 percent."
                )
            )
        ),
        provider(
            &b,
            &format!(
                ", docs: [{}]",
                doc("https://blog.example/r", "interest rate blog")
            )
        ),
    );
    let r = gateway(&yaml)
        .search(&request("interest rate"))
        .await
        .unwrap();
    assert!(r.has_answer());
    assert_eq!(r.confidence, 0.95);
    assert_eq!(r.confidence_level, ConfidenceLevel::High);
    assert!(!r.fallback_used);
    assert!(r.failure_codes.is_empty(), "{:?}", r.failure_codes);
    assert_eq!(r.sources[0].tier, SourceTier::OfficialPrimary);
    assert_eq!(r.sources[0].publisher.as_deref(), Some("Stats Office"));
    assert!(r.evidence_ids[0].starts_with("ev-"));
    assert_eq!(
        r.answer.passages[0].evidence_id.as_deref(),
        Some(r.evidence_ids[0].as_str())
    );
    assert_eq!(calls(&a), 1);
    assert_eq!(
        calls(&b),
        0,
        "the search engine must not run once the target is reached"
    );
    let skipped = r.attempts.iter().find(|x| x.provider == b).unwrap();
    assert_eq!(skipped.outcome, AttemptOutcome::Skipped);
    assert_eq!(
        skipped.skipped_reason.as_deref(),
        Some("target confidence reached")
    );
}

#[tokio::test(start_paused = true)]
async fn a_failed_first_step_falls_back_with_its_code() {
    let (a, b, c) = (unique("a"), unique("b"), unique("c"));
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n  search_engine_provider:\n    - {}\n  authoritative_mirror_or_media:\n    - {}\n",
        provider(
            &a,
            ", target_failures: [[\"https://stats.example/rates\", SOURCE_BLOCKED_BY_CDN]]"
        ),
        provider(
            &b,
            &format!(
                ", docs: [{}, {}]",
                doc("https://one.example/r", "interest rate one"),
                doc("https://two.example/r", "interest rate two")
            )
        ),
        provider(
            &c,
            &format!(
                ", docs: [{}]",
                doc(
                    "https://ministry.example/r",
                    "interest rate official mirror"
                )
            )
        ),
    );
    let r = gateway(&yaml)
        .search(&request("interest rate"))
        .await
        .unwrap();
    assert!(r.fallback_used);
    assert!(r.failure_codes.contains(&FailureCode::SourceBlockedByCdn));
    // three independent publishers: 0.95 + 0.06 + 0.03 → 0.99 clamp
    assert_eq!(r.sources.len(), 3);
    assert_eq!(r.confidence, 0.99);
    assert_eq!(calls(&c), 1);
}

#[tokio::test(start_paused = true)]
async fn providers_of_one_step_run_concurrently() {
    let (a, b) = (unique("a"), unique("b"));
    let yaml = format!(
        "{HEAD}providers:\n  search_engine_provider:\n    - {}\n    - {}\n",
        answering(&a, 1000, &doc("https://one.example/r", "interest rate one")),
        answering(&b, 1000, &doc("https://two.example/r", "interest rate two")),
    );
    let started = tokio::time::Instant::now();
    let r = gateway(&yaml)
        .search(&request("interest rate"))
        .await
        .unwrap();
    assert_eq!(r.sources.len(), 2);
    // virtual time: two sequential runs would take 2 s
    assert!(started.elapsed() < Duration::from_millis(1500));
}

#[tokio::test(start_paused = true)]
async fn the_deadline_and_provider_timeouts_are_enforced() {
    let (a, b) = (unique("a"), unique("b"));
    let yaml = format!(
        "{HEAD}execution:\n  deadline_ms: 2000\nproviders:\n  direct_official_adapter:\n    - {{kind: scripted, name: {a}, timeout_ms: 100, config: {{counter: {a}, delay_ms: 1000}}}}\n  search_engine_provider:\n    - {{kind: scripted, name: {b}, timeout_ms: 60000, config: {{counter: {b}, delay_ms: 60000}}}}\n",
    );
    let gw = gateway(&yaml);
    let r = gw.search(&request("interest rate")).await.unwrap();
    assert!(!r.has_answer());
    assert_eq!(r.confidence, 0.0);
    assert!(
        r.failure_codes
            .contains(&FailureCode::SearchProviderTimeout)
    );
    let a_attempt = r.attempts.iter().find(|x| x.provider == a).unwrap();
    assert!(
        a_attempt
            .detail
            .as_deref()
            .unwrap()
            .contains("suspended for 5 s"),
        "{a_attempt:?}"
    );
    let b_attempt = r.attempts.iter().find(|x| x.provider == b).unwrap();
    assert_eq!(
        b_attempt.detail.as_deref(),
        Some("cut off by the overall deadline")
    );
    // the timed-out provider rests (5 s back-off) and is skipped on the next query
    let r = gw.search(&request("interest rate")).await.unwrap();
    let a_attempt = r.attempts.iter().find(|x| x.provider == a).unwrap();
    assert_eq!(a_attempt.outcome, AttemptOutcome::Skipped);
    assert_eq!(calls(&a), 1);
}

#[tokio::test(start_paused = true)]
async fn hedging_starts_the_next_step_when_the_current_one_is_slow() {
    let (a, b) = (unique("a"), unique("b"));
    let yaml = format!(
        "{HEAD}execution:\n  hedge_after_ms: 200\nproviders:\n  direct_official_adapter:\n    - {}\n  official_site_search:\n    - {}\n",
        answering(
            &a,
            20000,
            &doc("https://stats.example/slow", "interest rate slow")
        ),
        provider(
            &b,
            &format!(
                ", docs: [{}]",
                doc("https://ministry.example/r", "interest rate official")
            )
        ),
    );
    let started = tokio::time::Instant::now();
    let r = gateway(&yaml)
        .search(&request("interest rate"))
        .await
        .unwrap();
    assert!(r.has_answer());
    assert_eq!(r.sources[0].url, "https://ministry.example/r");
    assert!(r.fallback_used, "answered by a later step");
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(
        r.attempts
            .iter()
            .any(|x| x.provider == a && x.outcome == AttemptOutcome::Skipped)
    );
}

#[tokio::test(start_paused = true)]
async fn a_captchad_engine_is_suspended_skipped_and_recovers() {
    let a = unique("engine");
    let yaml = format!(
        "{HEAD}providers:\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            &format!(
                ", error: SEARCH_PROVIDER_CAPTCHA, fail_times: 1, docs: [{}]",
                doc("https://one.example/r", "interest rate")
            )
        ),
    );
    let gw = gateway(&yaml);
    let r1 = gw.search(&request("interest rate")).await.unwrap();
    assert!(
        r1.failure_codes
            .contains(&FailureCode::SearchProviderCaptcha)
    );
    assert!(!r1.has_answer());
    let r2 = gw.search(&request("interest rate")).await.unwrap();
    assert_eq!(calls(&a), 1, "suspended: not called again");
    let skipped = r2.attempts.iter().find(|x| x.provider == a).unwrap();
    assert_eq!(skipped.outcome, AttemptOutcome::Skipped);
    assert!(
        skipped
            .skipped_reason
            .as_deref()
            .unwrap()
            .contains("SEARCH_PROVIDER_CAPTCHA")
    );
    tokio::time::advance(Duration::from_secs(3601)).await;
    let r3 = gw.search(&request("interest rate")).await.unwrap();
    assert_eq!(calls(&a), 2);
    assert!(r3.has_answer());
}

#[tokio::test(start_paused = true)]
async fn retry_after_longer_than_the_policy_wins() {
    let a = unique("engine");
    let yaml = format!(
        "{HEAD}providers:\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            ", error: SEARCH_PROVIDER_RATE_LIMITED, retry_after_secs: 600"
        ),
    );
    let gw = gateway(&yaml);
    gw.search(&request("q")).await.unwrap();
    tokio::time::advance(Duration::from_secs(181)).await;
    let r = gw.search(&request("q")).await.unwrap();
    assert_eq!(
        calls(&a),
        1,
        "still resting: Retry-After 600 s beats the policy's 180 s"
    );
    assert!(
        r.failure_codes
            .contains(&FailureCode::SearchProviderRateLimited)
    );
    tokio::time::advance(Duration::from_secs(420)).await;
    gw.search(&request("q")).await.unwrap();
    assert_eq!(calls(&a), 2);
}

#[tokio::test(start_paused = true)]
async fn official_sources_disagreeing_on_a_field_raise_a_conflict() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/r\", title: \"Rate\", text: \"interest rate is 4.5%\", fields: {rate: \"4.5%\"}}, {url: \"https://ministry.example/r\", title: \"Rate\", text: \"interest rate is 4.25%\", fields: {rate: \"4.25%\"}}]"
        ),
    );
    let mut req = request("interest rate");
    req.fields
        .push("rate:percent".parse::<FieldSpec>().unwrap());
    let r = gateway(&yaml).search(&req).await.unwrap();
    assert!(
        r.failure_codes
            .contains(&FailureCode::SourceConflictNeedsReview)
    );
    // Two officials, one each: not separated, so ambiguous as well as in
    // conflict: 0.95 − 0.25, capped below medium.
    assert_eq!(r.confidence, 0.64);
    assert_eq!(r.confidence_level, ConfidenceLevel::Low);
    let field = &r.answer.fields["rate"];
    assert!(field.value.is_some());
    assert!(field.ambiguous);
    assert_eq!(field.competing.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn agreeing_sources_fill_the_field_without_conflict_and_a_web_outlier_is_only_listed() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/r\", title: \"Rate\", text: \"interest rate is 4.5%\", fields: {rate: \"4.5%\"}}, {url: \"https://ministry.example/r\", title: \"Rate\", text: \"the interest rate: 4.5%\", fields: {rate: \"4.5%\"}}, {url: \"https://blog.example/r\", title: \"Rate\", text: \"interest rate 9%\", fields: {rate: \"9%\"}}]"
        ),
    );
    let mut req = request("interest rate");
    req.fields
        .push("rate:percent".parse::<FieldSpec>().unwrap());
    let r = gateway(&yaml).search(&req).await.unwrap();
    assert!(
        !r.failure_codes
            .contains(&FailureCode::SourceConflictNeedsReview),
        "{:?}",
        r.failure_codes
    );
    let field = &r.answer.fields["rate"];
    assert_eq!(field.value.as_deref(), Some("4.5%"));
    assert_eq!(field.sources.len(), 2);
    assert_eq!(field.competing[0].value, "9%");
}

#[tokio::test(start_paused = true)]
async fn result_level_codes_are_diagnosed() {
    // low relevance
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            &format!(", docs: [{}]", doc("https://x.example/", "cooking recipes"))
        )
    );
    let r = gateway(&yaml)
        .search(&request("interest rate policy"))
        .await
        .unwrap();
    assert!(
        r.failure_codes
            .contains(&FailureCode::SearchResultLowRelevance),
        "{:?}",
        r.failure_codes
    );
    assert!(!r.has_answer());

    // extraction failed on an official page, truncated body elsewhere
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/x\", text: \"  \"}, {url: \"https://w.example/y\", title: \"interest rate\", text: \"interest rate cut\", truncated: true}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&request("interest rate"))
        .await
        .unwrap();
    assert!(
        r.failure_codes
            .contains(&FailureCode::OfficialSourceFoundButExtractionFailed)
    );
    assert!(
        r.failure_codes
            .contains(&FailureCode::SearchResultTruncated)
    );
    assert_eq!(r.confidence, 0.5, "0.55 − 0.05 truncation");

    // cache codes and the human request pass through; penalties apply
    let (c, h) = (unique("cache"), unique("human"));
    let yaml = format!(
        "{HEAD}providers:\n  cached_evidence:\n    - {}\n  user_supplied_evidence_request:\n    - {}\n",
        provider(&c, ", codes: [EVIDENCE_CACHE_MISS]"),
        provider(&h, ", human_request: true"),
    );
    let r = gateway(&yaml)
        .search(&request("interest rate"))
        .await
        .unwrap();
    assert!(r.failure_codes.contains(&FailureCode::EvidenceCacheMiss));
    assert!(
        r.failure_codes
            .contains(&FailureCode::HumanEvidenceRequired)
    );
    assert_eq!(r.human_request_id.as_deref(), Some("hr-test"));
    assert_eq!(
        calls(&c),
        2,
        "consulted before the chain (fresh only) and as its fallback step"
    );
}

#[tokio::test(start_paused = true)]
async fn snippets_stay_general_web_and_one_publisher_counts_once() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}providers:\n  search_engine_provider:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/a\", title: \"interest rate\", text: \"interest rate snippet\", snippet: true}, {url: \"https://www.blog.example/a\", title: \"interest rate\", text: \"interest rate a\"}, {url: \"https://news.blog.example/b\", title: \"interest rate\", text: \"interest rate b\"}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&request("interest rate"))
        .await
        .unwrap();
    assert!(r.sources.iter().all(|s| s.tier == SourceTier::GeneralWeb));
    // one publisher (blog.example, twice); the snippet never corroborates
    assert_eq!(r.confidence, 0.55);
    let snippet = r.sources.iter().find(|s| s.url.contains("stats")).unwrap();
    assert_ne!(snippet.publisher.as_deref(), Some("Stats Office"));
    assert_eq!(snippet.extraction_method.as_deref(), Some("snippet"));
}

#[tokio::test]
async fn bad_requests_are_refused() {
    let gw = gateway("version: 1\nname: t\n");
    assert!(gw.search(&request("   ")).await.is_err());
    assert!(gw.search(&request(&"x".repeat(3000))).await.is_err());
    let mut r = request("x");
    r.fields = vec!["a:date".parse().unwrap(), "a:number".parse().unwrap()];
    assert!(gw.search(&r).await.is_err());
}

#[tokio::test(start_paused = true)]
async fn user_evidence_is_never_upgraded_nor_dropped_for_its_wording() {
    let a = unique("human");
    let yaml = format!(
        "{HEAD}providers:\n  cached_evidence:\n    - {}\n",
        provider(
            &a,
            ", docs: [{url: \"https://stats.example/upload\", title: \"scan\", text: \"4.5 per cent from March\", tier: USER_SUPPLIED_EVIDENCE}]"
        ),
    );
    let r = gateway(&yaml)
        .search(&request("interest rate"))
        .await
        .unwrap();
    assert!(r.has_answer(), "{:?}", r.notes);
    assert_eq!(
        r.sources[0].tier,
        SourceTier::UserSuppliedEvidence,
        "a registry domain does not upgrade it"
    );
    assert_eq!(r.confidence, 0.5);
}

#[tokio::test(start_paused = true)]
async fn the_policy_thresholds_decide_the_level() {
    let a = unique("a");
    let yaml = format!(
        "{HEAD}confidence_thresholds: {{high: 0.96, medium: 0.9}}\nproviders:\n  direct_official_adapter:\n    - {}\n",
        provider(
            &a,
            &format!(
                ", docs: [{}]",
                doc("https://stats.example/rates", "interest rate 4.5 percent")
            )
        ),
    );
    let r = gateway(&yaml)
        .search(&request("interest rate"))
        .await
        .unwrap();
    assert_eq!(r.confidence, 0.95);
    assert_eq!(r.confidence_level, ConfidenceLevel::Medium);
}

/// A newspaper page (AUTHORITATIVE_MEDIA by hint): a medium answer alone.
fn media_doc(url: &str) -> String {
    format!(
        "{{url: \"{url}\", title: \"Rates\", text: \"The interest rate is 4.5 percent, the paper reports.\", tier: AUTHORITATIVE_MEDIA}}"
    )
}

/// A step that never answers within its time limit (a black-holed host).
fn hung(counter: &str) -> String {
    format!(
        "{{kind: scripted, name: {counter}, timeout_ms: 2000, config: {{counter: {counter}, delay_ms: 20000, docs: [{}]}}}}",
        doc(
            "https://stats.example/rates",
            "The interest rate is 4.5 percent."
        )
    )
}

/// Virtual time (paused clock) a search of `yaml` takes, with its result.
async fn timed_search(yaml: &str) -> (Duration, sgw_contract::SearchResult) {
    let gw = gateway(yaml);
    let started = tokio::time::Instant::now();
    let r = gw.search(&request("interest rate")).await.unwrap();
    (started.elapsed(), r)
}

fn attempt<'a>(r: &'a sgw_contract::SearchResult, provider: &str) -> &'a sgw_contract::Attempt {
    r.attempts
        .iter()
        .rev()
        .find(|a| a.provider == provider)
        .unwrap_or_else(|| panic!("no attempt of {provider}: {:#?}", r.attempts))
}

#[tokio::test(start_paused = true)]
async fn a_hung_first_step_costs_the_hedge_once_then_the_accept_window_from_the_answer() {
    let (official, engine, mirror) = (unique("official"), unique("engine"), unique("mirror"));
    let yaml = three_steps(
        "  hedge_after_ms: 300\n  accept_after_ms: 200\n",
        hung(&official),
        answering(&engine, 4, &media_doc("https://courier.example/r")),
        provider(
            &mirror,
            &format!(
                ", docs: [{}]",
                doc(
                    "https://ministry.example/r",
                    "The interest rate is 4.5 percent."
                )
            ),
        ),
    );
    let (elapsed, r) = timed_search(&yaml).await;
    // hedge (300, from the start of the hung step) + the hedged step (4) +
    // the accept window (200, from its medium answer): not a tick more.
    assert_eq!(elapsed, Duration::from_millis(504), "{:#?}", r.attempts);
    assert_eq!(r.confidence_level, ConfidenceLevel::Medium, "{r:#?}");
    assert_eq!(attempt(&r, &engine).elapsed_ms, 4);
    let cut = attempt(&r, &official);
    assert_eq!(cut.outcome, AttemptOutcome::Skipped);
    assert!(
        cut.skipped_reason
            .as_deref()
            .is_some_and(|s| s.contains("accept_after_ms (200 ms)")),
        "{cut:?}"
    );
    // The mirror's hedge (600 ms: 300 after the hedged step started) comes
    // after the window closed: it never ran.
    assert_eq!(calls(&mirror), 0);
    assert_eq!(calls(&official), 1);
}

#[tokio::test(start_paused = true)]
async fn the_hedge_counts_from_the_start_of_the_slow_step_not_from_the_last_answer() {
    let (official, engine, mirror) = (unique("official"), unique("engine"), unique("mirror"));
    let yaml = three_steps(
        "  hedge_after_ms: 300\n  accept_after_ms: 200\n",
        hung(&official),
        // Answers at 350 ms, below the accept level (one blog).
        answering(&engine, 50, &blog()),
        answering(&mirror, 4, &ministry()),
    );
    let (elapsed, r) = timed_search(&yaml).await;
    // The official step started at 0 and the engine at 300 (its hedge); the
    // mirror 300 ms after the engine started (600), not after the engine's
    // answer at 350 (650); its official page reaches the target at 604.
    assert_eq!(elapsed, Duration::from_millis(604), "{:#?}", r.attempts);
    assert!(r.confidence >= 0.85, "{r:#?}");
    assert_eq!(attempt(&r, &engine).elapsed_ms, 50);
    assert_eq!(attempt(&r, &mirror).elapsed_ms, 4);
    assert_eq!(
        attempt(&r, &official).skipped_reason.as_deref(),
        Some("target confidence reached")
    );
}

#[tokio::test(start_paused = true)]
async fn the_accept_window_is_armed_once_by_the_first_acceptable_answer() {
    let (official, engine, mirror) = (unique("official"), unique("engine"), unique("mirror"));
    let yaml = three_steps(
        "  hedge_after_ms: 100\n  accept_after_ms: 200\n",
        hung(&official),
        // Hedged at 100, a medium answer at 104: the window closes at 304.
        answering(&engine, 4, &media_doc("https://courier.example/r")),
        // Hedged at 200 (100 after the engine started), answers at 250 with
        // nothing better: the window is not moved.
        answering(&mirror, 50, &blog()),
    );
    let (elapsed, r) = timed_search(&yaml).await;
    assert_eq!(elapsed, Duration::from_millis(304), "{:#?}", r.attempts);
    assert_eq!(r.confidence_level, ConfidenceLevel::Medium, "{r:#?}");
    assert_eq!(attempt(&r, &mirror).elapsed_ms, 50);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("after waiting 200 ms") && n.contains("accept_after_ms")),
        "{:?}",
        r.notes
    );
}

#[tokio::test(start_paused = true)]
async fn a_step_started_after_the_previous_answered_gets_its_whole_hedge() {
    let (official, engine, mirror) = (unique("official"), unique("engine"), unique("mirror"));
    let yaml = three_steps(
        "  hedge_after_ms: 300\n",
        // Answers at 100 ms with a blog page only: the engine starts then.
        answering(&official, 100, &blog()),
        hung(&engine),
        // Hedged 300 ms after the engine started (400), answers at 404.
        answering(&mirror, 4, &ministry()),
    );
    let (elapsed, r) = timed_search(&yaml).await;
    assert_eq!(elapsed, Duration::from_millis(404), "{:#?}", r.attempts);
    assert!(r.confidence >= 0.85, "{r:#?}");
    assert_eq!(attempt(&r, &official).elapsed_ms, 100);
    assert_eq!(attempt(&r, &mirror).elapsed_ms, 4);
    assert_eq!(calls(&engine), 1);
}
