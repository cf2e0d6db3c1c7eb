#![doc = include_str!("../README.md")]

mod config;
mod engine;
pub mod hits;
mod text;

pub use config::{BRAVE_ENDPOINT, BraveConfig, EnvHeader, JsonSearchConfig, SearxngConfig};
pub use engine::{SearchEngineProvider, snippet_evidence};
pub use text::plain;

use engine::Engine;
use sgw_contract::{BuildContext, ChainStep, FactoryError, Provider, ProviderConfig};
use std::sync::Arc;

impl ProviderConfig for SearxngConfig {
    const KIND: &'static str = "searxng";
    const STEP: ChainStep = ChainStep::SearchEngineProvider;
    const DESCRIPTION: &'static str = "A SearXNG instance's JSON API: snippet leads, best hits read; unresponsive engines reported as CAPTCHA / rate limit / timeout";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        let endpoint = self.validate()?;
        Ok(Arc::new(SearchEngineProvider {
            engine: Engine::Searxng {
                endpoint,
                cfg: self,
            },
            fetcher: ctx.fetcher()?,
        }))
    }
}

/// A missing API key is reported when the provider runs
/// (SEARCH_PROVIDER_MISCONFIGURED), so policies check on machines without keys.
impl ProviderConfig for BraveConfig {
    const KIND: &'static str = "brave";
    const STEP: ChainStep = ChainStep::SearchEngineProvider;
    const DESCRIPTION: &'static str =
        "The Brave Search API (key from an environment variable): snippet leads, best hits read";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        let endpoint = self.validate()?;
        Ok(Arc::new(SearchEngineProvider {
            engine: Engine::Brave {
                endpoint,
                cfg: self,
            },
            fetcher: ctx.fetcher()?,
        }))
    }
}

impl ProviderConfig for JsonSearchConfig {
    const KIND: &'static str = "json-search";
    const STEP: ChainStep = ChainStep::SearchEngineProvider;
    const DESCRIPTION: &'static str = "Any JSON search API described by a URL template and JSON pointers: snippet leads, best hits read";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        let pointers = self.validate()?;
        Ok(Arc::new(SearchEngineProvider {
            engine: Engine::Json {
                cfg: self,
                pointers,
            },
            fetcher: ctx.fetcher()?,
        }))
    }
}

sgw_contract::register_provider!(SearxngConfig);
sgw_contract::register_provider!(BraveConfig);
sgw_contract::register_provider!(JsonSearchConfig);
