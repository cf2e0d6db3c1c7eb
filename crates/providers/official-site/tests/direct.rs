use sgw_contract::{AttemptOutcome, FactoryError, FailureCode, SourceTier};
use sgw_testkit::provider::{CallData, PARAS, build, fetcher, source};
use sgw_testkit::{Captcha, Cdn, Fault, Response, SimWeb, pages};

const STEP: sgw_contract::ChainStep = sgw_contract::ChainStep::DirectOfficialAdapter;

#[tokio::test]
async fn entry_urls_and_hints_are_read_with_tier_hints() {
    let web = SimWeb::start().await;
    web.route_fn("gov.test", "/lookup", |req| {
        let q = req.query_param("q").unwrap_or_default();
        Response::html(pages::article(
            &format!("Lookup: {q}"),
            "Gov",
            "2026-01-10",
            PARAS,
        ))
        .into()
    });
    web.route(
        "other.test",
        "/page",
        Response::html(pages::article("Other page", "Other", "2025-05-05", PARAS)),
    );
    let f = fetcher(&web);
    let mut data = CallData::new("filing deadline", "policy_or_law", STEP);
    let mut gov = source("gov", "gov.test", SourceTier::OfficialPrimary);
    gov.entry_urls = vec![format!("{}?q={{query}}", web.url("gov.test", "/lookup"))];
    data.sources = vec![gov];
    data.request.hints.urls = vec![web.url("other.test", "/page").to_string()];
    let p = build("official-site", serde_json::json!({}), f).unwrap();
    let report = p.run(&data.call()).await.unwrap();
    assert_eq!(report.evidence.len(), 2, "{:?}", report.attempts);
    let other = &report.evidence[0];
    assert_eq!(other.title, "Other page");
    assert_eq!(
        other.tier_hint, None,
        "a hint URL on no planned source gets no tier"
    );
    let gov = &report.evidence[1];
    assert_eq!(
        gov.title, "Lookup: filing deadline",
        "query expanded and encoded"
    );
    assert_eq!(gov.tier_hint, Some(SourceTier::OfficialPrimary));
    assert_eq!(gov.publisher.as_deref(), Some("gov publisher"));
    assert!(gov.passages[0].text.contains("filing deadline"));
    assert_eq!(report.attempts.len(), 2);
    assert!(
        report
            .attempts
            .iter()
            .all(|a| a.outcome == AttemptOutcome::Success && a.step == STEP)
    );
}

#[tokio::test]
async fn each_failure_is_a_per_target_attempt_with_its_code() {
    let web = SimWeb::start().await;
    web.route("gov.test", "/cdn", Fault::CdnBlock(Cdn::Fastly));
    web.route("gov.test", "/missing", Fault::NotFound);
    web.route("gov.test", "/captcha", Fault::Captcha(Captcha::Hcaptcha));
    web.route("gov.test", "/app", Fault::JsShell);
    web.route(
        "gov.test",
        "/ok",
        Response::html(pages::article("Filing", "Gov", "2026-01-01", PARAS)),
    );
    let f = fetcher(&web);
    let mut data = CallData::new("filing deadline", "policy_or_law", STEP);
    let mut gov = source("gov", "gov.test", SourceTier::OfficialPrimary);
    for p in ["/cdn", "/missing", "/captcha", "/app", "/ok"] {
        gov.entry_urls.push(web.url("gov.test", p).to_string());
    }
    gov.entry_urls.push("ftp://gov.test/{query}".into());
    data.sources = vec![gov];
    let p = build("official-site", serde_json::json!({"concurrency": 2}), f).unwrap();
    let report = p.run(&data.call()).await.unwrap();
    assert_eq!(report.evidence.len(), 1);
    let code_of = |path: &str| {
        let url = web.url("gov.test", path).to_string();
        report
            .attempts
            .iter()
            .find(|a| a.target.as_deref() == Some(url.as_str()))
            .and_then(|a| a.failure_code)
    };
    assert_eq!(code_of("/cdn"), Some(FailureCode::SourceBlockedByCdn));
    assert_eq!(code_of("/missing"), Some(FailureCode::Source404OrRemoved));
    assert_eq!(
        code_of("/captcha"),
        Some(FailureCode::SearchProviderCaptcha)
    );
    assert_eq!(
        code_of("/app"),
        Some(FailureCode::SourceDynamicPageUnreadable)
    );
    assert_eq!(code_of("/ok"), None);
    assert!(report.attempts.iter().any(|a| {
        a.failure_code == Some(FailureCode::SearchProviderMisconfigured)
            && a.detail
                .as_deref()
                .is_some_and(|d| d.contains("gov") && d.contains("ftp"))
    }));
}

#[tokio::test]
async fn nothing_planned_is_an_empty_attempt_and_max_sources_is_honoured() {
    let web = SimWeb::start().await;
    for i in 0..5 {
        web.route(
            "gov.test",
            &format!("/p{i}"),
            Response::html(pages::article(&format!("P{i}"), "Gov", "2026-01-01", PARAS)),
        );
    }
    let f = fetcher(&web);
    let p = build("official-site", serde_json::Value::Null, f.clone()).unwrap();
    let data = CallData::new("filing deadline", "default", STEP);
    let report = p.run(&data.call()).await.unwrap();
    assert!(report.evidence.is_empty());
    assert_eq!(report.attempts[0].outcome, AttemptOutcome::Empty);

    let urls: Vec<String> = (0..5)
        .map(|i| web.url("gov.test", &format!("/p{i}")).to_string())
        .collect();
    let p = build(
        "official-site",
        serde_json::json!({"urls": urls, "concurrency": 1}),
        f,
    )
    .unwrap();
    let mut data = CallData::new("filing deadline", "default", STEP);
    data.max_sources = 2;
    let report = p.run(&data.call()).await.unwrap();
    assert_eq!(report.evidence.len(), 2);
    assert_eq!(web.hits("gov.test", "/p4"), 0);
}

#[tokio::test]
async fn bad_config_names_the_field() {
    let web = SimWeb::start().await;
    let f = fetcher(&web);
    let field = |r: Result<_, FactoryError>| match r {
        Err(FactoryError::Config { field, message }) => (field, message),
        Err(e) => panic!("unexpected {e}"),
        Ok(_) => panic!("accepted"),
    };
    let (f1, m1) = field(build(
        "official-site",
        serde_json::json!({"url": []}),
        f.clone(),
    ));
    assert!(
        m1.contains("unknown field") && m1.contains("url"),
        "{f1:?} {m1}"
    );
    let (f2, _) = field(build(
        "official-site",
        serde_json::json!({"concurrency": 0}),
        f.clone(),
    ));
    assert_eq!(f2.as_deref(), Some("concurrency"));
    let (f3, m3) = field(build(
        "official-site",
        serde_json::json!({"urls": ["ok", "http://x.test/"]}),
        f.clone(),
    ));
    assert_eq!(f3.as_deref(), Some("urls[0]"), "{m3}");
    let (f4, _) = field(build(
        "official-site-search",
        serde_json::json!({"hits_per_site": "3"}),
        f.clone(),
    ));
    assert_eq!(f4.as_deref(), Some("hits_per_site"));
    let (f5, _) = field(build(
        "official-site-search",
        serde_json::json!({"max_sites": 0}),
        f,
    ));
    assert_eq!(f5.as_deref(), Some("max_sites"));
}

#[test]
fn both_kinds_are_registered() {
    for kind in ["official-site", "official-site-search"] {
        let f = sgw_contract::factory(kind).unwrap_or_else(|| panic!("{kind} not registered"));
        assert_eq!(f.crate_name, "sgw-provider-official-site");
    }
    assert_eq!(
        sgw_contract::factory("official-site").unwrap().step,
        sgw_contract::ChainStep::DirectOfficialAdapter
    );
    assert_eq!(
        sgw_contract::factory("official-site-search").unwrap().step,
        sgw_contract::ChainStep::OfficialSiteSearch
    );
}
