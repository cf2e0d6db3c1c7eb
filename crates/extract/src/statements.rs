//! Checkable statements: the sentences of a text that state something a reader
//! can check (a number, a date, a percentage, a definition) and that speak to a
//! question. The rules are about sentence shape only, never about a vertical.
//!
//! * [`sentence_spans`] cuts a text into sentences with byte offsets: at line
//!   breaks, and at `.`, `!` or `?` with the same rules the field extractor uses
//!   (decimals, abbreviations and dotted dates do not split).
//! * [`checkable_statements`] ranks a text's passages against a question (BM25)
//!   and keeps, best first, the sentences of the matching passages that state a
//!   checkable fact and share a content word with the question. Each
//!   [`Statement`] is a verbatim span of the text.
//! * [`Statement::corroborates`] says whether two statements (from different
//!   texts) state the same thing.

use crate::candidates::split_sentences;
use crate::date::find_dates;
use crate::passages::{rank, tokenize};
use sgw_text::is_stop_word as is_stop;
use std::borrow::Cow;
use std::collections::HashSet;

/// A statement is a whole sentence of at least this many bytes …
pub const STATEMENT_MIN_BYTES: usize = 20;
/// … and at most this many.
pub const STATEMENT_MAX_BYTES: usize = 500;

/// Cues of a definition (matched lowercased, between spaces).
const DEFINITION_CUES: &[&str] = &[
    " is a ",
    " is an ",
    " is the ",
    " are the ",
    " means ",
    " refers to ",
    " is defined as ",
    " are defined as ",
    " consists of ",
    " stands for ",
];

/// Sentence spans of `text[start..end]` as byte offsets into `text`, trimmed,
/// non-empty, in order. A line break always ends a sentence.
///
/// # Panics
/// When `start..end` is not a range of char boundaries of `text`.
pub fn sentence_spans(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = start;
    for line in text[start..end].split_inclusive('\n') {
        let line_start = pos;
        pos += line.len();
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        split_sentences(trimmed, line_start + lead, &mut out);
    }
    out
}

/// The content words of `text`: lowercased tokens of three characters or more
/// that are not stop words (the passage ranker's list).
pub fn content_terms(text: &str) -> HashSet<String> {
    sgw_text::terms(text)
        .filter(|t| t.chars().count() >= 3 && !is_stop(t))
        .map(Cow::into_owned)
        .collect()
}

/// The checkable facts one sentence states.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckableFacts {
    /// Dates (normalized) and tokens with a digit (numbers, percentages, years):
    /// their spellings, so two sentences stating the same value can be matched.
    pub values: HashSet<String>,
    /// Whether the sentence reads as a definition (`X is a …`, `X means …`).
    pub definition: bool,
}

impl CheckableFacts {
    /// The facts `sentence` states.
    pub fn of(sentence: &str) -> CheckableFacts {
        let mut values: HashSet<String> = find_dates(sentence).into_iter().map(|d| d.0).collect();
        for (token, _, _) in tokenize(sentence) {
            if token.chars().any(|c| c.is_ascii_digit()) {
                values.insert(token.into_owned());
            }
        }
        let lower = format!(" {} ", sentence.to_lowercase());
        let definition = DEFINITION_CUES.iter().any(|cue| lower.contains(cue));
        CheckableFacts { values, definition }
    }

    /// Whether there is anything to check.
    pub fn is_checkable(&self) -> bool {
        !self.values.is_empty() || self.definition
    }
}

/// One sentence of a text that states a checkable fact matching a question.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// Byte offsets of the sentence in the text (verbatim, trimmed).
    pub start: usize,
    pub end: usize,
    /// How well it answers the question: twice the share of the question's
    /// content words it contains, plus its passage's score relative to the best.
    pub score: f32,
    pub facts: CheckableFacts,
    /// Its content words.
    pub terms: HashSet<String>,
}

impl Statement {
    /// Whether `self` states the same thing as `other`: a common value (number,
    /// date, percentage), or at least half of the smaller one's content words.
    /// Statements of the same text are the caller's to exclude.
    pub fn corroborates(&self, other: &Statement) -> bool {
        if self
            .facts
            .values
            .intersection(&other.facts.values)
            .next()
            .is_some()
        {
            return true;
        }
        let shared = self.terms.intersection(&other.terms).count();
        let smaller = self.terms.len().min(other.terms.len()).max(1);
        shared * 2 >= smaller
    }
}

/// The checkable statements of `text` that speak to `question`, best first
/// (ties in text order), from its `passages` best BM25 passages.
pub fn checkable_statements(text: &str, question: &str, passages: usize) -> Vec<Statement> {
    let question_terms = content_terms(question);
    let ranked = rank(text, question, passages);
    let top = ranked
        .first()
        .map(|p| p.score)
        .unwrap_or(0.0)
        .max(f32::EPSILON);
    let mut out: Vec<Statement> = Vec::new();
    for passage in ranked.iter().filter(|p| p.score > 0.0) {
        for (start, end) in sentence_spans(text, passage.start, passage.end) {
            let sentence = &text[start..end];
            if !(STATEMENT_MIN_BYTES..=STATEMENT_MAX_BYTES).contains(&sentence.len()) {
                continue;
            }
            let facts = CheckableFacts::of(sentence);
            let terms = content_terms(sentence);
            let overlap = terms.intersection(&question_terms).count();
            if !facts.is_checkable() || overlap == 0 {
                continue;
            }
            let coverage = overlap as f32 / question_terms.len().max(1) as f32;
            out.push(Statement {
                start,
                end,
                score: 2.0 * coverage + passage.score / top,
                facts,
                terms,
            });
        }
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.start.cmp(&b.start)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_keep_decimals_abbreviations_and_offsets() {
        let text = "Intro line\nThe rate is 4.5% since 1 March 2026. It is reviewed e.g. monthly. Next one?";
        let spans = sentence_spans(text, 0, text.len());
        let got: Vec<&str> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(
            got,
            [
                "Intro line",
                "The rate is 4.5% since 1 March 2026.",
                "It is reviewed e.g. monthly.",
                "Next one?"
            ]
        );
        // A sub-range: offsets stay offsets into the whole text.
        let from = text.find("It is").unwrap();
        let spans = sentence_spans(text, from, text.len());
        assert_eq!(
            &text[spans[0].0..spans[0].1],
            "It is reviewed e.g. monthly."
        );
    }

    #[test]
    fn facts_are_values_and_definitions() {
        let f = CheckableFacts::of("The policy rate is 4.50% from 1 March 2026.");
        assert!(f.values.contains("4") && f.values.contains("2026"), "{f:?}");
        assert!(f.is_checkable());
        let d = CheckableFacts::of("A ULID is a sortable identifier.");
        assert!(d.definition && d.is_checkable());
        assert!(!CheckableFacts::of("The committee meets in the capital.").is_checkable());
    }

    #[test]
    fn statements_are_checkable_on_topic_and_verbatim() {
        let text = "Policy interest rate\n\nThe policy interest rate is 4.50% from 1 March 2026. \
            The committee meets in the capital.\n\nGardening: water 2 times a week.";
        let got = checkable_statements(text, "What is the policy interest rate?", 4);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(
            &text[got[0].start..got[0].end],
            "The policy interest rate is 4.50% from 1 March 2026."
        );
        let other = checkable_statements(
            "The central bank set the policy interest rate at 4.50% on Friday.",
            "policy interest rate",
            4,
        );
        assert!(other[0].corroborates(&got[0]));
    }

    /// Random texts (multi-byte letters, digits, sentence ends, line breaks):
    /// no panic, every statement a span of char boundaries within bounds.
    #[test]
    fn arbitrary_texts_never_panic() {
        for (round, text) in sgw_testkit::hostile::random_texts(300)
            .into_iter()
            .enumerate()
        {
            for (s, e) in sentence_spans(&text, 0, text.len()) {
                assert!(s < e && e <= text.len(), "round {round}");
                assert!(text.is_char_boundary(s) && text.is_char_boundary(e));
            }
            for st in checkable_statements(&text, "what is the policy rate 2026", 4) {
                assert!(!text[st.start..st.end].trim().is_empty(), "round {round}");
            }
        }
    }
}
