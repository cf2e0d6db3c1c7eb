use crate::support::{run, run_until, run_with};
use serde_json::json;
use sgw_contract::{AttemptOutcome, FailureCode, PlannedSource, SourceTier};
use sgw_testkit::provider::{build, fetcher, source};
use sgw_testkit::searxng::{self, SearxResult};
use sgw_testkit::{Fault, Response, SimWeb, pages};

async fn web_with_results() -> SimWeb {
    let web = SimWeb::start().await;
    let port = web.port();
    let official = format!("http://docs.test:{port}/rates");
    let blog = format!("http://blog.test:{port}/post");
    let dead = format!("http://gone.test:{port}/old");
    let other = format!("http://misc.test:{port}/x");
    web.route_fn("searx.test", "/search", move |req| {
        assert_eq!(req.query_param("format").as_deref(), Some("json"));
        let q = req.query_param("q").unwrap_or_default();
        searxng::results(
            &q,
            &[
                SearxResult::new(
                    &official,
                    "Official interest rate",
                    "The <b>rate</b> is 4.5%",
                    "bing",
                )
                .published("2024-01-15T00:00:00"),
                SearxResult::new(&dead, "Old interest rate page", "rate was 3%", "google"),
                SearxResult::new(
                    &blog,
                    "Blog on the interest rate",
                    "someone says 5%",
                    "duckduckgo",
                ),
                SearxResult::new(&other, "Unrelated", "nothing", "bing"),
                SearxResult::new(&official, "Official interest rate (dup)", "dup", "google"),
            ],
        )
        .into()
    });
    web.route(
        "docs.test",
        "/rates",
        Response::html(pages::article(
            "Interest rate",
            "Docs Bank",
            "2024-01-15",
            &["The interest rate is 4.5% from January."],
        )),
    );
    web.route("gone.test", "/old", Fault::Gone);
    web.route(
        "blog.test",
        "/post",
        Response::html(pages::article(
            "Blog on the interest rate",
            "A Blog",
            "2024-02-01",
            &["I think the interest rate is 5%."],
        )),
    );
    web.add_host("misc.test");
    web
}

#[tokio::test]
async fn healthy_results_give_snippet_leads_and_read_pages() {
    let web = web_with_results().await;
    let base = web.url("searx.test", "/");
    let p = build(
        "searxng",
        json!({"base_url": base.as_str(), "engines": ["bing", "google"]}),
        fetcher(&web),
    )
    .unwrap();
    let docs = PlannedSource {
        publisher: "Docs Bank".into(),
        ..source("docs", "docs.test", SourceTier::OfficialPrimary)
    };
    let report = run_with(&*p, "interest rate", "default", &[docs])
        .await
        .unwrap();
    let req = web
        .requests()
        .into_iter()
        .find(|r| r.host.starts_with("searx.test"))
        .unwrap();
    assert_eq!(req.query_param("engines").as_deref(), Some("bing,google"));

    // 4 unique hits; the 3 relevant ones were read; the gone page stayed a lead.
    let read: Vec<_> = report.evidence.iter().filter(|e| !e.snippet_only).collect();
    let leads: Vec<_> = report.evidence.iter().filter(|e| e.snippet_only).collect();
    assert_eq!(read.len(), 2, "{:#?}", report.evidence);
    assert_eq!(leads.len(), 2, "{:#?}", report.evidence);
    let official = read
        .iter()
        .find(|e| e.url.host_str() == Some("docs.test"))
        .unwrap();
    assert_eq!(official.tier_hint, Some(SourceTier::OfficialPrimary));
    assert_eq!(official.publisher.as_deref(), Some("Docs Bank"));
    assert!(official.text.contains("4.5%"));
    let blog = read
        .iter()
        .find(|e| e.url.host_str() == Some("blog.test"))
        .unwrap();
    assert_eq!(blog.tier_hint, Some(SourceTier::GeneralWeb));
    for lead in &leads {
        assert_eq!(lead.tier_hint, Some(SourceTier::GeneralWeb));
        assert_eq!(lead.extraction_method, "snippet");
        // The engine's evidence about a page, never the page's.
        assert_eq!(lead.url.host_str(), Some("searx.test"));
        assert_eq!(lead.url.query(), None);
        assert_eq!(
            lead.publisher.as_deref(),
            Some("searxng search engine (searx.test)")
        );
        assert!(lead.about.is_some());
    }
    let gone = leads
        .iter()
        .find(|e| e.about.as_ref().and_then(|u| u.host_str()) == Some("gone.test"))
        .unwrap();
    assert_eq!(gone.text, "rate was 3%");
    let failed = report
        .attempts
        .iter()
        .find(|a| a.outcome == AttemptOutcome::Failed)
        .unwrap();
    assert_eq!(failed.failure_code, Some(FailureCode::Source404OrRemoved));
    assert!(failed.target.as_deref().unwrap().contains("gone.test"));
    let first = &report.attempts[0];
    assert_eq!(first.outcome, AttemptOutcome::Success);
    assert_eq!(first.detail.as_deref(), Some("4 hits"));
    // Never read: the unrelated hit (read_top 3 spent on relevant ones).
    assert_eq!(web.hits("misc.test", "/x"), 0);
}

#[tokio::test]
async fn read_top_zero_gives_only_leads() {
    let web = web_with_results().await;
    let base = web.url("searx.test", "/");
    let p = build(
        "searxng",
        json!({"base_url": base.as_str(), "read_top": 0, "max_results": 2}),
        fetcher(&web),
    )
    .unwrap();
    let report = run(&*p, "interest rate").await.unwrap();
    assert_eq!(report.evidence.len(), 2);
    assert!(report.evidence.iter().all(|e| e.snippet_only));
    assert_eq!(
        report.evidence[0].published_at.as_deref(),
        Some("2024-01-15T00:00:00Z")
    );
    assert_eq!(report.evidence[0].text, "The rate is 4.5%");
    assert_eq!(web.hits("docs.test", "/rates"), 0);
}

async fn unresponsive(
    engines: &'static [(&'static str, &'static str)],
) -> sgw_contract::ProviderError {
    let web = SimWeb::start().await;
    web.route_fn("searx.test", "/search", move |req| {
        searxng::unresponsive(&req.query_param("q").unwrap_or_default(), engines).into()
    });
    let p = build(
        "searxng",
        json!({"base_url": web.url("searx.test", "/").as_str()}),
        fetcher(&web),
    )
    .unwrap();
    run(&*p, "anything").await.unwrap_err()
}

#[tokio::test]
async fn zero_results_with_captcha_engine_is_captcha() {
    let e = unresponsive(&[("google", "CAPTCHA"), ("bing", "timeout")]).await;
    assert_eq!(e.code, FailureCode::SearchProviderCaptcha);
    assert!(e.message.contains("google (CAPTCHA)"), "{}", e.message);
    assert_eq!(e.attempts.len(), 1);
    assert_eq!(
        e.attempts[0].failure_code,
        Some(FailureCode::SearchProviderCaptcha)
    );
}

#[tokio::test]
async fn zero_results_with_rate_limited_engine_is_rate_limited() {
    let e = unresponsive(&[("duckduckgo", "too many requests")]).await;
    assert_eq!(e.code, FailureCode::SearchProviderRateLimited);
}

#[tokio::test]
async fn zero_results_with_timeout_is_timeout() {
    let e = unresponsive(&[("qwant", "timeout")]).await;
    assert_eq!(e.code, FailureCode::SearchProviderTimeout);
}

#[tokio::test]
async fn zero_results_without_failures_is_empty_success() {
    let web = SimWeb::start().await;
    web.route_fn("searx.test", "/search", |req| {
        searxng::results(&req.query_param("q").unwrap_or_default(), &[]).into()
    });
    let p = build(
        "searxng",
        json!({"base_url": web.url("searx.test", "/").as_str()}),
        fetcher(&web),
    )
    .unwrap();
    let r = run(&*p, "nothing").await.unwrap();
    assert!(r.evidence.is_empty());
    assert_eq!(r.attempts[0].outcome, AttemptOutcome::Empty);
}

#[tokio::test]
async fn results_with_some_unresponsive_engines_are_kept_with_a_note() {
    let web = SimWeb::start().await;
    let url = format!("http://a.test:{}/p", web.port());
    web.add_host("a.test");
    web.route_fn("searx.test", "/search", move |req| {
        Response::json(&searxng::value(
            &req.query_param("q").unwrap_or_default(),
            &[SearxResult::new(&url, "t", "snippet", "bing")],
            &[("google", "CAPTCHA")],
        ))
        .into()
    });
    let p = build(
        "searxng",
        json!({"base_url": web.url("searx.test", "/").as_str(), "read_top": 0}),
        fetcher(&web),
    )
    .unwrap();
    let r = run(&*p, "q").await.unwrap();
    assert_eq!(r.evidence.len(), 1);
    assert!(r.notes[0].contains("google (CAPTCHA)"), "{:?}", r.notes);
}

#[tokio::test]
async fn malformed_json_is_a_clear_failure() {
    let web = SimWeb::start().await;
    web.route(
        "searx.test",
        "/search",
        Response::json(&json!({"results": "nope"})),
    );
    web.route(
        "searx2.test",
        "/search",
        Response::new(200)
            .header("content-type", "application/json")
            .body("{\"results\": [tru"),
    );
    let p = build(
        "searxng",
        json!({"base_url": web.url("searx.test", "/").as_str()}),
        fetcher(&web),
    )
    .unwrap();
    let e = run(&*p, "q").await.unwrap_err();
    assert_eq!(e.code, FailureCode::SourceExtractionFailed);
    assert!(
        e.message.contains("results") && e.message.contains("searx.test"),
        "{}",
        e.message
    );
    let p = build(
        "searxng",
        json!({"base_url": web.url("searx2.test", "/").as_str()}),
        fetcher(&web),
    )
    .unwrap();
    let e = run(&*p, "q").await.unwrap_err();
    assert_eq!(e.code, FailureCode::SourceExtractionFailed);
    assert!(e.message.contains("not JSON"), "{}", e.message);
}

#[tokio::test]
async fn engine_rate_limit_carries_retry_after() {
    let web = SimWeb::start().await;
    web.route(
        "searx.test",
        "/search",
        Fault::RateLimited {
            retry_after: Some(sgw_testkit::RetryAfter::Seconds(120)),
        },
    );
    let p = build(
        "searxng",
        json!({"base_url": web.url("searx.test", "/").as_str()}),
        fetcher(&web),
    )
    .unwrap();
    let e = run(&*p, "q").await.unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderRateLimited);
    assert_eq!(e.retry_after, Some(std::time::Duration::from_secs(120)));
    assert_eq!(e.http_status, Some(429));
}

#[tokio::test]
async fn bad_config_names_the_field() {
    let web = SimWeb::start().await;
    let e = build(
        "searxng",
        json!({"base_url": "http://x.test", "categorie": ["news"]}),
        fetcher(&web),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("categorie"), "{e}");
    let e = build("searxng", json!({}), fetcher(&web)).err().unwrap();
    assert!(e.to_string().contains("base_url"), "{e}");
}

#[tokio::test]
async fn captcha_page_instead_of_json_is_captcha() {
    let web = SimWeb::start().await;
    web.route(
        "searx.test",
        "/search",
        Fault::Captcha(sgw_testkit::Captcha::Hcaptcha),
    );
    let p = build(
        "searxng",
        json!({"base_url": web.url("searx.test", "/").as_str()}),
        fetcher(&web),
    )
    .unwrap();
    let e = run(&*p, "q").await.unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderCaptcha, "{e}");
    assert_eq!(e.attempts.len(), 1, "the failed query is traced");
}

#[tokio::test]
async fn hanging_engine_fails_at_the_deadline_as_timeout() {
    let web = SimWeb::start().await;
    web.route("searx.test", "/search", Fault::Hang);
    let p = build(
        "searxng",
        json!({"base_url": web.url("searx.test", "/").as_str()}),
        fetcher(&web),
    )
    .unwrap();
    let budget = std::time::Duration::from_millis(300);
    let e = run_until(&*p, "q", "default", &[], budget)
        .await
        .unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderTimeout, "{e}");
}
