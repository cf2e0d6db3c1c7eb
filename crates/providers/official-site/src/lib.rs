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

sgw_contract::register_provider!(OfficialSiteConfig);
sgw_contract::register_provider!(SiteSearchConfig);
