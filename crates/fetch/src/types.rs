//! Request, response and error types of the network layer.

use bytes::Bytes;
use sgw_contract::{FailureCode, HttpValidators};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use url::Url;

/// What is being fetched; decides whether robots.txt and page rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FetchKind {
    /// A web page (robots.txt honoured; login-wall and JS-shell rules apply).
    Page,
    /// An API the operator configured explicitly (robots.txt not consulted).
    Api,
}

/// One fetch.
#[derive(Debug, Clone)]
pub struct FetchRequest<'a> {
    pub url: Url,
    pub kind: FetchKind,
    /// Validators of a stored copy: sent as `If-None-Match` / `If-Modified-Since`.
    pub validators: Option<HttpValidators>,
    /// The caller's deadline; the fetch (retries included) never runs past it.
    pub deadline: Option<Instant>,
    /// `Accept` header; a default per kind when `None`.
    pub accept: Option<&'a str>,
    /// Extra request headers (API keys, …). Sent to the request's origin only:
    /// dropped when a redirect leaves it.
    pub headers: &'a [(&'a str, &'a str)],
    /// The caller extracts the page and judges whether it is a JavaScript
    /// shell on the tree it parses (`sgw_extract::Document::js_shell`): the
    /// fetch leaves that one check out (it would parse the page a second
    /// time) and sets [`FetchResponse::js_shell_check_owed`] where it
    /// applied. Every other rule of [`crate::diagnose`] still runs.
    pub js_shell_check_by_caller: bool,
}

impl<'a> FetchRequest<'a> {
    /// A page fetch with defaults.
    pub fn page(url: Url) -> FetchRequest<'a> {
        FetchRequest {
            url,
            kind: FetchKind::Page,
            validators: None,
            deadline: None,
            accept: None,
            headers: &[],
            js_shell_check_by_caller: false,
        }
    }

    /// An API fetch with defaults.
    pub fn api(url: Url) -> FetchRequest<'a> {
        FetchRequest {
            kind: FetchKind::Api,
            ..FetchRequest::page(url)
        }
    }

    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    pub fn with_validators(mut self, validators: HttpValidators) -> Self {
        self.validators = Some(validators);
        self
    }

    pub fn with_accept(mut self, accept: &'a str) -> Self {
        self.accept = Some(accept);
        self
    }

    pub fn with_headers(mut self, headers: &'a [(&'a str, &'a str)]) -> Self {
        self.headers = headers;
        self
    }

    /// Leaves the JavaScript-shell check to the caller's extraction (see
    /// [`FetchRequest::js_shell_check_by_caller`]).
    pub fn with_js_shell_check_by_caller(mut self) -> Self {
        self.js_shell_check_by_caller = true;
        self
    }
}

/// A successful fetch (2xx, or 304 for a conditional request).
#[derive(Debug, Clone)]
pub struct FetchResponse {
    pub status: u16,
    /// The URL asked for.
    pub url: Url,
    /// The URL the content came from, after redirects.
    pub final_url: Url,
    /// Media type essence, lower case; sniffed from the bytes when the server
    /// sent none or `application/octet-stream`.
    pub content_type: String,
    /// True when `content_type` was sniffed rather than sent.
    pub content_type_sniffed: bool,
    /// The character encoding `text()` was decoded from (text types only).
    pub charset: Option<String>,
    /// The body after content decoding (gzip/deflate/br removed).
    pub body: Bytes,
    /// The decoded text of a text type, once decoded (see [`FetchResponse::text`]).
    pub(crate) text: OnceLock<String>,
    /// The charset the `Content-Type` header named (to decode `text` again).
    pub(crate) header_charset: Option<String>,
    /// `ETag` / `Last-Modified` of this response (for the next revalidation).
    pub validators: HttpValidators,
    /// A 304: the stored copy is still current; `body` is empty.
    pub not_modified: bool,
    /// The request left the JavaScript-shell check to its caller
    /// ([`FetchRequest::js_shell_check_by_caller`]) and this response is an
    /// HTML page that needs it: the caller must make it before using the
    /// page (`SOURCE_DYNAMIC_PAGE_UNREADABLE` for a shell).
    pub js_shell_check_owed: bool,
    pub elapsed: Duration,
    /// Every redirect target followed, in order.
    pub redirects: Vec<Url>,
    /// Attempts made (1 + retries).
    pub attempts: u32,
    /// Selected response headers (lower-case names): server, CDN ids,
    /// caching, content headers.
    pub headers_of_interest: BTreeMap<String, String>,
}

impl FetchResponse {
    /// The decoded text for text types (HTML, XML, JSON, text/*); empty for
    /// binary types and 304s.
    ///
    /// The fetch decodes the text to diagnose the response but keeps it only
    /// when it is small: a large page is decoded again here on first use, so
    /// one read by the extractor (which decodes the body itself) does not
    /// hold the page's text twice.
    pub fn text(&self) -> &str {
        if !self.is_text() {
            return "";
        }
        self.text.get_or_init(|| {
            sgw_extract::decode_html(&self.body, self.header_charset.as_deref())
                .0
                .into_owned()
        })
    }

    /// The error the fetch returns for a JavaScript application shell
    /// (`SOURCE_DYNAMIC_PAGE_UNREADABLE`, naming the final URL), for a
    /// caller that found one where the check was left to it
    /// ([`FetchResponse::js_shell_check_owed`]).
    pub fn js_shell_error(&self) -> FetchError {
        let mut err = FetchError::new(
            FailureCode::SourceDynamicPageUnreadable,
            &self.final_url,
            crate::diagnose::JS_SHELL,
        );
        err.http_status = Some(self.status);
        err.elapsed = self.elapsed;
        err.attempts = self.attempts;
        err.headers_of_interest = self.headers_of_interest.clone();
        err
    }

    /// The content type with the charset [`FetchResponse::text`] is decoded
    /// from (`text/html; charset=windows-1252`), for an extractor that
    /// decodes the body itself (`sgw_extract::extract`): it then reads the
    /// same text, the charset of the `Content-Type` header included.
    pub fn content_type_with_charset(&self) -> String {
        match &self.charset {
            Some(charset) => format!("{}; charset={charset}", self.content_type),
            None => self.content_type.clone(),
        }
    }

    /// Whether the body was decoded as text.
    pub fn is_text(&self) -> bool {
        self.charset.is_some()
    }
}

/// A failed fetch, diagnosed as exactly one [`FailureCode`].
#[derive(Debug, Clone)]
pub struct FetchError {
    pub code: FailureCode,
    /// The URL at fault (the redirect hop that failed, else the requested URL).
    pub url: Url,
    pub message: String,
    pub http_status: Option<u16>,
    /// The server's `Retry-After`, when it sent one.
    pub retry_after: Option<Duration>,
    pub elapsed: Duration,
    pub attempts: u32,
    pub headers_of_interest: BTreeMap<String, String>,
    /// False for failures a retry cannot fix although their code is temporary
    /// (a redirect loop, a politeness delay past the deadline).
    pub(crate) retryable: bool,
}

impl FetchError {
    pub(crate) fn new(code: FailureCode, url: &Url, message: impl Into<String>) -> FetchError {
        FetchError {
            code,
            url: url.clone(),
            message: message.into(),
            http_status: None,
            retry_after: None,
            elapsed: Duration::ZERO,
            attempts: 1,
            headers_of_interest: BTreeMap::new(),
            retryable: true,
        }
    }

    pub(crate) fn final_(mut self) -> FetchError {
        self.retryable = false;
        self
    }

    /// True when trying again later can help (see [`FailureCode::is_temporary`]).
    pub fn is_temporary(&self) -> bool {
        self.retryable && self.code.is_temporary()
    }
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.code, self.message, self.url)?;
        if let Some(ra) = self.retry_after {
            write!(f, " [retry after {}s]", ra.as_secs())?;
        }
        Ok(())
    }
}

impl std::error::Error for FetchError {}
