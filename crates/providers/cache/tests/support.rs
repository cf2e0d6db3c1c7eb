//! Fixtures: a store in a temp dir, a fetcher wired to the simulated web, a
//! page-reading test provider, and gateways built from policy text.

use serde::Deserialize;
use sgw_contract::{
    BuildContext, FactoryError, Provider, ProviderCall, ProviderError, ProviderFactory,
    ProviderReport, SearchRequest, Services,
};
use sgw_fetch::{FetchConfig, Fetcher};
use sgw_orchestrator::{Gateway, GatewayBuilder, Policy};
use sgw_store::Store;
use sgw_testkit::SimWeb;
use std::sync::Arc;

/// A store in its own temp dir (kept alive by the returned guard).
pub async fn store() -> (Arc<Store>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite");
    let store = Store::open(path.to_str().unwrap()).await.unwrap();
    (Arc::new(store), dir)
}

/// A fetcher resolving every host registered on `web` to its listener.
pub fn fetcher(web: &SimWeb) -> Arc<Fetcher> {
    let mut cfg = FetchConfig::default();
    for (host, ip) in web.resolve_overrides() {
        cfg.resolve.insert(host.clone(), ip);
        cfg.allow_hosts.push(host);
    }
    cfg.retries.max = 0;
    cfg.robots.enabled = false;
    cfg.per_host_rate.requests_per_second = 1000.0;
    cfg.per_host_rate.burst = 1000;
    cfg.timeouts.total_ms = 5_000;
    Arc::new(Fetcher::new(cfg).unwrap())
}

#[derive(Debug, Deserialize)]
struct PageConfig {
    urls: Vec<String>,
}

/// A minimal official-site stand-in: reads its configured URLs.
struct PageProvider {
    urls: Vec<url::Url>,
    fetcher: Arc<Fetcher>,
}

#[async_trait::async_trait]
impl Provider for PageProvider {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let mut report = ProviderReport::default();
        for url in &self.urls {
            match sgw_provider_common::read_page(&self.fetcher, url, call, None).await {
                Ok(ev) => report.evidence.push(ev),
                Err(attempt) => report.attempts.push(attempt),
            }
        }
        Ok(report)
    }
}

fn build_page(
    config: &serde_json::Value,
    ctx: &BuildContext,
) -> Result<Arc<dyn Provider>, FactoryError> {
    let c: PageConfig = sgw_provider_common::parse_config(config)?;
    Ok(Arc::new(PageProvider {
        urls: c.urls.iter().map(|u| u.parse().unwrap()).collect(),
        fetcher: ctx.services.require::<Fetcher>()?,
    }))
}

pub const PAGE: ProviderFactory = ProviderFactory {
    kind: "test-page",
    step: "direct_official_adapter",
    crate_name: "tests",
    description: "reads configured URLs",
    build: build_page,
};

/// A gateway: `test-page` reading `urls` first, then the evidence cache
/// (and whatever `extra` binds), on `store`.
pub fn gateway(web: &SimWeb, store: &Arc<Store>, urls: &[url::Url], extra: &str) -> Gateway {
    let list: Vec<String> = urls.iter().map(|u| format!("\"{u}\"")).collect();
    let yaml = format!(
        "version: 1
name: t
fallback_chain: [direct_official_adapter, cached_evidence, user_supplied_evidence_request]
tiering:
  - {{ domain: official.test, tier: OFFICIAL_PRIMARY }}
execution:
  deadline_ms: 10000
  target_confidence: 0.85
  max_sources: 4
  relevance_threshold: 0.5
providers:
  direct_official_adapter:
    - kind: test-page
      config: {{ urls: [{}] }}
  cached_evidence:
    - kind: evidence-cache
{extra}",
        list.join(", ")
    );
    let kinds = ["test-page", "evidence-cache", "human-intake"];
    let (policy, _) = Policy::from_bytes(yaml.as_bytes(), Some("t.yaml"), &kinds)
        .unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    let mut services = Services::new();
    services.insert(fetcher(web));
    services.insert(store.clone());
    GatewayBuilder::new(policy)
        .services(services)
        .sink(store.clone())
        .register(PAGE)
        .register(sgw_provider_cache::FACTORY)
        .build()
        .unwrap()
}

pub fn request(query: &str) -> SearchRequest {
    SearchRequest::new(query)
}

/// The official rate page, with an ETag, answering 304 to a matching
/// `If-None-Match`; `body` is the paragraph it serves.
pub fn serve_rates(web: &SimWeb, etag: &'static str, body: &'static str) {
    web.route_fn("official.test", "/rates", move |req| {
        if req.header("if-none-match") == Some(etag) {
            return sgw_testkit::Response::new(304).header("etag", etag).into();
        }
        sgw_testkit::Response::html(sgw_testkit::pages::article(
            "Central bank interest rate",
            "Official Bank",
            "2026-01-15",
            &[body],
        ))
        .header("etag", etag)
        .into()
    });
}

/// Makes the entry for `key` look `days` old (refreshed then).
pub async fn age(store: &Store, key: &sgw_contract::CacheKey, days: i64) {
    let now = jiff::Timestamp::now();
    let entry = store.lookup(key, now).await.unwrap();
    let entry = entry.entry().expect("an entry to age").clone();
    let then = now - jiff::SignedDuration::from_hours(24 * days);
    store
        .put_cache_entry(key, &entry.result, then)
        .await
        .unwrap();
}
