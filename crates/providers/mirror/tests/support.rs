//! What is particular to the mirror step; the fetcher, factory building and
//! call data come from `sgw_testkit::provider`.

use sgw_contract::{
    PlannedSource, Provider, ProviderError, ProviderReport, SearchRequest, SourceTier,
};
use sgw_testkit::provider::{self, CallData};

const STEP: sgw_contract::ChainStep = sgw_contract::ChainStep::AuthoritativeMirrorOrMedia;

/// A planned source on `domain` with its entry URLs.
pub fn source(id: &str, tier: SourceTier, domain: &str, entry_urls: Vec<String>) -> PlannedSource {
    PlannedSource {
        entry_urls,
        ..provider::source(id, domain, tier)
    }
}

/// Runs `provider` at the mirror step for `request` on `sources`, up to 10.
pub async fn run(
    provider: &dyn Provider,
    request: &SearchRequest,
    sources: &[PlannedSource],
) -> Result<ProviderReport, ProviderError> {
    let mut data =
        CallData::for_request(request.clone(), "default", STEP).with_sources(sources.to_vec());
    data.max_sources = 10;
    data.run(provider).await
}
