//! The fault matrix: every fault of the simulated web → its exact code.

use crate::common::{config, fetcher, page};
use sgw_contract::{FailureCode as C, HttpValidators};
use sgw_fetch::{FetchRequest, Fetcher};
use sgw_testkit::{Captcha, Cdn, Challenge, Fault, Login, Private, Response, RetryAfter, SimWeb};
use std::time::Duration;

fn matrix() -> Vec<(&'static str, Fault, C)> {
    vec![
        ("/hang", Fault::Hang, C::SearchProviderTimeout),
        (
            "/drip",
            Fault::SlowDrip {
                chunk: 16,
                every: Duration::from_millis(100),
                total: 100_000,
            },
            C::SearchProviderTimeout,
        ),
        (
            "/429",
            Fault::RateLimited {
                retry_after: Some(RetryAfter::Seconds(7)),
            },
            C::SearchProviderRateLimited,
        ),
        (
            "/503",
            Fault::Unavailable { retry_after: None },
            C::SearchProviderRateLimited,
        ),
        ("/500", Fault::ServerError, C::SourceServerError),
        (
            "/cf-managed",
            Fault::Challenge(Challenge::CloudflareManaged),
            C::SearchProviderCaptcha,
        ),
        (
            "/cf-attack",
            Fault::Challenge(Challenge::CloudflareUnderAttack),
            C::SearchProviderCaptcha,
        ),
        (
            "/recaptcha",
            Fault::Captcha(Captcha::Recaptcha),
            C::SearchProviderCaptcha,
        ),
        (
            "/hcaptcha",
            Fault::Captcha(Captcha::Hcaptcha),
            C::SearchProviderCaptcha,
        ),
        (
            "/turnstile",
            Fault::Captcha(Captcha::Turnstile),
            C::SearchProviderCaptcha,
        ),
        (
            "/cdn-cf",
            Fault::CdnBlock(Cdn::Cloudflare),
            C::SourceBlockedByCdn,
        ),
        (
            "/cdn-akamai",
            Fault::CdnBlock(Cdn::Akamai),
            C::SourceBlockedByCdn,
        ),
        (
            "/cdn-fastly",
            Fault::CdnBlock(Cdn::Fastly),
            C::SourceBlockedByCdn,
        ),
        ("/404", Fault::NotFound, C::Source404OrRemoved),
        ("/410", Fault::Gone, C::Source404OrRemoved),
        ("/basic", Fault::Login(Login::Basic), C::SourceLoginRequired),
        (
            "/bearer",
            Fault::Login(Login::Bearer),
            C::SourceLoginRequired,
        ),
        (
            "/form",
            Fault::Login(Login::FormPage),
            C::SourceLoginRequired,
        ),
        (
            "/to-login",
            Fault::Login(Login::RedirectToLogin),
            C::SourceLoginRequired,
        ),
        ("/shell", Fault::JsShell, C::SourceDynamicPageUnreadable),
        (
            "/cut",
            Fault::Truncated {
                declared: 50_000,
                sent: 20_000,
            },
            C::SearchResultTruncated,
        ),
        (
            "/big-declared",
            Fault::Oversized {
                total: 3 << 20,
                declare_length: true,
            },
            C::SearchResultTruncated,
        ),
        (
            "/big-chunked",
            Fault::Oversized {
                total: 3 << 20,
                declare_length: false,
            },
            C::SearchResultTruncated,
        ),
        (
            "/gzip-bomb",
            Fault::GzipBomb {
                uncompressed: 64 << 20,
            },
            C::SearchResultTruncated,
        ),
        (
            "/br-bomb",
            Fault::BrotliBomb {
                uncompressed: 64 << 20,
            },
            C::SearchResultTruncated,
        ),
        ("/loop", Fault::RedirectLoop, C::SourceUnreachable),
        (
            "/to-metadata",
            Fault::RedirectToPrivate(Private::Metadata),
            C::SourceAddressForbidden,
        ),
        (
            "/to-10",
            Fault::RedirectToPrivate(Private::Rfc1918),
            C::SourceAddressForbidden,
        ),
        (
            "/to-127",
            Fault::RedirectToPrivate(Private::Loopback),
            C::SourceAddressForbidden,
        ),
    ]
}

#[tokio::test]
async fn every_fault_has_its_exact_code() {
    let web = SimWeb::start().await;
    let host = "faults.test";
    for (path, fault, _) in matrix() {
        web.route(host, path, fault);
    }
    let f = fetcher(&web);
    let mut wrong = Vec::new();
    let fetches = matrix().into_iter().map(|(path, _, want)| {
        let f = f.clone();
        let url = web.url(host, path);
        async move { (path, want, f.fetch(&FetchRequest::page(url)).await) }
    });
    for (path, want, got) in futures::future::join_all(fetches).await {
        match got {
            Ok(r) => wrong.push(format!("{path}: expected {want}, got OK {}", r.status)),
            Err(e) if e.code != want => wrong.push(format!("{path}: expected {want}, got {e}")),
            Err(e) => {
                assert!(!e.message.is_empty(), "{path}: empty message");
                assert!(e.url.host_str().is_some());
            }
        }
    }
    assert!(wrong.is_empty(), "misclassified:\n{}", wrong.join("\n"));
}

#[tokio::test]
async fn errors_carry_status_retry_after_and_headers() {
    let web = SimWeb::start().await;
    web.route(
        "e.test",
        "/429",
        Fault::RateLimited {
            retry_after: Some(RetryAfter::Seconds(7)),
        },
    );
    web.route("e.test", "/cf", Fault::CdnBlock(Cdn::Cloudflare));
    let f = fetcher(&web);
    let e = page(&f, &web, "e.test", "/429").await.unwrap_err();
    assert_eq!(e.http_status, Some(429));
    assert_eq!(e.retry_after, Some(Duration::from_secs(7)));
    assert!(e.is_temporary());
    let e = page(&f, &web, "e.test", "/cf").await.unwrap_err();
    assert_eq!(e.http_status, Some(403));
    assert!(
        e.headers_of_interest
            .get("server")
            .is_some_and(|s| s.contains("cloudflare")),
        "{:?}",
        e.headers_of_interest
    );
    assert!(!e.is_temporary());
}

#[tokio::test]
async fn caps_name_the_limit() {
    let web = SimWeb::start().await;
    web.route(
        "c.test",
        "/bomb",
        Fault::GzipBomb {
            uncompressed: 256 << 20,
        },
    );
    web.route(
        "c.test",
        "/big",
        Fault::Oversized {
            total: 512 << 20,
            declare_length: false,
        },
    );
    let f = fetcher(&web);
    let e = page(&f, &web, "c.test", "/bomb").await.unwrap_err();
    assert_eq!(e.code, C::SearchResultTruncated);
    assert!(e.message.contains("max_decompressed_bytes"), "{e}");
    let e = page(&f, &web, "c.test", "/big").await.unwrap_err();
    assert_eq!(e.code, C::SearchResultTruncated);
    assert!(e.message.contains("max_body_bytes"), "{e}");
}

#[tokio::test]
async fn temporary_failures_are_retried_permanent_ones_are_not() {
    let web = SimWeb::start().await;
    web.route("r.test", "/503", Fault::Unavailable { retry_after: None });
    web.route(
        "r.test",
        "/long-wait",
        Fault::RateLimited {
            retry_after: Some(RetryAfter::Seconds(600)),
        },
    );
    web.route("r.test", "/404", Fault::NotFound);
    let mut cfg = config(&web);
    cfg.retries.max = 2;
    cfg.retries.base_backoff_ms = 10;
    cfg.retries.max_backoff_ms = 1_000;
    let f = Fetcher::new(cfg).unwrap();
    let e = page(&f, &web, "r.test", "/503").await.unwrap_err();
    assert_eq!((e.code, e.attempts), (C::SearchProviderRateLimited, 3));
    assert_eq!(web.hits("r.test", "/503"), 3);
    // A Retry-After longer than the backoff cap is reported, not waited for.
    let e = page(&f, &web, "r.test", "/long-wait").await.unwrap_err();
    assert_eq!(e.attempts, 1);
    assert_eq!(e.retry_after, Some(Duration::from_secs(600)));
    let e = page(&f, &web, "r.test", "/404").await.unwrap_err();
    assert_eq!((e.code, e.attempts), (C::Source404OrRemoved, 1));
    assert_eq!(web.hits("r.test", "/404"), 1);
}

#[tokio::test]
async fn redirects_are_followed_and_recorded() {
    let web = SimWeb::start().await;
    web.route("a.test", "/old", Response::redirect(301, "/new"));
    web.route(
        "a.test",
        "/new",
        Response::redirect(302, web.url("b.test", "/final").as_ref()),
    );
    web.route(
        "b.test",
        "/final",
        Response::html(sgw_testkit::pages::article(
            "Final",
            "B",
            "2024-01-02",
            &["The destination page has enough text to be content."],
        )),
    );
    let f = fetcher(&web);
    let r = page(&f, &web, "a.test", "/old").await.unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.final_url, web.url("b.test", "/final"));
    assert_eq!(
        r.redirects,
        vec![web.url("a.test", "/new"), web.url("b.test", "/final")]
    );
    assert!(r.text().contains("destination page"));

    let mut cfg = config(&web);
    cfg.max_redirects = 1;
    let f = Fetcher::new(cfg).unwrap();
    let e = page(&f, &web, "a.test", "/old").await.unwrap_err();
    assert_eq!(e.code, C::SourceUnreachable);
    assert!(e.message.contains("max_redirects"), "{e}");
    assert!(!e.is_temporary());
}

#[tokio::test]
async fn conditional_get_304_is_success() {
    let web = SimWeb::start().await;
    web.route_fn("v.test", "/doc", |req| {
        if req.header("if-none-match") == Some("\"v1\"") {
            Response::new(304).header("etag", "\"v1\"").into()
        } else {
            Response::html(
                "<html><body><p>Version one of the document, long enough.</p></body></html>",
            )
            .header("etag", "\"v1\"")
            .header("last-modified", "Wed, 21 Oct 2026 07:28:00 GMT")
            .into()
        }
    });
    let f = fetcher(&web);
    let first = page(&f, &web, "v.test", "/doc").await.unwrap();
    assert!(!first.not_modified);
    assert_eq!(first.validators.etag.as_deref(), Some("\"v1\""));
    assert_eq!(
        first.validators.last_modified.as_deref(),
        Some("Wed, 21 Oct 2026 07:28:00 GMT")
    );
    let again = f
        .fetch(
            &FetchRequest::page(web.url("v.test", "/doc"))
                .with_validators(first.validators.clone()),
        )
        .await
        .unwrap();
    assert!(again.not_modified);
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    let stale = HttpValidators {
        etag: Some("\"v0\"".into()),
        last_modified: None,
    };
    let fresh = f
        .fetch(&FetchRequest::page(web.url("v.test", "/doc")).with_validators(stale))
        .await
        .unwrap();
    assert!(!fresh.not_modified);
}

#[tokio::test]
async fn api_json_and_headers_stay_on_origin() {
    let web = SimWeb::start().await;
    web.route_fn("api.test", "/search", |req| {
        let key = req.header("x-api-key").unwrap_or("none").to_string();
        Response::json(&serde_json::json!({"key": key, "q": req.query_param("q")})).into()
    });
    web.route(
        "api.test",
        "/away",
        Response::redirect(302, web.url("other.test", "/echo").as_ref()),
    );
    web.route_fn("other.test", "/echo", |req| {
        Response::json(&serde_json::json!({"key": req.header("x-api-key").unwrap_or("none")}))
            .into()
    });
    web.route(
        "api.test",
        "/bad",
        Response::bytes("application/json", "{not json"),
    );
    let f = fetcher(&web);
    let hdrs = [("x-api-key", "secret")];
    let v: serde_json::Value = f
        .fetch_json(&FetchRequest::api(web.url("api.test", "/search?q=rust")).with_headers(&hdrs))
        .await
        .unwrap();
    assert_eq!(v["key"], "secret");
    assert_eq!(v["q"], "rust");
    let v: serde_json::Value = f
        .fetch_json(&FetchRequest::api(web.url("api.test", "/away")).with_headers(&hdrs))
        .await
        .unwrap();
    assert_eq!(
        v["key"], "none",
        "credentials must not follow a cross-origin redirect"
    );
    let e = f
        .fetch_json::<serde_json::Value>(&FetchRequest::api(web.url("api.test", "/bad")))
        .await
        .unwrap_err();
    assert_eq!(e.code, C::SourceExtractionFailed);
    assert!(e.message.contains("invalid JSON"), "{e}");
}

#[tokio::test]
async fn caller_deadline_wins() {
    let web = SimWeb::start().await;
    web.route("d.test", "/hang", Fault::Hang);
    let mut cfg = config(&web);
    cfg.timeouts.first_byte_ms = 60_000;
    cfg.timeouts.total_ms = 60_000;
    let f = Fetcher::new(cfg).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_millis(300);
    let e = f
        .fetch(&FetchRequest::page(web.url("d.test", "/hang")).with_deadline(deadline))
        .await
        .unwrap_err();
    assert_eq!(e.code, C::SearchProviderTimeout);
}

#[tokio::test]
async fn per_host_rate_limit_refuses_waits_past_the_deadline() {
    let web = SimWeb::start().await;
    web.route(
        "slow-api.test",
        "/q",
        Response::json(&serde_json::json!({"ok": true})),
    );
    let mut cfg = config(&web);
    cfg.per_host_rate.requests_per_second = 0.01;
    cfg.per_host_rate.burst = 1;
    let f = Fetcher::new(cfg).unwrap();
    f.fetch(&FetchRequest::api(web.url("slow-api.test", "/q")))
        .await
        .unwrap();
    let e = f
        .fetch(&FetchRequest::api(web.url("slow-api.test", "/q")))
        .await
        .unwrap_err();
    assert_eq!(e.code, C::SearchProviderRateLimited);
    assert!(e.message.contains("per_host_rate"), "{e}");
    assert!(e.retry_after.is_some());
    assert_eq!(web.hits("slow-api.test", "/q"), 1);
}
