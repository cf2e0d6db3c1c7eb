//! The `config:` blocks of `web-archive` and `mirror`. Unknown keys are
//! refused; `validate` checks what serde cannot, naming the key at fault.

use serde::Deserialize;
use sgw_contract::FactoryError;
use sgw_provider_common::{HttpUrlError, encode_component, expand_template, parse_http_url};

/// The Internet Archive's availability API.
pub const WAYBACK_AVAILABILITY: &str = "https://archive.org/wayback/available?url={url}";

fn default_availability() -> String {
    WAYBACK_AVAILABILITY.to_string()
}

fn default_max_urls() -> usize {
    5
}

fn default_read_top() -> usize {
    3
}

fn default_true() -> bool {
    true
}

/// `kind: web-archive` — archived copies of the planned sources' pages.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebArchiveConfig {
    /// A Wayback-style availability API, with `{url}` where the URL-encoded
    /// original URL goes (default: the Internet Archive's
    /// `https://archive.org/wayback/available?url={url}`). When the request
    /// has an as-of date, `timestamp=YYYYMMDD` is added.
    #[serde(default = "default_availability")]
    pub availability_url: String,
    /// Original URLs looked up per run at most (entry URLs of the planned
    /// sources, best fit first, then hint URLs; default 5).
    #[serde(default = "default_max_urls")]
    pub max_urls: usize,
    /// Also look up the request's hint URLs (default true).
    #[serde(default = "default_true")]
    pub include_hints: bool,
}

impl WebArchiveConfig {
    pub fn validate(&self) -> Result<(), FactoryError> {
        if !self.availability_url.contains("{url}") {
            return Err(FactoryError::config_field(
                "availability_url",
                "must contain `{url}`",
            ));
        }
        let probe = self
            .availability_url
            .replace("{url}", &encode_component("https://example.org/"));
        parse_http_url(&probe).map_err(|m| {
            FactoryError::config_field(
                "availability_url",
                format!(
                    "`{}` does not expand to an http(s) URL: {m}",
                    self.availability_url
                ),
            )
        })?;
        check_max_urls(self.max_urls)
    }

    /// The availability API URL for `original`.
    pub fn lookup_url(&self, original: &url::Url) -> Result<url::Url, HttpUrlError> {
        parse_http_url(
            &self
                .availability_url
                .replace("{url}", &encode_component(original.as_str())),
        )
    }
}

fn check_max_urls(n: usize) -> Result<(), FactoryError> {
    if n == 0 || n > 50 {
        return Err(FactoryError::config_field(
            "max_urls",
            "must be between 1 and 50",
        ));
    }
    Ok(())
}

/// A rewrite of an official host to the hosts that mirror it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MirrorRule {
    /// The official host (`docs.example.org`), matched exactly (case-insensitive).
    pub from: String,
    /// Mirror hosts tried in order (`mirror.example.net`, optionally with a
    /// `:port`); the path and query are kept.
    pub to: Vec<String>,
}

/// An authoritative media publisher searched through its own site search.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MediaSite {
    /// The publisher's name (set on the evidence).
    pub publisher: String,
    /// The site search, with `{query}` (`https://news.example.com/search?q={query}`).
    pub search_url: String,
    /// Domains whose links on the results page are articles of this publisher
    /// (subdomains included).
    pub domains: Vec<String>,
}

/// `kind: mirror` — official mirrors by host rewrite, and authoritative media
/// by site search.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MirrorConfig {
    /// Host rewrites applied to the planned sources' entry URLs and the hint
    /// URLs (tier hint OFFICIAL_SECONDARY).
    #[serde(default)]
    pub rules: Vec<MirrorRule>,
    /// Media sites searched for the query (tier hint AUTHORITATIVE_MEDIA).
    #[serde(default)]
    pub media: Vec<MediaSite>,
    /// Best hits read per media site (default 3).
    #[serde(default = "default_read_top")]
    pub read_top: usize,
    /// Original URLs rewritten per run at most (default 5).
    #[serde(default = "default_max_urls")]
    pub max_urls: usize,
}

/// `host` or `host:port`, split; `None` when not a host name.
pub fn host_port(s: &str) -> Option<(String, Option<u16>)> {
    let (host, port) = match s.rsplit_once(':') {
        Some((h, p)) => (h, Some(p.parse::<u16>().ok()?)),
        None => (s, None),
    };
    let ok = !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        });
    ok.then(|| (host.to_ascii_lowercase(), port))
}

impl MirrorConfig {
    pub fn validate(&self) -> Result<(), FactoryError> {
        if self.rules.is_empty() && self.media.is_empty() {
            return Err(FactoryError::Config {
                field: None,
                message: "give at least one of `rules` or `media`".into(),
            });
        }
        for (i, r) in self.rules.iter().enumerate() {
            if !matches!(host_port(&r.from), Some((_, None))) {
                return Err(FactoryError::config_field(
                    format!("rules[{i}].from"),
                    format!("`{}` is not a host name", r.from),
                ));
            }
            if r.to.is_empty() {
                return Err(FactoryError::config_field(
                    format!("rules[{i}].to"),
                    "must name at least one mirror host",
                ));
            }
            for (j, t) in r.to.iter().enumerate() {
                if host_port(t).is_none() {
                    return Err(FactoryError::config_field(
                        format!("rules[{i}].to[{j}]"),
                        format!("`{t}` is not a host name (`host` or `host:port`)"),
                    ));
                }
            }
        }
        for (i, m) in self.media.iter().enumerate() {
            if m.publisher.trim().is_empty() {
                return Err(FactoryError::config_field(
                    format!("media[{i}].publisher"),
                    "must not be empty",
                ));
            }
            expand_template(&m.search_url, "test").map_err(|e| {
                FactoryError::config_field(format!("media[{i}].search_url"), e.to_string())
            })?;
            if m.domains.is_empty() {
                return Err(FactoryError::config_field(
                    format!("media[{i}].domains"),
                    "must name at least one domain",
                ));
            }
            for (j, d) in m.domains.iter().enumerate() {
                if !matches!(host_port(d), Some((_, None))) {
                    return Err(FactoryError::config_field(
                        format!("media[{i}].domains[{j}]"),
                        format!("`{d}` is not a domain"),
                    ));
                }
            }
        }
        if self.read_top == 0 || self.read_top > 20 {
            return Err(FactoryError::config_field(
                "read_top",
                "must be between 1 and 20",
            ));
        }
        check_max_urls(self.max_urls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sgw_contract::parse_config;

    fn msg(e: &FactoryError) -> String {
        e.to_string()
    }

    #[test]
    fn web_archive_config() {
        let c: WebArchiveConfig = parse_config(&serde_json::Value::Null).unwrap();
        c.validate().unwrap();
        let u = c
            .lookup_url(&url::Url::parse("https://docs.test/a?b=c").unwrap())
            .unwrap();
        assert_eq!(
            u.as_str(),
            "https://archive.org/wayback/available?url=https%3A%2F%2Fdocs.test%2Fa%3Fb%3Dc"
        );
        let c: WebArchiveConfig =
            parse_config(&json!({"availability_url": "https://a.test/x"})).unwrap();
        assert!(msg(&c.validate().unwrap_err()).starts_with("availability_url"));
        let e = parse_config::<WebArchiveConfig>(&json!({"availability": "x"})).unwrap_err();
        assert!(msg(&e).contains("availability"));
    }

    #[test]
    fn mirror_config() {
        let ok = json!({"rules": [{"from": "docs.test", "to": ["mirror.test", "m2.test:8080"]}],
                        "media": [{"publisher": "P", "search_url": "https://p.test/s?q={query}", "domains": ["p.test"]}]});
        parse_config::<MirrorConfig>(&ok)
            .unwrap()
            .validate()
            .unwrap();
        let e = parse_config::<MirrorConfig>(&json!({}))
            .unwrap()
            .validate()
            .unwrap_err();
        assert!(msg(&e).contains("rules"));
        let mut v = ok.clone();
        v["rules"][0]["to"][1] = json!("bad host:x");
        let e = parse_config::<MirrorConfig>(&v)
            .unwrap()
            .validate()
            .unwrap_err();
        assert!(msg(&e).starts_with("rules[0].to[1]"), "{e}");
        let mut v = ok.clone();
        v["media"][0]["search_url"] = json!("https://p.test/s");
        let e = parse_config::<MirrorConfig>(&v)
            .unwrap()
            .validate()
            .unwrap_err();
        assert!(msg(&e).starts_with("media[0].search_url"), "{e}");
        let mut v = ok;
        v["rules"][0]["too"] = json!([]);
        let e = parse_config::<MirrorConfig>(&v).unwrap_err();
        assert!(msg(&e).contains("too"), "{e}");
        assert_eq!(host_port("A.test:80"), Some(("a.test".into(), Some(80))));
        assert_eq!(host_port("a..test"), None);
    }
}
