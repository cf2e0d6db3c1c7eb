//! Per-host politeness: a concurrency cap (semaphore per host), a token
//! bucket (governor, keyed by host) and robots.txt `Crawl-delay` spacing.
//! Every wait ends at the caller's deadline.
//!
//! The token bucket runs on the standard monotonic clock: no calibration at
//! start-up (a TSC clock busy-loops to calibrate itself, which a short-lived
//! `sgw` run cannot afford).

use governor::clock::{Clock, MonotonicClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::config::FetchConfig;

/// Why a slot could not be had before the deadline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Wait {
    /// Too many requests in flight to the host until the deadline.
    Concurrency,
    /// The rate limit or crawl delay would need waiting past the deadline.
    Rate { wait: Duration, why: &'static str },
}

type HostLimiter = RateLimiter<String, DefaultKeyedStateStore<String>, MonotonicClock>;

pub(crate) struct Politeness {
    limiter: HostLimiter,
    semaphores: Mutex<HashMap<String, Arc<Semaphore>>>,
    /// Earliest instant of the next request per host, under a crawl delay.
    next_slot: Mutex<HashMap<String, Instant>>,
    concurrency: usize,
}

impl std::fmt::Debug for Politeness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Politeness")
            .field("concurrency", &self.concurrency)
            .finish_non_exhaustive()
    }
}

impl Politeness {
    pub(crate) fn new(cfg: &FetchConfig) -> Politeness {
        let period = Duration::from_secs_f64(1.0 / cfg.per_host_rate.requests_per_second);
        let burst = NonZeroU32::new(cfg.per_host_rate.burst).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::with_period(period.max(Duration::from_nanos(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst);
        Politeness {
            limiter: RateLimiter::new(quota, DefaultKeyedStateStore::default(), MonotonicClock),
            semaphores: Mutex::new(HashMap::new()),
            next_slot: Mutex::new(HashMap::new()),
            concurrency: cfg.per_host_concurrency.max(1) as usize,
        }
    }

    fn semaphore(&self, host: &str) -> Arc<Semaphore> {
        let mut map = self.semaphores.lock().unwrap_or_else(|p| p.into_inner());
        // Bounded memory: forget idle hosts when the map grows large.
        if map.len() > 10_000 {
            map.retain(|_, s| s.available_permits() < self.concurrency);
            self.limiter.retain_recent();
        }
        map.entry(host.to_string())
            .or_insert_with(|| Arc::new(Semaphore::new(self.concurrency)))
            .clone()
    }

    /// Waits for a request slot to `host`: a concurrency permit (held until
    /// the returned permit is dropped), the crawl delay, and a rate token.
    pub(crate) async fn acquire(
        &self,
        host: &str,
        crawl_delay: Option<Duration>,
        deadline: Instant,
    ) -> Result<OwnedSemaphorePermit, Wait> {
        let sem = self.semaphore(host);
        let permit = tokio::time::timeout_at(deadline, sem.acquire_owned())
            .await
            .map_err(|_| Wait::Concurrency)?
            .map_err(|_| Wait::Concurrency)?;

        if let Some(delay) = crawl_delay.filter(|d| !d.is_zero()) {
            let slot = {
                let mut map = self.next_slot.lock().unwrap_or_else(|p| p.into_inner());
                let now = Instant::now();
                if map.len() > 10_000 {
                    map.retain(|_, t| *t > now);
                }
                let slot = map.get(host).copied().filter(|t| *t > now).unwrap_or(now);
                if slot > deadline {
                    return Err(Wait::Rate {
                        wait: slot - now,
                        why: "robots.txt Crawl-delay",
                    });
                }
                map.insert(host.to_string(), slot + delay);
                slot
            };
            tokio::time::sleep_until(slot).await;
        }

        loop {
            match self.limiter.check_key(&host.to_string()) {
                Ok(()) => break,
                Err(not_until) => {
                    let wait = not_until.wait_time_from(MonotonicClock.now());
                    let now = Instant::now();
                    if now + wait > deadline {
                        return Err(Wait::Rate {
                            wait,
                            why: "per-host rate limit (network.per_host_rate)",
                        });
                    }
                    tokio::time::sleep(wait).await;
                }
            }
        }
        Ok(permit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn concurrency_cap_and_deadline() {
        let cfg = FetchConfig {
            per_host_concurrency: 1,
            ..FetchConfig::default()
        };
        let p = Politeness::new(&cfg);
        let far = Instant::now() + Duration::from_secs(5);
        let held = p.acquire("a.test", None, far).await.unwrap();
        // A second request to the same host waits; with an immediate deadline it fails.
        let err = p.acquire("a.test", None, Instant::now()).await.unwrap_err();
        assert_eq!(err, Wait::Concurrency);
        // Another host is independent.
        drop(p.acquire("b.test", None, far).await.unwrap());
        drop(held);
        drop(p.acquire("a.test", None, far).await.unwrap());
    }

    #[tokio::test]
    async fn rate_limit_past_deadline_is_refused() {
        let mut cfg = FetchConfig::default();
        cfg.per_host_rate.requests_per_second = 0.01;
        cfg.per_host_rate.burst = 1;
        let p = Politeness::new(&cfg);
        let far = Instant::now() + Duration::from_secs(5);
        drop(p.acquire("a.test", None, far).await.unwrap());
        let err = p.acquire("a.test", None, far).await.unwrap_err();
        assert!(matches!(err, Wait::Rate { .. }), "{err:?}");
    }

    #[tokio::test]
    async fn crawl_delay_past_deadline_is_refused() {
        let p = Politeness::new(&FetchConfig::default());
        let far = Instant::now() + Duration::from_secs(5);
        let delay = Some(Duration::from_secs(60));
        drop(p.acquire("a.test", delay, far).await.unwrap());
        let err = p.acquire("a.test", delay, far).await.unwrap_err();
        assert!(
            matches!(
                err,
                Wait::Rate {
                    why: "robots.txt Crawl-delay",
                    ..
                }
            ),
            "{err:?}"
        );
    }
}
