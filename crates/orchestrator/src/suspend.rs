//! Suspension (a circuit breaker per provider instance): after a
//! provider-level failure the provider rests for the policy's duration and
//! its turns are recorded as skipped attempts.
//!
//! Hosts rest too: when the network layer reports that a host kept a request
//! waiting for headers until it was given up ([`HostHealth::timed_out`]), the
//! host rests on the same timeout back-off as providers (5 s doubling to
//! 120 s by default), and the network layer refuses it meanwhile, so one
//! hanging host costs one timeout, once. Host rests go to the ledger too
//! (keyed `host:<host>`), so other runs and processes skip the host at once.

use crate::policy::Suspension;
use sgw_contract::{
    FailureCode, HostHealth, HostRest, ProviderError, SuspensionRecord, host_ledger_key,
};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

#[derive(Debug, Clone, Copy)]
struct State {
    until: Option<Instant>,
    reason: Option<FailureCode>,
    consecutive_timeouts: u32,
}

/// Suspension state of every provider instance of a gateway.
#[derive(Debug)]
pub(crate) struct Suspensions {
    rules: Suspension,
    states: Mutex<HashMap<String, State>>,
    /// Rest state per host (lower-case, without port).
    hosts: Mutex<HashMap<String, State>>,
    /// Host rests decided here and not yet written to the ledger.
    unsaved_hosts: Mutex<Vec<SuspensionRecord>>,
}

const BLANK: State = State {
    until: None,
    reason: None,
    consecutive_timeouts: 0,
};

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Why a provider is resting now.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Resting {
    pub reason: FailureCode,
    pub remaining: Duration,
}

impl Suspensions {
    pub fn new(rules: Suspension) -> Suspensions {
        Suspensions {
            rules,
            states: Mutex::new(HashMap::new()),
            hosts: Mutex::new(HashMap::new()),
            unsaved_hosts: Mutex::new(Vec::new()),
        }
    }

    /// The next timeout back-off of `state` (and one more consecutive timeout).
    fn timeout_backoff(&self, state: &mut State) -> Duration {
        let b = self.rules.timeout_backoff;
        let exp = state.consecutive_timeouts.min(16);
        state.consecutive_timeouts += 1;
        Duration::from_secs(b.initial_secs.saturating_mul(1 << exp).min(b.max_secs))
    }

    /// Takes over a host's rest recorded elsewhere (another process, an earlier run).
    pub fn adopt_host(
        &self,
        host: &str,
        remaining: Duration,
        reason: FailureCode,
        consecutive_timeouts: u32,
    ) {
        let mut hosts = lock(&self.hosts);
        let state = hosts.entry(host.to_string()).or_insert(BLANK);
        let until = Instant::now() + remaining;
        if state.until.is_none_or(|u| u < until) {
            state.until = Some(until);
            state.reason = Some(reason);
        }
        state.consecutive_timeouts = state.consecutive_timeouts.max(consecutive_timeouts);
    }

    /// The host rests decided since the last call, for the ledger.
    pub fn take_unsaved_hosts(&self) -> Vec<SuspensionRecord> {
        std::mem::take(&mut *lock(&self.unsaved_hosts))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, State>> {
        self.states
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// `Some` while `provider` is suspended.
    pub fn resting(&self, provider: &str) -> Option<Resting> {
        let states = self.lock();
        let state = states.get(provider)?;
        let until = state.until?;
        let now = Instant::now();
        (until > now).then(|| Resting {
            reason: state.reason.unwrap_or(FailureCode::SearchProviderTimeout),
            remaining: until - now,
        })
    }

    /// Records a success: the timeout back-off starts over.
    pub fn succeeded(&self, provider: &str) {
        let mut states = self.lock();
        if let Some(s) = states.get_mut(provider) {
            s.consecutive_timeouts = 0;
        }
    }

    /// Takes over a suspension recorded elsewhere (another process, an
    /// earlier run): it applies when it ends later than the one known here.
    pub fn adopt(
        &self,
        provider: &str,
        remaining: Duration,
        reason: FailureCode,
        consecutive_timeouts: u32,
    ) {
        let mut states = self.lock();
        let state = states.entry(provider.to_string()).or_insert(State {
            until: None,
            reason: None,
            consecutive_timeouts: 0,
        });
        let until = Instant::now() + remaining;
        if state.until.is_none_or(|u| u < until) {
            state.until = Some(until);
            state.reason = Some(reason);
        }
        state.consecutive_timeouts = state.consecutive_timeouts.max(consecutive_timeouts);
    }

    /// Records a provider-level failure; returns the suspension applied (and
    /// the consecutive timeouts so far), if any.
    pub fn failed(&self, provider: &str, error: &ProviderError) -> Option<(Duration, u32)> {
        if !self.rules.enabled {
            return None;
        }
        let mut states = self.lock();
        let state = states.entry(provider.to_string()).or_insert(State {
            until: None,
            reason: None,
            consecutive_timeouts: 0,
        });
        let duration = if error.code == FailureCode::SearchProviderTimeout {
            Some(self.timeout_backoff(state))
        } else {
            self.rules
                .durations_secs
                .get(&error.code)
                .map(|s| Duration::from_secs(*s))
        }?;
        let duration = match error.retry_after {
            Some(ra) if self.rules.honour_retry_after && ra > duration => ra,
            _ => duration,
        };
        state.until = Some(Instant::now() + duration);
        state.reason = Some(error.code);
        Some((duration, state.consecutive_timeouts))
    }
}

impl HostHealth for Suspensions {
    fn resting(&self, host: &str) -> Option<HostRest> {
        if !self.rules.enabled {
            return None;
        }
        let hosts = lock(&self.hosts);
        let state = hosts.get(host)?;
        let until = state.until?;
        let now = Instant::now();
        (until > now).then(|| HostRest {
            reason: state.reason.unwrap_or(FailureCode::SearchProviderTimeout),
            remaining: until - now,
        })
    }

    fn timed_out(&self, host: &str) {
        if !self.rules.enabled {
            return;
        }
        let mut hosts = lock(&self.hosts);
        let state = hosts.entry(host.to_string()).or_insert(BLANK);
        // Requests that were already waiting when the host was put to rest
        // report the same timeout: the back-off grows once per rest.
        if state.until.is_some_and(|u| u > Instant::now()) {
            return;
        }
        let duration = self.timeout_backoff(state);
        state.until = Some(Instant::now() + duration);
        state.reason = Some(FailureCode::SearchProviderTimeout);
        tracing::info!(
            host,
            secs = duration.as_secs(),
            "host sent no response in time: it rests"
        );
        lock(&self.unsaved_hosts).push(SuspensionRecord {
            provider: host_ledger_key(host),
            until: jiff::Timestamp::now() + duration,
            reason: FailureCode::SearchProviderTimeout,
            consecutive_timeouts: state.consecutive_timeouts,
        });
    }

    fn answered(&self, host: &str) {
        if let Some(s) = lock(&self.hosts).get_mut(host) {
            s.consecutive_timeouts = 0;
        }
    }
}
