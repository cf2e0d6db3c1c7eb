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
