//! Passages: windows of the extracted text with byte offsets, ranked with BM25.

use serde::{Deserialize, Serialize};
use sgw_text::{TermFinder, is_stop_word};
use std::borrow::Cow;

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

/// Normalized words (see [`sgw_text`]) with their byte spans; a word
/// already in lower-case ASCII is borrowed from `text`.
pub fn tokenize(text: &str) -> Vec<(Cow<'_, str>, usize, usize)> {
    sgw_text::words(text)
        .map(|w| (w.normalized(), w.start, w.end))
        .collect()
}

/// Query terms worth matching (normalized, stop words dropped unless nothing else remains).
pub fn query_terms(query: &str) -> Vec<String> {
    let mut kept: Vec<String> = sgw_text::terms(query).map(Cow::into_owned).collect();
    if kept.iter().any(|t| !is_stop_word(t)) {
        kept.retain(|t| !is_stop_word(t));
    }
    kept.sort();
    kept.dedup();
    kept
}

/// The largest char boundary of `s` at or before `i`.
pub(crate) fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The lines of `text` with their byte offsets, each with its `\n` (as
/// `split_inclusive('\n')` gives them), found by a SIMD search.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut pos = 0;
    memchr::memchr_iter(b'\n', text.as_bytes())
        .map(|i| i + 1)
        .chain(std::iter::once(text.len()))
        .filter_map(move |end| {
            let start = pos;
            pos = end;
            (end > start).then(|| (start, &text[start..end]))
        })
}

/// Splits `text` into passage spans (start, end), trimmed, non-empty, in order.
///
/// Paragraphs are the trimmed non-blank lines; one longer than `HARD_MAX`
/// is cut at sentence ends (or spaces) into pieces; consecutive short pieces
/// are grouped up to `TARGET`. One pass, each piece grouped as it is cut (no
/// list of paragraphs or pieces is built first).
pub fn split(text: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(text.len() / (TARGET / 2) + 1);
    // Groups short consecutive pieces up to TARGET.
    let mut push = |s: usize, e: usize| {
        if let Some(last) = out.last_mut()
            && last.1 - last.0 < TARGET / 2
            && e - last.0 <= TARGET
        {
            last.1 = e;
        } else {
            out.push((s, e));
        }
    };
    for (s, line) in lines(text) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        cut_paragraph(text, s + lead, s + lead + t.len(), &mut push);
    }
    out
}

/// Hands `piece` the pieces of the paragraph `text[s..e]`: the whole of
/// it, or, when it is longer than `HARD_MAX`, cut at sentence ends (else
/// spaces) after `TARGET` bytes, white space between pieces left out.
fn cut_paragraph(text: &str, s: usize, e: usize, piece: &mut impl FnMut(usize, usize)) {
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
        let cut =
            floor_boundary(text, cut).max(a + text[a..].chars().next().map_or(1, char::len_utf8));
        piece(a, cut);
        a = cut;
        while a < e && text[a..].starts_with(char::is_whitespace) {
            a += text[a..].chars().next().map_or(1, char::len_utf8);
        }
    }
    if a < e {
        piece(a, e);
    }
}

/// Ranks the passages of `text` against `query` with BM25 (k1 = 1.2, b = 0.75),
/// passages as the collection. With an empty query, the first `max` passages.
pub fn rank(text: &str, query: &str, max: usize) -> Vec<Passage> {
    let spans = split(text);
    let terms = query_terms(query);
    let mut scored: Vec<(usize, (usize, usize, f32))> = score_spans(text, &spans, &terms)
        .into_iter()
        .enumerate()
        .collect();
    if !terms.is_empty() {
        scored.sort_by(|a, b| b.1.2.total_cmp(&a.1.2).then(a.0.cmp(&b.0)));
    }
    // Only the kept passages copy their text.
    scored.truncate(max);
    scored
        .into_iter()
        .map(|(index, (start, end, score))| Passage {
            index,
            start,
            end,
            text: text[start..end].to_string(),
            score,
        })
        .collect()
}

/// BM25 scores for spans; `terms` sorted and unique, as [`query_terms`] gives them.
pub(crate) fn score_spans(
    text: &str,
    spans: &[(usize, usize)],
    terms: &[String],
) -> Vec<(usize, usize, f32)> {
    // Per passage: how often each query term occurs (indexed like the finder's terms) and
    // its length in words. The terms are found by one substring search over
    // the passages (see `TermFinder::counts_in_spans`), the words counted
    // without normalizing them: no word is lower-cased or looked up one by one.
    let finder = TermFinder::new(terms);
    let n_terms = finder.terms().len();
    // Row `k` of `tf` (`n_terms` counts) is span `k`'s.
    let tf = finder.counts_in_spans(text, spans);
    let tf_of = |k: usize| &tf[k * n_terms..(k + 1) * n_terms];
    let lengths: Vec<u32> = spans
        .iter()
        .map(|&(s, e)| u32::try_from(sgw_text::word_count(&text[s..e])).unwrap_or(u32::MAX))
        .collect();
    let n = lengths.len().max(1) as f32;
    let avgdl = lengths.iter().map(|&l| l as f32).sum::<f32>() / n;
    let idf: Vec<f32> = (0..n_terms)
        .map(|i| {
            let df = (0..spans.len()).filter(|&k| tf_of(k)[i] > 0).count() as f32;
            ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
        })
        .collect();
    let (k1, b) = (1.2f32, 0.75f32);
    spans
        .iter()
        .zip(&lengths)
        .enumerate()
        .map(|(k, (&(s, e), &dl))| {
            let dl = dl as f32;
            let mut score = 0.0;
            for (&f, idf) in tf_of(k).iter().zip(&idf) {
                let f = f as f32;
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
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn lines_are_split_inclusive(text in "[a \n\r.é]{0,40}") {
            let mut pos = 0;
            let expected: Vec<(usize, &str)> = text
                .split_inclusive('\n')
                .map(|l| {
                    pos += l.len();
                    (pos - l.len(), l)
                })
                .collect();
            prop_assert_eq!(lines(&text).collect::<Vec<_>>(), expected);
        }
    }

    /// `split` as three passes over lists (paragraphs, pieces, groups):
    /// the fused pass must give the same spans (the cutting of one long
    /// paragraph is shared: it is the order and the grouping under test).
    fn split_in_passes(text: &str) -> Vec<(usize, usize)> {
        let mut paras = Vec::new();
        for (s, line) in lines(text) {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            let lead = line.len() - line.trim_start().len();
            paras.push((s + lead, s + lead + t.len()));
        }
        let mut pieces = Vec::new();
        for (s, e) in paras {
            cut_paragraph(text, s, e, &mut |a, b| pieces.push((a, b)));
        }
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

    proptest! {
        #[test]
        fn split_in_one_pass_equals_split_in_passes(
            text in "([a-z]{0,12}[ .\\n]{1,3}|é |\u{2003}|[a-z]{200,700}\\. ){0,60}",
        ) {
            prop_assert_eq!(split(&text), split_in_passes(&text));
        }
    }

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
