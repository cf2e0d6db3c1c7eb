//! The provider: ask the engine, turn hits into snippet leads, read the best hits.

use crate::config::{BraveConfig, JsonSearchConfig, SearxngConfig};
use crate::hits::{self, Hit, ParseError, Pointers};
use sgw_contract::{
    Attempt, AttemptOutcome, Evidence, FailureCode, Provider, ProviderCall, ProviderError,
    ProviderReport, SourceTier,
};
use sgw_provider_common::sgw_fetch::{FetchError, FetchRequest, Fetcher};
use sgw_provider_common::{Candidate, PageTarget, attempt_empty, provider_error, rank, read_pages};
use std::sync::Arc;
use std::time::Instant;
use url::Url;

/// `unresponsive_engines` as (engine, reason) pairs.
type Unresponsive = Vec<(String, String)>;

/// Pages read at once per provider run.
const READ_CONCURRENCY: usize = 3;

/// Which engine and how to ask it.
#[derive(Debug, Clone)]
pub(crate) enum Engine {
    Searxng {
        endpoint: Url,
        cfg: SearxngConfig,
    },
    Brave {
        endpoint: Url,
        cfg: BraveConfig,
    },
    Json {
        cfg: JsonSearchConfig,
        pointers: Pointers,
    },
}

/// A search-engine provider of any of the three kinds.
#[derive(Debug, Clone)]
pub struct SearchEngineProvider {
    pub(crate) engine: Engine,
    pub(crate) fetcher: Arc<Fetcher>,
}

impl SearchEngineProvider {
    fn kind(&self) -> &'static str {
        match self.engine {
            Engine::Searxng { .. } => "searxng",
            Engine::Brave { .. } => "brave",
            Engine::Json { .. } => "json-search",
        }
    }

    fn limits(&self) -> (usize, usize) {
        match &self.engine {
            Engine::Searxng { cfg, .. } => (cfg.max_results, cfg.read_top),
            Engine::Brave { cfg, .. } => (cfg.max_results, cfg.read_top),
            Engine::Json { cfg, .. } => (cfg.max_results, cfg.read_top),
        }
    }

    /// The request URL and headers for `query`. Secrets come from the
    /// environment at run time; a missing one is SEARCH_PROVIDER_MISCONFIGURED.
    fn request(&self, query: &str) -> Result<(Url, Vec<(String, String)>), ProviderError> {
        let misconfigured =
            |m: String| ProviderError::new(FailureCode::SearchProviderMisconfigured, m);
        match &self.engine {
            Engine::Searxng { endpoint, cfg } => {
                let mut url = endpoint.clone();
                {
                    let mut q = url.query_pairs_mut();
                    q.append_pair("q", query).append_pair("format", "json");
                    if !cfg.categories.is_empty() {
                        q.append_pair("categories", &cfg.categories.join(","));
                    }
                    if !cfg.engines.is_empty() {
                        q.append_pair("engines", &cfg.engines.join(","));
                    }
                    if let Some(l) = &cfg.language {
                        q.append_pair("language", l);
                    }
                }
                Ok((url, Vec::new()))
            }
            Engine::Brave { endpoint, cfg } => {
                let key = env_value(&cfg.api_key_env).ok_or_else(|| {
                    misconfigured(format!(
                        "brave: the environment variable `{}` (config `api_key_env`) holding the Brave Search API subscription token is not set or empty",
                        cfg.api_key_env
                    ))
                })?;
                let mut url = endpoint.clone();
                {
                    let mut q = url.query_pairs_mut();
                    q.append_pair("q", query)
                        .append_pair("count", &cfg.max_results.to_string());
                    if let Some(c) = &cfg.country {
                        q.append_pair("country", c);
                    }
                    if let Some(l) = &cfg.search_lang {
                        q.append_pair("search_lang", l);
                    }
                }
                Ok((url, vec![("X-Subscription-Token".to_string(), key)]))
            }
            Engine::Json { cfg, .. } => {
                let url = sgw_provider_common::expand_template(&cfg.url_template, query)
                    .map_err(|e| misconfigured(format!("json-search: url_template: {e}")))?;
                let mut headers = Vec::new();
                for h in &cfg.headers {
                    let v = env_value(&h.env).ok_or_else(|| {
                        misconfigured(format!(
                            "json-search: the environment variable `{}` for header `{}` is not set or empty",
                            h.env, h.name
                        ))
                    })?;
                    let value = match &h.format {
                        Some(f) => f.replace("{value}", &v),
                        None => v,
                    };
                    headers.push((h.name.clone(), value));
                }
                Ok((url, headers))
            }
        }
    }

    /// The provider-level error an engine's own failure stands for.
    fn engine_error(
        &self,
        call: &ProviderCall<'_>,
        err: &FetchError,
        attempts: Vec<Attempt>,
    ) -> ProviderError {
        let mut e = provider_error(call, err, attempts);
        // An API refusing its credentials is a configuration problem, not a
        // page behind a login: say which setting to fix.
        let keyed = matches!(self.engine, Engine::Brave { .. })
            || matches!(&self.engine, Engine::Json { cfg, .. } if !cfg.headers.is_empty());
        if keyed && matches!(err.http_status, Some(401 | 403 | 422)) {
            e.code = FailureCode::SearchProviderMisconfigured;
            e.message = format!(
                "{}: the API refused its credentials (HTTP {}): {}",
                self.kind(),
                err.http_status.unwrap_or_default(),
                e.message
            );
        }
        e
    }

    fn parse(&self, body: &str) -> Result<(Vec<Hit>, Unresponsive), ParseError> {
        match &self.engine {
            Engine::Searxng { .. } => {
                let a = hits::parse_searxng(body)?;
                Ok((a.hits, a.unresponsive))
            }
            Engine::Brave { .. } => Ok((hits::parse_brave(body)?, Vec::new())),
            Engine::Json { pointers, .. } => {
                Ok((hits::parse_pointers(body, pointers)?, Vec::new()))
            }
        }
    }
}

fn env_value(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// The snippet lead of a hit: the engine's text about a page, not the page.
///
/// It is labelled as the engine's evidence: `url` is the engine's endpoint
/// (`engine`, without query or credentials), `publisher` the engine
/// (`label`), `about` the hit's page, tier GENERAL_WEB at most,
/// `extraction_method: snippet`, `snippet_only`. The page's publisher is never
/// credited with it.
pub fn snippet_evidence(hit: &Hit, engine: &Url, label: &str) -> Evidence {
    let text = if hit.snippet.is_empty() {
        hit.title.clone()
    } else {
        hit.snippet.clone()
    };
    let title = if hit.title.is_empty() {
        hit.url.to_string()
    } else {
        hit.title.clone()
    };
    let mut ev = Evidence::new(engine_endpoint(engine), title, text, "snippet");
    ev.snippet_only = true;
    ev.about = Some(hit.url.clone());
    ev.publisher = Some(label.to_string());
    ev.tier_hint = Some(SourceTier::GeneralWeb);
    ev.published_at = hit.published_at.clone();
    ev
}

/// The engine's endpoint as cited: no query, fragment or credentials.
fn engine_endpoint(url: &Url) -> Url {
    let mut u = url.clone();
    u.set_query(None);
    u.set_fragment(None);
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u
}

/// Hits in reading order: those the query ranks (relevance, then recency
/// for time-sensitive topics) first, then the rest in the engine's order.
fn reading_order(hits: &[Hit], query: &str, topic: &str) -> Vec<usize> {
    let candidates = hits
        .iter()
        .map(|h| {
            Candidate::new(h.url.as_str())
                .with_title(Some(h.title.clone()))
                .with_text(Some(h.snippet.clone()))
                .with_date(h.published_at.clone())
        })
        .collect();
    let mut order: Vec<usize> = rank(
        query,
        candidates,
        sgw_provider_common::is_time_sensitive(topic),
    )
    .into_iter()
    .map(|r| r.index)
    .collect();
    for i in 0..hits.len() {
        if !order.contains(&i) {
            order.push(i);
        }
    }
    order
}

#[async_trait::async_trait]
impl Provider for SearchEngineProvider {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let kind = self.kind();
        let query = call.request.query.trim();
        let mut report = ProviderReport::default();
        if query.is_empty() {
            report
                .attempts
                .push(attempt_empty(call, kind, "empty query: nothing to search"));
            return Ok(report);
        }
        let (url, headers) = self.request(query)?;
        let header_refs: Vec<(&str, &str)> = headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let started = Instant::now();
        let req = FetchRequest::api(url.clone())
            .with_deadline(call.deadline)
            .with_accept("application/json")
            .with_headers(&header_refs);
        let resp = match self.fetcher.fetch(&req).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(provider = call.provider, %kind, code = %e.code, "search engine failed");
                return Err(self.engine_error(call, &e, Vec::new()));
            }
        };
        let target = url.as_str().to_string();
        let engine_url = url.clone();
        let label = format!(
            "{kind} search engine ({})",
            url.host_str().unwrap_or_default()
        );
        let (mut hits, unresponsive) = self.parse(resp.text()).map_err(|e| {
            let message = format!("{kind}: cannot read the answer of {url}: {e}");
            let attempt = Attempt::failed(
                call.step,
                call.provider,
                FailureCode::SourceExtractionFailed,
            )
            .with_target(target.clone())
            .with_status(Some(resp.status))
            .with_elapsed_ms(ms(started))
            .with_detail(message.clone());
            ProviderError {
                http_status: Some(resp.status),
                attempts: vec![attempt],
                ..ProviderError::new(FailureCode::SourceExtractionFailed, message)
            }
        })?;
        let names = unresponsive
            .iter()
            .map(|(e, r)| format!("{e} ({r})"))
            .collect::<Vec<_>>()
            .join(", ");
        if hits.is_empty()
            && let Some(code) = hits::unresponsive_code(&unresponsive)
        {
            // Zero results because the engines failed is that failure, not an empty success.
            let message = format!("{kind}: no results; unresponsive engines: {names}");
            let attempt = Attempt::failed(call.step, call.provider, code)
                .with_target(target)
                .with_status(Some(resp.status))
                .with_elapsed_ms(ms(started))
                .with_detail(message.clone());
            return Err(ProviderError {
                http_status: Some(resp.status),
                attempts: vec![attempt],
                ..ProviderError::new(code, message)
            });
        }
        if !unresponsive.is_empty() {
            report
                .notes
                .push(format!("{kind}: unresponsive engines: {names}"));
        }
        // One lead per URL, in the engine's order.
        let mut seen = std::collections::HashSet::new();
        hits.retain(|h| seen.insert(h.url.clone()));
        let (max_results, read_top) = self.limits();
        hits.truncate(max_results);
        let outcome = if hits.is_empty() {
            AttemptOutcome::Empty
        } else {
            AttemptOutcome::Success
        };
        report.attempts.push(
            Attempt::new(call.step, call.provider, outcome)
                .with_target(target)
                .with_status(Some(resp.status))
                .with_elapsed_ms(ms(started))
                .with_detail(format!("{} hits", hits.len())),
        );
        if hits.is_empty() {
            return Ok(report);
        }

        // Read the best hits so their own domains can be classified.
        let order = reading_order(&hits, query, &call.key.topic_type);
        let to_read: Vec<usize> = order.into_iter().take(read_top).collect();
        let targets: Vec<PageTarget> = to_read
            .iter()
            .map(|&i| {
                let t = PageTarget::new(hits[i].url.clone(), call.sources);
                // Hits outside the registry fall back to GENERAL_WEB; the
                // orchestrator's registry and rules still decide first.
                PageTarget {
                    tier_hint: t.tier_hint.or(Some(SourceTier::GeneralWeb)),
                    ..t
                }
            })
            .collect();
        // A hit that fails to read stays a snippet lead; its failure is traced.
        let (mut pages, read) =
            read_pages(&self.fetcher, targets, call, usize::MAX, READ_CONCURRENCY).await;
        report.attempts.extend(read);
        let mut read_ok = vec![false; hits.len()];
        for ev in &mut pages {
            if let Some(i) = hits.iter().position(|h| h.url == ev.url) {
                read_ok[i] = true;
                if ev.published_at.is_none() {
                    ev.published_at = hits[i].published_at.clone();
                }
            }
        }
        let room = call.max_sources.max(1).saturating_sub(pages.len());
        let leads = hits
            .iter()
            .enumerate()
            .filter(|(i, _)| !read_ok[*i])
            .map(|(_, h)| snippet_evidence(h, &engine_url, &label))
            .filter(|ev| !ev.text.trim().is_empty())
            .take(room);
        report.evidence = pages;
        report.evidence.extend(leads);
        tracing::debug!(
            provider = call.provider,
            %kind,
            evidence = report.evidence.len(),
            "search engine done"
        );
        Ok(report)
    }
}
