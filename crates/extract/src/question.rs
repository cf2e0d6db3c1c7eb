//! The question, read once for field extraction.
//!
//! A [`Question`] holds what a candidate value is judged against: the question's
//! *content* terms (stop words, numbers and generic question words removed;
//! plurals, spelling variants and a few synonyms folded by [`canonical`]), the
//! adjacent term pairs (`dog licence`: a modifier and its head), the years,
//! numbers and dates it mentions (never answers unless it asks for them), and
//! what it asks about time (`previous`, `next`, a start or an end date).

use crate::passages::tokenize;
use sgw_text::is_stop_word as is_stop;

/// Words that say what kind of answer is wanted, not what it is about.
const GENERIC: &[&str] = &[
    "current",
    "currently",
    "latest",
    "today",
    "now",
    "exact",
    "exactly",
    "official",
    "please",
    "tell",
    "know",
    "value",
    "amount",
    "number",
    "figure",
    "date",
    "day",
    "percent",
    "percentage",
    "level",
    "high",
    "big",
    "large",
    "long",
    "often",
    "give",
    "find",
    "according",
    "still",
    "actually",
    "applicable",
    "valid",
    "set",
    "say",
    "said",
    "state",
    "live",
    "lived",
    "living",
];

/// Month names that are qualifiers (`may` is too often a verb).
const MONTH_NAMES: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Head nouns that name the kind of figure more than its subject: a page
/// states `inflation was 2.7 %` for an `inflation rate` question.
const WEAK_TERMS: &[&str] = &[
    "rate", "level", "amount", "figure", "size", "count", "total", "sum", "fee", "people", "person",
];

/// Spelling variants and near-synonyms folded to one form (after plural stripping).
const FOLD: &[(&str, &str)] = &[
    ("license", "licence"),
    ("cost", "fee"),
    ("charge", "fee"),
    ("price", "fee"),
    ("programme", "program"),
    ("centre", "center"),
    ("inhabitant", "population"),
    ("young", "youth"),
    ("born", "birth"),
    ("grew", "growth"),
    ("grow", "growth"),
    ("rose", "growth"),
    ("rise", "growth"),
    ("risen", "growth"),
    ("died", "death"),
    ("due", "deadline"),
    ("close", "deadline"),
    ("closing", "deadline"),
    ("opening", "open"),
    ("application", "apply"),
    ("applying", "apply"),
    ("registration", "register"),
    ("registering", "register"),
    ("q1", "first"),
    ("1st", "first"),
    ("q2", "second"),
    ("2nd", "second"),
    ("q3", "third"),
    ("3rd", "third"),
    ("q4", "fourth"),
    ("4th", "fourth"),
    ("yearly", "annual"),
    ("annually", "annual"),
    ("previously", "previous"),
    ("formerly", "former"),
    ("percent", "percent"),
];

/// Words whose plural-looking ending is not a plural.
const NOT_PLURAL: &[&str] = &[
    "news", "bus", "gas", "tax", "status", "basis", "series", "various",
];

/// The lowercase token in the form used for matching question terms: plural
/// `-s`/`-ies` stripped, variants and synonyms folded (`costs` → `fee`).
pub(crate) fn canonical(token: &str) -> String {
    let mut w = if token.chars().any(char::is_uppercase) {
        token.to_lowercase()
    } else {
        token.to_string()
    };
    if !NOT_PLURAL.contains(&w.as_str()) && w.is_ascii() {
        if w.len() > 4 && w.ends_with("ies") {
            w.truncate(w.len() - 3);
            w.push('y');
        } else if w.len() > 3
            && w.ends_with('s')
            && !w.ends_with("ss")
            && !w.ends_with("us")
            && !w.ends_with("is")
        {
            w.pop();
        }
    }
    match FOLD.iter().find(|(from, _)| *from == w) {
        Some((_, to)) => (*to).to_string(),
        None => w,
    }
}

/// Sets of mutually exclusive qualifiers: each set lists classes of synonyms.
/// A question naming one class and a sentence naming only another class of
/// the same set is strong evidence against the sentence's value.
pub(crate) const CONTRASTS: &[&[&[&str]]] = &[
    &[
        &["standard", "normal", "general", "regular", "basic", "full"],
        &[
            "reduced",
            "lower",
            "discounted",
            "concession",
            "concessionary",
            "special",
            "zero",
            "exempt",
            "super",
            "increased",
            "higher",
        ],
    ],
    &[
        &["new", "future", "upcoming", "next", "revised"],
        &["previous", "old", "former", "prior", "earlier", "past"],
    ],
    &[&["first"], &["second"], &["third"], &["fourth"]],
    &[
        &[
            "youth", "young", "junior", "child", "children", "kid", "minor", "student",
        ],
        &["adult", "overall", "total", "general", "senior", "everyone"],
    ],
    &[
        &["grant", "subsidy", "award", "allowance", "bonus", "voucher"],
        &[
            "budget",
            "total",
            "fund",
            "funding",
            "envelope",
            "allocation",
        ],
    ],
    &[
        &["minimum", "min", "lowest"],
        &["maximum", "max", "highest"],
    ],
    &[&["average", "mean"], &["median"]],
    &[
        &["january"],
        &["february"],
        &["march"],
        &["april"],
        &["june"],
        &["july"],
        &["august"],
        &["september"],
        &["october"],
        &["november"],
        &["december"],
    ],
    &[&["lower", "bottom"], &["middle"], &["upper", "top"]],
    &[
        &["monthly"],
        &["annual"],
        &["weekly"],
        &["daily"],
        &["hourly"],
        &["quarterly"],
    ],
    &[
        &["single", "individual"],
        &["married", "joint", "couple", "family", "household"],
    ],
    &[&["men", "male", "man"], &["women", "female", "woman"]],
    &[&["online", "electronic", "digital"], &["paper", "postal"]],
    &[&["domestic", "national"], &["international", "foreign"]],
    &[&["resident"], &["nonresident"]],
    &[&["gross"], &["net"]],
    &[&["nominal"], &["real"]],
    &[&["headline"], &["core"]],
    &[&["import"], &["export"]],
    &[&["spring"], &["summer"], &["autumn", "fall"], &["winter"]],
    &[&["early"], &["late"]],
    &[&["urban", "city"], &["rural"]],
    &[&["private"], &["public"]],
];

/// The (set, class) pairs a canonical word belongs to.
pub(crate) fn contrast_classes(word: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    CONTRASTS.iter().enumerate().flat_map(move |(s, set)| {
        set.iter()
            .enumerate()
            .filter(move |(_, class)| class.contains(&word))
            .map(move |(c, _)| (s, c))
    })
}

/// Units a value can be counted in; the question naming one makes it required.
pub(crate) const UNITS: &[&str] = &[
    "kwh",
    "mwh",
    "gwh",
    "kw",
    "mw",
    "km",
    "kg",
    "tonne",
    "ton",
    "litre",
    "liter",
    "hour",
    "day",
    "week",
    "month",
    "minute",
    "year",
    "cent",
    "ct",
    "euro",
    "eur",
    "dollar",
    "usd",
    "population",
    "resident",
    "household",
    "student",
    "employee",
    "job",
    "vehicle",
    "bed",
    "visitor",
    "passenger",
    "mbp",
    "gb",
    "mb",
    "metre",
    "meter",
    "hectare",
    "ha",
    "sqm",
    "m2",
    "m3",
];

/// Which end of a period a date question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DateRole {
    Start,
    End,
}

const END_WORDS: &[&str] = &[
    "deadline",
    "until",
    "close",
    "closing",
    "closes",
    "end",
    "ends",
    "expire",
    "expires",
    "expiry",
    "latest",
    "last",
    "submit",
    "submitted",
    "later",
];
const START_WORDS: &[&str] = &[
    "start",
    "starts",
    "begin",
    "begins",
    "beginning",
    "open",
    "opens",
    "opening",
    "from",
    "since",
    "effective",
    "commence",
    "commences",
    "starting",
    "launch",
];

pub(crate) fn date_role_of(word: &str) -> Option<DateRole> {
    if END_WORDS.contains(&word) || word == "by" || word == "before" || word == "till" {
        Some(DateRole::End)
    } else if START_WORDS.contains(&word) {
        Some(DateRole::Start)
    } else {
        None
    }
}

/// Words after which a date is the page's own bookkeeping, not an answer.
pub(crate) const FURNITURE_CUES: &[&str] = &[
    "updated",
    "published",
    "posted",
    "modified",
    "reviewed",
    "revised",
    "printed",
    "accessed",
    "retrieved",
    "copyright",
];

/// The question as field extraction sees it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Question {
    /// Canonical content terms, in question order, at most 64.
    pub terms: Vec<String>,
    /// Bits of the generic head nouns among the terms (`rate`, `level`, …): they weigh half.
    pub weak: u64,
    /// Bits of the names among the terms (capitalised in the question: places,
    /// bodies): a page may leave them to its title.
    pub proper: u64,
    /// The question names a period (a year or a month): "was", "up from" are
    /// how that period's figure is reported, not marks of an old value.
    pub names_period: bool,
    /// The qualifiers among the terms: (contrast set, class, term index), at most 32.
    pub quals: Vec<(usize, usize, usize)>,
    /// Adjacent content terms (modifier index, head index) in question order.
    pub bigrams: Vec<(usize, usize)>,
    /// Years (1900–2100) the question mentions.
    pub years: Vec<i32>,
    /// Numbers the question mentions (years and dates' parts included).
    pub numbers: Vec<f64>,
    /// Dates the question mentions (`YYYY-MM-DD`).
    pub dates: Vec<String>,
    /// Units the question names (from [`UNITS`]).
    pub units: Vec<String>,
    /// It asks about an earlier value (`was`, `previous`, `before`, `old`, …).
    pub asks_past: bool,
    /// It asks about a change (`increase`, `rise`, `by how much`, …).
    pub asks_change: bool,
    /// It asks for a year (`which year`, `what year`).
    pub asks_year: bool,
    /// It asks about the page's own dates (`updated`, `published`).
    pub asks_furniture: bool,
    /// It asks for the next occurrence (`next`, `upcoming`).
    pub asks_next: bool,
    /// It is a yes/no question (`is the fee still 30 euros?`): its numbers may be answers.
    pub yes_no: bool,
    /// The end of a period it asks for, if any.
    pub date_role: Option<DateRole>,
}

impl Question {
    pub(crate) fn parse(query: &str) -> Question {
        let mut q = Question::default();
        let toks = tokenize(query);
        q.yes_no = toks.first().is_some_and(|t| {
            matches!(
                t.0.as_ref(),
                "is" | "are"
                    | "was"
                    | "were"
                    | "does"
                    | "do"
                    | "did"
                    | "has"
                    | "have"
                    | "will"
                    | "can"
                    | "should"
            )
        });
        for (value, _, _) in crate::date::find_dates(query) {
            q.dates.push(value);
        }
        for c in crate::fields::number_spans(query, 64) {
            if let Ok(v) = c.value.parse::<f64>() {
                q.numbers.push(v);
            }
        }
        let mut last_term: Option<usize> = None;
        for (k, (lower, ts, te)) in toks.iter().enumerate() {
            let w: &str = lower;
            let written = &query[*ts..*te];
            // A capitalised word inside the question (not an acronym): a name.
            let proper = k > 0
                && written.chars().next().is_some_and(char::is_uppercase)
                && written.chars().skip(1).any(char::is_lowercase);
            if w.chars().all(|c| c.is_ascii_digit()) {
                if w.len() == 4
                    && let Ok(y) = w.parse::<i32>()
                    && (1900..=2100).contains(&y)
                {
                    q.years.push(y);
                }
                if let Ok(v) = w.parse::<f64>() {
                    q.numbers.push(v);
                }
                last_term = None;
                continue;
            }
            match w {
                "was" | "were" | "previous" | "previously" | "before" | "old" | "former"
                | "formerly" | "prior" | "earlier" | "until" | "used" => q.asks_past = true,
                "increase" | "increased" | "rise" | "rose" | "change" | "changed" | "growth"
                | "grow" | "grew" | "decrease" | "decreased" | "fall" | "fell" | "difference" => {
                    q.asks_change = true
                }
                "year" | "years" => q.asks_year = true,
                "next" | "upcoming" | "coming" => q.asks_next = true,
                _ => {}
            }
            if FURNITURE_CUES.contains(&w) {
                q.asks_furniture = true;
            }
            if q.date_role.is_none() && w != "by" && w != "before" {
                q.date_role = date_role_of(w);
            }
            let c = canonical(w);
            if is_stop(w) || GENERIC.contains(&w) || c.chars().any(|ch| ch.is_ascii_digit()) {
                last_term = None;
                continue;
            }
            if UNITS.contains(&c.as_str()) && !q.units.contains(&c) {
                q.units.push(c.clone());
            }
            let idx = match q.terms.iter().position(|t| *t == c) {
                Some(i) => i,
                None if q.terms.len() < 64 => {
                    q.terms.push(c);
                    q.terms.len() - 1
                }
                None => {
                    last_term = None;
                    continue;
                }
            };
            if proper {
                q.proper |= 1 << idx;
            }
            if MONTH_NAMES.contains(&q.terms[idx].as_str()) {
                q.names_period = true;
            }
            if let Some(prev) = last_term
                && prev != idx
            {
                q.bigrams.push((prev, idx));
            }
            last_term = Some(idx);
        }
        for (i, t) in q.terms.iter().enumerate() {
            if WEAK_TERMS.contains(&t.as_str()) {
                q.weak |= 1 << i;
            }
            for (set, class) in contrast_classes(t) {
                if q.quals.len() < 32 {
                    q.quals.push((set, class, i));
                }
            }
        }
        if !q.years.is_empty() {
            q.names_period = true;
        }
        if toks.windows(2).any(|w| w[0].0 == "by" && w[1].0 == "how") {
            q.asks_change = true;
        }
        // "which year" asks for a year; "last year" does not.
        q.asks_year = q.asks_year
            && toks.windows(2).any(|w| {
                matches!(w[0].0.as_ref(), "which" | "what" | "year") && w[1].0.starts_with("year")
                    || w[0].0 == "year" && matches!(w[1].0.as_ref(), "was" | "did" | "will" | "is")
            });
        q
    }

    /// The bit of content term `t`, if it is one.
    pub(crate) fn term_bit(&self, canonical: &str) -> u64 {
        self.terms
            .iter()
            .position(|t| t == canonical)
            .map_or(0, |i| 1u64 << i)
    }

    /// All content-term bits.
    pub(crate) fn all_bits(&self) -> u64 {
        if self.terms.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.terms.len()) - 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_terms_years_and_cues() {
        let q = Question::parse("What was the standard VAT rate in 2026 for the third quarter?");
        assert_eq!(q.terms, ["standard", "vat", "rate", "third", "quarter"]);
        assert_eq!(q.years, [2026]);
        assert!(q.asks_past);
        assert!(!q.asks_year);
        let q = Question::parse("How much does a dog license cost?");
        assert_eq!(q.terms, ["dog", "licence", "fee"]);
        assert_eq!(q.bigrams, [(0, 1), (1, 2)]);
        let q = Question::parse("In which year did the Q3 census start?");
        assert!(q.asks_year);
        assert!(q.terms.contains(&"third".to_string()));
        assert_eq!(q.date_role, Some(DateRole::Start));
    }
}
