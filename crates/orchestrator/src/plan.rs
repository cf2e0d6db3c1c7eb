//! Planning: topic choice, which registry sources fit, and tier classification.

use crate::policy::{Policy, TieringRule};
use regex::Regex;
use sgw_contract::{PlannedSource, SearchRequest, SourceTier, normalize_query};
use std::sync::Arc;
use url::Url;

/// Compiled planning rules of a policy.
#[derive(Debug, Clone)]
pub struct Planner {
    /// The registry by tier, then id: the plan of every request that no
    /// scope, topic or hint narrows or reorders, shared rather than copied.
    sources: Arc<[PlannedSource]>,
    tiering: Vec<TieringRule>,
    /// Per topic rule: the topic, its keywords as whole-word patterns (see
    /// [`word_pattern`]) and its regexes.
    topics: Vec<(String, Vec<String>, Vec<Regex>)>,
}

/// A topic keyword as [`Planner::topic`] looks for it: normalized, its runs
/// of characters other than letters and digits made single spaces, with a
/// space at each end (built once, with the planner, not per query).
fn word_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push(' ');
    for word in normalize_query(text)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        out.push_str(word);
        out.push(' ');
    }
    if out.len() == 1 {
        out.push(' ');
    }
    out
}

/// The registrable domain (eTLD+1) of a host, or the host itself.
pub fn registrable_domain(host: &str) -> String {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    psl::domain_str(&host).map(str::to_string).unwrap_or(host)
}

/// Whether `host` is `domain` or one of its subdomains, ASCII case ignored
/// (a trailing dot of the host and a leading one of the domain ignored).
fn host_matches(host: &str, domain: &str) -> bool {
    let host = host.trim_end_matches('.').as_bytes();
    let domain = domain.trim_start_matches('.').as_bytes();
    let Some(cut) = host.len().checked_sub(domain.len()) else {
        return false;
    };
    let (head, tail) = host.split_at(cut);
    tail.eq_ignore_ascii_case(domain) && (head.is_empty() || head.ends_with(b"."))
}

impl Planner {
    pub fn new(policy: &Policy) -> Planner {
        let mut sources: Vec<PlannedSource> = policy
            .sources
            .iter()
            .map(|(id, s)| PlannedSource {
                id: id.clone(),
                ..s.clone()
            })
            .collect();
        sources.sort_by(|a, b| (a.tier, &a.id).cmp(&(b.tier, &b.id)));
        let topics = policy
            .topics
            .iter()
            .map(|rule| {
                let keywords = rule.keywords.iter().map(|k| word_pattern(k)).collect();
                // Validation already compiled these; a failure here cannot happen for a validated policy.
                let patterns = rule
                    .patterns
                    .iter()
                    .filter_map(|p| Regex::new(p).ok())
                    .collect();
                (rule.topic.clone(), keywords, patterns)
            })
            .collect();
        Planner {
            sources: sources.into(),
            tiering: policy.tiering.clone(),
            topics,
        }
    }

    /// The request's topic if given, else the first matching topic rule, else `default`.
    pub fn topic(&self, request: &SearchRequest) -> String {
        if let Some(t) = request.topic.as_deref().filter(|t| !t.trim().is_empty()) {
            return t.trim().to_string();
        }
        if self.topics.is_empty() {
            return "default".to_string();
        }
        let q = normalize_query(&request.query);
        let padded = format!(" {} ", q.replace(|c: char| !c.is_alphanumeric(), " "));
        for (topic, keywords, patterns) in &self.topics {
            if keywords.iter().any(|k| padded.contains(k.as_str()))
                || patterns.iter().any(|p| p.is_match(&q))
            {
                return topic.clone();
            }
        }
        "default".to_string()
    }

    /// Registry sources that fit the request: scope and topic match (an entry
    /// without scopes/topics fits any), hinted domains first, then by tier
    /// (then id). When every source fits and none is hinted, the registry
    /// itself is returned (nothing is copied).
    pub fn plan(&self, request: &SearchRequest, topic: &str) -> Arc<[PlannedSource]> {
        let scope = request.scope.as_deref().map(normalize_query);
        let fits = |s: &PlannedSource| {
            let in_scope = match &scope {
                Some(scope) if !s.scopes.is_empty() => {
                    s.scopes.iter().any(|x| normalize_query(x) == *scope)
                }
                _ => true,
            };
            in_scope && (s.topics.is_empty() || s.topics.iter().any(|t| t == topic))
        };
        let hinted = |s: &PlannedSource| {
            request.hints.domains.iter().any(|h| {
                s.domains
                    .iter()
                    .any(|d| host_matches(h, d) || host_matches(d, h))
            })
        };
        if self.sources.iter().all(|s| fits(s) && !hinted(s)) {
            return self.sources.clone();
        }
        let mut planned: Vec<PlannedSource> =
            self.sources.iter().filter(|s| fits(s)).cloned().collect();
        planned.sort_by(|a, b| (!hinted(a), a.tier, &a.id).cmp(&(!hinted(b), b.tier, &b.id)));
        planned.into()
    }

    /// The registry entry owning `host`, if any (the first by id when
    /// several claim it).
    pub fn source_for_host(&self, host: &str) -> Option<&PlannedSource> {
        self.sources
            .iter()
            .filter(|s| s.domains.iter().any(|d| host_matches(host, d)))
            .min_by(|a, b| a.id.cmp(&b.id))
    }

    /// The tier of a source: user evidence stays user evidence; otherwise the
    /// registry, then the tiering rules, then the provider's hint, else
    /// GENERAL_WEB. A snippet that was not fetched is never above GENERAL_WEB.
    pub fn classify(&self, url: &Url, hint: Option<SourceTier>, snippet_only: bool) -> SourceTier {
        if hint == Some(SourceTier::UserSuppliedEvidence) {
            return SourceTier::UserSuppliedEvidence;
        }
        let host = url.host_str().unwrap_or_default();
        let tier = self
            .source_for_host(host)
            .map(|s| s.tier)
            .or_else(|| {
                self.tiering.iter().find_map(|rule| {
                    let hit = match (&rule.domain, &rule.suffix) {
                        (Some(d), _) => host_matches(host, d),
                        (_, Some(suffix)) => host
                            .to_ascii_lowercase()
                            .ends_with(&suffix.to_ascii_lowercase()),
                        _ => false,
                    };
                    hit.then_some(rule.tier)
                })
            })
            .or(hint)
            .unwrap_or(SourceTier::GeneralWeb);
        if snippet_only {
            tier.max(SourceTier::GeneralWeb)
        } else {
            tier
        }
    }

    /// The publisher to credit: the registry's name, else the page's, else the registrable domain.
    pub fn publisher(&self, url: &Url, claimed: Option<&str>) -> String {
        let host = url.host_str().unwrap_or_default();
        self.source_for_host(host)
            .map(|s| s.publisher.clone())
            .or_else(|| claimed.map(str::to_string))
            .unwrap_or_else(|| registrable_domain(host))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Compared in place, hosts match as lower-casing both and comparing did.
        #[test]
        fn hosts_match_as_lower_cased_copies_did(
            host in "[a-cA-C.é]{0,10}",
            domain in "[a-cA-C.é]{0,8}",
        ) {
            let h = host.trim_end_matches('.').to_ascii_lowercase();
            let d = domain.trim_start_matches('.').to_ascii_lowercase();
            let copies = h == d || h.ends_with(&format!(".{d}"));
            proptest::prop_assert_eq!(host_matches(&host, &domain), copies);
        }

        /// A keyword's pattern, built once, finds what building it for each
        /// query did.
        #[test]
        fn keyword_patterns_match_as_built_per_query(
            keyword in "[a-cA-C .,'\\-é]{0,12}",
            query in "[a-cA-C .,'\\-é]{0,24}",
        ) {
            let q = normalize_query(&query);
            let padded = format!(" {} ", q.replace(|c: char| !c.is_alphanumeric(), " "));
            let k = normalize_query(&keyword).replace(|c: char| !c.is_alphanumeric(), " ");
            let per_query = format!(" {} ", k.split_whitespace().collect::<Vec<_>>().join(" "));
            proptest::prop_assert_eq!(
                padded.contains(word_pattern(&keyword).as_str()),
                padded.contains(per_query.as_str())
            );
        }
    }

    fn planner(yaml: &str) -> Planner {
        let (policy, _) = Policy::from_bytes(yaml.as_bytes(), None, &[]).unwrap();
        Planner::new(&policy)
    }

    const YAML: &str = r#"
version: 1
name: t
sources:
  stats:
    publisher: Statistics Office
    tier: OFFICIAL_PRIMARY
    domains: [stats.example]
    scopes: [eu]
  wire:
    publisher: Wire
    tier: AUTHORITATIVE_MEDIA
    domains: [wire.example]
    topics: [news]
tiering:
  - { suffix: ".gov", tier: OFFICIAL_PRIMARY }
  - { domain: "papers.example", tier: SPECIALIZED_DATABASE }
topics:
  - { topic: news, keywords: ["breaking", "latest news"] }
  - { topic: product_or_price, patterns: ["\\bprice\\b"] }
"#;

    #[test]
    fn tiers_come_from_registry_then_rules_then_hint() {
        let p = planner(YAML);
        let u = |s: &str| Url::parse(s).unwrap();
        assert_eq!(
            p.classify(&u("https://www.stats.example/x"), None, false),
            SourceTier::OfficialPrimary
        );
        assert_eq!(
            p.classify(&u("https://agency.gov/x"), None, false),
            SourceTier::OfficialPrimary
        );
        assert_eq!(
            p.classify(&u("https://a.papers.example/x"), None, false),
            SourceTier::SpecializedDatabase
        );
        assert_eq!(
            p.classify(
                &u("https://blog.example/x"),
                Some(SourceTier::AuthoritativeMedia),
                false
            ),
            SourceTier::AuthoritativeMedia
        );
        assert_eq!(
            p.classify(&u("https://blog.example/x"), None, false),
            SourceTier::GeneralWeb
        );
        // snippets never above general web; user evidence never upgraded
        assert_eq!(
            p.classify(&u("https://stats.example/x"), None, true),
            SourceTier::GeneralWeb
        );
        assert_eq!(
            p.classify(
                &u("https://stats.example/x"),
                Some(SourceTier::UserSuppliedEvidence),
                false
            ),
            SourceTier::UserSuppliedEvidence
        );
        // a look-alike domain is not the registry's
        assert_eq!(
            p.classify(&u("https://evilstats.example/x"), None, false),
            SourceTier::GeneralWeb
        );
    }

    #[test]
    fn topics_and_plans() {
        let p = planner(YAML);
        let mut r = SearchRequest::new("Breaking: rates rise");
        assert_eq!(p.topic(&r), "news");
        r.query = "laptop PRICE today".into();
        assert_eq!(p.topic(&r), "product_or_price");
        r.query = "breakingly slow".into();
        assert_eq!(p.topic(&r), "default");
        r.topic = Some("static_reference".into());
        assert_eq!(p.topic(&r), "static_reference");

        let mut r = SearchRequest::new("x");
        let ids = |v: Arc<[PlannedSource]>| v.iter().map(|s| s.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(p.plan(&r, "news")), ["stats", "wire"]);
        // Nothing narrowed or reordered: the registry itself, not a copy.
        assert!(Arc::ptr_eq(&p.plan(&r, "news"), &p.plan(&r, "news")));
        assert_eq!(ids(p.plan(&r, "default")), ["stats"]);
        r.scope = Some("US".into());
        assert_eq!(ids(p.plan(&r, "news")), ["wire"]);
        r.scope = None;
        r.hints.domains = vec!["wire.example".into()];
        assert_eq!(ids(p.plan(&r, "news")), ["wire", "stats"]);
    }

    #[test]
    fn registrable_domains() {
        assert_eq!(registrable_domain("www.bbc.co.uk"), "bbc.co.uk");
        assert_eq!(registrable_domain("a.b.example.com"), "example.com");
    }
}
