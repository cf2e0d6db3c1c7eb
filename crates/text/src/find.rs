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
//! - **The first 32 KiB** a finder reads are read run by run instead: an
//!   ASCII run of letters and digits is one word, looked up (lower-cased)
//!   when its length and first letter are those of a term, and a run with
//!   other bytes is read as above. Building the automaton costs tens of
//!   microseconds, more than reading that much text this way; a finder
//!   builds it once, when its texts add up to more.

use crate::{Normalizer, Word, normalize, words};
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::ops::ControlFlow;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

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
#[derive(Debug)]
pub struct TermFinder {
    /// Normalized, sorted, unique.
    terms: Vec<String>,
    /// The ASCII-alphanumeric terms (pattern `i` is `terms[ascii_ids[i]]`),
    /// searched for by an automaton in long texts, built on first use (if it
    /// could not be built, every text is scanned run by run: still exact).
    ascii: OnceLock<Option<AhoCorasick>>,
    ascii_ids: Vec<usize>,
    /// Bit `n` set when an ASCII term is `n` bytes long (lengths from 64
    /// up share bit 63), and the bytes an ASCII term starts with, either
    /// case: an ASCII word outside both is no term, without lower-casing it.
    ascii_lens: u64,
    ascii_starts: [bool; 128],
    /// Bytes read so far by run-by-run scans: past [`AUTOMATON_AFTER`], the
    /// automaton is built and searches every later text.
    scanned: AtomicUsize,
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
        let (mut ascii_lens, mut ascii_starts) = (0u64, [false; 128]);
        for &i in &ascii_ids {
            let t = terms[i].as_bytes();
            ascii_lens |= 1 << t.len().min(63);
            ascii_starts[usize::from(t[0])] = true;
            ascii_starts[usize::from(t[0].to_ascii_uppercase())] = true;
        }
        TermFinder {
            terms,
            ascii: OnceLock::new(),
            ascii_ids,
            ascii_lens,
            ascii_starts,
            scanned: AtomicUsize::new(0),
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
    pub fn for_each<'t>(&self, text: &'t str, f: impl FnMut(usize, Word<'t>) -> ControlFlow<()>) {
        if self.terms.is_empty() {
            return;
        }
        let read = self.scanned.fetch_add(text.len(), Ordering::Relaxed);
        match self.automaton(read.saturating_add(text.len())) {
            Some(ac) => self.search(ac, text, f),
            None => self.scan(text, f),
        }
    }

    /// The ASCII automaton, once `read` bytes repay building it.
    fn automaton(&self, read: usize) -> Option<&AhoCorasick> {
        if read < AUTOMATON_AFTER || self.ascii_ids.is_empty() {
            return None;
        }
        self.ascii
            .get_or_init(|| {
                AhoCorasickBuilder::new()
                    .ascii_case_insensitive(true)
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(self.ascii_ids.iter().map(|&i| self.terms[i].as_str()))
                    .ok()
            })
            .as_ref()
    }

    /// Reads `text` run of word bytes by run: an ASCII run is one word,
    /// lower-cased and looked up; a run with other bytes goes word by word.
    fn scan<'t>(&self, text: &'t str, mut f: impl FnMut(usize, Word<'t>) -> ControlFlow<()>) {
        let bytes = text.as_bytes();
        let mut norm = Normalizer::default();
        let mut i = 0;
        while i < bytes.len() {
            while i < bytes.len() && !is_word_byte(bytes[i]) {
                i += 1;
            }
            let (start, mut wide) = (i, false);
            while i < bytes.len() && is_word_byte(bytes[i]) {
                wide |= bytes[i] >= 0x80;
                i += 1;
            }
            let flow = if wide {
                self.read_words(text, (start, i), &mut norm, &mut f)
            } else if start < i
                && self.ascii_lens & (1 << (i - start).min(63)) != 0
                && self.ascii_starts[usize::from(bytes[start])]
            {
                match self.lookup(norm.normalize(&text[start..i])) {
                    Some(t) => f(
                        t,
                        Word {
                            text,
                            start,
                            end: i,
                        },
                    ),
                    None => ControlFlow::Continue(()),
                }
            } else {
                ControlFlow::Continue(())
            };
            if flow.is_break() {
                return;
            }
        }
    }

    /// The ASCII stretches by the automaton, the runs with other bytes word
    /// by word, in text order.
    fn search<'t>(
        &self,
        ac: &AhoCorasick,
        text: &'t str,
        mut f: impl FnMut(usize, Word<'t>) -> ControlFlow<()>,
    ) {
        let bytes = text.as_bytes();
        let mut norm = Normalizer::default();
        // The next run holding a non-ASCII byte at or after `from`, read
        // lazily so both kinds of stretch come out in text order.
        let mut wide = next_wide_run(bytes, 0);
        for m in ac.find_iter(text) {
            // The wide runs before this match come first.
            while let Some(run) = wide.filter(|r| r.1 <= m.start()) {
                if self.read_words(text, run, &mut norm, &mut f).is_break() {
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
        while let Some(run) = wide {
            if self.read_words(text, run, &mut norm, &mut f).is_break() {
                return;
            }
            wide = next_wide_run(bytes, run.1);
        }
    }

    /// The words of `text[run.0..run.1]`, each normalized and looked up.
    fn read_words<'t>(
        &self,
        text: &'t str,
        run: (usize, usize),
        norm: &mut Normalizer,
        f: &mut impl FnMut(usize, Word<'t>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for w in words(&text[run.0..run.1]) {
            if let Some(i) = self.lookup(norm.normalize(w.as_str())) {
                let word = Word {
                    text,
                    start: run.0 + w.start,
                    end: run.0 + w.end,
                };
                f(i, word)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn lookup(&self, normalized: &str) -> Option<usize> {
        self.terms
            .binary_search_by(|t| t.as_str().cmp(normalized))
            .ok()
    }
}

/// Until a finder has read this many bytes, texts are read run by run
/// ([`TermFinder::scan`]): building the automaton (tens of microseconds)
/// costs more than it saves on less.
const AUTOMATON_AFTER: usize = 32 * 1024;

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
    // A word starts where a letter or digit follows something else: each
    // byte is compared with the one before it, in blocks the compiler can
    // vectorize (no state is carried from byte to byte).
    let bytes = text.as_bytes();
    let Some(&first) = bytes.first() else {
        return 0;
    };
    let (before, at) = (&bytes[..bytes.len() - 1], &bytes[1..]);
    let starts = before
        .chunks(4096)
        .zip(at.chunks(4096))
        .map(|(b, a)| {
            b.iter()
                .zip(a)
                .map(|(&b, &a)| u32::from(is_ascii_alnum(a) & !is_ascii_alnum(b)))
                .sum::<u32>() as usize
        })
        .sum::<usize>();
    usize::from(is_ascii_alnum(first)) + starts
}

/// [`u8::is_ascii_alphanumeric`] without branches.
fn is_ascii_alnum(b: u8) -> bool {
    (b | 0x20).wrapping_sub(b'a') < 26 || b.wrapping_sub(b'0') < 10
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

    /// The hits of both ways of reading (the text is short, so `for_each`
    /// scans it), checked to be the same.
    fn found(finder: &TermFinder, text: &str) -> Vec<(usize, usize, usize)> {
        let mut scanned = Vec::new();
        finder.for_each(text, |i, w| {
            scanned.push((i, w.start, w.end));
            ControlFlow::Continue(())
        });
        let mut searched = Vec::new();
        let collect = |i, w: Word<'_>| {
            searched.push((i, w.start, w.end));
            ControlFlow::Continue(())
        };
        match finder.automaton(usize::MAX) {
            Some(ac) => finder.search(ac, text, collect),
            None => finder.scan(text, collect),
        }
        assert_eq!(scanned, searched, "scan vs automaton on {text:?}");
        scanned
    }

    #[test]
    fn long_texts_use_the_automaton_and_find_the_same() {
        let f = TermFinder::new(["rate", "ＶＡＴ"]);
        let text = "The VAT-rate, ＶＡＴ, rates rate. ".repeat(2000);
        assert!(text.len() >= AUTOMATON_AFTER);
        let mut n = 0;
        f.for_each(&text, |_, _| {
            n += 1;
            ControlFlow::Continue(())
        });
        assert!(
            f.ascii.get().is_some_and(Option::is_some),
            "automaton built"
        );
        assert_eq!(n, reference(f.terms(), &text).len());
        assert_eq!(n, 8000);
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

        #[test]
        fn word_count_matches_words_on_ascii_across_blocks(
            piece in "[a-zA-Z0-9 .\\-_\n@\\[`{]{1,40}",
            times in 1usize..300,
        ) {
            // Up to 12 000 bytes: words cross the 4096-byte blocks.
            let text = piece.repeat(times);
            prop_assert_eq!(word_count(&text), words(&text).count());
        }
    }
}
