//! `official-site`: read the planned sources' entry pages and the caller's URL hints.

use serde::Deserialize;
use sgw_contract::{
    Attempt, AttemptOutcome, BuildContext, ChainStep, FactoryError, FailureCode, PlannedSource,
    Provider, ProviderCall, ProviderConfig, ProviderError, ProviderReport,
};
use sgw_provider_common::sgw_fetch::Fetcher;
use sgw_provider_common::{
    PageTarget, attempt_failed, check_url_templates, expand_url, parse_http_url, read_into_report,
    require_at_least_one, url_on_domains,
};
use std::sync::Arc;
use url::Url;

/// `config:` of the `official-site` kind.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfficialSiteConfig {
    /// Extra pages read on every request, after the request's URL hints and
    /// the planned sources' `entry_urls`. Each is an absolute http(s) URL,
    /// optionally a template with `{query}` (replaced by the URL-encoded query).
    #[serde(default)]
    pub urls: Vec<String>,
    /// Pages fetched at once (default 4, at least 1). The network layer still
    /// applies its per-host limits.
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
}

pub(crate) fn default_concurrency() -> usize {
    4
}

impl Default for OfficialSiteConfig {
    fn default() -> Self {
        OfficialSiteConfig {
            urls: Vec::new(),
            concurrency: default_concurrency(),
        }
    }
}

/// The `official-site` provider.
#[derive(Debug)]
pub struct OfficialSite {
    fetcher: Arc<Fetcher>,
    config: OfficialSiteConfig,
}

impl OfficialSite {
    pub fn new(fetcher: Arc<Fetcher>, config: OfficialSiteConfig) -> Result<Self, FactoryError> {
        require_at_least_one(&[("concurrency", config.concurrency)])?;
        check_url_templates("urls", &config.urls)?;
        Ok(OfficialSite { fetcher, config })
    }
}

impl ProviderConfig for OfficialSiteConfig {
    const KIND: &'static str = "official-site";
    const STEP: ChainStep = ChainStep::DirectOfficialAdapter;
    const DESCRIPTION: &'static str =
        "Reads the planned official sources' entry pages and the request's URL hints";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        Ok(Arc::new(OfficialSite::new(ctx.fetcher()?, self)?))
    }
}

/// A target for `url` read because `source` lists it: the source's tier and
/// publisher when the URL is on its domains, else whichever planned source owns it.
pub(crate) fn target_of(url: Url, source: &PlannedSource, all: &[PlannedSource]) -> PageTarget {
    if url_on_domains(&url, &source.domains) {
        PageTarget {
            url,
            tier_hint: Some(source.tier),
            publisher: Some(source.publisher.clone()),
        }
    } else {
        PageTarget::new(url, all)
    }
}

#[async_trait::async_trait]
impl Provider for OfficialSite {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let query = &call.request.query;
        let mut targets = Vec::new();
        let mut attempts = Vec::new();
        for hint in &call.request.hints.urls {
            match parse_http_url(hint) {
                Ok(url) => targets.push(PageTarget::new(url, call.sources)),
                Err(why) => attempts.push(attempt_failed(
                    call,
                    hint.as_str(),
                    FailureCode::SearchProviderMisconfigured,
                    format!("hint URL `{hint}` is not usable: {why}"),
                )),
            }
        }
        for source in call.sources {
            for template in &source.entry_urls {
                match expand_url(template, query) {
                    Ok(url) => targets.push(target_of(url, source, call.sources)),
                    Err(e) => attempts.push(attempt_failed(
                        call,
                        template.as_str(),
                        FailureCode::SearchProviderMisconfigured,
                        format!("source `{}` entry_urls: {e}", source.id),
                    )),
                }
            }
        }
        for template in &self.config.urls {
            // Validated when built; a failure here cannot happen but is reported, not unwrapped.
            match expand_url(template, query) {
                Ok(url) => targets.push(PageTarget::new(url, call.sources)),
                Err(e) => attempts.push(attempt_failed(
                    call,
                    template.as_str(),
                    FailureCode::SearchProviderMisconfigured,
                    e.to_string(),
                )),
            }
        }
        if targets.is_empty() {
            attempts.push(
                Attempt::new(call.step, call.provider, AttemptOutcome::Empty).with_detail(
                    "nothing to read: no planned source has entry_urls and the request names no URL",
                ),
            );
            return Ok(ProviderReport {
                attempts,
                ..ProviderReport::default()
            });
        }
        tracing::debug!(
            targets = targets.len(),
            provider = call.provider,
            "reading entry pages"
        );
        Ok(read_into_report(
            &self.fetcher,
            targets,
            call,
            self.config.concurrency,
            attempts,
        )
        .await)
    }
}
