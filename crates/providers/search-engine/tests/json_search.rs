use crate::support::run;
use serde_json::json;
use sgw_contract::{AttemptOutcome, FailureCode};
use sgw_testkit::provider::{build, fetcher};
use sgw_testkit::{Response, SimWeb, pages};

#[tokio::test]
async fn pointers_pick_fields_and_best_hit_is_read() {
    let web = SimWeb::start().await;
    let port = web.port();
    let page = format!("http://news.test:{port}/budget-2026");
    web.route(
        "news.test",
        "/budget-2026",
        Response::html(pages::article(
            "Budget 2026 adopted",
            "News",
            "2026-01-02",
            &["The budget 2026 was adopted on 2 January."],
        )),
    );
    web.route_fn("api.test", "/find", move |req| {
        assert_eq!(req.query_param("term").as_deref(), Some("budget 2026"));
        Response::json(&json!({"data": {"items": [
            {"link": page, "name": "Budget 2026", "summary": {"text": "adopted"}, "when": "2026-01-02"},
            {"link": "not a url", "name": "broken"},
            {"name": "no link"}
        ]}}))
        .into()
    });
    let template = format!("http://api.test:{port}/find?term={{query}}");
    let p = build(
        "json-search",
        json!({"url_template": template, "items": "/data/items", "url": "/link", "title": "/name",
               "snippet": "/summary/text", "date": "/when", "read_top": 1}),
        fetcher(&web),
    )
    .unwrap();
    let r = run(&*p, "budget 2026").await.unwrap();
    assert_eq!(r.evidence.len(), 1, "{:#?}", r.evidence);
    let ev = &r.evidence[0];
    assert!(!ev.snippet_only, "the hit was read");
    assert!(ev.text.contains("adopted on 2 January"));
    assert_eq!(r.attempts.len(), 2);
    assert!(
        r.attempts
            .iter()
            .all(|a| a.outcome == AttemptOutcome::Success)
    );
}

#[tokio::test]
async fn wrong_items_pointer_is_a_clear_failure() {
    let web = SimWeb::start().await;
    web.route("api.test", "/find", Response::json(&json!({"results": []})));
    let template = format!("http://api.test:{}/find?q={{query}}", web.port());
    let p = build(
        "json-search",
        json!({"url_template": template, "items": "/data/items", "url": "/u"}),
        fetcher(&web),
    )
    .unwrap();
    let e = run(&*p, "q").await.unwrap_err();
    assert_eq!(e.code, FailureCode::SourceExtractionFailed);
    assert!(
        e.message.contains("/data/items") && e.message.contains("api.test"),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn header_from_env_is_sent_and_missing_env_is_misconfigured() {
    let web = SimWeb::start().await;
    web.route_fn("api.test", "/find", |req| {
        let auth = req.header("authorization").unwrap_or("").to_string();
        Response::json(
            &json!([{"u": format!("http://x.test/{}", auth.replace(' ', "-")), "t": "token hit"}]),
        )
        .into()
    });
    let template = format!("http://api.test:{}/find?q={{query}}", web.port());
    let cfg = |var: &str| {
        json!({"url_template": template, "items": "", "url": "/u", "title": "/t", "read_top": 0,
                     "headers": [{"name": "Authorization", "env": var, "format": "Bearer {value}"}]})
    };
    let missing = "SGW_TEST_JSON_SEARCH_TOKEN_NEVER_SET";
    let p = build("json-search", cfg(missing), fetcher(&web)).unwrap();
    let e = run(&*p, "q").await.unwrap_err();
    assert_eq!(e.code, FailureCode::SearchProviderMisconfigured);
    assert!(e.message.contains(missing), "{}", e.message);
    // No test writes the environment (unsafe_code is forbidden): the cargo
    // runner's CARGO_PKG_NAME stands for a set token.
    let p = build("json-search", cfg("CARGO_PKG_NAME"), fetcher(&web)).unwrap();
    let r = run(&*p, "q").await.unwrap();
    assert_eq!(
        r.evidence[0].about.as_ref().unwrap().as_str(),
        format!("http://x.test/Bearer-{}", env!("CARGO_PKG_NAME"))
    );
    assert!(r.evidence[0].snippet_only);
    // The snippet is cited as the engine's: its endpoint, without the query.
    assert_eq!(
        r.evidence[0].url.as_str(),
        format!("http://api.test:{}/find", web.port())
    );
}
