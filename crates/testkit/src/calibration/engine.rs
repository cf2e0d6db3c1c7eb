//! The world's search: a small keyword index used by the SearXNG instance
//! (over every indexed page) and by each official site's own `/search`
//! (over that site's pages). Like real engines it ranks by the query's terms
//! in the title and the text, and its snippet is the sentence that matches
//! best — also for pages that block readers today (they were crawled before).

use super::Page;
use crate::pages;
use crate::searxng::{self, SearxResult};

/// Words that, like engines do, the index ignores in a query on top of the
/// stop words ([`sgw_text::STOP_WORDS`]): time words that every page could
/// claim.
const TIME_WORDS: &[&str] = &["current", "currently", "latest", "new", "now", "today"];

/// One indexed page.
#[derive(Debug, Clone)]
pub struct Doc {
    url: String,
    title: String,
    text: String,
    date: Option<String>,
    title_terms: Vec<String>,
    text_terms: Vec<String>,
}

impl Doc {
    pub fn of(page: &Page, url: String) -> Doc {
        let text = page.plain_text();
        Doc {
            title_terms: terms(page.title),
            text_terms: terms(&text),
            url,
            title: page.title.to_string(),
            text,
            date: page.date.map(str::to_string),
        }
    }
}

/// The normalized words of `s` (see [`sgw_text`]), plurals folded.
fn terms(s: &str) -> Vec<String> {
    sgw_text::terms(s)
        .map(|w| {
            // crude plural folding, as engines stem
            match w.strip_suffix('s') {
                Some(stem) if stem.len() > 3 && !w.ends_with("ss") => stem.to_string(),
                _ => w.into_owned(),
            }
        })
        .collect()
}

fn query_terms(q: &str) -> Vec<String> {
    let mut out: Vec<String> = terms(q)
        .into_iter()
        .filter(|t| !sgw_text::is_stop_word(t) && !TIME_WORDS.contains(&t.as_str()))
        .collect();
    out.dedup();
    out
}

fn score(doc: &Doc, q: &[String]) -> f64 {
    let mut s = 0.0;
    let mut matched = 0;
    for t in q {
        let in_title = doc.title_terms.contains(t);
        let tf = doc.text_terms.iter().filter(|x| *x == t).count();
        if in_title || tf > 0 {
            matched += 1;
        }
        if in_title {
            s += 2.0;
        }
        s += (1.0 + tf as f64).ln();
    }
    if q.is_empty() || matched * 3 < q.len() {
        return 0.0;
    }
    s * matched as f64 / q.len() as f64
}

fn ranked<'a>(q: &str, docs: &'a [Doc], limit: usize) -> Vec<&'a Doc> {
    let q = query_terms(q);
    let mut hits: Vec<(f64, &Doc)> = docs
        .iter()
        .map(|d| (score(d, &q), d))
        .filter(|(s, _)| *s > 0.0)
        .collect();
    hits.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.url.cmp(&b.1.url)));
    hits.into_iter().take(limit).map(|(_, d)| d).collect()
}

/// The one or two sentences of `doc` that match the query best (in page
/// order), cut to ~220 characters, as engines build their snippets.
fn snippet(doc: &Doc, q: &str) -> String {
    let q = query_terms(q);
    let sentences: Vec<&str> = doc
        .text
        .split('\n')
        .flat_map(|l| l.split_inclusive(". "))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let hits = |s: &str| {
        let t = terms(s);
        q.iter().filter(|w| t.contains(w)).count()
    };
    let mut best: Vec<usize> = (0..sentences.len()).collect();
    best.sort_by_key(|&i| (std::cmp::Reverse(hits(sentences[i])), i));
    let mut chosen: Vec<usize> = best.into_iter().take(2).collect();
    chosen.sort_unstable();
    let joined = chosen
        .iter()
        .map(|&i| sentences[i])
        .collect::<Vec<_>>()
        .join(" … ");
    let mut out: String = joined.chars().take(220).collect();
    if out.len() < joined.len() {
        out.push('…');
    }
    out
}

const ENGINES: [&str; 3] = ["google", "bing", "duckduckgo"];

/// SearXNG's JSON answer for `q` over `docs`.
pub fn searx(q: &str, docs: &[Doc]) -> crate::Response {
    let results: Vec<SearxResult> = ranked(q, docs, 8)
        .into_iter()
        .enumerate()
        .map(|(i, d)| {
            let r = SearxResult::new(&d.url, &d.title, &snippet(d, q), ENGINES[i % ENGINES.len()]);
            match &d.date {
                Some(date) => r.published(&format!("{date}T00:00:00")),
                None => r,
            }
        })
        .collect();
    searxng::results(q, &results)
}

/// A site's own search results page for `q` over its `docs`.
pub fn site_search(site_name: &str, q: &str, docs: &[Doc]) -> String {
    let hits: Vec<(String, String, String)> = ranked(q, docs, 10)
        .into_iter()
        .map(|d| {
            let path = url::Url::parse(&d.url)
                .map(|u| u.path().to_string())
                .unwrap_or_else(|_| d.url.clone());
            (path, d.title.clone(), snippet(d, q))
        })
        .collect();
    let refs: Vec<(&str, &str, &str)> = hits
        .iter()
        .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
        .collect();
    pages::site_search_results(site_name, q, &refs)
}
