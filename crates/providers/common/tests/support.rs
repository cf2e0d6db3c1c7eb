//! Shared test helpers: a Fetcher wired to the simulated web, and call data.

use sgw_contract::{CacheKey, PlannedSource, ProviderCall, SearchRequest, SourceTier};
use sgw_fetch::{FetchConfig, Fetcher};
use sgw_testkit::SimWeb;
use std::time::{Duration, Instant};

/// A fetcher resolving every host registered on `web` (register routes first)
/// to the loopback listener, with no retries and a generous rate.
pub fn fetcher(web: &SimWeb) -> Fetcher {
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
    Fetcher::new(cfg).expect("valid fetch config")
}

/// What a `ProviderCall` borrows.
pub struct CallData {
    pub request: SearchRequest,
    pub key: CacheKey,
    pub sources: Vec<PlannedSource>,
    pub deadline: Instant,
}

impl CallData {
    pub fn new(query: &str, topic: &str) -> CallData {
        let request = SearchRequest::new(query);
        let key = CacheKey::new(&request, topic);
        CallData {
            request,
            key,
            sources: Vec::new(),
            deadline: Instant::now() + Duration::from_secs(20),
        }
    }

    pub fn call(&self) -> ProviderCall<'_> {
        ProviderCall {
            step: "direct_official_adapter",
            provider: "test",
            request: &self.request,
            key: &self.key,
            sources: &self.sources,
            deadline: self.deadline,
            prior_attempts: &[],
            max_sources: 3,
            fresh_only: false,
        }
    }
}

/// A planned source on `domain`.
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
