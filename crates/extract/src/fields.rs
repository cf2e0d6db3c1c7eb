//! Typed answer fields: the kinds, the values as written (dates, numbers,
//! money, percentages and regex patterns, normalised) and [`find_fields`], the
//! one-value-per-field view of [`crate::field_candidates`].

use crate::passages::split;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// What kind of value a field holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    /// Normalised to `YYYY-MM-DD`.
    Date,
    /// Normalised to a plain decimal (`1234.5`), thousands separators removed.
    Number,
    /// Normalised to `<ISO 4217 code> <amount>` (`USD 1200000`), or the amount alone
    /// when the currency is unknown. `million`/`billion` multipliers are applied.
    Money,
    /// Normalised to the number without `%` (`12.5`).
    Percent,
    /// Any regular expression; the value is capture group 1 if present, else the match.
    Pattern(String),
}

/// A field the caller wants filled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct FieldSpec {
    pub name: String,
    pub kind: FieldKind,
}

/// A field value found in the text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct FieldValue {
    pub name: String,
    pub kind: FieldKind,
    /// Normalised value (see [`FieldKind`]).
    pub value: String,
    /// The verbatim span: `text[start..end] == raw`.
    pub raw: String,
    pub start: usize,
    pub end: usize,
    /// Index of the passage (in document order, as in [`crate::Passage::index`]).
    pub passage_index: Option<usize>,
}

struct Res {
    number: Regex,
    money: Regex,
    cents: Regex,
    percent: Regex,
}

/// One number as written: thousands groups (`1,234`, `1 234` with a space or a
/// no-break space, `1.234.567`),
/// a decimal part with `.` or `,`, and an optional multiplier word.
const NUM: &str = r"-?(?:[0-9]{1,3}(?:\.[0-9]{3})+,[0-9]+|[0-9]{1,3}(?:\.[0-9]{3}){2,}|[0-9]{1,3}(?:[,\u{a0}\u{202f} ][0-9]{3})+|[0-9]+)(?:[.,][0-9]+)?";

fn res() -> &'static Res {
    static R: OnceLock<Res> = OnceLock::new();
    R.get_or_init(|| Res {
        number: Regex::new(&format!(
            r"(?i)(?:^|[^\w.,])(?P<num>{NUM})(?-u:\b)(?:\s?(?P<mult>million|billion|trillion|thousand|mn|bn)(?-u:\b))?"
        ))
        .unwrap(),
        money: Regex::new(&format!(
            r"(?i)(?P<pre>US\$|C\$|A\$|\$|€|£|¥|(?-u:\b)(?:USD|EUR|GBP|JPY|CHF|CAD|AUD))\s?(?P<num>{NUM})(?:\s?(?P<mult>million|billion|trillion|thousand|bn|mn|m|k)(?-u:\b))?|(?P<num2>{NUM})(?:\s?(?P<mult2>million|billion|trillion|thousand|bn|mn))?\s?(?P<post>(?:dollars?|euros?|pounds?|yen|USD|EUR|GBP|JPY|CHF)(?-u:\b)|€)"
        ))
        .unwrap(),
        cents: Regex::new(r"(?i)(?:^|[^\w.,])(?P<num>[0-9]+(?:[.,][0-9]+)?)\s?(?:cents?|ct)(?-u:\b)")
            .unwrap(),
        percent: Regex::new(
            r"(?i)(?:^|[^\w.,])(?P<num>-?[0-9]+(?:[.,][0-9]+)?)\s?(?:%|(?:percent|per\s?cent|pct)(?-u:\b))",
        )
        .unwrap(),
    })
}

fn currency(sym: &str) -> Option<&'static str> {
    Some(match sym.to_ascii_lowercase().as_str() {
        "$" | "us$" | "usd" | "dollars" | "dollar" => "USD",
        "c$" | "cad" => "CAD",
        "a$" | "aud" => "AUD",
        "€" | "eur" | "euros" | "euro" => "EUR",
        "£" | "gbp" | "pounds" | "pound" => "GBP",
        "¥" | "jpy" | "yen" => "JPY",
        "chf" => "CHF",
        _ => return None,
    })
}

/// A written number as a plain decimal: thousands separators dropped, a
/// decimal comma turned into a point. With both `.` and `,` the last one is
/// the decimal mark; a lone `,` before exactly three digits groups thousands;
/// two or more `.` group thousands.
pub(crate) fn plain_number(raw: &str) -> String {
    let s: String = raw
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{202f}'))
        .collect();
    let commas = s.matches(',').count();
    let dots = s.matches('.').count();
    let decimal = match (commas, dots) {
        (0, 0) => None,
        (_, 0) => {
            let after = s.rsplit(',').next().map_or(0, str::len);
            (commas == 1 && after != 3).then_some(',')
        }
        (0, _) => (dots == 1).then_some('.'),
        _ => s.rfind([',', '.']).and_then(|i| s[i..].chars().next()),
    };
    s.chars()
        .filter_map(|c| match c {
            ',' | '.' if Some(c) == decimal => Some('.'),
            ',' | '.' => None,
            c => Some(c),
        })
        .collect()
}

fn scale(num: &str, mult: Option<&str>) -> String {
    let factor: f64 = match mult.map(str::to_ascii_lowercase).as_deref() {
        Some("thousand" | "k") => 1e3,
        Some("million" | "m" | "mn") => 1e6,
        Some("billion" | "bn") => 1e9,
        Some("trillion") => 1e12,
        Some("cents") => 1e-2,
        _ => return num.to_string(),
    };
    match num.parse::<f64>() {
        Ok(v) => {
            let r = v * factor;
            if r.fract() == 0.0 && r.abs() < 1e18 {
                format!("{}", r as i64)
            } else {
                // Round away binary noise (0.245 stays 0.245, not 0.24500000000000002).
                let s = if r.abs() >= 1.0 {
                    format!("{r:.6}")
                } else {
                    format!("{r:.9}")
                };
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            }
        }
        Err(_) => num.to_string(),
    }
}

/// A value of one kind as written in a text, before judging it.
#[derive(Debug, Clone)]
pub(crate) struct RawValue {
    pub value: String,
    pub start: usize,
    pub end: usize,
    /// A bare integer 1900–2100 without separators: probably a year.
    pub year_like: bool,
}

/// Every number written in `text`, multipliers applied (`5.43 million` → `5430000`).
pub(crate) fn number_spans(text: &str, limit: usize) -> Vec<RawValue> {
    res()
        .number
        .captures_iter(text)
        .take(limit)
        .filter_map(|c| {
            let num = c.name("num")?;
            let end = c.get(0)?.end();
            let mult = c.name("mult").map(|m| m.as_str());
            let plain = plain_number(num.as_str());
            let year_like = mult.is_none()
                && num.as_str().len() == 4
                && num
                    .as_str()
                    .parse::<i32>()
                    .is_ok_and(|y| (1900..=2100).contains(&y));
            Some(RawValue {
                value: scale(&plain, mult),
                start: num.start(),
                end,
                year_like,
            })
        })
        .collect()
}

/// Candidate values of `kind` in `text`, in text order, at most `limit` of each form.
pub(crate) fn raw_values(
    kind: &FieldKind,
    pattern: Option<&Regex>,
    text: &str,
    limit: usize,
) -> Vec<RawValue> {
    let r = res();
    let plain = |value: String, start: usize, end: usize| RawValue {
        value,
        start,
        end,
        year_like: false,
    };
    match kind {
        FieldKind::Date => crate::date::find_dates(text)
            .into_iter()
            .map(|(v, a, b)| plain(v, a, b))
            .collect(),
        FieldKind::Number => number_spans(text, limit),
        FieldKind::Percent => r
            .percent
            .captures_iter(text)
            .take(limit)
            .filter_map(|c| {
                let num = c.name("num")?;
                let end = c.get(0)?.end();
                // "0.5 percentage points" never matches; "0.5 % points" is not a rate either.
                let rest = text[end..].trim_start().as_bytes();
                let points = rest.len() >= 3 && rest[..3].eq_ignore_ascii_case(b"poi")
                    || rest.len() >= 3 && rest[..3].eq_ignore_ascii_case(b"pts");
                (!points).then(|| plain(plain_number(num.as_str()), num.start(), end))
            })
            .collect(),
        FieldKind::Money => {
            let mut out: Vec<RawValue> = r
                .money
                .captures_iter(text)
                .take(limit)
                .filter_map(|c| {
                    let m0 = c.get(0)?;
                    let (num, mult, cur) = match c.name("num") {
                        Some(n) => (
                            n.as_str(),
                            c.name("mult").map(|m| m.as_str()),
                            c.name("pre").map(|m| m.as_str()),
                        ),
                        None => (
                            c.name("num2")?.as_str(),
                            c.name("mult2").map(|m| m.as_str()),
                            c.name("post").map(|m| m.as_str()),
                        ),
                    };
                    let amount = scale(&plain_number(num), mult);
                    let value = match cur.and_then(currency) {
                        Some(code) => format!("{code} {amount}"),
                        None => amount,
                    };
                    Some(plain(value, m0.start(), m0.end()))
                })
                .collect();
            // Cents of an unnamed currency: the amount in units (24.5 cents → 0.245).
            for c in r.cents.captures_iter(text).take(limit) {
                let (Some(num), Some(m0)) = (c.name("num"), c.get(0)) else {
                    continue;
                };
                if out
                    .iter()
                    .any(|o| o.start < m0.end() && num.start() < o.end)
                {
                    continue;
                }
                let value = scale(&plain_number(num.as_str()), Some("cents"));
                out.push(plain(value, num.start(), m0.end()));
            }
            out.sort_by_key(|v| v.start);
            out
        }
        FieldKind::Pattern(_) => match pattern {
            Some(re) => re
                .captures_iter(text)
                .take(limit)
                .filter_map(|c| {
                    let m = c.get(1).or_else(|| c.get(0))?;
                    (!m.as_str().is_empty())
                        .then(|| plain(m.as_str().to_string(), m.start(), m.end()))
                })
                .collect(),
            None => Vec::new(),
        },
    }
}

/// Compiles a field's pattern; `None` (with a warning) when it is not a valid regex.
pub(crate) fn compile_pattern(spec: &FieldSpec) -> Result<Option<Regex>, ()> {
    match &spec.kind {
        FieldKind::Pattern(p) => match Regex::new(p) {
            Ok(re) => Ok(Some(re)),
            Err(e) => {
                tracing::warn!(
                    "field {:?}: pattern {p:?} is not a valid regex: {e}",
                    spec.name
                );
                Err(())
            }
        },
        _ => Ok(None),
    }
}

/// One value per spec: the best question-aware candidate
/// ([`crate::field_candidates`]), with the passage it lies in.
pub fn find_fields(text: &str, query: &str, specs: &[FieldSpec]) -> Vec<FieldValue> {
    let spans = split(text);
    let cands = crate::candidates::field_candidates(text, query, specs, None);
    let mut out: Vec<FieldValue> = Vec::new();
    for spec in specs {
        let Some(best) = cands.iter().find(|c| c.name == spec.name) else {
            continue;
        };
        if out.iter().any(|o| o.name == spec.name) {
            continue;
        }
        let passage_index = spans
            .iter()
            .position(|&(s, e)| s <= best.start && best.start < e);
        out.push(FieldValue {
            name: spec.name.clone(),
            kind: spec.kind.clone(),
            value: best.value.clone(),
            raw: best.raw.clone(),
            start: best.start,
            end: best.end,
            passage_index,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, kind: FieldKind) -> FieldSpec {
        FieldSpec {
            name: name.into(),
            kind,
        }
    }

    #[test]
    fn finds_typed_values_near_terms() {
        let text = "Unrelated: 99 apples on 2001-01-01.\n\nThe ACME Corp annual revenue reached $1.2 billion in 2023, up 12.5% from the year before. The report was filed on March 3, 2024 with 1,234 pages.";
        let f = find_fields(
            text,
            "ACME revenue",
            &[
                spec("revenue", FieldKind::Money),
                spec("growth", FieldKind::Percent),
                spec("filed", FieldKind::Date),
                spec("pages", FieldKind::Pattern(r"([\d,]+) pages".into())),
            ],
        );
        assert_eq!(f.len(), 4);
        assert_eq!(f[0].value, "USD 1200000000");
        assert_eq!(f[1].value, "12.5");
        assert_eq!(f[2].value, "2024-03-03");
        assert_eq!(f[3].value, "1,234");
        for v in &f {
            assert_eq!(&text[v.start..v.end], v.raw);
            assert_eq!(
                v.passage_index,
                Some(0),
                "short paragraphs are grouped into one passage"
            );
        }
    }
}
