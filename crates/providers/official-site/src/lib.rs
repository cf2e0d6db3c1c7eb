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
