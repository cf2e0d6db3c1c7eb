//! The fallback chain's steps: where a provider kind runs.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A fallback chain step, in the seed's default order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChainStep {
    DirectOfficialAdapter,
    OfficialSiteSearch,
    StructuredApiOrFeed,
    SearchEngineProvider,
    AuthoritativeMirrorOrMedia,
    CachedEvidence,
    UserSuppliedEvidenceRequest,
}

impl ChainStep {
    /// The seed's default fallback chain.
    pub const DEFAULT_CHAIN: [ChainStep; 7] = [
        ChainStep::DirectOfficialAdapter,
        ChainStep::OfficialSiteSearch,
        ChainStep::StructuredApiOrFeed,
        ChainStep::SearchEngineProvider,
        ChainStep::AuthoritativeMirrorOrMedia,
        ChainStep::CachedEvidence,
        ChainStep::UserSuppliedEvidenceRequest,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            ChainStep::DirectOfficialAdapter => "direct_official_adapter",
            ChainStep::OfficialSiteSearch => "official_site_search",
            ChainStep::StructuredApiOrFeed => "structured_api_or_feed",
            ChainStep::SearchEngineProvider => "search_engine_provider",
            ChainStep::AuthoritativeMirrorOrMedia => "authoritative_mirror_or_media",
            ChainStep::CachedEvidence => "cached_evidence",
            ChainStep::UserSuppliedEvidenceRequest => "user_supplied_evidence_request",
        }
    }

    /// Parses the snake_case name.
    pub fn parse(name: &str) -> Option<ChainStep> {
        ChainStep::DEFAULT_CHAIN
            .into_iter()
            .find(|s| s.as_str() == name)
    }
}

impl fmt::Display for ChainStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
