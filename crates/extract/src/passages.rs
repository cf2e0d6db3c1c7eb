//! Passages: windows of the extracted text with byte offsets, ranked with BM25.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A span of a document's text. Invariant: `text == doc.text[start..end]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct Passage {
    /// Position in the document's passage list (document order).
    pub index: usize,
    /// Byte offsets into the document text.
    pub start: usize,
    pub end: usize,
    pub text: String,
    /// BM25 score against the query (0 when no query term occurs).
    pub score: f32,
}

/// Target passage size in bytes; paragraphs are grouped up to it and longer
/// ones split at sentence ends.
const TARGET: usize = 600;
const HARD_MAX: usize = 1200;

/// Lowercased word tokens (Unicode alphanumerics) with their byte spans.
pub fn tokenize(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            if start.is_none() {
                start = Some(i);
            }
        } else if let Some(s) = start.take() {
            out.push((text[s..i].to_lowercase(), s, i));
        }
    }
    if let Some(s) = start {
        out.push((text[s..].to_lowercase(), s, text.len()));
    }
    out
}

const STOP: &[&str] = &[
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "and", "or", "is", "are", "was", "were",
    "be", "by", "with", "what", "when", "where", "who", "which", "how", "does", "do", "did", "it",
    "its", "as", "from", "that", "this", "le", "la", "les", "de", "des", "du", "et", "der", "die",
    "das", "und", "why", "much", "many", "will", "can", "has", "have", "had", "should", "would",
    "could", "i", "my", "me", "you", "your", "we", "our", "there", "their", "about", "into",
    "than", "then", "if", "so", "not", "been", "any", "per",
];

/// Whether a lowercase word is a stop word (never a content term of a query).
pub(crate) fn is_stop(word: &str) -> bool {
    STOP.contains(&word)
}

/// Query terms worth matching (lowercased, stop words dropped unless nothing else remains).
pub fn query_terms(query: &str) -> Vec<String> {
    let all: Vec<String> = tokenize(query).into_iter().map(|t| t.0).collect();
    let mut kept: Vec<String> = all.iter().filter(|t| !is_stop(t)).cloned().collect();
    if kept.is_empty() {
        kept = all;
    }
    kept.sort();
    kept.dedup();
    kept
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Splits `text` into passage spans (start, end), trimmed, non-empty, in order.
pub fn split(text: &str) -> Vec<(usize, usize)> {
    // Paragraph spans: separated by blank lines (or single newlines in lists).
    let mut paras = Vec::new();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let s = pos;
        pos += line.len();
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        paras.push((s + lead, s + lead + t.len()));
    }
    // Cut paragraphs longer than HARD_MAX at sentence ends / spaces.
    let mut pieces = Vec::new();
    for (s, e) in paras {
        let mut a = s;
        while e - a > HARD_MAX {
            let window_end = floor_boundary(text, a + TARGET);
            let limit = floor_boundary(text, a + HARD_MAX);
            let slice = &text[window_end..limit];
            let cut = slice
                .find(". ")
                .map(|p| window_end + p + 1)
                .or_else(|| text[a..limit].rfind(' ').filter(|&p| p > 0).map(|p| a + p))
                .unwrap_or(limit);
            let cut = if cut <= a {
                floor_boundary(text, a + HARD_MAX).max(a + 1)
            } else {
                cut
            };
            let cut = floor_boundary(text, cut)
                .max(a + text[a..].chars().next().map_or(1, char::len_utf8));
            pieces.push((a, cut));
            a = cut;
            while a < e && text[a..].starts_with(char::is_whitespace) {
                a += text[a..].chars().next().map_or(1, char::len_utf8);
            }
        }
        if a < e {
            pieces.push((a, e));
        }
    }
    // Group short consecutive pieces up to TARGET.
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (s, e) in pieces {
        if let Some(last) = out.last_mut()
            && last.1 - last.0 < TARGET / 2
            && e - last.0 <= TARGET
        {
            last.1 = e;
            continue;
        }
        out.push((s, e));
    }
    out
}

/// Ranks the passages of `text` against `query` with BM25 (k1 = 1.2, b = 0.75),
/// passages as the collection. With an empty query, the first `max` passages.
pub fn rank(text: &str, query: &str, max: usize) -> Vec<Passage> {
    let spans = split(text);
    let terms = query_terms(query);
    let mut scored: Vec<Passage> = score_spans(text, &spans, &terms)
        .into_iter()
        .enumerate()
        .map(|(index, (start, end, score))| Passage {
            index,
            start,
            end,
            text: text[start..end].to_string(),
            score,
        })
        .collect();
    if !terms.is_empty() {
        scored.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.index.cmp(&b.index)));
    }
    scored.truncate(max);
    scored
}

/// BM25 scores for spans.
pub(crate) fn score_spans(
    text: &str,
    spans: &[(usize, usize)],
    terms: &[String],
) -> Vec<(usize, usize, f32)> {
    let docs: Vec<(HashMap<&str, u32>, u32)> = spans
        .iter()
        .map(|&(s, e)| {
            let mut tf: HashMap<&str, u32> = HashMap::new();
            let toks = tokenize(&text[s..e]);
            for (t, _, _) in &toks {
                if let Some(q) = terms.iter().find(|q| *q == t) {
                    *tf.entry(q.as_str()).or_insert(0) += 1;
                }
            }
            (tf, toks.len() as u32)
        })
        .collect();
    let n = docs.len().max(1) as f32;
    let avgdl = docs.iter().map(|d| d.1 as f32).sum::<f32>() / n;
    let idf: Vec<f32> = terms
        .iter()
        .map(|t| {
            let df = docs.iter().filter(|d| d.0.contains_key(t.as_str())).count() as f32;
            ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
        })
        .collect();
    let (k1, b) = (1.2f32, 0.75f32);
    spans
        .iter()
        .zip(&docs)
        .map(|(&(s, e), (tf, dl))| {
            let dl = *dl as f32;
            let mut score = 0.0;
            for (t, idf) in terms.iter().zip(&idf) {
                let f = tf.get(t.as_str()).copied().unwrap_or(0) as f32;
                if f > 0.0 {
                    score += idf * f * (k1 + 1.0) / (f + k1 * (1.0 - b + b * dl / avgdl.max(1.0)));
                }
            }
            (s, e, score)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_matching_passage_first() {
        let text = "Cats sleep a lot.\n\nThe Eiffel Tower is 330 metres tall and stands in Paris.\n\nDogs bark.";
        let p = rank(text, "how tall is the Eiffel tower", 2);
        assert!(p[0].text.contains("Eiffel"));
        for x in &p {
            assert_eq!(&text[x.start..x.end], x.text);
        }
    }

    #[test]
    fn long_paragraph_is_cut() {
        let text = "word ".repeat(1000) + "end. ";
        let spans = split(&text);
        assert!(spans.len() > 2);
        assert!(spans.iter().all(|&(s, e)| e - s <= HARD_MAX && s < e));
    }
}
