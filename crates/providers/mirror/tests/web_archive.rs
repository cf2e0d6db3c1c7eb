use crate::support::{run, source};
use serde_json::json;
use sgw_contract::{AttemptOutcome, FailureCode, SearchRequest, SourceTier};
use sgw_testkit::provider::{build, fetcher};
use sgw_testkit::wayback::{self, Snapshot};
use sgw_testkit::{Fault, Response, RetryAfter, SimWeb, pages};

async fn archive_web() -> (SimWeb, String) {
    let web = SimWeb::start().await;
    let port = web.port();
    let original = format!("http://docs.test:{port}/rates");
    web.route_fn(
        "archive.test",
        "/wayback/available",
        wayback::handler(vec![Snapshot {
            original: original.clone(),
            archived_url: format!("http://archive.test:{port}/web/20240115093000/{original}"),
            timestamp: "20240115093000".into(),
        }]),
    );
    web.route(
        "archive.test",
        "/web/*",
        Response::html(pages::article(
            "Interest rates",
            "Docs Bank",
            "2024-01-10",
            &["The interest rate is 4.5% as of January."],
        )),
    );
    // The official site itself is blocked: the archive is the way in.
    web.route(
        "docs.test",
        "/rates",
        Fault::CdnBlock(sgw_testkit::Cdn::Cloudflare),
    );
    web.add_host("other.test");
    (web, original)
}

fn config(web: &SimWeb) -> serde_json::Value {
    let api = format!(
        "http://archive.test:{}/wayback/available?url={{url}}",
        web.port()
    );
    json!({ "availability_url": api })
}

#[tokio::test]
async fn snapshot_is_read_with_snapshot_at_and_demoted_tier() {
    let (web, original) = archive_web().await;
    let p = build("web-archive", config(&web), fetcher(&web)).unwrap();
    let sources = [source(
        "docs",
        SourceTier::OfficialPrimary,
        "docs.test",
        vec![original.clone()],
    )];
    let mut request = SearchRequest::new("interest rate");
    request.as_of = Some(jiff::civil::date(2024, 2, 1));
    let r = run(&*p, &request, &sources).await.unwrap();
    assert_eq!(r.evidence.len(), 1, "{:#?}", r.attempts);
    let ev = &r.evidence[0];
    assert_eq!(
        ev.metadata.snapshot_at.as_deref(),
        Some("2024-01-15T09:30:00Z")
    );
    assert_eq!(ev.tier_hint, Some(SourceTier::OfficialSecondary));
    assert_eq!(ev.publisher.as_deref(), Some("docs publisher"));
    assert_eq!(
        ev.metadata.canonical_url.as_deref(),
        Some(original.as_str())
    );
    assert_eq!(ev.url.host_str(), Some("archive.test"));
    assert!(ev.text.contains("4.5%"));
    assert!(!ev.snippet_only);
    let lookup = web
        .requests()
        .into_iter()
        .find(|q| q.path == "/wayback/available")
        .unwrap();
    assert_eq!(
        lookup.query_param("url").as_deref(),
        Some(original.as_str())
    );
    assert_eq!(lookup.query_param("timestamp").as_deref(), Some("20240201"));
    assert_eq!(
        web.hits("docs.test", "/rates"),
        0,
        "the original is not fetched"
    );
}

#[tokio::test]
async fn hint_urls_are_looked_up_and_missing_snapshots_are_empty() {
    let (web, original) = archive_web().await;
    let p = build("web-archive", config(&web), fetcher(&web)).unwrap();
    let other = format!("http://other.test:{}/page", web.port());
    let mut request = SearchRequest::new("interest rate");
    request.hints.urls = vec![other.clone(), original];
    let r = run(&*p, &request, &[]).await.unwrap();
    assert_eq!(r.evidence.len(), 1);
    assert_eq!(
        r.evidence[0].tier_hint, None,
        "no planned source owns a hint URL here"
    );
    let empty = r
        .attempts
        .iter()
        .find(|a| a.outcome == AttemptOutcome::Empty)
        .unwrap();
    assert_eq!(empty.target.as_deref(), Some(other.as_str()));
}

#[tokio::test]
async fn nothing_to_look_up_is_an_empty_attempt() {
    let (web, _) = archive_web().await;
    let p = build("web-archive", config(&web), fetcher(&web)).unwrap();
    let r = run(&*p, &SearchRequest::new("q"), &[]).await.unwrap();
    assert!(r.evidence.is_empty());
    assert_eq!(r.attempts[0].outcome, AttemptOutcome::Empty);
}

#[tokio::test]
async fn rate_limited_archive_fails_the_provider_with_retry_after() {
    let (web, original) = archive_web().await;
    web.route(
        "archive.test",
        "/wayback/available",
        Fault::RateLimited {
            retry_after: Some(RetryAfter::Seconds(60)),
        },
    );
    let p = build("web-archive", config(&web), fetcher(&web)).unwrap();
    let sources = [source(
        "docs",
        SourceTier::OfficialPrimary,
        "docs.test",
        vec![original],
    )];
    let e = run(&*p, &SearchRequest::new("q"), &sources)
        .await
        .unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderRateLimited);
    assert_eq!(e.retry_after, Some(std::time::Duration::from_secs(60)));
}

#[tokio::test]
async fn malformed_availability_answer_is_a_clear_failure() {
    let (web, original) = archive_web().await;
    web.route(
        "archive.test",
        "/wayback/available",
        Response::json(&json!({"archived_snapshots": "x"})),
    );
    let p = build("web-archive", config(&web), fetcher(&web)).unwrap();
    let sources = [source(
        "docs",
        SourceTier::OfficialPrimary,
        "docs.test",
        vec![original],
    )];
    let e = run(&*p, &SearchRequest::new("q"), &sources)
        .await
        .unwrap_err();
    assert_eq!(e.code, FailureCode::SourceExtractionFailed);
    assert!(
        e.message.contains("archived_snapshots") && e.message.contains("archive.test"),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn bad_config_names_the_field() {
    let web = SimWeb::start().await;
    let e = build(
        "web-archive",
        json!({"availability_url": "http://a.test/x"}),
        fetcher(&web),
    )
    .err()
    .unwrap();
    assert!(e.to_string().starts_with("availability_url"), "{e}");
    assert!(
        build("web-archive", json!(null), fetcher(&web)).is_ok(),
        "defaults are valid"
    );
}
