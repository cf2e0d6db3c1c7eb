//! The adapters inside the orchestrator's fallback chain: tiers come out of
//! the registry, failures become result codes, the chain falls back from the
//! blocked entry page to the site's own search.

use sgw_contract::{FailureCode, SearchRequest, Services, SourceTier};
use sgw_orchestrator::{GatewayBuilder, Policy};
use sgw_testkit::provider::{PARAS, fetcher};
use sgw_testkit::{Cdn, Fault, Response, SimWeb, opensearch, pages};

#[tokio::test]
async fn blocked_entry_page_falls_back_to_site_search() {
    let web = SimWeb::start().await;
    let port = web.port();
    let host = "registry.test";
    web.route(host, "/deadline", Fault::CdnBlock(Cdn::Cloudflare));
    let template = format!("http://{host}:{port}/search?q={{searchTerms}}");
    web.route(
        host,
        "/opensearch.xml",
        opensearch::description("Registry", &template),
    );
    web.route(
        host,
        "/",
        Response::html(pages::home("Registry", "/opensearch.xml", &[])),
    );
    web.route_fn(host, "/search", move |req| {
        let q = req.query_param("q").unwrap_or_default();
        let hit = format!("http://{host}:{port}/filing/deadline");
        Response::html(pages::site_search_results(
            "Registry",
            &q,
            &[(&hit, "Annual filing deadline", "the deadline")],
        ))
        .into()
    });
    web.route(
        host,
        "/filing/deadline",
        Response::html(pages::article(
            "Annual filing deadline",
            "Registry",
            "2026-01-05",
            PARAS,
        )),
    );
    let yaml = format!(
        "version: 1\nname: t\nsources:\n  registry:\n    publisher: Company Registry\n    tier: OFFICIAL_PRIMARY\n    domains: [{host}]\n    entry_urls: [\"http://{host}:{port}/deadline\"]\n\
         providers:\n  direct_official_adapter:\n    - kind: official-site\n  official_site_search:\n    - kind: official-site-search\n"
    );
    let kinds: Vec<&str> = sgw_contract::factories().iter().map(|f| f.kind).collect();
    let (policy, _) = Policy::from_bytes(yaml.as_bytes(), Some("test.yaml"), &kinds)
        .unwrap_or_else(|e| panic!("{e}"));
    let services = Services::new().with_fetcher(fetcher(&web));
    let gateway = GatewayBuilder::new(policy)
        .services(services)
        .build()
        .unwrap();
    let r = gateway
        .search(&SearchRequest::new("annual filing deadline"))
        .await
        .unwrap();
    assert!(r.has_answer(), "{r:#?}");
    assert!(r.fallback_used);
    assert!(
        r.failure_codes.contains(&FailureCode::SourceBlockedByCdn),
        "{:?}",
        r.failure_codes
    );
    assert_eq!(r.sources[0].tier, SourceTier::OfficialPrimary);
    assert_eq!(r.sources[0].publisher.as_deref(), Some("Company Registry"));
    assert!(r.sources[0].url.as_str().ends_with("/filing/deadline"));
    assert!(
        r.attempts
            .iter()
            .any(|a| a.step == sgw_contract::ChainStep::OfficialSiteSearch
                && a.outcome == sgw_contract::AttemptOutcome::Success)
    );
}
