//! One module per `sgw` subcommand. Each exposes `Args` (clap) and `run`.
pub mod cache;
pub mod demo;
pub mod evidence;
pub mod extract;
pub mod fetch;
pub mod policy;
pub mod providers;
pub mod search;

/// A `--field NAME:text=REGEX` whose pattern does not compile is a usage
/// error (exit 1), not a warning the search would run past.
pub fn check_field_pattern(spec: &sgw_contract::FieldSpec) -> Result<(), crate::exit::CliError> {
    if let sgw_contract::FieldKind::Text(pattern) = &spec.kind
        && let Err(e) = regex::Regex::new(pattern)
    {
        return Err(crate::exit::CliError::Usage(format!(
            "--field {spec}: `{pattern}` is not a valid regular expression: {e}"
        )));
    }
    Ok(())
}

/// A store write that failed during a search (the human evidence request or
/// the evidence could not be recorded): an I/O error (exit 3) once the result
/// has been printed, never a silent success.
pub fn store_write_failure(result: &sgw_contract::SearchResult) -> Option<crate::exit::CliError> {
    let human = sgw_provider_human_intake::REQUEST_NOT_RECORDED;
    let why = result
        .attempts
        .iter()
        .filter(|a| a.outcome == sgw_contract::AttemptOutcome::Failed)
        .filter_map(|a| a.detail.as_deref())
        .find(|d| d.starts_with(human))
        .map(str::to_string)
        .or_else(|| {
            result
                .notes
                .iter()
                .find(|n| n.starts_with("the evidence could not be stored"))
                .cloned()
        })?;
    Some(crate::exit::CliError::Io(why))
}
