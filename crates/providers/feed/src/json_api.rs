//! `json-api`: any JSON API described in config by a URL template and JSON pointers.

use serde::Deserialize;
use serde_json::Value;
use sgw_contract::{
    BuildContext, ChainStep, Evidence, FactoryError, FailureCode, Provider, ProviderCall,
    ProviderConfig, ProviderError, ProviderReport, SourceTier,
};
use sgw_provider_common::sgw_fetch::{FetchRequest, Fetcher};
use sgw_provider_common::{
    Candidate, attempt_empty, attempt_success, check_json_pointer, expand_template,
    is_time_sensitive, json_kind, provider_error, rank, require_at_least_one, source_for,
    text_passages,
};
use std::collections::BTreeMap;
use std::sync::Arc;
use url::Url;

/// `config:` of the `json-api` kind.
///
/// ```yaml
/// kind: json-api
/// config:
///   url: "https://api.example.org/v1/search?q={query}&limit=20"
///   items: /results
///   item: { title: /title, url: /links/html, text: /summary, date: /published }
///   tier: SPECIALIZED_DATABASE
///   publisher: Example Registry
/// ```
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonApiConfig {
    /// The request URL template; `{query}` (or `{searchTerms}`) becomes the
    /// URL-encoded query. Fetched as an API (`FetchRequest::api`: robots.txt
    /// is not consulted — configure only APIs meant for programs).
    pub url: String,
    /// JSON pointer (RFC 6901) to the array of items in the response; `""`
    /// (the default) means the response itself is the array.
    #[serde(default)]
    pub items: String,
    /// Pointers inside each item to its fields.
    #[serde(default)]
    pub item: ItemPointers,
    /// Tier hint of the evidence (`OFFICIAL_PRIMARY`, …, `SPECIALIZED_DATABASE`,
    /// `GENERAL_WEB`). Default: the tier of the planned source owning the item's URL.
    #[serde(default)]
    pub tier: Option<SourceTier>,
    /// Publisher of the evidence. Default: the planned source owning the item's URL.
    #[serde(default)]
    pub publisher: Option<String>,
    /// Literal request headers (`Accept-Version: 2`, …). Sent to the API's
    /// origin only. Do not put secrets here: use `secret_headers`.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Headers whose value comes from an environment variable (API keys),
    /// read at each run; a missing variable fails the provider with
    /// `SEARCH_PROVIDER_MISCONFIGURED` naming it.
    #[serde(default)]
    pub secret_headers: Vec<SecretHeader>,
    /// Items turned into evidence at most (default 5, at least 1; the
    /// request's `max_sources` caps it too).
    #[serde(default = "default_max_items")]
    pub max_items: usize,
}

/// A header whose value is read from the environment.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecretHeader {
    /// The header name (`Authorization`, `X-Api-Key`).
    pub name: String,
    /// The environment variable holding the secret.
    pub env: String,
    /// How the value is written, `{value}` standing for the secret (default
    /// `{value}`; e.g. `Bearer {value}`).
    #[serde(default = "default_format")]
    pub format: String,
}

fn default_format() -> String {
    "{value}".into()
}

/// Where an item's fields are, as JSON pointers relative to the item.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemPointers {
    /// The item's title (default `/title`).
    #[serde(default = "default_title")]
    pub title: String,
    /// The item's URL (default `/url`); relative URLs are resolved against
    /// the request URL. Items without one are skipped.
    #[serde(default = "default_url_pointer")]
    pub url: String,
    /// The item's text (default `/text`): a string, or an array of strings
    /// joined by blank lines. Items without text are skipped.
    #[serde(default = "default_text")]
    pub text: String,
    /// The item's date (optional; any common date format).
    #[serde(default)]
    pub date: Option<String>,
}

impl Default for ItemPointers {
    fn default() -> Self {
        ItemPointers {
            title: default_title(),
            url: default_url_pointer(),
            text: default_text(),
            date: None,
        }
    }
}

fn default_title() -> String {
    "/title".into()
}
fn default_url_pointer() -> String {
    "/url".into()
}
fn default_text() -> String {
    "/text".into()
}
fn default_max_items() -> usize {
    5
}

/// The `json-api` provider.
#[derive(Debug)]
pub struct JsonApi {
    fetcher: Arc<Fetcher>,
    config: JsonApiConfig,
}

fn check_pointer(field: &str, p: &str) -> Result<(), FactoryError> {
    check_json_pointer(p).map_err(|m| FactoryError::config_field(field, m.to_string()))
}

impl JsonApi {
    pub fn new(fetcher: Arc<Fetcher>, config: JsonApiConfig) -> Result<Self, FactoryError> {
        expand_template(&config.url, "test")
            .map_err(|e| FactoryError::config_field("url", e.to_string()))?;
        check_pointer("items", &config.items)?;
        check_pointer("item.title", &config.item.title)?;
        check_pointer("item.url", &config.item.url)?;
        check_pointer("item.text", &config.item.text)?;
        if let Some(d) = &config.item.date {
            check_pointer("item.date", d)?;
        }
        require_at_least_one(&[("max_items", config.max_items)])?;
        for name in config.headers.keys() {
            if name.is_empty()
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            {
                return Err(FactoryError::config_field(
                    format!("headers.{name}"),
                    "not a valid HTTP header name",
                ));
            }
        }
        Ok(JsonApi { fetcher, config })
    }
}

impl ProviderConfig for JsonApiConfig {
    const KIND: &'static str = "json-api";
    const STEP: ChainStep = ChainStep::StructuredApiOrFeed;
    const DESCRIPTION: &'static str = "Any JSON API described by a URL template and JSON pointers";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        Ok(Arc::new(JsonApi::new(ctx.fetcher()?, self)?))
    }
}

/// A scalar (or an array of strings) as text.
fn as_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Array(a) => {
            let parts: Vec<String> = a
                .iter()
                .filter_map(as_text)
                .filter(|s| !s.is_empty())
                .collect();
            (!parts.is_empty()).then(|| parts.join("\n\n"))
        }
        _ => None,
    }
    .filter(|s| !s.is_empty())
}

/// One item read out of the response.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiItem {
    pub title: Option<String>,
    pub url: Url,
    pub text: String,
    pub date: Option<String>,
}

/// Why the response does not fit the configured pointers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ItemsError {
    #[error("the response has nothing at the `items` pointer `{0}`")]
    Missing(String),
    #[error("the value at the `items` pointer `{pointer}` is {found}, not an array")]
    NotArray {
        pointer: String,
        found: &'static str,
    },
}

impl JsonApiConfig {
    /// Reads the items of a response: `(items, skipped)` where `skipped`
    /// counts items lacking a usable URL or text.
    pub fn items(&self, doc: &Value, base: &Url) -> Result<(Vec<ApiItem>, usize), ItemsError> {
        let list = doc
            .pointer(&self.items)
            .ok_or_else(|| ItemsError::Missing(self.items.clone()))?;
        let Value::Array(list) = list else {
            return Err(ItemsError::NotArray {
                pointer: self.items.clone(),
                found: json_kind(list),
            });
        };
        let mut out = Vec::new();
        let mut skipped = 0;
        for item in list {
            let url = item
                .pointer(&self.item.url)
                .and_then(Value::as_str)
                .and_then(|u| base.join(u.trim()).ok())
                .filter(|u| matches!(u.scheme(), "http" | "https"));
            let text = item.pointer(&self.item.text).and_then(as_text);
            let (Some(url), Some(text)) = (url, text) else {
                skipped += 1;
                continue;
            };
            out.push(ApiItem {
                title: item.pointer(&self.item.title).and_then(as_text),
                url,
                text,
                date: self
                    .item
                    .date
                    .as_deref()
                    .and_then(|p| item.pointer(p))
                    .and_then(as_text),
            });
        }
        Ok((out, skipped))
    }
}

#[async_trait::async_trait]
impl Provider for JsonApi {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let cfg = &self.config;
        let url = expand_template(&cfg.url, &call.request.query).map_err(|e| {
            ProviderError::new(FailureCode::SearchProviderMisconfigured, e.to_string())
        })?;
        let mut secrets = Vec::new();
        for h in &cfg.secret_headers {
            let value = std::env::var(&h.env).map_err(|_| {
                ProviderError::new(
                    FailureCode::SearchProviderMisconfigured,
                    format!(
                        "the environment variable `{}` (header `{}`) is not set",
                        h.env, h.name
                    ),
                )
            })?;
            secrets.push((h.name.as_str(), h.format.replace("{value}", &value)));
        }
        let headers: Vec<(&str, &str)> = cfg
            .headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .chain(secrets.iter().map(|(k, v)| (*k, v.as_str())))
            .collect();
        let req = FetchRequest::api(url.clone())
            .with_deadline(call.deadline)
            .with_headers(&headers);
        let resp = self
            .fetcher
            .fetch(&req)
            .await
            .map_err(|e| provider_error(call, &e, Vec::new()))?;
        let failed = |code: FailureCode, message: String| {
            let attempt =
                sgw_provider_common::attempt_failed(call, url.as_str(), code, message.clone())
                    .with_status(Some(resp.status));
            ProviderError {
                code,
                message,
                http_status: Some(resp.status),
                retry_after: None,
                attempts: vec![attempt],
                store_failure: None,
            }
        };
        let doc: Value = serde_json::from_slice(&resp.body).map_err(|e| {
            failed(
                FailureCode::SourceExtractionFailed,
                format!("{url} did not return valid JSON: {e}"),
            )
        })?;
        let (items, skipped) = cfg.items(&doc, &resp.final_url).map_err(|e| {
            failed(
                FailureCode::SearchProviderMisconfigured,
                format!("{url}: {e} (check the provider's `items` config)"),
            )
        })?;
        let mut attempts = vec![
            attempt_success(call, &url, resp.elapsed)
                .with_status(Some(resp.status))
                .with_detail(format!(
                    "{} items ({skipped} without url or text)",
                    items.len()
                )),
        ];
        let candidates: Vec<Candidate> = items
            .iter()
            .map(|i| {
                Candidate::new(i.url.as_str())
                    .with_title(i.title.clone())
                    .with_date(i.date.clone())
                    .with_text(Some(i.text.clone()))
            })
            .collect();
        let ranked = rank(
            &call.request.query,
            candidates,
            is_time_sensitive(&call.key.topic_type),
        );
        let max = cfg.max_items.min(call.max_sources.max(1));
        let mut evidence = Vec::new();
        for r in ranked.into_iter().take(max) {
            let item = &items[r.index];
            let owner = source_for(&item.url, call.sources);
            let title = item.title.clone().unwrap_or_else(|| item.url.to_string());
            let mut ev = Evidence::new(item.url.clone(), title, item.text.clone(), "json-api");
            ev.passages = text_passages(&ev.text, &call.request.query);
            ev.published_at = item
                .date
                .as_deref()
                .and_then(sgw_provider_common::sgw_extract::normalize_date);
            ev.tier_hint = cfg.tier.or(owner.map(|s| s.tier));
            ev.publisher = cfg.publisher.clone().or(owner.map(|s| s.publisher.clone()));
            ev.validators = resp.validators.clone();
            evidence.push(ev);
        }
        if evidence.is_empty() {
            attempts.push(attempt_empty(
                call,
                url.as_str(),
                format!("{} items, none relevant to the query", items.len()),
            ));
        }
        Ok(ProviderReport {
            evidence,
            attempts,
            ..ProviderReport::default()
        })
    }
}
