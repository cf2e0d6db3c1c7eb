//! `sgw-provider-search-engine`: Search Gateway's search-engine providers
//! for the `search_engine_provider` step — `searxng` (a SearXNG instance's
//! JSON API), `brave` (the Brave Search API) and `json-search` (any JSON
//! search API described by a URL template and JSON pointers).
//!
//! Every hit becomes a **snippet lead** (`snippet_only` evidence, never more
//! than GENERAL_WEB); the best `read_top` hits are fetched and extracted so
//! their own domains can be classified. An engine that is CAPTCHA'd, rate
//! limited, timing out or misconfigured fails the provider as a whole
//! (`Err(ProviderError)`) so the orchestrator can suspend it.
//!
//! It is **not** a scraper of search result pages (APIs only), holds no
//! politeness, retry, SSRF or tier logic (the network layer and the
//! orchestrator own those), and never treats a snippet as authoritative.
#![doc = include_str!("../README.md")]

mod config;
mod engine;
pub mod hits;
mod text;

pub use config::{BRAVE_ENDPOINT, BraveConfig, EnvHeader, JsonSearchConfig, SearxngConfig};
pub use engine::{SearchEngineProvider, snippet_evidence};
pub use text::plain;

use engine::Engine;
use sgw_contract::{BuildContext, FactoryError, Provider, ProviderFactory};
use sgw_provider_common::{fetcher, parse_config};
use std::sync::Arc;

/// The chain step these kinds are designed for.
pub const STEP: &str = "search_engine_provider";

/// Builds a `searxng` provider.
pub fn build_searxng(
    config: &serde_json::Value,
    ctx: &BuildContext,
) -> Result<Arc<dyn Provider>, FactoryError> {
    let cfg: SearxngConfig = parse_config(config)?;
    let endpoint = cfg.validate()?;
    Ok(Arc::new(SearchEngineProvider {
        engine: Engine::Searxng { endpoint, cfg },
        fetcher: fetcher(ctx)?,
    }))
}

/// Builds a `brave` provider. A missing API key is reported when the
/// provider runs (SEARCH_PROVIDER_MISCONFIGURED), so policies check on
/// machines without keys.
pub fn build_brave(
    config: &serde_json::Value,
    ctx: &BuildContext,
) -> Result<Arc<dyn Provider>, FactoryError> {
    let cfg: BraveConfig = parse_config(config)?;
    let endpoint = cfg.validate()?;
    Ok(Arc::new(SearchEngineProvider {
        engine: Engine::Brave { endpoint, cfg },
        fetcher: fetcher(ctx)?,
    }))
}

/// Builds a `json-search` provider.
pub fn build_json_search(
    config: &serde_json::Value,
    ctx: &BuildContext,
) -> Result<Arc<dyn Provider>, FactoryError> {
    let cfg: JsonSearchConfig = parse_config(config)?;
    let pointers = cfg.validate()?;
    Ok(Arc::new(SearchEngineProvider {
        engine: Engine::Json { cfg, pointers },
        fetcher: fetcher(ctx)?,
    }))
}

/// The factories of this crate (also registered with `inventory`; this is
/// the explicit fallback path).
pub fn factories() -> [ProviderFactory; 3] {
    [SEARXNG, BRAVE, JSON_SEARCH]
}

const SEARXNG: ProviderFactory = ProviderFactory {
    kind: "searxng",
    step: STEP,
    crate_name: env!("CARGO_PKG_NAME"),
    description: "A SearXNG instance's JSON API: snippet leads, best hits read; unresponsive engines reported as CAPTCHA / rate limit / timeout",
    build: build_searxng,
};

const BRAVE: ProviderFactory = ProviderFactory {
    kind: "brave",
    step: STEP,
    crate_name: env!("CARGO_PKG_NAME"),
    description: "The Brave Search API (key from an environment variable): snippet leads, best hits read",
    build: build_brave,
};

const JSON_SEARCH: ProviderFactory = ProviderFactory {
    kind: "json-search",
    step: STEP,
    crate_name: env!("CARGO_PKG_NAME"),
    description: "Any JSON search API described by a URL template and JSON pointers: snippet leads, best hits read",
    build: build_json_search,
};

sgw_contract::inventory::submit! { SEARXNG }
sgw_contract::inventory::submit! { BRAVE }
sgw_contract::inventory::submit! { JSON_SEARCH }
