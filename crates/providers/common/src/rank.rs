//! A small relevance/recency ranking of candidate links (sitemap entries,
//! feed entries, search hits, API items) against the query.

use jiff::civil::Date;

/// Topic types whose answers go stale fast: newest first among equally relevant candidates.
pub const TIME_SENSITIVE_TOPICS: &[&str] = &["news", "product_or_price"];

/// Whether `topic_type` prefers recent candidates.
pub fn is_time_sensitive(topic_type: &str) -> bool {
    TIME_SENSITIVE_TOPICS.contains(&topic_type)
}

/// URL noise: words of links that tell no candidate apart, on top of the
/// stop words ([`sgw_text::STOP_WORDS`]).
const URL_WORDS: &[&str] = &["aspx", "htm", "html", "http", "https", "php", "www"];

/// Normalized words of `s` (see [`sgw_text`]), stop words and URL noise
/// dropped, consecutive repeats once.
pub fn terms(s: &str) -> Vec<String> {
    let mut out: Vec<String> = sgw_text::terms(s)
        .filter(|w| !sgw_text::is_stop_word(w) && !URL_WORDS.contains(&w.as_ref()))
        .map(|w| w.into_owned())
        .collect();
    out.dedup();
    out
}

/// One thing to rank: a title, a URL and a date, each optional but the URL.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub title: Option<String>,
    pub url: String,
    /// Any date `sgw_extract::normalize_date` understands (RFC 3339, `YYYY-MM-DD`, RFC 2822, …).
    pub date: Option<String>,
    /// Free text (a summary or snippet) also matched, at half weight.
    pub text: Option<String>,
}

impl Candidate {
    pub fn new(url: impl Into<String>) -> Candidate {
        Candidate {
            title: None,
            url: url.into(),
            date: None,
            text: None,
        }
    }

    pub fn with_title(mut self, title: Option<String>) -> Candidate {
        self.title = title;
        self
    }

    pub fn with_date(mut self, date: Option<String>) -> Candidate {
        self.date = date;
        self
    }

    pub fn with_text(mut self, text: Option<String>) -> Candidate {
        self.text = text;
        self
    }
}

/// A candidate with its scores.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub candidate: Candidate,
    /// Position in the input (ties keep input order).
    pub index: usize,
    /// Share of the query's terms found in title/URL (1.0 each) or text (0.5 each), in `[0, 1]`.
    pub relevance: f64,
    /// The candidate's date, when one could be read.
    pub date: Option<Date>,
}

/// The civil date of a date string (first `YYYY-MM-DD` after normalization).
pub fn parse_date(raw: &str) -> Option<Date> {
    let norm = sgw_extract::normalize_date(raw)?;
    norm.get(..10)?.parse::<Date>().ok()
}

/// Ranks `candidates` against `query`. Candidates matching no query term are
/// dropped (unless the query has no usable term, when all are kept).
///
/// Order: by relevance, best first; among equally relevant candidates the
/// newer first. When `time_sensitive`, relevance only splits candidates into
/// two groups — matching at least half of the query's terms, or fewer — and
/// within a group the newest comes first: the latest relevant page wins over
/// an old one with one more query word in its title. Undated candidates come
/// after dated ones of the same group.
pub fn rank(query: &str, candidates: Vec<Candidate>, time_sensitive: bool) -> Vec<Ranked> {
    let q = terms(query);
    let mut ranked: Vec<Ranked> = candidates
        .into_iter()
        .enumerate()
        .map(|(index, c)| {
            let strong: Vec<String> = terms(&format!(
                "{} {}",
                c.title.as_deref().unwrap_or(""),
                url_words(&c.url)
            ));
            let weak: Vec<String> = c.text.as_deref().map(terms).unwrap_or_default();
            let relevance = if q.is_empty() {
                0.0
            } else {
                q.iter()
                    .map(|t| {
                        if strong.contains(t) {
                            1.0
                        } else if weak.contains(t) {
                            0.5
                        } else {
                            0.0
                        }
                    })
                    .sum::<f64>()
                    / q.len() as f64
            };
            let date = c.date.as_deref().and_then(parse_date);
            Ranked {
                candidate: c,
                index,
                relevance,
                date,
            }
        })
        .filter(|r| q.is_empty() || r.relevance > 0.0)
        .collect();
    let step = |r: f64| -> i64 {
        if time_sensitive {
            i64::from(r >= 0.5)
        } else {
            (r * 1000.0).round() as i64
        }
    };
    ranked.sort_by(|a, b| {
        step(b.relevance)
            .cmp(&step(a.relevance))
            .then_with(|| b.date.cmp(&a.date))
            .then_with(|| b.relevance.total_cmp(&a.relevance))
            .then_with(|| a.index.cmp(&b.index))
    });
    ranked
}

/// The words of a URL's host-less part (path segments and query values),
/// so `/news/2026/rust-1-90-released` matches `rust released`.
fn url_words(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => format!("{} {}", u.path(), u.query().unwrap_or("")),
        Err(_) => url.to_string(),
    }
}
