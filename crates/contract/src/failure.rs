//! Failure codes: every way a retrieval can go wrong, named exactly.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

macro_rules! failure_codes {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, seed = $seed:literal, temporary = $temp:literal; )*) => {
        /// A structured failure code.
        ///
        /// The first fourteen are the seed's, spelled as the seed spells them; the
        /// rest exist because a real condition needs its own name (see
        /// `docs/failure-codes.md`). Serialized as the SCREAMING_SNAKE_CASE name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum FailureCode {
            $( $(#[$doc])* #[serde(rename = $name)] $variant, )*
        }

        impl FailureCode {
            /// Every code, the seed's fourteen first, in the seed's order.
            pub const ALL: &'static [FailureCode] = &[ $( FailureCode::$variant, )* ];

            /// The wire spelling.
            pub const fn as_str(self) -> &'static str {
                match self { $( FailureCode::$variant => $name, )* }
            }

            /// True for the fourteen codes of the seed contract.
            pub const fn is_seed_code(self) -> bool {
                match self { $( FailureCode::$variant => $seed, )* }
            }

            /// True when trying again later can help (timeouts, rate limits,
            /// unreachable hosts, server errors). CAPTCHA, CDN blocks, removals
            /// and robots.txt refusals are not temporary: retrying cannot help
            /// and must not be attempted.
            pub const fn is_temporary(self) -> bool {
                match self { $( FailureCode::$variant => $temp, )* }
            }
        }
    };
}

failure_codes! {
    /// A provider or source did not answer within its time limit.
    SearchProviderTimeout = "SEARCH_PROVIDER_TIMEOUT", seed = true, temporary = true;
    /// HTTP 429 or 503 (or an engine reporting a rate limit).
    SearchProviderRateLimited = "SEARCH_PROVIDER_RATE_LIMITED", seed = true, temporary = true;
    /// A CAPTCHA or challenge page was served instead of content.
    SearchProviderCaptcha = "SEARCH_PROVIDER_CAPTCHA", seed = true, temporary = false;
    /// The body was cut: shorter than Content-Length, or stopped at a size cap.
    SearchResultTruncated = "SEARCH_RESULT_TRUNCATED", seed = true, temporary = false;
    /// Sources were found but none was relevant enough to the query.
    SearchResultLowRelevance = "SEARCH_RESULT_LOW_RELEVANCE", seed = true, temporary = false;
    /// A CDN or WAF refused the request (403 with CDN markers, Cloudflare 1020).
    SourceBlockedByCdn = "SOURCE_BLOCKED_BY_CDN", seed = true, temporary = false;
    /// HTTP 404 or 410.
    Source404OrRemoved = "SOURCE_404_OR_REMOVED", seed = true, temporary = false;
    /// A JavaScript-only application shell with no readable text.
    SourceDynamicPageUnreadable = "SOURCE_DYNAMIC_PAGE_UNREADABLE", seed = true, temporary = false;
    /// The page was fetched but no usable text could be extracted.
    SourceExtractionFailed = "SOURCE_EXTRACTION_FAILED", seed = true, temporary = false;
    /// As above, for a source whose tier is official.
    OfficialSourceFoundButExtractionFailed = "OFFICIAL_SOURCE_FOUND_BUT_EXTRACTION_FAILED", seed = true, temporary = false;
    /// Sources disagree on a requested answer field.
    SourceConflictNeedsReview = "SOURCE_CONFLICT_NEEDS_REVIEW", seed = true, temporary = false;
    /// No cache entry exists for the request's cache key.
    EvidenceCacheMiss = "EVIDENCE_CACHE_MISS", seed = true, temporary = false;
    /// A cache entry exists but is older than its topic's staleness limit.
    EvidenceCacheStale = "EVIDENCE_CACHE_STALE", seed = true, temporary = false;
    /// Automation could not answer; a person was asked for evidence.
    HumanEvidenceRequired = "HUMAN_EVIDENCE_REQUIRED", seed = true, temporary = false;
    /// robots.txt disallows the URL for our user agent; it was not fetched.
    SourceRobotsDisallowed = "SOURCE_ROBOTS_DISALLOWED", seed = false, temporary = false;
    /// The page is behind a login wall (401, or a sign-in form instead of content).
    SourceLoginRequired = "SOURCE_LOGIN_REQUIRED", seed = false, temporary = false;
    /// The SSRF guard refused the target address (private, loopback, metadata, …).
    SourceAddressForbidden = "SOURCE_ADDRESS_FORBIDDEN", seed = false, temporary = false;
    /// DNS failure, connection refused or reset, TLS failure.
    SourceUnreachable = "SOURCE_UNREACHABLE", seed = false, temporary = true;
    /// HTTP 5xx other than 503.
    SourceServerError = "SOURCE_SERVER_ERROR", seed = false, temporary = true;
    /// The provider cannot run as configured (missing API key, bad template).
    SearchProviderMisconfigured = "SEARCH_PROVIDER_MISCONFIGURED", seed = false, temporary = false;
}

impl FailureCode {
    /// The fourteen codes of the seed contract, in its order.
    pub fn seed_codes() -> impl Iterator<Item = FailureCode> {
        FailureCode::ALL
            .iter()
            .copied()
            .filter(|c| c.is_seed_code())
    }
}

impl fmt::Display for FailureCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failure code name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown failure code `{0}`")]
pub struct UnknownFailureCode(pub String);

impl FromStr for FailureCode {
    type Err = UnknownFailureCode;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FailureCode::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownFailureCode(s.to_string()))
    }
}

/// The seed's coarse classifier, kept with its exact precedence: CAPTCHA,
/// then 403 → CDN, 404 → removed, then dynamic page, else extraction failed.
///
/// The network layer (`sgw-fetch`) does the fine-grained diagnosis from real
/// responses; this function is the contract's fallback and the seed tests' subject.
pub fn classify_http_or_extraction_failure(
    status_code: Option<u16>,
    dynamic_page: bool,
    captcha: bool,
) -> FailureCode {
    if captcha {
        return FailureCode::SearchProviderCaptcha;
    }
    match status_code {
        Some(403) => FailureCode::SourceBlockedByCdn,
        Some(404) => FailureCode::Source404OrRemoved,
        _ if dynamic_page => FailureCode::SourceDynamicPageUnreadable,
        _ => FailureCode::SourceExtractionFailed,
    }
}
