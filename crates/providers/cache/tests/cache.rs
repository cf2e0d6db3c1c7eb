//! Fresh hits before the chain, misses, stale entries with their penalty,
//! revalidation by conditional GET.

use crate::support::{age, serve_rates};
use sgw_contract::{
    AttemptOutcome, CacheKey, FailureCode, Provider, ProviderCall, SearchRequest, SourceTier,
};
use sgw_provider_cache::{CacheConfig, CacheProvider};

/// The kind under test, as its crate registers it.
const FACTORY: sgw_contract::ProviderFactory =
    sgw_contract::ProviderFactory::of::<CacheConfig>(env!("CARGO_PKG_NAME"));
use sgw_store::CacheLookup;
use sgw_testkit::provider::fetcher;
use sgw_testkit::provider::store::{gateway, store};
use sgw_testkit::{Captcha, Fault, SimWeb};
use std::time::{Duration, Instant};

const QUERY: &str = "central bank interest rate";
const TEXT: &str = "The central bank interest rate is 4.5% from 15 January 2026.";

fn call<'a>(request: &'a SearchRequest, key: &'a CacheKey, fresh_only: bool) -> ProviderCall<'a> {
    ProviderCall {
        step: sgw_contract::ChainStep::CachedEvidence,
        provider: "evidence-cache",
        request,
        key,
        sources: &[],
        deadline: Instant::now() + Duration::from_secs(10),
        prior_attempts: &[],
        max_sources: 4,
        fresh_only,
    }
}

#[tokio::test]
async fn a_fresh_entry_answers_before_the_chain() {
    let web = SimWeb::start().await;
    serve_rates(&web, "\"v1\"", TEXT);
    let (store, _dir) = store().await;
    let gw = gateway(
        &web,
        &store,
        FACTORY,
        &[web.url("official.test", "/rates")],
        "",
    );

    let first = gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    assert!(first.has_answer(), "{first:#?}");
    assert!(!first.from_cache);
    assert!(
        first
            .failure_codes
            .contains(&FailureCode::EvidenceCacheMiss),
        "the pre-chain lookup missed: {:?}",
        first.failure_codes
    );
    assert_eq!(web.hits("official.test", "/rates"), 1);

    let second = gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    assert!(second.from_cache, "{second:#?}");
    assert_eq!(
        web.hits("official.test", "/rates"),
        1,
        "the chain did not run"
    );
    assert_eq!(
        second.evidence_ids, first.evidence_ids,
        "same stored evidence"
    );
    assert_eq!(second.sources[0].tier, SourceTier::OfficialPrimary);
    assert_eq!(second.confidence, first.confidence);
    assert!(
        !second
            .failure_codes
            .contains(&FailureCode::EvidenceCacheMiss)
    );
    assert!(
        !second
            .failure_codes
            .contains(&FailureCode::EvidenceCacheStale)
    );
    // Not stored again: still exactly one evidence record for the key.
    let key = gw.cache_key(&SearchRequest::new(QUERY));
    assert_eq!(store.evidence_for_key(&key).await.unwrap().len(), 1);
}

#[tokio::test]
async fn a_miss_reports_its_code_and_an_attempt() {
    let web = SimWeb::start().await;
    web.add_host("official.test");
    let (store, _dir) = store().await;
    let provider = CacheProvider::new(CacheConfig::default(), Some(store), Some(fetcher(&web)));
    let req = SearchRequest::new(QUERY);
    let key = CacheKey::new(&req, "other");
    for fresh_only in [true, false] {
        let report = provider.run(&call(&req, &key, fresh_only)).await.unwrap();
        assert!(report.evidence.is_empty());
        assert!(!report.from_cache);
        assert_eq!(report.codes, vec![FailureCode::EvidenceCacheMiss]);
        assert_eq!(report.attempts.len(), 1);
        assert_eq!(
            report.attempts[0].failure_code,
            Some(FailureCode::EvidenceCacheMiss)
        );
    }
}

#[tokio::test]
async fn a_stale_entry_waits_for_its_step_then_answers_with_the_penalty() {
    let web = SimWeb::start().await;
    serve_rates(&web, "\"v1\"", TEXT);
    let (store, _dir) = store().await;
    let gw = gateway(
        &web,
        &store,
        FACTORY,
        &[web.url("official.test", "/rates")],
        "",
    );
    let fresh = gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    let key = gw.cache_key(&SearchRequest::new(QUERY));
    age(&store, &key, 30).await;
    // The source is now behind a CAPTCHA: the chain fails, revalidation fails.
    web.route(
        "official.test",
        "/rates",
        Fault::Captcha(Captcha::Recaptcha),
    );

    let stale = gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    assert!(stale.has_answer(), "{stale:#?}");
    assert!(
        stale
            .failure_codes
            .contains(&FailureCode::EvidenceCacheStale),
        "{:?}",
        stale.failure_codes
    );
    assert!(
        stale
            .failure_codes
            .contains(&FailureCode::SearchProviderCaptcha)
    );
    assert_eq!(stale.evidence_ids, fresh.evidence_ids);
    assert_eq!(
        stale.sources[0].tier,
        SourceTier::OfficialPrimary,
        "tier as stored"
    );
    let expected = ((fresh.confidence - 0.10) * 1000.0).round() / 1000.0;
    assert!(
        (stale.confidence - expected).abs() < 1e-9,
        "stale penalty: {} vs {}",
        stale.confidence,
        expected
    );
    assert!(stale.fallback_used);
    // The pre-chain call left the stale entry alone; the step served it.
    let cache_attempts: Vec<_> = stale
        .attempts
        .iter()
        .filter(|a| a.step == sgw_contract::ChainStep::CachedEvidence)
        .collect();
    assert!(
        cache_attempts
            .iter()
            .any(|a| a.outcome == AttemptOutcome::Empty
                && a.detail.as_deref().unwrap_or("").contains("stale")),
        "{cache_attempts:#?}"
    );
    assert!(matches!(
        store.lookup(&key, jiff::Timestamp::now()).await.unwrap(),
        CacheLookup::Stale(_)
    ));
}

#[tokio::test]
async fn a_stale_entry_whose_source_answers_304_is_refreshed_and_served_fresh() {
    let web = SimWeb::start().await;
    serve_rates(&web, "\"v1\"", TEXT);
    let (store, _dir) = store().await;
    let gw = gateway(
        &web,
        &store,
        FACTORY,
        &[web.url("official.test", "/rates")],
        "",
    );
    gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    let key = gw.cache_key(&SearchRequest::new(QUERY));
    let stored = store.evidence_for_key(&key).await.unwrap();
    assert_eq!(
        stored[0].evidence.validators.etag.as_deref(),
        Some("\"v1\"")
    );
    age(&store, &key, 30).await;

    let provider = CacheProvider::new(
        CacheConfig::default(),
        Some(store.clone()),
        Some(fetcher(&web)),
    );
    let req = SearchRequest::new(QUERY);
    let before = web.requests().len();
    let report = provider.run(&call(&req, &key, false)).await.unwrap();
    assert!(report.from_cache);
    assert_eq!(report.evidence.len(), 1);
    assert!(
        report.codes.is_empty(),
        "served as fresh: {:?}",
        report.codes
    );
    assert!(
        report.notes.iter().any(|n| n.contains("revalidated")),
        "{:?}",
        report.notes
    );
    let conditional: Vec<_> = web.requests()[before..]
        .iter()
        .filter(|r| r.path == "/rates")
        .map(|r| r.header("if-none-match").map(str::to_string))
        .collect();
    assert_eq!(conditional, vec![Some("\"v1\"".to_string())]);
    let ev = &report.evidence[0];
    assert_eq!(ev.extraction_method, "cache");
    assert!(ev.stored, "cached evidence must not be stored again");
    assert_eq!(ev.evidence_id.as_deref(), Some(stored[0].id.as_str()));
    assert!(matches!(
        store.lookup(&key, jiff::Timestamp::now()).await.unwrap(),
        CacheLookup::Fresh(_)
    ));
}

#[tokio::test]
async fn a_changed_source_keeps_the_entry_stale() {
    let web = SimWeb::start().await;
    serve_rates(&web, "\"v1\"", TEXT);
    let (store, _dir) = store().await;
    let gw = gateway(
        &web,
        &store,
        FACTORY,
        &[web.url("official.test", "/rates")],
        "",
    );
    gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    let key = gw.cache_key(&SearchRequest::new(QUERY));
    age(&store, &key, 30).await;
    serve_rates(
        &web,
        "\"v2\"",
        "The central bank interest rate is 4.75% from 1 March 2026.",
    );

    let provider = CacheProvider::new(
        CacheConfig::default(),
        Some(store.clone()),
        Some(fetcher(&web)),
    );
    let req = SearchRequest::new(QUERY);
    let report = provider.run(&call(&req, &key, false)).await.unwrap();
    assert!(report.from_cache);
    assert_eq!(report.codes, vec![FailureCode::EvidenceCacheStale]);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("changed since it was cached")),
        "{:?}",
        report.notes
    );
    assert!(
        report.evidence[0].text.contains("4.5%"),
        "the cached text is served"
    );
    assert!(matches!(
        store.lookup(&key, jiff::Timestamp::now()).await.unwrap(),
        CacheLookup::Stale(_)
    ));

    // With revalidation off, nothing is fetched at all.
    let quiet = CacheProvider::new(
        CacheConfig {
            revalidate: false,
            max_age_days: None,
        },
        Some(store.clone()),
        Some(fetcher(&web)),
    );
    let before = web.hits("official.test", "/rates");
    let report = quiet.run(&call(&req, &key, false)).await.unwrap();
    assert_eq!(report.codes, vec![FailureCode::EvidenceCacheStale]);
    assert_eq!(web.hits("official.test", "/rates"), before);
}

#[tokio::test]
async fn max_age_days_only_shortens_freshness() {
    let web = SimWeb::start().await;
    serve_rates(&web, "\"v1\"", TEXT);
    let (store, _dir) = store().await;
    let gw = gateway(
        &web,
        &store,
        FACTORY,
        &[web.url("official.test", "/rates")],
        "",
    );
    gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    let key = gw.cache_key(&SearchRequest::new(QUERY));
    age(&store, &key, 3).await; // fresh for the store (14 days)
    let req = SearchRequest::new(QUERY);
    let strict = CacheProvider::new(
        CacheConfig {
            revalidate: false,
            max_age_days: Some(2),
        },
        Some(store.clone()),
        None,
    );
    let report = strict.run(&call(&req, &key, true)).await.unwrap();
    assert!(report.evidence.is_empty(), "too old for max_age_days: 2");
    let lenient = CacheProvider::new(
        CacheConfig {
            revalidate: false,
            max_age_days: Some(5),
        },
        Some(store.clone()),
        None,
    );
    let report = lenient.run(&call(&req, &key, true)).await.unwrap();
    assert_eq!(report.evidence.len(), 1);
    assert!(report.codes.is_empty());
}

#[tokio::test]
async fn without_a_store_it_answers_nothing_and_says_why() {
    let provider = CacheProvider::new(CacheConfig::default(), None, None);
    let req = SearchRequest::new(QUERY);
    let key = CacheKey::new(&req, "other");
    let report = provider.run(&call(&req, &key, true)).await.unwrap();
    assert!(report.evidence.is_empty() && report.codes.is_empty());
    assert_eq!(report.attempts[0].outcome, AttemptOutcome::Skipped);
}

#[test]
fn config_rejects_unknown_keys_naming_them() {
    let ctx = sgw_contract::BuildContext::new("evidence-cache", FACTORY.step);
    let err = FACTORY
        .build(&serde_json::json!({"revalidte": false}), &ctx)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("revalidte"), "{err}");
    assert!(
        FACTORY
            .build(&serde_json::json!({"max_age_days": 3}), &ctx)
            .is_ok()
    );
}

#[tokio::test]
async fn a_source_ignoring_validators_but_unchanged_also_revalidates() {
    let web = SimWeb::start().await;
    serve_rates(&web, "\"v1\"", TEXT);
    let (store, _dir) = store().await;
    let gw = gateway(
        &web,
        &store,
        FACTORY,
        &[web.url("official.test", "/rates")],
        "",
    );
    gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    let key = gw.cache_key(&SearchRequest::new(QUERY));
    age(&store, &key, 30).await;
    // The same page, always 200, now with a new ETag.
    web.route(
        "official.test",
        "/rates",
        sgw_testkit::Response::html(sgw_testkit::pages::article(
            "Central bank interest rate",
            "Official Bank",
            "2026-01-15",
            &[TEXT],
        ))
        .header("etag", "\"v2\""),
    );
    let provider = CacheProvider::new(
        CacheConfig::default(),
        Some(store.clone()),
        Some(fetcher(&web)),
    );
    let req = SearchRequest::new(QUERY);
    let report = provider.run(&call(&req, &key, false)).await.unwrap();
    assert!(
        report.codes.is_empty(),
        "{:?} {:?}",
        report.codes,
        report.notes
    );
    assert!(matches!(
        store.lookup(&key, jiff::Timestamp::now()).await.unwrap(),
        CacheLookup::Fresh(_)
    ));
    let stored = store.evidence_for_key(&key).await.unwrap();
    assert_eq!(
        stored[0].evidence.validators.etag.as_deref(),
        Some("\"v2\""),
        "the new validators are kept for the next revalidation"
    );
}
