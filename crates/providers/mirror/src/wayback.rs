//! The Wayback availability API: its answer, and its snapshot timestamps.

use serde_json::Value;
use url::Url;

/// The closest archived snapshot of a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Where the archived copy is served.
    pub url: Url,
    /// The raw `YYYYMMDDhhmmss` timestamp.
    pub timestamp: String,
    /// The timestamp as RFC 3339 UTC (`2024-01-15T09:30:00Z`), when it is a valid date.
    pub snapshot_at: Option<String>,
}

/// The availability answer could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AvailabilityError {
    #[error("the availability answer is not JSON: {0}")]
    NotJson(String),
    #[error("`{field}`: {message}")]
    Shape {
        field: &'static str,
        message: String,
    },
}

/// Parses `{"archived_snapshots":{"closest":{"available":true,"url":…,"timestamp":…,"status":"200"}}}`.
/// `Ok(None)`: no usable snapshot (none archived, not available, or archived
/// with a non-200 status, e.g. a captured 404).
pub fn parse_availability(body: &str) -> Result<Option<Snapshot>, AvailabilityError> {
    let v: Value = serde_json::from_str(body).map_err(|e| {
        let head: String = body.trim_start().chars().take(60).collect();
        AvailabilityError::NotJson(format!("{e} (answer starts with {head:?})"))
    })?;
    let shape = |field, message: &str| AvailabilityError::Shape {
        field,
        message: message.to_string(),
    };
    let snaps = match v.get("archived_snapshots") {
        Some(Value::Object(o)) => o,
        // The API answers `"archived_snapshots": {}` when nothing is archived,
        // but some deployments use `null` or `[]`.
        Some(Value::Null) | Some(Value::Array(_)) => return Ok(None),
        Some(_) => return Err(shape("archived_snapshots", "expected an object")),
        None if v.is_object() => return Err(shape("archived_snapshots", "missing")),
        None => {
            return Err(shape(
                "archived_snapshots",
                "the answer is not a JSON object",
            ));
        }
    };
    let Some(closest) = snaps.get("closest") else {
        return Ok(None);
    };
    let Some(closest) = closest.as_object() else {
        return Err(shape("archived_snapshots.closest", "expected an object"));
    };
    let available = match closest.get("available") {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s == "true",
        _ => true,
    };
    let status_ok = match closest.get("status") {
        Some(Value::String(s)) => s == "200",
        Some(Value::Number(n)) => n.as_u64() == Some(200),
        _ => true,
    };
    if !available || !status_ok {
        return Ok(None);
    }
    let url = closest
        .get("url")
        .and_then(Value::as_str)
        .ok_or_else(|| shape("archived_snapshots.closest.url", "missing or not a string"))?;
    let url = Url::parse(url.trim())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
        .ok_or_else(|| {
            shape(
                "archived_snapshots.closest.url",
                &format!(
                    "`{}` is not an absolute http(s) URL",
                    url.chars().take(200).collect::<String>()
                ),
            )
        })?;
    let timestamp = match closest.get("timestamp") {
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    let snapshot_at = timestamp_to_rfc3339(&timestamp);
    Ok(Some(Snapshot {
        url,
        timestamp,
        snapshot_at,
    }))
}

/// `YYYYMMDDhhmmss` (or a prefix of at least `YYYYMMDD`, the rest taken as
/// zero) → `YYYY-MM-DDThh:mm:ssZ`; `None` when it is not a valid date-time.
pub fn timestamp_to_rfc3339(ts: &str) -> Option<String> {
    if !(8..=14).contains(&ts.len()) || !ts.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut full = ts.to_string();
    while full.len() < 14 {
        full.push('0');
    }
    let n = |r: std::ops::Range<usize>| full[r].parse::<i16>().ok();
    let dt = jiff::civil::DateTime::new(
        n(0..4)?,
        n(4..6)? as i8,
        n(6..8)? as i8,
        n(8..10)? as i8,
        n(10..12)? as i8,
        n(12..14)? as i8,
        0,
    )
    .ok()?;
    Some(dt.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_snapshot() {
        let s = parse_availability(
            r#"{"url":"x","archived_snapshots":{"closest":{"status":"200","available":true,"url":"http://web.archive.test/web/20240115093000/https://docs.test/a","timestamp":"20240115093000"}}}"#,
        )
        .unwrap()
        .unwrap();
        assert_eq!(s.snapshot_at.as_deref(), Some("2024-01-15T09:30:00Z"));
        assert_eq!(s.url.host_str(), Some("web.archive.test"));
    }

    #[test]
    fn no_snapshot_cases() {
        for body in [
            r#"{"archived_snapshots":{}}"#,
            r#"{"archived_snapshots":null}"#,
            r#"{"archived_snapshots":{"closest":{"available":false,"url":"http://a.test/","timestamp":"20240101000000"}}}"#,
            r#"{"archived_snapshots":{"closest":{"available":true,"status":"404","url":"http://a.test/","timestamp":"20240101000000"}}}"#,
        ] {
            assert_eq!(parse_availability(body).unwrap(), None, "{body}");
        }
    }

    #[test]
    fn malformed_answers_name_the_field() {
        assert!(matches!(
            parse_availability("<html>"),
            Err(AvailabilityError::NotJson(_))
        ));
        let e = parse_availability("{}").unwrap_err().to_string();
        assert!(e.contains("archived_snapshots"), "{e}");
        let e = parse_availability(
            r#"{"archived_snapshots":{"closest":{"available":true,"url":"javascript:x"}}}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("closest.url"), "{e}");
        for body in ["", "[", "[]", "\"s\"", &"{".repeat(5000)] {
            let _ = parse_availability(body);
        }
    }

    #[test]
    fn timestamps() {
        assert_eq!(
            timestamp_to_rfc3339("20240229235959").as_deref(),
            Some("2024-02-29T23:59:59Z")
        );
        assert_eq!(
            timestamp_to_rfc3339("20240115").as_deref(),
            Some("2024-01-15T00:00:00Z")
        );
        assert_eq!(timestamp_to_rfc3339("20230229000000"), None);
        assert_eq!(timestamp_to_rfc3339("2024011"), None);
        assert_eq!(timestamp_to_rfc3339("2024-01-15"), None);
        assert_eq!(timestamp_to_rfc3339("202401159999"), None);
        assert_eq!(timestamp_to_rfc3339("é2024011500"), None);
    }
}
