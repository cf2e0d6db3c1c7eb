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
