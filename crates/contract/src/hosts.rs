//! Slow hosts: the network layer reports a host that kept it waiting for a
//! response until it gave up, and refuses that host while it rests. Whoever
//! keeps suspensions (the orchestrator, with the store's ledger behind it)
//! decides how long a host rests, so one hanging host costs one timeout, once.

use crate::FailureCode;
use std::time::Duration;

/// Why, and for how much longer, a host rests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostRest {
    /// The failure that put the host to rest (`SEARCH_PROVIDER_TIMEOUT`).
    pub reason: FailureCode,
    pub remaining: Duration,
}

/// The health of the hosts the network layer talks to.
///
/// The network layer calls [`HostHealth::timed_out`] when a host sent no
/// response headers before it gave up waiting (the connect or first-byte
/// timeout, the caller's deadline, or the caller no longer waiting), and
/// [`HostHealth::answered`] when headers arrived; it asks
/// [`HostHealth::resting`] before each request and fails at once, with the
/// rest's reason, while the host rests. Other failures (refused connections,
/// HTTP errors, CAPTCHAs) are per-URL matters and are not reported here.
pub trait HostHealth: Send + Sync {
    /// `Some` while `host` (lower-case, without port) rests.
    fn resting(&self, host: &str) -> Option<HostRest>;
    /// `host` kept a request waiting for response headers until it was given up.
    fn timed_out(&self, host: &str);
    /// `host` sent response headers: its timeout back-off starts over.
    fn answered(&self, host: &str);
}

/// The ledger key of a host's rest (beside provider suspensions, which are
/// keyed `<policy>/<provider>`): `host:<host>`.
pub fn host_ledger_key(host: &str) -> String {
    format!("host:{host}")
}
