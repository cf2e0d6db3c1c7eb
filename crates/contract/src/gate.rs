//! What stands between the gateway and a source: the one gate taxonomy, used
//! by human evidence requests (`sgw`), research gates (`research`) and the
//! failure codes that describe a gate.

use crate::FailureCode;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A gate a person could pass where the gateway may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GateType {
    /// A CAPTCHA (the page's or a search engine's).
    Captcha,
    /// A CDN or firewall refused the gateway (Cloudflare, Akamai, …).
    Cdn,
    /// The content is behind a login.
    Login,
    /// The page has no readable text without JavaScript.
    DynamicPage,
    /// robots.txt asks automated clients not to read it.
    Robots,
    /// Any other reason the page could not be read.
    Other,
}

impl GateType {
    /// Every gate, in this order.
    pub const ALL: [GateType; 6] = [
        GateType::Captcha,
        GateType::Cdn,
        GateType::Login,
        GateType::DynamicPage,
        GateType::Robots,
        GateType::Other,
    ];

    /// The stored spelling (`captcha`, `cdn`, `login`, `dynamic_page`, `robots`, `other`).
    pub const fn as_str(self) -> &'static str {
        match self {
            GateType::Captcha => "captcha",
            GateType::Cdn => "cdn",
            GateType::Login => "login",
            GateType::DynamicPage => "dynamic_page",
            GateType::Robots => "robots",
            GateType::Other => "other",
        }
    }

    /// The gate `code` describes, `Other` for codes that are not gates
    /// (see [`FailureCode::gate`]).
    pub const fn of_code(code: FailureCode) -> GateType {
        match code.gate() {
            Some(gate) => gate,
            None => GateType::Other,
        }
    }
}

impl FailureCode {
    /// The gate a person could pass that this code describes, if any.
    pub const fn gate(self) -> Option<GateType> {
        match self {
            FailureCode::SearchProviderCaptcha => Some(GateType::Captcha),
            FailureCode::SourceBlockedByCdn => Some(GateType::Cdn),
            FailureCode::SourceLoginRequired => Some(GateType::Login),
            FailureCode::SourceDynamicPageUnreadable => Some(GateType::DynamicPage),
            FailureCode::SourceRobotsDisallowed => Some(GateType::Robots),
            _ => None,
        }
    }
}

impl fmt::Display for GateType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A gate spelling that is not one of [`GateType`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a gate (captcha, cdn, cloudflare, login, dynamic_page, robots, other)")]
pub struct UnknownGate(pub String);

impl FromStr for GateType {
    type Err = UnknownGate;

    /// The stored spellings, and `cloudflare` (a research session's spelling
    /// of a CDN block whose diagnosis names Cloudflare).
    fn from_str(s: &str) -> Result<GateType, UnknownGate> {
        match s {
            "cloudflare" => Ok(GateType::Cdn),
            _ => GateType::ALL
                .into_iter()
                .find(|g| g.as_str() == s)
                .ok_or_else(|| UnknownGate(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip_and_codes_map() {
        for gate in GateType::ALL {
            assert_eq!(gate.as_str().parse::<GateType>(), Ok(gate));
            assert_eq!(serde_json::to_string(&gate).unwrap(), format!("\"{gate}\""));
        }
        assert_eq!("cloudflare".parse::<GateType>(), Ok(GateType::Cdn));
        assert!("paywall".parse::<GateType>().is_err());
        let gates: Vec<_> = FailureCode::ALL.iter().filter_map(|c| c.gate()).collect();
        assert_eq!(gates.len(), 5, "every gate but Other has exactly one code");
        assert_eq!(
            GateType::of_code(FailureCode::SearchProviderTimeout),
            GateType::Other
        );
    }
}
