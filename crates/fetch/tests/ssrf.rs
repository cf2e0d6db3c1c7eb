//! The SSRF guard end to end: direct targets, IP-literal tricks, names that
//! resolve to private addresses, and redirects. Nothing here may connect to a
//! non-loopback address: the guard refuses before connecting.

use crate::common::{config, fetcher};
use sgw_contract::FailureCode as C;
use sgw_fetch::{FetchRequest, Fetcher};
use sgw_testkit::{Fault, Private, Response, SimWeb};
use url::Url;

#[tokio::test]
async fn forbidden_targets_are_refused_with_a_reason() {
    let web = SimWeb::start().await;
    let port = web.port();
    web.route(
        "ok.test",
        "/",
        Response::html("<html><body><p>allowed host, plenty of words here.</p></body></html>"),
    );
    let privates = [
        Private::Metadata,
        Private::Rfc1918,
        Private::Loopback,
        Private::Localhost,
        Private::Ipv6Loopback,
        Private::DecimalLoopback,
    ];
    for (i, p) in privates.iter().enumerate() {
        web.route(
            "redir.test",
            &format!("/r{i}"),
            Fault::RedirectToPrivate(*p),
        );
    }
    let mut cfg = config(&web);
    for (name, ip) in [
        ("meta.test", "169.254.169.254"),
        ("intranet.test", "10.0.0.1"),
        ("v6lo.test", "::1"),
        ("lo.test", "127.0.0.1"),
        ("cgnat.test", "100.64.1.1"),
        ("mapped.test", "::ffff:10.0.0.1"),
        ("ula.test", "fd12:3456::1"),
        ("nat64.test", "64:ff9b::a9fe:a9fe"),
    ] {
        cfg.resolve.insert(name.into(), ip.parse().unwrap());
    }
    let f = Fetcher::new(cfg).unwrap();
    let mut targets: Vec<(String, &str)> = [
        (format!("http://127.0.0.1:{port}/"), "loopback"),
        (format!("http://[::1]:{port}/"), "loopback"),
        (format!("http://2130706433:{port}/"), "loopback"),
        (format!("http://0177.0.0.1:{port}/"), "loopback"),
        (format!("http://0x7f.1:{port}/"), "loopback"),
        (format!("http://127.1:{port}/"), "loopback"),
        (format!("http://0.0.0.0:{port}/"), "unspecified"),
        (format!("http://0:{port}/"), "unspecified"),
        (format!("http://[::ffff:127.0.0.1]:{port}/"), "loopback"),
        ("http://10.0.0.1/".into(), "RFC 1918"),
        ("http://172.16.5.4/".into(), "RFC 1918"),
        ("http://192.168.1.1/".into(), "RFC 1918"),
        (
            "http://169.254.169.254/latest/meta-data/".into(),
            "metadata",
        ),
        ("http://[::ffff:a9fe:a9fe]/".into(), "metadata"),
        ("http://100.64.0.1/".into(), "carrier-grade NAT"),
        ("http://[fd00::1]/".into(), "unique-local"),
        ("http://[fe80::1]/".into(), "link-local"),
        ("http://224.0.0.1/".into(), "multicast"),
        ("http://255.255.255.255/".into(), "broadcast"),
        ("http://198.18.0.1/".into(), "benchmarking"),
        ("http://192.0.2.1/".into(), "documentation"),
        ("http://[64:ff9b::a00:1]/".into(), "NAT64"),
        (format!("http://localhost:{port}/"), "loopback"),
        (format!("http://meta.test:{port}/"), "metadata"),
        (format!("http://intranet.test:{port}/"), "RFC 1918"),
        (format!("http://v6lo.test:{port}/"), "loopback"),
        (format!("http://lo.test:{port}/"), "loopback"),
        (format!("http://cgnat.test:{port}/"), "carrier-grade NAT"),
        (format!("http://mapped.test:{port}/"), "RFC 1918"),
        (format!("http://ula.test:{port}/"), "unique-local"),
        (format!("http://nat64.test:{port}/"), "metadata"),
    ]
    .into_iter()
    .collect();
    for i in 0..privates.len() {
        targets.push((
            web.url("redir.test", &format!("/r{i}")).to_string(),
            "forbidden",
        ));
    }
    assert!(targets.len() >= 25);
    for kind in [FetchRequest::page, FetchRequest::api] {
        for (target, reason) in &targets {
            let url = Url::parse(target).unwrap();
            let e = f.fetch(&kind(url)).await.expect_err(target);
            assert_eq!(e.code, C::SourceAddressForbidden, "{target}: {e}");
            assert!(
                e.message.contains(reason),
                "{target}: reason should mention `{reason}`: {e}"
            );
            assert!(!e.is_temporary());
        }
    }
    // Only the redirecting host was ever reached; no request hit a refused target.
    assert!(
        web.requests().iter().all(|r| r.host == "redir.test"),
        "{:?}",
        web.requests().iter().map(|r| &r.host).collect::<Vec<_>>()
    );
    // Allow-listed hosts pass.
    let r = f
        .fetch(&FetchRequest::page(web.url("ok.test", "/")))
        .await
        .unwrap();
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn allow_private_networks_lets_loopback_through() {
    let web = SimWeb::start().await;
    let mut cfg = config(&web);
    cfg.allow_private_networks = vec!["127.0.0.0/8".parse().unwrap()];
    let f = Fetcher::new(cfg).unwrap();
    // The simulated web answers an unknown Host with 421: what matters is that
    // the guard let the connection happen.
    let url = Url::parse(&format!("http://127.0.0.1:{}/x", web.port())).unwrap();
    let res = f.fetch(&FetchRequest::api(url)).await;
    if let Err(e) = &res {
        assert_ne!(e.code, C::SourceAddressForbidden, "{e}");
    }
    assert!(!web.requests().is_empty());
    let _ = fetcher(&web);
}

#[tokio::test]
async fn non_http_schemes_are_refused() {
    let web = SimWeb::start().await;
    let f = fetcher(&web);
    for u in [
        "file:///etc/passwd",
        "ftp://example.invalid/x",
        "gopher://127.0.0.1:70/",
    ] {
        let e = f
            .fetch(&FetchRequest::page(Url::parse(u).unwrap()))
            .await
            .unwrap_err();
        assert_eq!(e.code, C::SourceAddressForbidden, "{u}");
    }
}
