use sgw_contract::{FactoryError, FailureCode, SourceTier};
use sgw_testkit::provider::{CallData, build, fetcher, source};
use sgw_testkit::{Fault, Response, RetryAfter, SimWeb};

const STEP: sgw_contract::ChainStep = sgw_contract::ChainStep::StructuredApiOrFeed;

fn api(web: &SimWeb) {
    web.route_fn("api.test", "/v1/search", |req| {
        let q = req.query_param("q").unwrap_or_default();
        Response::json(&serde_json::json!({
            "meta": {"query": q},
            "data": {"results": [
                {"name": "Unrelated dataset", "link": "/d/0", "body": "Weather data.", "when": "2026-01-01"},
                {"name": "Filing deadline register", "link": "/d/1", "body": ["The filing deadline is 31 March.", "Penalties apply."], "when": "2026-02-03T10:00:00Z"},
                {"name": "No url", "body": "filing deadline"},
                {"name": "Filing deadline archive", "link": "http://archive.test/d/2", "body": "Old filing deadline rules.", "when": "Tue, 05 Mar 2019 10:00:00 GMT"}
            ]}
        }))
        .into()
    });
}

fn config(web: &SimWeb) -> serde_json::Value {
    serde_json::json!({
        "url": format!("{}?q={{query}}", web.url("api.test", "/v1/search")),
        "items": "/data/results",
        "item": {"title": "/name", "url": "/link", "text": "/body", "date": "/when"},
        "tier": "SPECIALIZED_DATABASE",
        "publisher": "Test Registry API",
        "headers": {"x-api-key": "k"},
        "secret_headers": [{"name": "authorization", "env": "PATH", "format": "Bearer {value}"}],
    })
}

#[tokio::test]
async fn pointers_pick_items_fields_and_ranking() {
    let web = SimWeb::start().await;
    api(&web);
    web.add_host("archive.test");
    let f = fetcher(&web);
    let p = build("json-api", config(&web), f).unwrap();
    let mut data = CallData::new("filing deadline", "default", STEP);
    data.sources = vec![source(
        "archive",
        "archive.test",
        SourceTier::OfficialSecondary,
    )];
    let report = p.run(&data.call()).await.unwrap();
    let titles: Vec<_> = report.evidence.iter().map(|e| e.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Filing deadline register", "Filing deadline archive"]
    );
    let ev = &report.evidence[0];
    assert_eq!(ev.url, web.url("api.test", "/d/1"), "relative URL resolved");
    assert_eq!(
        ev.text,
        "The filing deadline is 31 March.\n\nPenalties apply."
    );
    assert_eq!(ev.extraction_method, "json-api");
    assert_eq!(ev.tier_hint, Some(SourceTier::SpecializedDatabase));
    assert_eq!(ev.publisher.as_deref(), Some("Test Registry API"));
    assert_eq!(
        ev.published_at.as_deref().map(|d| &d[..10]),
        Some("2026-02-03")
    );
    assert!(ev.passages[0].text.contains("filing deadline"));
    assert_eq!(
        report.evidence[1].published_at.as_deref().map(|d| &d[..10]),
        Some("2019-03-05")
    );
    let req = web
        .requests()
        .into_iter()
        .find(|r| r.path == "/v1/search")
        .unwrap();
    assert_eq!(req.query.as_deref(), Some("q=filing%20deadline"));
    assert_eq!(req.header("x-api-key"), Some("k"));
    // Tests cannot set variables (`unsafe_code` is forbidden): PATH is always set.
    let want = format!("Bearer {}", std::env::var("PATH").unwrap());
    assert_eq!(req.header("authorization"), Some(want.as_str()));
    assert!(
        report.attempts[0]
            .detail
            .as_deref()
            .unwrap()
            .contains("3 items (1 without url or text)")
    );
    assert_eq!(
        web.host_hits("archive.test"),
        0,
        "the API text is the evidence: no page fetch"
    );
}

#[tokio::test]
async fn api_failures_are_provider_errors() {
    let web = SimWeb::start().await;
    web.route(
        "api.test",
        "/v1/search",
        Fault::RateLimited {
            retry_after: Some(RetryAfter::Seconds(90)),
        },
    );
    let f = fetcher(&web);
    let p = build("json-api", config(&web), f.clone()).unwrap();
    let data = CallData::new("filing deadline", "default", STEP);
    let e = p.run(&data.call()).await.unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderRateLimited);
    assert_eq!(e.http_status, Some(429));
    assert_eq!(e.retry_after.map(|d| d.as_secs()), Some(90));
    assert_eq!(e.attempts.len(), 1);

    web.route(
        "api.test",
        "/v1/search",
        Response::bytes("application/json", "{\"data\": [1, 2"),
    );
    let e = p.run(&data.call()).await.unwrap_err();
    assert_eq!(e.code, FailureCode::SourceExtractionFailed);
    assert!(e.message.contains("valid JSON"), "{}", e.message);

    web.route(
        "api.test",
        "/v1/search",
        Response::json(&serde_json::json!({"data": {"results": {"a": 1}}})),
    );
    let e = p.run(&data.call()).await.unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderMisconfigured);
    assert!(
        e.message.contains("/data/results") && e.message.contains("an object"),
        "{}",
        e.message
    );

    web.route(
        "api.test",
        "/v1/search",
        Response::json(&serde_json::json!({"other": []})),
    );
    let e = p.run(&data.call()).await.unwrap_err();
    assert!(
        e.message.contains("nothing at the `items` pointer"),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn missing_secret_variable_is_misconfigured() {
    let web = SimWeb::start().await;
    api(&web);
    let f = fetcher(&web);
    let mut cfg = config(&web);
    cfg["secret_headers"][0]["env"] = "SGW_TEST_VARIABLE_THAT_IS_NEVER_SET".into();
    let p = build("json-api", cfg, f).unwrap();
    let data = CallData::new("filing deadline", "default", STEP);
    let e = p.run(&data.call()).await.unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderMisconfigured);
    assert!(
        e.message.contains("SGW_TEST_VARIABLE_THAT_IS_NEVER_SET"),
        "{}",
        e.message
    );
    assert_eq!(web.hits("api.test", "/v1/search"), 0);
}

#[tokio::test]
async fn bad_config_names_the_field() {
    let web = SimWeb::start().await;
    let f = fetcher(&web);
    let field = |cfg: serde_json::Value| match build("json-api", cfg, f.clone()) {
        Err(FactoryError::Config { field, message }) => (field, message),
        other => panic!("expected a config error, got {:?}", other.err()),
    };
    let (_, m) = field(serde_json::json!({}));
    assert!(m.contains("missing field `url`"), "{m}");
    let (fl, _) = field(serde_json::json!({"url": "http://api.test/x"}));
    assert_eq!(
        fl.as_deref(),
        Some("url"),
        "a search template needs {{query}}"
    );
    let (fl, m) =
        field(serde_json::json!({"url": "http://api.test/?q={query}", "items": "results"}));
    assert_eq!(fl.as_deref(), Some("items"), "{m}");
    let (fl, _) =
        field(serde_json::json!({"url": "http://api.test/?q={query}", "tier": "VERY_OFFICIAL"}));
    assert_eq!(fl.as_deref(), Some("tier"));
    let (_, m) = field(serde_json::json!({"url": "http://api.test/?q={query}", "pointer": "/x"}));
    assert!(m.contains("unknown field `pointer`"), "{m}");
    let (fl, _) =
        field(serde_json::json!({"url": "http://api.test/?q={query}", "item": {"url": "link"}}));
    assert_eq!(fl.as_deref(), Some("item.url"));
    let (fl, m) =
        field(serde_json::json!({"url": "http://api.test/?q={query}", "item": {"link": "/x"}}));
    assert_eq!(fl.as_deref(), Some("item.link"), "{m}");
}

#[test]
fn both_kinds_are_registered() {
    for kind in ["feed", "json-api"] {
        let f = sgw_contract::factory(kind).unwrap_or_else(|| panic!("{kind} not registered"));
        assert_eq!(f.step, sgw_contract::ChainStep::StructuredApiOrFeed);
        assert_eq!(f.crate_name, "sgw-provider-feed");
    }
}
