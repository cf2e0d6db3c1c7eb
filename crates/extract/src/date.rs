//! Date normalisation.
//!
//! Output forms:
//! - a value with a time of day becomes RFC 3339 in UTC (`2024-03-01T12:30:00Z`);
//!   a time without an offset is taken as UTC;
//! - a value with only a date stays a date: `YYYY-MM-DD`.

use regex::Regex;
use std::sync::OnceLock;

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn month_of(name: &str) -> Option<u8> {
    let l = name.to_ascii_lowercase();
    let l = l.trim_end_matches('.');
    if l.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| l.starts_with(m))
        .map(|p| p as u8 + 1)
}

fn valid(y: i32, m: u8, d: u8) -> Option<String> {
    if !(1000..=2999).contains(&y) {
        return None;
    }
    jiff::civil::Date::new(y as i16, m as i8, d as i8)
        .ok()
        .map(|d| d.to_string())
}

struct DateRes {
    ymd: Regex,
    /// `DD.MM.YYYY` (the dotted European form; slashes stay ambiguous and are not read).
    dmy_dots: Regex,
    mdy: Regex,
    dmy: Regex,
}

fn res() -> &'static DateRes {
    static R: OnceLock<DateRes> = OnceLock::new();
    R.get_or_init(|| DateRes {
        ymd: Regex::new(r"(?-u:\b)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?-u:\b)").unwrap(),
        dmy_dots: Regex::new(r"(?-u:\b)(\d{1,2})\.(\d{1,2})\.(\d{4})(?-u:\b)").unwrap(),
        mdy: Regex::new(r"(?i)(?-u:\b)(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?-u:\b)").unwrap(),
        dmy: Regex::new(r"(?i)(?-u:\b)(\d{1,2})(?:st|nd|rd|th)?\.?\s+(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?\s+(\d{4})(?-u:\b)").unwrap(),
    })
}

/// Normalises a machine-readable or common human date; `None` if none is found.
pub fn normalize_date(raw: &str) -> Option<String> {
    let s = raw.trim();
    if s.is_empty() || s.len() > 200 {
        return None;
    }
    if let Ok(ts) = s.parse::<jiff::Timestamp>() {
        return Some(ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string());
    }
    if s.len() > 10
        && let Ok(dt) = s.parse::<jiff::civil::DateTime>()
        && let Ok(z) = dt.to_zoned(jiff::tz::TimeZone::UTC)
    {
        return Some(z.timestamp().strftime("%Y-%m-%dT%H:%M:%SZ").to_string());
    }
    if let Ok(z) = jiff::fmt::rfc2822::parse(s) {
        return Some(z.timestamp().strftime("%Y-%m-%dT%H:%M:%SZ").to_string());
    }
    find_date(s).map(|(v, _, _)| v)
}

/// Finds the first date written in `text`: returns (`YYYY-MM-DD`, start, end).
pub fn find_date(text: &str) -> Option<(String, usize, usize)> {
    find_dates(text).into_iter().next()
}

/// Every date written in `text`, in order: (`YYYY-MM-DD`, start, end).
pub fn find_dates(text: &str) -> Vec<(String, usize, usize)> {
    let r = res();
    let mut out = Vec::new();
    for c in r.ymd.captures_iter(text) {
        let (Ok(y), Ok(m), Ok(d)) = (c[1].parse(), c[2].parse(), c[3].parse()) else {
            continue;
        };
        if let Some(v) = valid(y, m, d) {
            let m0 = c.get(0).unwrap();
            out.push((v, m0.start(), m0.end()));
        }
    }
    for c in r.dmy_dots.captures_iter(text) {
        let (Ok(d), Ok(m), Ok(y)) = (c[1].parse(), c[2].parse(), c[3].parse()) else {
            continue;
        };
        if let Some(v) = valid(y, m, d) {
            let m0 = c.get(0).unwrap();
            out.push((v, m0.start(), m0.end()));
        }
    }
    for c in r.mdy.captures_iter(text) {
        let (Some(m), Ok(d), Ok(y)) = (month_of(&c[1]), c[2].parse(), c[3].parse()) else {
            continue;
        };
        if let Some(v) = valid(y, m, d) {
            let m0 = c.get(0).unwrap();
            out.push((v, m0.start(), m0.end()));
        }
    }
    for c in r.dmy.captures_iter(text) {
        let (Ok(d), Some(m), Ok(y)) = (c[1].parse(), month_of(&c[2]), c[3].parse()) else {
            continue;
        };
        if let Some(v) = valid(y, m, d) {
            let m0 = c.get(0).unwrap();
            out.push((v, m0.start(), m0.end()));
        }
    }
    out.sort_by_key(|x| x.1);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(
            normalize_date("2024-03-01T12:30:00+02:00").as_deref(),
            Some("2024-03-01T10:30:00Z")
        );
        assert_eq!(
            normalize_date("2024-03-01T12:30:00").as_deref(),
            Some("2024-03-01T12:30:00Z")
        );
        assert_eq!(normalize_date("2024-03-01").as_deref(), Some("2024-03-01"));
        assert_eq!(
            normalize_date("Fri, 01 Mar 2024 12:30:00 +0000").as_deref(),
            Some("2024-03-01T12:30:00Z")
        );
        assert_eq!(
            normalize_date("Published March 5th, 2021").as_deref(),
            Some("2021-03-05")
        );
        assert_eq!(
            normalize_date("5 Sept. 2021").as_deref(),
            Some("2021-09-05")
        );
        assert_eq!(
            normalize_date("due 15.03.2026").as_deref(),
            Some("2026-03-15")
        );
        assert_eq!(normalize_date("31.02.2026"), None);
        assert_eq!(normalize_date("2021-02-30"), None);
        assert_eq!(normalize_date("nonsense"), None);
    }
}
