//! Fixtures for a provider author's tests (feature `provider`), so no
//! provider crate copies them: a [`Fetcher`] that reaches the simulated web
//! ([`fetcher`]), building a kind through its registered factory as a
//! gateway does ([`build`]), a ready [`BuildContext`] ([`context`]), the
//! owned parts of a [`ProviderCall`] ([`CallData`]) and planned sources
//! ([`source`]). With feature `provider-store`, [`store`] adds an evidence
//! store in a temp dir and a gateway around the kind under test.
//!
//! Enable it in `[dev-dependencies]`:
//! `sgw-testkit = { …, features = ["provider"] }`.

#[cfg(feature = "provider-store")]
pub mod store;

use crate::SimWeb;
use sgw_contract::{
    Attempt, BuildContext, CacheKey, ChainStep, FactoryError, PlannedSource, Provider,
    ProviderCall, ProviderError, ProviderReport, SearchRequest, Services, SourceTier,
};
use sgw_fetch::{FetchConfig, Fetcher};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Two paragraphs about a filing deadline, for pages the tests serve.
pub const PARAS: &[&str] = &[
    "The annual filing deadline for small companies is 31 March 2026, the registry announced.",
    "Late filings incur a penalty.",
];

/// A fetch config resolving every host registered on `web` so far (register
/// routes first) to its loopback listener and allowing it past the SSRF
/// guard; no retries, a generous rate, a 5 s total timeout.
pub fn fetch_config(web: &SimWeb) -> FetchConfig {
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
    cfg
}

/// A [`Fetcher`] built from [`fetch_config`].
pub fn fetcher(web: &SimWeb) -> Arc<Fetcher> {
    Arc::new(Fetcher::new(fetch_config(web)).expect("valid fetch config"))
}

/// Services holding `fetcher`, as a gateway hands them to factories.
pub fn services(fetcher: Arc<Fetcher>) -> Services {
    Services::new().with_fetcher(fetcher)
}

/// Builds `kind` through its registered factory, as the gateway does
/// (instance named after the kind, bound at the factory's step). The test
/// binary must link the provider crate (`use sgw_provider_x as _;`).
pub fn build(
    kind: &str,
    config: serde_json::Value,
    fetcher: Arc<Fetcher>,
) -> Result<Arc<dyn Provider>, FactoryError> {
    let factory =
        sgw_contract::factory(kind).unwrap_or_else(|| panic!("kind `{kind}` is not registered"));
    factory.build(&config, &context(kind, factory.step, fetcher))
}

/// The context a gateway hands a provider instance `name` at `step`, with
/// `fetcher` as its network layer (no store, no analyzer).
pub fn context(name: &str, step: ChainStep, fetcher: Arc<Fetcher>) -> BuildContext {
    BuildContext::new(name, step).with_services(services(fetcher))
}

/// What a [`ProviderCall`] borrows, owned, with test defaults: provider
/// `test`, no sources, no prior attempts, `max_sources` 3, a 20 s budget
/// (the deadline is taken when [`CallData::call`] is).
#[derive(Debug, Clone)]
pub struct CallData {
    pub request: SearchRequest,
    pub key: CacheKey,
    pub step: ChainStep,
    pub provider: &'static str,
    pub sources: Vec<PlannedSource>,
    pub prior_attempts: Vec<Attempt>,
    pub max_sources: usize,
    pub fresh_only: bool,
    pub budget: Duration,
}

impl CallData {
    /// A call for `query` under `topic` at chain step `step`.
    pub fn new(query: &str, topic: &str, step: ChainStep) -> CallData {
        CallData::for_request(SearchRequest::new(query), topic, step)
    }

    /// A call for a prepared `request` (hints, `as_of`, …).
    pub fn for_request(request: SearchRequest, topic: &str, step: ChainStep) -> CallData {
        let key = CacheKey::new(&request, topic);
        CallData {
            request,
            key,
            step,
            provider: "test",
            sources: Vec::new(),
            prior_attempts: Vec::new(),
            max_sources: 3,
            fresh_only: false,
            budget: Duration::from_secs(20),
        }
    }

    /// The planned sources.
    pub fn with_sources(mut self, sources: Vec<PlannedSource>) -> CallData {
        self.sources = sources;
        self
    }

    /// How long the provider may take from [`CallData::call`] on.
    pub fn with_budget(mut self, budget: Duration) -> CallData {
        self.budget = budget;
        self
    }

    /// The call, with its deadline `budget` from now.
    pub fn call(&self) -> ProviderCall<'_> {
        ProviderCall {
            step: self.step,
            provider: self.provider,
            request: &self.request,
            key: &self.key,
            sources: &self.sources,
            deadline: Instant::now() + self.budget,
            prior_attempts: &self.prior_attempts,
            max_sources: self.max_sources,
            fresh_only: self.fresh_only,
        }
    }

    /// Runs `provider` on [`CallData::call`].
    pub async fn run(&self, provider: &dyn Provider) -> Result<ProviderReport, ProviderError> {
        provider.run(&self.call()).await
    }
}

/// A planned source `id` (publisher "`id` publisher") on `domain`, with no
/// URLs.
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
