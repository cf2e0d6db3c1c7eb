//! `sgw-fetch` is Search Gateway's one HTTP client: every provider fetches
//! through it. It resolves names itself and refuses private, loopback,
//! link-local and metadata addresses (SSRF guard), honours robots.txt for
//! pages, keeps per-host rate and concurrency limits, caps body and
//! decompressed sizes, decodes text, and diagnoses every failure as exactly one
//! [`sgw_contract::FailureCode`].
//!
//! It is **not** an extractor (that is `sgw-extract`), not a browser (no
//! JavaScript), and never a way around a gate: CAPTCHA, challenge pages, logins
//! and robots.txt refusals are reported, not bypassed.
#![doc = include_str!("../README.md")]

mod config;
mod ssrf;

pub use config::{ConfigError, FetchConfig, RateConfig, RetryConfig, RobotsConfig, Timeouts};
pub use ssrf::{Guard, GuardError, Refusal, refusal};
