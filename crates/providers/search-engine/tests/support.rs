//! Shared set-up: a `Fetcher` that reaches the simulated web, and calls.

use serde_json::Value;
use sgw_contract::{
    BuildContext, CacheKey, FactoryError, PlannedSource, Provider, ProviderCall, ProviderError,
    ProviderReport, SearchRequest, Services,
};
use sgw_provider_common::sgw_fetch::{FetchConfig, Fetcher, RetryConfig};
use sgw_testkit::SimWeb;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A fetcher resolving every host of `web` to 127.0.0.1 and allowing it; no retries.
pub fn fetcher(web: &SimWeb) -> Fetcher {
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
    cfg.per_host_concurrency = 8;
    cfg.resolve = web.resolve_overrides().into_iter().collect();
    Fetcher::new(cfg).unwrap()
}

pub fn ctx(web: &SimWeb) -> BuildContext {
    let mut services = Services::new();
    services.insert(Arc::new(fetcher(web)));
    BuildContext {
        name: "engine".into(),
        step: "search_engine_provider".into(),
        policy_dir: None,
        services,
    }
}

pub fn build(kind: &str, config: Value, web: &SimWeb) -> Result<Arc<dyn Provider>, FactoryError> {
    let f =
        sgw_contract::factory(kind).unwrap_or_else(|| panic!("kind `{kind}` is not registered"));
    (f.build)(&config, &ctx(web))
}

pub async fn run_with(
    provider: &dyn Provider,
    query: &str,
    topic: &str,
    sources: &[PlannedSource],
) -> Result<ProviderReport, ProviderError> {
    run_until(provider, query, topic, sources, Duration::from_secs(20)).await
}

pub async fn run_until(
    provider: &dyn Provider,
    query: &str,
    topic: &str,
    sources: &[PlannedSource],
    budget: Duration,
) -> Result<ProviderReport, ProviderError> {
    let request = SearchRequest::new(query);
    let key = CacheKey::new(&request, topic);
    let call = ProviderCall {
        step: "search_engine_provider",
        provider: "engine",
        request: &request,
        key: &key,
        sources,
        deadline: Instant::now() + budget,
        prior_attempts: &[],
        max_sources: 10,
        fresh_only: false,
    };
    provider.run(&call).await
}

pub async fn run(provider: &dyn Provider, query: &str) -> Result<ProviderReport, ProviderError> {
    run_with(provider, query, "default", &[]).await
}
