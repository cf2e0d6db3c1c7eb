//! Typed answer fields: dates, numbers, money, percentages and regex patterns
//! found near the query's key terms, with the span and passage they came from.

use crate::passages::{query_terms, score_spans, split, tokenize};
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
    percent: Regex,
}

fn res() -> &'static Res {
    static R: OnceLock<Res> = OnceLock::new();
    R.get_or_init(|| Res {
        number: Regex::new(r"(?:^|[^\w.,])(-?\d{1,3}(?:[,\u{a0} ]\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\b").unwrap(),
        money: Regex::new(
            r"(?i)(?P<pre>US\$|C\$|A\$|\$|€|£|¥|USD|EUR|GBP|JPY|CHF|CAD|AUD)\s?(?P<num>\d{1,3}(?:[,\u{a0}]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(?P<mult>million|billion|trillion|thousand|bn|mn|m|k)\b)?|(?P<num2>\d{1,3}(?:[,\u{a0}]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(?P<mult2>million|billion|trillion|thousand))?\s?(?P<post>dollars|euros|pounds|yen|USD|EUR|GBP|JPY|CHF|€)",
        )
        .unwrap(),
        percent: Regex::new(r"(-?\d+(?:[.,]\d+)?)\s?(?:%|percent\b|per cent\b|pct\b)").unwrap(),
    })
}

fn currency(sym: &str) -> Option<&'static str> {
    Some(match sym.to_ascii_lowercase().as_str() {
        "$" | "us$" | "usd" | "dollars" => "USD",
        "c$" | "cad" => "CAD",
        "a$" | "aud" => "AUD",
        "€" | "eur" | "euros" => "EUR",
        "£" | "gbp" | "pounds" => "GBP",
        "¥" | "jpy" | "yen" => "JPY",
        "chf" => "CHF",
        _ => return None,
    })
}

fn plain_number(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ',' | ' ' | '\u{a0}'))
        .collect()
}

fn scale(num: &str, mult: Option<&str>) -> String {
    let factor: f64 = match mult.map(str::to_ascii_lowercase).as_deref() {
        Some("thousand" | "k") => 1e3,
        Some("million" | "m" | "mn") => 1e6,
        Some("billion" | "bn") => 1e9,
        Some("trillion") => 1e12,
        _ => return num.to_string(),
    };
    match num.parse::<f64>() {
        Ok(v) => {
            let r = v * factor;
            if r.fract() == 0.0 && r.abs() < 1e18 {
                format!("{}", r as i64)
            } else {
                format!("{r}")
            }
        }
        Err(_) => num.to_string(),
    }
}

/// Candidate matches of `kind` in `text[s..e]`: (value, start, end) with absolute offsets.
fn candidates(
    kind: &FieldKind,
    pattern: Option<&Regex>,
    text: &str,
    s: usize,
    e: usize,
) -> Vec<(String, usize, usize)> {
    let hay = &text[s..e];
    let r = res();
    match kind {
        FieldKind::Date => crate::date::find_dates(hay)
            .into_iter()
            .map(|(v, a, b)| (v, s + a, s + b))
            .collect(),
        FieldKind::Number => r
            .number
            .captures_iter(hay)
            .filter_map(|c| {
                let m = c.get(1)?;
                Some((plain_number(m.as_str()), s + m.start(), s + m.end()))
            })
            .collect(),
        FieldKind::Percent => r
            .percent
            .captures_iter(hay)
            .filter_map(|c| {
                let m0 = c.get(0)?;
                Some((c[1].replace(',', "."), s + m0.start(), s + m0.end()))
            })
            .collect(),
        FieldKind::Money => r
            .money
            .captures_iter(hay)
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
                Some((value, s + m0.start(), s + m0.end()))
            })
            .collect(),
        FieldKind::Pattern(_) => match pattern {
            Some(re) => re
                .captures_iter(hay)
                .filter_map(|c| {
                    let m = c.get(1).or_else(|| c.get(0))?;
                    (!m.as_str().is_empty())
                        .then(|| (m.as_str().to_string(), s + m.start(), s + m.end()))
                })
                .collect(),
            None => Vec::new(),
        },
    }
}

/// Byte distance between two offsets, plus a large penalty per sentence or
/// paragraph boundary between them (a value in the same sentence as the key
/// term wins over a nearer one in the previous sentence).
fn distance(text: &str, a: usize, b: usize) -> usize {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let between = &text[lo..hi];
    let boundaries = between.matches(". ").count()
        + between.matches('\n').count()
        + between.matches("; ").count();
    hi - lo + boundaries * 10_000
}

/// Finds one value per spec: in the best-ranked passages first, the candidate
/// closest (in bytes) to an occurrence of a query term.
pub fn find_fields(text: &str, query: &str, specs: &[FieldSpec]) -> Vec<FieldValue> {
    let spans = split(text);
    let terms = query_terms(query);
    let mut ranked: Vec<(usize, usize, usize, f32)> = score_spans(text, &spans, &terms)
        .into_iter()
        .enumerate()
        .map(|(i, (s, e, sc))| (i, s, e, sc))
        .collect();
    ranked.sort_by(|a, b| b.3.total_cmp(&a.3).then(a.0.cmp(&b.0)));
    let mut out = Vec::new();
    for spec in specs {
        let pattern = match &spec.kind {
            FieldKind::Pattern(p) => match Regex::new(p) {
                Ok(re) => Some(re),
                Err(e) => {
                    tracing::warn!(
                        "field {:?}: pattern {p:?} is not a valid regex: {e}",
                        spec.name
                    );
                    continue;
                }
            },
            _ => None,
        };
        for &(index, s, e, score) in &ranked {
            if score <= 0.0 && !terms.is_empty() {
                break;
            }
            let cands = candidates(&spec.kind, pattern.as_ref(), text, s, e);
            if cands.is_empty() {
                continue;
            }
            let hits: Vec<usize> = tokenize(&text[s..e])
                .into_iter()
                .filter(|t| terms.contains(&t.0))
                .map(|t| s + t.1)
                .collect();
            let best = cands
                .into_iter()
                .min_by_key(|c| {
                    hits.iter()
                        .map(|&h| distance(text, h, c.1))
                        .min()
                        .unwrap_or(0)
                })
                .expect("non-empty");
            out.push(FieldValue {
                name: spec.name.clone(),
                kind: spec.kind.clone(),
                value: best.0,
                raw: text[best.1..best.2].to_string(),
                start: best.1,
                end: best.2,
                passage_index: Some(index),
            });
            break;
        }
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
