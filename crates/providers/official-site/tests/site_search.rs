use sgw_contract::{AttemptOutcome, FailureCode, SourceTier};
use sgw_testkit::provider::{CallData, PARAS, build, fetcher, source};
use sgw_testkit::{Fault, Response, SimWeb, opensearch, pages, sitemap};

const STEP: sgw_contract::ChainStep = sgw_contract::ChainStep::OfficialSiteSearch;

fn article(web: &SimWeb, host: &str, path: &str, title: &str, date: &str) {
    web.route(
        host,
        path,
        Response::html(pages::article(title, "Registry", date, PARAS)),
    );
}

/// A site search at `/search` answering with hits on and off the site.
fn search_endpoint(web: &SimWeb, host: &'static str, port: u16) {
    web.route_fn(host, "/search", move |req| {
        let q = req.query_param("q").unwrap_or_default();
        let on = format!("http://{host}:{port}/filing/deadline");
        let nav = format!("http://{host}:{port}/about");
        let off = format!("http://elsewhere.test:{port}/filing/deadline-copy");
        Response::html(pages::site_search_results(
            "Registry",
            &q,
            &[
                (&off, "Filing deadline (copy)", "a copy"),
                (&nav, "About the registry", "who we are"),
                (&on, "Annual filing deadline", "the deadline"),
            ],
        ))
        .into()
    });
}

#[tokio::test]
async fn opensearch_is_discovered_from_the_home_page() {
    let web = SimWeb::start().await;
    let port = web.port();
    let host = "registry.test";
    let template = format!("http://{host}:{port}/search?q={{searchTerms}}&n={{count?}}");
    web.route(
        host,
        "/opensearch.xml",
        opensearch::description("Registry", &template),
    );
    web.route(
        host,
        "/",
        Response::html(pages::home("Registry", "/opensearch.xml", &[])),
    );
    search_endpoint(&web, host, port);
    article(
        &web,
        host,
        "/filing/deadline",
        "Annual filing deadline",
        "2026-01-05",
    );
    article(&web, host, "/about", "About", "2020-01-01");
    web.add_host("elsewhere.test");
    let f = fetcher(&web);
    let mut data = CallData::new("filing deadline", "policy_or_law", STEP);
    let mut src = source("registry", host, SourceTier::OfficialPrimary);
    // Only an entry URL tells where the site lives: discovery starts at its home page.
    src.entry_urls = vec![web.url(host, "/start").to_string()];
    data.sources = vec![src];
    let p = build("official-site-search", serde_json::json!({}), f).unwrap();
    let report = p.run(&data.call()).await.unwrap();
    assert_eq!(report.evidence.len(), 1, "{:#?}", report.attempts);
    let ev = &report.evidence[0];
    assert_eq!(ev.url, web.url(host, "/filing/deadline"));
    assert_eq!(ev.tier_hint, Some(SourceTier::OfficialPrimary));
    assert_eq!(ev.publisher.as_deref(), Some("registry publisher"));
    assert_eq!(web.hits(host, "/opensearch.xml"), 1);
    assert_eq!(web.hits(host, "/about"), 0, "irrelevant nav link not read");
    assert_eq!(
        web.host_hits("elsewhere.test"),
        0,
        "off-site hits are never read"
    );
    let searched = web
        .requests()
        .into_iter()
        .find(|r| r.path == "/search")
        .expect("site search queried");
    assert_eq!(searched.query.as_deref(), Some("q=filing%20deadline&n=10"));
    assert!(report.attempts.iter().all(|a| a.step == STEP));
}

#[tokio::test]
async fn configured_search_url_and_failing_opensearch() {
    let web = SimWeb::start().await;
    let port = web.port();
    let host = "registry.test";
    web.route(
        host,
        "/os.xml",
        Response::html("<html><body>not a descriptor</body></html>"),
    );
    search_endpoint(&web, host, port);
    article(
        &web,
        host,
        "/filing/deadline",
        "Annual filing deadline",
        "2026-01-05",
    );
    web.add_host("elsewhere.test");
    let f = fetcher(&web);
    let mut data = CallData::new("filing deadline", "default", STEP);
    let mut src = source("registry", host, SourceTier::OfficialSecondary);
    src.opensearch_url = Some(web.url(host, "/os.xml").to_string());
    src.search_url = Some(format!("http://{host}:{port}/search?q={{query}}"));
    data.sources = vec![src];
    let p = build(
        "official-site-search",
        serde_json::json!({"discover_opensearch": false}),
        f,
    )
    .unwrap();
    let report = p.run(&data.call()).await.unwrap();
    assert_eq!(report.evidence.len(), 1, "{:#?}", report.attempts);
    let bad = report
        .attempts
        .iter()
        .find(|a| a.target.as_deref().is_some_and(|t| t.ends_with("/os.xml")))
        .unwrap();
    assert_eq!(bad.failure_code, Some(FailureCode::SourceExtractionFailed));
    assert!(bad.detail.as_deref().unwrap().contains("OpenSearch"));
}

#[tokio::test]
async fn sitemap_is_ranked_newest_first_for_news() {
    let web = SimWeb::start().await;
    let host = "agency.test";
    let u = |p: &str| web.url(host, p).to_string();
    let (old, new, other) = (
        u("/press/rate-decision-2024"),
        u("/press/rate-decision-2026"),
        u("/press/holiday-hours"),
    );
    web.route(
        host,
        "/sitemap.xml",
        sitemap::xml(&[
            (old.as_str(), Some("2024-03-01")),
            (other.as_str(), Some("2026-06-01")),
            (new.as_str(), Some("2026-05-01T09:00:00+00:00")),
        ]),
    );
    article(
        &web,
        host,
        "/press/rate-decision-2024",
        "Rate decision 2024",
        "2024-03-01",
    );
    article(
        &web,
        host,
        "/press/rate-decision-2026",
        "Rate decision 2026",
        "2026-05-01",
    );
    article(
        &web,
        host,
        "/press/holiday-hours",
        "Holiday hours",
        "2026-06-01",
    );
    let f = fetcher(&web);
    let mut src = source("agency", host, SourceTier::OfficialPrimary);
    src.sitemap_url = Some(web.url(host, "/sitemap.xml").to_string());
    let p = build(
        "official-site-search",
        serde_json::json!({"discover_opensearch": false, "concurrency": 1}),
        f,
    )
    .unwrap();

    let mut news = CallData::new("rate decision", "news", STEP);
    news.sources = vec![src.clone()];
    news.max_sources = 1;
    let report = p.run(&news.call()).await.unwrap();
    assert_eq!(report.evidence.len(), 1, "{:#?}", report.attempts);
    assert_eq!(report.evidence[0].title, "Rate decision 2026");
    assert_eq!(
        web.hits(host, "/press/holiday-hours"),
        0,
        "irrelevant entry not read"
    );

    let mut all = CallData::new("rate decision", "news", STEP);
    all.sources = vec![src];
    let report = p.run(&all.call()).await.unwrap();
    let titles: Vec<_> = report.evidence.iter().map(|e| e.title.as_str()).collect();
    assert_eq!(titles, ["Rate decision 2026", "Rate decision 2024"]);
}

#[tokio::test]
async fn sitemap_failures_and_sites_without_search_are_reported() {
    let web = SimWeb::start().await;
    web.route("a.test", "/sitemap.xml", Fault::NotFound);
    web.route(
        "b.test",
        "/sitemap.xml",
        Response::text("this is not xml at all"),
    );
    web.route("c.test", "/", Response::html(pages::home("C", "", &[])));
    let f = fetcher(&web);
    let mut a = source("a", "a.test", SourceTier::OfficialPrimary);
    a.sitemap_url = Some(web.url("a.test", "/sitemap.xml").to_string());
    let mut b = source("b", "b.test", SourceTier::OfficialPrimary);
    b.sitemap_url = Some(web.url("b.test", "/sitemap.xml").to_string());
    let mut c = source("c", "c.test", SourceTier::OfficialPrimary);
    c.entry_urls = vec![web.url("c.test", "/x").to_string()];
    let mut data = CallData::new("anything", "default", STEP);
    data.sources = vec![a, b, c];
    let p = build(
        "official-site-search",
        serde_json::json!({"discover_opensearch": true}),
        f,
    )
    .unwrap();
    let report = p.run(&data.call()).await.unwrap();
    assert!(report.evidence.is_empty());
    let by_target = |t: &str| {
        report
            .attempts
            .iter()
            .find(|a| a.target.as_deref() == Some(t))
            .cloned()
    };
    let a = by_target(web.url("a.test", "/sitemap.xml").as_str()).unwrap();
    assert_eq!(a.failure_code, Some(FailureCode::Source404OrRemoved));
    let b = by_target(web.url("b.test", "/sitemap.xml").as_str()).unwrap();
    assert_eq!(b.failure_code, Some(FailureCode::SourceExtractionFailed));
    let c = by_target(web.url("c.test", "/").as_str()).unwrap();
    assert_eq!(c.outcome, AttemptOutcome::Empty);
    assert!(c.detail.unwrap().contains("no OpenSearch"));
}
