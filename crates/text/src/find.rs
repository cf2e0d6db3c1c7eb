//! Whole-word occurrences of a few terms in a long text, without reading the
//! text word by word.
//!
//! [`TermFinder`] gives exactly what normalizing every word of [`words`] and
//! looking it up among the terms gives, in text order, but the text is mostly
//! crossed by a SIMD substring search:
//!
//! - **ASCII stretches.** Terms that are ASCII letters and digits are looked
//!   for case-insensitively (Aho-Corasick, leftmost-longest). A match counts
//!   when an ASCII separator (or the text's end) is on both sides of it: a
//!   word of ASCII letters and digits is lower-cased to compare, so such a
//!   match is that word, and nothing else can be (a term has no separator in
//!   it, so no match runs over a word's edge).
//! - **Stretches with other characters.** A run of letters and digits that
//!   holds a byte outside ASCII (`Straße`, `ＶＡＴ`, `cafe\u{301}`, `l’Ombre`)
//!   is read word by word and normalized as [`normalize`] does, since NFKC may
//!   turn such a word into an ASCII term (`ＶＡＴ` is `vat`). Such a run is
//!   bounded by ASCII separators, where no word goes on, so reading it alone
//!   yields the very words [`words`] yields there. Matches of the ASCII
//!   search inside it are not counted twice.

use crate::{Normalizer, Word, normalize, words};
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::ops::ControlFlow;

/// Finds the whole-word occurrences of a set of normalized terms in texts.
///
/// ```
/// use sgw_text::TermFinder;
/// let finder = TermFinder::new(["rate", "vat"]);
/// let mut hits = Vec::new();
/// finder.for_each("The VAT-rate (ＶＡＴ) is not a rated rate.", |term, w| {
///     hits.push((finder.terms()[term].as_str(), w.as_str()));
///     std::ops::ControlFlow::Continue(())
/// });
/// assert_eq!(hits, [("vat", "VAT"), ("rate", "rate"), ("vat", "ＶＡＴ"), ("rate", "rate")]);
/// ```
#[derive(Debug, Clone)]
pub struct TermFinder {
    /// Normalized, sorted, unique.
    terms: Vec<String>,
    /// The ASCII-alphanumeric terms (pattern `i` is `terms[ascii_ids[i]]`).
    ascii: Option<AhoCorasick>,
    ascii_ids: Vec<usize>,
}

impl TermFinder {
    /// A finder of `terms`, each normalized ([`normalize`]); duplicates and
    /// empty terms are dropped. [`TermFinder::terms`] gives them sorted.
    pub fn new<I, S>(terms: I) -> TermFinder
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut terms: Vec<String> = terms
            .into_iter()
            .map(|t| normalize(t.as_ref()).into_owned())
            .filter(|t| !t.is_empty())
            .collect();
        terms.sort();
        terms.dedup();
        let ascii_ids: Vec<usize> = (0..terms.len())
            .filter(|&i| terms[i].bytes().all(|b| b.is_ascii_alphanumeric()))
            .collect();
        let ascii = (!ascii_ids.is_empty())
            .then(|| {
                AhoCorasickBuilder::new()
                    .ascii_case_insensitive(true)
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(ascii_ids.iter().map(|&i| terms[i].as_str()))
                    .ok()
            })
            .flatten();
        // Without the automaton (it cannot fail on a few short words, but
        // if it did) every term is found the slow way, which is still exact.
        let ascii_ids = if ascii.is_some() {
            ascii_ids
        } else {
            Vec::new()
        };
        TermFinder {
            terms,
            ascii,
            ascii_ids,
        }
    }

    /// The terms, normalized, sorted and unique: `f`'s term index points here.
    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    /// Whether there is no term at all (nothing can be found).
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Calls `f` with each occurrence in `text`, in text order: the index of
    /// the term in [`TermFinder::terms`] and the word as written. `f` stops
    /// the search by returning `Break`.
    pub fn for_each<'t>(
        &self,
        text: &'t str,
        mut f: impl FnMut(usize, Word<'t>) -> ControlFlow<()>,
    ) {
        if self.terms.is_empty() {
            return;
        }
        let bytes = text.as_bytes();
        let mut norm = Normalizer::default();
        // The next run holding a non-ASCII byte at or after `from`, read
        // lazily so both kinds of stretch come out in text order.
        let mut wide = next_wide_run(bytes, 0);
        let mut slow =
            |run: (usize, usize), f: &mut dyn FnMut(usize, Word<'t>) -> ControlFlow<()>| {
                for w in words(&text[run.0..run.1]) {
                    if let Ok(i) = self
                        .terms
                        .binary_search_by(|t| t.as_str().cmp(norm.normalize(w.as_str())))
                    {
                        let word = Word {
                            text,
                            start: run.0 + w.start,
                            end: run.0 + w.end,
                        };
                        f(i, word)?;
                    }
                }
                ControlFlow::Continue(())
            };
        if let Some(ac) = &self.ascii {
            for m in ac.find_iter(text) {
                // The wide runs before this match come first.
                while let Some(run) = wide.filter(|r| r.1 <= m.start()) {
                    if slow(run, &mut f).is_break() {
                        return;
                    }
                    wide = next_wide_run(bytes, run.1);
                }
                let (s, e) = (m.start(), m.end());
                if wide.is_some_and(|r| r.0 <= s) {
                    continue; // inside a wide run: read there
                }
                let before = s.checked_sub(1).map(|i| bytes[i]);
                let after = bytes.get(e).copied();
                if before.is_some_and(is_word_byte) || after.is_some_and(is_word_byte) {
                    continue; // part of a longer word
                }
                let word = Word {
                    text,
                    start: s,
                    end: e,
                };
                if f(self.ascii_ids[m.pattern().as_usize()], word).is_break() {
                    return;
                }
            }
        }
        while let Some(run) = wide {
            if slow(run, &mut f).is_break() {
                return;
            }
            wide = next_wide_run(bytes, run.1);
        }
    }
}

/// A byte that can be part of a word: an ASCII letter or digit, or any byte
/// of a non-ASCII character.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

/// The next run of word bytes ([`is_word_byte`]) at or after `from` that
/// holds a non-ASCII byte: (start, end), both on char boundaries (ASCII
/// separators or the text's ends).
fn next_wide_run(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    const CHUNK: usize = 64;
    let mut i = from;
    while i + CHUNK <= bytes.len() && bytes[i..i + CHUNK].is_ascii() {
        i += CHUNK;
    }
    let at = i + bytes.get(i..)?.iter().position(|&b| b >= 0x80)?;
    let start = bytes[..at]
        .iter()
        .rposition(|&b| !is_word_byte(b))
        .map_or(0, |p| p + 1)
        .max(from);
    let end = bytes[at..]
        .iter()
        .position(|&b| !is_word_byte(b))
        .map_or(bytes.len(), |p| at + p);
    Some((start, end))
}

/// The number of words of `text` ([`words`]`(text).count()`), counted
/// without decoding characters when the text is ASCII.
pub fn word_count(text: &str) -> usize {
    if !text.is_ascii() {
        return words(text).count();
    }
    let mut n = 0;
    let mut in_word = false;
    for &b in text.as_bytes() {
        let w = b.is_ascii_alphanumeric();
        n += usize::from(w & !in_word);
        in_word = w;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition: every word normalized and looked up.
    fn reference(terms: &[String], text: &str) -> Vec<(usize, usize, usize)> {
        words(text)
            .filter_map(|w| {
                terms
                    .binary_search(&normalize(w.as_str()).into_owned())
                    .ok()
                    .map(|i| (i, w.start, w.end))
            })
            .collect()
    }

    fn found(finder: &TermFinder, text: &str) -> Vec<(usize, usize, usize)> {
        let mut out = Vec::new();
        finder.for_each(text, |i, w| {
            out.push((i, w.start, w.end));
            ControlFlow::Continue(())
        });
        out
    }

    #[test]
    fn whole_words_only_in_both_kinds_of_stretch() {
        let f = TermFinder::new(["Rate", "vat", "straße", "café", "1", "rate"]);
        assert_eq!(f.terms(), ["1", "café", "rate", "straße", "vat"]);
        for text in [
            "The VAT-rate is 1 %, berate rates rate.",
            "Straße STRASSE straße ＶＡＴ café cafe\u{301} rate\u{301} \u{301}rate",
            "l’rate, “rate” é rate ①",
            "rate",
            "",
            "ratevat vatrate rate-vat",
        ] {
            assert_eq!(found(&f, text), reference(f.terms(), text), "{text:?}");
        }
        assert!(found(&TermFinder::new(Vec::<String>::new()), "rate").is_empty());
    }

    #[test]
    fn the_search_stops_when_told() {
        let f = TermFinder::new(["a", "é"]);
        let mut n = 0;
        f.for_each("a é a é", |_, _| {
            n += 1;
            if n == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(n, 3);
    }

    #[test]
    fn word_count_is_the_number_of_words() {
        for text in ["", "a", " a b  c.", "VAT-rate 20 %", "Straße ist café"] {
            assert_eq!(word_count(text), words(text).count(), "{text:?}");
        }
    }

    proptest! {
        #[test]
        fn finder_equals_reading_every_word(
            text in "([a-cA-C1 .\\-]|é|ß|ＡＢ|\u{301}|’|①){0,40}",
            terms in proptest::collection::vec("([a-c1]|é|ß|ab){1,3}", 0..4),
        ) {
            let f = TermFinder::new(&terms);
            prop_assert_eq!(found(&f, &text), reference(f.terms(), &text));
        }

        #[test]
        fn finder_equals_reading_every_word_on_any_text(text in "\\PC{0,48}", term in "\\PC{1,4}") {
            let f = TermFinder::new([term.as_str(), "a"]);
            prop_assert_eq!(found(&f, &text), reference(f.terms(), &text));
        }

        #[test]
        fn word_count_matches_words(text in "\\PC{0,64}") {
            prop_assert_eq!(word_count(&text), words(&text).count());
        }
    }
}
