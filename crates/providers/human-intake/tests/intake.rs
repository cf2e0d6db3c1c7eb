//! Requests with blocked URLs and gate types, reuse, what is needed.

use sgw_contract::{Attempt, AttemptOutcome, ChainStep, FailureCode, SearchRequest};
use sgw_provider_human_intake::{HumanIntakeConfig, blocked_urls, needed_sentence};
use sgw_testkit::provider::CallData;
use sgw_testkit::provider::store::{gateway, store};

/// The kind under test, as its crate registers it.
const FACTORY: sgw_contract::ProviderFactory =
    sgw_contract::ProviderFactory::of::<HumanIntakeConfig>(env!("CARGO_PKG_NAME"));
use sgw_store::{GateType, RequestStatus};
use sgw_testkit::{Captcha, Cdn, Fault, SimWeb};

const QUERY: &str = "central bank interest rate";

#[tokio::test]
async fn a_blocked_query_opens_one_request_with_gates_and_reuses_it() {
    let web = SimWeb::start().await;
    web.route(
        "official.test",
        "/rates",
        Fault::Captcha(Captcha::Recaptcha),
    );
    web.route("ministry.test", "/rates", Fault::CdnBlock(Cdn::Cloudflare));
    web.route("news.test", "/rates", Fault::NotFound);
    let urls = [
        web.url("official.test", "/rates"),
        web.url("ministry.test", "/rates"),
        web.url("news.test", "/rates"),
    ];
    let (store, _dir) = store().await;
    let gw = gateway(&web, &store, FACTORY, &urls, "");

    let first = gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    assert!(!first.has_answer());
    assert!(
        first
            .failure_codes
            .contains(&FailureCode::HumanEvidenceRequired),
        "{:?}",
        first.failure_codes
    );
    let id = first.human_request_id.clone().expect("a request id");
    assert!(id.starts_with("hr-"));
    assert!(
        first
            .notes
            .iter()
            .any(|n| n.contains(&format!("sgw evidence submit {id}")))
    );

    let req = store.get_request(&id).await.unwrap().unwrap();
    assert_eq!(req.status, RequestStatus::Open);
    assert_eq!(req.query, QUERY);
    assert_eq!(req.key, gw.cache_key(&SearchRequest::new(QUERY)));
    assert!(
        req.attempts
            .iter()
            .any(|a| a.failure_code == Some(FailureCode::SearchProviderCaptcha)),
        "what was tried is recorded: {:#?}",
        req.attempts
    );
    let gates: Vec<(String, GateType)> = req
        .blocked
        .iter()
        .map(|b| (b.url.clone(), b.gate))
        .collect();
    assert_eq!(
        gates,
        vec![
            (urls[0].to_string(), GateType::Captcha),
            (urls[1].to_string(), GateType::Cdn),
            (urls[2].to_string(), GateType::Other),
        ]
    );
    let captcha = &req.blocked[0].needed;
    assert!(
        captcha.starts_with(&format!("Open {} in a browser, pass the CAPTCHA", urls[0])),
        "{captcha}"
    );
    assert!(captcha.contains("sgw evidence submit"));
    assert!(
        sgw_provider_human_intake::needed_with_id(captcha, &id)
            .ends_with(&format!("with `sgw evidence submit {id}`.")),
        "{captcha}"
    );
    assert!(
        first
            .notes
            .iter()
            .any(|n| n.contains(&format!("pass the CAPTCHA, and submit the page as a PDF, a screenshot, the URL or pasted text with `sgw evidence submit {id}`"))),
        "{:#?}",
        first.notes
    );

    let second = gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    assert_eq!(
        second.human_request_id.as_deref(),
        Some(id.as_str()),
        "reused"
    );
    assert_eq!(
        store
            .list_requests(Some(RequestStatus::Open))
            .await
            .unwrap()
            .len(),
        1
    );
    // Another query opens its own request.
    let other = gw
        .search(&SearchRequest::new("central bank reserve ratio"))
        .await
        .unwrap();
    assert_ne!(other.human_request_id.as_deref(), Some(id.as_str()));
    assert_eq!(store.list_requests(None).await.unwrap().len(), 2);
}

#[tokio::test]
async fn a_cancelled_request_is_not_reused() {
    let web = SimWeb::start().await;
    web.route("official.test", "/rates", Fault::JsShell);
    let (store, _dir) = store().await;
    let gw = gateway(
        &web,
        &store,
        FACTORY,
        &[web.url("official.test", "/rates")],
        "",
    );
    let first = gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    let id = first.human_request_id.unwrap();
    let req = store.get_request(&id).await.unwrap().unwrap();
    assert_eq!(req.blocked[0].gate, GateType::DynamicPage);
    assert!(req.blocked[0].needed.contains("JavaScript"));
    store
        .cancel_request(&id, jiff::Timestamp::now())
        .await
        .unwrap();
    let second = gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    assert_ne!(second.human_request_id.unwrap(), id);
}

#[tokio::test]
async fn only_when_blocked_skips_queries_nothing_gated() {
    let web = SimWeb::start().await;
    web.route("official.test", "/rates", Fault::NotFound);
    let (store, _dir) = store().await;
    let gw = gateway(
        &web,
        &store,
        FACTORY,
        &[web.url("official.test", "/rates")],
        "      config: { only_when_blocked: true }\n",
    );
    let r = gw.search(&SearchRequest::new(QUERY)).await.unwrap();
    assert!(r.human_request_id.is_none());
    assert!(
        !r.failure_codes
            .contains(&FailureCode::HumanEvidenceRequired)
    );
    assert!(store.list_requests(None).await.unwrap().is_empty());
}

fn failed(url: &str, code: FailureCode) -> Attempt {
    Attempt::failed(ChainStep::DirectOfficialAdapter, "p", code).with_target(url)
}

#[test]
fn every_gate_code_maps_to_its_gate_and_non_urls_are_ignored() {
    let attempts = vec![
        failed("https://a.example/x", FailureCode::SearchProviderCaptcha),
        failed("https://b.example/x", FailureCode::SourceBlockedByCdn),
        failed("https://c.example/x", FailureCode::SourceLoginRequired),
        failed(
            "https://d.example/x",
            FailureCode::SourceDynamicPageUnreadable,
        ),
        failed("https://e.example/x", FailureCode::SourceRobotsDisallowed),
        failed("https://f.example/x", FailureCode::SearchProviderTimeout),
        failed("central bank rate", FailureCode::SearchProviderCaptcha),
        failed("https://a.example/x", FailureCode::SearchProviderCaptcha),
        failed(
            "http://169.254.169.254/",
            FailureCode::SourceAddressForbidden,
        ),
        Attempt::new(
            ChainStep::SearchEngineProvider,
            "p",
            AttemptOutcome::Success,
        )
        .with_target("https://g.example/"),
    ];
    let blocked = blocked_urls(&attempts, true);
    let gates: Vec<GateType> = blocked.iter().map(|b| b.gate).collect();
    assert_eq!(
        gates,
        vec![
            GateType::Captcha,
            GateType::Cdn,
            GateType::Login,
            GateType::DynamicPage,
            GateType::Robots,
            GateType::Other,
        ]
    );
    assert_eq!(blocked_urls(&attempts, false).len(), 5);
    for b in &blocked {
        assert!(b.needed.contains(&b.url), "{}", b.needed);
        assert!(b.needed.ends_with('.'));
    }
    assert!(
        needed_sentence("https://c.example/x", GateType::Login, None, "submit it")
            .contains("Sign in")
    );
    assert!(blocked[4].needed.contains("robots.txt"));
}

#[tokio::test]
async fn without_a_store_the_need_is_still_reported() {
    let provider = sgw_provider_human_intake::HumanIntake::new(Default::default(), None);
    let mut data = CallData::new(QUERY, "other", ChainStep::UserSuppliedEvidenceRequest);
    data.provider = "human-intake";
    data.prior_attempts = vec![failed(
        "https://a.example/x",
        FailureCode::SearchProviderCaptcha,
    )];
    data.max_sources = 4;
    data.budget = std::time::Duration::from_secs(5);
    let report = data.run(&provider).await.unwrap();
    assert_eq!(report.codes, vec![FailureCode::HumanEvidenceRequired]);
    assert!(report.human_request_id.is_none());
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("https://a.example/x"))
    );
}

/// A hostile search hit or redirect to an internal address must never become
/// a request asking a person on the inside network to open it.
#[test]
fn internal_or_unresolved_urls_are_never_handed_to_a_person() {
    let attempts = vec![
        failed(
            "http://metadata.google.internal/computeMetadata/v1/",
            FailureCode::SourceRobotsDisallowed,
        ),
        failed("http://gone.example/x", FailureCode::SourceUnreachable),
        failed(
            "http://169.254.169.254/latest/",
            FailureCode::SearchProviderCaptcha,
        ),
        failed("http://10.0.0.5/admin", FailureCode::SourceLoginRequired),
        failed("http://[::1]/", FailureCode::SourceBlockedByCdn),
        failed(
            "http://localhost:8080/",
            FailureCode::SourceRobotsDisallowed,
        ),
        failed("http://printer/", FailureCode::SearchProviderTimeout),
        failed("http://nas.local/", FailureCode::SourceRobotsDisallowed),
        failed(
            "https://public.example/page",
            FailureCode::SourceRobotsDisallowed,
        ),
    ];
    let blocked = blocked_urls(&attempts, true);
    let urls: Vec<&str> = blocked.iter().map(|b| b.url.as_str()).collect();
    assert_eq!(urls, vec!["https://public.example/page"]);
}
