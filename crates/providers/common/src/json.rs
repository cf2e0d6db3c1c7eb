//! Small helpers for JSON that configs point into (JSON APIs, search APIs).

use serde_json::Value;

/// Why a config's JSON pointer is not an RFC 6901 pointer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonPointerError {
    /// Not empty and not starting with `/`.
    #[error(
        "`{pointer}` is not a JSON pointer: it must be empty or start with `/` (e.g. `/results`)"
    )]
    NoLeadingSlash { pointer: String },
    /// A `~` not followed by `0` or `1`.
    #[error("`{pointer}`: `~` must be followed by 0 or 1")]
    BadEscape { pointer: String },
}

/// Checks that `p` is an RFC 6901 JSON pointer (empty, or `/`-separated
/// with `~` only as `~0`/`~1`); the error says what is wrong with it.
pub fn check_json_pointer(p: &str) -> Result<(), JsonPointerError> {
    if !p.is_empty() && !p.starts_with('/') {
        return Err(JsonPointerError::NoLeadingSlash { pointer: p.into() });
    }
    let mut chars = p.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.peek(), Some('0' | '1')) {
            return Err(JsonPointerError::BadEscape { pointer: p.into() });
        }
    }
    Ok(())
}

/// What kind of JSON value `v` is, for messages ("found a string").
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
