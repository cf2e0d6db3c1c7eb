//! Each fault at the byte level: status, headers, body markers, timing shape.

use std::time::Duration;

use sgw_testkit::{Captcha, Cdn, Challenge, Fault, Login, Private, Response, RetryAfter, SimWeb};

use crate::support::{client, client_with_timeout, contains, raw_get};

async fn serve(fault: Fault) -> (SimWeb, reqwest::Response) {
    let web = SimWeb::start().await;
    web.route("f.test", "/p", fault);
    let r = client(&web)
        .get(web.url("f.test", "/p"))
        .send()
        .await
        .unwrap();
    (web, r)
}

fn h(r: &reqwest::Response, name: &str) -> String {
    r.headers()
        .get(name)
        .unwrap_or_else(|| panic!("missing header {name}"))
        .to_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn hang_accepts_and_never_answers() {
    let web = SimWeb::start().await;
    web.route("f.test", "/hang", Fault::Hang);
    let c = client_with_timeout(&web, Duration::from_millis(300));
    let err = c
        .get(web.url("f.test", "/hang"))
        .send()
        .await
        .expect_err("a hanging route must not answer");
    assert!(err.is_timeout(), "{err:?}");
    assert_eq!(
        web.hits("f.test", "/hang"),
        1,
        "the request was accepted and read"
    );
    // Raw: the connection is open, silent, not closed.
    let raw = raw_get(&web, "f.test", "/hang", Duration::from_millis(200), 1).await;
    assert!(raw.head.is_empty() && !raw.eof, "{raw:?}");
}

#[tokio::test]
async fn slow_drip_sends_one_chunk_then_waits() {
    let web = SimWeb::start().await;
    web.route(
        "f.test",
        "/slow",
        Fault::SlowDrip {
            chunk: 16,
            every: Duration::from_secs(3600),
            total: 1 << 20,
        },
    );
    // After the first chunk nothing more comes for an hour: we stop reading
    // when the socket stays idle.
    let raw = raw_get(
        &web,
        "f.test",
        "/slow",
        Duration::from_millis(300),
        usize::MAX,
    )
    .await;
    assert_eq!(raw.status(), 200);
    assert_eq!(raw.header("content-length").as_deref(), Some("1048576"));
    assert_eq!(raw.body.len(), 16, "exactly one chunk before the pause");
    assert!(!raw.eof);
}

#[tokio::test]
async fn slow_drip_completes_with_short_pauses() {
    let (_web, r) = serve(Fault::SlowDrip {
        chunk: 10,
        every: Duration::from_millis(1),
        total: 95,
    })
    .await;
    assert_eq!(h(&r, "content-length"), "95");
    assert_eq!(r.bytes().await.unwrap().len(), 95);
}

#[tokio::test]
async fn rate_limited_and_unavailable_carry_retry_after() {
    let (_w, r) = serve(Fault::RateLimited {
        retry_after: Some(RetryAfter::Seconds(120)),
    })
    .await;
    assert_eq!(r.status(), 429);
    assert_eq!(h(&r, "retry-after"), "120");
    assert!(r.text().await.unwrap().contains("429 Too Many Requests"));

    let date = "Wed, 21 Oct 2026 07:28:00 GMT";
    let (_w, r) = serve(Fault::RateLimited {
        retry_after: Some(RetryAfter::Date(date.to_owned())),
    })
    .await;
    assert_eq!(h(&r, "retry-after"), date);

    let (_w, r) = serve(Fault::Unavailable {
        retry_after: Some(RetryAfter::Seconds(30)),
    })
    .await;
    assert_eq!(r.status(), 503);
    assert_eq!(h(&r, "retry-after"), "30");

    let (_w, r) = serve(Fault::Unavailable { retry_after: None }).await;
    assert_eq!(r.status(), 503);
    assert!(r.headers().get("retry-after").is_none());

    let (_w, r) = serve(Fault::RateLimited { retry_after: None }).await;
    assert!(r.headers().get("retry-after").is_none());
    let (_w, r) = serve(Fault::ServerError).await;
    assert_eq!(r.status(), 500);
}

#[tokio::test]
async fn cloudflare_challenge_has_real_shape() {
    for (kind, status) in [
        (Challenge::CloudflareManaged, 403),
        (Challenge::CloudflareUnderAttack, 503),
    ] {
        let (_w, r) = serve(Fault::Challenge(kind)).await;
        assert_eq!(r.status(), status);
        assert_eq!(h(&r, "cf-mitigated"), "challenge");
        assert_eq!(h(&r, "server"), "cloudflare");
        let ray = h(&r, "cf-ray");
        assert!(ray.len() > 10 && ray.contains('-'), "{ray}");
        let body = r.text().await.unwrap();
        assert!(body.contains("<title>Just a moment...</title>"));
        assert!(body.contains("challenges.cloudflare.com"));
        assert!(body.contains("/cdn-cgi/challenge-platform/"));
        assert!(body.contains("Enable JavaScript and cookies to continue"));
        assert!(body.contains("f.test"));
    }
}

#[tokio::test]
async fn captcha_pages_are_200_with_widget_markers() {
    for (kind, markers) in [
        (
            Captcha::Recaptcha,
            ["www.google.com/recaptcha/api.js", "class=\"g-recaptcha\""],
        ),
        (
            Captcha::Hcaptcha,
            ["js.hcaptcha.com/1/api.js", "class=\"h-captcha\""],
        ),
        (
            Captcha::Turnstile,
            [
                "challenges.cloudflare.com/turnstile/v0/api.js",
                "class=\"cf-turnstile\"",
            ],
        ),
    ] {
        let (_w, r) = serve(Fault::Captcha(kind)).await;
        assert_eq!(r.status(), 200);
        assert!(h(&r, "content-type").starts_with("text/html"));
        let body = r.text().await.unwrap();
        for m in markers {
            assert!(body.contains(m), "{kind:?} lacks {m}");
        }
        assert!(body.contains("data-sitekey="));
    }
}

#[tokio::test]
async fn cdn_blocks_have_vendor_headers_and_bodies() {
    let (_w, r) = serve(Fault::CdnBlock(Cdn::Cloudflare)).await;
    assert_eq!(r.status(), 403);
    assert_eq!(h(&r, "server"), "cloudflare");
    assert!(!h(&r, "cf-ray").is_empty());
    assert!(r.headers().get("cf-mitigated").is_none());
    let body = r.text().await.unwrap();
    assert!(body.contains("<span>1020</span>") && body.contains("Access denied"));
    assert!(body.contains("Cloudflare Ray ID:"));

    let (_w, r) = serve(Fault::CdnBlock(Cdn::Akamai)).await;
    assert_eq!(r.status(), 403);
    assert_eq!(h(&r, "server"), "AkamaiGHost");
    let body = r.text().await.unwrap();
    assert!(body.contains("<TITLE>Access Denied</TITLE>"));
    assert!(body.contains("Reference&#32;&#35;18&#46;"), "{body}");

    let (_w, r) = serve(Fault::CdnBlock(Cdn::Fastly)).await;
    assert_eq!(r.status(), 403);
    assert_eq!(h(&r, "via"), "1.1 varnish");
    assert!(h(&r, "x-served-by").starts_with("cache-"));
    assert!(r.headers().get("x-cache").is_some());
    let body = r.text().await.unwrap();
    assert!(body.contains("Error 403 Forbidden") && body.contains("Varnish cache server"));
}

#[tokio::test]
async fn not_found_and_gone() {
    let (_w, r) = serve(Fault::NotFound).await;
    assert_eq!(r.status(), 404);
    assert!(r.text().await.unwrap().contains("<code>/p</code>"));
    let (_w, r) = serve(Fault::Gone).await;
    assert_eq!(r.status(), 410);
    assert!(r.text().await.unwrap().contains("no longer available"));
}

#[tokio::test]
async fn login_walls() {
    let (_w, r) = serve(Fault::Login(Login::Basic)).await;
    assert_eq!(r.status(), 401);
    assert!(h(&r, "www-authenticate").starts_with("Basic realm="));
    let (_w, r) = serve(Fault::Login(Login::Bearer)).await;
    assert_eq!(r.status(), 401);
    assert!(h(&r, "www-authenticate").starts_with("Bearer "));
    assert!(h(&r, "content-type").starts_with("application/json"));

    let (_w, r) = serve(Fault::Login(Login::FormPage)).await;
    assert_eq!(r.status(), 200);
    let body = r.text().await.unwrap();
    assert!(body.contains("type=\"password\"") && body.contains("action=\"/login\""));

    let (_w, r) = serve(Fault::Login(Login::RedirectToLogin)).await;
    assert_eq!(r.status(), 302);
    assert_eq!(h(&r, "location"), "/login?next=%2Fp");
}

#[tokio::test]
async fn js_shell_has_empty_root() {
    let (_w, r) = serve(Fault::JsShell).await;
    assert_eq!(r.status(), 200);
    let body = r.text().await.unwrap();
    assert!(body.contains("<div id=\"root\"></div>"));
    assert!(body.contains("You need to enable JavaScript to run this app."));
}

#[tokio::test]
async fn truncated_body_is_really_short_then_closed() {
    let web = SimWeb::start().await;
    web.route(
        "f.test",
        "/cut",
        Fault::Truncated {
            declared: 10_000,
            sent: 4_000,
        },
    );
    let raw = raw_get(&web, "f.test", "/cut", Duration::from_secs(10), usize::MAX).await;
    assert_eq!(raw.status(), 200);
    assert_eq!(raw.header("content-length").as_deref(), Some("10000"));
    assert_eq!(raw.body.len(), 4_000);
    assert!(raw.eof, "server must close after the short body");
    assert!(raw.body.starts_with(b"<!DOCTYPE html>"));

    let err = client(&web)
        .get(web.url("f.test", "/cut"))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .expect_err("reading a truncated body must fail");
    assert!(err.is_body() || err.is_decode(), "{err:?}");
}

#[tokio::test]
async fn oversized_body_is_streamed_with_or_without_length() {
    use futures::StreamExt;
    let web = SimWeb::start().await;
    let total = 8u64 << 20;
    web.route(
        "f.test",
        "/big",
        Fault::Oversized {
            total,
            declare_length: true,
        },
    );
    web.route(
        "f.test",
        "/big-chunked",
        Fault::Oversized {
            total,
            declare_length: false,
        },
    );
    let c = client(&web);
    let r = c.get(web.url("f.test", "/big")).send().await.unwrap();
    assert_eq!(r.content_length(), Some(total));
    let mut n = 0u64;
    let mut s = r.bytes_stream();
    while let Some(b) = s.next().await {
        n += b.unwrap().len() as u64;
    }
    assert_eq!(n, total);

    let raw = raw_get(&web, "f.test", "/big-chunked", Duration::from_secs(5), 1024).await;
    assert_eq!(raw.header("transfer-encoding").as_deref(), Some("chunked"));
    assert!(raw.header("content-length").is_none());
    let r = c
        .get(web.url("f.test", "/big-chunked"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.bytes().await.unwrap().len() as u64, total);
}

#[tokio::test]
async fn redirect_loop_and_private_targets() {
    let web = SimWeb::start().await;
    web.route("f.test", "/loop", Fault::RedirectLoop);
    let c = client(&web);
    let r = c.get(web.url("f.test", "/loop")).send().await.unwrap();
    assert_eq!(r.status(), 302);
    assert_eq!(h(&r, "location"), "/loop?sgw_loop=1");
    let r = c
        .get(web.url("f.test", "/loop?sgw_loop=1"))
        .send()
        .await
        .unwrap();
    assert_eq!(h(&r, "location"), "/loop");

    let port = web.port();
    for (p, want) in [
        (
            Private::Metadata,
            "http://169.254.169.254/latest/meta-data/".to_owned(),
        ),
        (Private::Rfc1918, "http://10.0.0.1/".to_owned()),
        (Private::Loopback, format!("http://127.0.0.1:{port}/")),
        (Private::Localhost, format!("http://localhost:{port}/")),
        (Private::Ipv6Loopback, format!("http://[::1]:{port}/")),
        (
            Private::DecimalLoopback,
            format!("http://2130706433:{port}/"),
        ),
    ] {
        web.route("f.test", "/go", Fault::RedirectToPrivate(p));
        let r = c.get(web.url("f.test", "/go")).send().await.unwrap();
        assert_eq!(r.status(), 302);
        assert_eq!(h(&r, "location"), want);
    }
    // A plain redirect response too.
    web.route("f.test", "/moved", Response::redirect(301, "/new"));
    let r = c.get(web.url("f.test", "/moved")).send().await.unwrap();
    assert_eq!(
        (r.status().as_u16(), h(&r, "location")),
        (301, "/new".to_owned())
    );
}

#[tokio::test]
async fn arbitrary_bytes_keep_their_content_type() {
    let web = SimWeb::start().await;
    let pdf =
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n".to_vec();
    web.route(
        "f.test",
        "/doc.pdf",
        Response::bytes("application/pdf", pdf.clone()),
    );
    let r = client(&web)
        .get(web.url("f.test", "/doc.pdf"))
        .send()
        .await
        .unwrap();
    assert_eq!(h(&r, "content-type"), "application/pdf");
    let got = r.bytes().await.unwrap();
    assert_eq!(got.as_ref(), pdf.as_slice());
    assert!(contains(&got, "%%EOF"));
}

#[tokio::test]
async fn hang_after_headers_sends_headers_then_nothing() {
    let web = SimWeb::start().await;
    web.route("f.test", "/stall", Fault::HangAfterHeaders);
    let raw = raw_get(
        &web,
        "f.test",
        "/stall",
        Duration::from_millis(300),
        usize::MAX,
    )
    .await;
    assert_eq!(raw.status(), 200);
    assert_eq!(raw.header("content-length").as_deref(), Some("65536"));
    assert!(raw.body.is_empty() && !raw.eof, "{raw:?}");
    // A client gets the headers, then times out reading the body.
    let r = client_with_timeout(&web, Duration::from_millis(300))
        .get(web.url("f.test", "/stall"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let err = r.bytes().await.expect_err("body never comes");
    assert!(err.is_timeout(), "{err:?}");
}

#[tokio::test]
async fn close_without_response_sends_no_byte() {
    let web = SimWeb::start().await;
    web.route("f.test", "/close", Fault::CloseWithoutResponse);
    let raw = raw_get(
        &web,
        "f.test",
        "/close",
        Duration::from_secs(10),
        usize::MAX,
    )
    .await;
    assert!(
        raw.eof && raw.head.is_empty() && raw.body.is_empty(),
        "{raw:?}"
    );
    let err = client(&web)
        .get(web.url("f.test", "/close"))
        .send()
        .await
        .expect_err("no response");
    assert!(!err.is_timeout(), "{err:?}");
}

#[tokio::test]
async fn sequence_serves_replies_in_order_then_repeats_the_last() {
    let web = SimWeb::start().await;
    web.route_sequence(
        "f.test",
        "/flaky",
        vec![
            Fault::Unavailable {
                retry_after: Some(RetryAfter::Seconds(1)),
            }
            .into(),
            Fault::RateLimited { retry_after: None }.into(),
            Response::html("ok").into(),
        ],
    );
    let c = client(&web);
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(
            c.get(web.url("f.test", "/flaky"))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16(),
        );
    }
    assert_eq!(statuses, vec![503, 429, 200, 200, 200]);
    web.route_sequence("f.test", "/empty", Vec::new());
    assert_eq!(
        c.get(web.url("f.test", "/empty"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

#[tokio::test]
async fn cloudflare_ray_in_header_matches_the_page() {
    for fault in [
        Fault::Challenge(Challenge::CloudflareManaged),
        Fault::CdnBlock(Cdn::Cloudflare),
    ] {
        let (_w, r) = serve(fault).await;
        let ray = h(&r, "cf-ray");
        let (id, colo) = ray.split_once('-').unwrap();
        assert_eq!((id.len(), colo), (16, "AMS"));
        assert!(r.text().await.unwrap().contains(id));
    }
}

#[tokio::test]
async fn garbage_on_the_wire_does_not_hurt_the_server() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let web = SimWeb::start().await;
    web.route("f.test", "/", Response::html("alive"));
    for junk in [
        &b"\x00\xff\xfe garbage \r\n\r\n"[..],
        b"GET / HTTP/1.1\r\nHost: \xff\xfe\r\n\r\n",
        b"GET /%%%%?\xff HTTP/1.1\r\nHost: f.test\r\n\r\n",
        b"GET / HTTP/1.1\r\n",
    ] {
        let mut s = tokio::net::TcpStream::connect(web.addr()).await.unwrap();
        s.write_all(junk).await.unwrap();
        s.shutdown().await.unwrap();
        let mut sink = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut sink)).await;
    }
    let r = client(&web)
        .get(web.url("f.test", "/"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.text().await.unwrap(), "alive");
}

#[tokio::test]
async fn dropping_the_web_ends_hanging_connections() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let web = SimWeb::start().await;
    web.route("f.test", "/hang", Fault::Hang);
    let mut s = tokio::net::TcpStream::connect(web.addr()).await.unwrap();
    s.write_all(b"GET /hang HTTP/1.1\r\nHost: f.test\r\n\r\n")
        .await
        .unwrap();
    // Wait until the server has read the request.
    while web.hits("f.test", "/hang") == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    drop(web);
    let mut buf = Vec::new();
    let n = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf))
        .await
        .expect("connection must be closed when the web is dropped");
    assert!(n.is_err() || buf.is_empty(), "{n:?} {buf:?}");
}
