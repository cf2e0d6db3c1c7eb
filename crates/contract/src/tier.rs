//! Trust tiers: how much a source is trusted before anything else is known.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The trust tier of a source, from most to least trusted.
///
/// Serialized exactly as the seed spells it (`"OFFICIAL_PRIMARY"`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SourceTier {
    OfficialPrimary,
    OfficialSecondary,
    AuthoritativeMedia,
    SpecializedDatabase,
    GeneralWeb,
    UserSuppliedEvidence,
}

impl SourceTier {
    /// Every tier, most trusted first.
    pub const ALL: [SourceTier; 6] = [
        SourceTier::OfficialPrimary,
        SourceTier::OfficialSecondary,
        SourceTier::AuthoritativeMedia,
        SourceTier::SpecializedDatabase,
        SourceTier::GeneralWeb,
        SourceTier::UserSuppliedEvidence,
    ];

    /// The seed's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            SourceTier::OfficialPrimary => "OFFICIAL_PRIMARY",
            SourceTier::OfficialSecondary => "OFFICIAL_SECONDARY",
            SourceTier::AuthoritativeMedia => "AUTHORITATIVE_MEDIA",
            SourceTier::SpecializedDatabase => "SPECIALIZED_DATABASE",
            SourceTier::GeneralWeb => "GENERAL_WEB",
            SourceTier::UserSuppliedEvidence => "USER_SUPPLIED_EVIDENCE",
        }
    }

    /// The seed's `SOURCE_CONFIDENCE_BASE` (a policy may override it).
    pub const fn default_base_confidence(self) -> f64 {
        match self {
            SourceTier::OfficialPrimary => 0.95,
            SourceTier::OfficialSecondary => 0.90,
            SourceTier::AuthoritativeMedia => 0.80,
            SourceTier::SpecializedDatabase => 0.78,
            SourceTier::GeneralWeb => 0.55,
            SourceTier::UserSuppliedEvidence => 0.50,
        }
    }

    /// OFFICIAL_PRIMARY or OFFICIAL_SECONDARY.
    pub const fn is_official(self) -> bool {
        matches!(
            self,
            SourceTier::OfficialPrimary | SourceTier::OfficialSecondary
        )
    }
}

impl fmt::Display for SourceTier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tier name that is not one of the six.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown source tier `{0}` (expected one of OFFICIAL_PRIMARY, OFFICIAL_SECONDARY, AUTHORITATIVE_MEDIA, SPECIALIZED_DATABASE, GENERAL_WEB, USER_SUPPLIED_EVIDENCE)"
)]
pub struct UnknownTier(pub String);

impl FromStr for SourceTier {
    type Err = UnknownTier;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SourceTier::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| UnknownTier(s.to_string()))
    }
}
