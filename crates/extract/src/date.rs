//! Date normalisation.
//!
//! Output forms:
//! - a value with a time of day becomes RFC 3339 in UTC (`2024-03-01T12:30:00Z`);
//!   a time without an offset is taken as UTC;
//! - a value with only a date stays a date: `YYYY-MM-DD`.

use regex::Regex;
use std::sync::OnceLock;

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn month_of(name: &str) -> Option<u8> {
    let l = name.to_ascii_lowercase();
    let l = l.trim_end_matches('.');
    if l.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| l.starts_with(m))
        .map(|p| p as u8 + 1)
}

fn valid(y: i32, m: u8, d: u8) -> Option<String> {
    if !(1000..=2999).contains(&y) {
        return None;
    }
    jiff::civil::Date::new(y as i16, m as i8, d as i8)
        .ok()
        .map(|d| d.to_string())
}

struct DateRes {
    ymd: Regex,
    /// `DD.MM.YYYY` (the dotted European form; slashes stay ambiguous and are not read).
    dmy_dots: Regex,
    mdy: Regex,
    dmy: Regex,
}

fn res() -> &'static DateRes {
    static R: OnceLock<DateRes> = OnceLock::new();
    R.get_or_init(|| DateRes {
        ymd: Regex::new(r"(?-u:\b)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?-u:\b)").unwrap(),
        dmy_dots: Regex::new(r"(?-u:\b)(\d{1,2})\.(\d{1,2})\.(\d{4})(?-u:\b)").unwrap(),
        mdy: Regex::new(r"(?i)(?-u:\b)(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?-u:\b)").unwrap(),
        dmy: Regex::new(r"(?i)(?-u:\b)(\d{1,2})(?:st|nd|rd|th)?\.?\s+(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?\s+(\d{4})(?-u:\b)").unwrap(),
    })
}

/// Normalises a machine-readable or common human date; `None` if none is found.
pub fn normalize_date(raw: &str) -> Option<String> {
    let s = raw.trim();
    if s.is_empty() || s.len() > 200 {
        return None;
    }
    // Each parser is only tried on text it could accept: a failed parse
    // builds an error message, and most candidates of a page are neither.
    let iso = may_be_iso_8601(s);
    if iso && let Ok(ts) = s.parse::<jiff::Timestamp>() {
        return Some(ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string());
    }
    if iso
        && s.len() > 10
        && let Ok(dt) = s.parse::<jiff::civil::DateTime>()
        && let Ok(z) = dt.to_zoned(jiff::tz::TimeZone::UTC)
    {
        return Some(z.timestamp().strftime("%Y-%m-%dT%H:%M:%SZ").to_string());
    }
    if may_be_rfc_2822(s)
        && let Ok(z) = jiff::fmt::rfc2822::parse(s)
    {
        return Some(z.timestamp().strftime("%Y-%m-%dT%H:%M:%SZ").to_string());
    }
    find_date(s).map(|(v, _, _)| v)
}

/// Whether `s` could be an ISO 8601 date or date-time: it starts with its
/// year (digits, or a sign before six).
fn may_be_iso_8601(s: &str) -> bool {
    matches!(s.as_bytes().first(), Some(b'0'..=b'9' | b'+' | b'-'))
}

/// Whether `s` could be an RFC 2822 date-time: it has a time (`hh:mm`).
fn may_be_rfc_2822(s: &str) -> bool {
    s.contains(':')
}

/// Finds the first date written in `text`: returns (`YYYY-MM-DD`, start, end).
pub fn find_date(text: &str) -> Option<(String, usize, usize)> {
    find_dates(text).into_iter().next()
}

/// Every date written in `text`, in order: (`YYYY-MM-DD`, start, end).
pub fn find_dates(text: &str) -> Vec<(String, usize, usize)> {
    let r = res();
    let mut out = Vec::new();
    for c in r.ymd.captures_iter(text) {
        let (Ok(y), Ok(m), Ok(d)) = (c[1].parse(), c[2].parse(), c[3].parse()) else {
            continue;
        };
        if let Some(v) = valid(y, m, d) {
            let m0 = c.get(0).unwrap();
            out.push((v, m0.start(), m0.end()));
        }
    }
    for c in r.dmy_dots.captures_iter(text) {
        let (Ok(d), Ok(m), Ok(y)) = (c[1].parse(), c[2].parse(), c[3].parse()) else {
            continue;
        };
        if let Some(v) = valid(y, m, d) {
            let m0 = c.get(0).unwrap();
            out.push((v, m0.start(), m0.end()));
        }
    }
    for c in r.mdy.captures_iter(text) {
        let (Some(m), Ok(d), Ok(y)) = (month_of(&c[1]), c[2].parse(), c[3].parse()) else {
            continue;
        };
        if let Some(v) = valid(y, m, d) {
            let m0 = c.get(0).unwrap();
            out.push((v, m0.start(), m0.end()));
        }
    }
    for c in r.dmy.captures_iter(text) {
        let (Ok(d), Some(m), Ok(y)) = (c[1].parse(), month_of(&c[2]), c[3].parse()) else {
            continue;
        };
        if let Some(v) = valid(y, m, d) {
            let m0 = c.get(0).unwrap();
            out.push((v, m0.start(), m0.end()));
        }
    }
    out.sort_by_key(|x| x.1);
    out
}

/// Normalises a machine-readable date like [`normalize_date`], but keeps the
/// offset the value was written with (`2024-03-01T23:30:00-05:00`), so that the
/// first ten characters are the day as its publisher wrote it. Page metadata
/// uses this form: converting to UTC would move late-evening dates to the
/// next day.
pub fn normalize_date_local(raw: &str) -> Option<String> {
    let s = raw.trim();
    if s.is_empty() || s.len() > 200 {
        return None;
    }
    if let Ok(ts) = s.parse::<jiff::Timestamp>() {
        let offset = written_offset(s).unwrap_or(jiff::tz::Offset::UTC);
        return Some(format_with_offset(ts, offset));
    }
    if let Ok(z) = jiff::fmt::rfc2822::parse(s) {
        return Some(format_with_offset(z.timestamp(), z.offset()));
    }
    normalize_date(s)
}

fn format_with_offset(ts: jiff::Timestamp, offset: jiff::tz::Offset) -> String {
    if offset == jiff::tz::Offset::UTC {
        return ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string();
    }
    ts.to_zoned(jiff::tz::TimeZone::fixed(offset))
        .strftime("%Y-%m-%dT%H:%M:%S%:z")
        .to_string()
}

/// The `±HH:MM` / `±HHMM` / `±HH` offset at the end of an RFC 3339-like value.
pub(crate) fn written_offset(s: &str) -> Option<jiff::tz::Offset> {
    let t = s.find(['T', 't', ' '])?;
    let tail = &s[t..];
    let p = tail.rfind(['+', '-'])?;
    let sign: i32 = if tail[p..].starts_with('-') { -1 } else { 1 };
    let digits: String = tail[p + 1..].chars().filter(char::is_ascii_digit).collect();
    let (h, m) = match digits.len() {
        2 => (digits.parse::<i32>().ok()?, 0),
        4 => (digits[..2].parse().ok()?, digits[2..].parse().ok()?),
        _ => return None,
    };
    if h > 18 || m > 59 {
        return None;
    }
    jiff::tz::Offset::from_seconds(sign * (h * 3600 + m * 60)).ok()
}

/// How [`scan`] reads dates written with numbers only.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ScanOptions {
    /// `03/04/2021` is 4 March (true) or 3 April (false, US style).
    pub month_first: bool,
    /// Accept two-digit years (`12.03.21`): only where the context says "date".
    pub short_years: bool,
}

/// A date found by [`scan`]: `YYYY-MM-DD` and its byte range in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub day: String,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tk {
    /// Value and number of digits.
    Num(u32, u8),
    Word,
    Punct(char),
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Tk,
    start: usize,
    end: usize,
    /// Whitespace right before the token.
    gap: bool,
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

fn tokenize(text: &str, max_tokens: usize) -> Vec<Token> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    let mut gap = false;
    while let Some((i, c)) = it.next() {
        if out.len() >= max_tokens {
            break;
        }
        if c.is_whitespace() {
            gap = true;
            continue;
        }
        let (kind, end) = if c.is_ascii_digit() {
            let mut v: u32 = c as u32 - '0' as u32;
            let mut n: u8 = 1;
            let mut end = i + 1;
            while let Some(&(j, d)) = it.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                v = v.saturating_mul(10).saturating_add(d as u32 - '0' as u32);
                n = n.saturating_add(1);
                end = j + 1;
                it.next();
            }
            (Tk::Num(v, n), end)
        } else if is_cjk(c) {
            (Tk::Word, i + c.len_utf8())
        } else if c.is_alphabetic() {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = it.peek() {
                if !d.is_alphabetic() || is_cjk(d) {
                    break;
                }
                end = j + d.len_utf8();
                it.next();
            }
            (Tk::Word, end)
        } else {
            (Tk::Punct(c), i + c.len_utf8())
        };
        out.push(Token {
            kind,
            start: i,
            end,
            gap,
        });
        gap = false;
    }
    out
}

/// Month names and abbreviations (lowercase) in the languages the web writes
/// dates in most: en, de, fr, es, it, pt, nl, sv/da/no, pl, cs, ru, uk, tr,
/// fi, hu, ro, id.
const MONTH_NAMES: &[(&str, u8)] = &[
    // en
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("may", 5),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
    ("jan", 1),
    ("feb", 2),
    ("mar", 3),
    ("apr", 4),
    ("jun", 6),
    ("jul", 7),
    ("aug", 8),
    ("sep", 9),
    ("sept", 9),
    ("oct", 10),
    ("nov", 11),
    ("dec", 12),
    // de
    ("januar", 1),
    ("jänner", 1),
    ("jän", 1),
    ("februar", 2),
    ("märz", 3),
    ("mär", 3),
    ("mrz", 3),
    ("mai", 5),
    ("juni", 6),
    ("juli", 7),
    ("oktober", 10),
    ("okt", 10),
    ("dezember", 12),
    ("dez", 12),
    // fr
    ("janvier", 1),
    ("janv", 1),
    ("février", 2),
    ("fevrier", 2),
    ("févr", 2),
    ("fév", 2),
    ("mars", 3),
    ("avril", 4),
    ("avr", 4),
    ("juin", 6),
    ("juillet", 7),
    ("juil", 7),
    ("août", 8),
    ("aout", 8),
    ("septembre", 9),
    ("octobre", 10),
    ("novembre", 11),
    ("décembre", 12),
    ("decembre", 12),
    ("déc", 12),
    // es
    ("enero", 1),
    ("ene", 1),
    ("febrero", 2),
    ("marzo", 3),
    ("abril", 4),
    ("abr", 4),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("agosto", 8),
    ("ago", 8),
    ("septiembre", 9),
    ("setiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    ("dic", 12),
    // it
    ("gennaio", 1),
    ("gen", 1),
    ("febbraio", 2),
    ("aprile", 4),
    ("maggio", 5),
    ("mag", 5),
    ("giugno", 6),
    ("giu", 6),
    ("luglio", 7),
    ("lug", 7),
    ("settembre", 9),
    ("set", 9),
    ("ottobre", 10),
    ("ott", 10),
    ("dicembre", 12),
    // pt
    ("janeiro", 1),
    ("fevereiro", 2),
    ("fev", 2),
    ("março", 3),
    ("marco", 3),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("setembro", 9),
    ("outubro", 10),
    ("out", 10),
    ("novembro", 11),
    ("dezembro", 12),
    // nl
    ("januari", 1),
    ("februari", 2),
    ("maart", 3),
    ("mrt", 3),
    ("mei", 5),
    ("augustus", 8),
    ("okt", 10),
    // sv, da, no
    ("augusti", 8),
    ("maj", 5),
    ("desember", 12),
    // pl (nominative and genitive)
    ("styczeń", 1),
    ("stycznia", 1),
    ("luty", 2),
    ("lutego", 2),
    ("marzec", 3),
    ("marca", 3),
    ("kwiecień", 4),
    ("kwietnia", 4),
    ("maja", 5),
    ("czerwiec", 6),
    ("czerwca", 6),
    ("lipiec", 7),
    ("lipca", 7),
    ("sierpień", 8),
    ("sierpnia", 8),
    ("wrzesień", 9),
    ("września", 9),
    ("październik", 10),
    ("października", 10),
    ("listopad", 11),
    ("listopada", 11),
    ("grudzień", 12),
    ("grudnia", 12),
    // cs
    ("ledna", 1),
    ("leden", 1),
    ("února", 2),
    ("únor", 2),
    ("března", 3),
    ("březen", 3),
    ("dubna", 4),
    ("duben", 4),
    ("května", 5),
    ("květen", 5),
    ("června", 6),
    ("červen", 6),
    ("července", 7),
    ("červenec", 7),
    ("srpna", 8),
    ("srpen", 8),
    ("září", 9),
    ("října", 10),
    ("říjen", 10),
    ("listopadu", 11),
    ("prosince", 12),
    ("prosinec", 12),
    // ru (genitive and nominative)
    ("января", 1),
    ("январь", 1),
    ("февраля", 2),
    ("февраль", 2),
    ("марта", 3),
    ("март", 3),
    ("апреля", 4),
    ("апрель", 4),
    ("мая", 5),
    ("май", 5),
    ("июня", 6),
    ("июнь", 6),
    ("июля", 7),
    ("июль", 7),
    ("августа", 8),
    ("август", 8),
    ("сентября", 9),
    ("сентябрь", 9),
    ("октября", 10),
    ("октябрь", 10),
    ("ноября", 11),
    ("ноябрь", 11),
    ("декабря", 12),
    ("декабрь", 12),
    // uk (genitive)
    ("січня", 1),
    ("лютого", 2),
    ("березня", 3),
    ("квітня", 4),
    ("травня", 5),
    ("червня", 6),
    ("липня", 7),
    ("серпня", 8),
    ("вересня", 9),
    ("жовтня", 10),
    ("листопада", 11),
    ("грудня", 12),
    // tr
    ("ocak", 1),
    ("şubat", 2),
    ("mart", 3),
    ("nisan", 4),
    ("mayıs", 5),
    ("haziran", 6),
    ("temmuz", 7),
    ("ağustos", 8),
    ("eylül", 9),
    ("ekim", 10),
    ("kasım", 11),
    ("aralık", 12),
    // fi (partitive, as in "12. maaliskuuta 2021")
    ("tammikuuta", 1),
    ("helmikuuta", 2),
    ("maaliskuuta", 3),
    ("huhtikuuta", 4),
    ("toukokuuta", 5),
    ("kesäkuuta", 6),
    ("heinäkuuta", 7),
    ("elokuuta", 8),
    ("syyskuuta", 9),
    ("lokakuuta", 10),
    ("marraskuuta", 11),
    ("joulukuuta", 12),
    // hu
    ("január", 1),
    ("február", 2),
    ("március", 3),
    ("április", 4),
    ("május", 5),
    ("június", 6),
    ("július", 7),
    ("augusztus", 8),
    ("szeptember", 9),
    ("október", 10),
    // ro
    ("ianuarie", 1),
    ("februarie", 2),
    ("martie", 3),
    ("aprilie", 4),
    ("iunie", 6),
    ("iulie", 7),
    ("septembrie", 9),
    ("octombrie", 10),
    ("noiembrie", 11),
    ("decembrie", 12),
    // id
    ("maret", 3),
    ("agustus", 8),
    ("desember", 12),
];

fn month_names() -> &'static std::collections::HashMap<&'static str, u8> {
    static M: OnceLock<std::collections::HashMap<&'static str, u8>> = OnceLock::new();
    M.get_or_init(|| MONTH_NAMES.iter().copied().collect())
}

fn month_word(text: &str, t: &Token) -> Option<u8> {
    if t.kind != Tk::Word || t.end - t.start > 40 {
        return None;
    }
    let w = &text[t.start..t.end];
    if w.is_ascii() {
        month_names().get(w.to_ascii_lowercase().as_str()).copied()
    } else {
        month_names().get(w.to_lowercase().as_str()).copied()
    }
}

/// Words that may stand between the parts of a date: ordinal suffixes
/// (`5th`, `1er`, `1º`) and the "of" of `5 de marzo de 2021`.
fn filler(text: &str, t: &Token) -> bool {
    t.kind == Tk::Word
        && matches!(
            text[t.start..t.end].to_ascii_lowercase().as_str(),
            "st" | "nd"
                | "rd"
                | "th"
                | "er"
                | "e"
                | "º"
                | "ª"
                | "de"
                | "del"
                | "of"
                | "du"
                | "do"
                | "da"
        )
}

fn is_year(v: u32, digits: u8) -> bool {
    digits == 4 && (1900..=2100).contains(&v)
}

/// Every complete date (day, month and year) written in `text`, in many
/// languages and formats: ISO `2021-03-12`, numeric `12.03.2021`/`03/12/2021`
/// (see [`ScanOptions`]), `12. März 2021`, `March 12th, 2021`,
/// `12 de marzo de 2021`, `2021. március 12.`, `2021年3月12日`, `2021년 3월 12일`.
/// Bounded: at most the first 20 000 tokens of `text` are looked at.
pub(crate) fn scan(text: &str, opts: ScanOptions) -> Vec<Found> {
    let toks = tokenize(text, 20_000);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if let Some((day, next)) = date_at(text, &toks, i, opts) {
            out.push(Found {
                day,
                start: toks[i].start,
                end: toks[next - 1].end,
            });
            i = next;
        } else {
            i += 1;
        }
    }
    out
}

/// The date starting at token `i`, and the index of the token after it.
fn date_at(text: &str, t: &[Token], i: usize, opts: ScanOptions) -> Option<(String, usize)> {
    let num = |k: usize| match t.get(k).map(|x| x.kind) {
        Some(Tk::Num(v, d)) => Some((v, d)),
        _ => None,
    };
    let punct = |k: usize| match t.get(k).map(|x| x.kind) {
        Some(Tk::Punct(c)) => Some(c),
        _ => None,
    };
    let tight = |k: usize| t.get(k).is_some_and(|x| !x.gap);
    let word = |k: usize, w: &[&str]| {
        t.get(k)
            .is_some_and(|x| x.kind == Tk::Word && w.contains(&&text[x.start..x.end]))
    };
    // A number glued to a preceding number-and-separator is part of something
    // longer (a version, an IP address, a phone number).
    if i >= 2
        && !t[i].gap
        && matches!(t[i - 1].kind, Tk::Punct('.' | '/' | '-' | ':'))
        && !t[i - 1].gap
        && num(i - 2).is_some()
    {
        return None;
    }
    let done = |y: u32, m: u32, d: u32, next: usize| -> Option<(String, usize)> {
        // Not the start of a longer numeric run (`2021-03-12-7`).
        if matches!(punct(next), Some('.' | '/' | '-'))
            && tight(next)
            && num(next + 1).is_some()
            && tight(next + 1)
        {
            return None;
        }
        let m = u8::try_from(m).ok()?;
        let d = u8::try_from(d).ok()?;
        valid(i32::try_from(y).ok()?, m, d).map(|s| (s, next))
    };
    if let Some((a, da)) = num(i) {
        // ISO-like: 2021-03-12, 2021/03/12, 2021.03.12 (same separator, no spaces).
        if is_year(a, da)
            && let Some(s) = punct(i + 1).filter(|c| matches!(c, '-' | '/' | '.'))
            && tight(i + 1)
            && tight(i + 2)
            && punct(i + 3) == Some(s)
            && tight(i + 3)
            && tight(i + 4)
            && let (Some((m, dm)), Some((d, dd))) = (num(i + 2), num(i + 4))
            && dm <= 2
            && dd <= 2
        {
            return done(a, m, d, i + 5);
        }
        // CJK: 2021年3月12日 / 2021년 3월 12일.
        if is_year(a, da)
            && word(i + 1, &["年", "년"])
            && let Some((m, _)) = num(i + 2)
            && word(i + 3, &["月", "월"])
            && let Some((d, _)) = num(i + 4)
        {
            let next = if word(i + 5, &["日", "일"]) {
                i + 6
            } else {
                i + 5
            };
            return done(a, m, d, next);
        }
        // Year first with a month name: "2021. március 12.", "2021 March 12".
        if is_year(a, da) {
            let mut k = i + 1;
            if punct(k) == Some('.') {
                k += 1;
            }
            if let Some(m) = t.get(k).and_then(|x| month_word(text, x)) {
                let mut k2 = k + 1;
                if punct(k2) == Some('.') {
                    k2 += 1;
                }
                if let Some((d, dd)) = num(k2)
                    && dd <= 2
                    && !matches!(punct(k2 + 1), Some(':'))
                {
                    let next = if punct(k2 + 1) == Some('.') {
                        k2 + 2
                    } else {
                        k2 + 1
                    };
                    return done(a, u32::from(m), d, next);
                }
            }
        }
        // Numeric day and month first: 12.03.2021, 03/12/2021, 12-03-2021, 12.03.21.
        if da <= 2
            && let Some(s) = punct(i + 1).filter(|c| matches!(c, '.' | '/' | '-'))
            && tight(i + 1)
            && tight(i + 2)
            && let Some((b, db)) = num(i + 2)
            && db <= 2
            && punct(i + 3) == Some(s)
            && tight(i + 3)
            && tight(i + 4)
            && let Some((y, dy)) = num(i + 4)
        {
            let y = if is_year(y, dy) {
                y
            } else if dy == 2 && opts.short_years && s != '-' {
                2000 + y
            } else {
                return None;
            };
            let (d, m) = if a > 12 {
                (a, b)
            } else if b > 12 || (opts.month_first && s != '.') {
                (b, a)
            } else {
                (a, b)
            };
            return done(y, m, d, i + 5);
        }
        // Day, then a month name: "12. März 2021", "5th of March, 2021",
        // "12 de marzo de 2021", "12 марта 2021 г.".
        if da <= 2 {
            let mut k = i + 1;
            if punct(k) == Some('.') {
                k += 1;
            }
            while k < i + 4 && t.get(k).is_some_and(|x| filler(text, x)) {
                k += 1;
            }
            if let Some(m) = t.get(k).and_then(|x| month_word(text, x)) {
                let mut k2 = k + 1;
                while matches!(punct(k2), Some('.' | ',')) && k2 < k + 3 {
                    k2 += 1;
                }
                if t.get(k2).is_some_and(|x| filler(text, x)) {
                    k2 += 1;
                }
                if let Some((y, dy)) = num(k2)
                    && is_year(y, dy)
                {
                    return done(y, u32::from(m), a, k2 + 1);
                }
            }
        }
        return None;
    }
    // Month name first: "March 12, 2021", "Mar. 12th 2021".
    if let Some(m) = month_word(text, &t[i]) {
        let mut k = i + 1;
        if punct(k) == Some('.') {
            k += 1;
        }
        if let Some((d, dd)) = num(k)
            && dd <= 2
        {
            let mut k2 = k + 1;
            if t.get(k2).is_some_and(|x| filler(text, x)) && tight(k2) {
                k2 += 1;
            }
            if punct(k2) == Some(',') {
                k2 += 1;
            }
            if let Some((y, dy)) = num(k2)
                && is_year(y, dy)
            {
                return done(y, u32::from(m), d, k2 + 1);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Dates the three parsers accept, and pieces that may come before or
    /// after them.
    const ACCEPTED: &[&str] = &[
        "2024-03-01T12:30:00Z",
        "2024-03-01T12:30:00+02:00",
        "+002024-03-01T12:30:00Z",
        "2024-03-01T12:30:00",
        "2024-03-01 12:30",
        "Fri, 01 Mar 2024 12:30:00 +0000",
        "1 Mar 2024 12:30 GMT",
        "01 Mar 2024 12:30:00 -0500",
    ];
    const PIECES: &[&str] = &[
        "", " ", "x", "1", "-", "+", ":", "Fri, ", " GMT", "Z", "T", "0",
    ];

    proptest! {
        /// `normalize_date` skips a parser on text without what the parser
        /// needs: nothing such a parser accepts is skipped.
        #[test]
        fn the_parsers_are_skipped_only_where_they_fail(
            date in proptest::sample::select(ACCEPTED),
            before in proptest::sample::select(PIECES),
            after in proptest::sample::select(PIECES),
        ) {
            let s = format!("{before}{date}{after}");
            let s = s.trim();
            if s.parse::<jiff::Timestamp>().is_ok() || s.parse::<jiff::civil::DateTime>().is_ok() {
                prop_assert!(may_be_iso_8601(s), "{s:?}");
            }
            if jiff::fmt::rfc2822::parse(s).is_ok() {
                prop_assert!(may_be_rfc_2822(s), "{s:?}");
            }
        }
    }

    #[test]
    fn every_accepted_form_is_read() {
        for d in ACCEPTED {
            assert!(normalize_date(d).is_some_and(|v| v.contains('T')), "{d}");
        }
    }

    #[test]
    fn forms() {
        assert_eq!(
            normalize_date("2024-03-01T12:30:00+02:00").as_deref(),
            Some("2024-03-01T10:30:00Z")
        );
        assert_eq!(
            normalize_date("2024-03-01T12:30:00").as_deref(),
            Some("2024-03-01T12:30:00Z")
        );
        assert_eq!(normalize_date("2024-03-01").as_deref(), Some("2024-03-01"));
        assert_eq!(
            normalize_date("Fri, 01 Mar 2024 12:30:00 +0000").as_deref(),
            Some("2024-03-01T12:30:00Z")
        );
        assert_eq!(
            normalize_date("Published March 5th, 2021").as_deref(),
            Some("2021-03-05")
        );
        assert_eq!(
            normalize_date("5 Sept. 2021").as_deref(),
            Some("2021-09-05")
        );
        assert_eq!(
            normalize_date("due 15.03.2026").as_deref(),
            Some("2026-03-15")
        );
        assert_eq!(normalize_date("31.02.2026"), None);
        assert_eq!(normalize_date("2021-02-30"), None);
        assert_eq!(normalize_date("nonsense"), None);
    }
}
