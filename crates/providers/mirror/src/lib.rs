//! `sgw-provider-mirror`: Search Gateway's providers for the
//! `authoritative_mirror_or_media` step — `web-archive` (archived snapshots
//! of the planned sources' pages through a Wayback-style availability API,
//! marked with `metadata.snapshot_at`) and `mirror` (official hosts rewritten
//! to their mirrors; authoritative media found through their site search).
//!
//! It is **not** a way around a block (archives and mirrors are read through
//! the same network layer, robots.txt and all), holds no politeness, retry,
//! SSRF or tier logic (its tiers are hints: an archived OFFICIAL_PRIMARY page
//! is hinted OFFICIAL_SECONDARY, a mirror OFFICIAL_SECONDARY, a media hit
//! AUTHORITATIVE_MEDIA; the orchestrator decides), and never crawls.
#![doc = include_str!("../README.md")]

mod archive;
mod config;
mod mirror;
mod originals;
pub mod wayback;

pub use archive::{WebArchiveProvider, archived_tier};
pub use config::{MediaSite, MirrorConfig, MirrorRule, WAYBACK_AVAILABILITY, WebArchiveConfig};
pub use mirror::{MirrorProvider, rewrite};

use sgw_contract::{BuildContext, FactoryError, Provider, ProviderFactory};
use sgw_provider_common::{fetcher, parse_config};
use std::sync::Arc;

/// The chain step these kinds are designed for.
pub const STEP: &str = "authoritative_mirror_or_media";

/// Builds a `web-archive` provider.
pub fn build_web_archive(
    config: &serde_json::Value,
    ctx: &BuildContext,
) -> Result<Arc<dyn Provider>, FactoryError> {
    let cfg: WebArchiveConfig = parse_config(config)?;
    cfg.validate()?;
    Ok(Arc::new(WebArchiveProvider {
        cfg,
        fetcher: fetcher(ctx)?,
    }))
}

/// Builds a `mirror` provider.
pub fn build_mirror(
    config: &serde_json::Value,
    ctx: &BuildContext,
) -> Result<Arc<dyn Provider>, FactoryError> {
    let cfg: MirrorConfig = parse_config(config)?;
    cfg.validate()?;
    Ok(Arc::new(MirrorProvider {
        cfg,
        fetcher: fetcher(ctx)?,
    }))
}

/// The factories of this crate (also registered with `inventory`; this is
/// the explicit fallback path).
pub fn factories() -> [ProviderFactory; 2] {
    [WEB_ARCHIVE, MIRROR]
}

const WEB_ARCHIVE: ProviderFactory = ProviderFactory {
    kind: "web-archive",
    step: STEP,
    crate_name: env!("CARGO_PKG_NAME"),
    description: "Archived snapshots of the planned sources' pages (Wayback-style availability API), with snapshot_at",
    build: build_web_archive,
};

const MIRROR: ProviderFactory = ProviderFactory {
    kind: "mirror",
    step: STEP,
    crate_name: env!("CARGO_PKG_NAME"),
    description: "Official hosts rewritten to their mirrors, and authoritative media searched through their site search",
    build: build_mirror,
};

sgw_contract::inventory::submit! { WEB_ARCHIVE }
sgw_contract::inventory::submit! { MIRROR }
