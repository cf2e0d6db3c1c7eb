//! The `config:` blocks of the three kinds. Unknown keys are refused; values
//! serde cannot check are checked by `validate`, naming the key at fault.

use crate::hits::{Pointers, check_pointer, web_url};
use serde::Deserialize;
use sgw_contract::FactoryError;
use std::collections::BTreeMap;
use url::Url;

/// The default Brave Search API endpoint.
pub const BRAVE_ENDPOINT: &str = "https://api.search.brave.com/res/v1/web/search";

fn default_read_top() -> usize {
    3
}

fn default_max_results() -> usize {
    10
}

fn default_brave_key_env() -> String {
    "BRAVE_SEARCH_API_KEY".to_string()
}

fn default_brave_endpoint() -> String {
    BRAVE_ENDPOINT.to_string()
}

fn check_url(field: &str, raw: &str) -> Result<Url, FactoryError> {
    web_url(raw).ok_or_else(|| {
        FactoryError::config_field(field, format!("`{raw}` is not an absolute http(s) URL"))
    })
}

fn check_read(read_top: usize, max_results: usize) -> Result<(), FactoryError> {
    if max_results == 0 || max_results > crate::hits::MAX_HITS {
        return Err(FactoryError::config_field(
            "max_results",
            format!("must be between 1 and {}", crate::hits::MAX_HITS),
        ));
    }
    if read_top > max_results {
        return Err(FactoryError::config_field(
            "read_top",
            format!("must be ≤ max_results ({max_results})"),
        ));
    }
    Ok(())
}

/// `kind: searxng` — a SearXNG instance's JSON API
/// (`{base_url}/search?q=…&format=json`; JSON output must be enabled in the
/// instance's `settings.yml`, `search.formats`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearxngConfig {
    /// The instance's base URL (`https://searx.example.org`); `/search` is appended.
    pub base_url: String,
    /// SearXNG categories to search (`general`, `news`, `science`, …); the instance default when empty.
    #[serde(default)]
    pub categories: Vec<String>,
    /// Search language (`en`, `fr-FR`, `all`); the instance default when absent.
    #[serde(default)]
    pub language: Option<String>,
    /// Engines to use (`google`, `bing`, `duckduckgo`, …); the instance default when empty.
    #[serde(default)]
    pub engines: Vec<String>,
    /// Hits kept as snippet leads at most (1–100, default 10).
    #[serde(default = "default_max_results")]
    pub max_results: usize,
    /// How many of the best hits are fetched and extracted (default 3; 0 = snippets only).
    #[serde(default = "default_read_top")]
    pub read_top: usize,
}

impl SearxngConfig {
    /// Checks the values and returns the search endpoint.
    pub fn validate(&self) -> Result<Url, FactoryError> {
        let mut base = check_url("base_url", &self.base_url)?;
        if base.query().is_some() || base.fragment().is_some() {
            return Err(FactoryError::config_field(
                "base_url",
                "must not have a query or fragment",
            ));
        }
        check_read(self.read_top, self.max_results)?;
        for (field, list) in [("categories", &self.categories), ("engines", &self.engines)] {
            if let Some(x) = list.iter().find(|x| x.trim().is_empty() || x.contains(',')) {
                return Err(FactoryError::config_field(
                    field,
                    format!("`{x}` is not a name (empty or contains `,`)"),
                ));
            }
        }
        if !base.path().ends_with('/') {
            let p = format!("{}/", base.path());
            base.set_path(&p);
        }
        base.join("search").map_err(|e| {
            FactoryError::config_field("base_url", format!("cannot append /search: {e}"))
        })
    }
}

/// `kind: brave` — the Brave Search API (web search).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BraveConfig {
    /// The API endpoint (default: Brave's web search endpoint).
    #[serde(default = "default_brave_endpoint")]
    pub endpoint: String,
    /// Name of the environment variable holding the subscription token (sent
    /// as `X-Subscription-Token`; default `BRAVE_SEARCH_API_KEY`). A missing
    /// variable fails the provider at run time with SEARCH_PROVIDER_MISCONFIGURED.
    #[serde(default = "default_brave_key_env")]
    pub api_key_env: String,
    /// Country code for results (`us`, `de`, …).
    #[serde(default)]
    pub country: Option<String>,
    /// Search language (`en`, `fr`, …).
    #[serde(default)]
    pub search_lang: Option<String>,
    /// Hits asked for and kept as snippet leads (1–20, Brave's maximum; default 10).
    #[serde(default = "default_max_results")]
    pub max_results: usize,
    /// How many of the best hits are fetched and extracted (default 3; 0 = snippets only).
    #[serde(default = "default_read_top")]
    pub read_top: usize,
}

impl BraveConfig {
    pub fn validate(&self) -> Result<Url, FactoryError> {
        let url = check_url("endpoint", &self.endpoint)?;
        if self.max_results > 20 {
            return Err(FactoryError::config_field(
                "max_results",
                "Brave returns at most 20 results per request",
            ));
        }
        check_read(self.read_top, self.max_results)?;
        check_env_name("api_key_env", &self.api_key_env)?;
        Ok(url)
    }
}

fn check_env_name(field: &str, name: &str) -> Result<(), FactoryError> {
    if name.is_empty() || name.contains(['=', '\0']) || name.chars().any(char::is_whitespace) {
        return Err(FactoryError::config_field(
            field,
            format!("`{name}` is not an environment variable name"),
        ));
    }
    Ok(())
}

/// A request header whose value comes from the environment.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvHeader {
    /// Header name (`Authorization`, `X-Api-Key`, …).
    pub name: String,
    /// Environment variable holding the secret.
    pub env: String,
    /// The header value with `{value}` replaced by the variable (default `{value}`;
    /// e.g. `Bearer {value}`).
    #[serde(default)]
    pub format: Option<String>,
}

/// `kind: json-search` — any search API answering JSON, described by a URL
/// template and JSON pointers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonSearchConfig {
    /// The search URL with `{query}` where the URL-encoded query goes
    /// (`https://search.example.org/api?q={query}&n=10`).
    pub url_template: String,
    /// JSON pointer (RFC 6901) to the array of results, from the root (`/results`; `""` = the root is the array).
    pub items: String,
    /// JSON pointer to the result URL, from each item (`/url`).
    pub url: String,
    /// JSON pointer to the title, from each item.
    #[serde(default)]
    pub title: Option<String>,
    /// JSON pointer to the snippet, from each item.
    #[serde(default)]
    pub snippet: Option<String>,
    /// JSON pointer to the publication date, from each item.
    #[serde(default)]
    pub date: Option<String>,
    /// Request headers whose values come from environment variables (API keys).
    /// A missing variable fails the provider at run time with SEARCH_PROVIDER_MISCONFIGURED.
    #[serde(default)]
    pub headers: Vec<EnvHeader>,
    /// Hits kept as snippet leads at most (1–100, default 10).
    #[serde(default = "default_max_results")]
    pub max_results: usize,
    /// How many of the best hits are fetched and extracted (default 3; 0 = snippets only).
    #[serde(default = "default_read_top")]
    pub read_top: usize,
}

impl JsonSearchConfig {
    pub fn validate(&self) -> Result<Pointers, FactoryError> {
        if !self.url_template.contains("{query}") {
            return Err(FactoryError::config_field(
                "url_template",
                "must contain `{query}`",
            ));
        }
        sgw_provider_common::expand_template(&self.url_template, "test")
            .map_err(|e| FactoryError::config_field("url_template", e.to_string()))?;
        check_read(self.read_top, self.max_results)?;
        check_pointer(&self.items)
            .map_err(|m| FactoryError::config_field("items", m.to_string()))?;
        check_pointer(&self.url).map_err(|m| FactoryError::config_field("url", m.to_string()))?;
        for (field, p) in [
            ("title", &self.title),
            ("snippet", &self.snippet),
            ("date", &self.date),
        ] {
            if let Some(p) = p {
                check_pointer(p).map_err(|m| FactoryError::config_field(field, m.to_string()))?;
            }
        }
        let mut seen = BTreeMap::new();
        for (i, h) in self.headers.iter().enumerate() {
            if http::HeaderName::from_bytes(h.name.as_bytes()).is_err() {
                return Err(FactoryError::config_field(
                    format!("headers[{i}].name"),
                    format!("`{}` is not a header name", h.name),
                ));
            }
            if seen.insert(h.name.to_ascii_lowercase(), i).is_some() {
                return Err(FactoryError::config_field(
                    format!("headers[{i}].name"),
                    format!("`{}` is given twice", h.name),
                ));
            }
            check_env_name(&format!("headers[{i}].env"), &h.env)?;
            if let Some(f) = &h.format
                && !f.contains("{value}")
            {
                return Err(FactoryError::config_field(
                    format!("headers[{i}].format"),
                    "must contain `{value}`",
                ));
            }
        }
        Ok(Pointers {
            items: self.items.clone(),
            url: self.url.clone(),
            title: self.title.clone(),
            snippet: self.snippet.clone(),
            date: self.date.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sgw_contract::parse_config as from_value;

    fn field_of(e: FactoryError) -> String {
        match e {
            FactoryError::Config { field, message } => {
                format!("{}: {message}", field.unwrap_or_default())
            }
            other => other.to_string(),
        }
    }

    #[test]
    fn searxng_config() {
        let c: SearxngConfig = from_value(&json!({"base_url": "https://searx.test/sub"})).unwrap();
        assert_eq!(
            c.validate().unwrap().as_str(),
            "https://searx.test/sub/search"
        );
        assert_eq!(c.read_top, 3);
        let e =
            from_value::<SearxngConfig>(&json!({"base_url": "x", "engine": ["a"]})).unwrap_err();
        assert!(field_of(e).contains("engine"));
        let c: SearxngConfig = from_value(&json!({"base_url": "ftp://x"})).unwrap();
        assert!(field_of(c.validate().unwrap_err()).starts_with("base_url"));
        let c: SearxngConfig =
            from_value(&json!({"base_url": "http://x", "read_top": 11})).unwrap();
        assert!(field_of(c.validate().unwrap_err()).starts_with("read_top"));
        let e = from_value::<SearxngConfig>(&json!({"base_url": "http://x", "read_top": "many"}))
            .unwrap_err();
        assert!(field_of(e).starts_with("read_top"));
    }

    #[test]
    fn brave_config_defaults() {
        let c: BraveConfig = from_value(&serde_json::Value::Null).unwrap();
        assert_eq!(c.validate().unwrap().as_str(), BRAVE_ENDPOINT);
        assert_eq!(c.api_key_env, "BRAVE_SEARCH_API_KEY");
        let c: BraveConfig = from_value(&json!({"max_results": 50})).unwrap();
        assert!(field_of(c.validate().unwrap_err()).starts_with("max_results"));
        let c: BraveConfig = from_value(&json!({"api_key_env": "A B"})).unwrap();
        assert!(field_of(c.validate().unwrap_err()).starts_with("api_key_env"));
    }

    #[test]
    fn json_search_config() {
        let base =
            json!({"url_template": "https://s.test/api?q={query}", "items": "/r", "url": "/u"});
        let c: JsonSearchConfig = from_value(&base).unwrap();
        c.validate().unwrap();
        let mut v = base.clone();
        v["url_template"] = json!("https://s.test/api");
        let c: JsonSearchConfig = from_value(&v).unwrap();
        assert!(field_of(c.validate().unwrap_err()).starts_with("url_template"));
        let mut v = base.clone();
        v["items"] = json!("results");
        let c: JsonSearchConfig = from_value(&v).unwrap();
        assert!(field_of(c.validate().unwrap_err()).starts_with("items"));
        let mut v = base.clone();
        v["headers"] = json!([{"name": "bad name", "env": "K"}]);
        let c: JsonSearchConfig = from_value(&v).unwrap();
        assert!(field_of(c.validate().unwrap_err()).starts_with("headers[0].name"));
        let mut v = base;
        v["headers"] = json!([{"name": "Authorization", "env": "K", "format": "Bearer"}]);
        let c: JsonSearchConfig = from_value(&v).unwrap();
        assert!(field_of(c.validate().unwrap_err()).starts_with("headers[0].format"));
    }
}
