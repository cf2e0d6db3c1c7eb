//! The SSRF guard: which addresses a fetch may connect to.
//!
//! Names are resolved here (the `resolve:` map first, then the system resolver)
//! and only vetted addresses are handed to the HTTP client, so the address that
//! was checked is the address that is connected to (no DNS rebinding between
//! check and connect). IP-literal URLs never reach a resolver, so the fetcher
//! checks every hop's host with [`Guard::check_url`] as well.

use ipnet::{IpNet, Ipv4Net, Ipv6Net};
use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use url::{Host, Url};

/// Why a target was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GuardError {
    /// The address lies in a range the guard refuses.
    #[error("{} is forbidden: {range} ({cidr})", target(host, addr))]
    Forbidden {
        host: String,
        addr: IpAddr,
        range: String,
        cidr: &'static str,
    },
    /// Only `http` and `https` URLs are fetched.
    #[error("scheme `{0}` is not fetched (only http and https)")]
    Scheme(String),
    /// The URL has no host.
    #[error("URL has no host")]
    NoHost,
    /// The name did not resolve.
    #[error("cannot resolve {host}: {message}")]
    Dns { host: String, message: String },
}

/// `name → addr`, or just the address when the host is the literal.
fn target(host: &str, addr: &IpAddr) -> String {
    let a = addr.to_string();
    if host.trim_matches(['[', ']']) == a {
        a
    } else {
        format!("{host} → {a}")
    }
}

impl GuardError {
    /// True for refusals (as opposed to DNS failures).
    pub fn is_forbidden(&self) -> bool {
        !matches!(self, GuardError::Dns { .. })
    }
}

/// A refused range: its name (for messages) and CIDR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    pub range: &'static str,
    pub cidr: &'static str,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.range, self.cidr)
    }
}

const fn r(range: &'static str, cidr: &'static str) -> Refusal {
    Refusal { range, cidr }
}

const V4_RANGES: &[(&str, &str)] = &[
    ("0.0.0.0/8", "\"this network\" / unspecified"),
    ("10.0.0.0/8", "private network (RFC 1918)"),
    ("100.64.0.0/10", "carrier-grade NAT shared space (RFC 6598)"),
    ("127.0.0.0/8", "loopback"),
    (
        "169.254.169.254/32",
        "cloud instance metadata endpoint (link-local)",
    ),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private network (RFC 1918)"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.0.2.0/24", "documentation (TEST-NET-1)"),
    ("192.88.99.0/24", "6to4 relay anycast"),
    ("192.168.0.0/16", "private network (RFC 1918)"),
    ("198.18.0.0/15", "benchmarking (RFC 2544)"),
    ("198.51.100.0/24", "documentation (TEST-NET-2)"),
    ("203.0.113.0/24", "documentation (TEST-NET-3)"),
    ("224.0.0.0/4", "multicast"),
    ("255.255.255.255/32", "broadcast"),
    ("240.0.0.0/4", "reserved (class E)"),
];

const V6_RANGES: &[(&str, &str)] = &[
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("64:ff9b:1::/48", "local-use NAT64 (RFC 8215)"),
    ("100::/64", "discard-only (RFC 6666)"),
    ("2001:db8::/32", "documentation"),
    (
        "2001::/23",
        "IETF special-purpose (Teredo, benchmarking, ORCHID)",
    ),
    ("3fff::/20", "documentation (RFC 9637)"),
    ("fc00::/7", "unique-local (private)"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local (deprecated)"),
    ("ff00::/8", "multicast"),
];

/// The static range a v4 address falls in, if refused.
fn v4_refusal(a: Ipv4Addr) -> Option<Refusal> {
    V4_RANGES.iter().find_map(|(cidr, range)| {
        let net: Ipv4Net = cidr.parse().ok()?;
        net.contains(&a).then_some(r(range, cidr))
    })
}

/// The IPv4 address embedded in an IPv6 form that carries one
/// (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`,
/// 6to4 `2002:AABB:CCDD::/48`), with the form's name.
fn embedded_v4(a: Ipv6Addr) -> Option<(Ipv4Addr, &'static str, &'static str)> {
    let s = a.segments();
    let low = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if s[..5] == [0, 0, 0, 0, 0] && s[5] == 0xffff {
        return Some((low, "IPv4-mapped IPv6", "::ffff:0:0/96"));
    }
    if s[..6] == [0, 0, 0, 0, 0, 0] && !(s[6] == 0 && s[7] <= 1) {
        return Some((low, "IPv4-compatible IPv6", "::/96"));
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some((low, "NAT64 (64:ff9b::/96)", "64:ff9b::/96"));
    }
    if s[0] == 0x2002 {
        let v4 = Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8);
        return Some((v4, "6to4 (2002::/16)", "2002::/16"));
    }
    None
}

/// Whether `addr` is refused regardless of configuration, and why. Public
/// addresses return `None`.
pub fn refusal(addr: IpAddr) -> Option<Refusal> {
    match addr {
        IpAddr::V4(a) => v4_refusal(a),
        IpAddr::V6(a) => {
            if let Some((v4, form, cidr)) = embedded_v4(a) {
                // The embedded address decides; name both in the reason.
                return v4_refusal(v4).map(|_| r(form, cidr));
            }
            V6_RANGES.iter().find_map(|(cidr, range)| {
                let net: Ipv6Net = cidr.parse().ok()?;
                net.contains(&a).then_some(r(range, cidr))
            })
        }
    }
}

/// Like [`refusal`], as a message: IPv6 forms name the embedded IPv4 range.
fn describe(addr: IpAddr) -> Option<(String, &'static str)> {
    let base = refusal(addr)?;
    if let IpAddr::V6(a) = addr
        && let Some((v4, form, _)) = embedded_v4(a)
        && let Some(inner) = v4_refusal(v4)
    {
        return Some((format!("{form} of {v4}: {}", inner.range), inner.cidr));
    }
    Some((base.range.to_string(), base.cidr))
}

/// Addresses that stay refused even when allow-listed (connecting to them is
/// never meaningful and `0.0.0.0` reaches the local host on Linux).
fn never_allowed(addr: IpAddr) -> bool {
    let addr = canonical(addr);
    match addr {
        IpAddr::V4(a) => a.is_unspecified() || a.is_multicast() || a.is_broadcast(),
        IpAddr::V6(a) => a.is_unspecified() || a.is_multicast(),
    }
}

/// IPv4-mapped IPv6 → IPv4; everything else unchanged.
fn canonical(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V6(a) => match a.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(a),
        },
        v4 => v4,
    }
}

/// The configured exceptions and static resolution.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    allow_hosts: Vec<String>,
    allow_nets: Vec<IpNet>,
    resolve: BTreeMap<String, IpAddr>,
}

impl Guard {
    pub fn new(
        allow_hosts: &[String],
        allow_nets: &[IpNet],
        resolve: &BTreeMap<String, IpAddr>,
    ) -> Guard {
        Guard {
            allow_hosts: allow_hosts.iter().map(|h| h.to_ascii_lowercase()).collect(),
            allow_nets: allow_nets.to_vec(),
            resolve: resolve
                .iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), *v))
                .collect(),
        }
    }

    fn host_allowed(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        self.allow_hosts.iter().any(|a| match a.strip_prefix("*.") {
            Some(suffix) => host.len() > suffix.len() && host.ends_with(&format!(".{suffix}")),
            None => *a == host,
        })
    }

    /// Checks one address for `host` (the name it was reached by, for the
    /// allow list and the message).
    pub fn check_addr(&self, host: &str, addr: IpAddr) -> Result<(), GuardError> {
        let forbidden = |(range, cidr): (String, &'static str)| GuardError::Forbidden {
            host: host.to_string(),
            addr,
            range,
            cidr,
        };
        if never_allowed(addr) {
            return Err(forbidden(
                describe(addr).unwrap_or(("unspecified/multicast/broadcast".to_string(), "-")),
            ));
        }
        let Some(refusal) = describe(addr) else {
            return Ok(());
        };
        if self.host_allowed(host) {
            return Ok(());
        }
        let canon = canonical(addr);
        if self
            .allow_nets
            .iter()
            .any(|n| n.contains(&addr) || n.contains(&canon))
        {
            return Ok(());
        }
        Err(forbidden(refusal))
    }

    /// Checks a URL before any connection: scheme, and the host when it is an
    /// IP literal (names are checked when resolved).
    pub fn check_url(&self, url: &Url) -> Result<(), GuardError> {
        match url.scheme() {
            "http" | "https" => {}
            other => return Err(GuardError::Scheme(other.to_string())),
        }
        match url.host() {
            None => Err(GuardError::NoHost),
            Some(Host::Ipv4(a)) => self.check_addr(&a.to_string(), IpAddr::V4(a)),
            Some(Host::Ipv6(a)) => self.check_addr(&format!("[{a}]"), IpAddr::V6(a)),
            Some(Host::Domain(d)) => {
                // A domain that is a numeric form the URL parser kept as a name
                // (cannot happen for special schemes, kept as defence).
                if let Ok(ip) = d.parse::<IpAddr>() {
                    return self.check_addr(d, ip);
                }
                if let Some(ip) = self.resolve.get(&d.to_ascii_lowercase()) {
                    return self.check_addr(d, *ip);
                }
                Ok(())
            }
        }
    }

    /// Resolves `host` and returns only addresses that pass the guard (port 0:
    /// the connector sets the URL's port). None passing → the first refusal.
    pub async fn resolve(&self, host: &str) -> Result<Vec<SocketAddr>, GuardError> {
        let key = host.trim_end_matches('.').to_ascii_lowercase();
        let candidates: Vec<IpAddr> = if let Some(ip) = self.resolve.get(&key) {
            vec![*ip]
        } else if let Ok(ip) = key.trim_matches(['[', ']']).parse::<IpAddr>() {
            vec![ip]
        } else {
            tokio::net::lookup_host((key.as_str(), 0))
                .await
                .map_err(|e| GuardError::Dns {
                    host: host.to_string(),
                    message: e.to_string(),
                })?
                .map(|sa| sa.ip())
                .collect()
        };
        if candidates.is_empty() {
            return Err(GuardError::Dns {
                host: host.to_string(),
                message: "no addresses".into(),
            });
        }
        let mut ok = Vec::new();
        let mut first_err = None;
        for ip in candidates {
            match self.check_addr(host, ip) {
                Ok(()) => ok.push(SocketAddr::new(ip, 0)),
                Err(e) => {
                    tracing::warn!(target: "sgw_fetch::ssrf", "{e}");
                    first_err.get_or_insert(e);
                }
            }
        }
        match (ok.is_empty(), first_err) {
            (true, Some(e)) => Err(e),
            _ => Ok(ok),
        }
    }
}

/// Whether a person may be asked to open `url` in their own browser (a human
/// evidence request): http(s), and a host that is neither an IP literal the
/// guard refuses (private, loopback, link-local, metadata …) nor a
/// special-use name that only resolves inside a network (`localhost`,
/// `*.internal`, `*.local`, `*.home.arpa`, `*.lan`, `*.invalid`, a single
/// label). A hostile search hit or redirect must never turn into a request
/// that sends someone on the inside network to an internal address.
pub fn human_may_open(url: &Url) -> bool {
    if !matches!(url.scheme(), "http" | "https") {
        return false;
    }
    match url.host() {
        None => false,
        Some(Host::Ipv4(a)) => refusal(IpAddr::V4(a)).is_none(),
        Some(Host::Ipv6(a)) => refusal(IpAddr::V6(a)).is_none(),
        Some(Host::Domain(d)) => {
            let d = d.trim_end_matches('.').to_ascii_lowercase();
            if let Ok(ip) = d.parse::<IpAddr>() {
                return refusal(ip).is_none();
            }
            const SPECIAL: [&str; 8] = [
                "localhost",
                "internal",
                "local",
                "home.arpa",
                "lan",
                "invalid",
                "intranet",
                "corp",
            ];
            d.contains('.')
                && !SPECIAL
                    .iter()
                    .any(|s| d == *s || d.ends_with(&format!(".{s}")))
        }
    }
}

/// The `reqwest` resolver that only ever yields vetted addresses.
#[derive(Debug, Clone)]
pub(crate) struct GuardedResolver(pub(crate) Arc<Guard>);

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let guard = self.0.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs = guard.resolve(&host).await?;
            let it: reqwest::dns::Addrs = Box::new(addrs.into_iter());
            Ok(it)
        })
    }
}

/// Finds a [`GuardError`] in an error's source chain (the resolver's refusal
/// comes back wrapped by the HTTP client).
pub(crate) fn find_guard_error<'a>(
    err: &'a (dyn std::error::Error + 'static),
) -> Option<&'a GuardError> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = cur {
        if let Some(g) = e.downcast_ref::<GuardError>() {
            return Some(g);
        }
        cur = e.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard() -> Guard {
        Guard::default()
    }

    #[test]
    fn refuses_special_ranges_and_names_them() {
        let cases = [
            ("127.0.0.1", "loopback"),
            ("10.1.2.3", "RFC 1918"),
            ("172.31.255.1", "RFC 1918"),
            ("192.168.1.1", "RFC 1918"),
            ("169.254.169.254", "metadata"),
            ("169.254.1.1", "link-local"),
            ("100.64.0.1", "carrier-grade NAT"),
            ("0.0.0.0", "unspecified"),
            ("255.255.255.255", "broadcast"),
            ("224.0.0.1", "multicast"),
            ("192.0.2.5", "documentation"),
            ("198.18.0.1", "benchmarking"),
            ("::1", "loopback"),
            ("::", "unspecified"),
            ("fd00::1", "unique-local"),
            ("fe80::1", "link-local"),
            ("ff02::1", "multicast"),
            ("2001:db8::1", "documentation"),
            ("::ffff:127.0.0.1", "IPv4-mapped"),
            ("::ffff:169.254.169.254", "metadata"),
            ("::10.0.0.1", "IPv4-compatible"),
            ("64:ff9b::a9fe:a9fe", "NAT64"),
            ("2002:7f00:1::", "6to4"),
        ];
        for (ip, needle) in cases {
            let addr: IpAddr = ip.parse().unwrap();
            let e = guard().check_addr("h", addr).unwrap_err().to_string();
            assert!(e.contains(needle), "{ip}: {e}");
        }
    }

    #[test]
    fn public_addresses_pass() {
        for ip in [
            "93.184.216.34",
            "1.1.1.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
        ] {
            guard().check_addr("h", ip.parse().unwrap()).unwrap();
        }
    }

    #[test]
    fn allow_lists() {
        let g = Guard::new(
            &["intranet.corp".into(), "*.lab".into()],
            &["127.0.0.0/8".parse().unwrap()],
            &BTreeMap::new(),
        );
        g.check_addr("x", "127.0.0.2".parse().unwrap()).unwrap();
        g.check_addr("x", "::ffff:127.0.0.2".parse().unwrap())
            .unwrap();
        g.check_addr("intranet.corp", "10.0.0.1".parse().unwrap())
            .unwrap();
        g.check_addr("a.b.lab", "10.0.0.1".parse().unwrap())
            .unwrap();
        assert!(g.check_addr("lab", "10.0.0.1".parse().unwrap()).is_err());
        assert!(g.check_addr("x", "10.0.0.1".parse().unwrap()).is_err());
        // Never allowed, even on an allowed host.
        assert!(
            g.check_addr("intranet.corp", "0.0.0.0".parse().unwrap())
                .is_err()
        );
    }

    #[test]
    fn url_literal_tricks_are_normalized_and_refused() {
        for u in [
            "http://2130706433/",
            "http://0177.0.0.1/",
            "http://0x7f.1/",
            "http://127.1/",
            "http://0/",
            "http://[::ffff:7f00:1]/",
            "http://[0:0:0:0:0:ffff:169.254.169.254]/",
            "http://017700000001/",
        ] {
            let url = Url::parse(u).unwrap();
            assert!(guard().check_url(&url).is_err(), "{u} passed");
        }
        assert!(matches!(
            guard().check_url(&Url::parse("file:///etc/passwd").unwrap()),
            Err(GuardError::Scheme(_))
        ));
    }

    #[tokio::test]
    async fn resolve_map_is_vetted() {
        let mut map = BTreeMap::new();
        map.insert("evil.test".to_string(), "10.0.0.1".parse().unwrap());
        map.insert("ok.test".to_string(), "127.0.0.1".parse().unwrap());
        let g = Guard::new(&[], &["127.0.0.0/8".parse().unwrap()], &map);
        assert!(matches!(
            g.resolve("evil.test").await,
            Err(GuardError::Forbidden { .. })
        ));
        let ok = g.resolve("OK.test").await.unwrap();
        assert_eq!(ok[0].ip().to_string(), "127.0.0.1");
    }
}
