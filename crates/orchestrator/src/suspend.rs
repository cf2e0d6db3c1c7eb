//! Suspension (a circuit breaker per provider instance): after a
//! provider-level failure the provider rests for the policy's duration and
//! its turns are recorded as skipped attempts.

use crate::policy::Suspension;
use sgw_contract::{FailureCode, ProviderError};
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
        }
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
            let b = self.rules.timeout_backoff;
            let exp = state.consecutive_timeouts.min(16);
            state.consecutive_timeouts += 1;
            Some(Duration::from_secs(
                b.initial_secs.saturating_mul(1 << exp).min(b.max_secs),
            ))
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
