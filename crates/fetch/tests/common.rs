//! Shared helpers: a simulated web and a fetcher configured for it.

use sgw_fetch::{FetchConfig, FetchError, FetchRequest, FetchResponse, Fetcher};
use sgw_testkit::SimWeb;

/// The `network:` section a policy embeds, as the testkit generates it.
#[derive(serde::Deserialize)]
struct PolicyFragment {
    network: FetchConfig,
}

/// A config for `web`, built from the testkit's own policy fragment (so the
/// field names the testkit writes are checked here), with short limits.
pub fn config(web: &SimWeb) -> FetchConfig {
    let frag: PolicyFragment = serde_saphyr::from_str(&web.policy_fragment()).unwrap_or_else(|e| {
        panic!(
            "policy fragment does not parse: {e}\n{}",
            web.policy_fragment()
        )
    });
    let mut cfg = frag.network;
    cfg.timeouts.connect_ms = 1_000;
    cfg.timeouts.first_byte_ms = 400;
    cfg.timeouts.total_ms = 1_500;
    cfg.retries.max = 0;
    cfg.per_host_rate.requests_per_second = 1_000.0;
    cfg.per_host_rate.burst = 1_000;
    cfg.per_host_concurrency = 8;
    cfg.max_body_bytes = 1 << 20;
    cfg.max_decompressed_bytes = 1 << 20;
    cfg
}

pub fn fetcher(web: &SimWeb) -> Fetcher {
    Fetcher::new(config(web)).expect("valid config")
}

pub async fn page(
    f: &Fetcher,
    web: &SimWeb,
    host: &str,
    path: &str,
) -> Result<FetchResponse, FetchError> {
    f.fetch(&FetchRequest::page(web.url(host, path))).await
}
