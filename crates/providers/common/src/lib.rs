#![doc = include_str!("../README.md")]

mod json;
pub mod markup;
mod rank;
mod read;
mod template;

pub use json::{JsonPointerError, check_json_pointer, json_kind};
pub use rank::{
    Candidate, Ranked, TIME_SENSITIVE_TOPICS, is_time_sensitive, parse_date, rank, terms,
};
pub use read::{
    MAX_PASSAGES, PageTarget, attempt_empty, attempt_failed, attempt_success,
    evidence_from_document, extraction_failure_code, fetch_failure, host_matches, method_name,
    provider_error, ranked_passages, read_into_report, read_page, read_pages, read_target,
    source_for, text_passages, url_on_domains,
};
pub use template::{
    HttpUrlError, TemplateError, encode_component, expand_template, expand_url, parse_http_url,
};

use sgw_contract::FactoryError;

/// Re-exported so provider crates name one version of each.
pub use sgw_extract;
pub use sgw_fetch;

/// Fails on the first of `fields` (name, value) that is 0, naming it:
/// counts, limits and concurrency in configs must be at least 1.
pub fn require_at_least_one(fields: &[(&str, usize)]) -> Result<(), FactoryError> {
    match fields.iter().find(|(_, v)| *v == 0) {
        Some((field, _)) => Err(FactoryError::config_field(*field, "must be at least 1")),
        None => Ok(()),
    }
}

/// Checks that every URL template of the list field `field` expands (see
/// [`expand_url`]); an error names the entry (`field[i]`).
pub fn check_url_templates(field: &str, templates: &[String]) -> Result<(), FactoryError> {
    for (i, t) in templates.iter().enumerate() {
        expand_url(t, "test")
            .map_err(|e| FactoryError::config_field(format!("{field}[{i}]"), e.to_string()))?;
    }
    Ok(())
}
