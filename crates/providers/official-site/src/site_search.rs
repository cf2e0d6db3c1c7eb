//! `official-site-search`: search within an official site through its own
//! search (OpenSearch description, `search_url` template) or its sitemap,
//! then read the best hits on the site's own domains.

use crate::direct::default_concurrency;
use serde::Deserialize;
use sgw_contract::{
    Attempt, BuildContext, ChainStep, FactoryError, FailureCode, PlannedSource, Provider,
    ProviderCall, ProviderConfig, ProviderError, ProviderReport,
};
use sgw_provider_common::markup::{links, start_tags, text_until_close_within};
use sgw_provider_common::sgw_extract::{self, DocumentKind};
use sgw_provider_common::sgw_fetch::{FetchRequest, FetchResponse, Fetcher};
use sgw_provider_common::{
    Candidate, PageTarget, attempt_empty, attempt_failed, attempt_success, expand_template,
    expand_url, fetch_failure, is_time_sensitive, rank, read_into_report, require_at_least_one,
    url_on_domains,
};
use std::sync::Arc;
use std::time::Instant;
use url::Url;

/// The OpenSearch description media type.
const OPENSEARCH_TYPE: &str = "application/opensearchdescription+xml";
/// Sitemap entries considered at most (the sitemap protocol's own limit).
const MAX_SITEMAP_URLS: usize = 50_000;
/// Child sitemaps of a sitemap index followed at most.
const MAX_CHILD_SITEMAPS: usize = 5;

/// `config:` of the `official-site-search` kind.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteSearchConfig {
    /// Planned sources searched at most, best fit first (default 3, at least 1).
    #[serde(default = "default_max_sites")]
    pub max_sites: usize,
    /// Best hits read per site (default 3, at least 1).
    #[serde(default = "default_hits_per_site")]
    pub hits_per_site: usize,
    /// When a source names neither `opensearch_url` nor `search_url`, look for
    /// `<link rel="search" type="application/opensearchdescription+xml">` on
    /// its home page (default true).
    #[serde(default = "default_true")]
    pub discover_opensearch: bool,
    /// Pages fetched at once (default 4, at least 1).
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
}

fn default_max_sites() -> usize {
    3
}
fn default_hits_per_site() -> usize {
    3
}
fn default_true() -> bool {
    true
}

impl Default for SiteSearchConfig {
    fn default() -> Self {
        SiteSearchConfig {
            max_sites: default_max_sites(),
            hits_per_site: default_hits_per_site(),
            discover_opensearch: true,
            concurrency: default_concurrency(),
        }
    }
}

/// The `official-site-search` provider.
#[derive(Debug)]
pub struct OfficialSiteSearch {
    fetcher: Arc<Fetcher>,
    config: SiteSearchConfig,
}

impl OfficialSiteSearch {
    pub fn new(fetcher: Arc<Fetcher>, config: SiteSearchConfig) -> Result<Self, FactoryError> {
        require_at_least_one(&[
            ("max_sites", config.max_sites),
            ("hits_per_site", config.hits_per_site),
            ("concurrency", config.concurrency),
        ])?;
        Ok(OfficialSiteSearch { fetcher, config })
    }
}

impl ProviderConfig for SiteSearchConfig {
    const KIND: &'static str = "official-site-search";
    const STEP: ChainStep = ChainStep::OfficialSiteSearch;
    const DESCRIPTION: &'static str = "Searches inside official sites (OpenSearch, search URL template, sitemap) and reads the best hits";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        Ok(Arc::new(OfficialSiteSearch::new(ctx.fetcher()?, self)?))
    }
}

/// The OpenSearch search template of a description document: the
/// `<Url template>` of type `text/html` (else XHTML, Atom or RSS results).
pub fn opensearch_template(xml: &str) -> Option<String> {
    let rank_type = |t: &str| match t {
        "text/html" | "" => Some(0),
        "application/xhtml+xml" => Some(1),
        "application/atom+xml" => Some(2),
        "application/rss+xml" => Some(3),
        _ => None,
    };
    start_tags(xml)
        .into_iter()
        .filter(|t| t.name == "url")
        .filter(|t| {
            t.attr("method")
                .is_none_or(|m| m.eq_ignore_ascii_case("get"))
                && t.attr("rel")
                    .is_none_or(|r| r.split_whitespace().any(|r| r == "results"))
        })
        .filter_map(|t| {
            let ty = t.attr("type").unwrap_or("").trim().to_ascii_lowercase();
            let ty = ty.split(';').next().unwrap_or("").trim().to_string();
            Some((rank_type(&ty)?, t.attr("template")?.trim().to_string()))
        })
        .filter(|(_, tpl)| !tpl.is_empty())
        .min_by_key(|(r, _)| *r)
        .map(|(_, t)| t)
}

/// The OpenSearch description a home page advertises.
pub fn discover_opensearch(html: &str, base: &Url) -> Option<Url> {
    links(html, base)
        .into_iter()
        .find(|l| {
            l.element == "link"
                && l.rel
                    .as_deref()
                    .is_some_and(|r| r.split_whitespace().any(|r| r == "search"))
                && l.media_type.as_deref() == Some(OPENSEARCH_TYPE)
        })
        .map(|l| l.url)
}

/// One `<url>` of a sitemap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapEntry {
    pub loc: String,
    pub lastmod: Option<String>,
    /// A news sitemap's `<news:title>`, when present.
    pub title: Option<String>,
}

/// What a sitemap document holds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sitemap {
    pub urls: Vec<SitemapEntry>,
    /// `<sitemapindex>` children.
    pub sitemaps: Vec<String>,
}

/// Parses a `<urlset>` or `<sitemapindex>` (forgiving; never fails: a
/// document with neither yields an empty [`Sitemap`]).
pub fn parse_sitemap(xml: &str) -> Sitemap {
    let mut out = Sitemap::default();
    // Which container we are in: Some(true) = <url>, Some(false) = <sitemap>.
    let mut container: Option<bool> = None;
    let tags = start_tags(xml);
    for (i, tag) in tags.iter().enumerate() {
        // An element's text ends before the next start tag: linear overall.
        let next = tags.get(i + 1).map_or(usize::MAX, |t| t.start);
        let text_of = |max: usize| text_until_close_within(xml, tag.end, next, &tag.qname, max);
        match tag.name.as_str() {
            "url" => {
                if out.urls.len() >= MAX_SITEMAP_URLS {
                    break;
                }
                container = Some(true);
                out.urls.push(SitemapEntry {
                    loc: String::new(),
                    lastmod: None,
                    title: None,
                });
            }
            "sitemap" => {
                container = Some(false);
                out.sitemaps.push(String::new());
            }
            "loc" => {
                let text = text_of(2048);
                match container {
                    // The first <loc> of a <url> is the page; image:loc and video
                    // locs come later.
                    Some(true) => {
                        if let Some(e) = out.urls.last_mut().filter(|e| e.loc.is_empty()) {
                            e.loc = text;
                        }
                    }
                    Some(false) => {
                        if let Some(s) = out.sitemaps.last_mut().filter(|s| s.is_empty()) {
                            *s = text;
                        }
                    }
                    None => {}
                }
            }
            "lastmod" | "publication_date" => {
                let text = text_of(64);
                if let (Some(true), Some(e)) = (container, out.urls.last_mut())
                    && e.lastmod.is_none()
                    && !text.is_empty()
                {
                    e.lastmod = Some(text);
                }
            }
            "title" => {
                let text = text_of(300);
                if let (Some(true), Some(e)) = (container, out.urls.last_mut())
                    && e.title.is_none()
                    && !text.is_empty()
                {
                    e.title = Some(text);
                }
            }
            _ => {}
        }
    }
    out.urls.retain(|e| !e.loc.is_empty());
    out.sitemaps.retain(|s| !s.is_empty());
    out
}

/// The site's home page: the origin of the first URL the source names, else
/// `https://<first domain>/`.
fn home_of(source: &PlannedSource) -> Option<Url> {
    let named = source
        .opensearch_url
        .iter()
        .chain(source.search_url.iter())
        .chain(source.sitemap_url.iter())
        .chain(source.entry_urls.iter())
        .chain(source.feed_urls.iter());
    for u in named {
        if let Ok(url) = expand_url(u, "x")
            && let Ok(home) = url.join("/")
        {
            return Some(home);
        }
    }
    let domain = source.domains.first()?;
    Url::parse(&format!("https://{}/", domain.trim_matches('.'))).ok()
}

struct SiteRun<'a, 'c> {
    fetcher: &'a Fetcher,
    call: &'a ProviderCall<'c>,
    source: &'a PlannedSource,
    config: &'a SiteSearchConfig,
    attempts: Vec<Attempt>,
}

impl SiteRun<'_, '_> {
    /// Fetches `url` as a page, recording a failed attempt on error.
    async fn get(&mut self, url: Url) -> Option<FetchResponse> {
        let req = FetchRequest::page(url).with_deadline(self.call.deadline);
        match self.fetcher.fetch(&req).await {
            Ok(r) => Some(r),
            Err(e) => {
                self.attempts.push(fetch_failure(self.call, &e));
                None
            }
        }
    }

    fn ok(&mut self, resp: &FetchResponse, detail: String) {
        self.attempts.push(
            attempt_success(self.call, &resp.url, resp.elapsed)
                .with_status(Some(resp.status))
                .with_detail(detail),
        );
    }

    fn misconfigured(&mut self, target: &str, detail: String) {
        self.attempts.push(attempt_failed(
            self.call,
            target,
            FailureCode::SearchProviderMisconfigured,
            detail,
        ));
    }

    /// The search template from an OpenSearch description at `url`.
    async fn descriptor(&mut self, url: Url) -> Option<String> {
        let resp = self.get(url.clone()).await?;
        match opensearch_template(resp.text()) {
            Some(t) => {
                self.ok(&resp, format!("OpenSearch template {t}"));
                Some(t)
            }
            None => {
                self.attempts.push(
                    attempt_failed(
                        self.call,
                        url.as_str(),
                        FailureCode::SourceExtractionFailed,
                        format!(
                            "{url} is not an OpenSearch description with a usable <Url template> (text/html, Atom or RSS)"
                        ),
                    )
                    .with_status(Some(resp.status)),
                );
                None
            }
        }
    }

    fn on_site(&self, url: &Url) -> bool {
        url_on_domains(url, &self.source.domains)
    }

    /// Runs the site's search at `template`: ranked hits on the site's domains.
    async fn search(&mut self, template: &str) -> Vec<Url> {
        let query = &self.call.request.query;
        let url = match expand_template(template, query) {
            Ok(u) => u,
            Err(e) => {
                self.misconfigured(template, format!("source `{}`: {e}", self.source.id));
                return Vec::new();
            }
        };
        let Some(resp) = self.get(url.clone()).await else {
            return Vec::new();
        };
        let mut candidates = Vec::new();
        let kind = sgw_extract::sniff_kind(&resp.body, Some(&resp.content_type));
        if kind == DocumentKind::Feed {
            // OpenSearch Atom/RSS results.
            if let Ok(doc) =
                sgw_extract::extract(&resp.body, Some(&resp.content_type), Some(&resp.final_url))
            {
                for e in doc.entries {
                    if let Some(link) = e.url.as_deref().and_then(|l| resp.final_url.join(l).ok()) {
                        candidates.push(
                            Candidate::new(link.as_str())
                                .with_title(e.title)
                                .with_date(e.published_at.or(e.updated_at))
                                .with_text(Some(e.text)),
                        );
                    }
                }
            }
        } else {
            let search_path = resp.final_url.path().to_string();
            for l in links(resp.text(), &resp.final_url) {
                if l.element != "a"
                    || l.url.path() == search_path
                    || l.url.path() == "/"
                    || !self.on_site(&l.url)
                {
                    continue;
                }
                candidates.push(Candidate::new(l.url.as_str()).with_title(Some(l.text)));
            }
        }
        let found = candidates.len();
        let hits = self.best(candidates);
        let detail = format!(
            "site search: {found} links on the site, {} relevant to the query",
            hits.len()
        );
        if hits.is_empty() {
            self.attempts.push(
                attempt_empty(self.call, resp.url.as_str(), detail).with_status(Some(resp.status)),
            );
        } else {
            self.ok(&resp, detail);
        }
        hits
    }

    /// Ranks candidates (time-sensitive topics: newest first) and keeps the
    /// best distinct on-site URLs.
    fn best(&self, candidates: Vec<Candidate>) -> Vec<Url> {
        let sensitive = is_time_sensitive(&self.call.key.topic_type);
        let mut out: Vec<Url> = Vec::new();
        for r in rank(&self.call.request.query, candidates, sensitive) {
            let Ok(u) = Url::parse(&r.candidate.url) else {
                continue;
            };
            if self.on_site(&u) && !out.contains(&u) {
                out.push(u);
                if out.len() >= self.config.hits_per_site {
                    break;
                }
            }
        }
        out
    }

    /// Hits from the site's sitemap (one level of sitemap index followed).
    async fn sitemap(&mut self, template: &str) -> Vec<Url> {
        let url = match expand_url(template, &self.call.request.query) {
            Ok(u) => u,
            Err(e) => {
                self.misconfigured(
                    template,
                    format!("source `{}` sitemap_url: {e}", self.source.id),
                );
                return Vec::new();
            }
        };
        let mut queue = vec![url];
        let mut candidates = Vec::new();
        let mut followed = 0;
        while let Some(url) = queue.pop() {
            let Some(resp) = self.get(url.clone()).await else {
                continue;
            };
            let bytes = sgw_extract::maybe_gunzip(&resp.body);
            let text = String::from_utf8_lossy(bytes.as_deref().unwrap_or(&resp.body)).into_owned();
            let map = parse_sitemap(&text);
            if map.urls.is_empty() && map.sitemaps.is_empty() {
                self.attempts.push(
                    attempt_failed(
                        self.call,
                        url.as_str(),
                        FailureCode::SourceExtractionFailed,
                        format!("{url} is not a sitemap (no <url><loc> or <sitemap><loc> entries)"),
                    )
                    .with_status(Some(resp.status)),
                );
                continue;
            }
            self.ok(
                &resp,
                format!(
                    "sitemap: {} URLs, {} child sitemaps",
                    map.urls.len(),
                    map.sitemaps.len()
                ),
            );
            for child in map.sitemaps {
                if followed >= MAX_CHILD_SITEMAPS {
                    break;
                }
                if let Ok(c) = resp.final_url.join(&child)
                    && self.on_site(&c)
                {
                    followed += 1;
                    queue.push(c);
                }
            }
            for e in map.urls {
                candidates.push(
                    Candidate::new(e.loc)
                        .with_title(e.title)
                        .with_date(e.lastmod),
                );
            }
        }
        let hits = self.best(candidates);
        if hits.is_empty() {
            self.attempts.push(attempt_empty(
                self.call,
                template,
                "sitemap: no URL relevant to the query",
            ));
        }
        hits
    }

    /// Tries the site's search methods in order until one yields hits.
    async fn run(mut self) -> (Vec<PageTarget>, Vec<Attempt>) {
        let source = self.source;
        let mut hits = Vec::new();
        let mut templates: Vec<String> = Vec::new();
        if let Some(os) = &source.opensearch_url {
            match expand_url(os, "x") {
                Ok(u) => templates.extend(self.descriptor(u).await),
                Err(e) => {
                    self.misconfigured(os, format!("source `{}` opensearch_url: {e}", source.id))
                }
            }
        }
        if let Some(s) = &source.search_url {
            templates.push(s.clone());
        }
        if templates.is_empty()
            && source.opensearch_url.is_none()
            && self.config.discover_opensearch
            && let Some(home) = home_of(source)
            && let Some(resp) = self.get(home.clone()).await
        {
            match discover_opensearch(resp.text(), &resp.final_url) {
                Some(os) => {
                    self.ok(&resp, format!("home page advertises OpenSearch at {os}"));
                    templates.extend(self.descriptor(os).await);
                }
                None => self.attempts.push(
                    attempt_empty(
                        self.call,
                        home.as_str(),
                        "home page advertises no OpenSearch description",
                    )
                    .with_status(Some(resp.status)),
                ),
            }
        }
        templates.dedup();
        for t in &templates {
            hits = self.search(t).await;
            if !hits.is_empty() {
                break;
            }
        }
        if hits.is_empty()
            && let Some(sm) = &source.sitemap_url
        {
            hits = self.sitemap(sm).await;
        }
        if templates.is_empty() && source.sitemap_url.is_none() && self.attempts.is_empty() {
            self.attempts.push(attempt_empty(
                self.call,
                source.id.as_str(),
                format!(
                    "source `{}` has no site search, OpenSearch description or sitemap",
                    source.id
                ),
            ));
        }
        let targets = hits
            .into_iter()
            .map(|url| PageTarget {
                url,
                tier_hint: Some(source.tier),
                publisher: Some(source.publisher.clone()),
            })
            .collect();
        (targets, self.attempts)
    }
}

#[async_trait::async_trait]
impl Provider for OfficialSiteSearch {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let started = Instant::now();
        let sites: Vec<&PlannedSource> = call
            .sources
            .iter()
            .filter(|s| {
                s.opensearch_url.is_some()
                    || s.search_url.is_some()
                    || s.sitemap_url.is_some()
                    || (self.config.discover_opensearch && !s.domains.is_empty())
            })
            .take(self.config.max_sites)
            .collect();
        if sites.is_empty() {
            return Ok(ProviderReport {
                attempts: vec![attempt_empty(
                    call,
                    call.request.query.as_str(),
                    "no planned source has a site search, an OpenSearch description, a sitemap or a domain",
                )],
                ..ProviderReport::default()
            });
        }
        let runs = sites.iter().map(|source| {
            SiteRun {
                fetcher: &self.fetcher,
                call,
                source,
                config: &self.config,
                attempts: Vec::new(),
            }
            .run()
        });
        let results = futures::future::join_all(runs).await;
        let mut attempts = Vec::new();
        let mut per_site = Vec::new();
        for (targets, a) in results {
            attempts.extend(a);
            per_site.push(targets.into_iter());
        }
        // Interleave the sites' hits, best first, so one site cannot crowd out the rest.
        let mut targets = Vec::new();
        loop {
            let before = targets.len();
            for site in &mut per_site {
                targets.extend(site.next());
            }
            if targets.len() == before {
                break;
            }
        }
        tracing::debug!(hits = targets.len(), elapsed = ?started.elapsed(), "site search done");
        Ok(read_into_report(
            &self.fetcher,
            targets,
            call,
            self.config.concurrency,
            attempts,
        )
        .await)
    }
}
