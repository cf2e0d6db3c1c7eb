use crate::support::{run, source};
use serde_json::json;
use sgw_contract::{AttemptOutcome, FailureCode, SearchRequest, SourceTier};
use sgw_testkit::provider::{build, fetcher};
use sgw_testkit::{Cdn, Fault, Response, SimWeb, pages};

#[tokio::test]
async fn official_host_is_read_from_its_mirror() {
    let web = SimWeb::start().await;
    let port = web.port();
    web.route("docs.test", "/guide/rates", Fault::CdnBlock(Cdn::Akamai));
    web.route("dead-mirror.test", "/guide/rates", Fault::NotFound);
    web.route(
        "mirror.test",
        "/guide/rates",
        Response::html(pages::article(
            "Rates guide",
            "Mirror",
            "2024-03-01",
            &["The official interest rate is 4.5%."],
        )),
    );
    let p = build(
        "mirror",
        json!({"rules": [{"from": "docs.test", "to": ["dead-mirror.test", "mirror.test"]}]}),
        fetcher(&web),
    )
    .unwrap();
    let entry = format!("http://docs.test:{port}/guide/rates");
    let sources = [source(
        "docs",
        SourceTier::OfficialPrimary,
        "docs.test",
        vec![entry.clone()],
    )];
    let r = run(&*p, &SearchRequest::new("interest rate"), &sources)
        .await
        .unwrap();
    assert_eq!(r.evidence.len(), 1, "{:#?}", r.attempts);
    let ev = &r.evidence[0];
    assert_eq!(
        ev.url.as_str(),
        format!("http://mirror.test:{port}/guide/rates")
    );
    assert_eq!(ev.tier_hint, Some(SourceTier::OfficialSecondary));
    assert_eq!(ev.publisher.as_deref(), Some("docs publisher"));
    let failed = &r.attempts[0];
    assert_eq!(failed.failure_code, Some(FailureCode::Source404OrRemoved));
    assert_eq!(r.attempts[1].outcome, AttemptOutcome::Success);
    assert_eq!(web.hits("docs.test", "/guide/rates"), 0);
}

#[tokio::test]
async fn no_matching_host_is_an_empty_attempt() {
    let web = SimWeb::start().await;
    let p = build(
        "mirror",
        json!({"rules": [{"from": "docs.test", "to": ["mirror.test"]}]}),
        fetcher(&web),
    )
    .unwrap();
    let sources = [source(
        "x",
        SourceTier::OfficialPrimary,
        "x.test",
        vec!["http://x.test/a".into()],
    )];
    let r = run(&*p, &SearchRequest::new("q"), &sources).await.unwrap();
    assert!(r.evidence.is_empty());
    assert_eq!(r.attempts[0].outcome, AttemptOutcome::Empty);
}

#[tokio::test]
async fn media_site_search_hits_on_its_domains_are_read() {
    let web = SimWeb::start().await;
    let port = web.port();
    let article = format!("http://news.test:{port}/2024/rate-decision");
    let old = format!("http://news.test:{port}/2019/other-story");
    let offsite = format!("http://elsewhere.test:{port}/rate-decision");
    let hits = [
        (
            article.clone(),
            "Central bank interest rate decision".to_string(),
            "snippet".to_string(),
        ),
        (
            offsite,
            "Interest rate elsewhere".to_string(),
            "x".to_string(),
        ),
        (old, "Sports results".to_string(), "y".to_string()),
    ];
    web.route_fn("news.test", "/search", move |req| {
        let q = req.query_param("q").unwrap_or_default();
        let h: Vec<(&str, &str, &str)> = hits
            .iter()
            .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
            .collect();
        Response::html(pages::site_search_results("News", &q, &h)).into()
    });
    web.route(
        "news.test",
        "/2024/rate-decision",
        Response::html(pages::article(
            "Central bank interest rate decision",
            "News",
            "2024-03-20",
            &["The central bank kept the interest rate at 4.5%."],
        )),
    );
    web.add_host("elsewhere.test");
    let search_url = format!("http://news.test:{port}/search?q={{query}}");
    let p = build(
        "mirror",
        json!({"media": [{"publisher": "The News", "search_url": search_url, "domains": ["news.test"]}]}),
        fetcher(&web),
    )
    .unwrap();
    let r = run(&*p, &SearchRequest::new("interest rate decision"), &[])
        .await
        .unwrap();
    assert_eq!(r.evidence.len(), 1, "{:#?}", r.attempts);
    let ev = &r.evidence[0];
    assert_eq!(ev.url.as_str(), article);
    assert_eq!(ev.tier_hint, Some(SourceTier::AuthoritativeMedia));
    assert_eq!(ev.publisher.as_deref(), Some("The News"));
    assert_eq!(
        web.host_hits("elsewhere.test"),
        0,
        "off-domain links are not read"
    );
    assert_eq!(
        web.hits("news.test", "/2019/other-story"),
        0,
        "irrelevant links are not read"
    );
}

#[tokio::test]
async fn failing_media_search_is_an_attempt_not_a_provider_failure() {
    let web = SimWeb::start().await;
    web.route(
        "news.test",
        "/search",
        Fault::Captcha(sgw_testkit::Captcha::Recaptcha),
    );
    let search_url = format!("http://news.test:{}/search?q={{query}}", web.port());
    let p = build(
        "mirror",
        json!({"media": [{"publisher": "N", "search_url": search_url, "domains": ["news.test"]}]}),
        fetcher(&web),
    )
    .unwrap();
    let r = run(&*p, &SearchRequest::new("q"), &[]).await.unwrap();
    assert!(r.evidence.is_empty());
    assert_eq!(
        r.attempts[0].failure_code,
        Some(FailureCode::SearchProviderCaptcha)
    );
}

#[tokio::test]
async fn bad_config_names_the_field() {
    let web = SimWeb::start().await;
    let e = build(
        "mirror",
        json!({"rules": [{"from": "docs.test", "to": []}]}),
        fetcher(&web),
    )
    .err()
    .unwrap();
    assert!(e.to_string().starts_with("rules[0].to"), "{e}");
    let e = build("mirror", json!({}), fetcher(&web)).err().unwrap();
    assert!(e.to_string().contains("rules"), "{e}");
}
