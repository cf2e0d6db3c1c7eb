//! Question-aware field candidates: every value of a requested kind in a text,
//! scored by how well its sentence answers the question.
//!
//! The text is cut into lines and sentences; page furniture (update lines,
//! bylines, copyright lines, navigation trails) is set aside. Within a
//! sentence each word is attached to the nearest candidate value (crossing a
//! comma, a semicolon or an `and` costs), so `the standard rate is 21 %, the
//! reduced rate 9 %` gives `standard` to 21 and `reduced` to 9. A short line
//! just above (a table's label cell, a heading) is the sentence's context.
//!
//! The score is a clamped linear model; the weights are the constants below:
//!
//! `score = BASE + COVERAGE·coverage ± qualifier ± year ± temporal ± kind ± as_of`
//!
//! - `coverage`: the mean over the question's content terms of where each is
//!   found: words attached to the value 1.0, its sentence 0.85, the label line
//!   or heading above 0.75, its paragraph 0.5, elsewhere on the page 0.25,
//!   nowhere 0 (and [`ABSENT_TERM`] each, up to three); generic head nouns
//!   (`rate`, `level`, `amount`) weigh half, and so do names (capitalised in
//!   the question) the page never names: a country an official page leaves to
//!   its title.
//! - qualifiers ([`crate::question::CONTRASTS`]): the question's class next to
//!   the value (+[`QUALIFIER_MATCH`]) or only a rival class (`reduced` for a
//!   `standard` question: −[`QUALIFIER_CONFLICT`]); a different word in front
//!   of the question's head term (`fishing licence` for `dog licence`):
//!   −[`MODIFIER_MISMATCH`]; a sibling value of the sentence with more of the
//!   question's terms next to it (`11 962 born and 15 240 died` for births):
//!   −[`SIBLING`].
//! - years: the value's words, else its sentence, name the question's year
//!   (+) or only other years (−[`YEAR_CONFLICT`]; half when only the heading
//!   does or the paragraph names the question's year too); the page never
//!   names it (−[`YEAR_ABSENT`]). Months are qualifiers like `standard`.
//! - temporal cues: `was`, `previously`, `before`, `up from X`, `from X to Y`
//!   (X) mark an earlier value (−[`PAST`] unless the question asks for one
//!   or names the period;
//!   a bare `was` or `will` costs a quarter of it, `was` nothing when the question
//!   names a year);
//!   `by`, `rose`, `increase of` mark a change (−[`CHANGE`]); `to be
//!   announced`, `not yet` mark no value (−[`ANNOUNCED`]).
//! - kind: a bare year as a number (−[`YEAR_LIKE`]), a date after `updated` or
//!   `published` (−[`ANNOUNCED`]), the start or end of a period as asked
//!   (+[`ROLE`], −2.5·[`ROLE`]), units the question names (+[`UNIT`], −2·[`UNIT`]).
//! - `as_of`: a validity window read from the value's clause (`from 1 January
//!   2026`, `until …`, `before`, `in 2025`) holding the date (+[`AS_OF_IN`]) or
//!   not (−[`AS_OF_OUT`]).
//!
//! Numbers, years and dates the question itself mentions are never candidates
//! (unless it is a yes/no question). Per field, distinct values are returned
//! best first, at most [`MAX_PER_FIELD`], none below [`MIN_SCORE`].
//! Scanning is linear in the text (a binary search per word aside).

use crate::fields::{FieldKind, FieldSpec, RawValue, compile_pattern, raw_values};
use crate::passages::tokenize;
use crate::question::{
    CONTRASTS, DateRole, FURNITURE_CUES, Question, UNITS, canonical, date_role_of,
};
use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use sgw_text::is_stop_word as is_stop;
use std::borrow::Cow;
use std::collections::HashMap;

/// A candidate value for a requested field, with its evidence span and score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct FieldCandidate {
    pub name: String,
    pub kind: FieldKind,
    /// Normalised value (see [`FieldKind`]).
    pub value: String,
    /// The verbatim span: `text[start..end] == raw`.
    pub raw: String,
    pub start: usize,
    pub end: usize,
    /// The sentence the value was read in: byte offsets into the text.
    pub sentence_start: usize,
    pub sentence_end: usize,
    /// Fit to the question in `[0, 1]`; comparable between candidates of one field.
    pub score: f64,
    /// Share of the question's content terms found around the value, in `[0, 1]`
    /// (1: all next to it; see [`field_candidates`]).
    pub coverage: f64,
    /// The signals that moved the score (`qualifier-conflict`, `past`, `as-of-out`, …).
    pub signals: Vec<String>,
}

pub const MAX_PER_FIELD: usize = 5;
pub const MIN_SCORE: f64 = 0.10;
pub const BASE: f64 = 0.15;
pub const COVERAGE: f64 = 0.70;
pub const ABSENT_TERM: f64 = 0.08;
pub const QUALIFIER_MATCH: f64 = 0.10;
pub const QUALIFIER_CONFLICT: f64 = 0.35;
pub const MODIFIER_MISMATCH: f64 = 0.25;
pub const SIBLING: f64 = 0.10;
pub const YEAR_MATCH: f64 = 0.05;
pub const YEAR_CONFLICT: f64 = 0.40;
pub const YEAR_ABSENT: f64 = 0.15;
pub const PAST: f64 = 0.20;
pub const CURRENT: f64 = 0.05;
pub const CHANGE: f64 = 0.20;
pub const ANNOUNCED: f64 = 0.40;
pub const YEAR_LIKE: f64 = 0.30;
pub const ROLE: f64 = 0.10;
pub const UNIT: f64 = 0.10;
pub const AS_OF_IN: f64 = 0.10;
pub const AS_OF_OUT: f64 = 0.45;

/// What moved a candidate's score (see the module overview).
#[derive(Debug, Clone, Copy)]
enum Signal {
    AbsentTerms,
    QualifierMatch,
    QualifierConflict,
    ModifierMismatch,
    YearConflict,
    YearAbsent,
    Announced,
    AsOfIn,
    AsOfOut,
    Past,
    Was,
    Will,
    Change,
    YearLike,
    UnitMatch,
    UnitMismatch,
    RoleMatch,
    RoleMismatch,
    AsOfPast,
    SiblingCloser,
}

const SIGNAL_NAMES: &[&str] = &[
    "absent-terms",
    "qualifier-match",
    "qualifier-conflict",
    "modifier-mismatch",
    "year-conflict",
    "year-absent",
    "announced",
    "as-of-in",
    "as-of-out",
    "past",
    "was",
    "will",
    "change",
    "year-like",
    "unit-match",
    "unit-mismatch",
    "role-match",
    "role-mismatch",
    "as-of-past",
    "sibling-closer",
];

/// A set of [`Signal`]s (no allocation per candidate).
#[derive(Debug, Clone, Copy, Default)]
struct Signals(u32);

impl Signals {
    fn add(&mut self, s: Signal) {
        self.0 |= 1 << s as u32;
    }

    fn names(self) -> Vec<String> {
        SIGNAL_NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| (*n).to_string())
            .collect()
    }
}

/// A scored value before it becomes a [`FieldCandidate`].
struct Scored {
    start: usize,
    end: usize,
    value: String,
    sentence: (usize, usize),
    score: f64,
    coverage: f64,
    signals: Signals,
}

/// At most this many values of one field are judged per text (the first ones
/// near the question's terms): bounds the time on number dumps.
const MAX_JUDGED: usize = 20_000;

/// Sentences longer than this are cut at the next space (bounds the work per sentence).
const MAX_SENTENCE: usize = 500;
/// Cost, in bytes, of a comma, semicolon or `and` between a word and a value.
const BREAK_COST: usize = 60;

/// Words before a value that mark it as an earlier one; the first three are
/// weak (statistics are reported with `was`), the rest strong.
const PAST_BEFORE: &[&str] = &[
    "was",
    "were",
    "had",
    "previously",
    "formerly",
    "previous",
    "former",
    "old",
    "prior",
    "earlier",
    "used",
];
const WEAK_PAST: &[&str] = &["was", "were", "had"];
/// Share of [`PAST`] a weak past cue costs.
const WEAK_PAST_SHARE: f64 = 0.25;
const PAST_AFTER: &[&str] = &[
    "previously",
    "before",
    "earlier",
    "formerly",
    "prior",
    "until",
    "till",
    "beforehand",
];
const CHANGE_WORDS: &[&str] = &[
    "increase",
    "increased",
    "increases",
    "rise",
    "rose",
    "risen",
    "rises",
    "decrease",
    "decreased",
    "fell",
    "fall",
    "falls",
    "grew",
    "growth",
    "change",
    "changed",
    "gain",
    "drop",
    "dropped",
    "raised",
    "lowered",
    "reduction",
    "jump",
    "jumped",
    "up",
    "down",
    "by",
    "plus",
    "minus",
];
/// Verbs of a change: a date in their sentence (`on 1 September`) starts the new value.
const CHANGE_VERBS: &[&str] = &[
    "rose",
    "risen",
    "raised",
    "increased",
    "fell",
    "fallen",
    "lowered",
    "cut",
    "changed",
    "reduced",
    "went",
    "moved",
    "rises",
    "falls",
    "increases",
    "changes",
    "goes",
];
const REFERENCE_WORDS: &[&str] = &[
    "article",
    "art",
    "section",
    "sec",
    "chapter",
    "page",
    "p",
    "no",
    "nr",
    "paragraph",
    "para",
    "version",
    "v",
    "step",
    "item",
    "line",
    "room",
    "tel",
    "phone",
    "fax",
    "box",
    "ref",
    "annex",
    "appendix",
    "fig",
    "figure",
    "table",
    "route",
    "platform",
    "gate",
    "floor",
    "unit",
    "rule",
    "regulation",
    "directive",
    "act",
    "law",
    "decree",
    "number",
];
const ANNOUNCE_WORDS: &[&str] = &[
    "announced",
    "confirmed",
    "determined",
    "decided",
    "published",
    "fixed",
    "agreed",
    "communicated",
];
const BREAK_WORDS: &[&str] = &[
    "and", "but", "while", "whereas", "versus", "vs", "compared", "than", "or", "whilst",
];
const ABBREVIATIONS: &[&str] = &[
    "no", "nr", "art", "sec", "para", "fig", "approx", "ca", "st", "dr", "mr", "mrs", "ms", "vs",
    "e", "i", "g", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
    "dec", "p", "pp", "vol", "inc", "ltd", "co", "corp", "incl", "excl", "min", "max", "resp",
];
const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

struct Tok<'a> {
    start: usize,
    end: usize,
    /// The normalized word (borrowed from the page when it is lower-case ASCII).
    lower: Cow<'a, str>,
    /// Index in [`UNITS`] of the unit it names.
    unit: Option<usize>,
    bit: u64,
    year: Option<i32>,
    /// Bit `i`: this word names the class of the question's qualifier `i` / a rival class.
    own: u32,
    rival: u32,
}

struct Line {
    t0: usize,
    t1: usize,
    para: usize,
    label: bool,
    furniture: bool,
    /// A label line followed by a blank line: a heading.
    heading: bool,
    mask: u64,
}

struct Sentence {
    start: usize,
    end: usize,
    t0: usize,
    t1: usize,
    line: usize,
}

/// The page, read once per question: tokens, lines, sentences and term masks.
struct Page<'a> {
    text: &'a str,
    q: Question,
    toks: Vec<Tok<'a>>,
    lines: Vec<Line>,
    sentences: Vec<Sentence>,
    para_masks: Vec<u64>,
    /// Whether each paragraph names a year of the question.
    para_qyear: Vec<bool>,
    doc_mask: u64,
    doc_years: Vec<i32>,
    /// For each sentence: the label line just above and the section heading (line indices).
    context: Vec<(Option<usize>, Option<usize>)>,
    dates: Vec<(String, usize, usize)>,
}

/// Question-aware candidates for `specs` in `text`: per field (in spec order),
/// distinct values best first. `as_of` is the date the answer must hold at.
pub fn field_candidates(
    text: &str,
    query: &str,
    specs: &[FieldSpec],
    as_of: Option<Date>,
) -> Vec<FieldCandidate> {
    if specs.is_empty() || text.is_empty() {
        return Vec::new();
    }
    let page = Page::read(text, query);
    let mut out = Vec::new();
    for spec in specs {
        let Ok(pattern) = compile_pattern(spec) else {
            continue;
        };
        let raws = match spec.kind {
            FieldKind::Date => page
                .dates
                .iter()
                .map(|(value, start, end)| RawValue {
                    value: value.clone(),
                    start: *start,
                    end: *end,
                    year_like: false,
                })
                .collect(),
            _ => raw_values(&spec.kind, pattern.as_ref(), text, 4 * MAX_JUDGED),
        };
        out.extend(page.judge(spec, raws, as_of));
    }
    out
}

fn is_furniture(line: &str) -> bool {
    let short = line.len() <= 200;
    let head: String = line.chars().take(200).collect::<String>().to_lowercase();
    const CUES: &[&str] = &[
        "last updated",
        "last modified",
        "last reviewed",
        "last revised",
        "page last",
        "updated:",
        "updated on",
        "published:",
        "published on",
        "posted on",
        "posted:",
        "date modified",
        "©",
        "(c) 2",
        "copyright",
        "all rights reserved",
        "share this",
        "print this",
        "skip to",
        "you are here",
        "back to top",
        "follow us",
    ];
    const PREFIXES: &[&str] = &[
        "updated ",
        "published ",
        "posted ",
        "home ›",
        "home >",
        "home /",
        "home »",
        "home |",
    ];
    if PREFIXES.iter().any(|p| head.starts_with(p)) {
        return true;
    }
    if !short {
        return false;
    }
    if CUES.iter().any(|c| head.contains(c)) {
        return true;
    }
    // Navigation trails: several separators between few words.
    let seps = head.matches('›').count()
        + head.matches('»').count()
        + head.matches(" | ").count()
        + head.matches(" > ").count();
    if seps >= 2 && head.split_whitespace().count() <= 16 {
        return true;
    }
    // Bylines: "By Jane Doe", "By Jane Doe, 3 March 2026".
    if let Some(rest) = line
        .strip_prefix("By ")
        .or_else(|| line.strip_prefix("by "))
    {
        let name = rest.split([',', '|', '·', '–', '-']).next().unwrap_or("");
        let words: Vec<&str> = name.split_whitespace().collect();
        if (1..=4).contains(&words.len())
            && words.iter().all(|w| {
                w.chars().next().is_some_and(char::is_uppercase)
                    && w.chars()
                        .all(|c| c.is_alphabetic() || c == '.' || c == '\'')
            })
            && !MONTHS.contains(&words[0].to_lowercase().as_str())
        {
            return true;
        }
    }
    false
}

/// Sentence ends in `line` (a trimmed line starting at byte `base`): at `.`, `!`
/// or `?` before a space and a non-lowercase letter, not after an abbreviation.
pub(crate) fn split_sentences(line: &str, base: usize, out: &mut Vec<(usize, usize)>) {
    let bytes = line.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let at_end = matches!(b, b'.' | b'!' | b'?')
            && bytes.get(i + 1).is_some_and(|n| n.is_ascii_whitespace());
        // Over-long sentences end at the next space (or anywhere, without spaces).
        let too_long = i - start > MAX_SENTENCE
            && (b == b' ' || i - start > 4 * MAX_SENTENCE && line.is_char_boundary(i));
        if at_end || too_long {
            let cut = if at_end { i + 1 } else { i };
            let ok = too_long || {
                let word_start = line[..i]
                    .rfind(|c: char| !c.is_alphanumeric())
                    .map_or(0, |p| {
                        p + line[p..].chars().next().map_or(1, char::len_utf8)
                    });
                let word = line[word_start..i].to_lowercase();
                let next = line[i + 1..].trim_start();
                let next_char = next.chars().next();
                let next_word: String = next
                    .chars()
                    .take_while(|c| c.is_alphabetic())
                    .collect::<String>()
                    .to_lowercase();
                !(b == b'.'
                    && (ABBREVIATIONS.contains(&word.as_str())
                        || word.chars().count() == 1
                        || (word.len() <= 2
                            && word.chars().all(|c| c.is_ascii_digit())
                            && MONTHS.contains(&next_word.as_str())))
                    || next_char.is_some_and(|c| c.is_lowercase() || c.is_ascii_digit()))
            };
            if ok {
                let seg = &line[start..cut];
                let trimmed = seg.trim();
                if !trimmed.is_empty() {
                    let lead = seg.len() - seg.trim_start().len();
                    out.push((base + start + lead, base + start + lead + trimmed.len()));
                }
                start = cut;
            }
        }
        i += 1;
    }
    let seg = &line[start.min(line.len())..];
    let trimmed = seg.trim();
    if !trimmed.is_empty() {
        let lead = seg.len() - seg.trim_start().len();
        out.push((base + start + lead, base + start + lead + trimmed.len()));
    }
}

fn year_of(token: &str) -> Option<i32> {
    (token.len() == 4 && token.bytes().all(|b| b.is_ascii_digit()))
        .then(|| token.parse::<i32>().ok())
        .flatten()
        .filter(|y| (1900..=2100).contains(y))
}

fn parse_date(value: &str) -> Option<Date> {
    value.get(..10)?.parse::<Date>().ok()
}

/// Validity window `[from, to)` of a value.
#[derive(Debug, Clone, Copy, Default)]
struct Window {
    from: Option<Date>,
    to: Option<Date>,
}

impl<'a> Page<'a> {
    fn read(text: &'a str, query: &str) -> Page<'a> {
        let q = Question::parse(query);
        // What a word is to the question (term bit, qualifier bits, unit)
        // depends on the word alone: each distinct word is worked out once,
        // not at every occurrence (a long page repeats its words).
        let mut known: HashMap<Cow<'a, str>, (u64, u32, u32, Option<usize>)> = HashMap::new();
        let toks: Vec<Tok> = tokenize(text)
            .into_iter()
            .map(|(lower, start, end)| {
                let year = year_of(&lower);
                if lower.bytes().all(|b| b.is_ascii_digit()) {
                    // Numbers are never terms, qualifiers or units.
                    return Tok {
                        start,
                        end,
                        lower,
                        unit: None,
                        bit: 0,
                        year,
                        own: 0,
                        rival: 0,
                    };
                }
                let (bit, own, rival, unit) = match known.get(lower.as_ref()) {
                    Some(&k) => k,
                    None => {
                        let canon = canonical(&lower);
                        let (own, rival) = qualifier_bits(&q, &canon);
                        let k = (
                            q.term_bit(&canon),
                            own,
                            rival,
                            UNITS.iter().position(|u| *u == canon),
                        );
                        known.insert(lower.clone(), k);
                        k
                    }
                };
                Tok {
                    start,
                    end,
                    lower,
                    unit,
                    bit,
                    year,
                    own,
                    rival,
                }
            })
            .collect();
        let mut lines: Vec<Line> = Vec::new();
        let mut sentences: Vec<Sentence> = Vec::new();
        let mut para = 0usize;
        let mut para_masks = vec![0u64];
        let mut pos = 0usize;
        let mut ti = 0usize;
        let mut spans = Vec::new();
        let mut blank_before = false;
        for raw_line in text.split_inclusive('\n') {
            let line_start = pos;
            pos += raw_line.len();
            let trimmed = raw_line.trim();
            if trimmed.is_empty() {
                if !blank_before {
                    if let Some(last) = lines.last_mut() {
                        last.heading = last.label;
                    }
                    para += 1;
                    para_masks.push(0);
                }
                blank_before = true;
                continue;
            }
            blank_before = false;
            let lead = raw_line.len() - raw_line.trim_start().len();
            let (ls, le) = (line_start + lead, line_start + lead + trimmed.len());
            while ti < toks.len() && toks[ti].start < ls {
                ti += 1;
            }
            let t0 = ti;
            let mut mask = 0u64;
            while ti < toks.len() && toks[ti].start < le {
                mask |= toks[ti].bit;
                ti += 1;
            }
            let t1 = ti;
            let furniture = is_furniture(trimmed);
            let label = !furniture
                && trimmed.len() <= 80
                && t1 - t0 <= 10
                && !trimmed.ends_with(['.', '!', '?']);
            if let Some(m) = para_masks.last_mut() {
                *m |= mask;
            }
            let line_index = lines.len();
            lines.push(Line {
                t0,
                t1,
                para,
                label,
                furniture,
                heading: false,
                mask,
            });
            spans.clear();
            split_sentences(trimmed, ls, &mut spans);
            let mut st = t0;
            for &(s, e) in &spans {
                while st < t1 && toks[st].start < s {
                    st += 1;
                }
                let s0 = st;
                while st < t1 && toks[st].start < e {
                    st += 1;
                }
                sentences.push(Sentence {
                    start: s,
                    end: e,
                    t0: s0,
                    t1: st,
                    line: line_index,
                });
            }
        }
        let doc_mask = para_masks.iter().fold(0, |a, m| a | m);
        let mut para_qyear = vec![false; para_masks.len()];
        for line in &lines {
            if toks[line.t0..line.t1]
                .iter()
                .any(|t| t.year.is_some_and(|y| q.years.contains(&y)))
            {
                para_qyear[line.para] = true;
            }
        }
        let mut doc_years: Vec<i32> = toks.iter().filter_map(|t| t.year).collect();
        doc_years.sort_unstable();
        doc_years.dedup();
        // Context: the label line above a sentence's line, and the last heading.
        let mut context = Vec::with_capacity(sentences.len());
        let mut heading: Option<usize> = None;
        let mut last_line = usize::MAX;
        let mut above: Option<usize> = None;
        for s in &sentences {
            if s.line != last_line {
                // The nearest of the (up to three) label lines just above that has
                // words and no figures: in a table row, the row's label cell above
                // its value cells.
                let textual = |l: usize| {
                    let words = &toks[lines[l].t0..lines[l].t1];
                    words.iter().any(|t| {
                        t.lower.len() >= 3
                            && t.lower.chars().all(char::is_alphabetic)
                            && !is_stop(&t.lower)
                    }) && !words
                        .iter()
                        .any(|t| t.lower.bytes().any(|b| b.is_ascii_digit()))
                };
                above = (1..=3)
                    .map_while(|k| s.line.checked_sub(k))
                    .take_while(|&l| lines[l].label && lines[l].para + 1 >= lines[s.line].para)
                    .find(|&l| textual(l));
                if let Some(l) = s.line.checked_sub(1)
                    && lines[l].heading
                {
                    heading = Some(l);
                }
                last_line = s.line;
            }
            let own_heading = heading.filter(|&h| Some(h) != above && h != s.line);
            context.push((above.filter(|&l| l != s.line), own_heading));
        }
        let dates = crate::date::find_dates(text);
        Page {
            text,
            q,
            toks,
            lines,
            sentences,
            para_masks,
            para_qyear,
            doc_mask,
            doc_years,
            context,
            dates,
        }
    }

    /// Content terms in a sentence, the lines above it that give it context, and its paragraph.
    fn neighbourhood_mask(&self, si: usize) -> u64 {
        let line = &self.lines[self.sentences[si].line];
        let (above, heading) = self.context[si];
        self.para_masks[line.para]
            | line.mask
            | above.map_or(0, |l| self.lines[l].mask)
            | heading.map_or(0, |l| self.lines[l].mask)
    }

    fn sentence_of(&self, pos: usize) -> Option<usize> {
        let i = self.sentences.partition_point(|s| s.start <= pos);
        i.checked_sub(1)
    }

    /// Token indices strictly before `pos` / from `pos` on, within `t0..t1`.
    /// Up to `N` words before `pos` within `t0..t1`, nearest first (`""` pads).
    fn tok_before<const N: usize>(&self, pos: usize, t0: usize, t1: usize) -> [&str; N] {
        let i = self.toks[t0..t1].partition_point(|t| t.end <= pos) + t0;
        let mut out = [""; N];
        for (slot, k) in out.iter_mut().zip((t0..i).rev()) {
            *slot = self.toks[k].lower.as_ref();
        }
        out
    }

    /// Up to `n` tokens from `pos` on within `t0..t1`.
    fn tok_after(&self, pos: usize, t0: usize, t1: usize, n: usize) -> &[Tok<'_>] {
        let i = self.toks[t0..t1].partition_point(|t| t.start < pos) + t0;
        &self.toks[i..t1.min(i + n)]
    }

    /// Scores `raws` (the values of one field in the whole text).
    fn judge(
        &self,
        spec: &FieldSpec,
        mut raws: Vec<RawValue>,
        as_of: Option<Date>,
    ) -> Vec<FieldCandidate> {
        let q = &self.q;
        raws.sort_by_key(|r| r.start);
        // Drop values that are not answers: furniture, the question's own numbers,
        // numbers inside dates, times and references.
        let kind = &spec.kind;
        let mut kept: Vec<(usize, RawValue)> = Vec::new();
        let mut di = 0usize;
        for r in raws {
            let Some(si) = self.sentence_of(r.start) else {
                continue;
            };
            let sent = &self.sentences[si];
            if self.lines[sent.line].furniture && !q.asks_furniture {
                continue;
            }
            if !q.yes_no && self.is_question_value(kind, &r) {
                continue;
            }
            if *kind == FieldKind::Number {
                while di < self.dates.len() && self.dates[di].2 <= r.start {
                    di += 1;
                }
                if self.dates[di..]
                    .iter()
                    .take_while(|d| d.1 < r.end)
                    .any(|d| d.1 < r.end && r.start < d.2)
                {
                    continue;
                }
                let bytes = self.text.as_bytes();
                let time_before = r.start >= 2
                    && bytes[r.start - 1] == b':'
                    && bytes[r.start - 2].is_ascii_digit();
                let time_after = bytes.get(r.end) == Some(&b':')
                    && bytes.get(r.end + 1).is_some_and(u8::is_ascii_digit);
                let para_sign = self.text[..r.start].trim_end().ends_with('§');
                let prev = self.tok_before::<1>(r.start, sent.t0, sent.t1);
                let reference = prev.first().is_some_and(|p| REFERENCE_WORDS.contains(p));
                if time_before || time_after || para_sign || reference {
                    continue;
                }
            }
            // Far from every content term (sentence, label line, heading, paragraph)
            // while the page has some: no better than a weak fit, not judged.
            if self.doc_mask != 0 && self.neighbourhood_mask(si) == 0 {
                continue;
            }
            kept.push((si, r));
            if kept.len() >= MAX_JUDGED {
                break;
            }
        }
        let mut out: Vec<Scored> = Vec::new();
        let mut para_from: (usize, Option<Date>) = (usize::MAX, None);
        let mut i = 0;
        while i < kept.len() {
            let si = kept[i].0;
            let mut j = i;
            while j < kept.len() && kept[j].0 == si {
                j += 1;
            }
            let group: Vec<&RawValue> = kept[i..j].iter().map(|(_, r)| r).collect();
            let para = self.lines[self.sentences[si].line].para;
            if para_from.0 != para {
                para_from = (para, None);
            }
            let scored = self.judge_sentence(spec, si, &group, as_of, &mut para_from.1);
            out.extend(scored);
            i = j;
        }
        // Distinct values, best first.
        out.retain(|c| c.score >= MIN_SCORE);
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.start.cmp(&b.start)));
        let mut best: Vec<Scored> = Vec::new();
        for c in out {
            if best.len() == MAX_PER_FIELD {
                break;
            }
            if !best.iter().any(|b| b.value == c.value) {
                best.push(c);
            }
        }
        best.into_iter()
            .map(|c| FieldCandidate {
                name: spec.name.clone(),
                kind: spec.kind.clone(),
                value: c.value,
                raw: self.text[c.start..c.end].to_string(),
                start: c.start,
                end: c.end,
                sentence_start: c.sentence.0,
                sentence_end: c.sentence.1,
                score: c.score,
                coverage: (c.coverage * 1000.0).round() / 1000.0,
                signals: c.signals.names(),
            })
            .collect()
    }

    fn is_question_value(&self, kind: &FieldKind, r: &RawValue) -> bool {
        let q = &self.q;
        match kind {
            FieldKind::Date => q.dates.contains(&r.value),
            FieldKind::Number | FieldKind::Money | FieldKind::Percent => {
                let amount = r.value.rsplit(' ').next().unwrap_or(&r.value);
                amount
                    .parse::<f64>()
                    .is_ok_and(|v| q.numbers.iter().any(|n| (n - v).abs() < 1e-9))
            }
            FieldKind::Pattern(_) => false,
        }
    }

    fn judge_sentence(
        &self,
        spec: &FieldSpec,
        si: usize,
        group: &[&RawValue],
        as_of: Option<Date>,
        para_from: &mut Option<Date>,
    ) -> Vec<Scored> {
        let q = &self.q;
        let sent = &self.sentences[si];
        let stext = &self.text[sent.start..sent.end];
        // Breaks (sorted byte positions) and hard breaks (`;`).
        let mut breaks: Vec<usize> = Vec::new();
        let mut hard: Vec<usize> = Vec::new();
        for (k, ch) in stext.char_indices() {
            match ch {
                ',' | ':' | '(' | ')' | '–' | '—' => breaks.push(sent.start + k),
                ';' => {
                    breaks.push(sent.start + k);
                    hard.push(sent.start + k);
                }
                _ => {}
            }
        }
        for t in &self.toks[sent.t0..sent.t1] {
            if BREAK_WORDS.contains(&t.lower.as_ref()) {
                breaks.push(t.start);
            }
        }
        breaks.sort_unstable();
        let between = |a: usize, b: usize| -> usize {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            breaks.partition_point(|&x| x < hi) - breaks.partition_point(|&x| x < lo)
        };
        let nearest = |s: usize, e: usize| -> Option<usize> {
            let k = group.partition_point(|c| c.end <= s);
            let prev = k.checked_sub(1);
            let next = (k < group.len() && group[k].start >= e).then_some(k);
            let cost = |c: usize| {
                let g = group[c];
                let d = if g.end <= s {
                    s - g.end
                } else {
                    g.start.saturating_sub(e)
                };
                d + BREAK_COST * between(g.start, s)
            };
            match (prev, next) {
                (Some(p), Some(n)) => Some(if cost(n) < cost(p) { n } else { p }),
                (Some(p), None) => Some(p),
                (None, Some(n)) => Some(n),
                (None, None) => None,
            }
        };
        // Attach words and dates to values.
        let mut attached: Vec<Vec<usize>> = vec![Vec::new(); group.len()];
        for ti in sent.t0..sent.t1 {
            let t = &self.toks[ti];
            if let Some(c) = nearest(t.start, t.end) {
                let g = group[c];
                if t.start >= g.start && t.end <= g.end {
                    continue;
                }
                attached[c].push(ti);
            }
        }
        let mut windows = vec![Window::default(); group.len()];
        let date_lo = self.dates.partition_point(|d| d.1 < sent.start);
        let changes = self.toks[sent.t0..sent.t1]
            .iter()
            .any(|t| CHANGE_VERBS.contains(&t.lower.as_ref()));
        let mut sentence_years: Vec<i32> = Vec::new();
        for d in self.dates[date_lo..].iter().take_while(|d| d.1 < sent.end) {
            if let Some(y) = d.0.get(..4).and_then(|y| y.parse().ok()) {
                sentence_years.push(y);
            }
            if spec.kind == FieldKind::Date {
                continue;
            }
            let Some(date) = parse_date(&d.0) else {
                continue;
            };
            let Some(c) = nearest(d.1, d.2) else { continue };
            let before = self.tok_before::<3>(d.1, sent.t0, sent.t1);
            let w = &mut windows[c];
            // "rose from 24 % to 25.5 % on 1 September 2024": a change on a date
            // starts the new value then.
            let change_on = matches!(before[0], "on" | "") && changes;
            match cue(&before) {
                Some(Cue::From) => {
                    w.from = Some(date);
                    *para_from = Some(date);
                }
                Some(Cue::Until) => w.to = date.tomorrow().ok(),
                Some(Cue::Before) => w.to = Some(date),
                None if change_on => {
                    w.from = w.from.or(Some(date));
                    *para_from = Some(date);
                }
                None => {}
            }
        }
        for t in &self.toks[sent.t0..sent.t1] {
            if let Some(y) = t.year {
                sentence_years.push(y);
            }
        }
        let (above, heading) = self.context[si];
        let ctx_lines: Vec<usize> = above.into_iter().chain(heading).collect();
        let mut context_years: Vec<i32> = Vec::new();
        for &l in &ctx_lines {
            for t in &self.toks[self.lines[l].t0..self.lines[l].t1] {
                if let Some(y) = t.year {
                    context_years.push(y);
                }
            }
        }
        // Years standing alone next to a value bound it: "in 2025", "since 2024".
        if spec.kind != FieldKind::Date {
            for (c, words) in attached.iter().enumerate() {
                for &ti in words {
                    let t = &self.toks[ti];
                    let Some(y) = t.year else { continue };
                    if self.dates.get(date_lo..).is_some_and(|ds| {
                        ds.iter()
                            .take_while(|d| d.1 < t.end)
                            .any(|d| d.1 <= t.start && t.end <= d.2)
                    }) {
                        continue;
                    }
                    let jan1 = Date::new(y as i16, 1, 1).ok();
                    let next = Date::new(y as i16 + 1, 1, 1).ok();
                    let before = self.tok_before::<2>(t.start, sent.t0, sent.t1);
                    let w = &mut windows[c];
                    // "for the 2026 tax year", "in 2025".
                    let cue_word = if before[0] == "the" {
                        before[1]
                    } else {
                        before[0]
                    };
                    match Some(cue_word) {
                        Some("since" | "from") => w.from = w.from.or(jan1),
                        Some("until" | "till" | "through") => w.to = w.to.or(next),
                        Some("before") => w.to = w.to.or(jan1),
                        Some("in" | "for" | "during") => {
                            w.from = w.from.or(jan1);
                            w.to = w.to.or(next);
                        }
                        _ => {}
                    }
                }
            }
        }
        let sentence_from: Option<Date> = windows.iter().filter_map(|w| w.from).min();
        // "is 40 000 euros; from 1 January 2027 it rises to 50 000 euros": a value
        // without a window, before a changed one that starts on a date, holds until then.
        if changes && spec.kind != FieldKind::Date {
            for c in 0..windows.len() {
                let later_from = windows[c + 1..].iter().filter_map(|w| w.from).min();
                let w = &mut windows[c];
                if w.from.is_none() && w.to.is_none() {
                    w.to = later_from;
                }
            }
        }
        let sent_mask = self.toks[sent.t0..sent.t1].iter().fold(0, |a, t| a | t.bit);
        let ctx_mask = ctx_lines.iter().fold(0, |a, &l| a | self.lines[l].mask);
        let para_mask = self.para_masks[self.lines[sent.line].para];
        let n_terms = q.terms.len();
        let all = q.all_bits();
        let absent = (all & !q.weak & !self.doc_mask).count_ones() as usize;
        // The question's year next to the value, else in its sentence (or context):
        // named (+1), only other years named (-1), no year (0).
        let year_fit = |years: &mut dyn Iterator<Item = i32>| -> i8 {
            let mut other = false;
            for y in years {
                if q.years.contains(&y) {
                    return 1;
                }
                other = true;
            }
            if other { -1 } else { 0 }
        };
        // A rival year only in the heading or label above weighs half; so does
        // any rival year when the paragraph names the question's year too.
        let para_names_year = self.para_qyear[self.lines[sent.line].para];
        let soften = |signal: f64| {
            if signal < 0.0 && para_names_year {
                signal / 2.0
            } else {
                signal
            }
        };
        let sentence_year_signal: f64 = if q.years.is_empty() {
            0.0
        } else {
            match year_fit(&mut sentence_years.iter().copied()) {
                0 => match year_fit(&mut context_years.iter().copied()) {
                    1 => 1.0,
                    -1 => -0.5,
                    _ => 0.0,
                },
                s => f64::from(s),
            }
        };
        let year_absent =
            !q.years.is_empty() && !q.years.iter().any(|y| self.doc_years.contains(y));
        // Announcements: "to be announced", "not yet", "tba" in a clause.
        let announce_at: Vec<usize> = {
            let ts = &self.toks[sent.t0..sent.t1];
            let mut v = Vec::new();
            for (k, t) in ts.iter().enumerate() {
                let w = t.lower.as_ref();
                let prev = k.checked_sub(1).map(|p| ts[p].lower.as_ref());
                if matches!(w, "tba" | "tbc" | "tbd")
                    || (prev == Some("be") && ANNOUNCE_WORDS.contains(&w))
                    || (prev == Some("not") && w == "yet")
                {
                    v.push(t.start);
                }
            }
            v
        };
        let asks_announce = q.terms.iter().any(|t| {
            ["announc", "publish", "confirm", "decid", "determin"]
                .iter()
                .any(|p| t.starts_with(p))
        });
        let quals_of = |toks: &[Tok]| {
            toks.iter()
                .fold((0u32, 0u32), |(o, r), t| (o | t.own, r | t.rival))
        };
        let line_toks = |l: usize| &self.toks[self.lines[l].t0..self.lines[l].t1];
        let above_quals = above.map_or((0, 0), |l| quals_of(line_toks(l)));
        let far_quals = {
            let (o, r) = quals_of(&self.toks[sent.t0..sent.t1]);
            let (ho, hr) = heading.map_or((0, 0), |l| quals_of(line_toks(l)));
            (o | ho, r | hr)
        };
        let mismatch = self.modifier_mismatch(sent, sent_mask | ctx_mask);
        // Content terms next to each value: a value whose sibling in the sentence
        // has more of them is the other figure the sentence states.
        let term_weight = |mask: u64| -> f64 {
            (0..n_terms.min(64))
                .filter(|b| mask & (1u64 << b) != 0)
                .map(|b| if q.weak & (1u64 << b) != 0 { 0.5 } else { 1.0 })
                .sum()
        };
        let seg_weights: Vec<f64> = attached
            .iter()
            .map(|words| term_weight(words.iter().fold(0, |a, &ti| a | self.toks[ti].bit)))
            .collect();
        let best_seg = seg_weights.iter().copied().fold(0.0, f64::max);
        let mut out = Vec::with_capacity(group.len());
        for (c, r) in group.iter().enumerate() {
            let mut signals = Signals::default();
            let mut score = BASE;
            // Coverage of content terms.
            // A bare value cell (no words of its own): the label cell above is its subject.
            let bare = !attached[c]
                .iter()
                .any(|&ti| self.toks[ti].lower.chars().any(char::is_alphabetic));
            let seg_mask = attached[c].iter().fold(0, |a, &ti| a | self.toks[ti].bit)
                | if bare {
                    above.map_or(0, |l| self.lines[l].mask)
                } else {
                    0
                };
            let coverage = if n_terms == 0 {
                0.6
            } else {
                // Weights: generic head nouns (`rate`, `level`) and terms the page
                // never names (a country an official page leaves to its title)
                // count half.
                let (mut sum, mut total) = (0.0, 0.0);
                for b in 0..n_terms.min(64) {
                    let bit = 1u64 << b;
                    let mut weight = if q.weak & bit != 0 { 0.5 } else { 1.0 };
                    if self.doc_mask & bit == 0 && q.proper & bit != 0 {
                        weight *= 0.5;
                    }
                    total += weight;
                    sum += weight
                        * if seg_mask & bit != 0 {
                            1.0
                        } else if sent_mask & bit != 0 {
                            0.85
                        } else if ctx_mask & bit != 0 {
                            0.75
                        } else if para_mask & bit != 0 {
                            0.5
                        } else if self.doc_mask & bit != 0 {
                            0.25
                        } else {
                            0.0
                        };
                }
                sum / total
            };
            score += COVERAGE * coverage;
            if absent > 0 {
                score -= ABSENT_TERM * absent.min(3) as f64;
                signals.add(Signal::AbsentTerms);
            }
            // Qualifiers next to the value (and in the label line above), else in the sentence/heading.
            let (own, rival) = attached[c].iter().fold(above_quals, |(o, r), &ti| {
                (o | self.toks[ti].own, r | self.toks[ti].rival)
            });
            let (matched, conflict) = qualifiers(q.quals.len(), (own, rival), far_quals);
            if matched > 0.0 {
                score += QUALIFIER_MATCH * matched;
                signals.add(Signal::QualifierMatch);
            }
            if conflict > 0.0 {
                score -= QUALIFIER_CONFLICT * conflict;
                signals.add(Signal::QualifierConflict);
            }
            // ... when this value has its own subject words (`15 240 people died`).
            let own_subject = attached[c].iter().any(|&ti| {
                let t = &self.toks[ti];
                let w = t.lower.as_ref();
                t.bit == 0
                    && w.len() >= 3
                    && w.chars().all(char::is_alphabetic)
                    && !is_stop(w)
                    && !MONTHS.contains(&w)
                    && !CHANGE_WORDS.contains(&w)
                    && !PAST_BEFORE.contains(&w)
                    && !PAST_AFTER.contains(&w)
                    && !BREAK_WORDS.contains(&w)
            });
            if own_subject && seg_weights[c] + 1e-9 < best_seg {
                score -= SIBLING;
                signals.add(Signal::SiblingCloser);
            }
            if mismatch {
                score -= MODIFIER_MISMATCH;
                signals.add(Signal::ModifierMismatch);
            }
            let year_signal = match q.years.is_empty() {
                true => 0.0,
                false => {
                    match year_fit(&mut attached[c].iter().filter_map(|&ti| self.toks[ti].year)) {
                        0 => soften(sentence_year_signal),
                        s => f64::from(s),
                    }
                }
            };
            if year_signal > 0.0 {
                score += YEAR_MATCH;
            } else if year_signal < 0.0 {
                score += YEAR_CONFLICT * year_signal;
                signals.add(Signal::YearConflict);
            }
            if year_absent {
                score -= YEAR_ABSENT;
                signals.add(Signal::YearAbsent);
            }
            // Temporal and kind cues around the value.
            let before = self.tok_before::<3>(r.start, sent.t0, sent.t1);
            let after = self.tok_after(r.end, sent.t0, sent.t1, 3);
            let p1 = before.first().copied().unwrap_or("");
            let p2 = before.get(1).copied().unwrap_or("");
            let f1 = after.first().map_or("", |t| t.lower.as_ref());
            let clause = clause_of(&hard, r.start, sent.start, sent.end);
            let announced = announce_at.iter().any(|&p| clause.0 <= p && p < clause.1)
                || (!asks_announce
                    && before
                        .iter()
                        .any(|w| ANNOUNCE_WORDS.contains(w) || FURNITURE_CUES.contains(w)));
            if announced && !(q.asks_furniture && spec.kind == FieldKind::Date) {
                score -= ANNOUNCED;
                signals.add(Signal::Announced);
            }
            let mut window = windows[c];
            if spec.kind == FieldKind::Date {
                self.date_cues(q, r, group, c, &before, f1, as_of, &mut score, &mut signals);
            } else {
                let next_same = group.get(c + 1).is_some_and(|n| {
                    after
                        .first()
                        .is_some_and(|t| t.end <= n.start && n.start - t.end <= 2)
                });
                let current = matches!(p1, "to" | "now" | "currently")
                    || p2 == "now"
                    || matches!(f1, "now" | "currently" | "today");
                // "will rise to 22 %": a future value (weak, like "was": the date decides).
                let future = before.contains(&"will");
                let strong_before = before
                    .iter()
                    .any(|w| PAST_BEFORE.contains(w) && !WEAK_PAST.contains(w));
                // "was" is how statistics of a named year are reported: weak, and not
                // a cue at all when the question names the year.
                let weak =
                    !current && q.years.is_empty() && before.iter().any(|w| WEAK_PAST.contains(w));
                let mut past = !current
                    && (strong_before
                        || matches!(p1, "than" | "against" | "versus" | "vs")
                        || (p1 == "from"
                            && (CHANGE_WORDS.contains(&p2) || (f1 == "to" && next_same))));
                let later_word = attached[c].iter().any(|&ti| {
                    let t = &self.toks[ti];
                    t.start >= r.end && PAST_AFTER.contains(&t.lower.as_ref())
                });
                let from_to = p1 == "from" && f1 == "to" && next_same;
                if (later_word || from_to) && window.to.is_none() {
                    // "20 % before": until the sibling's (or the paragraph's) start date.
                    window.to = sentence_from
                        .filter(|d| window.from.is_none_or(|f| f < *d))
                        .or(*para_from);
                }
                past |= !current && after.iter().any(|t| PAST_AFTER.contains(&t.lower.as_ref()));
                let change = !current
                    && (CHANGE_WORDS.contains(&p1) || (p1 == "of" && CHANGE_WORDS.contains(&p2)));
                let mut windowed = false;
                if let Some(day) = as_of
                    && (window.from.is_some() || window.to.is_some())
                {
                    windowed = true;
                    let inside =
                        window.from.is_none_or(|f| f <= day) && window.to.is_none_or(|t| day < t);
                    if inside {
                        score += AS_OF_IN;
                        signals.add(Signal::AsOfIn);
                    } else {
                        score -= AS_OF_OUT;
                        signals.add(Signal::AsOfOut);
                    }
                }
                if !q.asks_past && !q.names_period && !windowed {
                    if past {
                        score -= PAST;
                        signals.add(Signal::Past);
                    } else if weak {
                        score -= PAST * WEAK_PAST_SHARE;
                        signals.add(Signal::Was);
                    } else if future && as_of.is_none() {
                        score -= PAST * WEAK_PAST_SHARE;
                        signals.add(Signal::Will);
                    } else if current {
                        score += CURRENT;
                    }
                }
                if change && !q.asks_change {
                    score -= CHANGE;
                    signals.add(Signal::Change);
                }
                if spec.kind == FieldKind::Number && r.year_like && !q.asks_year {
                    score -= YEAR_LIKE;
                    signals.add(Signal::YearLike);
                }
            }
            // Units the question names.
            if !q.units.is_empty() {
                let units: Vec<&str> = after
                    .iter()
                    .take(2)
                    .take_while(|t| t.start <= r.end + 12)
                    .filter_map(|t| t.unit.map(|u| UNITS[u]))
                    .collect();
                if units.iter().any(|u| q.units.iter().any(|qu| qu == u)) {
                    score += UNIT;
                    signals.add(Signal::UnitMatch);
                } else if !units.is_empty() {
                    score -= 2.0 * UNIT;
                    signals.add(Signal::UnitMismatch);
                }
            }
            let score = (score.clamp(0.0, 1.0) * 1000.0).round() / 1000.0;
            out.push(Scored {
                start: r.start,
                end: r.end,
                value: r.value.clone(),
                sentence: (sent.start, sent.end),
                score,
                coverage,
                signals,
            });
        }
        out
    }

    /// Dates: the start or end of a period as asked; not already past when the
    /// question asks for the next one.
    #[allow(clippy::too_many_arguments)]
    fn date_cues(
        &self,
        q: &Question,
        r: &RawValue,
        group: &[&RawValue],
        c: usize,
        before: &[&str],
        f1: &str,
        as_of: Option<Date>,
        score: &mut f64,
        signals: &mut Signals,
    ) {
        let role = before
            .iter()
            .take(2)
            .find_map(|w| date_role_of(w))
            .or_else(|| {
                (c > 0 && matches!(before.first().copied(), Some("to" | "and")))
                    .then_some(DateRole::End)
            })
            .or_else(|| {
                (c + 1 < group.len() && matches!(f1, "to" | "until" | "till"))
                    .then_some(DateRole::Start)
            });
        if let (Some(want), Some(got)) = (q.date_role, role) {
            if want == got {
                *score += ROLE;
                signals.add(Signal::RoleMatch);
            } else {
                *score -= 2.5 * ROLE;
                signals.add(Signal::RoleMismatch);
            }
        }
        if q.asks_next
            && let (Some(day), Some(d)) = (as_of, parse_date(&r.value))
            && d < day
        {
            *score -= AS_OF_OUT;
            signals.add(Signal::AsOfPast);
        }
    }

    /// The question's head term preceded by another word than its modifier
    /// (`fishing licence` for `dog licence`), the modifier nowhere near.
    fn modifier_mismatch(&self, sent: &Sentence, near_mask: u64) -> bool {
        let q = &self.q;
        q.bigrams.iter().any(|&(m, h)| {
            let (mbit, hbit) = (1u64 << m, 1u64 << h);
            if near_mask & mbit != 0 {
                return false;
            }
            (sent.t0 + 1..sent.t1).any(|k| {
                let t = &self.toks[k];
                let p = &self.toks[k - 1];
                t.bit == hbit
                    && p.bit == 0
                    && self.text[p.end..t.start]
                        .chars()
                        .all(|c| c == ' ' || c == '-')
                    && p.lower.chars().all(char::is_alphabetic)
                    && !is_stop(&p.lower)
                    && !MONTHS.contains(&p.lower.as_ref())
                    && !adjective_like(&p.lower)
            })
        })
    }
}

/// A word that looks like an adjective (`monthly`, `national`, `gross`
/// qualifiers aside): it narrows the head noun rather than naming another thing.
fn adjective_like(word: &str) -> bool {
    const SUFFIXES: &[&str] = &[
        "ly", "al", "ic", "ive", "ous", "ful", "able", "ible", "ary", "ed", "ent", "ant", "ian",
    ];
    SUFFIXES
        .iter()
        .any(|s| word.len() > s.len() + 2 && word.ends_with(s))
        || crate::question::contrast_classes(word).next().is_some()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cue {
    From,
    Until,
    Before,
}

/// What the words before a date say about a value's validity.
fn cue(before: &[&str]) -> Option<Cue> {
    let p1 = before.first().copied().unwrap_or("");
    let p2 = before.get(1).copied().unwrap_or("");
    let p3 = before.get(2).copied().unwrap_or("");
    match p1 {
        "from" | "since" | "effective" | "starting" | "beginning" | "commencing" | "as" => {
            Some(Cue::From)
        }
        "of" if p2 == "as" => Some(Cue::From),
        "until" | "till" | "through" | "to" | "ending" => Some(Cue::Until),
        "before" => Some(Cue::Before),
        "on" | "the" if matches!(p2, "from" | "since" | "effective") || p3 == "effect" => {
            Some(Cue::From)
        }
        _ => None,
    }
}

/// The clause (between `;`) holding `pos`.
fn clause_of(hard: &[usize], pos: usize, start: usize, end: usize) -> (usize, usize) {
    let k = hard.partition_point(|&h| h < pos);
    let lo = k.checked_sub(1).map_or(start, |i| hard[i]);
    let hi = hard.get(k).copied().unwrap_or(end);
    (lo, hi)
}

/// A word's qualifier bits against the question's qualifiers: bit `i` of the
/// first mask when it names qualifier `i`'s class, of the second when it names
/// a rival class of the same set (and not the question's word itself).
fn qualifier_bits(q: &Question, word: &str) -> (u32, u32) {
    let (mut own, mut rival) = (0u32, 0u32);
    for (i, &(set, class, term)) in q.quals.iter().enumerate() {
        for (c2, words) in CONTRASTS[set].iter().enumerate() {
            if words.contains(&word) {
                if c2 == class {
                    own |= 1 << i;
                } else if !words.contains(&q.terms[term].as_str()) {
                    rival |= 1 << i;
                }
            }
        }
    }
    (own, rival)
}

/// (matched, conflicting) qualifier weight: each qualifier of the question is
/// looked up near the value first (weight 1), then in the sentence or heading (½).
fn qualifiers(n: usize, near: (u32, u32), far: (u32, u32)) -> (f64, f64) {
    let mut matched: f64 = 0.0;
    let mut conflict: f64 = 0.0;
    for i in 0..n.min(32) {
        let bit = 1u32 << i;
        if near.0 & bit != 0 {
            matched = matched.max(1.0);
        } else if near.1 & bit != 0 {
            conflict = conflict.max(1.0);
        } else if far.0 & bit != 0 {
            matched = matched.max(0.5);
        } else if far.1 & bit != 0 {
            conflict = conflict.max(0.5);
        }
    }
    (matched, conflict)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_respect_abbreviations_and_decimals() {
        let mut out = Vec::new();
        let line = "Fees rose 5.5 % on 3 Jan. 2026 to €30. The next change is due. e.g. later";
        split_sentences(line, 0, &mut out);
        let texts: Vec<&str> = out.iter().map(|&(s, e)| &line[s..e]).collect();
        assert_eq!(
            texts,
            [
                "Fees rose 5.5 % on 3 Jan. 2026 to €30.",
                "The next change is due. e.g. later"
            ]
        );
    }

    #[test]
    fn furniture_lines() {
        assert!(is_furniture("Last updated: 3 March 2026"));
        assert!(is_furniture("By Jane Doe, 3 March 2026"));
        assert!(is_furniture("Home › Taxes › VAT"));
        assert!(!is_furniture("By 31 March 2026 the form must be filed."));
        assert!(!is_furniture("By March 31, 2026 the form must be filed."));
    }
}
