//! Evidence: what a provider hands back for one source it read.

use crate::SourceTier;
use serde::{Deserialize, Serialize};
use url::Url;

/// A verbatim span of [`Evidence::text`]: `text[start..end] == passage.text`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Passage {
    /// Byte offset of the first byte in the evidence text.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
    /// The span itself.
    pub text: String,
    /// Relevance to the query (higher is better; scale is the ranker's).
    pub score: f64,
}

impl Passage {
    /// Builds a passage from offsets into `text`; `None` when the offsets are
    /// out of range or not on character boundaries.
    pub fn from_span(text: &str, start: usize, end: usize, score: f64) -> Option<Passage> {
        let span = text.get(start..end)?;
        Some(Passage {
            start,
            end,
            text: span.to_string(),
            score,
        })
    }
}

/// HTTP validators kept for conditional revalidation (ETag / Last-Modified).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpValidators {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl HttpValidators {
    pub fn is_empty(&self) -> bool {
        self.etag.is_none() && self.last_modified.is_none()
    }
}

/// Document metadata as extracted (all optional).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EvidenceMetadata {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical_url: Option<String>,
    /// For archived copies: the date the snapshot was taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot_at: Option<String>,
}

/// One source a provider read, with everything the orchestrator needs to
/// classify, score, store and cite it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// The URL that was asked for.
    pub url: Url,
    /// The URL after redirects, when different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_url: Option<Url>,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    /// RFC 3339 timestamp or `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_at: Option<String>,
    /// The extracted main text (passages point into it).
    pub text: String,
    /// Passages ranked against the query, best first.
    #[serde(default)]
    pub passages: Vec<Passage>,
    #[serde(default)]
    pub metadata: EvidenceMetadata,
    /// The provider's tier hint. The orchestrator decides the final tier
    /// (registry → rules → this hint) and never upgrades user evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier_hint: Option<SourceTier>,
    /// True when only a search-engine snippet was seen, not the page: such a
    /// lead is never more than GENERAL_WEB.
    #[serde(default)]
    pub snippet_only: bool,
    /// For a snippet: the page the engine's text is about. The snippet is the
    /// engine's evidence (`url` is the engine's endpoint); the page was not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<Url>,
    /// blake3 of the normalized text (identical content counts once).
    pub content_hash: String,
    /// How the text was obtained (`html`, `feed`, `pdf`, `json-api`, `snippet`, `cache`, …).
    pub extraction_method: String,
    #[serde(default)]
    pub validators: HttpValidators,
    /// Set when the evidence already lives in the store (cache hits, human intake).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_id: Option<String>,
    /// True when this evidence was read back from the store (the evidence
    /// cache): the orchestrator does not persist it again. Providers that
    /// read new content leave it `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stored: bool,
    /// True when the body was cut at a cap (SEARCH_RESULT_TRUNCATED applies).
    #[serde(default)]
    pub truncated: bool,
    /// Typed answer fields found in the text (filled by the provider or the orchestrator).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FoundField>,
}

/// A typed field value read from an evidence text: `text[start..end] == quote`.
///
/// An evidence text may hold several candidates for one field; they are listed
/// best first, and [`FoundField::score`] says how well each fits the question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FoundField {
    /// The requested field's name.
    pub name: String,
    /// The normalized value (`2026-03-01`, `1250.00 EUR`, `4.5%`, …): values compare equal when they mean the same.
    pub value: String,
    /// The verbatim span it was read from.
    pub quote: String,
    pub start: usize,
    pub end: usize,
    /// How well this candidate fits the question, in `[0, 1]` (qualifiers, units,
    /// validity at `as_of`, distance to the question's content terms). Candidates
    /// of one field in one text are comparable; `1.0` when the finder does not score.
    #[serde(default = "full_score")]
    pub score: f64,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn full_score() -> f64 {
    1.0
}

impl Evidence {
    /// Evidence with the required fields; the rest defaulted.
    pub fn new(
        url: Url,
        title: impl Into<String>,
        text: impl Into<String>,
        method: impl Into<String>,
    ) -> Evidence {
        let text = text.into();
        Evidence {
            content_hash: content_hash(&text),
            url,
            final_url: None,
            title: title.into(),
            publisher: None,
            published_at: None,
            text,
            passages: Vec::new(),
            metadata: EvidenceMetadata::default(),
            tier_hint: None,
            snippet_only: false,
            about: None,
            extraction_method: method.into(),
            validators: HttpValidators::default(),
            evidence_id: None,
            stored: false,
            truncated: false,
            fields: Vec::new(),
        }
    }

    /// The URL whose host decides the tier: the final URL after redirects.
    pub fn effective_url(&self) -> &Url {
        self.final_url.as_ref().unwrap_or(&self.url)
    }
}

/// blake3 (hex) of the text with whitespace runs collapsed, so the same
/// content served with different layout hashes the same: the words of
/// `text.split_whitespace()` joined by single spaces.
///
/// One pass over the bytes: the stretches between white space go through a
/// 64 KiB buffer whole (the hasher sees large blocks), single spaces
/// between words are copied with them (layout that is already collapsed is
/// not split up), and a character is only decoded where a byte could start
/// non-ASCII white space.
pub fn content_hash(text: &str) -> String {
    const BLOCK: usize = 64 * 1024;
    let bytes = text.as_bytes();
    let mut hasher = blake3::Hasher::new();
    let mut buf: Vec<u8> = Vec::with_capacity(BLOCK.min(text.len()) + 1);
    let mut push = |piece: &[u8], buf: &mut Vec<u8>| {
        if buf.len() + piece.len() > BLOCK {
            hasher.update(buf);
            buf.clear();
        }
        if piece.len() > BLOCK {
            hasher.update(piece);
        } else {
            buf.extend_from_slice(piece);
        }
    };
    let (mut i, mut first) = (0, true);
    // Where a block last failed `skip_plain`'s test: bytes before it are
    // read one by one (dense white space or non-ASCII text would otherwise
    // pay for the test at every word).
    let mut slow_until = 0;
    while i < bytes.len() {
        // Skip white space, then take the word up to the next.
        let skip = whitespace_len(text, i);
        if skip > 0 {
            i += skip;
            continue;
        }
        // The run goes on over bytes that cannot start white space, and
        // over single spaces between such bytes (they are kept as they are).
        let start = i;
        loop {
            i = skip_plain(bytes, i, &mut slow_until);
            match bytes.get(i) {
                None => break,
                Some(b' ')
                    if bytes
                        .get(i + 1)
                        .is_some_and(|&b| !MAY_START_SPACE[usize::from(b)]) =>
                {
                    i += 1
                }
                Some(&lead) if whitespace_len(text, i) == 0 => i += utf8_len(lead),
                Some(_) => break,
            }
        }
        if !first {
            push(b" ", &mut buf);
        }
        first = false;
        push(&bytes[start..i], &mut buf);
    }
    hasher.update(&buf);
    hasher.finalize().to_hex().to_string()
}

/// The length of the white-space character at byte `i` (a char boundary) of
/// `text`, 0 when it is not white space ([`char::is_whitespace`]). Only lead
/// bytes 0xC2, 0xE1, 0xE2 and 0xE3 can start a non-ASCII one.
fn whitespace_len(text: &str, i: usize) -> usize {
    match text.as_bytes()[i] {
        b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' => 1,
        0xC2 | 0xE1 | 0xE2 | 0xE3 => text[i..]
            .chars()
            .next()
            .filter(|c| c.is_whitespace())
            .map_or(0, char::len_utf8),
        _ => 0,
    }
}

/// The bytes that can start a white-space character: ASCII white space and
/// the lead bytes of the non-ASCII ones (see [`whitespace_len`]).
/// The end of the stretch from `i` on that holds no byte that may start
/// white space, except single spaces between bytes that cannot: 16 bytes
/// at a time while a block is all printable ASCII and such spaces (a test
/// the compiler vectorizes), then byte by byte up to the next byte that may
/// start white space. Before `*slow_until`, byte by byte only; a block that
/// fails the test moves it past that block.
fn skip_plain(bytes: &[u8], mut i: usize, slow_until: &mut usize) -> usize {
    // Printable ASCII but the space: bytes that never start white space.
    let plain = |b: u8| b.wrapping_sub(0x21) < 0x5F;
    if i >= *slow_until {
        while let Some(w) = bytes.get(i..i + 17) {
            let all_plain = (0..16).fold(true, |ok, j| {
                ok & (plain(w[j]) | ((w[j] == b' ') & plain(w[j + 1])))
            });
            if !all_plain {
                *slow_until = i + 16;
                break;
            }
            i += 16;
        }
    }
    while i < bytes.len() && !MAY_START_SPACE[usize::from(bytes[i])] {
        i += 1;
    }
    i
}

static MAY_START_SPACE: [bool; 256] = {
    let mut table = [false; 256];
    let starts = [
        b' ', b'\t', b'\n', b'\x0b', b'\x0c', b'\r', 0xC2, 0xE1, 0xE2, 0xE3,
    ];
    let mut k = 0;
    while k < starts.len() {
        table[starts[k] as usize] = true;
        k += 1;
    }
    table
};

/// The byte length of the UTF-8 sequence a lead byte starts.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_hash_ignores_layout() {
        assert_eq!(content_hash("a  b\n c"), content_hash("a b c"));
        assert_ne!(content_hash("a b c"), content_hash("a b d"));
    }

    #[test]
    fn content_hash_is_the_hash_of_the_collapsed_text_across_blocks() {
        // Words straddling the 64 KiB buffer, and one word larger than it.
        let long = "x".repeat(70_000);
        let text = format!("{}\n\t{long}  tail", "word ".repeat(20_000));
        let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            content_hash(&text),
            blake3::hash(collapsed.as_bytes()).to_hex().to_string()
        );
        assert_eq!(content_hash(""), blake3::hash(b"").to_hex().to_string());
    }

    proptest::proptest! {
        #[test]
        fn content_hash_is_the_hash_of_the_words_joined_by_spaces(
            text in "([a-z\u{e9}\u{4e2d} \t\n\r\u{b}\u{c}]|\u{85}|\u{a0}|\u{1680}|\u{2003}|\u{2028}|\u{202f}|\u{3000}|\u{2010}|\u{e1}|\u{a9}|\u{3001})*|\\PC*",
        ) {
            let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
            proptest::prop_assert_eq!(
                content_hash(&text),
                blake3::hash(collapsed.as_bytes()).to_hex().to_string()
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn content_hash_of_long_texts_is_the_hash_of_the_words_joined_by_spaces(
            pieces in proptest::collection::vec(
                "[a-zA-Z0-9.,]{0,20}|[ ]{1,3}|[\t\n\r]|\u{a0}|\u{3000}|\u{e9}|\u{4e2d}",
                0..60,
            ),
        ) {
            // Mostly plain stretches longer than a 16-byte block, with white
            // space of every kind, and non-ASCII letters, at any offset.
            let text = pieces.concat();
            let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
            proptest::prop_assert_eq!(
                content_hash(&text),
                blake3::hash(collapsed.as_bytes()).to_hex().to_string()
            );
        }
    }

    #[test]
    fn passage_from_span_checks_bounds_and_boundaries() {
        let text = "héllo world";
        let p = Passage::from_span(text, 7, 12, 1.0).unwrap();
        assert_eq!(&text[p.start..p.end], p.text);
        assert!(
            Passage::from_span(text, 2, 3, 1.0).is_none(),
            "inside a multibyte char"
        );
        assert!(Passage::from_span(text, 5, 99, 1.0).is_none());
    }
}
