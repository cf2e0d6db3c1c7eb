//! Whole-word occurrences of a few terms in a long text, without reading the
//! text word by word.
//!
//! [`TermFinder`] gives exactly what normalizing every word of [`words`] and
//! looking it up among the terms gives, in text order, but the text is mostly
//! crossed by a SIMD substring search:
//!
//! - **ASCII stretches.** A term of ASCII letters and digits is looked for
//!   by a SIMD substring search (`memchr::memmem`) in the text lower-cased
//!   (ASCII letters only, so every byte keeps its place), a block of the
//!   text at a time. A match counts when an ASCII separator (or the text's
//!   end) is on both sides of it: a word of ASCII letters and digits is lower-cased to compare, so
//!   such a match is that word, and nothing else can be (a term has no
//!   separator in it, so no match runs over a word's edge, and two terms
//!   never match the same word). Matches are collected block by block and
//!   handed out in text order, so a caller that stops early does not pay
//!   for the rest of a long text.
//! - **Stretches with other characters.** A run of letters and digits that
//!   holds a byte outside ASCII (`Straße`, `ＶＡＴ`, `cafe\u{301}`, `l’Ombre`)
//!   is read word by word and normalized as [`normalize`] does, since NFKC may
//!   turn such a word into an ASCII term (`ＶＡＴ` is `vat`). Such a run is
//!   bounded by ASCII separators, where no word goes on, so reading it alone
//!   yields the very words [`words`] yields there. Matches of the ASCII
//!   search inside it are not counted twice.

use crate::{Normalizer, Word, normalize, words};
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
#[derive(Debug)]
pub struct TermFinder {
    /// Normalized, sorted, unique.
    terms: Vec<String>,
    /// The ASCII-alphanumeric terms, each with the byte it is looked for by.
    ascii: Vec<AsciiTerm>,
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
        let ascii = (0..terms.len())
            .filter(|&i| terms[i].bytes().all(|b| b.is_ascii_alphanumeric()))
            .map(|id| AsciiTerm {
                id,
                len: terms[id].len(),
                finder: memchr::memmem::Finder::new(terms[id].as_bytes()).into_owned(),
            })
            .collect();
        TermFinder { terms, ascii }
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
        // The next run holding a non-ASCII byte, read lazily so both kinds
        // of stretch come out in text order.
        let mut wide = next_wide_run(bytes, 0);
        let mut hits: Vec<(usize, usize)> = Vec::new();
        let mut lower: Vec<u8> = Vec::new();
        let longest = self.ascii.iter().map(|t| t.len).max().unwrap_or(0);
        let mut block = 0;
        while block < bytes.len() {
            let end = block.saturating_add(BLOCK).min(bytes.len());
            hits.clear();
            if !self.ascii.is_empty() {
                // The block lower-cased (ASCII only: every byte keeps its
                // place), with room for a match that starts in it to end.
                let reach = end.saturating_add(longest).min(bytes.len());
                lower.clear();
                lower.extend_from_slice(&bytes[block..reach]);
                lower.make_ascii_lowercase();
                for (p, t) in self.ascii.iter().enumerate() {
                    for at in t.finder.find_iter(&lower) {
                        let start = block + at;
                        if start >= end {
                            break;
                        }
                        let end = start + t.len;
                        if start.checked_sub(1).is_none_or(|i| !is_word_byte(bytes[i]))
                            && bytes.get(end).is_none_or(|&b| !is_word_byte(b))
                        {
                            hits.push((start, p));
                        }
                    }
                }
            }
            hits.sort_unstable();
            for &(start, p) in &hits {
                // The wide runs before this match come first.
                while let Some(run) = wide.filter(|r| r.1 <= start) {
                    if self.read_words(text, run, &mut norm, &mut f).is_break() {
                        return;
                    }
                    wide = next_wide_run(bytes, run.1);
                }
                if wide.is_some_and(|r| r.0 <= start) {
                    continue; // inside a wide run: read there
                }
                let t = &self.ascii[p];
                let end = start + t.len;
                let word = Word {
                    text,
                    start,
                    end,
                    ascii: true,
                };
                if f(t.id, word).is_break() {
                    return;
                }
            }
            block = end;
        }
        while let Some(run) = wide {
            if self.read_words(text, run, &mut norm, &mut f).is_break() {
                return;
            }
            wide = next_wide_run(bytes, run.1);
        }
    }

    /// How often each term occurs in each of `spans` of `text`, one row of
    /// [`TermFinder::terms`]`.len()` counts per span in one flat vector:
    /// `counts[k * terms + i]` is the number of occurrences
    /// [`TermFinder::for_each`] finds of term `i` (of [`TermFinder::terms`])
    /// in `&text[spans[k].0..spans[k].1]` (one allocation however many
    /// spans). Spans are byte ranges on char boundaries, in ascending order.
    ///
    /// When every span is bounded by the text's ends or by bytes that cannot
    /// be part of a word (ASCII other than letters and digits), no word
    /// crosses a span's edge, and the text is searched once, its hits
    /// counted in the span that holds them: many short spans (a page's
    /// passages) then cost one search, not one search's set-up each. Other
    /// spans are searched one by one.
    pub fn counts_in_spans(&self, text: &str, spans: &[(usize, usize)]) -> Vec<u32> {
        let row = self.terms.len();
        let mut counts = vec![0u32; row * spans.len()];
        let bytes = text.as_bytes();
        let apart = |at: Option<&u8>| at.is_none_or(|&b| !is_word_byte(b));
        let separated = spans.windows(2).all(|w| w[0].1 <= w[1].0)
            && spans.iter().all(|&(start, end)| {
                start <= end
                    && end <= bytes.len()
                    && apart(start.checked_sub(1).and_then(|i| bytes.get(i)))
                    && apart(bytes.get(end))
            });
        if !separated {
            for (count, &(start, end)) in counts.chunks_exact_mut(row.max(1)).zip(spans) {
                self.for_each(&text[start..end], |i, _| {
                    count[i] += 1;
                    ControlFlow::Continue(())
                });
            }
            return counts;
        }
        let (Some(first), Some(last)) = (spans.first(), spans.last()) else {
            return counts;
        };
        let mut k = 0;
        self.for_each(&text[..last.1], |i, w| {
            if w.start < first.0 {
                return ControlFlow::Continue(());
            }
            // Hits come in text order: the span holding this one is at or
            // after the last one's.
            while k < spans.len() && spans[k].1 <= w.start {
                k += 1;
            }
            if let Some(&(start, end)) = spans.get(k)
                && start <= w.start
                && w.end <= end
            {
                counts[k * row + i] += 1;
            }
            ControlFlow::Continue(())
        });
        counts
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
                    ascii: w.ascii,
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

/// The ASCII matches are collected and sorted this many bytes of text at a
/// time.
const BLOCK: usize = 16 * 1024;

/// An ASCII term as the search looks for it: a substring searcher of its
/// text (lower case), run over the text lower-cased.
#[derive(Debug)]
struct AsciiTerm {
    /// Its index in [`TermFinder::terms`].
    id: usize,
    len: usize,
    finder: memchr::memmem::Finder<'static>,
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
    // A word starts where a letter or digit follows something else. In
    // blocks the compiler can vectorize (no state carried from byte to
    // byte): each byte is classified once, then each flag is compared with
    // the one before it. The same pass ORs the bytes together: a text with
    // a byte outside ASCII is counted word by word instead (a second pass
    // only for such a text).
    // Blocks of 192 bytes: no byte counter can overflow, and a block is a
    // whole number of the vectorized loops' steps (4 vectors of 16 bytes),
    // so only the bytes of the last block go through their scalar tails.
    const BLOCK: usize = 192;
    let mut high = 0u8;
    let mut starts = 0usize;
    // Whether the byte before the block is a letter or digit.
    let mut before = 0u8;
    let mut flags = [0u8; BLOCK];
    for block in text.as_bytes().chunks(BLOCK) {
        let flags = &mut flags[..block.len()];
        let mut or = 0u8;
        for (f, &b) in flags.iter_mut().zip(block) {
            *f = u8::from(is_ascii_alnum(b));
            or |= b;
        }
        let mut n = flags[0] & !before & 1;
        for (&b, &a) in flags.iter().zip(&flags[1..]) {
            n += a & !b & 1;
        }
        starts += usize::from(n);
        high |= or;
        before = flags[flags.len() - 1];
    }
    if high >= 0x80 {
        return words(text).count();
    }
    starts
}

/// [`u8::is_ascii_alphanumeric`] without branches.
fn is_ascii_alnum(b: u8) -> bool {
    ((b | 0x20).wrapping_sub(b'a') < 26) | (b.wrapping_sub(b'0') < 10)
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
        let mut hits = Vec::new();
        finder.for_each(text, |i, w| {
            hits.push((i, w.start, w.end));
            ControlFlow::Continue(())
        });
        hits
    }

    #[test]
    fn long_texts_find_the_same_across_blocks() {
        let f = TermFinder::new(["rate", "ＶＡＴ", "the"]);
        // 31 bytes a sentence: words fall on every side of the block edges.
        let text = "The VAT-rate, ＶＡＴ, rates rate. ".repeat(2000);
        assert!(text.len() > 3 * BLOCK);
        assert_eq!(found(&f, &text), reference(f.terms(), &text));
        assert_eq!(found(&f, &text).len(), 10_000);
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
    fn counts_in_spans_read_a_span_cut_inside_a_word_by_itself() {
        let f = TermFinder::new(["rate"]);
        // "rate" is a word of the first span (cut inside "ratex") but not of
        // the text: that span is searched by itself.
        assert_eq!(f.counts_in_spans("ratex rate", &[(0, 4), (6, 10)]), [1, 1]);
        // Spans bounded by separators: one search, hits counted where they are.
        let text = "Rate one.\n\nNo match here.\n\nrate, RATE and rates.";
        assert_eq!(
            f.counts_in_spans(text, &[(0, 9), (11, 25), (27, 48)]),
            [1, 0, 2]
        );
        // Rows of every term, in the terms' sorted order.
        let two = TermFinder::new(["rate", "one"]);
        assert_eq!(two.counts_in_spans(text, &[(0, 9), (27, 48)]), [1, 1, 0, 2]);
        assert!(f.counts_in_spans(text, &[]).is_empty());
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
        fn finder_equals_reading_every_word_across_blocks(
            piece in "([a-cA-C1 .\\-]|é|ＡＢ){1,24}",
            lead in 0usize..40,
            terms in proptest::collection::vec("([a-c1]|é|ab){1,3}", 1..4),
        ) {
            // Long enough to span several blocks, shifted so words fall on
            // their edges at different places.
            let text = format!("{}{}", "x".repeat(lead), piece.repeat(2 * BLOCK / piece.len() + 1));
            let f = TermFinder::new(&terms);
            prop_assert_eq!(found(&f, &text), reference(f.terms(), &text));
        }

        #[test]
        fn counts_in_spans_equal_searching_each_span(
            text in "([a-cA-C1 .\\-\n]|é|ß|ＡＢ|\u{301}|’|①){0,60}",
            terms in proptest::collection::vec("([a-c1]|é|ß|ab){1,3}", 0..4),
            cuts in proptest::collection::vec(0usize..64, 0..8),
            at_separators in any::<bool>(),
        ) {
            // Spans between sorted cut points on char boundaries: anywhere
            // (inside words too: each span is then searched by itself), or
            // only just after and at bytes that end words (the text
            // searched once), some empty, some with gaps between.
            let bytes = text.as_bytes();
            let ends_word = |i: usize| i == bytes.len() || !is_word_byte(bytes[i]);
            let mut at: Vec<usize> = cuts
                .iter()
                .map(|&c| {
                    let mut c = c.min(text.len());
                    if at_separators {
                        while !ends_word(c) {
                            c += 1;
                        }
                    }
                    while !text.is_char_boundary(c) {
                        c -= 1;
                    }
                    c
                })
                .collect();
            at.sort_unstable();
            let spans: Vec<(usize, usize)> = at
                .chunks(2)
                .filter(|p| p.len() == 2)
                .map(|p| if at_separators { ((p[0] + 1).min(p[1]), p[1]) } else { (p[0], p[1]) })
                .collect();
            let f = TermFinder::new(&terms);
            let each: Vec<u32> = spans
                .iter()
                .flat_map(|&(a, b)| {
                    let mut count = vec![0u32; f.terms().len()];
                    for (i, _, _) in found(&f, &text[a..b]) {
                        count[i] += 1;
                    }
                    count
                })
                .collect();
            prop_assert_eq!(f.counts_in_spans(&text, &spans), each);
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
            // Up to 12 000 bytes: words cross the 192-byte blocks.
            let text = piece.repeat(times);
            prop_assert_eq!(word_count(&text), words(&text).count());
        }
    }
}
