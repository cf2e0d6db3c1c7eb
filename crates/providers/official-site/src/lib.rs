//! `sgw-provider-official-site`: the official-site adapters of Search Gateway.
//!
//! - `official-site` (step `direct_official_adapter`) reads the planned
//!   registry sources' `entry_urls` (with `{query}` expanded), the request's
//!   URL hints and configured URLs, concurrently, up to `max_sources`.
//! - `official-site-search` (step `official_site_search`) searches inside an
//!   official site with its own search — an OpenSearch description
//!   (configured or discovered on the home page), the `search_url` template —
//!   or ranks its sitemap, then reads the best hits on the site's own domains.
//!
//! It is **not** a crawler (one results page or sitemap per site, no link
//! following), holds no politeness, retry, SSRF or robots logic (that is
//! `sgw-fetch`) and decides no tier (it passes the registry entry's tier as a
//! hint; the orchestrator classifies).
#![doc = include_str!("../README.md")]

mod direct;
mod site_search;

pub use direct::{OfficialSite, OfficialSiteConfig};
pub use site_search::{
    OfficialSiteSearch, SiteSearchConfig, Sitemap, SitemapEntry, discover_opensearch,
    opensearch_template, parse_sitemap,
};

sgw_contract::inventory::submit! {
    sgw_contract::ProviderFactory {
        kind: "official-site",
        step: "direct_official_adapter",
        crate_name: env!("CARGO_PKG_NAME"),
        description: "Reads the planned official sources' entry pages and the request's URL hints",
        build: direct::build,
    }
}

sgw_contract::inventory::submit! {
    sgw_contract::ProviderFactory {
        kind: "official-site-search",
        step: "official_site_search",
        crate_name: env!("CARGO_PKG_NAME"),
        description: "Searches inside official sites (OpenSearch, search URL template, sitemap) and reads the best hits",
        build: site_search::build,
    }
}

/// The kinds this crate registers (for explicit registration checks).
pub const KINDS: &[&str] = &["official-site", "official-site-search"];
