//! Content builders: legacy encodings, feeds, search APIs, discovery documents.

use sgw_testkit::brave::{self, BraveResult};
use sgw_testkit::feeds::{self, FeedItem};
use sgw_testkit::searxng::{self, SearxResult};
use sgw_testkit::wayback::{self, Snapshot};
use sgw_testkit::{Response, SimWeb, opensearch, pages, robots::Robots, sitemap};

use crate::support::{client, find};

async fn json(r: reqwest::Response) -> serde_json::Value {
    serde_json::from_slice(&r.bytes().await.unwrap()).unwrap()
}

async fn get(web: &SimWeb, host: &str, path: &str) -> reqwest::Response {
    client(web).get(web.url(host, path)).send().await.unwrap()
}

#[tokio::test]
async fn windows_1252_page_is_really_encoded_and_declared_only_in_meta() {
    let web = SimWeb::start().await;
    let text = "Café crème – “quoted” for 5 €";
    web.route(
        "old.test",
        "/",
        pages::legacy_charset(encoding_rs::WINDOWS_1252, "Menu", &[text]),
    );
    let r = get(&web, "old.test", "/").await;
    assert_eq!(
        r.headers()["content-type"],
        "text/html",
        "no charset in HTTP"
    );
    let bytes = r.bytes().await.unwrap();
    assert!(find(&bytes, b"charset=windows-1252").is_some());
    assert!(find(&bytes, b"Caf\xe9 cr\xe8me \x96 \x93quoted\x94 for 5 \x80").is_some());
    assert!(std::str::from_utf8(&bytes).is_err(), "must not be UTF-8");
    let (decoded, _, bad) = encoding_rs::WINDOWS_1252.decode(&bytes);
    assert!(!bad && decoded.contains(text));
}

#[tokio::test]
async fn shift_jis_page_is_really_encoded() {
    let web = SimWeb::start().await;
    let text = "日本語のページです。価格は１０００円。";
    web.route(
        "jp.test",
        "/",
        pages::legacy_charset(encoding_rs::SHIFT_JIS, "日本", &[text]),
    );
    let bytes = get(&web, "jp.test", "/").await.bytes().await.unwrap();
    assert!(find(&bytes, b"charset=Shift_JIS").is_some());
    // 日本語 in Shift_JIS.
    assert!(find(&bytes, &[0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]).is_some());
    assert!(std::str::from_utf8(&bytes).is_err());
    let (decoded, _, bad) = encoding_rs::SHIFT_JIS.decode(&bytes);
    assert!(!bad && decoded.contains(text));
}

fn items() -> Vec<FeedItem> {
    vec![
        FeedItem::new(
            "Rate decision",
            "http://news.test/rates",
            "2024-01-15",
            "The bank kept rates at 4.5% & said so.",
        ),
        FeedItem::new(
            "Annual report",
            "http://news.test/report",
            "2023-12-01T09:30:00Z",
            "Report <b>published</b>.",
        ),
    ]
}

#[tokio::test]
async fn valid_feeds_parse_and_malformed_ones_do_not() {
    let web = SimWeb::start().await;
    web.route(
        "news.test",
        "/rss",
        feeds::rss("News", "http://news.test/", &items()),
    );
    web.route(
        "news.test",
        "/atom",
        feeds::atom("News", "http://news.test/", &items()),
    );
    web.route(
        "news.test",
        "/json",
        feeds::json_feed("News", "http://news.test/", &items()),
    );
    web.route(
        "news.test",
        "/bad-rss",
        feeds::rss_malformed("News", "http://news.test/", &items()),
    );
    web.route(
        "news.test",
        "/bad-atom",
        feeds::atom_malformed("News", "http://news.test/", &items()),
    );
    web.route(
        "news.test",
        "/bad-json",
        feeds::json_feed_malformed("News", "http://news.test/", &items()),
    );

    for (path, ct) in [
        ("/rss", "application/rss+xml"),
        ("/atom", "application/atom+xml"),
        ("/json", "application/feed+json"),
    ] {
        let r = get(&web, "news.test", path).await;
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with(ct)
        );
        let body = r.bytes().await.unwrap();
        let feed = feed_rs::parser::parse(&body[..]).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(feed.entries.len(), 2, "{path}");
        assert_eq!(
            feed.entries[0].title.as_ref().unwrap().content,
            "Rate decision"
        );
        let published = feed.entries[0].published.unwrap();
        assert_eq!(
            published.to_rfc3339(),
            "2024-01-15T00:00:00+00:00",
            "{path}"
        );
        assert_eq!(feed.entries[0].links[0].href, "http://news.test/rates");
    }
    let rss = get(&web, "news.test", "/rss").await.text().await.unwrap();
    assert!(rss.contains("<pubDate>Mon, 15 Jan 2024 00:00:00 +0000</pubDate>"));

    for path in ["/bad-rss", "/bad-atom", "/bad-json"] {
        let body = get(&web, "news.test", path).await.bytes().await.unwrap();
        let parsed = feed_rs::parser::parse(&body[..]);
        let complete = parsed.as_ref().is_ok_and(|f| f.entries.len() == 2);
        assert!(!complete, "{path} parsed completely: {parsed:?}");
    }
    let bad_json = get(&web, "news.test", "/bad-json")
        .await
        .bytes()
        .await
        .unwrap();
    assert!(serde_json::from_slice::<serde_json::Value>(&bad_json).is_err());
}

#[tokio::test]
async fn searxng_json_has_the_documented_shape() {
    let web = SimWeb::start().await;
    web.route_fn("searx.test", "/search", |req| {
        let q = req.query_param("q").unwrap_or_default();
        if req.query_param("format").as_deref() != Some("json") {
            return Response::new(403).body("format not allowed").into();
        }
        if q == "blocked" {
            return searxng::unresponsive(&q, &[("google", "CAPTCHA"), ("bing", "timeout")]).into();
        }
        searxng::results(
            &q,
            &[
                SearxResult::new(
                    "http://official.test/rates",
                    "Rates",
                    "The rate is 4.5%",
                    "google",
                )
                .published("2024-01-15T00:00:00"),
                SearxResult::new("http://blog.test/x", "Blog", "someone said", "bing"),
            ],
        )
        .into()
    });
    let r = get(&web, "searx.test", "/search?q=policy+rate&format=json").await;
    assert_eq!(r.headers()["content-type"], "application/json");
    let v = json(r).await;
    assert_eq!(v["query"], "policy rate");
    assert_eq!(v["number_of_results"], 2);
    let first = &v["results"][0];
    for k in [
        "url",
        "title",
        "content",
        "engine",
        "publishedDate",
        "parsed_url",
        "engines",
        "score",
    ] {
        assert!(!first[k].is_null(), "missing {k}");
    }
    assert!(v["results"][1].get("publishedDate").is_none());
    for k in [
        "answers",
        "infoboxes",
        "suggestions",
        "unresponsive_engines",
    ] {
        assert!(v[k].is_array(), "{k}");
    }

    let v = json(get(&web, "searx.test", "/search?q=blocked&format=json").await).await;
    assert_eq!(v["results"].as_array().unwrap().len(), 0);
    assert_eq!(v["number_of_results"], 0);
    assert_eq!(
        v["unresponsive_engines"],
        serde_json::json!([["google", "CAPTCHA"], ["bing", "timeout"]])
    );

    assert_eq!(get(&web, "searx.test", "/search?q=x").await.status(), 403);
}

#[tokio::test]
async fn brave_json_has_web_results() {
    let v = brave::value(
        "rates",
        &[BraveResult::new(
            "Rates",
            "http://official.test/rates",
            "The <strong>rate</strong>",
        )
        .page_age("2024-01-15T09:00:00")],
    );
    let r = &v["web"]["results"][0];
    assert_eq!(r["title"], "Rates");
    assert_eq!(r["url"], "http://official.test/rates");
    assert_eq!(r["description"], "The <strong>rate</strong>");
    assert_eq!(r["page_age"], "2024-01-15T09:00:00");
    assert_eq!(r["meta_url"]["hostname"], "official.test");
    let e = brave::invalid_token();
    assert_eq!(e.status, 422);
}

#[tokio::test]
async fn opensearch_discovery_chain() {
    let web = SimWeb::start().await;
    let template = format!("{}?q={{searchTerms}}", web.url("docs.test", "/search"));
    web.route(
        "docs.test",
        "/",
        Response::html(pages::home("Docs", "/opensearch.xml", &[("/a", "A")])),
    );
    web.route(
        "docs.test",
        "/opensearch.xml",
        opensearch::description("Docs", &template),
    );
    let home = get(&web, "docs.test", "/").await.text().await.unwrap();
    assert!(home.contains(
        r#"<link rel="search" type="application/opensearchdescription+xml" title="Docs" href="/opensearch.xml">"#
    ));
    let r = get(&web, "docs.test", "/opensearch.xml").await;
    assert_eq!(
        r.headers()["content-type"],
        "application/opensearchdescription+xml"
    );
    let xml = r.text().await.unwrap();
    assert!(xml.contains(&format!(
        r#"<Url type="text/html" method="get" template="{template}"/>"#
    )));
    assert!(xml.contains("{searchTerms}"));
}

#[tokio::test]
async fn robots_sitemap_and_wayback() {
    let web = SimWeb::start().await;
    let robots = Robots::new()
        .agent("*")
        .disallow("/private")
        .allow("/private/press")
        .crawl_delay(2)
        .agent("BadBot")
        .disallow("/")
        .sitemap("http://r.test/sitemap.xml");
    web.route("r.test", "/robots.txt", robots);
    web.route(
        "r.test",
        "/sitemap.xml",
        sitemap::xml(&[
            ("http://r.test/a?x=1&y=2", Some("2024-01-15")),
            ("http://r.test/b", None),
        ]),
    );
    web.route_fn(
        "archive.test",
        "/wayback/available",
        wayback::handler(vec![Snapshot {
            original: "http://r.test/a".into(),
            archived_url: "http://archive.test/web/20240101000000/http://r.test/a".into(),
            timestamp: "20240101000000".into(),
        }]),
    );
    let r = get(&web, "r.test", "/robots.txt").await;
    assert_eq!(r.headers()["content-type"], "text/plain; charset=utf-8");
    assert_eq!(
        r.text().await.unwrap(),
        "# robots.txt\nUser-agent: *\nDisallow: /private\nAllow: /private/press\nCrawl-delay: 2\n\nUser-agent: BadBot\nDisallow: /\n\nSitemap: http://r.test/sitemap.xml\n"
    );
    let sm = get(&web, "r.test", "/sitemap.xml")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        sm.contains("<loc>http://r.test/a?x=1&amp;y=2</loc>\n    <lastmod>2024-01-15</lastmod>")
    );
    assert_eq!(sm.matches("<lastmod>").count(), 1);

    let v = json(
        get(
            &web,
            "archive.test",
            "/wayback/available?url=https://r.test/a/",
        )
        .await,
    )
    .await;
    let c = &v["archived_snapshots"]["closest"];
    assert_eq!(c["available"], true);
    assert_eq!(c["status"], "200");
    assert_eq!(c["timestamp"], "20240101000000");
    assert_eq!(
        c["url"],
        "http://archive.test/web/20240101000000/http://r.test/a"
    );
    let v = json(
        get(
            &web,
            "archive.test",
            "/wayback/available?url=http://r.test/zzz",
        )
        .await,
    )
    .await;
    assert_eq!(v["archived_snapshots"], serde_json::json!({}));
}

#[tokio::test]
async fn article_page_carries_metadata() {
    let html = pages::article(
        "Rates <up>",
        "Official Bank",
        "2024-01-15",
        &["First & foremost.", "Second."],
    );
    assert!(html.contains("<title>Rates &lt;up&gt; | Official Bank</title>"));
    assert!(html.contains(r#"<meta property="article:published_time" content="2024-01-15">"#));
    assert!(html.contains(r#"<time datetime="2024-01-15">"#));
    assert!(html.contains("<p>First &amp; foremost.</p>"));
    assert!(html.contains(r#""@type":"NewsArticle""#));
    let s = pages::site_search_results("Bank", "none", &[]);
    assert!(s.contains("No results found for <strong>none</strong>"));
}
