//! The chain end to end: healthy, each fault of the official site, a
//! CAPTCHA'd engine, conflicting officials, everything blocked, stale cache,
//! and every seed failure code produced by a real fault.

use search_gateway::{AttemptOutcome, ConfidenceLevel, FailureCode, SearchResult, SourceTier};
use sgw_e2e::Rig;
use sgw_testkit::world::{self, PolicyOptions};
use sgw_testkit::{Captcha, Cdn, Fault, Login};
use std::collections::BTreeSet;
use std::time::Duration;

fn codes(r: &SearchResult) -> BTreeSet<FailureCode> {
    r.failure_codes.iter().copied().collect()
}

fn quick() -> PolicyOptions {
    PolicyOptions {
        provider_timeout_ms: 2_000,
        deadline_ms: 8_000,
        ..PolicyOptions::default()
    }
}

#[tokio::test]
async fn a_healthy_official_site_answers_from_step_one_with_high_confidence() {
    let rig = Rig::new(quick(), |_| {}).await;
    let r = rig.ask(&["rate:percent"]).await;
    assert!(r.has_answer(), "{r:#?}");
    assert_eq!(r.confidence_level, ConfidenceLevel::High);
    assert!(!r.fallback_used);
    assert_eq!(r.sources[0].tier, SourceTier::OfficialPrimary);
    assert_eq!(
        r.answer.fields["rate"].value.as_deref(),
        Some("4.5"),
        "{:?}",
        r.answer.fields
    );
    assert_eq!(
        rig.world.web.host_hits(world::ENGINE),
        0,
        "nothing after step one"
    );
    assert!(r.evidence_ids.iter().all(|id| id.starts_with("ev-")));
}

#[tokio::test]
async fn each_fault_of_the_official_site_falls_back_with_its_code() {
    let cases: Vec<(Fault, FailureCode)> = vec![
        (
            Fault::CdnBlock(Cdn::Cloudflare),
            FailureCode::SourceBlockedByCdn,
        ),
        (
            Fault::CdnBlock(Cdn::Akamai),
            FailureCode::SourceBlockedByCdn,
        ),
        (
            Fault::Captcha(Captcha::Recaptcha),
            FailureCode::SearchProviderCaptcha,
        ),
        (Fault::NotFound, FailureCode::Source404OrRemoved),
        (Fault::Gone, FailureCode::Source404OrRemoved),
        (Fault::JsShell, FailureCode::SourceDynamicPageUnreadable),
        (
            Fault::Truncated {
                declared: 50_000,
                sent: 2_000,
            },
            FailureCode::SearchResultTruncated,
        ),
        (
            Fault::RateLimited { retry_after: None },
            FailureCode::SearchProviderRateLimited,
        ),
        (Fault::Login(Login::Basic), FailureCode::SourceLoginRequired),
        (Fault::Hang, FailureCode::SearchProviderTimeout),
    ];
    for (fault, code) in cases {
        let label = format!("{fault:?}");
        let rig = Rig::new(quick(), move |w| w.break_official(fault)).await;
        let r = rig.ask(&[]).await;
        assert!(
            r.has_answer(),
            "{label}: a later step must answer: {:?}",
            r.attempts
        );
        assert!(r.fallback_used, "{label}");
        assert!(
            codes(&r).contains(&code),
            "{label}: expected {code}, got {:?}",
            r.failure_codes
        );
        assert!(
            r.sources.iter().all(|s| !s.url.contains(world::OFFICIAL)),
            "{label}: the broken page is not a source"
        );
    }
}

#[tokio::test]
async fn a_captchad_engine_is_suspended_skipped_and_recovers() {
    let options = PolicyOptions {
        captcha_suspension_secs: 1,
        cache: false,
        ..quick()
    };
    let rig = Rig::new(options, |w| {
        w.break_official(Fault::JsShell);
        w.engine_captcha();
    })
    .await;
    let r1 = rig.ask(&[]).await;
    assert!(
        codes(&r1).contains(&FailureCode::SearchProviderCaptcha),
        "{:?}",
        r1.failure_codes
    );
    assert_eq!(rig.world.web.hits(world::ENGINE, "/search"), 1);
    let r2 = rig.ask(&[]).await;
    assert_eq!(
        rig.world.web.hits(world::ENGINE, "/search"),
        1,
        "suspended: not asked again"
    );
    let skipped = r2.attempts.iter().find(|a| a.provider == "searx").unwrap();
    assert_eq!(skipped.outcome, AttemptOutcome::Skipped);
    rig.world.heal();
    rig.world.break_official(Fault::JsShell);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let r3 = rig.ask(&[]).await;
    assert_eq!(
        rig.world.web.hits(world::ENGINE, "/search"),
        2,
        "asked again after the suspension"
    );
    assert!(
        r3.sources.iter().any(|s| s.url.contains(world::NEWS)),
        "{:?}",
        r3.sources
    );
}

#[tokio::test]
async fn official_sources_that_disagree_raise_a_conflict() {
    let options = PolicyOptions {
        ministry: true,
        ..quick()
    };
    let rig = Rig::new(options, |w| w.ministry_disagrees()).await;
    let r = rig.ask(&["rate:percent"]).await;
    assert!(
        codes(&r).contains(&FailureCode::SourceConflictNeedsReview),
        "{:?}",
        r.failure_codes
    );
    assert!(r.confidence < 0.85, "{}", r.confidence);
    assert_eq!(r.answer.fields["rate"].competing.len(), 1);
}

#[tokio::test]
async fn everything_blocked_gives_no_answer_the_codes_and_a_human_request() {
    let rig = Rig::new(quick(), |w| w.break_everything()).await;
    let r = rig.ask(&[]).await;
    assert!(!r.has_answer());
    assert_eq!(r.confidence, 0.0);
    let c = codes(&r);
    for code in [
        FailureCode::SourceBlockedByCdn,
        FailureCode::SearchProviderCaptcha,
        FailureCode::EvidenceCacheMiss,
        FailureCode::HumanEvidenceRequired,
    ] {
        assert!(c.contains(&code), "missing {code}: {:?}", r.failure_codes);
    }
    assert!(
        r.human_request_id
            .as_deref()
            .is_some_and(|id| id.starts_with("hr-"))
    );
}

#[tokio::test]
async fn a_fresh_cache_answers_at_once_and_a_stale_one_only_as_fallback() {
    let rig = Rig::new(quick(), |_| {}).await;
    let first = rig.ask(&[]).await;
    assert!(first.has_answer() && !first.from_cache);
    let hits = rig.world.web.host_hits(world::OFFICIAL);
    let second = rig.ask(&[]).await;
    assert!(second.from_cache, "{:?}", second.attempts);
    assert_eq!(
        rig.world.web.host_hits(world::OFFICIAL),
        hits,
        "the cache answered without fetching"
    );

    // Age the entry past its topic's staleness, then break every source.
    let store = search_gateway::Store::open(&rig.store_path.display().to_string())
        .await
        .unwrap();
    let key = first.cache_key.clone().unwrap();
    let old = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(24 * 40);
    store.put_cache_entry(&key, &first, old).await.unwrap();
    rig.world.break_everything();
    let stale = rig.ask(&[]).await;
    assert!(stale.has_answer(), "{:?}", stale.attempts);
    assert!(
        codes(&stale).contains(&FailureCode::EvidenceCacheStale),
        "{:?}",
        stale.failure_codes
    );
    assert!(
        stale.confidence <= 0.85,
        "stale penalty applies: {}",
        stale.confidence
    );
}

/// Every one of the seed's 14 codes comes out of some real fault.
#[tokio::test]
async fn every_seed_code_is_produced_by_a_real_fault() {
    let mut seen: BTreeSet<FailureCode> = BTreeSet::new();
    let official_faults = [
        Fault::Hang,
        Fault::RateLimited { retry_after: None },
        Fault::Captcha(Captcha::Turnstile),
        Fault::Truncated {
            declared: 50_000,
            sent: 2_000,
        },
        Fault::CdnBlock(Cdn::Fastly),
        Fault::NotFound,
        Fault::JsShell,
    ];
    for fault in official_faults {
        let rig = Rig::new(quick(), move |w| w.break_official(fault)).await;
        seen.extend(rig.ask(&[]).await.failure_codes);
    }
    // An official page with no text; a blog page with no text.
    let rig = Rig::new(quick(), |w| {
        w.web.route(
            world::OFFICIAL,
            world::RATES_PATH,
            sgw_testkit::Response::html("<html><body><div></div></body></html>".to_string()),
        );
        w.web.route(
            world::BLOG,
            "/posts/rates",
            sgw_testkit::Response::html("<html><body></body></html>".to_string()),
        );
    })
    .await;
    seen.extend(rig.ask(&[]).await.failure_codes);
    // Nothing relevant anywhere.
    let rig = Rig::new(quick(), |_| {}).await;
    let mut request = search_gateway::SearchRequest::new("volcanic eruption forecast");
    request.topic = Some("news".into());
    seen.extend(rig.gateway.search(&request).await.unwrap().failure_codes);
    // Conflict; stale cache; everything blocked.
    let rig = Rig::new(
        PolicyOptions {
            ministry: true,
            ..quick()
        },
        |w| w.ministry_disagrees(),
    )
    .await;
    seen.extend(rig.ask(&["rate:percent"]).await.failure_codes);
    let rig = Rig::new(quick(), |_| {}).await;
    let first = rig.ask(&[]).await;
    let store = search_gateway::Store::open(&rig.store_path.display().to_string())
        .await
        .unwrap();
    let old = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(24 * 40);
    store
        .put_cache_entry(first.cache_key.as_ref().unwrap(), &first, old)
        .await
        .unwrap();
    rig.world.break_everything();
    seen.extend(rig.ask(&[]).await.failure_codes);
    let rig = Rig::new(quick(), |w| w.break_everything()).await;
    seen.extend(rig.ask(&[]).await.failure_codes);

    let missing: Vec<_> = FailureCode::seed_codes()
        .filter(|c| !seen.contains(c))
        .collect();
    assert!(missing.is_empty(), "seed codes never produced: {missing:?}");
}

#[tokio::test]
async fn a_suspension_is_kept_in_the_store_for_other_runs_and_processes() {
    let options = PolicyOptions {
        cache: false,
        ..quick()
    };
    let rig = Rig::new(options.clone(), |w| {
        w.break_official(Fault::JsShell);
        w.engine_captcha();
    })
    .await;
    let r1 = rig.ask(&[]).await;
    assert!(
        codes(&r1).contains(&FailureCode::SearchProviderCaptcha),
        "{:?}",
        r1.failure_codes
    );
    assert_eq!(rig.world.web.hits(world::ENGINE, "/search"), 1);
    // A new gateway on the same store (another `sgw` run, another process):
    // it has no memory of its own, yet the engine stays suspended.
    let other = Rig::gateway(&rig.world, &options, &rig.store_path).await;
    let r2 = other
        .search(&search_gateway::SearchRequest::new(world::QUESTION))
        .await
        .unwrap();
    assert_eq!(
        rig.world.web.hits(world::ENGINE, "/search"),
        1,
        "the suspension was read from the store"
    );
    let skipped = r2.attempts.iter().find(|a| a.provider == "searx").unwrap();
    assert_eq!(skipped.outcome, AttemptOutcome::Skipped);
    assert_eq!(
        skipped.failure_code,
        Some(FailureCode::SearchProviderCaptcha)
    );
}
