//! Does a text answer the question? Coverage of the query's content terms.
//!
//! Content terms are the query's key terms without question words ("current",
//! "latest", "official", …). A term is covered when the title or text has the
//! same word or the same light stem (`rates` ~ `rate`, `licences` ~ `licence`,
//! `published` ~ `publish`). Numbers must appear as they are. Half the words
//! is not an answer: see [`Coverage::band`].

use crate::relevance::key_terms;
use sgw_text::Normalizer;
use std::collections::BTreeSet;

/// Words of a question that say nothing about its subject, beyond the stop
/// words ([`sgw_text::STOP_WORDS`]) its key terms already leave out.
const QUESTION_WORDS: &[&str] = &[
    "after",
    "before",
    "being",
    "current",
    "currently",
    "get",
    "latest",
    "new",
    "now",
    "official",
    "today",
];

/// The query's content terms.
pub(crate) fn content_terms(query: &str) -> BTreeSet<String> {
    let mut terms = key_terms(query);
    terms.retain(|t| !QUESTION_WORDS.contains(&t.as_str()));
    terms
}

/// Head nouns a page often leaves implicit ("inflation was 2.7 %" answers
/// "inflation rate"): a text that lacks one still covers the question.
const IMPLICIT_WORDS: &[&str] = &[
    "rate", "amount", "number", "level", "value", "figure", "total", "price", "cost",
];

/// Period words written several ways: `3rd` is `third`, `q3` the third quarter.
fn equivalents(w: &str) -> &'static [&'static str] {
    match w {
        "1st" => &["first"],
        "2nd" => &["second"],
        "3rd" => &["third"],
        "4th" => &["fourth"],
        "q1" => &["first", "quarter"],
        "q2" => &["second", "quarter"],
        "q3" => &["third", "quarter"],
        "q4" => &["fourth", "quarter"],
        "h1" => &["first", "half"],
        "h2" => &["second", "half"],
        _ => &[],
    }
}

/// How well a text covers the question, from best to worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Band {
    /// Every content term is there: the text can answer at `high`.
    Full,
    /// At least 80 % of the terms and every number: at most `medium`.
    Answers,
    /// Less, or a number of the question missing: at most `low`.
    Partial,
    /// The question names a year the text does not, and the text names
    /// other years: it is about another period (at most `low`).
    OtherPeriod,
}

impl Band {
    /// The confidence-cap reason of this band (none for `Full`).
    pub(crate) fn cap_reason(self) -> Option<&'static str> {
        match self {
            Band::Full => None,
            Band::Answers | Band::Partial => Some("partial_coverage"),
            Band::OtherPeriod => Some("other_period"),
        }
    }

    /// True when the text really answers (no more than `medium` lost).
    pub(crate) fn answers(self) -> bool {
        self <= Band::Answers
    }
}

/// The share of answer a text gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Coverage {
    pub covered: usize,
    pub total: usize,
    pub band: Band,
}

/// A light stem: one inflection suffix off, then a final `e`
/// (`rates`, `rate`, `rated` → `rat`; `licences`, `licence` → `licenc`).
fn stem(w: &str) -> &str {
    if w.chars().all(|c| c.is_ascii_digit()) {
        return w;
    }
    let mut s = w;
    for suffix in ["ing", "ed", "es", "s"] {
        if let Some(x) = s.strip_suffix(suffix)
            && x.chars().count() >= 3
        {
            s = x;
            break;
        }
    }
    if s.chars().count() > 3 {
        s = s.strip_suffix('e').unwrap_or(s);
    }
    s
}

fn is_year(w: &str) -> bool {
    w.len() == 4
        && w.chars().all(|c| c.is_ascii_digit())
        && (1900..=2100).contains(&w.parse::<u32>().unwrap_or(0))
}

fn is_number(w: &str) -> bool {
    w.chars().all(|c| c.is_ascii_digit())
}

/// The words a term needs: itself, or its equivalents (`3rd` in a question
/// means `third`; `q3` needs both its words).
fn needed(term: &str) -> impl Iterator<Item = &str> {
    let eq = equivalents(term);
    let own = eq.is_empty().then_some(term);
    own.into_iter().chain(eq.iter().copied())
}

/// What a text must show to cover a set of terms, built once per question
/// and used for every text: the needed words ([`needed`]), their stems, and
/// the first bytes worth normalizing a word for.
pub(crate) struct Question<'t> {
    terms: &'t BTreeSet<String>,
    wanted: BTreeSet<&'t str>,
    wanted_stems: BTreeSet<&'t str>,
    /// Only a word starting like a needed word or stem, a digit (years,
    /// `3rd`) or `q`/`h` (`q3`, `h1`) can matter.
    starts: [bool; 256],
}

impl<'t> Question<'t> {
    pub(crate) fn new(terms: &'t BTreeSet<String>) -> Question<'t> {
        let wanted: BTreeSet<&'t str> = terms.iter().flat_map(|t| needed(t)).collect();
        let wanted_stems: BTreeSet<&'t str> = wanted
            .iter()
            .filter(|t| !is_number(t))
            .map(|t| stem(t))
            .collect();
        let mut starts = [false; 256];
        for w in wanted.iter().chain(&wanted_stems) {
            if let Some(&b) = w.as_bytes().first() {
                starts[usize::from(b)] = true;
            }
        }
        for b in b'0'..=b'9' {
            starts[usize::from(b)] = true;
        }
        starts[usize::from(b'q')] = true;
        starts[usize::from(b'h')] = true;
        Question {
            terms,
            wanted,
            wanted_stems,
            starts,
        }
    }
}

/// What one pass over a title and text found: the needed words it has
/// (itself or through an equivalent: `3rd` in the text is `third`), the
/// needed stems it has, whether it names any year and says "last year".
/// Only words some term needs are kept, so the pass allocates next to nothing
/// however long the text.
struct Seen<'t> {
    words: BTreeSet<&'t str>,
    stems: BTreeSet<&'t str>,
    any_year: bool,
    last_year: bool,
}

impl<'t> Seen<'t> {
    fn scan(q: &Question<'t>, title: &str, text: &str) -> Seen<'t> {
        let mut seen = Seen {
            words: BTreeSet::new(),
            stems: BTreeSet::new(),
            any_year: false,
            last_year: false,
        };
        let mut norm = Normalizer::default();
        for part in [title, text] {
            // "last" then "year…" with only white space between (as in the
            // white-space-collapsed text): the text says "last year".
            let mut after_last: Option<usize> = None;
            for w in sgw_text::words(part) {
                let raw = w.as_str();
                // Most words of a long page matter in no way: an ASCII word
                // that starts unlike every needed word and stem (in any case)
                // and neither follows nor ends in "last" is not normalized.
                if after_last.is_none()
                    && w.is_ascii()
                    && !q.starts[usize::from(raw.as_bytes()[0].to_ascii_lowercase())]
                    && !ends_with_last(raw)
                {
                    continue;
                }
                let word = norm.normalize(raw);
                if let Some(end) = after_last.take()
                    && word.starts_with("year")
                    && part[end..w.start].chars().all(char::is_whitespace)
                {
                    seen.last_year = true;
                }
                if word.ends_with("last") {
                    after_last = Some(w.end);
                }
                let first = word.as_bytes().first().copied().unwrap_or(0);
                if !q.starts[usize::from(first)] {
                    continue;
                }
                for x in std::iter::once(word).chain(equivalents(word).iter().copied()) {
                    seen.any_year |= is_year(x);
                    if let Some(t) = q.wanted.get(x) {
                        seen.words.insert(t);
                    }
                    if let Some(t) = q.wanted_stems.get(stem(x)) {
                        seen.stems.insert(t);
                    }
                }
                // Every needed word as it is: every term is covered, and
                // nothing else the rest of the text could show (stems, years,
                // "last year") changes that.
                if seen.words.len() == q.wanted.len() {
                    return seen;
                }
            }
        }
        seen
    }
}

/// Whether an ASCII word ends in "last", in any case (`last`, `Atlast`).
fn ends_with_last(raw: &str) -> bool {
    raw.len() >= 4 && raw.as_bytes()[raw.len() - 4..].eq_ignore_ascii_case(b"last")
}

/// The coverage of the question's terms by `title` + `text`. `published`
/// (the text's dateline, `YYYY-…`) anchors relative time: a year of the
/// question is covered by a text published that year, or the year before
/// when the text says "last year".
pub(crate) fn coverage(
    question: &Question<'_>,
    title: &str,
    text: &str,
    published: Option<&str>,
) -> Coverage {
    let terms = question.terms;
    if terms.is_empty() {
        return Coverage {
            covered: 0,
            total: 0,
            band: Band::Full,
        };
    }
    let seen = Seen::scan(question, title, text);
    let dateline: Option<u32> = published
        .and_then(|p| p.get(..4))
        .and_then(|y| y.parse().ok());
    let anchored = |t: &str| {
        is_year(t)
            && dateline.is_some_and(|y| {
                let t: u32 = t.parse().unwrap_or(0);
                t == y || (seen.last_year && t + 1 == y)
            })
    };
    let mut covered = 0;
    let mut number_missing = false;
    let mut year_missing = false;
    let mut implicit_missing = 0;
    for t in terms {
        let hit = needed(t).all(|t| {
            seen.words.contains(t) || (!is_number(t) && seen.stems.contains(stem(t))) || anchored(t)
        });
        if hit {
            covered += 1;
        } else if IMPLICIT_WORDS.contains(&t.as_str()) {
            implicit_missing += 1;
        } else {
            number_missing |= is_number(t);
            year_missing |= is_year(t);
        }
    }
    let total = terms.len() - implicit_missing;
    let band = if covered == 0 {
        // Only implicit words, all missing: nothing of the question is there.
        Band::Partial
    } else if covered == total {
        Band::Full
    } else if year_missing && seen.any_year {
        Band::OtherPeriod
    } else if !number_missing && covered as f64 >= 0.8 * total as f64 {
        Band::Answers
    } else {
        Band::Partial
    };
    Coverage {
        covered,
        total,
        band,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn band(q: &str, text: &str) -> Band {
        let terms = content_terms(q);
        coverage(&Question::new(&terms), "", text, None).band
    }

    #[test]
    fn question_words_are_not_content() {
        let t = content_terms("What is the current official VAT rate?");
        assert_eq!(t.into_iter().collect::<Vec<_>>(), vec!["rate", "vat"]);
    }

    #[test]
    fn bands() {
        assert_eq!(
            band("dog licence fee", "The dog licences fee is 20 EUR"),
            Band::Full
        );
        assert_eq!(
            band("dog licence fee", "Fishing licence fee: 25 EUR"),
            Band::Partial,
            "the subject is missing"
        );
        assert_eq!(
            band(
                "passport renewal cost adults freedonia",
                "Freedonia passport costs for adults"
            ),
            Band::Answers
        );
        assert_eq!(
            band(
                "2028 census results published",
                "The 2026 census results are published in May"
            ),
            Band::OtherPeriod
        );
        assert_eq!(
            band(
                "census results 2028 published date",
                "census results published date"
            ),
            Band::Partial,
            "a number of the question is missing"
        );
        assert_eq!(band("interest rate", "Interest rates rose"), Band::Full);
        assert_eq!(
            band(
                "annual inflation rate october 2026",
                "Annual inflation was 2.7 % in October 2026"
            ),
            Band::Full,
            "the head noun may stay implicit"
        );
        assert_eq!(band("interest rate", "the rate of the day"), Band::Partial);
        assert_eq!(band("price", "nothing here"), Band::Partial);
        assert_eq!(
            band(
                "advance payment third quarter",
                "| Advance payment, 3rd quarter | 15.09.2027 |"
            ),
            Band::Full
        );
        assert_eq!(
            band("unemployment q3", "unemployment in the third quarter"),
            Band::Full
        );
        let terms = content_terms("airport passengers 2025");
        let text = "The airport served 3.9 million passengers last year.";
        let band = |published| coverage(&Question::new(&terms), "", text, published).band;
        assert_eq!(
            band(Some("2026-02-06")),
            Band::Full,
            "relative to its dateline"
        );
        assert_eq!(band(Some("2027-02-06")), Band::Partial);
        assert_eq!(band(None), Band::Partial);
        assert!(Band::Answers.answers() && !Band::Partial.answers());
    }
}
