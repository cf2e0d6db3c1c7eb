//! `FetchConfig`: the `network:` section of a gateway policy.
//!
//! Every field has a default, unknown keys are refused (a typo must not silently
//! fall back to a default), and [`FetchConfig::validate`] checks the values that
//! serde cannot (zero limits, malformed host names, a rate of zero).

use ipnet::IpNet;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Duration;

/// The network layer's configuration (the policy's `network:` section).
///
/// ```yaml
/// network:
///   user_agent: "SearchGatewayBot/0.1 (+mailto:ops@example.org)"
///   timeouts: { connect_ms: 5000, first_byte_ms: 10000, total_ms: 30000 }
///   max_redirects: 5
///   max_body_bytes: 10485760
///   max_decompressed_bytes: 10485760
///   per_host_rate: { requests_per_second: 2.0, burst: 4 }
///   per_host_concurrency: 2
///   retries: { max: 2, base_backoff_ms: 500, max_backoff_ms: 10000 }
///   robots: { enabled: true, cache_ttl_secs: 3600 }
///   allow_hosts: ["intranet.corp.example"]
///   allow_private_networks: ["10.20.0.0/16"]
///   resolve: { "docs.test": "127.0.0.1" }
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FetchConfig {
    /// The `User-Agent` header sent with every request. Its product token (the
    /// text before the first `/`) is the agent name matched against robots.txt
    /// groups unless `robots.agent` says otherwise. Identify the deployment and
    /// give a contact.
    pub user_agent: String,
    /// Connect, first-byte and total time limits.
    pub timeouts: Timeouts,
    /// Maximum number of redirects followed per fetch (each hop is checked by the
    /// SSRF guard and, for pages, robots.txt). More → the fetch fails.
    pub max_redirects: u32,
    /// Cap on the bytes read from the wire (after transfer decoding, before
    /// content decoding). A larger body fails with `SEARCH_RESULT_TRUNCATED`.
    pub max_body_bytes: u64,
    /// Cap on the bytes after content decoding (gzip, deflate, br). Stops
    /// decompression bombs with `SEARCH_RESULT_TRUNCATED`.
    pub max_decompressed_bytes: u64,
    /// Per-host request rate (token bucket, keyed by host name).
    pub per_host_rate: RateConfig,
    /// Maximum requests in flight to one host at once.
    pub per_host_concurrency: u32,
    /// Retries of temporary failures (timeouts, 429/503, 5xx, unreachable).
    pub retries: RetryConfig,
    /// robots.txt handling for page fetches.
    pub robots: RobotsConfig,
    /// Host names the SSRF guard lets through whatever address they resolve to
    /// (intranet deployments). An entry `*.corp.example` matches every subdomain
    /// of `corp.example`. Unspecified, multicast and broadcast addresses stay
    /// refused even for these hosts.
    pub allow_hosts: Vec<String>,
    /// Networks (CIDR) the SSRF guard lets through although they are private,
    /// loopback or otherwise special (e.g. `10.20.0.0/16`, `127.0.0.0/8` in tests).
    pub allow_private_networks: Vec<IpNet>,
    /// Static name resolution, like `curl --resolve`: host name → IP address.
    /// Used instead of DNS for these names (tests, split-horizon setups). The
    /// SSRF guard still checks the address.
    pub resolve: BTreeMap<String, IpAddr>,
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            user_agent: format!(
                "SearchGatewayBot/{} (evidence-first retrieval; honours robots.txt)",
                env!("CARGO_PKG_VERSION")
            ),
            timeouts: Timeouts::default(),
            max_redirects: 5,
            max_body_bytes: 10 * 1024 * 1024,
            max_decompressed_bytes: 10 * 1024 * 1024,
            per_host_rate: RateConfig::default(),
            per_host_concurrency: 2,
            retries: RetryConfig::default(),
            robots: RobotsConfig::default(),
            allow_hosts: Vec::new(),
            allow_private_networks: Vec::new(),
            resolve: BTreeMap::new(),
        }
    }
}

/// Time limits of one fetch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Timeouts {
    /// TCP (and TLS) connection establishment, per attempt, in milliseconds.
    pub connect_ms: u64,
    /// From sending the request to receiving the response headers, per hop.
    pub first_byte_ms: u64,
    /// The whole fetch: every redirect hop, retry and body read. A caller's
    /// deadline, when earlier, wins.
    pub total_ms: u64,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            connect_ms: 5_000,
            first_byte_ms: 10_000,
            total_ms: 30_000,
        }
    }
}

impl Timeouts {
    pub fn connect(&self) -> Duration {
        Duration::from_millis(self.connect_ms)
    }
    pub fn first_byte(&self) -> Duration {
        Duration::from_millis(self.first_byte_ms)
    }
    pub fn total(&self) -> Duration {
        Duration::from_millis(self.total_ms)
    }
}

/// A per-host token bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RateConfig {
    /// Sustained requests per second to one host (may be fractional: 0.5 =
    /// one request every two seconds). Must be > 0.
    pub requests_per_second: f64,
    /// Requests allowed in a burst above the sustained rate (≥ 1).
    pub burst: u32,
}

impl Default for RateConfig {
    fn default() -> Self {
        RateConfig {
            requests_per_second: 2.0,
            burst: 4,
        }
    }
}

/// Retry with exponential backoff, for temporary failures only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetryConfig {
    /// Retries after the first attempt (0 = never retry).
    pub max: u32,
    /// The first backoff, in milliseconds; doubled on each retry. A server's
    /// `Retry-After` replaces it when longer.
    pub base_backoff_ms: u64,
    /// Upper bound of one wait (backoff or `Retry-After`), in milliseconds. A
    /// longer `Retry-After` is not waited for: the failure is returned with it.
    pub max_backoff_ms: u64,
}

impl Default for RetryConfig {
    fn default() -> Self {
        RetryConfig {
            max: 2,
            base_backoff_ms: 500,
            max_backoff_ms: 10_000,
        }
    }
}

/// robots.txt handling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RobotsConfig {
    /// Honour robots.txt for page fetches. Turning this off is an operator
    /// decision the project does not recommend; API fetches never consult it.
    pub enabled: bool,
    /// How long a fetched robots.txt (or its absence) is trusted, in seconds.
    pub cache_ttl_secs: u64,
    /// The agent name matched against `User-agent:` lines. Default: the product
    /// token of `user_agent`.
    pub agent: Option<String>,
    /// Cap on a robots.txt body (RFC 9309 asks parsers to read at least 500 KiB).
    pub max_bytes: u64,
    /// Upper bound on an honoured `Crawl-delay`, in seconds (longer values are
    /// clamped to it, so one hostile file cannot stall every fetch).
    pub max_crawl_delay_secs: u64,
}

impl Default for RobotsConfig {
    fn default() -> Self {
        RobotsConfig {
            enabled: true,
            cache_ttl_secs: 3_600,
            agent: None,
            max_bytes: 512 * 1024,
            max_crawl_delay_secs: 30,
        }
    }
}

/// The longest timeout or backoff a configuration may set (one day), in ms.
const MAX_MS: u64 = 86_400_000;
/// The largest body cap a configuration may set (512 MiB).
const MAX_BYTES: u64 = 512 << 20;
/// The slowest per-host rate (one request per 1000 s) and the fastest.
const MIN_RPS: f64 = 0.001;
const MAX_RPS: f64 = 10_000.0;

/// The configuration is unusable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A field has a value that cannot work; names the `network.` key.
    #[error("network.{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

impl FetchConfig {
    /// Checks what serde cannot: non-zero limits, a usable user agent, valid
    /// host names in `allow_hosts` and `resolve`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        fn bad(field: &'static str, message: impl Into<String>) -> ConfigError {
            ConfigError::Invalid {
                field,
                message: message.into(),
            }
        }
        if self.user_agent.trim().is_empty() {
            return Err(bad("user_agent", "must not be empty"));
        }
        if http::HeaderValue::from_str(&self.user_agent).is_err() {
            return Err(bad(
                "user_agent",
                "must be printable ASCII without control characters",
            ));
        }
        // Every duration and size is range-checked here, before anything turns
        // it into a `Duration`, an `Instant` or an allocation: a value that
        // validates can never overflow later.
        let in_range = |field: &'static str, v: u64, min: u64, max: u64, unit: &str| {
            if v < min || v > max {
                Err(bad(field, format!("{v} is outside {min}..={max} {unit}")))
            } else {
                Ok(())
            }
        };
        in_range(
            "timeouts.connect_ms",
            self.timeouts.connect_ms,
            1,
            MAX_MS,
            "ms",
        )?;
        in_range(
            "timeouts.first_byte_ms",
            self.timeouts.first_byte_ms,
            1,
            MAX_MS,
            "ms",
        )?;
        in_range("timeouts.total_ms", self.timeouts.total_ms, 1, MAX_MS, "ms")?;
        in_range("max_body_bytes", self.max_body_bytes, 1, MAX_BYTES, "bytes")?;
        in_range(
            "max_decompressed_bytes",
            self.max_decompressed_bytes,
            1,
            MAX_BYTES,
            "bytes",
        )?;
        in_range(
            "max_redirects",
            u64::from(self.max_redirects),
            0,
            50,
            "hops",
        )?;
        let rps = self.per_host_rate.requests_per_second;
        if !(rps.is_finite() && (MIN_RPS..=MAX_RPS).contains(&rps)) {
            return Err(bad(
                "per_host_rate.requests_per_second",
                format!(
                    "{rps} is outside {MIN_RPS}..={MAX_RPS} (one request per 1000 s at the slowest)"
                ),
            ));
        }
        in_range(
            "per_host_rate.burst",
            u64::from(self.per_host_rate.burst),
            1,
            10_000,
            "requests",
        )?;
        in_range(
            "per_host_concurrency",
            u64::from(self.per_host_concurrency),
            1,
            1_000,
            "requests",
        )?;
        in_range("retries.max", u64::from(self.retries.max), 0, 20, "retries")?;
        in_range(
            "retries.base_backoff_ms",
            self.retries.base_backoff_ms,
            0,
            MAX_MS,
            "ms",
        )?;
        in_range(
            "retries.max_backoff_ms",
            self.retries.max_backoff_ms,
            0,
            MAX_MS,
            "ms",
        )?;
        if self.retries.max_backoff_ms < self.retries.base_backoff_ms {
            return Err(bad(
                "retries.max_backoff_ms",
                "must be ≥ retries.base_backoff_ms",
            ));
        }
        if self.robots.enabled && self.robots.cache_ttl_secs == 0 {
            return Err(bad(
                "robots.cache_ttl_secs",
                "must be > 0 (robots.txt is fetched once per origin per TTL)",
            ));
        }
        in_range(
            "robots.cache_ttl_secs",
            self.robots.cache_ttl_secs,
            0,
            30 * 86_400,
            "s",
        )?;
        in_range(
            "robots.max_bytes",
            self.robots.max_bytes,
            1,
            16 << 20,
            "bytes",
        )?;
        in_range(
            "robots.max_crawl_delay_secs",
            self.robots.max_crawl_delay_secs,
            0,
            3_600,
            "s",
        )?;
        if let Some(agent) = &self.robots.agent
            && (agent.is_empty() || agent.contains(char::is_whitespace))
        {
            return Err(bad(
                "robots.agent",
                format!("`{agent}` must be one token without spaces"),
            ));
        }
        for h in &self.allow_hosts {
            let name = h.strip_prefix("*.").unwrap_or(h);
            if !valid_host_name(name) {
                return Err(bad(
                    "allow_hosts",
                    format!("`{h}` is not a host name (use `name` or `*.suffix`)"),
                ));
            }
        }
        for h in self.resolve.keys() {
            if !valid_host_name(h) {
                return Err(bad("resolve", format!("`{h}` is not a host name")));
            }
        }
        Ok(())
    }

    /// The robots.txt agent token: `robots.agent`, else the product token of
    /// `user_agent` (`SearchGatewayBot/0.1 (…)` → `SearchGatewayBot`).
    pub fn robots_agent(&self) -> String {
        if let Some(a) = &self.robots.agent {
            return a.clone();
        }
        let token: String = self
            .user_agent
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if token.is_empty() {
            "SearchGatewayBot".to_string()
        } else {
            token
        }
    }
}

fn valid_host_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate() {
        FetchConfig::default().validate().unwrap();
        assert_eq!(FetchConfig::default().robots_agent(), "SearchGatewayBot");
    }

    #[test]
    fn yaml_like_json_round_trip_and_unknown_keys() {
        let c: FetchConfig = serde_json::from_str(
            r#"{"max_redirects": 3, "resolve": {"a.test": "127.0.0.1"},
                "allow_private_networks": ["127.0.0.0/8"], "timeouts": {"total_ms": 100}}"#,
        )
        .unwrap();
        assert_eq!(c.max_redirects, 3);
        assert_eq!(c.timeouts.connect_ms, 5_000);
        assert_eq!(c.timeouts.total_ms, 100);
        c.validate().unwrap();
        let err = serde_json::from_str::<FetchConfig>(r#"{"max_redirect": 3}"#).unwrap_err();
        assert!(err.to_string().contains("max_redirect"), "{err}");
        let err = serde_json::from_str::<FetchConfig>(r#"{"robots": {"ttl": 3}}"#).unwrap_err();
        assert!(err.to_string().contains("ttl"), "{err}");
    }

    #[test]
    fn invalid_values_name_their_field() {
        let mut c = FetchConfig::default();
        c.per_host_rate.requests_per_second = 0.0;
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("per_host_rate.requests_per_second"), "{e}");
        let c = FetchConfig {
            allow_hosts: vec!["bad host".into()],
            ..FetchConfig::default()
        };
        assert!(
            c.validate()
                .unwrap_err()
                .to_string()
                .contains("allow_hosts")
        );
        let c = FetchConfig {
            user_agent: "x\ny".into(),
            ..FetchConfig::default()
        };
        assert!(c.validate().unwrap_err().to_string().contains("user_agent"));
    }

    #[test]
    fn values_that_would_overflow_later_are_refused() {
        type Spoil = fn(&mut FetchConfig);
        let cases: [(&str, Spoil); 6] = [
            ("per_host_rate.requests_per_second", |c| {
                c.per_host_rate.requests_per_second = 1e-12
            }),
            ("per_host_rate.burst", |c| c.per_host_rate.burst = u32::MAX),
            ("timeouts.total_ms", |c| c.timeouts.total_ms = u64::MAX),
            ("retries.max_backoff_ms", |c| {
                c.retries.max_backoff_ms = u64::MAX
            }),
            ("robots.max_crawl_delay_secs", |c| {
                c.robots.max_crawl_delay_secs = u64::MAX
            }),
            ("max_body_bytes", |c| c.max_body_bytes = u64::MAX),
        ];
        for (field, set) in cases {
            let mut c = FetchConfig::default();
            set(&mut c);
            let e = c.validate().unwrap_err().to_string();
            assert!(e.contains(field), "{field}: {e}");
        }
    }
}
