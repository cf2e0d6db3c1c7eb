//! What a caller asks for, and the cache key derived from it.

use crate::SourceTier;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use unicode_normalization::UnicodeNormalization;

/// The kind of a typed answer field.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "pattern")]
pub enum FieldKind {
    /// A calendar date, normalized to `YYYY-MM-DD`.
    Date,
    /// A plain number.
    Number,
    /// An amount with a currency.
    Money,
    /// A percentage.
    Percent,
    /// Text matched by a regular expression (first capture group if any).
    Text(String),
}

/// A requested typed answer field, written `NAME:KIND` on the command line
/// (`deadline:date`, `fee:money`, `code:text=[A-Z]{3}\d+`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FieldSpec {
    pub name: String,
    #[serde(flatten)]
    pub kind: FieldKind,
}

/// Why a `NAME:KIND` string is not a field spec.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad field spec `{spec}`: {reason} (expected NAME:KIND with KIND one of date, number, money, percent, text=REGEX)"
)]
pub struct FieldSpecError {
    pub spec: String,
    pub reason: &'static str,
}

impl FromStr for FieldSpec {
    type Err = FieldSpecError;
    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let err = |reason| FieldSpecError {
            spec: spec.to_string(),
            reason,
        };
        let (name, kind) = spec.split_once(':').ok_or_else(|| err("missing `:`"))?;
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            return Err(err("the name must be letters, digits, `_` or `-`"));
        }
        let kind = match kind.trim() {
            "date" => FieldKind::Date,
            "number" => FieldKind::Number,
            "money" => FieldKind::Money,
            "percent" => FieldKind::Percent,
            other => match other.strip_prefix("text=") {
                Some(pattern) if !pattern.is_empty() => FieldKind::Text(pattern.to_string()),
                _ => return Err(err("unknown kind")),
            },
        };
        Ok(FieldSpec {
            name: name.to_string(),
            kind,
        })
    }
}

impl fmt::Display for FieldSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            FieldKind::Date => write!(f, "{}:date", self.name),
            FieldKind::Number => write!(f, "{}:number", self.name),
            FieldKind::Money => write!(f, "{}:money", self.name),
            FieldKind::Percent => write!(f, "{}:percent", self.name),
            FieldKind::Text(p) => write!(f, "{}:text={p}", self.name),
        }
    }
}

/// Where the caller already knows to look.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hints {
    /// Domains to prefer (planning picks registry sources on these domains).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<String>,
    /// URLs to read directly (fetched by the direct adapter, tiered like any other).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub urls: Vec<String>,
}

/// One search request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchRequest {
    pub query: String,
    /// Topic type (`news`, `policy_or_law`, …); chosen by the policy's topic rules when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// Jurisdiction or scope (`eu`, `us-ca`, `rust-lang`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The date the answer must be true at (`YYYY-MM-DD`); `None` means "now".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<jiff::civil::Date>,
    /// Typed fields the answer should fill.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldSpec>,
    #[serde(default)]
    pub hints: Hints,
}

impl SearchRequest {
    pub fn new(query: impl Into<String>) -> SearchRequest {
        SearchRequest {
            query: query.into(),
            ..SearchRequest::default()
        }
    }
}

/// NFKC, lower case, whitespace collapsed to single spaces, trimmed.
///
/// Also applied to whole page texts, so it holds at most one copy besides its
/// output: ASCII text (NFKC leaves it unchanged) is lowered and collapsed in
/// one pass; other text is NFKC'd, lowered (`str::to_lowercase`, whose final
/// sigma rule needs the whole text) and collapsed.
pub fn normalize_query(query: &str) -> String {
    if query.is_ascii() {
        return collapse_whitespace(
            query.bytes().map(|b| b.to_ascii_lowercase() as char),
            query.len(),
        );
    }
    let lower = query.nfkc().collect::<String>().to_lowercase();
    collapse_whitespace(lower.chars(), lower.len())
}

/// `chars` with runs of whitespace as one space, none at either end.
fn collapse_whitespace(chars: impl Iterator<Item = char>, len: usize) -> String {
    let mut out = String::with_capacity(len);
    let mut space = false;
    for c in chars {
        if c.is_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// The evidence cache key, as the seed names its fields.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CacheKey {
    pub normalized_query: String,
    pub topic_type: String,
    /// `""` when the request has no scope.
    pub jurisdiction_or_scope: String,
    /// The as-of date, or `"latest"`.
    pub effective_date: String,
}

impl CacheKey {
    /// The key for a request whose topic has been decided.
    pub fn new(request: &SearchRequest, topic_type: &str) -> CacheKey {
        CacheKey {
            normalized_query: normalize_query(&request.query),
            topic_type: topic_type.to_string(),
            jurisdiction_or_scope: request
                .scope
                .as_deref()
                .map(normalize_query)
                .unwrap_or_default(),
            effective_date: request
                .as_of
                .map(|d| d.to_string())
                .unwrap_or_else(|| "latest".into()),
        }
    }
}

/// Prints `"query" topic=T scope=S date=D` (`scope=-` for none). The query is
/// always a JSON string; another field is JSON-quoted when it is empty or holds
/// whitespace, quotes, backslashes or `=` (a multi-word scope: `scope="new york"`),
/// so [`CacheKey::from_str`] reads back every key this prints.
impl fmt::Display for CacheKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scope = if self.jurisdiction_or_scope.is_empty() {
            "-".to_string()
        } else {
            key_field(&self.jurisdiction_or_scope)
        };
        write!(
            f,
            "{} topic={} scope={scope} date={}",
            json_quote(&self.normalized_query),
            key_field(&self.topic_type),
            key_field(&self.effective_date)
        )
    }
}

fn json_quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// A field as printed: bare when it reads back as itself, else JSON-quoted.
fn key_field(v: &str) -> String {
    let bare = !v.is_empty()
        && v != "-"
        && !v
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\\' | '='));
    if bare { v.to_string() } else { json_quote(v) }
}

/// Why a string is not a cache key as [`CacheKey`]'s `Display` prints it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheKeyParseError {
    /// The key does not start with the query as a JSON string.
    #[error(
        "a cache key starts with the query in double quotes (`\"query\" topic=… scope=… date=…`)"
    )]
    Query,
    /// A field is not `name=value` with a bare or JSON-quoted value.
    #[error("malformed cache key field near `{0}`")]
    Field(String),
    /// A field other than topic, scope and date.
    #[error("unknown cache key field `{0}` (expected topic, scope, date)")]
    Unknown(String),
    /// A required field is missing.
    #[error("the cache key has no `{0}=`")]
    Missing(&'static str),
}

/// Reads a JSON string at the start of `s`: the string and the rest.
fn leading_json_string(s: &str) -> Option<(String, &str)> {
    let mut stream = serde_json::Deserializer::from_str(s).into_iter::<String>();
    let value = stream.next()?.ok()?;
    Some((value, &s[stream.byte_offset()..]))
}

impl FromStr for CacheKey {
    type Err = CacheKeyParseError;

    fn from_str(s: &str) -> Result<CacheKey, CacheKeyParseError> {
        let s = s.trim();
        if !s.starts_with('"') {
            return Err(CacheKeyParseError::Query);
        }
        let (query, mut rest) = leading_json_string(s).ok_or(CacheKeyParseError::Query)?;
        let (mut topic, mut scope, mut date) = (None, None, None);
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let near = || CacheKeyParseError::Field(rest.chars().take(30).collect());
            let (name, after) = rest.split_once('=').ok_or_else(near)?;
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(near());
            }
            let (value, quoted, tail) = if after.starts_with('"') {
                let (v, tail) = leading_json_string(after).ok_or_else(near)?;
                (v, true, tail)
            } else {
                let end = after.find(char::is_whitespace).unwrap_or(after.len());
                (after[..end].to_string(), false, &after[end..])
            };
            if !tail.is_empty() && !tail.starts_with(char::is_whitespace) {
                return Err(near());
            }
            rest = tail;
            match name {
                "topic" => topic = Some(value),
                "scope" if !quoted && value == "-" => scope = Some(String::new()),
                "scope" => scope = Some(value),
                "date" => date = Some(value),
                other => return Err(CacheKeyParseError::Unknown(other.to_string())),
            }
        }
        Ok(CacheKey {
            normalized_query: query,
            topic_type: topic.ok_or(CacheKeyParseError::Missing("topic"))?,
            jurisdiction_or_scope: scope.ok_or(CacheKeyParseError::Missing("scope"))?,
            effective_date: date.ok_or(CacheKeyParseError::Missing("date"))?,
        })
    }
}

/// A `sources:` registry entry chosen for this request by planning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannedSource {
    /// The registry key.
    #[serde(default)]
    pub id: String,
    pub publisher: String,
    pub tier: SourceTier,
    /// Domains this publisher owns (subdomains included).
    #[serde(default)]
    pub domains: Vec<String>,
    /// Scopes this source is authoritative for (empty: any).
    #[serde(default)]
    pub scopes: Vec<String>,
    /// Topic types this source covers (empty: any).
    #[serde(default)]
    pub topics: Vec<String>,
    /// Pages to read directly; `{query}` is replaced by the URL-encoded query.
    #[serde(default)]
    pub entry_urls: Vec<String>,
    /// The site's own search, as a URL template with `{query}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_url: Option<String>,
    /// An OpenSearch description document (else discovered from the home page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opensearch_url: Option<String>,
    /// The site's sitemap.xml.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sitemap_url: Option<String>,
    /// RSS / Atom / JSON Feed URLs.
    #[serde(default)]
    pub feed_urls: Vec<String>,
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use unicode_normalization::UnicodeNormalization;

    proptest! {
        #[test]
        fn every_printed_cache_key_parses_back(
            query in ".*",
            topic in ".*",
            scope in ".*",
            date in ".*",
        ) {
            let key = CacheKey {
                normalized_query: query,
                topic_type: topic,
                jurisdiction_or_scope: scope,
                effective_date: date,
            };
            prop_assert_eq!(key.to_string().parse::<CacheKey>(), Ok(key));
        }
    }

    #[test]
    fn a_multi_word_scope_round_trips_and_garbage_is_refused() {
        let key = CacheKey {
            normalized_query: "central bank rate".into(),
            topic_type: "policy_or_law".into(),
            jurisdiction_or_scope: "new york".into(),
            effective_date: "latest".into(),
        };
        let printed = key.to_string();
        assert_eq!(
            printed,
            "\"central bank rate\" topic=policy_or_law scope=\"new york\" date=latest"
        );
        assert_eq!(printed.parse::<CacheKey>(), Ok(key));
        assert_eq!(
            "central bank rate".parse::<CacheKey>(),
            Err(CacheKeyParseError::Query)
        );
        assert_eq!(
            "\"q\" topic=news date=latest".parse::<CacheKey>(),
            Err(CacheKeyParseError::Missing("scope"))
        );
        assert_eq!(
            "\"q\" topic=news scope=- date=latest color=red".parse::<CacheKey>(),
            Err(CacheKeyParseError::Unknown("color".into()))
        );
    }

    use super::*;

    #[test]
    fn normalize_matches_nfkc_lowercase_split_join() {
        // The one-pass form gives what NFKC, `to_lowercase` and a
        // whitespace split + join give, final sigma and all.
        for q in [
            "",
            "   ",
            " a ",
            "ΟΔΟΣ ΟΔΟΣ\u{a0}x",
            "Ａ\u{2003}ß\tİstanbul\n\r",
            "ﬁle  Σ",
            "plain ASCII\x0bwith\x0cspaces",
        ] {
            let nfkc: String = q.nfkc().collect();
            let expected = nfkc
                .to_lowercase()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(super::normalize_query(q), expected, "{q:?}");
        }
    }

    proptest! {
        #[test]
        fn normalize_is_nfkc_lowercase_split_join(q in "\\PC{0,40}") {
            let nfkc: String = q.nfkc().collect();
            let expected = nfkc.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ");
            prop_assert_eq!(super::normalize_query(&q), expected);
        }
    }

    #[test]
    fn normalize_applies_nfkc_case_and_spaces() {
        assert_eq!(
            normalize_query("  Ｒｕｓｔ\tRelease   Date "),
            "rust release date"
        );
        assert_eq!(normalize_query("ﬁle"), "file");
    }

    #[test]
    fn cache_key_fields() {
        let mut r = SearchRequest::new("What  IS x");
        r.scope = Some(" EU ".into());
        r.as_of = Some(jiff::civil::date(2026, 1, 2));
        let k = CacheKey::new(&r, "news");
        assert_eq!(k.normalized_query, "what is x");
        assert_eq!(k.jurisdiction_or_scope, "eu");
        assert_eq!(k.effective_date, "2026-01-02");
        assert_eq!(
            CacheKey::new(&SearchRequest::new("x"), "default").effective_date,
            "latest"
        );
    }

    #[test]
    fn field_specs_parse_and_print() {
        for s in [
            "deadline:date",
            "n:number",
            "fee:money",
            "rate:percent",
            "code:text=[A-Z]{3}",
        ] {
            assert_eq!(s.parse::<FieldSpec>().unwrap().to_string(), s);
        }
        for bad in ["nocolon", ":date", "x:weird", "x:text=", "a b:date"] {
            assert!(bad.parse::<FieldSpec>().is_err(), "{bad}");
        }
    }
}
