use sgw_contract::{AttemptOutcome, FailureCode, SourceTier};
use sgw_provider_common::{PageTarget, provider_error, read_page, read_pages, source_for};
use sgw_testkit::provider::{CallData, fetcher, source};
use sgw_testkit::{Captcha, Cdn, Fault, Response, SimWeb, pages};

const STEP: sgw_contract::ChainStep = sgw_contract::ChainStep::DirectOfficialAdapter;

const PARAS: &[&str] = &[
    "The standard deposit rate is 4.5% from 1 March 2026, the board decided.",
    "Other news of the board: the building was renovated.",
];

#[tokio::test]
async fn healthy_page_becomes_evidence() {
    let web = SimWeb::start().await;
    web.route(
        "bank.test",
        "/rates",
        Response::html(pages::article(
            "Deposit rates",
            "Bank of Test",
            "2026-03-01",
            PARAS,
        ))
        .header("etag", "\"v1\""),
    );
    let f = fetcher(&web);
    let mut data = CallData::new("deposit rate", "policy_or_law", STEP);
    data.sources = vec![source("bank", "bank.test", SourceTier::OfficialPrimary)];
    let url = web.url("bank.test", "/rates");
    let call = data.call();
    let ev = read_page(&f, &url, &call, Some(SourceTier::OfficialPrimary))
        .await
        .unwrap();
    assert_eq!(ev.title, "Deposit rates");
    assert_eq!(ev.extraction_method, "html");
    assert_eq!(ev.tier_hint, Some(SourceTier::OfficialPrimary));
    assert_eq!(ev.publisher.as_deref(), Some("bank publisher"));
    assert_eq!(
        ev.published_at.as_deref().map(|d| &d[..10]),
        Some("2026-03-01")
    );
    assert_eq!(ev.validators.etag.as_deref(), Some("\"v1\""));
    assert!(ev.text.contains("4.5%"));
    let best = &ev.passages[0];
    assert_eq!(&ev.text[best.start..best.end], best.text);
    assert!(best.text.contains("deposit rate"), "{best:?}");
    assert!(!ev.truncated);
}

#[tokio::test]
async fn failures_keep_the_fetch_code() {
    let web = SimWeb::start().await;
    web.route("site.test", "/cdn", Fault::CdnBlock(Cdn::Cloudflare));
    web.route("site.test", "/gone", Fault::NotFound);
    web.route("site.test", "/captcha", Fault::Captcha(Captcha::Recaptcha));
    web.route("site.test", "/shell", Fault::JsShell);
    // HTML to the fetch (its doctype), JSON to the extractor (its content
    // type): the shell check the fetch left to the extraction is still made.
    web.route(
        "site.test",
        "/json-shell",
        Response::bytes(
            "application/json",
            "<!doctype html><html><head><script src=/app.js></script></head><body><div id=root></div></body></html>",
        ),
    );
    web.route(
        "site.test",
        "/empty",
        Response::html("<html><body>   </body></html>"),
    );
    let f = fetcher(&web);
    let data = CallData::new("anything here", "default", STEP);
    let call = data.call();
    let cases = [
        ("/cdn", FailureCode::SourceBlockedByCdn, Some(403)),
        ("/gone", FailureCode::Source404OrRemoved, Some(404)),
        ("/captcha", FailureCode::SearchProviderCaptcha, None),
        (
            "/shell",
            FailureCode::SourceDynamicPageUnreadable,
            Some(200),
        ),
        (
            "/json-shell",
            FailureCode::SourceDynamicPageUnreadable,
            Some(200),
        ),
    ];
    for (path, code, status) in cases {
        let url = web.url("site.test", path);
        let a = read_page(&f, &url, &call, None).await.unwrap_err();
        assert_eq!(a.outcome, AttemptOutcome::Failed, "{path}");
        assert_eq!(a.failure_code, Some(code), "{path}: {a:?}");
        assert_eq!(a.target.as_deref(), Some(url.as_str()));
        assert_eq!(a.step, STEP);
        assert_eq!(a.provider, "test");
        if status.is_some() {
            assert_eq!(a.http_status, status, "{path}");
        }
        assert!(a.detail.is_some());
    }
    // No text: extraction failure, official flavour when the hint is official.
    let url = web.url("site.test", "/empty");
    let a = read_page(&f, &url, &call, None).await.unwrap_err();
    assert!(
        matches!(
            a.failure_code,
            Some(FailureCode::SourceExtractionFailed | FailureCode::SourceDynamicPageUnreadable)
        ),
        "{a:?}"
    );
    if a.failure_code == Some(FailureCode::SourceExtractionFailed) {
        let a = read_page(&f, &url, &call, Some(SourceTier::OfficialSecondary))
            .await
            .unwrap_err();
        assert_eq!(
            a.failure_code,
            Some(FailureCode::OfficialSourceFoundButExtractionFailed)
        );
    }
}

#[tokio::test]
async fn read_pages_stops_at_max_and_traces_each_target() {
    let web = SimWeb::start().await;
    for i in 0..4 {
        web.route(
            "news.test",
            &format!("/a{i}"),
            Response::html(pages::article(
                &format!("Story {i}"),
                "News",
                "2026-01-01",
                PARAS,
            )),
        );
    }
    web.route("news.test", "/blocked", Fault::CdnBlock(Cdn::Akamai));
    let f = fetcher(&web);
    let mut data = CallData::new("deposit rate", "news", STEP);
    data.sources = vec![source("news", "news.test", SourceTier::AuthoritativeMedia)];
    let call = data.call();
    let mut targets = vec![PageTarget::new(
        web.url("news.test", "/blocked"),
        &data.sources,
    )];
    for i in 0..4 {
        targets.push(PageTarget::new(
            web.url("news.test", &format!("/a{i}")),
            &data.sources,
        ));
    }
    targets.push(targets[1].clone());
    let (ev, attempts) = read_pages(&f, targets, &call, 2, 1).await;
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[0].title, "Story 0");
    assert_eq!(ev[1].title, "Story 1");
    assert!(
        ev.iter()
            .all(|e| e.tier_hint == Some(SourceTier::AuthoritativeMedia))
    );
    assert_eq!(attempts.len(), 3);
    assert_eq!(
        attempts[0].failure_code,
        Some(FailureCode::SourceBlockedByCdn)
    );
    assert!(
        attempts[1..]
            .iter()
            .all(|a| a.outcome == AttemptOutcome::Success)
    );
    assert_eq!(
        web.hits("news.test", "/a3"),
        0,
        "not read once enough evidence was found"
    );
}

#[tokio::test]
async fn provider_error_carries_code_status_and_retry_after() {
    let web = SimWeb::start().await;
    web.route(
        "api.test",
        "/v1",
        Fault::RateLimited {
            retry_after: Some(sgw_testkit::RetryAfter::Seconds(120)),
        },
    );
    let f = fetcher(&web);
    let data = CallData::new("x", "default", STEP);
    let call = data.call();
    let err = f
        .fetch(&sgw_fetch::FetchRequest::api(web.url("api.test", "/v1")))
        .await
        .unwrap_err();
    let pe = provider_error(&call, &err, Vec::new());
    assert_eq!(pe.code, FailureCode::SearchProviderRateLimited);
    assert_eq!(pe.http_status, Some(429));
    assert_eq!(pe.retry_after.map(|d| d.as_secs()), Some(120));
    assert_eq!(pe.attempts.len(), 1);
    assert!(pe.message.contains("api.test"), "{}", pe.message);
}

#[test]
fn source_for_matches_subdomains_only() {
    let sources = vec![source("gov", "gov.test", SourceTier::OfficialPrimary)];
    let u = |s: &str| url::Url::parse(s).unwrap();
    assert!(source_for(&u("http://www.gov.test/x"), &sources).is_some());
    assert!(source_for(&u("http://GOV.test./x"), &sources).is_some());
    assert!(source_for(&u("http://notgov.test/x"), &sources).is_none());
    assert!(source_for(&u("http://gov.test.evil/x"), &sources).is_none());
}

/// The charset of the `Content-Type` header decodes the page's text (no
/// `<meta>` names one): ISO-8859-15's byte 0xA4 is the euro sign, which a
/// guess from the bytes (windows-1252: `¤`) gets wrong.
#[tokio::test]
async fn the_header_charset_decodes_the_evidence_text() {
    let web = SimWeb::start().await;
    let mut html = b"<html><head><title>Geb\xfchren</title></head><body><article>".to_vec();
    for _ in 0..3 {
        html.extend_from_slice(
            b"<p>Die Geb\xfchr f\xfcr den Hundeausweis betr\xe4gt 20 \xa4 im Jahr, zahlbar bis M\xe4rz.</p>",
        );
    }
    html.extend_from_slice(b"</article></body></html>");
    web.route(
        "amt.test",
        "/gebuehren",
        Response::bytes("text/html; charset=iso-8859-15", html),
    );
    let f = fetcher(&web);
    let data = CallData::new("Gebühr Hundeausweis", "default", STEP);
    let call = data.call();
    let url = web.url("amt.test", "/gebuehren");
    let ev = read_page(&f, &url, &call, None).await.unwrap();
    assert!(ev.text.contains("beträgt 20 € im Jahr"), "{}", ev.text);
    assert_eq!(ev.title, "Gebühren");
}
