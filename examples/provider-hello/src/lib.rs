//! `provider-hello`: an example Search Gateway provider kind, `hello`, that
//! reads the page at its configured URL template (`{query}` expanded) and
//! hands it back as evidence. Everything a provider crate needs is here: one
//! typed config, one build, one registration line.

use serde::Deserialize;
use sgw_contract::{
    BuildContext, ChainStep, FactoryError, Provider, ProviderCall, ProviderConfig, ProviderError,
    ProviderReport,
};
use sgw_provider_common::sgw_fetch::Fetcher;
use sgw_provider_common::{PageTarget, expand_url, read_target};
use std::sync::Arc;

/// `config:` of a `hello` provider.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelloConfig {
    /// The page to read, e.g. `https://hello.example/greeting?q={query}`.
    pub url: String,
}

impl ProviderConfig for HelloConfig {
    const KIND: &'static str = "hello";
    const STEP: ChainStep = ChainStep::StructuredApiOrFeed;
    const DESCRIPTION: &'static str = "reads one configured page (the provider-hello example)";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        // A template that cannot expand is a config error naming `url`.
        expand_url(&self.url, "test")
            .map_err(|e| FactoryError::config_field("url", e.to_string()))?;
        Ok(Arc::new(Hello {
            url: self.url,
            fetcher: ctx.fetcher()?,
        }))
    }
}

sgw_contract::register_provider!(HelloConfig);

/// The provider: holds its config and the shared network layer.
struct Hello {
    url: String,
    fetcher: Arc<Fetcher>,
}

#[async_trait::async_trait]
impl Provider for Hello {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let mut report = ProviderReport::default();
        let url = expand_url(&self.url, &call.request.query).map_err(|e| {
            ProviderError::new(
                sgw_contract::FailureCode::SearchProviderMisconfigured,
                e.to_string(),
            )
        })?;
        // Politeness, robots.txt, SSRF guards and retries are the fetcher's;
        // the tier hint and publisher come from a planned source owning the URL.
        let target = PageTarget::new(url, call.sources);
        match read_target(&self.fetcher, &target, call).await {
            Ok((evidence, attempt)) => {
                report.evidence.push(evidence);
                report.attempts.push(attempt);
            }
            Err(attempt) => report.attempts.push(attempt),
        }
        Ok(report)
    }
}
