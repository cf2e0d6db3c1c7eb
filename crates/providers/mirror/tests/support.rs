//! Shared set-up: a `Fetcher` that reaches the simulated web, and calls.

use serde_json::Value;
use sgw_contract::{
    BuildContext, CacheKey, FactoryError, PlannedSource, Provider, ProviderCall, ProviderError,
    ProviderReport, SearchRequest, Services, SourceTier,
};
use sgw_provider_common::sgw_fetch::{FetchConfig, Fetcher, RetryConfig};
use sgw_testkit::SimWeb;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Builds `kind` with a fetcher resolving every host of `web` (registered
/// so far) to 127.0.0.1; no retries.
pub fn build(kind: &str, config: Value, web: &SimWeb) -> Result<Arc<dyn Provider>, FactoryError> {
    let mut cfg = FetchConfig {
        allow_hosts: web.hosts(),
        retries: RetryConfig {
            max: 0,
            ..RetryConfig::default()
        },
        ..FetchConfig::default()
    };
    cfg.per_host_rate.requests_per_second = 1000.0;
    cfg.per_host_rate.burst = 100;
    cfg.resolve = web.resolve_overrides().into_iter().collect();
    let mut services = Services::new();
    services.insert(Arc::new(Fetcher::new(cfg).unwrap()));
    let ctx = BuildContext {
        name: kind.into(),
        step: "authoritative_mirror_or_media".into(),
        policy_dir: None,
        services,
    };
    let f = sgw_contract::factory(kind).unwrap_or_else(|| panic!("`{kind}` is not registered"));
    (f.build)(&config, &ctx)
}

pub fn source(id: &str, tier: SourceTier, domain: &str, entry_urls: Vec<String>) -> PlannedSource {
    PlannedSource {
        id: id.into(),
        publisher: format!("{id} publisher"),
        tier,
        domains: vec![domain.into()],
        scopes: vec![],
        topics: vec![],
        entry_urls,
        search_url: None,
        opensearch_url: None,
        sitemap_url: None,
        feed_urls: vec![],
    }
}

pub async fn run(
    provider: &dyn Provider,
    request: &SearchRequest,
    sources: &[PlannedSource],
) -> Result<ProviderReport, ProviderError> {
    let key = CacheKey::new(request, "default");
    let call = ProviderCall {
        step: "authoritative_mirror_or_media",
        provider: "mirror",
        request,
        key: &key,
        sources,
        deadline: Instant::now() + Duration::from_secs(20),
        prior_attempts: &[],
        max_sources: 10,
        fresh_only: false,
    };
    provider.run(&call).await
}
