use sgw_contract::{AttemptOutcome, FailureCode, SourceTier};
use sgw_testkit::feeds::{self, FeedItem};
use sgw_testkit::provider::{CallData, PARAS, build, fetcher, source};
use sgw_testkit::{Cdn, Fault, Response, SimWeb, pages};

const STEP: sgw_contract::ChainStep = sgw_contract::ChainStep::StructuredApiOrFeed;

fn items(web: &SimWeb, host: &str) -> Vec<FeedItem> {
    let u = |p: &str| web.url(host, p).to_string();
    vec![
        FeedItem::new(
            "Cafeteria menu",
            &u("/menu"),
            "2026-03-03",
            "Soup of the day.",
        ),
        FeedItem::new(
            "Filing deadline moved",
            &u("/old"),
            "2024-02-01",
            "The filing deadline moved to May.",
        ),
        FeedItem::new(
            "Filing deadline for 2026",
            &u("/new"),
            "2026-02-01",
            "The filing deadline is 31 March 2026.",
        ),
    ]
}

fn pages_for(web: &SimWeb, host: &str) {
    for (p, t) in [
        ("/menu", "Menu"),
        ("/old", "Old filing deadline"),
        ("/new", "New filing deadline"),
    ] {
        web.route(
            host,
            p,
            Response::html(pages::article(t, "Registry", "2026-01-01", PARAS)),
        );
    }
}

#[tokio::test]
async fn rss_atom_and_json_feed_entries_ranked_and_read() {
    for (name, make) in [
        ("rss", feeds::rss as fn(&str, &str, &[FeedItem]) -> Response),
        ("atom", feeds::atom),
        ("json", feeds::json_feed),
    ] {
        let web = SimWeb::start().await;
        let host = "registry.test";
        web.route(
            host,
            "/feed",
            make(
                "Registry news",
                web.url(host, "/").as_str(),
                &items(&web, host),
            ),
        );
        pages_for(&web, host);
        let f = fetcher(&web);
        let mut data = CallData::new("filing deadline", "news", STEP);
        let mut src = source("registry", host, SourceTier::OfficialPrimary);
        src.feed_urls = vec![web.url(host, "/feed").to_string()];
        data.sources = vec![src];
        data.max_sources = 2;
        let p = build("feed", serde_json::json!({}), f).unwrap();
        let report = p.run(&data.call()).await.unwrap();
        let titles: Vec<_> = report.evidence.iter().map(|e| e.title.as_str()).collect();
        assert_eq!(
            titles,
            ["New filing deadline", "Old filing deadline"],
            "{name}: {:#?}",
            report.attempts
        );
        assert!(
            report
                .evidence
                .iter()
                .all(|e| e.tier_hint == Some(SourceTier::OfficialPrimary)
                    && e.extraction_method == "html"
                    && e.publisher.as_deref() == Some("registry publisher"))
        );
        assert_eq!(
            web.hits(host, "/menu"),
            0,
            "{name}: irrelevant entry not read"
        );
        let feed_attempt = &report.attempts[0];
        assert_eq!(feed_attempt.outcome, AttemptOutcome::Success, "{name}");
        assert!(
            feed_attempt
                .detail
                .as_deref()
                .unwrap()
                .contains("3 entries"),
            "{name}"
        );
    }
}

#[tokio::test]
async fn recency_decides_only_for_time_sensitive_topics() {
    let web = SimWeb::start().await;
    let host = "registry.test";
    let u = |p: &str| web.url(host, p).to_string();
    let list = vec![
        FeedItem::new(
            "Annual filing deadline rules explained",
            &u("/a"),
            "2020-01-01",
            "x",
        ),
        FeedItem::new("Filing deadline", &u("/b"), "2026-01-01", "y"),
    ];
    web.route(host, "/feed", feeds::atom("R", &u("/"), &list));
    let f = fetcher(&web);
    let p = build(
        "feed",
        serde_json::json!({"urls": [u("/feed")], "read_pages": false, "max_entries": 1}),
        f,
    )
    .unwrap();
    let mut data = CallData::new("annual filing deadline rules", "static_reference", STEP);
    let r = p.run(&data.call()).await.unwrap();
    assert_eq!(r.evidence[0].url.as_str(), u("/a"));
    data.key.topic_type = "news".into();
    let r = p.run(&data.call()).await.unwrap();
    assert_eq!(r.evidence[0].url.as_str(), u("/b"));
    assert_eq!(r.evidence[0].extraction_method, "feed");
    assert_eq!(web.hits(host, "/b"), 0, "read_pages: false reads no page");
}

#[tokio::test]
async fn unreadable_page_falls_back_to_entry_content() {
    let web = SimWeb::start().await;
    let host = "registry.test";
    web.route(
        host,
        "/feed",
        feeds::rss("Registry", web.url(host, "/").as_str(), &items(&web, host)),
    );
    web.route(host, "/new", Fault::CdnBlock(Cdn::Cloudflare));
    web.route(host, "/old", Fault::Gone);
    let f = fetcher(&web);
    let mut data = CallData::new("filing deadline", "news", STEP);
    let mut src = source("registry", host, SourceTier::OfficialSecondary);
    src.feed_urls = vec![web.url(host, "/feed").to_string()];
    data.sources = vec![src];
    let p = build("feed", serde_json::json!({"max_entries": 2}), f).unwrap();
    let report = p.run(&data.call()).await.unwrap();
    assert_eq!(report.evidence.len(), 2);
    let ev = &report.evidence[0];
    assert_eq!(ev.extraction_method, "feed");
    assert_eq!(ev.title, "Filing deadline for 2026");
    assert!(ev.text.contains("31 March 2026"));
    assert_eq!(ev.tier_hint, Some(SourceTier::OfficialSecondary));
    assert_eq!(
        ev.published_at.as_deref().map(|d| &d[..10]),
        Some("2026-02-01")
    );
    let p0 = &ev.passages[0];
    assert_eq!(&ev.text[p0.start..p0.end], p0.text);
    let codes: Vec<_> = report
        .attempts
        .iter()
        .filter_map(|a| a.failure_code)
        .collect();
    assert_eq!(
        codes,
        [
            FailureCode::SourceBlockedByCdn,
            FailureCode::Source404OrRemoved
        ]
    );
    assert!(
        report.attempts[1]
            .detail
            .as_deref()
            .unwrap()
            .contains("feed entry")
    );
}

#[tokio::test]
async fn malformed_and_unreachable_feeds_are_clear_attempt_failures() {
    let web = SimWeb::start().await;
    let host = "registry.test";
    let site = web.url(host, "/").to_string();
    let list = items(&web, host);
    web.route(host, "/rss", feeds::rss_malformed("R", &site, &list));
    web.route(host, "/atom", feeds::atom_malformed("R", &site, &list));
    web.route(host, "/json", feeds::json_feed_malformed("R", &site, &list));
    web.route(
        host,
        "/html",
        Response::html(pages::article("Not a feed", "R", "2026-01-01", PARAS)),
    );
    web.route(host, "/missing", Fault::NotFound);
    let f = fetcher(&web);
    let urls: Vec<String> = ["/rss", "/atom", "/json", "/html", "/missing"]
        .iter()
        .map(|p| web.url(host, p).to_string())
        .collect();
    let p = build("feed", serde_json::json!({"urls": urls}), f).unwrap();
    let data = CallData::new("filing deadline", "news", STEP);
    let report = p.run(&data.call()).await.unwrap();
    assert!(report.evidence.is_empty());
    for (i, url) in urls.iter().enumerate() {
        let a = report
            .attempts
            .iter()
            .find(|a| a.target.as_deref() == Some(url.as_str()))
            .unwrap();
        let want = if i == 4 {
            FailureCode::Source404OrRemoved
        } else {
            FailureCode::SourceExtractionFailed
        };
        assert_eq!(a.failure_code, Some(want), "{url}: {a:?}");
        if i < 4 {
            let d = a.detail.as_deref().unwrap();
            assert!(
                d.contains(url.as_str())
                    || d.contains("/rss")
                    || d.contains("/atom")
                    || d.contains("/json"),
                "{d}"
            );
        }
    }
    assert_eq!(
        report.attempts.last().unwrap().outcome,
        AttemptOutcome::Empty
    );
}

#[tokio::test]
async fn max_age_and_config_errors() {
    let web = SimWeb::start().await;
    let host = "registry.test";
    web.route(
        host,
        "/feed",
        feeds::json_feed("R", web.url(host, "/").as_str(), &items(&web, host)),
    );
    let f = fetcher(&web);
    let url = web.url(host, "/feed").to_string();
    let p = build(
        "feed",
        serde_json::json!({"urls": [url], "read_pages": false, "max_age_days": 365}),
        f.clone(),
    )
    .unwrap();
    let mut data = CallData::new("filing deadline", "default", STEP);
    data.request.as_of = Some(jiff::civil::date(2026, 3, 10));
    let report = p.run(&data.call()).await.unwrap();
    assert_eq!(report.evidence.len(), 1, "the 2024 entry is too old");
    assert_eq!(report.evidence[0].title, "Filing deadline for 2026");

    for (cfg, field) in [
        (serde_json::json!({"max_entries": 0}), Some("max_entries")),
        (serde_json::json!({"urls": ["nope"]}), Some("urls[0]")),
        (serde_json::json!({"read_page": true}), None),
    ] {
        match build("feed", cfg.clone(), f.clone()) {
            Err(sgw_contract::FactoryError::Config {
                field: got,
                message,
            }) => {
                if field.is_some() {
                    assert_eq!(got.as_deref(), field, "{cfg}: {message}");
                } else {
                    assert!(message.contains("read_page"), "{message}");
                }
            }
            other => panic!("{cfg}: {:?}", other.err()),
        }
    }
}
