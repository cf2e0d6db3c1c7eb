//! `sgw-provider-common` is the toolkit every Search Gateway provider crate
//! shares, so adapters never copy code: reading a page into
//! [`Evidence`](sgw_contract::Evidence) ([`read_page`], [`read_pages`]),
//! turning fetch failures into per-target [`Attempt`](sgw_contract::Attempt)s
//! or a provider-level [`ProviderError`](sgw_contract::ProviderError),
//! expanding URL templates ([`expand_template`]), ranking candidate links by
//! relevance and recency ([`rank`]), and matching URLs to the planned
//! registry sources ([`source_for`]).
//!
//! It is **not** a provider itself, and holds no politeness, retry, SSRF or
//! tier logic: the network layer (`sgw-fetch`) and the orchestrator own
//! those. The tier it sets is only the registry entry's `tier_hint`.
#![doc = include_str!("../README.md")]

mod json;
pub mod markup;
mod rank;
mod read;
mod template;
#[cfg(feature = "testing")]
pub mod testing;

pub use json::{check_json_pointer, json_kind};
pub use rank::{
    Candidate, Ranked, TIME_SENSITIVE_TOPICS, is_time_sensitive, parse_date, rank, terms,
};
pub use read::{
    MAX_PASSAGES, PageTarget, attempt_empty, attempt_failed, attempt_success,
    evidence_from_document, extraction_failure_code, fetch_failure, host_matches, method_name,
    provider_error, ranked_passages, read_into_report, read_page, read_pages, read_target,
    source_for, text_passages, url_on_domains,
};
pub use template::{TemplateError, encode_component, expand_template, expand_url, parse_http_url};

/// Re-exported so provider crates name one version of each.
pub use sgw_extract;
pub use sgw_fetch;

/// The `Fetcher` a factory needs, from the build context's services.
pub fn fetcher(
    ctx: &sgw_contract::BuildContext,
) -> Result<std::sync::Arc<sgw_fetch::Fetcher>, sgw_contract::FactoryError> {
    ctx.services.require::<sgw_fetch::Fetcher>()
}

/// The usual factory body: parses `config` into `C` (errors name the field),
/// then constructs the provider with `new` from the `Fetcher` of the build
/// context's services and that config.
pub fn build_with_fetcher<C, P>(
    config: &serde_json::Value,
    ctx: &sgw_contract::BuildContext,
    new: fn(std::sync::Arc<sgw_fetch::Fetcher>, C) -> Result<P, sgw_contract::FactoryError>,
) -> Result<std::sync::Arc<dyn sgw_contract::Provider>, sgw_contract::FactoryError>
where
    C: serde::de::DeserializeOwned,
    P: sgw_contract::Provider + 'static,
{
    let config: C = parse_config(config)?;
    Ok(std::sync::Arc::new(new(fetcher(ctx)?, config)?))
}

/// Parses a provider's `config:` value into its config struct; an error names
/// the field at fault (`FactoryError::Config { field, message }`). `null`
/// means an empty config.
pub fn parse_config<T: serde::de::DeserializeOwned>(
    config: &serde_json::Value,
) -> Result<T, sgw_contract::FactoryError> {
    let empty = serde_json::Value::Object(serde_json::Map::new());
    let value = if config.is_null() { &empty } else { config };
    serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
        let path = e.path().to_string();
        sgw_contract::FactoryError::Config {
            field: (path != ".").then_some(path),
            message: e.into_inner().to_string(),
        }
    })
}

/// A `FactoryError::Config` naming the config `field` at fault.
pub fn config_error(
    field: impl Into<String>,
    message: impl Into<String>,
) -> sgw_contract::FactoryError {
    sgw_contract::FactoryError::Config {
        field: Some(field.into()),
        message: message.into(),
    }
}

/// Fails on the first of `fields` (name, value) that is 0, naming it:
/// counts, limits and concurrency in configs must be at least 1.
pub fn require_at_least_one(fields: &[(&str, usize)]) -> Result<(), sgw_contract::FactoryError> {
    match fields.iter().find(|(_, v)| *v == 0) {
        Some((field, _)) => Err(config_error(*field, "must be at least 1")),
        None => Ok(()),
    }
}

/// Checks that every URL template of the list field `field` expands (see
/// [`expand_url`]); an error names the entry (`field[i]`).
pub fn check_url_templates(
    field: &str,
    templates: &[String],
) -> Result<(), sgw_contract::FactoryError> {
    for (i, t) in templates.iter().enumerate() {
        expand_url(t, "test").map_err(|e| config_error(format!("{field}[{i}]"), e.to_string()))?;
    }
    Ok(())
}
