//! Host routing, runtime switching, hit counting, dynamic handlers, policy fragment.

use std::net::{IpAddr, Ipv4Addr};

use sgw_testkit::{Fault, Response, SimWeb, pages};

use crate::support::client;

#[tokio::test]
async fn routes_by_host_header_on_one_listener() {
    let web = SimWeb::start().await;
    web.route("official.test", "/page", Response::html("<p>official</p>"));
    web.route("mirror.test", "/page", Response::html("<p>mirror</p>"));
    let c = client(&web);

    let a = c
        .get(web.url("official.test", "/page"))
        .send()
        .await
        .unwrap();
    assert_eq!(a.status(), 200);
    assert_eq!(a.headers()["content-type"], "text/html; charset=utf-8");
    assert_eq!(a.text().await.unwrap(), "<p>official</p>");
    let b = c.get(web.url("mirror.test", "/page")).send().await.unwrap();
    assert_eq!(b.text().await.unwrap(), "<p>mirror</p>");

    assert_eq!(web.addr().ip(), IpAddr::V4(Ipv4Addr::LOCALHOST));
    assert_ne!(web.port(), 0);
    assert_eq!(
        web.url("official.test", "/page").as_str(),
        format!("http://official.test:{}/page", web.port())
    );
    assert_eq!(
        web.hosts(),
        vec!["mirror.test".to_owned(), "official.test".to_owned()]
    );
}

#[tokio::test]
async fn unknown_host_is_421_and_unknown_path_is_404_page() {
    let web = SimWeb::start().await;
    web.route("known.test", "/", Response::html("home"));
    let c = client(&web);
    // Unknown host: ask the listener directly with another Host header.
    let r = c
        .get(format!("http://127.0.0.1:{}/", web.port()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 421);
    assert!(r.text().await.unwrap().contains("127.0.0.1"));

    let r = c.get(web.url("known.test", "/nope")).send().await.unwrap();
    assert_eq!(r.status(), 404);
    assert!(r.text().await.unwrap().contains("Page not found"));
}

#[tokio::test]
async fn host_matching_ignores_case_and_port() {
    let web = SimWeb::start().await;
    web.route("Official.Test", "/x", Response::text("x"));
    let raw = crate::support::raw_get(
        &web,
        "OFFICIAL.test",
        "/x",
        std::time::Duration::from_secs(5),
        usize::MAX,
    )
    .await;
    assert_eq!(raw.status(), 200);
    assert_eq!(raw.body, b"x");
}

#[tokio::test]
async fn switching_a_route_at_runtime_replaces_it() {
    let web = SimWeb::start().await;
    web.route("site.test", "/doc", Response::html("v1"));
    let c = client(&web);
    let url = web.url("site.test", "/doc");
    assert_eq!(
        c.get(url.clone())
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
        "v1"
    );
    web.route("site.test", "/doc", Fault::Gone);
    assert_eq!(c.get(url.clone()).send().await.unwrap().status(), 410);
    web.route("site.test", "/doc", Response::html("v3"));
    assert_eq!(
        c.get(url.clone())
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
        "v3"
    );
    assert!(web.unroute("site.test", "/doc"));
    assert!(!web.unroute("site.test", "/doc"));
    assert_eq!(c.get(url).send().await.unwrap().status(), 404);
}

#[tokio::test]
async fn prefix_routes_longest_wins_and_exact_beats_prefix() {
    let web = SimWeb::start().await;
    web.route("p.test", "/docs/*", Response::text("docs"));
    web.route("p.test", "/docs/api/*", Response::text("api"));
    web.route("p.test", "/docs/api/index", Response::text("exact"));
    let c = client(&web);
    let get = |p: &'static str| {
        let c = c.clone();
        let u = web.url("p.test", p);
        async move { c.get(u).send().await.unwrap().text().await.unwrap() }
    };
    assert_eq!(get("/docs/guide").await, "docs");
    assert_eq!(get("/docs/api/x").await, "api");
    assert_eq!(get("/docs/api/index").await, "exact");
}

#[tokio::test]
async fn hits_count_per_path_and_log_keeps_headers() {
    let web = SimWeb::start().await;
    web.route(
        "r.test",
        "/robots.txt",
        Response::text("User-agent: *\nDisallow: /private\n"),
    );
    let c = client(&web);
    for q in ["", "?a=1", "?b=2"] {
        c.get(web.url("r.test", &format!("/private{q}")))
            .header("user-agent", "sgw-test/1")
            .send()
            .await
            .unwrap();
    }
    c.get(web.url("r.test", "/robots.txt"))
        .send()
        .await
        .unwrap();
    assert_eq!(web.hits("r.test", "/private"), 3);
    assert_eq!(web.hits("r.test", "/robots.txt"), 1);
    assert_eq!(web.hits("r.test", "/other"), 0);
    assert_eq!(web.hits("other.test", "/private"), 0);
    assert_eq!(web.host_hits("r.test"), 4);
    let log = web.requests();
    assert_eq!(log.len(), 4);
    assert_eq!(log[1].path, "/private");
    assert_eq!(log[1].query.as_deref(), Some("a=1"));
    assert_eq!(log[1].header("user-agent"), Some("sgw-test/1"));
    web.reset_counters();
    assert_eq!(web.hits("r.test", "/private"), 0);
    assert!(web.requests().is_empty());
}

#[tokio::test]
async fn dynamic_handler_sees_the_query_and_a_panic_is_a_500() {
    let web = SimWeb::start().await;
    web.route_fn("s.test", "/search", |req| {
        let q = req.query_param("q").unwrap_or_default();
        if q == "boom" {
            panic!("handler exploded");
        }
        if q == "block" {
            return Fault::RateLimited { retry_after: None }.into();
        }
        Response::html(pages::site_search_results(
            "S",
            &q,
            &[("/a", "A", "about a")],
        ))
        .into()
    });
    let c = client(&web);
    let r = c
        .get(web.url("s.test", "/search?q=caf%C3%A9+cr%C3%A8me&format=json"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.text().await.unwrap().contains("café crème"));
    let r = c
        .get(web.url("s.test", "/search?q=block"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    let r = c
        .get(web.url("s.test", "/search?q=boom"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 500);
    // The server survives the panic.
    let r = c
        .get(web.url("s.test", "/search?q=ok"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn policy_fragment_and_resolve_overrides_name_every_host() {
    let web = SimWeb::start().await;
    web.route("official.test", "/", Response::html("o"));
    web.add_host("cdn.test");
    let o = web.resolve_overrides();
    assert_eq!(
        o,
        vec![
            ("cdn.test".to_owned(), IpAddr::V4(Ipv4Addr::LOCALHOST)),
            ("official.test".to_owned(), IpAddr::V4(Ipv4Addr::LOCALHOST)),
        ]
    );
    assert_eq!(
        web.policy_fragment(),
        "network:\n  resolve:\n    cdn.test: 127.0.0.1\n    official.test: 127.0.0.1\n  allow_hosts: [cdn.test, official.test]\n"
    );
}

#[tokio::test]
async fn dropping_the_web_closes_the_listener() {
    let web = SimWeb::start().await;
    let addr = web.addr();
    drop(web);
    // The accept task is aborted; give the runtime a turn to drop the socket.
    let mut refused = false;
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(addr).await.is_err() {
            refused = true;
            break;
        }
        tokio::task::yield_now().await;
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert!(refused, "listener still accepting after drop");
}

/// Blocking GET over std sockets: what a child process does while the test
/// thread waits for it.
fn blocking_get(addr: std::net::SocketAddr, host: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn detached_web_serves_plain_blocking_tests() {
    let web = SimWeb::start_detached();
    web.route("official.test", "/rates", Response::html("<p>4.5%</p>"));
    let addr = web.addr();
    // A separate OS thread (like a child process) while this one blocks on it.
    let got = std::thread::spawn(move || blocking_get(addr, "official.test", "/rates"))
        .join()
        .unwrap();
    assert!(got.starts_with("HTTP/1.1 200 OK\r\n"), "{got}");
    assert!(got.ends_with("<p>4.5%</p>"));
    assert_eq!(web.hits("official.test", "/rates"), 1);
    drop(web);
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "closed on drop"
    );
}

#[tokio::test]
async fn detached_web_also_works_inside_a_runtime() {
    let web = SimWeb::start_detached();
    web.route("a.test", "/", Response::text("a"));
    let r = client(&web)
        .get(web.url("a.test", "/"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.text().await.unwrap(), "a");
    drop(web); // joins the server thread without panicking in async context
}

#[tokio::test]
async fn head_requests_get_headers_without_body() {
    let web = SimWeb::start().await;
    web.route("h.test", "/page", Response::html("<p>twelve b</p>"));
    let r = client(&web)
        .head(web.url("h.test", "/page"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-length"], "15");
    assert!(r.bytes().await.unwrap().is_empty());
    assert_eq!(web.requests()[0].method, http::Method::HEAD);
}

#[test]
fn sim_web_can_be_shared_across_tasks() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<SimWeb>();
    assert_send_sync::<sgw_testkit::Fault>();
    assert_send_sync::<sgw_testkit::Reply>();
}
