//! SearXNG JSON API responses (`/search?q=…&format=json`), in the shape
//! SearXNG documents and really returns.

use crate::response::Response;

/// One SearXNG result.
#[derive(Debug, Clone)]
pub struct SearxResult {
    /// Result URL.
    pub url: String,
    /// Title.
    pub title: String,
    /// Snippet (`content`).
    pub content: String,
    /// Engine that found it (`google`, `bing`, `duckduckgo`, …).
    pub engine: String,
    /// `publishedDate` (e.g. `2024-01-15T00:00:00`), if the engine gave one.
    pub published_date: Option<String>,
}

impl SearxResult {
    /// A result without a date.
    pub fn new(url: &str, title: &str, content: &str, engine: &str) -> Self {
        Self {
            url: url.to_owned(),
            title: title.to_owned(),
            content: content.to_owned(),
            engine: engine.to_owned(),
            published_date: None,
        }
    }

    /// Set `publishedDate`.
    #[must_use]
    pub fn published(mut self, date: &str) -> Self {
        self.published_date = Some(date.to_owned());
        self
    }
}

/// The JSON value SearXNG returns for `query`, with `results` and
/// `unresponsive_engines` given as `(engine, reason)` pairs
/// (reasons as SearXNG spells them: `"CAPTCHA"`, `"timeout"`,
/// `"too many requests"`, `"access denied"`, …).
pub fn value(
    query: &str,
    results: &[SearxResult],
    unresponsive: &[(&str, &str)],
) -> serde_json::Value {
    let results: Vec<serde_json::Value> = results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let parsed = url::Url::parse(&r.url).ok();
            let parsed_url = match &parsed {
                Some(u) => serde_json::json!([
                    u.scheme(),
                    u.host_str().unwrap_or(""),
                    u.path(),
                    "",
                    u.query().unwrap_or(""),
                    u.fragment().unwrap_or("")
                ]),
                None => serde_json::json!(["", "", r.url, "", "", ""]),
            };
            let mut v = serde_json::json!({
                "url": r.url,
                "title": r.title,
                "content": r.content,
                "engine": r.engine,
                "parsed_url": parsed_url,
                "template": "default.html",
                "engines": [r.engine],
                "positions": [i + 1],
                "score": 1.0 / (i as f64 + 1.0),
                "category": "general",
            });
            if let Some(d) = &r.published_date {
                v["publishedDate"] = serde_json::Value::String(d.clone());
            }
            v
        })
        .collect();
    serde_json::json!({
        "query": query,
        "number_of_results": results.len(),
        "results": results,
        "answers": [],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [],
        "unresponsive_engines": unresponsive.iter().map(|(e, r)| serde_json::json!([e, r])).collect::<Vec<_>>(),
    })
}

/// 200 `application/json` with results and no unresponsive engines.
pub fn results(query: &str, results: &[SearxResult]) -> Response {
    Response::json(&value(query, results, &[]))
}

/// 200 with zero results because every engine failed, e.g.
/// `&[("google", "CAPTCHA"), ("bing", "timeout")]`.
pub fn unresponsive(query: &str, engines: &[(&str, &str)]) -> Response {
    Response::json(&value(query, &[], engines))
}
