//! `feed`: RSS / Atom / JSON Feed entries ranked by relevance and recency;
//! the best entries' pages are read, the entry's own content standing in
//! when a page cannot be read.

use futures::StreamExt;
use serde::Deserialize;
use sgw_contract::{
    Attempt, BuildContext, ChainStep, Evidence, FactoryError, FailureCode, PlannedSource, Provider,
    ProviderCall, ProviderConfig, ProviderError, ProviderReport, SourceTier,
};
use sgw_provider_common::sgw_extract::{self, DocumentKind, FeedEntry};
use sgw_provider_common::sgw_fetch::{FetchRequest, Fetcher};
use sgw_provider_common::{
    Candidate, PageTarget, attempt_empty, attempt_failed, attempt_success, check_url_templates,
    expand_url, fetch_failure, is_time_sensitive, parse_date, rank, read_target,
    require_at_least_one, source_for, text_passages, url_on_domains,
};
use std::sync::Arc;
use url::Url;

const FEED_ACCEPT: &str = "application/rss+xml,application/atom+xml,application/feed+json,application/json;q=0.9,application/xml;q=0.9,text/xml;q=0.8,*/*;q=0.5";

/// `config:` of the `feed` kind.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeedConfig {
    /// Feed URLs read on every request, after the planned sources'
    /// `feed_urls`. Absolute http(s) URLs, optionally with `{query}` (for
    /// feeds that filter by a search term).
    #[serde(default)]
    pub urls: Vec<String>,
    /// Best entries turned into evidence at most (default 3, at least 1;
    /// the request's `max_sources` caps it too).
    #[serde(default = "default_max_entries")]
    pub max_entries: usize,
    /// Read each chosen entry's page (default true). When false, or when the
    /// page cannot be read, the entry's own title and content are the
    /// evidence (`extraction_method: "feed"`).
    #[serde(default = "default_true")]
    pub read_pages: bool,
    /// Ignore entries older than this many days (by published/updated date;
    /// undated entries are kept). Default: no limit.
    #[serde(default)]
    pub max_age_days: Option<u32>,
    /// Feeds and pages fetched at once (default 4, at least 1).
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
}

fn default_max_entries() -> usize {
    3
}
fn default_true() -> bool {
    true
}
pub(crate) fn default_concurrency() -> usize {
    4
}

impl Default for FeedConfig {
    fn default() -> Self {
        FeedConfig {
            urls: Vec::new(),
            max_entries: default_max_entries(),
            read_pages: true,
            max_age_days: None,
            concurrency: default_concurrency(),
        }
    }
}

/// The `feed` provider.
#[derive(Debug)]
pub struct FeedProvider {
    fetcher: Arc<Fetcher>,
    config: FeedConfig,
}

impl FeedProvider {
    pub fn new(fetcher: Arc<Fetcher>, config: FeedConfig) -> Result<Self, FactoryError> {
        require_at_least_one(&[
            ("max_entries", config.max_entries),
            ("concurrency", config.concurrency),
        ])?;
        check_url_templates("urls", &config.urls)?;
        Ok(FeedProvider { fetcher, config })
    }
}

impl ProviderConfig for FeedConfig {
    const KIND: &'static str = "feed";
    const STEP: ChainStep = ChainStep::StructuredApiOrFeed;
    const DESCRIPTION: &'static str =
        "RSS, Atom and JSON Feed entries ranked by relevance and recency";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        Ok(Arc::new(FeedProvider::new(ctx.fetcher()?, self)?))
    }
}

/// A feed to read, with the planned source it belongs to.
struct FeedTarget<'s> {
    url: Url,
    source: Option<&'s PlannedSource>,
}

/// An entry with where it came from.
struct Found<'s> {
    entry: FeedEntry,
    feed_url: Url,
    feed_title: Option<String>,
    source: Option<&'s PlannedSource>,
}

fn tier_and_publisher(
    url: &Url,
    source: Option<&PlannedSource>,
    all: &[PlannedSource],
) -> (Option<SourceTier>, Option<String>) {
    let owner = source
        .filter(|s| url_on_domains(url, &s.domains))
        .or_else(|| source_for(url, all));
    (owner.map(|s| s.tier), owner.map(|s| s.publisher.clone()))
}

/// Evidence made of a feed entry's own content.
fn entry_evidence(found: &Found<'_>, url: Url, call: &ProviderCall<'_>) -> Option<Evidence> {
    let e = &found.entry;
    let mut text = String::new();
    if let Some(t) = &e.title {
        text.push_str(t);
        text.push_str("\n\n");
    }
    text.push_str(e.text.trim());
    if e.text.trim().is_empty() {
        return None;
    }
    let title = e.title.clone().unwrap_or_else(|| url.to_string());
    let (tier, publisher) = tier_and_publisher(&url, found.source, call.sources);
    let mut ev = Evidence::new(url, title, text, "feed");
    ev.passages = text_passages(&ev.text, &call.request.query);
    ev.published_at = e.published_at.clone().or_else(|| e.updated_at.clone());
    ev.metadata.modified_at = e.updated_at.clone();
    ev.publisher = publisher.or_else(|| found.feed_title.clone());
    ev.tier_hint = tier;
    Some(ev)
}

impl FeedProvider {
    /// Fetches and parses one feed: its entries, or the failed attempt.
    async fn read_feed<'s>(
        &self,
        target: FeedTarget<'s>,
        call: &ProviderCall<'_>,
    ) -> (Vec<Found<'s>>, Attempt) {
        let req = FetchRequest::page(target.url.clone())
            .with_deadline(call.deadline)
            .with_accept(FEED_ACCEPT);
        let resp = match self.fetcher.fetch(&req).await {
            Ok(r) => r,
            Err(e) => return (Vec::new(), fetch_failure(call, &e)),
        };
        let fail = |detail: String| {
            attempt_failed(
                call,
                target.url.as_str(),
                FailureCode::SourceExtractionFailed,
                detail,
            )
            .with_status(Some(resp.status))
        };
        let doc =
            match sgw_extract::extract(&resp.body, Some(&resp.content_type), Some(&resp.final_url))
            {
                Ok(d) => d,
                Err(e) => return (Vec::new(), fail(e.to_string())),
            };
        if doc.kind != DocumentKind::Feed {
            return (
                Vec::new(),
                fail(format!(
                    "{} is not an RSS, Atom or JSON Feed (read as {:?}, content type {})",
                    target.url, doc.kind, resp.content_type
                )),
            );
        }
        let n = doc.entries.len();
        let attempt = attempt_success(call, &target.url, resp.elapsed)
            .with_status(Some(resp.status))
            .with_detail(format!("feed: {n} entries"));
        let feed_title = doc.metadata.title.clone();
        let found = doc
            .entries
            .into_iter()
            .map(|entry| Found {
                entry,
                feed_url: resp.final_url.clone(),
                feed_title: feed_title.clone(),
                source: target.source,
            })
            .collect();
        (found, attempt)
    }

    /// Turns one chosen entry into evidence: its page, else its own content.
    async fn entry_to_evidence(
        &self,
        found: &Found<'_>,
        call: &ProviderCall<'_>,
    ) -> (Option<Evidence>, Option<Attempt>) {
        let link = found
            .entry
            .url
            .as_deref()
            .and_then(|l| found.feed_url.join(l.trim()).ok())
            .filter(|u| matches!(u.scheme(), "http" | "https"));
        let Some(link) = link else {
            // No page to read: the entry is all there is.
            return (entry_evidence(found, found.feed_url.clone(), call), None);
        };
        if !self.config.read_pages {
            return (entry_evidence(found, link, call), None);
        }
        let (tier_hint, publisher) = tier_and_publisher(&link, found.source, call.sources);
        let target = PageTarget {
            url: link.clone(),
            tier_hint,
            publisher,
        };
        match read_target(&self.fetcher, &target, call).await {
            Ok((mut ev, attempt)) => {
                if ev.published_at.is_none() {
                    ev.published_at = found.entry.published_at.clone();
                }
                (Some(ev), Some(attempt))
            }
            Err(failed) => {
                let fallback = entry_evidence(found, link, call);
                let failed = match &fallback {
                    Some(_) => {
                        let d = failed.detail.clone().unwrap_or_default();
                        failed.with_detail(format!(
                            "{d}; the feed entry's own content was used instead"
                        ))
                    }
                    None => failed,
                };
                (fallback, Some(failed))
            }
        }
    }
}

#[async_trait::async_trait]
impl Provider for FeedProvider {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let query = &call.request.query;
        let mut attempts = Vec::new();
        let mut targets: Vec<FeedTarget<'_>> = Vec::new();
        for source in call.sources {
            for t in &source.feed_urls {
                match expand_url(t, query) {
                    Ok(url) => targets.push(FeedTarget {
                        url,
                        source: Some(source),
                    }),
                    Err(e) => attempts.push(attempt_failed(
                        call,
                        t.as_str(),
                        FailureCode::SearchProviderMisconfigured,
                        format!("source `{}` feed_urls: {e}", source.id),
                    )),
                }
            }
        }
        for t in &self.config.urls {
            match expand_url(t, query) {
                Ok(url) => {
                    let source = source_for(&url, call.sources);
                    targets.push(FeedTarget { url, source });
                }
                Err(e) => attempts.push(attempt_failed(
                    call,
                    t.as_str(),
                    FailureCode::SearchProviderMisconfigured,
                    e.to_string(),
                )),
            }
        }
        let mut seen = std::collections::HashSet::new();
        targets.retain(|t| seen.insert(t.url.clone()));
        if targets.is_empty() {
            attempts.push(attempt_empty(
                call,
                query.as_str(),
                "no feed to read: no planned source has feed_urls and config.urls is empty",
            ));
            return Ok(ProviderReport {
                attempts,
                ..ProviderReport::default()
            });
        }

        let reads: Vec<futures::future::BoxFuture<'_, _>> = targets
            .into_iter()
            .map(|t| Box::pin(self.read_feed(t, call)) as _)
            .collect();
        let mut feeds = futures::stream::iter(reads).buffered(self.config.concurrency);
        let mut entries: Vec<Found<'_>> = Vec::new();
        while let Some((found, attempt)) = feeds.next().await {
            entries.extend(found);
            attempts.push(attempt);
        }
        drop(feeds);

        let today = jiff::Zoned::now().date();
        let as_of = call.request.as_of.unwrap_or(today);
        if let Some(days) = self.config.max_age_days {
            let oldest = as_of
                .checked_sub(jiff::Span::new().days(i64::from(days)))
                .unwrap_or(jiff::civil::Date::MIN);
            entries.retain(|f| {
                let d = f
                    .entry
                    .published_at
                    .as_deref()
                    .or(f.entry.updated_at.as_deref());
                d.and_then(parse_date).is_none_or(|d| d >= oldest)
            });
        }
        let total = entries.len();
        let candidates = entries
            .iter()
            .map(|f| {
                Candidate::new(
                    f.entry
                        .url
                        .clone()
                        .unwrap_or_else(|| f.feed_url.to_string()),
                )
                .with_title(f.entry.title.clone())
                .with_date(
                    f.entry
                        .published_at
                        .clone()
                        .or_else(|| f.entry.updated_at.clone()),
                )
                .with_text(Some(f.entry.text.clone()))
            })
            .collect();
        let sensitive = is_time_sensitive(&call.key.topic_type);
        let max = self.config.max_entries.min(call.max_sources.max(1));
        let mut chosen: Vec<&Found<'_>> = Vec::new();
        let mut urls = std::collections::HashSet::new();
        for r in rank(query, candidates, sensitive) {
            if urls.insert(r.candidate.url.clone()) {
                chosen.push(&entries[r.index]);
                if chosen.len() >= max {
                    break;
                }
            }
        }
        if chosen.is_empty() {
            attempts.push(attempt_empty(
                call,
                query.as_str(),
                format!("{total} feed entries, none relevant to the query"),
            ));
            return Ok(ProviderReport {
                attempts,
                ..ProviderReport::default()
            });
        }
        let reads: Vec<futures::future::BoxFuture<'_, _>> = chosen
            .into_iter()
            .map(|f| Box::pin(self.entry_to_evidence(f, call)) as _)
            .collect();
        let results: Vec<(Option<Evidence>, Option<Attempt>)> = futures::stream::iter(reads)
            .buffered(self.config.concurrency)
            .collect()
            .await;
        let mut evidence = Vec::new();
        for (ev, attempt) in results {
            attempts.extend(attempt);
            evidence.extend(ev);
        }
        Ok(ProviderReport {
            evidence,
            attempts,
            ..ProviderReport::default()
        })
    }
}
