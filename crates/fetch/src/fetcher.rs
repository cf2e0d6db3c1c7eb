//! The [`Fetcher`]: one shared client, every hop guarded, every failure
//! diagnosed.

use bytes::Bytes;
use futures::StreamExt;
use http::HeaderMap;
use http::header::{self, HeaderName, HeaderValue};
use sgw_contract::{FailureCode, HostHealth, HostRest, HttpValidators};
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::time::Instant;
use url::Url;

use crate::body::{ACCEPT_ENCODING, BodyError, read_body};
use crate::config::{ConfigError, FetchConfig};
use crate::diagnose::{self, Observation};
use crate::politeness::{Politeness, Wait};
use crate::robots::{self, Entry, RobotsCache, Rules};
use crate::ssrf::{Guard, GuardError, GuardedResolver, find_guard_error};
use crate::types::{FetchError, FetchKind, FetchRequest, FetchResponse};

/// A response's decoded text up to this size is kept with it; a larger one
/// is decoded again when asked for (see [`FetchResponse::text`]).
const KEEP_TEXT_UP_TO: usize = 256 * 1024;

/// Headers copied into `headers_of_interest`.
const INTERESTING: &[&str] = &[
    "age",
    "akamai-grn",
    "cache-control",
    "cf-cache-status",
    "cf-mitigated",
    "cf-ray",
    "content-encoding",
    "content-language",
    "content-length",
    "content-type",
    "date",
    "etag",
    "last-modified",
    "location",
    "retry-after",
    "server",
    "via",
    "www-authenticate",
    "x-amz-cf-id",
    "x-cache",
    "x-robots-tag",
    "x-served-by",
];

const PAGE_ACCEPT: &str =
    "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5";
const API_ACCEPT: &str = "application/json,application/xml;q=0.9,*/*;q=0.5";

/// A wait for response headers given up (by the first-byte timeout, the
/// caller's deadline, or the caller no longer waiting) marks the host slow
/// once it has lasted this long; a connect timeout always does.
const SLOW_HOST_AFTER: Duration = Duration::from_millis(200);

/// The shared HTTP client. Cheap to clone (an `Arc` inside); put one in
/// `sgw_contract::Services::with_fetcher` and let every provider use it.
///
/// Nothing is built until the first request needs it: the plain-HTTP client
/// (no TLS roots), the HTTPS client (the system's roots, loaded once, only
/// when an `https` URL is fetched) and the rate limiter. A gateway that
/// answers from its cache never pays for them ([`Fetcher::is_idle`]).
#[derive(Clone, Debug)]
pub struct Fetcher {
    inner: Arc<Inner>,
}

struct Inner {
    cfg: FetchConfig,
    /// For `http` URLs: no TLS, so no root certificates are loaded.
    http: OnceLock<Result<reqwest::Client, String>>,
    /// For `https` URLs: the system's roots, loaded on first use.
    https: OnceLock<Result<reqwest::Client, String>>,
    guard: Arc<Guard>,
    politeness: OnceLock<Politeness>,
    robots: RobotsCache,
    agent: String,
    /// Where slow hosts are reported and looked up (set by the gateway).
    hosts: OnceLock<Arc<dyn HostHealth>>,
}

impl std::fmt::Debug for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetcher")
            .field("cfg", &self.cfg)
            .field("http_built", &self.http.get().is_some())
            .field("https_built", &self.https.get().is_some())
            .field("politeness", &self.politeness.get())
            .field("host_health", &self.hosts.get().is_some())
            .finish_non_exhaustive()
    }
}

/// One wait for response headers from a host. Headers → the host answered;
/// a timeout, or the wait dropped (the caller gave up) after
/// [`SLOW_HOST_AFTER`] → the host timed out; any other failure → neither.
struct HeaderWait {
    hosts: Option<Arc<dyn HostHealth>>,
    host: String,
    since: Instant,
    armed: bool,
}

impl HeaderWait {
    fn new(fetcher: &Fetcher, host: &str) -> HeaderWait {
        HeaderWait {
            hosts: fetcher.inner.hosts.get().cloned(),
            host: host.to_string(),
            since: Instant::now(),
            armed: true,
        }
    }

    fn answered(mut self) {
        self.armed = false;
        if let Some(h) = &self.hosts {
            h.answered(&self.host);
        }
    }

    /// The connect timeout fired.
    fn timed_out(mut self) {
        self.armed = false;
        if let Some(h) = &self.hosts {
            h.timed_out(&self.host);
        }
    }

    fn failed_otherwise(mut self) {
        self.armed = false;
    }
}

impl Drop for HeaderWait {
    fn drop(&mut self) {
        if self.armed
            && let Some(h) = &self.hosts
            && self.since.elapsed() >= SLOW_HOST_AFTER
        {
            tracing::debug!(host = %self.host, "request given up while waiting for headers: host marked slow");
            h.timed_out(&self.host);
        }
    }
}

/// The refusal of a host that rests after timing out.
fn resting_error(url: &Url, host: &str, rest: HostRest) -> FetchError {
    FetchError::new(
        rest.reason,
        url,
        format!(
            "host {host} sent no response in time earlier; it rests {} s more (slow host, not contacted)",
            rest.remaining.as_secs().max(1)
        ),
    )
    .final_()
}

/// Joins an error and its sources into one line.
pub(crate) fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        let m = s.to_string();
        if !out.contains(&m) {
            out.push_str(": ");
            out.push_str(&m);
        }
        cur = s.source();
    }
    out
}

fn interesting(h: &HeaderMap) -> BTreeMap<String, String> {
    INTERESTING
        .iter()
        .filter_map(|name| {
            let v = h.get(*name)?.to_str().ok()?;
            let v: String = v.chars().take(300).collect();
            Some((name.to_string(), v))
        })
        .collect()
}

fn now_unix() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// `(essence, charset)` of a Content-Type value.
fn parse_content_type(v: &str) -> (String, Option<String>) {
    let mut parts = v.split(';');
    let essence = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let charset = parts.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches('"').to_string())
    });
    (essence, charset)
}

fn is_text_type(ct: &str) -> bool {
    ct.starts_with("text/")
        || ct.ends_with("+xml")
        || ct.ends_with("+json")
        || matches!(
            ct,
            "application/xml"
                | "application/json"
                | "application/javascript"
                | "application/xhtml+xml"
        )
}

/// A media type for bytes whose server did not say (or said octet-stream).
fn sniff(body: &[u8]) -> Option<&'static str> {
    use sgw_extract::DocumentKind as K;
    let head = &body[..body.len().min(512)];
    if head.starts_with(b"\x89PNG") {
        return Some("image/png");
    }
    if head.starts_with(b"\xff\xd8\xff") {
        return Some("image/jpeg");
    }
    if head.starts_with(b"GIF8") {
        return Some("image/gif");
    }
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    match sgw_extract::sniff_kind(body, None) {
        K::Html => Some("text/html"),
        K::Pdf => Some("application/pdf"),
        K::Json => Some("application/json"),
        K::Feed if lower.contains("<feed") => Some("application/atom+xml"),
        K::Feed if lower.trim_start().starts_with('{') => Some("application/feed+json"),
        K::Feed => Some("application/rss+xml"),
        K::Markdown => Some("text/markdown"),
        K::Text if lower.trim_start().starts_with("<?xml") => Some("application/xml"),
        _ => None,
    }
}

/// The origin key (`scheme://host:port`) of a URL.
fn origin_of(url: &Url) -> String {
    url.origin().ascii_serialization()
}

fn host_key(url: &Url) -> String {
    url.host_str().unwrap_or("").to_ascii_lowercase()
}

impl Fetcher {
    /// Builds the client. Fails on an invalid configuration (naming the key).
    pub fn new(cfg: FetchConfig) -> Result<Fetcher, ConfigError> {
        cfg.validate()?;
        let guard = Arc::new(Guard::new(
            &cfg.allow_hosts,
            &cfg.allow_private_networks,
            &cfg.resolve,
        ));
        let agent = cfg.robots_agent();
        Ok(Fetcher {
            inner: Arc::new(Inner {
                cfg,
                http: OnceLock::new(),
                https: OnceLock::new(),
                guard,
                politeness: OnceLock::new(),
                robots: RobotsCache::default(),
                agent,
                hosts: OnceLock::new(),
            }),
        })
    }

    /// True while nothing has been built: no HTTP client, no TLS roots, no
    /// rate limiter (e.g. after requests answered from the cache alone).
    pub fn is_idle(&self) -> bool {
        self.inner.http.get().is_none()
            && self.inner.https.get().is_none()
            && self.inner.politeness.get().is_none()
    }

    /// Reports slow hosts to `hosts` and refuses the hosts it says rest.
    /// Set once (by the gateway that owns the suspensions); false when
    /// already set.
    pub fn set_host_health(&self, hosts: Arc<dyn HostHealth>) -> bool {
        self.inner.hosts.set(hosts).is_ok()
    }

    /// The rest of `host`, if the host health says it rests.
    fn host_rest(&self, host: &str) -> Option<HostRest> {
        self.inner.hosts.get()?.resting(host)
    }

    fn politeness(&self) -> &Politeness {
        self.inner
            .politeness
            .get_or_init(|| Politeness::new(&self.inner.cfg))
    }

    /// Awaits response headers from `host`, telling the host health how it
    /// went: headers → answered; a connect timeout, or the wait dropped (by a
    /// timeout or a caller that stopped waiting) → timed out; else neither.
    async fn watch_headers(
        &self,
        host: &str,
        send: impl Future<Output = reqwest::Result<reqwest::Response>>,
    ) -> reqwest::Result<reqwest::Response> {
        let wait = HeaderWait::new(self, host);
        let result = send.await;
        match &result {
            Ok(_) => wait.answered(),
            Err(e) if e.is_timeout() => wait.timed_out(),
            Err(_) => wait.failed_otherwise(),
        }
        result
    }

    /// The client for `url`'s scheme, built on first use (else why it could not be).
    fn client(&self, url: &Url) -> Result<&reqwest::Client, &str> {
        let tls = url.scheme() == "https";
        let cell = if tls {
            &self.inner.https
        } else {
            &self.inner.http
        };
        cell.get_or_init(|| Self::build_client(&self.inner.cfg, &self.inner.guard, tls))
            .as_ref()
            .map_err(String::as_str)
    }

    fn build_client(
        cfg: &FetchConfig,
        guard: &Arc<Guard>,
        tls: bool,
    ) -> Result<reqwest::Client, String> {
        if tls && !cfg!(feature = "tls") {
            return Err("https needs sgw-fetch's `tls` feature, which this build lacks".into());
        }
        let builder = reqwest::Client::builder();
        // Plain HTTP only: an empty root store instead of the system's (an
        // `https` URL never reaches this client).
        #[cfg(feature = "tls")]
        let builder = if tls {
            builder
        } else {
            builder.tls_certs_only(Vec::<reqwest::Certificate>::new())
        };
        builder
            .user_agent(cfg.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(cfg.timeouts.connect())
            .dns_resolver(GuardedResolver(guard.clone()))
            // A proxy would resolve names itself, past the guard.
            .no_proxy()
            .referer(false)
            .pool_idle_timeout(Duration::from_secs(60))
            .pool_max_idle_per_host(cfg.per_host_concurrency.max(1) as usize)
            .tcp_nodelay(true)
            .build()
            .map_err(|e| error_chain(&e))
    }

    /// The configuration this fetcher runs with.
    pub fn config(&self) -> &FetchConfig {
        &self.inner.cfg
    }

    /// Fetches `req.url`: SSRF guard and (for pages) robots.txt on every hop,
    /// politeness, caps, retries of temporary failures, diagnosis.
    pub async fn fetch(&self, req: &FetchRequest<'_>) -> Result<FetchResponse, FetchError> {
        let start = Instant::now();
        let cfg = &self.inner.cfg;
        let mut deadline = start + cfg.timeouts.total();
        if let Some(d) = req.deadline {
            deadline = deadline.min(Instant::from_std(d));
        }
        let mut attempt: u32 = 1;
        loop {
            let result = match tokio::time::timeout_at(deadline, self.attempt(req, deadline)).await {
                Ok(r) => r,
                Err(_) => Err(FetchError::new(
                    FailureCode::SearchProviderTimeout,
                    &req.url,
                    format!(
                        "no complete response within {} ms (network.timeouts.total_ms or the caller's deadline)",
                        (deadline - start).as_millis()
                    ),
                )
                .final_()),
            };
            match result {
                Ok(mut resp) => {
                    resp.elapsed = start.elapsed();
                    resp.attempts = attempt;
                    return Ok(resp);
                }
                Err(mut e) => {
                    e.elapsed = start.elapsed();
                    e.attempts = attempt;
                    if !e.is_temporary() || attempt > cfg.retries.max {
                        return Err(e);
                    }
                    let backoff = Duration::from_millis(
                        cfg.retries
                            .base_backoff_ms
                            .saturating_mul(1u64 << (attempt - 1).min(20)),
                    );
                    let wait = backoff.max(e.retry_after.unwrap_or_default());
                    let max_wait = Duration::from_millis(cfg.retries.max_backoff_ms);
                    if wait > max_wait
                        || Instant::now()
                            .checked_add(wait)
                            .is_none_or(|t| t >= deadline)
                    {
                        tracing::debug!(url = %req.url, ?wait, "not retrying: the wait exceeds the backoff cap or the deadline");
                        return Err(e);
                    }
                    tracing::info!(url = %req.url, code = %e.code, attempt, ?wait, "retrying temporary failure");
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
            }
        }
    }

    /// Fetches an API URL and parses its JSON body. Invalid JSON →
    /// `SOURCE_EXTRACTION_FAILED` naming the URL and position.
    pub async fn fetch_json<T: serde::de::DeserializeOwned>(
        &self,
        req: &FetchRequest<'_>,
    ) -> Result<T, FetchError> {
        let req = FetchRequest {
            accept: req.accept.or(Some("application/json")),
            ..req.clone()
        };
        let resp = self.fetch(&req).await?;
        serde_json::from_slice(&resp.body).map_err(|e| {
            let mut err = FetchError::new(
                FailureCode::SourceExtractionFailed,
                &resp.final_url,
                format!("invalid JSON ({}): {e}", resp.content_type),
            );
            err.http_status = Some(resp.status);
            err.elapsed = resp.elapsed;
            err.headers_of_interest = resp.headers_of_interest.clone();
            err
        })
    }

    /// One attempt: follows redirects itself, checking every hop.
    async fn attempt(
        &self,
        req: &FetchRequest<'_>,
        deadline: Instant,
    ) -> Result<FetchResponse, FetchError> {
        let cfg = &self.inner.cfg;
        let origin0 = origin_of(&req.url);
        let mut url = req.url.clone();
        let mut redirects: Vec<Url> = Vec::new();
        loop {
            self.inner
                .guard
                .check_url(&url)
                .map_err(|e| guard_error(&url, &e))?;
            if let Some(rest) = self.host_rest(&host_key(&url)) {
                return Err(resting_error(&url, &host_key(&url), rest));
            }
            let mut crawl_delay = None;
            if req.kind == FetchKind::Page && cfg.robots.enabled {
                let entry = self.robots_entry(&url, deadline).await?;
                let target = match url.query() {
                    Some(q) => format!("{}?{q}", url.path()),
                    None => url.path().to_string(),
                };
                entry
                    .check(&target)
                    .map_err(|(code, why)| FetchError::new(code, &url, why).final_())?;
                crawl_delay =
                    entry.crawl_delay(Duration::from_secs(cfg.robots.max_crawl_delay_secs));
            }
            let host = host_key(&url);
            let permit = self
                .politeness()
                .acquire(&host, crawl_delay, deadline)
                .await
                .map_err(|w| wait_error(&url, w))?;

            let client = self.client(&url).map_err(|e| {
                FetchError::new(
                    FailureCode::SearchProviderMisconfigured,
                    &url,
                    format!("the HTTP client could not be built: {e}"),
                )
                .final_()
            })?;
            let mut rb = client.get(url.clone()).header(
                header::ACCEPT,
                req.accept.unwrap_or(match req.kind {
                    FetchKind::Page => PAGE_ACCEPT,
                    FetchKind::Api => API_ACCEPT,
                }),
            );
            rb = rb.header(header::ACCEPT_ENCODING, ACCEPT_ENCODING);
            if let Some(v) = &req.validators {
                if let Some(etag) = &v.etag {
                    rb = rb.header(header::IF_NONE_MATCH, etag.as_str());
                }
                if let Some(lm) = &v.last_modified {
                    rb = rb.header(header::IF_MODIFIED_SINCE, lm.as_str());
                }
            }
            if origin_of(&url) == origin0 {
                for (k, v) in req.headers {
                    let name = HeaderName::from_bytes(k.as_bytes()).map_err(|e| {
                        FetchError::new(
                            FailureCode::SearchProviderMisconfigured,
                            &url,
                            format!("bad header name `{k}`: {e}"),
                        )
                        .final_()
                    })?;
                    let value = HeaderValue::from_str(v).map_err(|e| {
                        FetchError::new(
                            FailureCode::SearchProviderMisconfigured,
                            &url,
                            format!("bad value for header `{k}`: {e}"),
                        )
                        .final_()
                    })?;
                    rb = rb.header(name, value);
                }
            }
            let first_byte = (Instant::now() + cfg.timeouts.first_byte()).min(deadline);
            let send = self.watch_headers(&host, rb.send());
            let resp = match tokio::time::timeout_at(first_byte, send).await {
                Err(_) => {
                    return Err(FetchError::new(
                        FailureCode::SearchProviderTimeout,
                        &url,
                        format!(
                            "no response headers within {} ms (network.timeouts.first_byte_ms)",
                            cfg.timeouts.first_byte_ms
                        ),
                    ));
                }
                Ok(Err(e)) => return Err(send_error(&url, &e)),
                Ok(Ok(r)) => r,
            };
            let status = resp.status().as_u16();
            let headers = resp.headers().clone();
            let hoi = interesting(&headers);

            if matches!(status, 301 | 302 | 303 | 307 | 308)
                && let Some(loc) = headers.get(header::LOCATION)
            {
                drop(resp);
                drop(permit);
                let loc = loc.to_str().unwrap_or("");
                let next = url.join(loc).map_err(|e| {
                    let mut err = FetchError::new(
                        FailureCode::SourceExtractionFailed,
                        &url,
                        format!("HTTP {status} with an invalid Location `{loc}`: {e}"),
                    )
                    .final_();
                    err.http_status = Some(status);
                    err
                })?;
                if redirects.len() as u32 >= cfg.max_redirects {
                    let looped = redirects.contains(&next) || next == req.url;
                    let mut err = FetchError::new(
                        FailureCode::SourceUnreachable,
                        &url,
                        format!(
                            "{} after {} redirects (network.max_redirects = {}); next: {next}",
                            if looped {
                                "redirect loop"
                            } else {
                                "too many redirects"
                            },
                            redirects.len(),
                            cfg.max_redirects
                        ),
                    )
                    .final_();
                    err.http_status = Some(status);
                    err.headers_of_interest = hoi;
                    return Err(err);
                }
                if diagnose::is_login_url(&next) {
                    let mut err = FetchError::new(
                        FailureCode::SourceLoginRequired,
                        &url,
                        format!("HTTP {status} redirect to a sign-in page: {next}"),
                    );
                    err.http_status = Some(status);
                    err.headers_of_interest = hoi;
                    return Err(err);
                }
                tracing::debug!(from = %url, to = %next, status, "following redirect");
                redirects.push(next.clone());
                url = next;
                continue;
            }

            let validators = HttpValidators {
                etag: headers
                    .get(header::ETAG)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string),
                last_modified: headers
                    .get(header::LAST_MODIFIED)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string),
            };
            let (mut content_type, header_charset) = headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .map(parse_content_type)
                .unwrap_or_default();
            let retry_after = diagnose::retry_after(&headers, now_unix());

            if status == 304 {
                return Ok(FetchResponse {
                    status,
                    url: req.url.clone(),
                    final_url: url,
                    content_type,
                    content_type_sniffed: false,
                    charset: None,
                    body: Bytes::new(),
                    text: OnceLock::new(),
                    header_charset: None,
                    validators: if validators.is_empty() {
                        req.validators.clone().unwrap_or_default()
                    } else {
                        validators
                    },
                    not_modified: true,
                    js_shell_check_owed: false,
                    elapsed: Duration::ZERO,
                    redirects,
                    attempts: 1,
                    headers_of_interest: hoi,
                });
            }

            let encoding = headers
                .get(header::CONTENT_ENCODING)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            let body = read_body(
                resp,
                &encoding,
                cfg.max_body_bytes,
                cfg.max_decompressed_bytes,
            )
            .await;
            drop(permit);
            let body = match body {
                Ok(b) => b,
                Err(be) => {
                    // An error status is diagnosed even when its body is cut.
                    let mut err = body_error(&url, be, cfg);
                    if status >= 400
                        && let Some(dg) = diagnose::diagnose(&Observation {
                            status,
                            headers: &headers,
                            content_type: &content_type,
                            text: None,
                            kind: req.kind,
                        })
                    {
                        err.code = dg.code;
                        err.message = format!("{} (body unreadable: {})", dg.reason, err.message);
                    }
                    err.http_status = Some(status);
                    err.retry_after = retry_after;
                    err.headers_of_interest = hoi;
                    return Err(err);
                }
            };

            let mut sniffed = false;
            if (content_type.is_empty() || content_type == "application/octet-stream")
                && let Some(s) = sniff(&body)
            {
                content_type = s.to_string();
                sniffed = true;
            }
            let (text, charset) = if is_text_type(&content_type) {
                let (t, enc) = sgw_extract::decode_html(&body, header_charset.as_deref());
                (Some(t), Some(enc.name().to_string()))
            } else {
                (None, None)
            };

            let observed = Observation {
                status,
                headers: &headers,
                content_type: &content_type,
                text: text.as_deref(),
                kind: req.kind,
            };
            let diagnosed = if req.js_shell_check_by_caller {
                diagnose::diagnose_leaving_shell_check(&observed)
            } else {
                diagnose::diagnose(&observed).map_or(Ok(false), Err)
            };
            let js_shell_check_owed = match diagnosed {
                Ok(owed) => owed,
                Err(dg) => {
                    let mut err = FetchError::new(dg.code, &url, dg.reason);
                    if matches!(dg.code, FailureCode::SearchProviderCaptcha) {
                        err = err.final_();
                    }
                    err.http_status = Some(status);
                    err.retry_after = retry_after;
                    err.headers_of_interest = hoi;
                    return Err(err);
                }
            };

            let kept = OnceLock::new();
            if let Some(text) = text.filter(|t| t.len() <= KEEP_TEXT_UP_TO) {
                let _ = kept.set(text.into_owned());
            }
            return Ok(FetchResponse {
                status,
                url: req.url.clone(),
                final_url: url,
                content_type,
                content_type_sniffed: sniffed,
                charset,
                body,
                text: kept,
                header_charset,
                validators,
                not_modified: false,
                js_shell_check_owed,
                elapsed: Duration::ZERO,
                redirects,
                attempts: 1,
                headers_of_interest: hoi,
            });
        }
    }

    /// The robots.txt entry for `url`'s origin (fetched on first use).
    async fn robots_entry(&self, url: &Url, deadline: Instant) -> Result<Arc<Entry>, FetchError> {
        let origin = origin_of(url);
        let cell = self.inner.robots.cell(&origin);
        let fetch = cell.get_or_init(|| async {
            let ttl = Duration::from_secs(self.inner.cfg.robots.cache_ttl_secs);
            let rules = self.fetch_robots(url).await;
            tracing::debug!(%origin, ?rules, "robots.txt");
            Arc::new(Entry::new(rules, ttl))
        });
        match tokio::time::timeout_at(deadline, fetch).await {
            Ok(e) => Ok(e.clone()),
            Err(_) => Err(FetchError::new(
                FailureCode::SearchProviderTimeout,
                url,
                format!("deadline reached while fetching {origin}/robots.txt"),
            )),
        }
    }

    /// Fetches and interprets `/robots.txt` of `url`'s origin (RFC 9309):
    /// up to 5 redirects (each guarded), identity encoding, capped body.
    async fn fetch_robots(&self, url: &Url) -> Rules {
        let cfg = &self.inner.cfg;
        let mut target = match url.join("/robots.txt") {
            Ok(u) => u,
            Err(e) => {
                return Rules::DisallowAll {
                    why: format!("no robots.txt URL: {e}"),
                };
            }
        };
        let budget = cfg.timeouts.total().min(Duration::from_secs(20));
        let deadline = Instant::now() + budget;
        for _ in 0..=5 {
            if let Err(e) = self.inner.guard.check_url(&target) {
                return Rules::Refused(e.to_string());
            }
            let client = match self.client(&target) {
                Ok(c) => c,
                Err(e) => {
                    return Rules::DisallowAll {
                        why: format!("the HTTP client could not be built: {e}"),
                    };
                }
            };
            let permit = match self
                .politeness()
                .acquire(&host_key(&target), None, deadline)
                .await
            {
                Ok(p) => p,
                Err(w) => {
                    return Rules::DisallowAll {
                        why: format!("no request slot for robots.txt: {w:?}"),
                    };
                }
            };
            let robots_host = host_key(&target);
            let send = self.watch_headers(
                &robots_host,
                client
                    .get(target.clone())
                    .header(header::ACCEPT, "text/plain, */*;q=0.5")
                    .send(),
            );
            let resp = match tokio::time::timeout_at(
                deadline.min(Instant::now() + cfg.timeouts.first_byte()),
                send,
            )
            .await
            {
                Err(_) => {
                    return Rules::Unreachable {
                        code: FailureCode::SearchProviderTimeout,
                        why: "timeout".into(),
                    };
                }
                Ok(Err(e)) => {
                    return match find_guard_error(&e) {
                        Some(g) if g.is_forbidden() => Rules::Refused(g.to_string()),
                        // DNS failure, refused connection: the origin is unreachable.
                        _ => {
                            let err = send_error(&target, &e);
                            Rules::Unreachable {
                                code: err.code,
                                why: err.message,
                            }
                        }
                    };
                }
                Ok(Ok(r)) => r,
            };
            let status = resp.status().as_u16();
            match status {
                200..=299 => {
                    let max = cfg.robots.max_bytes as usize;
                    let mut body = Vec::new();
                    let mut stream = resp.bytes_stream();
                    loop {
                        match tokio::time::timeout_at(deadline, stream.next()).await {
                            Err(_) => {
                                return Rules::DisallowAll {
                                    why: "timeout reading robots.txt".into(),
                                };
                            }
                            Ok(None) => break,
                            Ok(Some(Err(e))) => {
                                return Rules::DisallowAll {
                                    why: format!("robots.txt body: {}", error_chain(&e)),
                                };
                            }
                            Ok(Some(Ok(chunk))) => {
                                let room = max - body.len();
                                body.extend_from_slice(&chunk[..chunk.len().min(room)]);
                                if body.len() >= max {
                                    break;
                                }
                            }
                        }
                    }
                    drop(permit);
                    return robots::parse(&self.inner.agent, &body);
                }
                301 | 302 | 303 | 307 | 308 => {
                    let next = resp
                        .headers()
                        .get(header::LOCATION)
                        .and_then(|l| l.to_str().ok())
                        .and_then(|l| target.join(l).ok());
                    match next {
                        Some(n) => target = n,
                        None => {
                            return Rules::AllowAll {
                                why: format!("HTTP {status} without Location"),
                            };
                        }
                    }
                }
                400..=499 => {
                    return Rules::AllowAll {
                        why: format!("HTTP {status}: no robots.txt"),
                    };
                }
                _ => {
                    return Rules::DisallowAll {
                        why: format!("HTTP {status}"),
                    };
                }
            }
        }
        // RFC 9309: more than five redirects → treat as unavailable (4xx).
        Rules::AllowAll {
            why: "robots.txt redirected more than 5 times".into(),
        }
    }
}

fn guard_error(url: &Url, e: &GuardError) -> FetchError {
    let code = if e.is_forbidden() {
        FailureCode::SourceAddressForbidden
    } else {
        FailureCode::SourceUnreachable
    };
    let err = FetchError::new(code, url, e.to_string());
    if e.is_forbidden() { err.final_() } else { err }
}

fn send_error(url: &Url, e: &reqwest::Error) -> FetchError {
    if let Some(g) = find_guard_error(e) {
        return guard_error(url, g);
    }
    let chain = error_chain(e);
    if e.is_timeout() {
        return FetchError::new(
            FailureCode::SearchProviderTimeout,
            url,
            format!("connect timeout: {chain}"),
        );
    }
    let what = if e.is_connect() {
        "connection failed"
    } else {
        "request failed"
    };
    FetchError::new(
        FailureCode::SourceUnreachable,
        url,
        format!("{what}: {chain}"),
    )
}

fn wait_error(url: &Url, w: Wait) -> FetchError {
    match w {
        Wait::Concurrency => FetchError::new(
            FailureCode::SearchProviderTimeout,
            url,
            "deadline reached waiting for a per-host connection slot (network.per_host_concurrency)",
        ),
        Wait::Rate { wait, why } => {
            let mut e = FetchError::new(
                FailureCode::SearchProviderRateLimited,
                url,
                format!(
                    "{why} needs a {} ms wait, past the deadline",
                    wait.as_millis()
                ),
            )
            .final_();
            e.retry_after = Some(wait);
            e
        }
    }
}

fn body_error(url: &Url, be: BodyError, cfg: &FetchConfig) -> FetchError {
    match be {
        BodyError::WireCap { limit, declared } => FetchError::new(
            FailureCode::SearchResultTruncated,
            url,
            match declared {
                Some(d) if d > limit => format!("body of {d} bytes (Content-Length) exceeds network.max_body_bytes = {limit}; not read"),
                _ => format!("body stopped at network.max_body_bytes = {limit}"),
            },
        )
        .final_(),
        BodyError::DecodedCap { limit, encoding } => FetchError::new(
            FailureCode::SearchResultTruncated,
            url,
            format!(
                "{encoding} body decompressed past network.max_decompressed_bytes = {limit} (compressed {} cap); stopped (possible decompression bomb)",
                cfg.max_body_bytes
            ),
        )
        .final_(),
        BodyError::Truncated { received, expected, detail } => FetchError::new(
            FailureCode::SearchResultTruncated,
            url,
            match expected {
                Some(e) => format!("body cut after {received} of {e} bytes: {detail}"),
                None => format!("body cut after {received} bytes: {detail}"),
            },
        )
        .final_(),
        BodyError::Decode(m) => FetchError::new(FailureCode::SourceExtractionFailed, url, m).final_(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_parsing() {
        assert_eq!(
            parse_content_type("Text/HTML; Charset=\"Shift_JIS\""),
            ("text/html".into(), Some("Shift_JIS".into()))
        );
        assert_eq!(
            parse_content_type("application/json"),
            ("application/json".into(), None)
        );
        assert!(is_text_type("application/rss+xml"));
        assert!(!is_text_type("application/pdf"));
    }

    #[test]
    fn sniffing() {
        assert_eq!(sniff(b"%PDF-1.7 ..."), Some("application/pdf"));
        assert_eq!(
            sniff(b"<!DOCTYPE html><html><body>x</body></html>"),
            Some("text/html")
        );
        assert_eq!(
            sniff(b"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel></channel></rss>"),
            Some("application/rss+xml")
        );
        assert_eq!(sniff(b"\x89PNG\r\n"), Some("image/png"));
        assert_eq!(sniff(b"{\"a\": 1}"), Some("application/json"));
    }

    #[test]
    fn bad_config_is_refused() {
        let cfg = FetchConfig {
            per_host_concurrency: 0,
            ..FetchConfig::default()
        };
        let e = Fetcher::new(cfg).unwrap_err();
        assert!(e.to_string().contains("per_host_concurrency"));
    }
}
