//! Small helpers for JSON that configs point into (JSON APIs, search APIs).

use serde_json::Value;

/// Checks that `p` is an RFC 6901 JSON pointer (empty, or `/`-separated
/// with `~` only as `~0`/`~1`); the error says what is wrong with it.
pub fn check_json_pointer(p: &str) -> Result<(), String> {
    if !p.is_empty() && !p.starts_with('/') {
        return Err(format!(
            "`{p}` is not a JSON pointer: it must be empty or start with `/` (e.g. `/results`)"
        ));
    }
    let mut chars = p.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.peek(), Some('0' | '1')) {
            return Err(format!("`{p}`: `~` must be followed by 0 or 1"));
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
