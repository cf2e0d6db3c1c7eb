//! Parsers of search-engine answers into [`Hit`]s: SearXNG's JSON API, the
//! Brave Search API, and a generic JSON answer described by JSON pointers.
//!
//! Every parser takes the raw body text, never panics, keeps at most
//! [`MAX_HITS`] hits, and names the field at fault in its error.

use crate::text::plain;
use serde_json::Value;
use sgw_contract::FailureCode;
/// Checks one JSON pointer's syntax (`""` or `/a/b~1c`).
pub use sgw_provider_common::check_json_pointer as check_pointer;
use sgw_provider_common::json_kind;
use url::Url;

/// Hits kept from one answer at most (the rest are ignored).
pub const MAX_HITS: usize = 100;

/// One search result, cleaned.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The result URL (http or https only).
    pub url: Url,
    /// Plain-text title (may be empty).
    pub title: String,
    /// Plain-text snippet (may be empty).
    pub snippet: String,
    /// The engine that found it (SearXNG only).
    pub engine: Option<String>,
    /// Publication date normalized to RFC 3339 or `YYYY-MM-DD`, when given and readable.
    pub published_at: Option<String>,
    /// 0-based position in the engine's answer.
    pub position: usize,
}

/// An engine answer could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The body is not JSON.
    #[error("the answer is not JSON: {0}")]
    NotJson(String),
    /// The JSON does not have the expected shape.
    #[error("`{field}`: {message}")]
    Shape { field: String, message: String },
}

/// What a SearXNG answer said.
#[derive(Debug, Clone, PartialEq)]
pub struct SearxAnswer {
    pub hits: Vec<Hit>,
    /// `unresponsive_engines` as (engine, reason).
    pub unresponsive: Vec<(String, String)>,
    /// Results dropped because their URL was missing or not http(s).
    pub skipped: usize,
}

fn parse_json(body: &str) -> Result<Value, ParseError> {
    serde_json::from_str(body).map_err(|e| {
        let head: String = body.trim_start().chars().take(60).collect();
        ParseError::NotJson(format!("{e} (answer starts with {head:?})"))
    })
}

fn shape(field: &str, message: impl Into<String>) -> ParseError {
    ParseError::Shape {
        field: field.to_string(),
        message: message.into(),
    }
}

/// A string field as plain text; numbers are accepted too, anything else is empty.
fn text_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => plain(s),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

/// An absolute http(s) URL, or `None`.
pub fn web_url(raw: &str) -> Option<Url> {
    let url = Url::parse(raw.trim()).ok()?;
    (matches!(url.scheme(), "http" | "https") && url.host_str().is_some()).then_some(url)
}

fn date_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => sgw_extract::normalize_date(s),
        _ => None,
    }
}

/// Builds a hit; `None` when the URL is unusable or there is no text at all.
fn hit(
    url: Option<&Value>,
    title: Option<&Value>,
    snippet: Option<&Value>,
    published: Option<String>,
    engine: Option<String>,
    position: usize,
) -> Option<Hit> {
    let url = web_url(url?.as_str()?)?;
    let title = text_of(title);
    let snippet = text_of(snippet);
    Some(Hit {
        url,
        title,
        snippet,
        engine,
        published_at: published,
        position,
    })
}

/// Parses SearXNG's `format=json` answer.
pub fn parse_searxng(body: &str) -> Result<SearxAnswer, ParseError> {
    let v = parse_json(body)?;
    let obj = v
        .as_object()
        .ok_or_else(|| shape("", "expected a JSON object"))?;
    let results = match obj.get("results") {
        Some(Value::Array(a)) => a.as_slice(),
        Some(Value::Null) | None => &[],
        Some(_) => return Err(shape("results", "expected an array")),
    };
    let mut hits = Vec::new();
    let mut skipped = 0;
    for (i, r) in results.iter().enumerate() {
        if hits.len() >= MAX_HITS {
            break;
        }
        let made = hit(
            r.get("url"),
            r.get("title"),
            r.get("content"),
            date_of(r.get("publishedDate")),
            r.get("engine").and_then(Value::as_str).map(str::to_string),
            i,
        );
        match made {
            Some(h) => hits.push(h),
            None => skipped += 1,
        }
    }
    let unresponsive = match obj.get("unresponsive_engines") {
        Some(Value::Array(a)) => a
            .iter()
            .take(MAX_HITS)
            .filter_map(|pair| match pair {
                Value::Array(p) => Some((text_of(p.first()), text_of(p.get(1)))),
                Value::String(s) => Some((plain(s), String::new())),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(SearxAnswer {
        hits,
        unresponsive,
        skipped,
    })
}

/// The failure an `unresponsive_engines` reason names, when it is one a
/// provider-level error should carry. SearXNG spells them `CAPTCHA`,
/// `too many requests`, `timeout`, `access denied`, `HTTP error`,
/// `network error`, `SSL error`, `parsing error`, `unexpected crash`,
/// `Suspended: …`.
pub fn reason_code(reason: &str) -> FailureCode {
    let r = reason.to_ascii_lowercase();
    if r.contains("captcha") || r.contains("challenge") {
        FailureCode::SearchProviderCaptcha
    } else if r.contains("too many requests") || r.contains("rate limit") || r.contains("429") {
        FailureCode::SearchProviderRateLimited
    } else if r.contains("timeout") || r.contains("timed out") {
        FailureCode::SearchProviderTimeout
    } else if r.contains("access denied") || r.contains("forbidden") || r.contains("403") {
        FailureCode::SourceBlockedByCdn
    } else if r.contains("network") || r.contains("ssl") || r.contains("connect") {
        FailureCode::SourceUnreachable
    } else {
        FailureCode::SourceServerError
    }
}

/// The one code that describes a set of unresponsive engines: the most
/// lasting condition wins (CAPTCHA, then rate limit, then blocked, then
/// timeout, then the rest), so suspension is long enough for all of them.
pub fn unresponsive_code(engines: &[(String, String)]) -> Option<FailureCode> {
    const ORDER: [FailureCode; 6] = [
        FailureCode::SearchProviderCaptcha,
        FailureCode::SearchProviderRateLimited,
        FailureCode::SourceBlockedByCdn,
        FailureCode::SearchProviderTimeout,
        FailureCode::SourceUnreachable,
        FailureCode::SourceServerError,
    ];
    let codes: Vec<FailureCode> = engines.iter().map(|(_, r)| reason_code(r)).collect();
    ORDER.into_iter().find(|c| codes.contains(c))
}

/// Parses a Brave Search API web answer (`web.results[]`).
pub fn parse_brave(body: &str) -> Result<Vec<Hit>, ParseError> {
    let v = parse_json(body)?;
    if !v.is_object() {
        return Err(shape("", "expected a JSON object"));
    }
    let results = match v.pointer("/web/results") {
        Some(Value::Array(a)) => a.as_slice(),
        // Brave leaves `web` out when nothing was found.
        None | Some(Value::Null) => &[],
        Some(_) => return Err(shape("web.results", "expected an array")),
    };
    Ok(results
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let published = date_of(r.get("page_age")).or_else(|| date_of(r.get("age")));
            hit(
                r.get("url"),
                r.get("title"),
                r.get("description"),
                published,
                None,
                i,
            )
        })
        .take(MAX_HITS)
        .collect())
}

/// Where a generic JSON answer keeps its results (JSON pointers, RFC 6901).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pointers {
    /// The array of items, from the document root (`""` = the root itself).
    pub items: String,
    /// From each item.
    pub url: String,
    pub title: Option<String>,
    pub snippet: Option<String>,
    pub date: Option<String>,
}

/// Parses a generic JSON answer with `pointers`.
pub fn parse_pointers(body: &str, pointers: &Pointers) -> Result<Vec<Hit>, ParseError> {
    let v = parse_json(body)?;
    let items = match v.pointer(&pointers.items) {
        Some(Value::Array(a)) => a.as_slice(),
        Some(other) => {
            return Err(shape(
                &pointers.items,
                format!("expected an array of results, found {}", json_kind(other)),
            ));
        }
        None => {
            return Err(shape(
                &pointers.items,
                "not found in the answer (check the `items` pointer)",
            ));
        }
    };
    let get =
        |item: &Value, p: &Option<String>| p.as_deref().and_then(|p| item.pointer(p)).cloned();
    Ok(items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let title = get(item, &pointers.title);
            let snippet = get(item, &pointers.snippet);
            let date = get(item, &pointers.date);
            hit(
                item.pointer(&pointers.url),
                title.as_ref(),
                snippet.as_ref(),
                date_of(date.as_ref()),
                None,
                i,
            )
        })
        .take(MAX_HITS)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searxng_results_and_unresponsive() {
        let body = r#"{"query":"q","results":[
            {"url":"https://a.test/x","title":"A <b>x</b>","content":"snip &amp; more","engine":"bing","publishedDate":"2024-01-15T00:00:00"},
            {"url":"javascript:alert(1)","title":"bad"},
            {"title":"no url"},
            {"url":"http://b.test/","title":"B"}],
            "unresponsive_engines":[["google","CAPTCHA"],["qwant","timeout"]]}"#;
        let a = parse_searxng(body).unwrap();
        assert_eq!(a.hits.len(), 2);
        assert_eq!(a.skipped, 2);
        assert_eq!(a.hits[0].title, "A x");
        assert_eq!(a.hits[0].snippet, "snip & more");
        assert_eq!(a.hits[0].engine.as_deref(), Some("bing"));
        assert_eq!(
            a.hits[0].published_at.as_deref(),
            Some("2024-01-15T00:00:00Z")
        );
        assert_eq!(a.hits[1].position, 3);
        assert_eq!(a.unresponsive.len(), 2);
        assert_eq!(
            unresponsive_code(&a.unresponsive),
            Some(FailureCode::SearchProviderCaptcha)
        );
    }

    #[test]
    fn reasons_map_to_codes() {
        let one = |r: &str| unresponsive_code(&[("e".into(), r.into())]).unwrap();
        assert_eq!(
            one("too many requests"),
            FailureCode::SearchProviderRateLimited
        );
        assert_eq!(one("timeout"), FailureCode::SearchProviderTimeout);
        assert_eq!(one("access denied"), FailureCode::SourceBlockedByCdn);
        assert_eq!(one("SSL error"), FailureCode::SourceUnreachable);
        assert_eq!(one("unexpected crash"), FailureCode::SourceServerError);
        assert_eq!(unresponsive_code(&[]), None);
        let mixed = [
            ("a".into(), "timeout".into()),
            ("b".into(), "too many requests".into()),
        ];
        assert_eq!(
            unresponsive_code(&mixed),
            Some(FailureCode::SearchProviderRateLimited)
        );
    }

    #[test]
    fn brave_results() {
        let body = r#"{"type":"search","web":{"results":[
            {"title":"T","url":"https://x.test/p","description":"the <strong>rate</strong>","page_age":"2024-01-15T09:00:00"},
            {"title":"U","url":"https://y.test/","description":"d","age":"January 3, 2024"}]}}"#;
        let hits = parse_brave(body).unwrap();
        assert_eq!(hits.len(), 2);
        assert_eq!(hits[0].snippet, "the rate");
        assert_eq!(
            hits[0].published_at.as_deref(),
            Some("2024-01-15T09:00:00Z")
        );
        assert_eq!(hits[1].published_at.as_deref(), Some("2024-01-03"));
        assert!(parse_brave(r#"{"type":"search"}"#).unwrap().is_empty());
        assert!(matches!(
            parse_brave(r#"{"web":{"results":3}}"#),
            Err(ParseError::Shape { .. })
        ));
        assert!(matches!(parse_brave("<html>"), Err(ParseError::NotJson(_))));
    }

    #[test]
    fn pointers_results_and_errors() {
        let p = Pointers {
            items: "/data/hits".into(),
            url: "/link".into(),
            title: Some("/name".into()),
            snippet: Some("/summary/text".into()),
            date: Some("/when".into()),
        };
        let body = r#"{"data":{"hits":[{"link":"https://z.test/1","name":"Z","summary":{"text":"s"},"when":"2023-05-06"},{"link":42}]}}"#;
        let hits = parse_pointers(body, &p).unwrap();
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].snippet, "s");
        assert_eq!(hits[0].published_at.as_deref(), Some("2023-05-06"));
        let e = parse_pointers(r#"{"data":{}}"#, &p).unwrap_err();
        assert!(e.to_string().contains("/data/hits"), "{e}");
        let e = parse_pointers(r#"{"data":{"hits":{}}}"#, &p).unwrap_err();
        assert!(e.to_string().contains("an object"), "{e}");
        assert!(check_pointer("a/b").is_err());
        assert!(check_pointer("/a~2").is_err());
        assert!(check_pointer("/a~1b").is_ok());
        assert!(check_pointer("").is_ok());
    }

    #[test]
    fn parsers_survive_arbitrary_bytes() {
        let p = Pointers {
            items: "".into(),
            url: "/u".into(),
            title: None,
            snippet: None,
            date: None,
        };
        let deep = "[".repeat(10_000);
        for body in [
            "",
            "null",
            "[]",
            "{}",
            "\u{0}",
            "{\"results\":null}",
            deep.as_str(),
            "{\"web\":[]}",
        ] {
            let _ = parse_searxng(body);
            let _ = parse_brave(body);
            let _ = parse_pointers(body, &p);
        }
    }
}
