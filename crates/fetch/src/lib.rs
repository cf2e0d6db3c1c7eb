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
