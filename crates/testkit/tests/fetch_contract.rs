//! `policy_fragment()` is the `network:` section `sgw-fetch` really reads:
//! parse it into `FetchConfig`, validate it, and fetch through it.

use sgw_fetch::{FetchConfig, FetchRequest, Fetcher};
use sgw_testkit::{Fault, Private, Response, SimWeb, pages};

#[derive(serde::Deserialize)]
struct Policy {
    network: FetchConfig,
}

fn config(web: &SimWeb) -> FetchConfig {
    let yaml = web.policy_fragment();
    let policy: Policy = serde_saphyr::from_str(&yaml)
        .unwrap_or_else(|e| panic!("fragment is not a valid network section: {e}\n{yaml}"));
    policy.network.validate().unwrap();
    policy.network
}

#[tokio::test]
async fn fragment_parses_into_fetch_config_and_reaches_the_hosts() {
    let web = SimWeb::start().await;
    web.route(
        "official.test",
        "/rates",
        Response::html(pages::article(
            "Rates",
            "Official Bank",
            "2024-01-15",
            &["The rate is 4.5%."],
        )),
    );
    web.route("other.test", "/", Response::html("other"));
    let cfg = config(&web);
    assert_eq!(cfg.resolve.len(), 2);
    assert_eq!(
        cfg.allow_hosts,
        vec!["official.test".to_owned(), "other.test".to_owned()]
    );

    let fetcher = Fetcher::new(cfg).unwrap();
    let resp = fetcher
        .fetch(&FetchRequest::page(web.url("official.test", "/rates")))
        .await
        .unwrap();
    assert_eq!(resp.status, 200);
    assert!(String::from_utf8_lossy(&resp.body).contains("The rate is 4.5%."));
    assert_eq!(web.hits("official.test", "/rates"), 1);
}

#[tokio::test]
async fn fragment_does_not_open_raw_loopback_to_redirects() {
    let web = SimWeb::start().await;
    web.route(
        "official.test",
        "/go",
        Fault::RedirectToPrivate(Private::Loopback),
    );
    let fetcher = Fetcher::new(config(&web)).unwrap();
    let res = fetcher
        .fetch(&FetchRequest::page(web.url("official.test", "/go")))
        .await;
    let err = res.expect_err("redirect to 127.0.0.1 must be refused");
    // The hop at fault is the private one, refused before any request.
    assert_eq!(err.url.host_str(), Some("127.0.0.1"), "{err:?}");
    assert_eq!(err.http_status, None, "{err:?}");
    assert_eq!(web.hits("127.0.0.1", "/"), 0);
}
