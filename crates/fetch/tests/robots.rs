//! robots.txt: disallowed paths are never requested.

use crate::common::{config, fetcher, page};
use sgw_contract::FailureCode as C;
use sgw_fetch::{FetchRequest, Fetcher};
use sgw_testkit::{Response, SimWeb, robots::Robots};
use std::time::{Duration, Instant};

fn site(web: &SimWeb, host: &str) {
    for p in [
        "/public/a",
        "/public/b",
        "/private/secret",
        "/private/press",
    ] {
        web.route(
            host,
            p,
            Response::html(format!(
                "<html><body><p>Page {p} with enough words to read as content.</p></body></html>"
            )),
        );
    }
}

#[tokio::test]
async fn disallowed_path_is_never_requested() {
    let web = SimWeb::start().await;
    site(&web, "r.test");
    web.route(
        "r.test",
        "/robots.txt",
        Robots::new()
            .agent("*")
            .disallow("/private")
            .allow("/private/press")
            .response(),
    );
    let f = fetcher(&web);
    let e = page(&f, &web, "r.test", "/private/secret")
        .await
        .unwrap_err();
    assert_eq!(e.code, C::SourceRobotsDisallowed);
    assert!(e.message.contains("robots.txt"), "{e}");
    assert!(!e.is_temporary());
    assert_eq!(web.hits("r.test", "/private/secret"), 0);
    page(&f, &web, "r.test", "/private/press").await.unwrap();
    page(&f, &web, "r.test", "/public/a").await.unwrap();
    page(&f, &web, "r.test", "/public/b").await.unwrap();
    // Fetched once per origin, then cached.
    assert_eq!(web.hits("r.test", "/robots.txt"), 1);
    // APIs the operator configured are not subject to robots.txt.
    f.fetch(&FetchRequest::api(web.url("r.test", "/private/secret")))
        .await
        .unwrap();
    assert_eq!(web.hits("r.test", "/private/secret"), 1);
}

#[tokio::test]
async fn our_agent_group_applies() {
    let web = SimWeb::start().await;
    site(&web, "g.test");
    web.route(
        "g.test",
        "/robots.txt",
        Robots::new()
            .agent("*")
            .disallow("")
            .agent("SearchGatewayBot")
            .disallow("/public/b")
            .response(),
    );
    let f = fetcher(&web);
    page(&f, &web, "g.test", "/public/a").await.unwrap();
    assert_eq!(
        page(&f, &web, "g.test", "/public/b")
            .await
            .unwrap_err()
            .code,
        C::SourceRobotsDisallowed
    );
    assert_eq!(web.hits("g.test", "/public/b"), 0);
}

#[tokio::test]
async fn missing_robots_allows_unavailable_disallows() {
    let web = SimWeb::start().await;
    site(&web, "none.test");
    site(&web, "down.test");
    web.route(
        "down.test",
        "/robots.txt",
        Response::new(503).body("maintenance"),
    );
    let f = fetcher(&web);
    page(&f, &web, "none.test", "/private/secret")
        .await
        .unwrap();
    let e = page(&f, &web, "down.test", "/public/a").await.unwrap_err();
    assert_eq!(e.code, C::SourceRobotsDisallowed);
    assert!(e.message.contains("503"), "{e}");
    assert_eq!(web.hits("down.test", "/public/a"), 0);
}

#[tokio::test]
async fn robots_disabled_or_redirect_hop_checked() {
    let web = SimWeb::start().await;
    site(&web, "x.test");
    web.route(
        "x.test",
        "/robots.txt",
        Robots::new().agent("*").disallow("/private").response(),
    );
    web.route(
        "y.test",
        "/go",
        Response::redirect(302, web.url("x.test", "/private/secret").as_ref()),
    );
    let f = fetcher(&web);
    // A redirect into a disallowed path is refused at that hop.
    let e = page(&f, &web, "y.test", "/go").await.unwrap_err();
    assert_eq!(e.code, C::SourceRobotsDisallowed);
    assert_eq!(web.hits("x.test", "/private/secret"), 0);
    let mut cfg = config(&web);
    cfg.robots.enabled = false;
    Fetcher::new(cfg)
        .unwrap()
        .fetch(&FetchRequest::page(web.url("x.test", "/private/secret")))
        .await
        .unwrap();
}

#[tokio::test]
async fn crawl_delay_is_respected_up_to_the_deadline() {
    let web = SimWeb::start().await;
    site(&web, "slow.test");
    web.route(
        "slow.test",
        "/robots.txt",
        Robots::new().agent("*").crawl_delay(20).response(),
    );
    let f = fetcher(&web);
    let deadline = Instant::now() + Duration::from_secs(1);
    page(&f, &web, "slow.test", "/public/a").await.unwrap();
    // The next request may only start 20 s later: past this deadline.
    let e = f
        .fetch(&FetchRequest::page(web.url("slow.test", "/public/b")).with_deadline(deadline))
        .await
        .unwrap_err();
    assert_eq!(e.code, C::SearchProviderRateLimited);
    assert!(e.message.contains("Crawl-delay"), "{e}");
    assert_eq!(web.hits("slow.test", "/public/b"), 0);
}
