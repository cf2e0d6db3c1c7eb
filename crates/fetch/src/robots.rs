//! robots.txt rules per origin, fetched once and cached with a TTL.
//!
//! RFC 9309 outcomes: 2xx → the file's rules (a file larger than
//! `robots.max_bytes` is parsed up to the cap); 4xx (404 included) → allow
//! all; 5xx, timeouts, unreachable → disallow all (a 5xx is reported as
//! `SOURCE_ROBOTS_DISALLOWED`; an unreachable origin as `SOURCE_UNREACHABLE`
//! and a timeout as `SEARCH_PROVIDER_TIMEOUT`, so a DNS failure never reads as
//! a robots.txt block). Disallow-all outcomes are
//! cached for at most [`ERROR_TTL`], so one blip does not block a host for the
//! full TTL.

use sgw_contract::FailureCode;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::OnceCell;
use tokio::time::Instant;

/// The longest an error outcome (disallow-all for 5xx/unreachable) is cached.
pub(crate) const ERROR_TTL: Duration = Duration::from_secs(60);

/// The rules of one origin.
pub(crate) enum Rules {
    AllowAll {
        why: String,
    },
    DisallowAll {
        why: String,
    },
    File(Box<texting_robots::Robot>),
    /// robots.txt could not be fetched because the origin is unreachable (DNS
    /// failure, refused connection, timeout): RFC 9309 says disallow all, and
    /// the failure is reported as what it is (`SOURCE_UNREACHABLE` or a
    /// timeout), not as a robots.txt block.
    Unreachable {
        code: FailureCode,
        why: String,
    },
    /// The SSRF guard refused the origin (or robots.txt's redirect target).
    Refused(String),
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rules::AllowAll { why } => write!(f, "AllowAll({why})"),
            Rules::DisallowAll { why } => write!(f, "DisallowAll({why})"),
            Rules::File(_) => f.write_str("File"),
            Rules::Refused(why) => write!(f, "Refused({why})"),
            Rules::Unreachable { code, why } => write!(f, "Unreachable({code}: {why})"),
        }
    }
}

/// A cached outcome.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) rules: Rules,
    pub(crate) fetched_at: Instant,
    pub(crate) ttl: Duration,
}

impl Entry {
    pub(crate) fn new(rules: Rules, ttl: Duration) -> Entry {
        let ttl = match rules {
            Rules::DisallowAll { .. } | Rules::Refused(_) | Rules::Unreachable { .. } => {
                ttl.min(ERROR_TTL)
            }
            _ => ttl,
        };
        Entry {
            rules,
            fetched_at: Instant::now(),
            ttl,
        }
    }

    fn fresh(&self) -> bool {
        self.fetched_at.elapsed() < self.ttl
    }

    /// `Err((code, reason))` when `path_and_query` may not be fetched.
    pub(crate) fn check(&self, path_and_query: &str) -> Result<(), (FailureCode, String)> {
        let disallowed = |why: String| (FailureCode::SourceRobotsDisallowed, why);
        match &self.rules {
            Rules::AllowAll { .. } => Ok(()),
            Rules::Refused(why) => Err((FailureCode::SourceAddressForbidden, why.clone())),
            Rules::Unreachable { code, why } => Err((
                *code,
                format!("robots.txt could not be fetched ({why}); the page was not requested"),
            )),
            Rules::DisallowAll { why } => Err(disallowed(format!(
                "robots.txt unavailable ({why}): treated as disallow-all (RFC 9309)"
            ))),
            Rules::File(robot) => {
                if robot.allowed(path_and_query) {
                    Ok(())
                } else {
                    Err(disallowed(format!(
                        "robots.txt disallows {path_and_query} for our user agent"
                    )))
                }
            }
        }
    }

    /// The `Crawl-delay` for our agent, clamped to `max`.
    pub(crate) fn crawl_delay(&self, max: Duration) -> Option<Duration> {
        match &self.rules {
            Rules::File(robot) => robot.delay.and_then(|d| clamp_secs(f64::from(d), max)),
            _ => None,
        }
    }
}

/// A number of seconds from outside (a robots.txt `Crawl-delay`) as a
/// duration of at most `max`: the clamp is applied to the number *before* it
/// becomes a `Duration`, so `1e23` or `18446744073709551615` cannot overflow
/// the conversion. `None` for zero, negative or non-finite values.
pub(crate) fn clamp_secs(secs: f64, max: Duration) -> Option<Duration> {
    if !secs.is_finite() || secs <= 0.0 {
        return None;
    }
    if secs >= max.as_secs_f64() {
        return Some(max);
    }
    Duration::try_from_secs_f64(secs).ok().map(|d| d.min(max))
}

/// Parses a robots.txt body for `agent`. A file the parser rejects is
/// treated as allow-all (RFC 9309 asks parsers to use what they can; the
/// parser only fails on non-UTF-8 garbage).
pub(crate) fn parse(agent: &str, body: &[u8]) -> Rules {
    match texting_robots::Robot::new(agent, body) {
        Ok(robot) => Rules::File(Box::new(robot)),
        Err(e) => Rules::AllowAll {
            why: format!("unparsable robots.txt ignored: {e}"),
        },
    }
}

/// The robots.txt decision a page fetch makes, without the network: parses
/// `body` for `agent` and answers whether `path_and_query` may be fetched and
/// the crawl delay honoured (clamped to `max_delay`). For fuzzing and tools.
pub fn evaluate(
    agent: &str,
    body: &[u8],
    path_and_query: &str,
    max_delay: Duration,
) -> (bool, Option<Duration>) {
    let entry = Entry::new(parse(agent, body), Duration::from_secs(60));
    (
        entry.check(path_and_query).is_ok(),
        entry.crawl_delay(max_delay),
    )
}

/// The per-origin cache. One fetch per origin at a time; concurrent callers
/// wait for it.
#[derive(Debug, Default)]
pub(crate) struct RobotsCache {
    map: Mutex<HashMap<String, Arc<OnceCell<Arc<Entry>>>>>,
}

impl RobotsCache {
    /// The cell for `origin`: the cached one if fresh (or still being
    /// fetched), else a new empty one.
    pub(crate) fn cell(&self, origin: &str) -> Arc<OnceCell<Arc<Entry>>> {
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > 10_000 {
            map.retain(|_, c| c.get().is_none_or(|e| e.fresh()));
        }
        match map.get(origin) {
            Some(c) if c.get().is_none_or(|e| e.fresh()) => c.clone(),
            _ => {
                let c = Arc::new(OnceCell::new());
                map.insert(origin.to_string(), c.clone());
                c
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_rules_and_delay() {
        let e = Entry::new(
            parse(
                "SearchGatewayBot",
                b"User-agent: *\nDisallow: /private\nCrawl-delay: 2\n\nUser-agent: OtherBot\nDisallow: /\n",
            ),
            Duration::from_secs(60),
        );
        assert!(e.check("/public/page").is_ok());
        assert!(e.check("/private/x?y=1").is_err());
        assert_eq!(
            e.crawl_delay(Duration::from_secs(30)),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            e.crawl_delay(Duration::from_secs(1)),
            Some(Duration::from_secs(1))
        );
    }

    #[test]
    fn huge_crawl_delays_clamp_without_overflow() {
        for delay in [
            "99999999999999999999999",
            "18446744073709551615",
            "1e19",
            "3.4e38",
            "inf",
            "NaN",
            "-5",
            "0",
        ] {
            let body = format!("User-agent: *\nCrawl-delay: {delay}\nDisallow: /x\n");
            let e = Entry::new(parse("Bot", body.as_bytes()), Duration::from_secs(60));
            let d = e.crawl_delay(Duration::from_secs(30));
            assert!(
                d.is_none_or(|d| d <= Duration::from_secs(30)),
                "{delay}: {d:?}"
            );
        }
        assert_eq!(
            clamp_secs(1e23, Duration::from_secs(30)),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            clamp_secs(0.5, Duration::from_secs(30)),
            Some(Duration::from_millis(500))
        );
        assert_eq!(clamp_secs(f64::NAN, Duration::from_secs(30)), None);
    }

    #[test]
    fn unavailable_is_short_lived_disallow() {
        let e = Entry::new(
            Rules::DisallowAll {
                why: "HTTP 503".into(),
            },
            Duration::from_secs(3600),
        );
        assert!(e.check("/").unwrap_err().1.contains("503"));
        assert_eq!(e.ttl, ERROR_TTL);
    }

    #[test]
    fn garbage_does_not_panic() {
        for body in [
            &b"\xff\xfe\x00garbage"[..],
            b"Disallow",
            b"User-agent:\nDisallow: [",
            b"\n\n\n:::",
        ] {
            let e = Entry::new(parse("Bot", body), Duration::from_secs(1));
            let _ = e.check("/x");
        }
    }
}
