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

use sgw_contract::{BuildContext, ChainStep, FactoryError, Provider, ProviderConfig};
use std::sync::Arc;

impl ProviderConfig for WebArchiveConfig {
    const KIND: &'static str = "web-archive";
    const STEP: ChainStep = ChainStep::AuthoritativeMirrorOrMedia;
    const DESCRIPTION: &'static str = "Archived snapshots of the planned sources' pages (Wayback-style availability API), with snapshot_at";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        self.validate()?;
        Ok(Arc::new(WebArchiveProvider {
            cfg: self,
            fetcher: ctx.fetcher()?,
        }))
    }
}

impl ProviderConfig for MirrorConfig {
    const KIND: &'static str = "mirror";
    const STEP: ChainStep = ChainStep::AuthoritativeMirrorOrMedia;
    const DESCRIPTION: &'static str = "Official hosts rewritten to their mirrors, and authoritative media searched through their site search";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        self.validate()?;
        Ok(Arc::new(MirrorProvider {
            cfg: self,
            fetcher: ctx.fetcher()?,
        }))
    }
}

sgw_contract::register_provider!(WebArchiveConfig);
sgw_contract::register_provider!(MirrorConfig);
