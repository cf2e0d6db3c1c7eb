//! The pure classifier: a response (status, headers, decoded text) → at most
//! one [`FailureCode`] with a reason.
//!
//! Precedence (first match wins):
//! 1. CAPTCHA / challenge pages (any status: a Cloudflare challenge often
//!    arrives as 403 or 503) → `SEARCH_PROVIDER_CAPTCHA`.
//! 2. Status: 401/407 → `SOURCE_LOGIN_REQUIRED`; 403 → login form →
//!    `SOURCE_LOGIN_REQUIRED`, else `SOURCE_BLOCKED_BY_CDN` (with the CDN named
//!    when its markers are present; a plain 403 keeps the seed's mapping);
//!    404/410 → `SOURCE_404_OR_REMOVED`; 408 → `SEARCH_PROVIDER_TIMEOUT`;
//!    429/503 → `SEARCH_PROVIDER_RATE_LIMITED`; other 5xx →
//!    `SOURCE_SERVER_ERROR`; other 4xx → `SEARCH_PROVIDER_MISCONFIGURED` for
//!    APIs (the request the operator configured was rejected) and
//!    `SOURCE_EXTRACTION_FAILED` for pages.
//! 3. 2xx pages: a password form as the main content → `SOURCE_LOGIN_REQUIRED`;
//!    a JavaScript-only shell → `SOURCE_DYNAMIC_PAGE_UNREADABLE`.
//!
//! The body markers are found in one pass over the body's first 256 KiB
//! (an Aho-Corasick automaton, ASCII case ignored), not one search per marker.
//!
//! Nothing here tries to get around what it detects.

use http::HeaderMap;
use sgw_contract::FailureCode;
use std::time::Duration;
use url::Url;

use crate::FetchKind;

/// How much of the body the markers are searched in.
const SCAN: usize = 256 * 1024;
/// Below this much visible text (bytes) a page "is" its form or widget.
const SMALL_PAGE: usize = 2_000;

/// What the classifier looks at.
#[derive(Debug, Clone, Copy)]
pub struct Observation<'a> {
    pub status: u16,
    pub headers: &'a HeaderMap,
    /// Media type essence, lower case (`text/html`).
    pub content_type: &'a str,
    /// The decoded body when it is text (HTML, XML, plain text), else `None`.
    pub text: Option<&'a str>,
    pub kind: FetchKind,
}

/// The reason given for a JavaScript application shell.
pub(crate) const JS_SHELL: &str =
    "JavaScript-only application shell: no readable text without running scripts";

/// A classification with its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    pub code: FailureCode,
    pub reason: String,
}

fn d(code: FailureCode, reason: impl Into<String>) -> Option<Diagnosis> {
    Some(Diagnosis {
        code,
        reason: reason.into(),
    })
}

fn header<'h>(h: &'h HeaderMap, name: &str) -> &'h str {
    h.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// The part of a body the markers are searched in: its first [`SCAN`] bytes.
fn scanned(text: Option<&str>) -> &str {
    let t = text.unwrap_or("");
    let mut end = t.len().min(SCAN);
    while !t.is_char_boundary(end) {
        end -= 1;
    }
    &t[..end]
}

fn is_html(ct: &str) -> bool {
    ct == "text/html" || ct == "application/xhtml+xml"
}

/// Classifies a response; `None` means usable content.
pub fn diagnose(o: &Observation<'_>) -> Option<Diagnosis> {
    let scanned = scanned(o.text);
    diagnose_with(
        o,
        scanned,
        &markers::Found::in_text(scanned),
        ShellCheck::Here,
    )
}

/// [`diagnose`] without its last rule, the JavaScript-shell check of an
/// HTML page, for a caller that parses the page anyway and judges it on
/// that tree (`sgw_extract::Document::js_shell`, the same verdict): the
/// page is then not parsed twice. `Ok(true)`: the response is usable but
/// for that check, which the caller owes; `Ok(false)`: usable, no check
/// applies (not an HTML page, or no body).
pub fn diagnose_leaving_shell_check(o: &Observation<'_>) -> Result<bool, Diagnosis> {
    let scanned = scanned(o.text);
    match diagnose_with(
        o,
        scanned,
        &markers::Found::in_text(scanned),
        ShellCheck::Left,
    ) {
        Some(dg) => Err(dg),
        None => Ok(shell_check_applies(o, scanned)),
    }
}

/// Whether [`diagnose`]'s JavaScript-shell check is made here, or left to
/// the caller ([`diagnose_leaving_shell_check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ShellCheck {
    Here,
    Left,
}

/// Whether a response that passed every other rule gets the
/// JavaScript-shell check: a page's HTML body, not a 304.
fn shell_check_applies(o: &Observation<'_>, scanned: &str) -> bool {
    o.kind == FetchKind::Page
        && o.status != 304
        && o.text.is_some()
        && (is_html(o.content_type) || starts_with_doctype(scanned))
}

/// [`diagnose`] with the markers `body` says the scanned text holds (its
/// first [`SCAN`] bytes, ASCII case ignored).
fn diagnose_with(
    o: &Observation<'_>,
    scanned: &str,
    body: &impl Body,
    shell: ShellCheck,
) -> Option<Diagnosis> {
    let html = is_html(o.content_type) || starts_with_doctype(scanned);
    // Visible text is computed at most once, and only for HTML.
    let mut visible: Option<usize> = None;
    let mut visible_len = |text: Option<&str>| -> usize {
        *visible.get_or_insert_with(|| text.map(sgw_extract::visible_text_len).unwrap_or(0))
    };

    // 1. Challenges and CAPTCHAs, before any status rule.
    if let Some(marker) = challenge_marker(o.headers, body) {
        let strong = marker.1;
        let ok_status = (200..300).contains(&o.status);
        if !ok_status || strong || visible_len(o.text) < SMALL_PAGE {
            return d(
                FailureCode::SearchProviderCaptcha,
                format!(
                    "challenge/CAPTCHA page ({}) served with HTTP {}",
                    marker.0, o.status
                ),
            );
        }
    }

    // 2. Status rules.
    let st = o.status;
    match st {
        401 | 407 => {
            let how = header(o.headers, "www-authenticate");
            return d(
                FailureCode::SourceLoginRequired,
                if how.is_empty() {
                    format!("HTTP {st}: authentication required")
                } else {
                    format!("HTTP {st}: authentication required ({how})")
                },
            );
        }
        403 => {
            if html && has_password_form(body) {
                return d(
                    FailureCode::SourceLoginRequired,
                    "HTTP 403 with a sign-in form",
                );
            }
            return match cdn_marker(o.headers, body) {
                Some(cdn) => d(
                    FailureCode::SourceBlockedByCdn,
                    format!("HTTP 403 from a CDN/WAF: {cdn}"),
                ),
                None => d(
                    FailureCode::SourceBlockedByCdn,
                    "HTTP 403 without CDN markers: access refused by the site or its edge",
                ),
            };
        }
        404 => return d(FailureCode::Source404OrRemoved, "HTTP 404 Not Found"),
        410 => return d(FailureCode::Source404OrRemoved, "HTTP 410 Gone"),
        408 => {
            return d(
                FailureCode::SearchProviderTimeout,
                "HTTP 408 Request Timeout",
            );
        }
        429 => {
            return d(
                FailureCode::SearchProviderRateLimited,
                "HTTP 429 Too Many Requests",
            );
        }
        503 => {
            return d(
                FailureCode::SearchProviderRateLimited,
                "HTTP 503 Service Unavailable (overloaded or rate limited)",
            );
        }
        500..=599 => {
            return d(
                FailureCode::SourceServerError,
                format!("HTTP {st} server error"),
            );
        }
        400..=499 => {
            return match o.kind {
                FetchKind::Api => d(
                    FailureCode::SearchProviderMisconfigured,
                    format!(
                        "HTTP {st}: the API rejected the request (check the provider's configuration)"
                    ),
                ),
                FetchKind::Page => d(
                    FailureCode::SourceExtractionFailed,
                    format!("HTTP {st}: the server rejected the request"),
                ),
            };
        }
        200..=299 | 304 => {}
        _ => {
            return d(
                FailureCode::SourceExtractionFailed,
                format!("unexpected HTTP status {st}"),
            );
        }
    }

    // 3. Content rules for pages.
    if o.kind == FetchKind::Page && html && st != 304 {
        if has_password_form(body) && visible_len(o.text) < SMALL_PAGE {
            return d(
                FailureCode::SourceLoginRequired,
                "a sign-in form is the page's main content",
            );
        }
        if shell == ShellCheck::Here
            && let Some(text) = o.text
            && sgw_extract::looks_like_js_shell(text)
        {
            return d(FailureCode::SourceDynamicPageUnreadable, JS_SHELL);
        }
    }
    None
}

/// Challenge/CAPTCHA markers conclusive on their own, and their names.
const STRONG: &[(&str, &str)] = &[
    (
        "/cdn-cgi/challenge-platform",
        "Cloudflare challenge platform",
    ),
    ("cf_chl_opt", "Cloudflare challenge"),
    ("<title>just a moment", "Cloudflare \"Just a moment\""),
    (
        "attention required! | cloudflare",
        "Cloudflare \"Attention Required\"",
    ),
    ("captcha-delivery.com", "DataDome CAPTCHA"),
    ("px-captcha", "PerimeterX CAPTCHA"),
    ("<title>are you a robot", "\"Are you a robot\" page"),
];
/// Challenge/CAPTCHA markers that sites also embed in content (comment forms).
const WEAK: &[(&str, &str)] = &[
    (
        "challenges.cloudflare.com",
        "Cloudflare Turnstile/challenge",
    ),
    ("cf-turnstile", "Cloudflare Turnstile"),
    ("g-recaptcha", "reCAPTCHA"),
    ("google.com/recaptcha", "reCAPTCHA"),
    ("recaptcha/api.js", "reCAPTCHA"),
    ("h-captcha", "hCaptcha"),
    ("hcaptcha.com", "hCaptcha"),
    ("verify you are human", "\"verify you are human\""),
    ("just a moment...", "\"Just a moment\" interstitial"),
];

/// Body markers of CDN/WAF block pages (read on a 403 only).
const CDN_BODY: &[&str] = &[
    "error code: 1020",
    "error 1020",
    "cloudflare ray id",
    "generated by cloudfront",
    "access denied",
    "reference&#32;#",
    "errors.edgesuite.net",
    "fastly error",
    "sucuri website firewall",
    "incapsula incident id",
];
/// A password input, as HTML writes it.
const PASSWORD: &[&str] = &["type=\"password\"", "type='password'", "type=password"];

/// What the scanned part of a body holds: asked for one marker of the
/// tables above (lower case) at a time, it answers whether the text has it,
/// ASCII case ignored.
trait Body {
    fn has(&self, marker: &str) -> bool;
}

/// Every marker found in one pass over the text, instead of one search per
/// marker over a lower-cased copy of it.
mod markers {
    use aho_corasick::{AhoCorasick, MatchKind};
    use std::sync::LazyLock;

    /// Every marker the classifier asks for; a marker's bit in [`Found`] is
    /// its index here.
    pub(super) fn all() -> impl Iterator<Item = &'static str> {
        let names = |t: &'static [(&'static str, &'static str)]| t.iter().map(|(m, _)| *m);
        names(super::STRONG)
            .chain(names(super::WEAK))
            .chain(super::CDN_BODY.iter().copied())
            .chain(super::PASSWORD.iter().copied())
    }

    /// The markers' scanners and the markers.
    struct Markers {
        /// Every occurrence, overlapping, ASCII case ignored.
        scanner: AhoCorasick,
        /// Whether a lower-cased text holds any marker at all (leftmost-first
        /// and case-sensitive: the kind of search that gets a SIMD prefilter;
        /// an ASCII-case-insensitive or overlapping one reads every byte
        /// through the automaton). The markers are lower case
        /// (`markers_are_lower_case_and_distinct`).
        gate: AhoCorasick,
        markers: Vec<&'static str>,
    }

    static MARKERS: LazyLock<Markers> = LazyLock::new(|| {
        let markers: Vec<&'static str> = all().collect();
        assert!(markers.len() <= 64, "a Found holds 64 markers");
        let scanner = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&markers)
            .expect("the markers are a few short literals");
        let gate = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostFirst)
            .build(&markers)
            .expect("the markers are a few short literals");
        Markers {
            scanner,
            gate,
            markers,
        }
    });

    /// The markers a text holds, one bit each.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) struct Found(u64);

    impl Found {
        pub(super) fn in_text(text: &str) -> Found {
            let Markers { scanner, gate, .. } = &*MARKERS;
            // Most pages hold no marker. The gate finds that in a copy of the
            // text lower-cased (ASCII only) ~15x faster than the scan below:
            // 1.3 against 20 µs for a 10 KB page, warm.
            if !gate.is_match(&text.to_ascii_lowercase()) {
                return Found(0);
            }
            let mut found = 0u64;
            // Overlapping: markers that share bytes (`type=password` and
            // `type='password'` start alike) are each found.
            for m in scanner.find_overlapping_iter(text) {
                found |= 1 << m.pattern().as_usize();
            }
            Found(found)
        }
    }

    impl super::Body for Found {
        fn has(&self, marker: &str) -> bool {
            let markers = &MARKERS.markers;
            let index = markers.iter().position(|m| *m == marker);
            debug_assert!(index.is_some(), "`{marker}` is not in the scanned markers");
            index.is_some_and(|i| self.0 & (1 << i) != 0)
        }
    }
}

/// Whether the text, after leading white space, opens with `<!doctype html`
/// (any case).
fn starts_with_doctype(text: &str) -> bool {
    const DOCTYPE: &[u8] = b"<!doctype html";
    text.trim_start()
        .as_bytes()
        .get(..DOCTYPE.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(DOCTYPE))
}

/// A challenge/CAPTCHA marker and whether it is conclusive on its own (a
/// weak marker on a 2xx page counts only when the page is small: sites embed
/// reCAPTCHA in comment forms).
fn challenge_marker(h: &HeaderMap, body: &impl Body) -> Option<(&'static str, bool)> {
    if header(h, "cf-mitigated").eq_ignore_ascii_case("challenge") {
        return Some(("cf-mitigated: challenge", true));
    }
    STRONG
        .iter()
        .find(|(m, _)| body.has(m))
        .map(|(_, n)| (*n, true))
        .or_else(|| {
            WEAK.iter()
                .find(|(m, _)| body.has(m))
                .map(|(_, n)| (*n, false))
        })
}

/// The CDN/WAF a 403 came from, by its headers and body.
fn cdn_marker(h: &HeaderMap, body: &impl Body) -> Option<&'static str> {
    let server = header(h, "server").to_ascii_lowercase();
    let via = header(h, "via").to_ascii_lowercase();
    let x_cache = header(h, "x-cache").to_ascii_lowercase();
    if body.has("error code: 1020") || body.has("error 1020") {
        return Some("Cloudflare firewall rule (error 1020)");
    }
    if server.contains("cloudflare") || h.contains_key("cf-ray") || body.has("cloudflare ray id") {
        return Some("Cloudflare");
    }
    if h.contains_key("x-amz-cf-id")
        || via.contains("cloudfront")
        || x_cache.contains("cloudfront")
        || body.has("generated by cloudfront")
    {
        return Some("Amazon CloudFront");
    }
    if server.contains("akamai")
        || h.contains_key("akamai-grn")
        || h.keys().any(|k| k.as_str().starts_with("x-akamai"))
        || (body.has("access denied") && body.has("reference&#32;#"))
        || body.has("errors.edgesuite.net")
    {
        return Some("Akamai");
    }
    if h.contains_key("x-fastly-request-id")
        || header(h, "x-served-by").contains("cache-")
        || server.contains("fastly")
        || body.has("fastly error")
    {
        return Some("Fastly");
    }
    if h.contains_key("x-sucuri-id")
        || server.contains("sucuri")
        || body.has("sucuri website firewall")
    {
        return Some("Sucuri");
    }
    if h.contains_key("x-iinfo")
        || body.has("incapsula incident id")
        || header(h, "x-cdn")
            .to_ascii_lowercase()
            .contains("incapsula")
    {
        return Some("Imperva Incapsula");
    }
    if server.contains("ddos-guard") {
        return Some("DDoS-Guard");
    }
    if h.contains_key("x-azure-ref") {
        return Some("Azure Front Door");
    }
    None
}

/// A password input in the (lower-cased) HTML.
fn has_password_form(body: &impl Body) -> bool {
    PASSWORD.iter().any(|m| body.has(m))
}

/// Whether a URL looks like a sign-in page (a redirect there is a login
/// wall): a path segment, without its extension, is a sign-in word
/// (`/login`, `/users/sign_in`, `/wp-login.php`, `/ServiceLogin`, …).
pub fn is_login_url(url: &Url) -> bool {
    url.path_segments().is_some_and(|mut segs| {
        segs.any(|s| {
            let s = s.to_ascii_lowercase();
            let stem = s.split('.').next().unwrap_or("");
            matches!(
                stem,
                "login"
                    | "signin"
                    | "sign-in"
                    | "sign_in"
                    | "log-in"
                    | "log_in"
                    | "logon"
                    | "sso"
                    | "authenticate"
                    | "servicelogin"
                    | "wp-login"
                    | "auth-login"
                    | "userlogin"
            )
        })
    })
}

/// `Retry-After` as a duration: delta-seconds or an HTTP date (relative to
/// `now`, a Unix timestamp in seconds). Capped at one day.
pub fn retry_after(h: &HeaderMap, now_unix: i64) -> Option<Duration> {
    let v = header(h, "retry-after").trim();
    if v.is_empty() {
        return None;
    }
    const DAY: u64 = 86_400;
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs.min(DAY)));
    }
    let when = jiff::fmt::rfc2822::parse(v).ok()?.timestamp().as_second();
    let delta = when.saturating_sub(now_unix).clamp(0, DAY as i64);
    Some(Duration::from_secs(delta as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn hm(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    fn run(
        status: u16,
        headers: &[(&'static str, &'static str)],
        body: &str,
        kind: FetchKind,
    ) -> Option<FailureCode> {
        let h = hm(headers);
        diagnose(&Observation {
            status,
            headers: &h,
            content_type: "text/html",
            text: Some(body),
            kind,
        })
        .map(|d| d.code)
    }

    fn page(
        status: u16,
        headers: &[(&'static str, &'static str)],
        body: &str,
    ) -> Option<FailureCode> {
        run(status, headers, body, FetchKind::Page)
    }

    const ARTICLE: &str = "<html><head><title>Rates</title></head><body><main><h1>Interest rates</h1><p>The central bank raised its policy rate to 4.5 percent on Thursday, the third increase this year, citing persistent inflation in services and wages.</p><p>Analysts had expected the move.</p></main></body></html>";

    #[test]
    fn ok_page_is_none() {
        assert_eq!(page(200, &[], ARTICLE), None);
        assert_eq!(page(304, &[], ""), None);
    }

    #[test]
    fn challenge_before_status() {
        let cf = "<html><head><title>Just a moment...</title></head><body><script src=\"/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1\"></script></body></html>";
        assert_eq!(
            page(403, &[("server", "cloudflare")], cf),
            Some(FailureCode::SearchProviderCaptcha)
        );
        assert_eq!(page(503, &[], cf), Some(FailureCode::SearchProviderCaptcha));
        assert_eq!(page(200, &[], cf), Some(FailureCode::SearchProviderCaptcha));
        assert_eq!(
            page(403, &[("cf-mitigated", "challenge")], "<html></html>"),
            Some(FailureCode::SearchProviderCaptcha)
        );
        let recaptcha = "<html><body><form><div class=\"g-recaptcha\" data-sitekey=\"x\"></div></form></body></html>";
        assert_eq!(
            page(200, &[], recaptcha),
            Some(FailureCode::SearchProviderCaptcha)
        );
        let hcaptcha = "<html><body><div class=\"h-captcha\"></div><script src=\"https://js.hcaptcha.com/1/api.js\"></script></body></html>";
        assert_eq!(
            page(429, &[], hcaptcha),
            Some(FailureCode::SearchProviderCaptcha)
        );
        let turnstile = "<html><body><div class=\"cf-turnstile\"></div></body></html>";
        assert_eq!(
            page(200, &[], turnstile),
            Some(FailureCode::SearchProviderCaptcha)
        );
    }

    #[test]
    fn weak_captcha_marker_on_a_long_article_is_content() {
        let long = format!(
            "<html><body><main>{}</main><form><div class=\"g-recaptcha\"></div></form></body></html>",
            "<p>Real paragraph text about a subject, long enough to be the main content.</p>"
                .repeat(60)
        );
        assert_eq!(page(200, &[], &long), None);
    }

    #[test]
    fn cdn_blocks() {
        assert_eq!(
            page(
                403,
                &[("server", "cloudflare"), ("cf-ray", "8a-AMS")],
                "<html>error code: 1020</html>"
            ),
            Some(FailureCode::SourceBlockedByCdn)
        );
        assert_eq!(
            page(
                403,
                &[("x-amz-cf-id", "abc")],
                "<h1>403 ERROR</h1>The request could not be satisfied."
            ),
            Some(FailureCode::SourceBlockedByCdn)
        );
        assert_eq!(
            page(
                403,
                &[("server", "AkamaiGHost")],
                "<html>Access Denied</html>"
            ),
            Some(FailureCode::SourceBlockedByCdn)
        );
        assert_eq!(
            page(403, &[("x-served-by", "cache-fra-123")], ""),
            Some(FailureCode::SourceBlockedByCdn)
        );
        // Plain 403: documented choice, the seed's mapping.
        let h = hm(&[]);
        let dg = diagnose(&Observation {
            status: 403,
            headers: &h,
            content_type: "text/html",
            text: Some("Forbidden"),
            kind: FetchKind::Page,
        })
        .unwrap();
        assert_eq!(dg.code, FailureCode::SourceBlockedByCdn);
        assert!(dg.reason.contains("without CDN markers"));
        let h = hm(&[("server", "cloudflare")]);
        let dg = diagnose(&Observation {
            status: 403,
            headers: &h,
            content_type: "text/html",
            text: Some("error code: 1020"),
            kind: FetchKind::Page,
        })
        .unwrap();
        assert!(dg.reason.contains("1020"), "{}", dg.reason);
    }

    #[test]
    fn status_rules() {
        assert_eq!(
            page(404, &[], "nope"),
            Some(FailureCode::Source404OrRemoved)
        );
        assert_eq!(page(410, &[], ""), Some(FailureCode::Source404OrRemoved));
        assert_eq!(
            page(401, &[("www-authenticate", "Basic")], ""),
            Some(FailureCode::SourceLoginRequired)
        );
        assert_eq!(
            page(429, &[("retry-after", "5")], ""),
            Some(FailureCode::SearchProviderRateLimited)
        );
        assert_eq!(
            page(503, &[], "down"),
            Some(FailureCode::SearchProviderRateLimited)
        );
        assert_eq!(page(500, &[], ""), Some(FailureCode::SourceServerError));
        assert_eq!(page(502, &[], ""), Some(FailureCode::SourceServerError));
        assert_eq!(page(408, &[], ""), Some(FailureCode::SearchProviderTimeout));
        assert_eq!(
            page(400, &[], ""),
            Some(FailureCode::SourceExtractionFailed)
        );
        assert_eq!(
            run(400, &[], "", FetchKind::Api),
            Some(FailureCode::SearchProviderMisconfigured)
        );
    }

    #[test]
    fn login_walls_and_js_shells() {
        let login = "<html><body><h1>Sign in</h1><form action=/session><input name=user><input type=\"password\" name=pw><button>Log in</button></form></body></html>";
        assert_eq!(
            page(200, &[], login),
            Some(FailureCode::SourceLoginRequired)
        );
        assert_eq!(
            page(403, &[], login),
            Some(FailureCode::SourceLoginRequired)
        );
        let shell = "<!doctype html><html><head><script src=/app.js></script></head><body><div id=\"root\"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>";
        assert_eq!(
            page(200, &[], shell),
            Some(FailureCode::SourceDynamicPageUnreadable)
        );
        // APIs are not judged by page rules.
        assert_eq!(run(200, &[], shell, FetchKind::Api), None);
    }

    #[test]
    fn login_urls() {
        for u in [
            "https://a.test/login?next=/x",
            "https://a.test/accounts/ServiceLogin",
            "https://a.test/users/sign_in",
            "https://a.test/auth/signin",
        ] {
            assert!(is_login_url(&Url::parse(u).unwrap()), "{u}");
        }
        for u in [
            "https://a.test/to-login",
            "https://a.test/blog/login-tips",
            "https://a.test/blog/logging-tips",
            "https://a.test/news/2024/x",
        ] {
            assert!(!is_login_url(&Url::parse(u).unwrap()), "{u}");
        }
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(
            retry_after(&hm(&[("retry-after", "7")]), 0),
            Some(Duration::from_secs(7))
        );
        let now = jiff::fmt::rfc2822::parse("Sun, 06 Nov 1994 08:49:00 GMT")
            .unwrap()
            .timestamp()
            .as_second();
        assert_eq!(
            retry_after(
                &hm(&[("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT")]),
                now
            ),
            Some(Duration::from_secs(37))
        );
        assert_eq!(retry_after(&hm(&[("retry-after", "soon")]), 0), None);
        assert_eq!(retry_after(&hm(&[]), 0), None);
    }

    #[test]
    fn arbitrary_text_does_not_panic() {
        let h = hm(&[]);
        for body in ["", "\u{0}\u{fffd}", "<", "é".repeat(200_000).as_str()] {
            for status in [0u16, 100, 200, 302, 403, 999] {
                let _ = diagnose(&Observation {
                    status,
                    headers: &h,
                    content_type: "text/html",
                    text: Some(body),
                    kind: FetchKind::Page,
                });
            }
        }
    }

    /// The definition the scan replaces: the lower-cased scanned text,
    /// searched once per marker.
    struct Lowered(String);

    impl Body for Lowered {
        fn has(&self, marker: &str) -> bool {
            self.0.contains(marker)
        }
    }

    #[test]
    fn markers_are_lower_case_and_distinct() {
        let all: Vec<&str> = markers::all().collect();
        for m in &all {
            assert_eq!(*m, m.to_ascii_lowercase(), "`{m}` is not lower case");
            assert!(!m.is_empty());
        }
        let mut unique = all.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), all.len(), "a marker is listed twice");
    }

    /// A marker in a random mix of cases.
    fn mixed_case(m: &str, flips: u64) -> String {
        m.chars()
            .enumerate()
            .map(|(i, c)| {
                if flips >> (i % 64) & 1 == 1 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn the_scan_finds_what_the_lower_cased_text_contains(
            pieces in proptest::collection::vec(
                (0..markers::all().count() + 6, proptest::num::u64::ANY),
                0..16,
            ),
        ) {
            let all: Vec<&str> = markers::all().collect();
            let filler = ["x", " ", "\n", "é", "<", "K"];
            let text: String = pieces
                .iter()
                .map(|&(i, flips)| match all.get(i) {
                    // Markers cut short as well as whole ones.
                    Some(m) if flips % 5 == 0 => mixed_case(&m[..m.len() / 2], flips),
                    Some(m) => mixed_case(m, flips),
                    None => filler[i - all.len()].to_string(),
                })
                .collect();
            let found = markers::Found::in_text(&text);
            let lowered = Lowered(text.to_ascii_lowercase());
            for m in &all {
                proptest::prop_assert_eq!(found.has(m), lowered.has(m), "{} in {:?}", m, text);
            }
            // And so the diagnosis is the definition's, for every status rule.
            let h = hm(&[]);
            for status in [200u16, 403, 503] {
                let o = Observation {
                    status,
                    headers: &h,
                    content_type: "text/html",
                    text: Some(&text),
                    kind: FetchKind::Page,
                };
                proptest::prop_assert_eq!(diagnose(&o), diagnose_with(&o, &text, &lowered, ShellCheck::Here));
            }
        }
    }

    proptest::proptest! {
        /// Leaving the shell check to the caller, then making it there,
        /// classifies every response as [`diagnose`] does.
        #[test]
        fn the_shell_check_left_to_the_caller_gives_the_same_diagnosis(
            pieces in proptest::collection::vec(
                "(<!doctype html>|<script src=a.js></script>|<div id=root></div>|<noscript>Enable JavaScript</noscript>|<p>word word</p>|<input type=password>|g-recaptcha|<body>| |x)",
                0..30,
            ),
            repeat in 1usize..30,
            status in proptest::sample::select(vec![200u16, 204, 304, 403, 404, 503]),
            content_type in proptest::sample::select(vec!["text/html", "text/plain", "application/json", ""]),
            api in proptest::bool::ANY,
            no_body in proptest::bool::ANY,
        ) {
            let text = pieces.concat().repeat(repeat);
            let h = hm(&[]);
            let o = Observation {
                status,
                headers: &h,
                content_type,
                text: (!no_body).then_some(text.as_str()),
                kind: if api { FetchKind::Api } else { FetchKind::Page },
            };
            let by_caller = match diagnose_leaving_shell_check(&o) {
                Err(dg) => Some(dg.code),
                Ok(true) if sgw_extract::looks_like_js_shell(&text) => {
                    Some(FailureCode::SourceDynamicPageUnreadable)
                }
                Ok(_) => None,
            };
            proptest::prop_assert_eq!(diagnose(&o).map(|dg| dg.code), by_caller);
        }
    }

    #[test]
    fn markers_past_the_scanned_prefix_are_not_read() {
        let text = format!("{}g-recaptcha", "a".repeat(SCAN));
        assert_eq!(scanned(Some(&text)).len(), SCAN);
        assert_eq!(page(200, &[], &text), None);
        assert!(!markers::Found::in_text(scanned(Some(&text))).has("g-recaptcha"));
    }
}
