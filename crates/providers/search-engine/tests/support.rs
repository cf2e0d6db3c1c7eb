//! Calls at the search-engine step; the fetcher, factory building and call
//! data come from `sgw_testkit::provider`.

use sgw_contract::{PlannedSource, Provider, ProviderError, ProviderReport};
use sgw_testkit::provider::CallData;
use std::time::Duration;

const STEP: sgw_contract::ChainStep = sgw_contract::ChainStep::SearchEngineProvider;

/// Runs `provider` for `query` under `topic` on `sources` (up to 10 read),
/// with `budget`.
pub async fn run_until(
    provider: &dyn Provider,
    query: &str,
    topic: &str,
    sources: &[PlannedSource],
    budget: Duration,
) -> Result<ProviderReport, ProviderError> {
    let mut data = CallData::new(query, topic, STEP)
        .with_sources(sources.to_vec())
        .with_budget(budget);
    data.max_sources = 10;
    data.run(provider).await
}

/// [`run_until`] with a 20 s budget.
pub async fn run_with(
    provider: &dyn Provider,
    query: &str,
    topic: &str,
    sources: &[PlannedSource],
) -> Result<ProviderReport, ProviderError> {
    run_until(provider, query, topic, sources, Duration::from_secs(20)).await
}

/// [`run_with`] for `query`, topic `default`, no sources.
pub async fn run(provider: &dyn Provider, query: &str) -> Result<ProviderReport, ProviderError> {
    run_with(provider, query, "default", &[]).await
}
