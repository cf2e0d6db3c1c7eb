//! A Fetcher wired to the simulated web, call data, and factory building.

use sgw_contract::{
    BuildContext, CacheKey, FactoryError, PlannedSource, Provider, ProviderCall, SearchRequest,
    Services, SourceTier,
};
use sgw_provider_common::sgw_fetch::{FetchConfig, Fetcher};
use sgw_testkit::SimWeb;
use std::sync::Arc;
use std::time::{Duration, Instant};

// Link the crate so its factories register.
use sgw_provider_feed as _;

pub fn fetcher(web: &SimWeb) -> Arc<Fetcher> {
    let mut cfg = FetchConfig::default();
    for (host, ip) in web.resolve_overrides() {
        cfg.resolve.insert(host.clone(), ip);
        cfg.allow_hosts.push(host);
    }
    cfg.retries.max = 0;
    cfg.per_host_rate.requests_per_second = 1000.0;
    cfg.per_host_rate.burst = 1000;
    cfg.per_host_concurrency = 8;
    cfg.timeouts.total_ms = 5_000;
    Arc::new(Fetcher::new(cfg).expect("valid fetch config"))
}

/// Builds `kind` through the registered factory, as the gateway does.
pub fn build(
    kind: &str,
    config: serde_json::Value,
    fetcher: Arc<Fetcher>,
) -> Result<Arc<dyn Provider>, FactoryError> {
    let factory = sgw_contract::factory(kind).expect("kind registered");
    let mut services = Services::new();
    services.insert(fetcher);
    let ctx = BuildContext {
        name: kind.into(),
        step: factory.step.into(),
        policy_dir: None,
        services,
    };
    (factory.build)(&config, &ctx)
}

pub struct CallData {
    pub request: SearchRequest,
    pub key: CacheKey,
    pub sources: Vec<PlannedSource>,
    pub max_sources: usize,
    pub step: &'static str,
}

impl CallData {
    pub fn new(query: &str, topic: &str, step: &'static str) -> CallData {
        let request = SearchRequest::new(query);
        let key = CacheKey::new(&request, topic);
        CallData {
            request,
            key,
            sources: Vec::new(),
            max_sources: 3,
            step,
        }
    }

    pub fn call(&self) -> ProviderCall<'_> {
        ProviderCall {
            step: self.step,
            provider: "p",
            request: &self.request,
            key: &self.key,
            sources: &self.sources,
            deadline: Instant::now() + Duration::from_secs(20),
            prior_attempts: &[],
            max_sources: self.max_sources,
            fresh_only: false,
        }
    }
}

pub fn source(id: &str, domain: &str, tier: SourceTier) -> PlannedSource {
    PlannedSource {
        id: id.into(),
        publisher: format!("{id} publisher"),
        tier,
        domains: vec![domain.into()],
        scopes: vec![],
        topics: vec![],
        entry_urls: vec![],
        search_url: None,
        opensearch_url: None,
        sitemap_url: None,
        feed_urls: vec![],
    }
}

pub const PARAS: &[&str] = &[
    "The annual filing deadline for small companies is 31 March 2026, the registry announced.",
    "Late filings incur a penalty.",
];
