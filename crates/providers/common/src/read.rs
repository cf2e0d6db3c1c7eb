//! Reading one page into [`Evidence`], and the attempts that trace it.

use futures::StreamExt;
use sgw_contract::{
    Attempt, AttemptOutcome, Evidence, EvidenceMetadata, FailureCode, Passage, PlannedSource,
    ProviderCall, ProviderError, ProviderReport, SourceTier,
};
use sgw_extract::{Document, DocumentKind};
use sgw_fetch::{FetchError, FetchRequest, FetchResponse, Fetcher};
use std::time::{Duration, Instant};
use url::Url;

/// How many ranked passages each evidence carries.
pub const MAX_PASSAGES: usize = 5;

/// One page to read, with what the registry says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct PageTarget {
    pub url: Url,
    /// The registry entry's tier when the URL belongs to it.
    pub tier_hint: Option<SourceTier>,
    /// The registry entry's publisher (wins over the page's own site name).
    pub publisher: Option<String>,
}

impl PageTarget {
    /// A target whose tier and publisher come from the planned source that
    /// owns the URL's host, if any.
    pub fn new(url: Url, sources: &[PlannedSource]) -> PageTarget {
        let owner = source_for(&url, sources);
        PageTarget {
            tier_hint: owner.map(|s| s.tier),
            publisher: owner.map(|s| s.publisher.clone()),
            url,
        }
    }
}

/// True when `host` is `domain` or one of its subdomains (case-insensitive, trailing dots ignored).
pub fn host_matches(host: &str, domain: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let domain = domain
        .trim_end_matches('.')
        .trim_start_matches('.')
        .to_ascii_lowercase();
    !domain.is_empty()
        && (host == domain
            || (host.len() > domain.len()
                && host.ends_with(&domain)
                && host.as_bytes()[host.len() - domain.len() - 1] == b'.'))
}

/// True when the URL's host is on one of `domains`.
pub fn url_on_domains(url: &Url, domains: &[String]) -> bool {
    url.host_str()
        .is_some_and(|h| domains.iter().any(|d| host_matches(h, d)))
}

/// The planned source whose domains own the URL (the first, i.e. best-fit, one).
pub fn source_for<'a>(url: &Url, sources: &'a [PlannedSource]) -> Option<&'a PlannedSource> {
    sources.iter().find(|s| url_on_domains(url, &s.domains))
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A successful per-target attempt.
pub fn attempt_success(call: &ProviderCall<'_>, target: &Url, elapsed: Duration) -> Attempt {
    Attempt::new(call.step, call.provider, AttemptOutcome::Success)
        .with_target(target.as_str())
        .with_elapsed_ms(ms(elapsed))
}

/// A per-target attempt that ran and found nothing usable (no failure to blame).
pub fn attempt_empty(
    call: &ProviderCall<'_>,
    target: impl Into<String>,
    detail: impl Into<String>,
) -> Attempt {
    Attempt::new(call.step, call.provider, AttemptOutcome::Empty)
        .with_target(target)
        .with_detail(detail)
}

/// A failed per-target attempt with its code and detail.
pub fn attempt_failed(
    call: &ProviderCall<'_>,
    target: impl Into<String>,
    code: FailureCode,
    detail: impl Into<String>,
) -> Attempt {
    Attempt::failed(call.step, call.provider, code)
        .with_target(target)
        .with_detail(detail)
}

/// The failed attempt a [`FetchError`] stands for: its code, the URL at
/// fault, the HTTP status, the elapsed time and the message.
pub fn fetch_failure(call: &ProviderCall<'_>, err: &FetchError) -> Attempt {
    Attempt::failed(call.step, call.provider, err.code)
        .with_target(err.url.as_str())
        .with_status(err.http_status)
        .with_elapsed_ms(ms(err.elapsed))
        .with_detail(err.message.clone())
}

/// A provider-level failure from a fetch the whole provider depends on (an
/// API endpoint, a site's search): code, message, status and `Retry-After`
/// carried over, with the attempts made so far (the failed fetch's own
/// attempt appended when `attempts` does not already end with it).
pub fn provider_error(
    call: &ProviderCall<'_>,
    err: &FetchError,
    mut attempts: Vec<Attempt>,
) -> ProviderError {
    let own = fetch_failure(call, err);
    if attempts.last() != Some(&own) {
        attempts.push(own);
    }
    ProviderError {
        code: err.code,
        message: format!("{} ({})", err.message, err.url),
        http_status: err.http_status,
        retry_after: err.retry_after,
        attempts,
        store_failure: None,
    }
}

/// The extraction failure code for a source of the given tier.
pub fn extraction_failure_code(tier_hint: Option<SourceTier>) -> FailureCode {
    if tier_hint.is_some_and(|t| t.is_official()) {
        FailureCode::OfficialSourceFoundButExtractionFailed
    } else {
        FailureCode::SourceExtractionFailed
    }
}

/// The `extraction_method` name of a document kind.
pub fn method_name(kind: DocumentKind) -> &'static str {
    match kind {
        DocumentKind::Html => "html",
        DocumentKind::Feed => "feed",
        DocumentKind::Pdf => "pdf",
        DocumentKind::Text => "text",
        DocumentKind::Markdown => "markdown",
        DocumentKind::Json => "json",
    }
}

/// Passages of `doc` ranked against `query`, in the contract's type.
pub fn ranked_passages(doc: &Document, query: &str) -> Vec<Passage> {
    // The ranker's passages are verbatim spans of `doc.text` already: their
    // text is moved over, not copied again.
    doc.passages(query, MAX_PASSAGES)
        .into_iter()
        .map(|p| {
            debug_assert_eq!(doc.text.get(p.start..p.end), Some(p.text.as_str()));
            Passage {
                start: p.start,
                end: p.end,
                text: p.text,
                score: f64::from(p.score),
            }
        })
        .collect()
}

/// Passages of a plain text ranked against `query` (for text that did not
/// come from [`sgw_extract::extract`], e.g. a feed entry or an API item).
pub fn text_passages(text: &str, query: &str) -> Vec<Passage> {
    let doc = Document {
        kind: DocumentKind::Text,
        metadata: sgw_extract::Metadata::default(),
        text: text.to_string(),
        entries: Vec::new(),
        encoding: "UTF-8".into(),
        js_shell: false,
    };
    ranked_passages(&doc, query)
}

/// Builds evidence from an extracted document and its response.
pub fn evidence_from_document(
    doc: Document,
    resp: &FetchResponse,
    target: &PageTarget,
    query: &str,
) -> Evidence {
    let passages = ranked_passages(&doc, query);
    let title = doc
        .metadata
        .title
        .clone()
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| resp.final_url.to_string());
    let mut ev = Evidence::new(target.url.clone(), title, doc.text, method_name(doc.kind));
    if resp.final_url != target.url {
        ev.final_url = Some(resp.final_url.clone());
    }
    ev.publisher = target.publisher.clone().or(doc.metadata.publisher);
    ev.published_at = doc.metadata.published_at;
    ev.passages = passages;
    ev.metadata = EvidenceMetadata {
        authors: doc.metadata.authors,
        modified_at: doc.metadata.modified_at,
        language: doc.metadata.language,
        canonical_url: doc.metadata.canonical_url,
        snapshot_at: None,
    };
    ev.tier_hint = target.tier_hint;
    ev.validators = resp.validators.clone();
    ev
}

/// Fetches `target` as a page, extracts it and returns the evidence with
/// the success attempt; or the failed attempt (fetch code, or an extraction
/// failure — `OFFICIAL_SOURCE_FOUND_BUT_EXTRACTION_FAILED` when the tier
/// hint is official — when no text comes out).
pub async fn read_target(
    fetcher: &Fetcher,
    target: &PageTarget,
    call: &ProviderCall<'_>,
) -> Result<(Evidence, Attempt), Attempt> {
    let start = Instant::now();
    // The extraction below parses the page: the JavaScript-shell check is
    // made on its tree, not on a second parse in the fetch.
    let req = FetchRequest::page(target.url.clone())
        .with_deadline(call.deadline)
        .with_js_shell_check_by_caller();
    let resp = match fetcher.fetch(&req).await {
        Ok(r) => r,
        Err(e) => {
            tracing::debug!(url = %target.url, code = %e.code, "page fetch failed");
            return Err(fetch_failure(call, &e));
        }
    };
    let code = extraction_failure_code(target.tier_hint);
    let fail = |detail: String| {
        Attempt::failed(call.step, call.provider, code)
            .with_target(target.url.as_str())
            .with_status(Some(resp.status))
            .with_elapsed_ms(ms(start.elapsed()))
            .with_detail(detail)
    };
    let extracted = sgw_extract::extract(
        &resp.body,
        Some(&resp.content_type_with_charset()),
        Some(&resp.final_url),
    );
    if resp.js_shell_check_owed {
        // Judged on the tree the extraction built; a page the extractor did
        // not read as HTML is checked as the fetch would have.
        let shell = match &extracted {
            Ok(doc) if doc.kind == DocumentKind::Html => doc.js_shell,
            _ => sgw_extract::looks_like_js_shell(resp.text()),
        };
        if shell {
            let e = resp.js_shell_error();
            tracing::debug!(url = %target.url, code = %e.code, "page fetch failed");
            return Err(fetch_failure(call, &e));
        }
    }
    let doc = match extracted {
        Ok(d) => d,
        Err(e) => return Err(fail(e.to_string())),
    };
    if doc.text.trim().is_empty() {
        return Err(fail(format!(
            "no text could be extracted from {} ({})",
            resp.final_url, resp.content_type
        )));
    }
    let ev = evidence_from_document(doc, &resp, target, &call.request.query);
    let attempt = attempt_success(call, &target.url, start.elapsed())
        .with_status(Some(resp.status))
        .with_detail(format!(
            "{} bytes, {} passages, {}",
            ev.text.len(),
            ev.passages.len(),
            ev.extraction_method
        ));
    Ok((ev, attempt))
}

/// Reads one page: fetch as a page → extract → evidence with passages
/// ranked against `call.request.query`, or the failed attempt.
pub async fn read_page(
    fetcher: &Fetcher,
    url: &Url,
    call: &ProviderCall<'_>,
    tier_hint: Option<SourceTier>,
) -> Result<Evidence, Attempt> {
    let owner = source_for(url, call.sources);
    let target = PageTarget {
        url: url.clone(),
        tier_hint,
        publisher: owner.map(|s| s.publisher.clone()),
    };
    read_target(fetcher, &target, call).await.map(|(ev, _)| ev)
}

/// Reads `targets` concurrently (at most `concurrency` at once, in order)
/// until `max` pieces of evidence are found. Returns the evidence (in target
/// order) and one attempt per target read; targets never started because
/// enough evidence was found get no attempt. Duplicate URLs are read once.
pub async fn read_pages(
    fetcher: &Fetcher,
    targets: Vec<PageTarget>,
    call: &ProviderCall<'_>,
    max: usize,
    concurrency: usize,
) -> (Vec<Evidence>, Vec<Attempt>) {
    let mut seen = std::collections::HashSet::new();
    let targets: Vec<PageTarget> = targets
        .into_iter()
        .filter(|t| seen.insert(t.url.clone()))
        .collect();
    let mut evidence = Vec::new();
    let mut attempts = Vec::new();
    if max == 0 {
        return (evidence, attempts);
    }
    // Owned targets moved into boxed futures: a closure over `&PageTarget`
    // would make the caller's future fail the `Send` + higher-ranked lifetime
    // checks of `async_trait`.
    let reads: Vec<futures::future::BoxFuture<'_, _>> = targets
        .into_iter()
        .map(|t| Box::pin(async move { read_target(fetcher, &t, call).await }) as _)
        .collect();
    let mut stream = futures::stream::iter(reads).buffered(concurrency.max(1));
    while let Some(r) = stream.next().await {
        match r {
            Ok((ev, a)) => {
                evidence.push(ev);
                attempts.push(a);
                if evidence.len() >= max {
                    break;
                }
            }
            Err(a) => attempts.push(a),
        }
    }
    (evidence, attempts)
}

/// A provider's report from reading `targets` (see [`read_pages`]) until
/// the call's `max_sources` pieces of evidence are found, `concurrency` at
/// once: that evidence, and the `attempts` made before followed by one per
/// target read.
pub async fn read_into_report(
    fetcher: &Fetcher,
    targets: Vec<PageTarget>,
    call: &ProviderCall<'_>,
    concurrency: usize,
    mut attempts: Vec<Attempt>,
) -> ProviderReport {
    let max = call.max_sources.max(1);
    let (evidence, read) = read_pages(fetcher, targets, call, max, concurrency).await;
    attempts.extend(read);
    ProviderReport {
        evidence,
        attempts,
        ..ProviderReport::default()
    }
}
