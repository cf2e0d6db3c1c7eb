//! Store-backed fixtures (feature `provider-store`): an evidence store in a
//! temp dir, a page-reading stand-in for the official-site adapter
//! ([`PAGE`]), and a gateway that reads pages first and then runs the
//! provider under test on the store.

use super::{fetcher, services};
use crate::SimWeb;
use serde::Deserialize;
use sgw_contract::{
    BuildContext, ChainStep, FactoryError, Provider, ProviderCall, ProviderConfig, ProviderError,
    ProviderFactory, ProviderReport,
};
use sgw_fetch::Fetcher;
use sgw_orchestrator::{Gateway, GatewayBuilder, Policy};
use sgw_store::Store;
use std::sync::Arc;

/// A SQLite store in its own temp dir (kept alive by the returned guard).
pub async fn store() -> (Arc<Store>, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("store.sqlite");
    let store = Store::open(path.to_str().expect("a UTF-8 temp path"))
        .await
        .unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    (Arc::new(store), dir)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PageConfig {
    urls: Vec<url::Url>,
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

impl ProviderConfig for PageConfig {
    const KIND: &'static str = "test-page";
    const STEP: ChainStep = ChainStep::DirectOfficialAdapter;
    const DESCRIPTION: &'static str = "reads configured URLs";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        Ok(Arc::new(PageProvider {
            urls: self.urls,
            fetcher: ctx.fetcher()?,
        }))
    }
}

/// Kind `test-page` at `direct_official_adapter`: reads `config.urls`.
pub const PAGE: ProviderFactory = ProviderFactory::of::<PageConfig>("tests");

/// A gateway on `store` (its evidence sink): `test-page` reading `urls`
/// at `direct_official_adapter`, then `provider` bound at its own step with
/// the YAML lines `config` (indented under its `- kind:` item, may be
/// empty), then `user_supplied_evidence_request`. `official.test` is
/// OFFICIAL_PRIMARY; the fetcher and the store are the services.
pub fn gateway(
    web: &SimWeb,
    store: &Arc<Store>,
    provider: ProviderFactory,
    urls: &[url::Url],
    config: &str,
) -> Gateway {
    let list: Vec<String> = urls.iter().map(|u| format!("\"{u}\"")).collect();
    let last = ChainStep::UserSuppliedEvidenceRequest;
    let chain = if provider.step == last {
        format!("direct_official_adapter, {last}")
    } else {
        format!("direct_official_adapter, {}, {last}", provider.step)
    };
    let yaml = format!(
        "version: 1
name: t
fallback_chain: [{chain}]
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
  {}:
    - kind: {}
{config}",
        list.join(", "),
        provider.step,
        provider.kind,
    );
    let kinds = [PAGE.kind, provider.kind];
    let (policy, _) = Policy::from_bytes(yaml.as_bytes(), Some("t.yaml"), &kinds)
        .unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    let services = services(fetcher(web)).with_store(store.clone());
    GatewayBuilder::new(policy)
        .services(services)
        .sink(store.clone())
        .register(PAGE)
        .register(provider)
        .build()
        .unwrap_or_else(|e| panic!("{e}\n{yaml}"))
}
