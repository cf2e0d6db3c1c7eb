//! Brave Search API (`/res/v1/web/search?q=…`) responses.

use crate::response::Response;

/// One Brave web result.
#[derive(Debug, Clone)]
pub struct BraveResult {
    /// Title.
    pub title: String,
    /// URL.
    pub url: String,
    /// Snippet (may contain `<strong>` highlighting, as Brave's does).
    pub description: String,
    /// `page_age` (e.g. `2024-01-15T09:00:00`), if known.
    pub page_age: Option<String>,
}

impl BraveResult {
    /// A result without `page_age`.
    pub fn new(title: &str, url: &str, description: &str) -> Self {
        Self {
            title: title.to_owned(),
            url: url.to_owned(),
            description: description.to_owned(),
            page_age: None,
        }
    }

    /// Set `page_age`.
    #[must_use]
    pub fn page_age(mut self, age: &str) -> Self {
        self.page_age = Some(age.to_owned());
        self
    }
}

/// The JSON value of a Brave web search answer.
pub fn value(query: &str, results: &[BraveResult]) -> serde_json::Value {
    let web: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            let u = url::Url::parse(&r.url).ok();
            let host = u
                .as_ref()
                .and_then(|u| u.host_str().map(str::to_owned))
                .unwrap_or_default();
            let mut v = serde_json::json!({
                "type": "search_result",
                "title": r.title,
                "url": r.url,
                "is_source_local": false,
                "is_source_both": false,
                "description": r.description,
                "profile": {"name": host, "url": r.url, "long_name": host},
                "language": "en",
                "family_friendly": true,
                "meta_url": {
                    "scheme": u.as_ref().map(|u| u.scheme().to_owned()).unwrap_or_default(),
                    "netloc": host,
                    "hostname": host,
                    "path": u.as_ref().map(|u| u.path().to_owned()).unwrap_or_default(),
                },
            });
            if let Some(a) = &r.page_age {
                v["page_age"] = serde_json::Value::String(a.clone());
            }
            v
        })
        .collect();
    serde_json::json!({
        "type": "search",
        "query": {"original": query, "show_strict_warning": false, "is_navigational": false, "spellcheck_off": true, "country": "us", "more_results_available": false},
        "mixed": {"type": "mixed", "main": (0..results.len()).map(|i| serde_json::json!({"type": "web", "index": i, "all": false})).collect::<Vec<_>>(), "top": [], "side": []},
        "web": {"type": "search", "results": web, "family_friendly": true},
    })
}

/// 200 `application/json` Brave answer.
pub fn results(query: &str, results: &[BraveResult]) -> Response {
    Response::json(&value(query, results))
}

/// 422 as Brave answers a request without a valid subscription token.
pub fn invalid_token() -> Response {
    Response::json(&serde_json::json!({
        "type": "ErrorResponse",
        "error": {"id": "c2f1e0d4-0000-4000-8000-000000000000", "status": 422, "code": "SUBSCRIPTION_TOKEN_INVALID", "detail": "The provided subscription token is invalid.", "meta": {"component": "authentication"}},
        "time": 1704067200
    }))
    .status(422)
}
