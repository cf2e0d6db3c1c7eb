//! Planning: topic choice, which registry sources fit, and tier classification.

use crate::policy::{Policy, TieringRule};
use regex::Regex;
use sgw_contract::{PlannedSource, SearchRequest, SourceTier, normalize_query};
use url::Url;

/// Compiled planning rules of a policy.
#[derive(Debug, Clone)]
pub struct Planner {
    sources: Vec<PlannedSource>,
    tiering: Vec<TieringRule>,
    topics: Vec<(String, Vec<String>, Vec<Regex>)>,
}

/// The registrable domain (eTLD+1) of a host, or the host itself.
pub fn registrable_domain(host: &str) -> String {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    psl::domain_str(&host).map(str::to_string).unwrap_or(host)
}

fn host_matches(host: &str, domain: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let domain = domain.trim_start_matches('.').to_ascii_lowercase();
    host == domain || host.ends_with(&format!(".{domain}"))
}

impl Planner {
    pub fn new(policy: &Policy) -> Planner {
        let sources = policy
            .sources
            .iter()
            .map(|(id, s)| PlannedSource {
                id: id.clone(),
                ..s.clone()
            })
            .collect();
        let topics = policy
            .topics
            .iter()
            .map(|rule| {
                let keywords = rule.keywords.iter().map(|k| normalize_query(k)).collect();
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
            sources,
            tiering: policy.tiering.clone(),
            topics,
        }
    }

    /// The request's topic if given, else the first matching topic rule, else `default`.
    pub fn topic(&self, request: &SearchRequest) -> String {
        if let Some(t) = request.topic.as_deref().filter(|t| !t.trim().is_empty()) {
            return t.trim().to_string();
        }
        let q = normalize_query(&request.query);
        let padded = format!(" {} ", q.replace(|c: char| !c.is_alphanumeric(), " "));
        for (topic, keywords, patterns) in &self.topics {
            let kw = keywords.iter().any(|k| {
                let k = k.replace(|c: char| !c.is_alphanumeric(), " ");
                padded.contains(&format!(
                    " {} ",
                    k.split_whitespace().collect::<Vec<_>>().join(" ")
                ))
            });
            if kw || patterns.iter().any(|p| p.is_match(&q)) {
                return topic.clone();
            }
        }
        "default".to_string()
    }

    /// Registry sources that fit the request: scope and topic match (an entry
    /// without scopes/topics fits any), hinted domains first, then by tier.
    pub fn plan(&self, request: &SearchRequest, topic: &str) -> Vec<PlannedSource> {
        let scope = request.scope.as_deref().map(normalize_query);
        let mut planned: Vec<PlannedSource> = self
            .sources
            .iter()
            .filter(|s| match &scope {
                Some(scope) if !s.scopes.is_empty() => {
                    s.scopes.iter().any(|x| normalize_query(x) == *scope)
                }
                _ => true,
            })
            .filter(|s| s.topics.is_empty() || s.topics.iter().any(|t| t == topic))
            .cloned()
            .collect();
        let hinted = |s: &PlannedSource| {
            request.hints.domains.iter().any(|h| {
                s.domains
                    .iter()
                    .any(|d| host_matches(h, d) || host_matches(d, h))
            })
        };
        planned.sort_by_key(|s| (!hinted(s), s.tier, s.id.clone()));
        planned
    }

    /// The registry entry owning `host`, if any.
    pub fn source_for_host(&self, host: &str) -> Option<&PlannedSource> {
        self.sources
            .iter()
            .find(|s| s.domains.iter().any(|d| host_matches(host, d)))
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
        let ids = |v: Vec<PlannedSource>| v.into_iter().map(|s| s.id).collect::<Vec<_>>();
        assert_eq!(ids(p.plan(&r, "news")), ["stats", "wire"]);
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
