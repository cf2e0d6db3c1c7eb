//! Speed as behaviour (no timings asserted): a cache hit builds no network
//! client, a hanging host is put to rest and skipped at once by later
//! searches (in this gateway and in another sharing the store), and the
//! patience window (`execution.accept_after_ms`) answers with what is there.

use search_gateway::{
    AttemptOutcome, ConfidenceLevel, FailureCode, Fetcher, Gateway, OpenOptions, Policy,
    SearchRequest, SearchResult, SourceTier,
};
use sgw_testkit::Fault;
use sgw_testkit::world::{self, PolicyOptions, World};
use std::path::Path;

/// The world's policy with `extra` lines added to its `execution:` section.
fn policy(world: &World, options: &PolicyOptions, extra: &str) -> Policy {
    let yaml = world
        .policy(options)
        .replacen("execution:\n", &format!("execution:\n{extra}"), 1);
    search_gateway::parse_policy(yaml.as_bytes(), "world.yaml")
        .unwrap_or_else(|e| panic!("world policy:\n{yaml}\n{e}"))
        .0
}

/// A gateway on `store` with a network layer of its own, returned beside it.
async fn gateway(policy: Policy, store: &Path) -> (Gateway, Fetcher) {
    let fetcher = search_gateway::fetcher(&policy).unwrap();
    let options = OpenOptions {
        store: Some(store.display().to_string()),
        no_store: false,
    };
    let gw = search_gateway::build_with_fetcher(policy, options, fetcher.clone())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (gw, fetcher)
}

async fn ask(gw: &Gateway) -> SearchResult {
    gw.search(&SearchRequest::new(world::QUESTION))
        .await
        .expect("valid request")
}

/// Official host hangs; hedging after 300 ms, patience 200 ms once medium.
const PATIENT: &str = "  hedge_after_ms: 300\n  accept_after_ms: 200\n";

async fn hanging_official() -> (World, PolicyOptions) {
    let world = World::start().await;
    world.break_official(Fault::Hang);
    let options = PolicyOptions {
        human: false,
        ..PolicyOptions::default()
    };
    (world, options)
}

/// True when `r` tried the official host and was refused at once because it rests.
fn skipped_slow_official(r: &SearchResult) -> bool {
    r.attempts.iter().any(|a| {
        a.failure_code == Some(FailureCode::SearchProviderTimeout)
            && a.detail.as_deref().is_some_and(|d| d.contains("slow host"))
    })
}

#[tokio::test]
async fn a_cache_hit_builds_no_network_client() {
    let world = World::start().await;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store.sqlite");
    let options = PolicyOptions::default();

    let (first, fetcher) = gateway(policy(&world, &options, ""), &store).await;
    assert!(fetcher.is_idle(), "building the gateway builds no client");
    let r = ask(&first).await;
    assert!(r.has_answer() && !r.from_cache, "{:?}", r.attempts);
    assert!(!fetcher.is_idle(), "a miss fetched");

    // Another run on the same store: the fresh cache entry answers.
    let (second, fetcher) = gateway(policy(&world, &options, ""), &store).await;
    let r = ask(&second).await;
    assert!(r.from_cache, "{:?}", r.attempts);
    assert!(
        fetcher.is_idle(),
        "a cache hit built an HTTP client or rate limiter: {fetcher:?}"
    );
}

#[tokio::test]
async fn a_hanging_host_rests_and_later_searches_skip_it_with_the_code() {
    let (world, mut options) = hanging_official().await;
    options.cache = false;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store.sqlite");
    let (gw, _) = gateway(policy(&world, &options, PATIENT), &store).await;

    let first = ask(&gw).await;
    assert!(first.has_answer(), "{:?}", first.attempts);
    assert!(!skipped_slow_official(&first), "{:?}", first.attempts);
    let hits = world.web.hits(world::OFFICIAL, world::RATES_PATH);
    assert_eq!(hits, 1, "the hanging page was asked once");

    // The same gateway: the host rests; it is not contacted, and the attempt says why.
    let second = ask(&gw).await;
    assert!(second.has_answer(), "{:?}", second.attempts);
    assert!(skipped_slow_official(&second), "{:#?}", second.attempts);
    assert!(
        second
            .failure_codes
            .contains(&FailureCode::SearchProviderTimeout),
        "{:?}",
        second.failure_codes
    );
    assert_eq!(world.web.hits(world::OFFICIAL, world::RATES_PATH), hits);

    // Another gateway (another process, say) sharing the store skips it too.
    let (other, _) = gateway(policy(&world, &options, PATIENT), &store).await;
    let third = ask(&other).await;
    assert!(skipped_slow_official(&third), "{:#?}", third.attempts);
    assert_eq!(world.web.hits(world::OFFICIAL, world::RATES_PATH), hits);
}

#[tokio::test]
async fn patience_answers_with_the_media_answer_and_records_what_was_cut() {
    let (world, mut options) = hanging_official().await;
    options.cache = false;
    let dir = tempfile::tempdir().unwrap();
    let (gw, _) = gateway(
        policy(&world, &options, PATIENT),
        &dir.path().join("store.sqlite"),
    )
    .await;

    let r = ask(&gw).await;
    assert!(r.has_answer(), "{:?}", r.attempts);
    assert_eq!(r.confidence_level, ConfidenceLevel::Medium, "{r:#?}");
    assert!(
        r.sources
            .iter()
            .any(|s| s.tier == SourceTier::AuthoritativeMedia),
        "{:?}",
        r.sources
    );
    let cut: Vec<_> = r
        .attempts
        .iter()
        .filter(|a| {
            a.outcome == AttemptOutcome::Skipped
                && a.skipped_reason.as_deref().is_some_and(|s| {
                    s.contains("skipped by deadline") && s.contains("accept_after_ms")
                })
        })
        .collect();
    assert!(
        cut.iter()
            .any(|a| a.step == search_gateway::ChainStep::DirectOfficialAdapter),
        "the hanging official step is recorded as cut by the patience window: {:#?}",
        r.attempts
    );
    assert!(
        r.notes.iter().any(|n| n.contains("accept_after_ms")),
        "{:?}",
        r.notes
    );
}
