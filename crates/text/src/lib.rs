#![doc = include_str!("../README.md")]

use std::borrow::Cow;
use std::ops::Range;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

mod find;
pub use find::{TermFinder, word_count};

/// Words too common to tell texts apart, lower case, sorted (binary search).
///
/// English articles, prepositions, conjunctions, auxiliaries, pronouns and
/// question words, plus the commonest French and German articles and
/// conjunctions. Never a content term of a query.
pub const STOP_WORDS: &[&str] = &[
    "a", "about", "an", "and", "any", "are", "as", "at", "be", "been", "by", "can", "could", "das",
    "de", "der", "des", "did", "die", "do", "does", "du", "et", "for", "from", "had", "has",
    "have", "how", "i", "if", "in", "into", "is", "it", "its", "la", "le", "les", "many", "me",
    "much", "my", "not", "of", "on", "or", "our", "per", "should", "so", "than", "that", "the",
    "their", "then", "there", "this", "to", "und", "was", "we", "were", "what", "when", "where",
    "which", "who", "why", "will", "with", "would", "you", "your",
];

/// English month names, January first (`MONTHS[m - 1]` is month `m`).
pub const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Whether a normalized (lower-case) word is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// One word of a text: its byte span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word<'a> {
    text: &'a str,
    /// Byte offset of the word's first character.
    pub start: usize,
    /// Byte offset just past the word.
    pub end: usize,
    /// Whether every character of the word is ASCII.
    ascii: bool,
}

impl<'a> Word<'a> {
    /// The word as written.
    pub fn as_str(&self) -> &'a str {
        &self.text[self.start..self.end]
    }

    /// Whether the word is all ASCII (known from splitting: no second pass).
    pub fn is_ascii(&self) -> bool {
        self.ascii
    }

    /// The byte span in the text.
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The normalized form (see [`normalize`]).
    pub fn normalized(&self) -> Cow<'a, str> {
        normalize(self.as_str())
    }
}

/// The words of `text`, in order (see the crate docs for what a word is).
pub fn words(text: &str) -> Words<'_> {
    Words { text, pos: 0 }
}

/// Iterator over the [`Word`]s of a text; see [`words`].
#[derive(Debug, Clone)]
pub struct Words<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Words<'a> {
    /// The character at byte `i` (a char boundary below the text's length).
    fn char_at(&self, i: usize) -> char {
        self.text[i..].chars().next().unwrap_or('\0')
    }
}

/// What a byte is to the word splitter: an ASCII separator, an ASCII letter
/// or digit, or a byte of a character outside ASCII (decoded to tell).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Separator,
    Alphanumeric,
    Wide,
}

static CLASS: [Class; 256] = {
    let mut table = [Class::Separator; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        if byte >= 0x80 {
            table[b] = Class::Wide;
        } else if byte.is_ascii_alphanumeric() {
            table[b] = Class::Alphanumeric;
        }
        b += 1;
    }
    table
};

impl<'a> Iterator for Words<'a> {
    type Item = Word<'a>;

    fn next(&mut self) -> Option<Word<'a>> {
        let bytes = self.text.as_bytes();
        let n = bytes.len();
        let mut i = self.pos;
        // Skip separators (combining marks outside a word separate too):
        // ASCII ones a table lookup each, others decoded.
        let start = loop {
            while i < n && CLASS[usize::from(bytes[i])] == Class::Separator {
                i += 1;
            }
            if i >= n {
                self.pos = n;
                return None;
            }
            if CLASS[usize::from(bytes[i])] == Class::Alphanumeric {
                break i;
            }
            let c = self.char_at(i);
            if c.is_alphanumeric() {
                break i;
            }
            i += c.len_utf8();
        };
        // Extend over letters, digits and the combining marks among them.
        let mut end = start;
        let mut ascii = true;
        loop {
            while end < n && CLASS[usize::from(bytes[end])] == Class::Alphanumeric {
                end += 1;
            }
            if end >= n || CLASS[usize::from(bytes[end])] == Class::Separator {
                break;
            }
            let c = self.char_at(end);
            if !(c.is_alphanumeric() || is_combining_mark(c)) {
                break;
            }
            ascii = false;
            end += c.len_utf8();
        }
        self.pos = end;
        Some(Word {
            text: self.text,
            start,
            end,
            ascii,
        })
    }
}

/// The normalized form of one word: ASCII lower case, borrowed when the word
/// has no capital; NFKC then Unicode lower case for a non-ASCII word.
pub fn normalize(word: &str) -> Cow<'_, str> {
    if word.is_ascii() {
        if word.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(word.to_ascii_lowercase())
        } else {
            Cow::Borrowed(word)
        }
    } else {
        Cow::Owned(normalize_non_ascii(word))
    }
}

fn normalize_non_ascii(word: &str) -> String {
    word.nfkc().collect::<String>().to_lowercase()
}

/// [`normalize`] into a buffer reused from word to word, for scans that only
/// compare words: no allocation for ASCII words once the buffer has grown.
#[derive(Debug, Default)]
pub struct Normalizer {
    buf: String,
}

impl Normalizer {
    /// The normalized form of `word`, valid until the next call.
    pub fn normalize<'b>(&'b mut self, word: &'b str) -> &'b str {
        if word.is_ascii() {
            if !word.bytes().any(|b| b.is_ascii_uppercase()) {
                return word;
            }
            self.buf.clear();
            self.buf
                .extend(word.bytes().map(|b| char::from(b.to_ascii_lowercase())));
        } else {
            self.buf = normalize_non_ascii(word);
        }
        &self.buf
    }
}

/// The normalized words of `text`, in order (stop words included).
pub fn terms(text: &str) -> impl Iterator<Item = Cow<'_, str>> {
    words(text).map(|w| w.normalized())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn raw(text: &str) -> Vec<&str> {
        words(text).map(|w| w.as_str()).collect()
    }

    #[test]
    fn stop_words_are_sorted_lower_case_and_unique() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOP_WORDS.iter().all(|w| normalize(w) == *w));
        assert!(is_stop_word("the") && is_stop_word("why") && !is_stop_word("rate"));
    }

    #[test]
    fn words_are_alphanumeric_runs_with_their_marks() {
        assert_eq!(
            raw("The VAT-rate is 20 %, (since 2024)."),
            ["The", "VAT", "rate", "is", "20", "since", "2024"]
        );
        assert_eq!(
            raw("cafe\u{301} \u{301}x Straße ①"),
            ["cafe\u{301}", "x", "Straße", "①"]
        );
        assert_eq!(raw(""), Vec::<&str>::new());
        assert_eq!(raw(" .,- "), Vec::<&str>::new());
        let spans: Vec<_> = words("ab  cd").map(|w| w.span()).collect();
        assert_eq!(spans, [0..2, 4..6]);
    }

    #[test]
    fn normalization_lowers_ascii_and_folds_unicode() {
        assert!(matches!(normalize("rate"), Cow::Borrowed("rate")));
        assert_eq!(normalize("VAT"), "vat");
        assert_eq!(normalize("ＶＡＴ"), "vat");
        assert_eq!(normalize("CAFE\u{301}"), "café");
        assert_eq!(normalize("STRAßE"), "straße");
        let mut n = Normalizer::default();
        assert_eq!(n.normalize("Rate"), "rate");
        assert_eq!(n.normalize("ＶＡＴ"), "vat");
        assert_eq!(n.normalize("plain"), "plain");
        assert_eq!(terms("The VAT").collect::<Vec<_>>(), ["the", "vat"]);
    }

    /// The definition, character by character: a word starts at a letter or
    /// digit and goes on over letters, digits and combining marks.
    fn reference(text: &str) -> Vec<(usize, usize, bool)> {
        let mut out: Vec<(usize, usize, bool)> = Vec::new();
        let mut open: Option<usize> = None;
        for (i, c) in text.char_indices() {
            let inside = c.is_alphanumeric() || (open.is_some() && is_combining_mark(c));
            match (open, inside) {
                (None, true) => open = Some(i),
                (Some(s), false) => {
                    out.push((s, i, text[s..i].is_ascii()));
                    open = None;
                }
                _ => {}
            }
        }
        if let Some(s) = open {
            out.push((s, text.len(), text[s..].is_ascii()));
        }
        out
    }

    fn spans(text: &str) -> Vec<(usize, usize, bool)> {
        words(text)
            .map(|w| (w.start, w.end, w.is_ascii()))
            .collect()
    }

    #[test]
    fn words_know_whether_they_are_ascii() {
        assert_eq!(
            spans("Rate 4.5 cafe\u{301} Straße ①x"),
            [
                (0, 4, true),
                (5, 6, true),
                (7, 8, true),
                (9, 15, false),
                (16, 23, false),
                (24, 28, false)
            ]
        );
    }

    proptest! {
        #[test]
        fn words_are_the_definition(text in "[a-zA-Z0-9 .,'\\-\u{301}\u{308}éßЖ①’\u{a0}\u{3000}]{0,48}") {
            prop_assert_eq!(spans(&text), reference(&text));
        }

        #[test]
        fn words_are_the_definition_in_any_text(text in "\\PC{0,64}") {
            prop_assert_eq!(spans(&text), reference(&text));
        }

        #[test]
        fn words_cover_exactly_the_alphanumerics(text in "\\PC{0,64}") {
            let mut last = 0;
            for w in words(&text) {
                prop_assert!(w.start >= last && w.start < w.end);
                prop_assert!(text[last..w.start].chars().all(|c| !c.is_alphanumeric()));
                prop_assert!(w.as_str().chars().next().is_some_and(char::is_alphanumeric));
                last = w.end;
            }
            prop_assert!(text[last..].chars().all(|c| !c.is_alphanumeric()));
        }

        #[test]
        fn normalizer_equals_normalize(word in "\\PC{0,16}") {
            let mut n = Normalizer::default();
            let expected = normalize(&word);
            prop_assert_eq!(n.normalize(&word), expected.as_ref());
        }
    }
}
