//! `mirror`: official pages read from their mirrors, and authoritative media
//! found through their own site search.

use crate::config::{MediaSite, MirrorConfig, MirrorRule, host_port};
use crate::originals::{Original, originals};
use sgw_contract::{Evidence, Provider, ProviderCall, ProviderError, ProviderReport, SourceTier};
use sgw_provider_common::markup::links;
use sgw_provider_common::sgw_fetch::{FetchRequest, Fetcher};
use sgw_provider_common::{
    Candidate, PageTarget, attempt_empty, attempt_success, expand_template, fetch_failure,
    is_time_sensitive, rank, read_pages, read_target, url_on_domains,
};
use std::sync::Arc;
use std::time::Instant;
use url::Url;

/// The `mirror` provider.
#[derive(Debug, Clone)]
pub struct MirrorProvider {
    pub(crate) cfg: MirrorConfig,
    pub(crate) fetcher: Arc<Fetcher>,
}

/// `url` with its host (and port, when the mirror names one) replaced.
pub fn rewrite(url: &Url, mirror: &str) -> Option<Url> {
    let (host, port) = host_port(mirror)?;
    let mut out = url.clone();
    out.set_host(Some(&host)).ok()?;
    if let Some(p) = port {
        out.set_port(Some(p)).ok()?;
    }
    Some(out)
}

/// The rule whose `from` is the URL's host.
pub fn rule_for<'a>(url: &Url, rules: &'a [MirrorRule]) -> Option<&'a MirrorRule> {
    let host = url.host_str()?.trim_end_matches('.').to_ascii_lowercase();
    rules.iter().find(|r| r.from.eq_ignore_ascii_case(&host))
}

impl MirrorProvider {
    /// Each original with a rule: its mirrors in order, until one reads.
    async fn mirrors(&self, call: &ProviderCall<'_>, report: &mut ProviderReport) {
        if self.cfg.rules.is_empty() {
            return;
        }
        let (targets, notes) = originals(call, true, usize::MAX);
        report.notes.extend(notes);
        let matching: Vec<(Original, &MirrorRule)> = targets
            .into_iter()
            .filter_map(|o| rule_for(&o.url, &self.cfg.rules).map(|r| (o, r)))
            .take(self.cfg.max_urls)
            .collect();
        if matching.is_empty() {
            report.attempts.push(attempt_empty(
                call,
                "mirror rules",
                "no planned entry URL or hint URL is on a host with a mirror rule",
            ));
            return;
        }
        for (original, rule) in matching {
            for to in &rule.to {
                let Some(url) = rewrite(&original.url, to) else {
                    continue;
                };
                let target = PageTarget {
                    url,
                    tier_hint: Some(SourceTier::OfficialSecondary),
                    publisher: original.publisher.clone(),
                };
                match read_target(&self.fetcher, &target, call).await {
                    Ok((mut ev, attempt)) => {
                        if ev.metadata.canonical_url.is_none() {
                            ev.metadata.canonical_url = Some(original.url.to_string());
                        }
                        report.evidence.push(ev);
                        report.attempts.push(attempt);
                        break;
                    }
                    Err(attempt) => report.attempts.push(attempt),
                }
            }
        }
    }

    /// One media site: search, rank its article links, read the best.
    async fn media_site(
        &self,
        site: &MediaSite,
        call: &ProviderCall<'_>,
        report: &mut ProviderReport,
    ) {
        let search = match expand_template(&site.search_url, &call.request.query) {
            Ok(u) => u,
            Err(e) => {
                report
                    .notes
                    .push(format!("media `{}`: {e}", site.publisher));
                return;
            }
        };
        let started = Instant::now();
        let req = FetchRequest::page(search.clone()).with_deadline(call.deadline);
        let resp = match self.fetcher.fetch(&req).await {
            Ok(r) => r,
            Err(e) => {
                report.attempts.push(fetch_failure(call, &e));
                return;
            }
        };
        let mut seen = std::collections::HashSet::new();
        let candidates: Vec<Candidate> = links(resp.text(), &resp.final_url)
            .into_iter()
            .filter(|l| l.element == "a" && url_on_domains(&l.url, &site.domains))
            .filter(|l| l.url != search && l.url != resp.final_url)
            .filter(|l| seen.insert(l.url.clone()))
            .map(|l| Candidate::new(l.url.as_str()).with_title(Some(l.text)))
            .collect();
        let ranked = rank(
            &call.request.query,
            candidates,
            is_time_sensitive(&call.key.topic_type),
        );
        let hits: Vec<Url> = ranked
            .into_iter()
            .filter_map(|r| Url::parse(&r.candidate.url).ok())
            .take(self.cfg.read_top)
            .collect();
        report.attempts.push(
            attempt_success(call, &search, started.elapsed())
                .with_status(Some(resp.status))
                .with_detail(format!(
                    "{} relevant links on {}",
                    hits.len(),
                    site.publisher
                )),
        );
        if hits.is_empty() {
            return;
        }
        let targets: Vec<PageTarget> = hits
            .into_iter()
            .map(|url| PageTarget {
                url,
                tier_hint: Some(SourceTier::AuthoritativeMedia),
                publisher: Some(site.publisher.clone()),
            })
            .collect();
        // All at once: there are at most `read_top`.
        let all = targets.len();
        let (evidence, attempts) = read_pages(&self.fetcher, targets, call, usize::MAX, all).await;
        report.evidence.extend(evidence);
        report.attempts.extend(attempts);
    }
}

#[async_trait::async_trait]
impl Provider for MirrorProvider {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let mut report = ProviderReport::default();
        self.mirrors(call, &mut report).await;
        if !call.request.query.trim().is_empty() {
            for site in &self.cfg.media {
                self.media_site(site, call, &mut report).await;
            }
        }
        dedup(&mut report.evidence);
        Ok(report)
    }
}

/// Drops evidence whose content is identical to an earlier one.
fn dedup(evidence: &mut Vec<Evidence>) {
    let mut seen = std::collections::HashSet::new();
    evidence.retain(|e| seen.insert(e.content_hash.clone()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_host_and_port() {
        let u = Url::parse("https://docs.test:8443/a/b?c=d").unwrap();
        assert_eq!(
            rewrite(&u, "mirror.test").unwrap().as_str(),
            "https://mirror.test:8443/a/b?c=d"
        );
        assert_eq!(
            rewrite(&u, "m.test:9000").unwrap().as_str(),
            "https://m.test:9000/a/b?c=d"
        );
        assert!(rewrite(&u, "bad host").is_none());
        let rules = vec![MirrorRule {
            from: "Docs.test".into(),
            to: vec!["m.test".into()],
        }];
        assert!(rule_for(&u, &rules).is_some());
        assert!(rule_for(&Url::parse("https://sub.docs.test/").unwrap(), &rules).is_none());
    }
}
