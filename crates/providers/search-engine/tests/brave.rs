use crate::support::run;
use serde_json::json;
use sgw_contract::{FailureCode, SourceTier};
use sgw_testkit::brave::{self, BraveResult};
use sgw_testkit::provider::{build, fetcher};
use sgw_testkit::{Fault, RetryAfter, SimWeb};

// `unsafe_code` is forbidden, so tests never write the environment: an
// always-present variable (`PATH`) stands for a set key, and never-set names
// for missing ones.

fn path() -> String {
    std::env::var("PATH").expect("PATH is set")
}

#[tokio::test]
async fn results_with_key_from_env() {
    let key = path();
    let web = SimWeb::start().await;
    let url = format!("http://site.test:{}/p", web.port());
    web.add_host("site.test");
    web.route_fn("brave.test", "/res/v1/web/search", move |req| {
        if req.header("x-subscription-token") != Some(key.as_str()) {
            return brave::invalid_token().into();
        }
        assert_eq!(req.query_param("count").as_deref(), Some("5"));
        brave::results(
            &req.query_param("q").unwrap_or_default(),
            &[BraveResult::new(
                "Rust <strong>release</strong>",
                &url,
                "Rust 1.90 was <strong>released</strong>",
            )
            .page_age("2025-09-18T00:00:00")],
        )
        .into()
    });
    let endpoint = web.url("brave.test", "/res/v1/web/search");
    let missing = "SGW_TEST_BRAVE_KEY_NEVER_SET";
    let cfg = |var: &str| json!({"endpoint": endpoint.as_str(), "api_key_env": var, "max_results": 5, "read_top": 0});
    // Missing: a run-time misconfiguration naming the variable, and no request.
    let p = build("brave", cfg(missing), fetcher(&web)).unwrap();
    let e = run(&*p, "rust release").await.unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderMisconfigured);
    assert!(e.message.contains(missing), "{}", e.message);
    assert_eq!(
        web.hits("brave.test", "/res/v1/web/search"),
        0,
        "no request without a key"
    );

    let p = build("brave", cfg("PATH"), fetcher(&web)).unwrap();
    let r = run(&*p, "rust release").await.unwrap();
    assert_eq!(r.evidence.len(), 1);
    let ev = &r.evidence[0];
    assert!(ev.snippet_only);
    assert_eq!(ev.tier_hint, Some(SourceTier::GeneralWeb));
    assert_eq!(ev.title, "Rust release");
    assert_eq!(ev.text, "Rust 1.90 was released");
    assert_eq!(ev.published_at.as_deref(), Some("2025-09-18T00:00:00Z"));
}

#[tokio::test]
async fn refused_key_is_misconfigured() {
    let var = "PATH";
    let web = SimWeb::start().await;
    web.route("brave.test", "/res/v1/web/search", brave::invalid_token());
    let endpoint = web.url("brave.test", "/res/v1/web/search");
    let p = build(
        "brave",
        json!({"endpoint": endpoint.as_str(), "api_key_env": var}),
        fetcher(&web),
    )
    .unwrap();
    let e = run(&*p, "q").await.unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderMisconfigured, "{e}");
    assert_eq!(e.http_status, Some(422));
    assert!(
        !e.message.contains(&path()),
        "the key must not leak: {}",
        e.message
    );
}

#[tokio::test]
async fn rate_limited_with_retry_after() {
    let var = "PATH";
    let web = SimWeb::start().await;
    web.route(
        "brave.test",
        "/res/v1/web/search",
        Fault::RateLimited {
            retry_after: Some(RetryAfter::Seconds(30)),
        },
    );
    let endpoint = web.url("brave.test", "/res/v1/web/search");
    let p = build(
        "brave",
        json!({"endpoint": endpoint.as_str(), "api_key_env": var}),
        fetcher(&web),
    )
    .unwrap();
    let e = run(&*p, "q").await.unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderRateLimited);
    assert_eq!(e.retry_after, Some(std::time::Duration::from_secs(30)));
}

#[tokio::test]
async fn builds_without_a_key_in_the_environment() {
    let web = SimWeb::start().await;
    assert!(
        build(
            "brave",
            json!({"api_key_env": "SGW_TEST_BRAVE_NEVER_SET"}),
            fetcher(&web)
        )
        .is_ok()
    );
    let e = build("brave", json!({"max_results": 21}), fetcher(&web))
        .err()
        .unwrap();
    assert!(e.to_string().contains("max_results"), "{e}");
}
