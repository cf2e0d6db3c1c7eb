//! `sgw-fetch` is Search Gateway's one HTTP client: every provider fetches
//! through it. It resolves names itself and refuses private, loopback,
//! link-local and metadata addresses (SSRF guard), honours robots.txt for
//! pages, keeps per-host rate and concurrency limits, caps body and
//! decompressed sizes, decodes text, and diagnoses every failure as exactly one
//! [`sgw_contract::FailureCode`].
//!
//! It is **not** an extractor (that is `sgw-extract`, whose `decode_html` and
//! `looks_like_js_shell` it uses), not a browser (no JavaScript), not a cache
//! (revalidation uses the validators the caller passes), and never a way around
//! a gate: CAPTCHA, challenge pages, logins and robots.txt refusals are
//! reported, not bypassed.
#![doc = include_str!("../README.md")]

mod body;
mod config;
pub mod diagnose;
mod fetcher;
mod politeness;
mod robots;
mod ssrf;
mod types;

pub use config::{ConfigError, FetchConfig, RateConfig, RetryConfig, RobotsConfig, Timeouts};
pub use fetcher::Fetcher;
pub use robots::evaluate as evaluate_robots;
pub use ssrf::{Guard, GuardError, Refusal, human_may_open, refusal};
pub use types::{FetchError, FetchKind, FetchRequest, FetchResponse};
/// Re-exported: the URL type of the API.
pub use url::Url;
