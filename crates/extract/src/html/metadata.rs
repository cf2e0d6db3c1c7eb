//! Page metadata: title, publisher, authors, dates, language and canonical URL,
//! from JSON-LD, OpenGraph, meta tags, `<time>` and `<title>`.

use super::dom::{self, Dom, Tag};
use crate::Metadata;
use serde_json::Value;
use std::collections::HashMap;
use url::Url;

/// Fills what only the main text can tell: the publication date as a last
/// resort (see [`super::dates`]).
pub(super) fn with_text_fallbacks(
    mut m: Metadata,
    dom: &Dom,
    url: Option<&Url>,
    text: &str,
    html: &str,
) -> Metadata {
    if m.published_at.is_none() {
        let opts = super::dates::scan_options(m.language.as_deref(), url);
        m.published_at = super::dates::embedded_date(html)
            .or_else(|| super::dates::text_date(dom, text, opts))
            .or_else(|| super::dates::image_url_date(dom, opts))
            .or_else(|| super::dates::description_date(dom, opts));
    }
    m
}

fn meta<'a>(dom: &'a Dom, keys: &[&str]) -> Option<&'a str> {
    keys.iter().find_map(|k| {
        dom.head
            .metas
            .iter()
            .find(|(n, v)| n == k && !v.is_empty())
            .map(|(_, v)| v.as_str())
    })
}

#[derive(Default)]
struct LdInfo {
    title: Option<String>,
    publisher: Option<String>,
    authors: Vec<String>,
    published: Option<String>,
    modified: Option<String>,
    language: Option<String>,
    url: Option<String>,
}

fn ld_name(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.trim().to_string()],
        Value::Array(a) => a.iter().flat_map(ld_name).collect(),
        Value::Object(o) => o.get("name").map(ld_name).unwrap_or_default(),
        _ => vec![],
    }
}

/// Whether a JSON-LD `@type` names an organisation (a site, a publisher, a
/// news agency), which is not a person who wrote the page.
fn is_organization_type(v: Option<&Value>) -> bool {
    let check =
        |s: &str| s.ends_with("Organization") || matches!(s, "Corporation" | "WebSite" | "Brand");
    match v {
        Some(Value::String(s)) => check(s),
        Some(Value::Array(a)) => a.iter().any(|x| x.as_str().is_some_and(check)),
        _ => false,
    }
}

/// JSON-LD objects of the page by their `@id`, for resolving references.
type LdIndex<'a> = HashMap<&'a str, &'a serde_json::Map<String, Value>>;

/// Names of a JSON-LD `author`: strings, `Person` objects (also inside
/// arrays), and references `{"@id": …}` resolved against the other objects of
/// the page (`@graph`); organisations and bare URLs are not authors.
fn ld_authors(v: &Value, by_id: &LdIndex, depth: usize) -> Vec<String> {
    match v {
        Value::String(s) if !s.trim().starts_with("http") => vec![s.trim().to_string()],
        Value::Array(a) => a.iter().flat_map(|x| ld_authors(x, by_id, depth)).collect(),
        Value::Object(o) => ld_person(o, by_id, depth),
        _ => vec![],
    }
}

fn ld_person(o: &serde_json::Map<String, Value>, by_id: &LdIndex, depth: usize) -> Vec<String> {
    if is_organization_type(o.get("@type")) {
        return vec![];
    }
    if let Some(name) = o.get("name") {
        return ld_name(name);
    }
    match o
        .get("@id")
        .and_then(Value::as_str)
        .and_then(|id| by_id.get(id))
    {
        Some(target) if depth < 4 => ld_person(target, by_id, depth + 1),
        _ => vec![],
    }
}

fn ld_str(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Array(a) => a.iter().find_map(|x| ld_str(Some(x))),
        Value::Object(o) => ld_str(o.get("@id").or(o.get("url"))),
        _ => None,
    }
}

fn is_article_type(v: Option<&Value>) -> bool {
    let check = |s: &str| {
        s.ends_with("Article")
            || matches!(
                s,
                "BlogPosting"
                    | "Report"
                    | "WebPage"
                    | "LiveBlogPosting"
                    | "Review"
                    | "ScholarlyArticle"
                    | "SocialMediaPosting"
                    | "Posting"
                    | "Recipe"
                    | "Question"
            )
    };
    match v {
        Some(Value::String(s)) => check(s),
        Some(Value::Array(a)) => a.iter().any(|x| x.as_str().is_some_and(check)),
        _ => false,
    }
}

fn collect_ld(v: &Value, out: &mut Vec<serde_json::Map<String, Value>>, depth: usize) {
    if depth > 8 || out.len() > 64 {
        return;
    }
    match v {
        Value::Array(a) => a.iter().for_each(|x| collect_ld(x, out, depth + 1)),
        Value::Object(o) => {
            if let Some(g) = o.get("@graph") {
                collect_ld(g, out, depth + 1);
            }
            if o.contains_key("@type") {
                out.push(o.clone());
            }
            if let Some(m) = o.get("mainEntity") {
                collect_ld(m, out, depth + 1);
            }
        }
        _ => {}
    }
}

fn json_ld(dom: &Dom) -> LdInfo {
    let mut objs = Vec::new();
    for s in &dom.head.json_ld {
        let s = s
            .trim()
            .trim_start_matches("<!--")
            .trim_end_matches("-->")
            .trim();
        if let Ok(v) = serde_json::from_str::<Value>(s) {
            collect_ld(&v, &mut objs, 0);
        }
    }
    let mut info = LdInfo::default();
    // Articles first (more specific than WebPage), then anything else.
    objs.sort_by_key(|o| match o.get("@type") {
        t if is_article_type(t) && !matches!(t, Some(Value::String(s)) if s == "WebPage") => 0,
        t if is_article_type(t) => 1,
        _ => 2,
    });
    let by_id: LdIndex = objs
        .iter()
        .filter_map(|o| Some((o.get("@id")?.as_str()?, o)))
        .collect();
    for o in &objs {
        let article = is_article_type(o.get("@type"));
        if article {
            if info.title.is_none() {
                info.title = ld_str(o.get("headline")).or_else(|| ld_str(o.get("name")));
            }
            if info.authors.is_empty()
                && let Some(a) = o.get("author").or(o.get("creator"))
            {
                info.authors = ld_authors(a, &by_id, 0)
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect();
            }
            if info.publisher.is_none() {
                info.publisher = o
                    .get("publisher")
                    .map(ld_name)
                    .and_then(|v| v.into_iter().next())
                    .filter(|s| !s.is_empty());
            }
            if info.published.is_none() {
                info.published =
                    ld_str(o.get("datePublished")).or_else(|| ld_str(o.get("dateCreated")));
            }
            if info.modified.is_none() {
                info.modified = ld_str(o.get("dateModified"));
            }
            if info.language.is_none() {
                info.language = ld_str(o.get("inLanguage"));
            }
            if info.url.is_none() {
                info.url = ld_str(o.get("mainEntityOfPage"))
                    .or_else(|| ld_str(o.get("url")))
                    .filter(|u| u.starts_with("http"));
            }
        } else if info.publisher.is_none()
            && matches!(o.get("@type"), Some(Value::String(s)) if s == "Organization" || s == "NewsMediaOrganization" || s == "WebSite")
        {
            info.publisher = ld_str(o.get("name"));
        }
    }
    // Dates of any other object, then of JSON-LD that does not parse (trailing
    // commas, raw line breaks in strings): the first `"datePublished": "…"`.
    if info.published.is_none() {
        info.published = objs
            .iter()
            .find_map(|o| ld_str(o.get("datePublished")))
            .or_else(|| raw_ld_value(dom, "\"datePublished\""));
    }
    if info.modified.is_none() {
        info.modified = objs
            .iter()
            .find_map(|o| ld_str(o.get("dateModified")))
            .or_else(|| raw_ld_value(dom, "\"dateModified\""));
    }
    info
}

/// The string value after the first `key` (quoted) in the raw JSON-LD blocks.
fn raw_ld_value(dom: &Dom, key: &str) -> Option<String> {
    dom.head.json_ld.iter().find_map(|s| {
        let rest = &s[s.find(key)? + key.len()..];
        let rest = rest
            .trim_start()
            .strip_prefix(':')?
            .trim_start()
            .strip_prefix('"')?;
        let value = &rest[..rest.find('"')?];
        (!value.is_empty() && value.len() < 64).then(|| value.to_string())
    })
}

fn resolve(url: Option<&Url>, href: &str) -> Option<String> {
    match url {
        Some(base) => base.join(href).ok().map(|u| u.to_string()),
        None => Url::parse(href).ok().map(|u| u.to_string()),
    }
}

/// "By" in the languages bylines are written in; matched case-insensitively
/// at the start, followed by a space or a colon.
const BY_PREFIXES: &[&str] = &[
    "posted by",
    "veröffentlicht von",
    "geschrieben von",
    "eingestellt von",
    "publié par",
    "publicado por",
    "escrito por",
    "scritto da",
    "written by",
    "reported by",
    "story by",
    "words by",
    "text by",
    "by",
    "von",
    "par",
    "por",
    "door",
    "przez",
    "av",
    "af",
];

/// Labels that introduce names only when followed by a colon (`Autor: …`).
const NAME_LABELS: &[&str] = &[
    "autor/in",
    "autor*in",
    "author",
    "authors",
    "autor",
    "autorin",
    "auteur",
    "autore",
    "text",
    "texto",
    "testo",
    "redaktion",
    "written",
];

/// Words that are job titles or labels, not names (whole words, any case).
const ROLE_WORDS: &[&str] = &[
    "writer",
    "reporter",
    "editor",
    "editors",
    "correspondent",
    "staff",
    "contributor",
    "contributing",
    "columnist",
    "published",
    "updated",
    "redakteur",
    "redakteurin",
    "journalist",
    "journalistin",
    "rédaction",
    "redacción",
    "redazione",
    "photo",
    "photos",
    "foto",
    "fotos",
    "admin",
    "administrator",
    "redaktion",
    "newsroom",
    "desk",
    "team",
    "reports",
    "anonymous",
    "unknown",
    "guest",
    "author",
    "authors",
    "autor",
    "autoren",
    "autorin",
    "innen",
    "auteur",
    "text",
    "beitrag",
    "datum",
    "date",
    "veröffentlicht",
    "kolumnist",
    "kolumnistin",
    "collectif",
    "publié",
    "posted",
    "geschrieben",
    "eingestellt",
    "profil",
    "profile",
    "newsdesk",
    "phd",
    "ph.d",
    "m.d",
    "mba",
];

/// Besides the English month names (but `May`, a name too: "Theresa May"),
/// the words that start the date after a byline's names: English
/// abbreviations, weekdays, German months and weekdays. See [`date_words`].
const DATE_WORDS: &[&str] = &[
    "Jan.",
    "Feb.",
    "Mar.",
    "Apr.",
    "Jun.",
    "Jul.",
    "Aug.",
    "Sep.",
    "Sept.",
    "Oct.",
    "Nov.",
    "Dec.",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Januar ",
    "Februar ",
    "März",
    "Juni ",
    "Juli ",
    "Oktober",
    "Dezember",
    "Montag",
    "Dienstag",
    "Mittwoch",
    "Donnerstag",
    "Freitag",
    "Samstag",
    "Sonntag",
];

/// Month and weekday names (English, German, their English abbreviations)
/// that start the date after a byline's names.
fn date_words() -> impl Iterator<Item = &'static str> {
    sgw_text::MONTHS
        .iter()
        .copied()
        .filter(|m| *m != "May")
        .chain(DATE_WORDS.iter().copied())
}

/// Where the first " " + date word ([`date_words`]) of `s` starts: the
/// space before it. One pass over the spaces, nothing allocated.
fn first_date_word(s: &str) -> Option<usize> {
    memchr::memchr_iter(b' ', s.as_bytes())
        .find(|&i| date_words().any(|w| s[i + 1..].starts_with(w)))
}

/// English month abbreviations (without the full stop).
const MONTH_ABBREVIATIONS: &[&str] = &[
    "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
];

/// Words joining several names: "and" in the languages of [`BY_PREFIXES`].
const AND_WORDS: &[&str] = &[
    " and ", " und ", " et ", " y ", " e ", " en ", " og ", " och ", " i ", " i ",
];

/// Whether a word is a host name (`www.dw.com`, `example.de`), not part of a name.
fn looks_like_domain(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    let lower = w.to_ascii_lowercase();
    lower.starts_with("www.")
        || lower.rsplit_once('.').is_some_and(|(name, tld)| {
            name.len() >= 2
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
                && matches!(
                    tld,
                    "com"
                        | "net"
                        | "org"
                        | "de"
                        | "uk"
                        | "fr"
                        | "it"
                        | "es"
                        | "nl"
                        | "at"
                        | "ch"
                        | "io"
                        | "info"
                        | "news"
                )
        })
}

/// Strips one "By"-like prefix (or a `Label:`) from the start of a byline.
fn strip_by(s: &str) -> &str {
    let s = s.trim();
    for prefix in BY_PREFIXES {
        let n = prefix.len();
        if s.len() > n
            && s.is_char_boundary(n)
            && s[..n].eq_ignore_ascii_case(prefix)
            && s[n..].starts_with([' ', ':', '\n'])
        {
            let rest = s[n..].trim_start_matches([' ', ':', '\n']);
            // "Von"/"Par"/… are also name particles: strip them only before a capital.
            if n > 3 || prefix.starts_with("by") || rest.starts_with(char::is_uppercase) {
                return rest;
            }
        }
    }
    for label in NAME_LABELS {
        let n = label.len();
        if s.len() > n
            && s.is_char_boundary(n)
            && s[..n].eq_ignore_ascii_case(label)
            && s[n..].trim_start_matches(' ').starts_with([':', '\n'])
        {
            return s[n..].trim_start_matches(' ')[1..].trim_start();
        }
        // "Author Daniel Lemire": a label before a capitalised name.
        if s.len() > n + 1
            && s.is_char_boundary(n)
            && s[..n].eq_ignore_ascii_case(label)
            && s[n..].starts_with(' ')
            && s[n + 1..].starts_with(char::is_uppercase)
        {
            return &s[n + 1..];
        }
    }
    s
}

/// Author names from a byline or an `author` meta value: "By" prefixes (in
/// several languages), e-mail addresses, dates and job titles removed; several
/// names split on `,`, `;`, `&`, `/` and "and" (`und`, `et`, `y`, …).
fn split_authors(s: &str) -> Vec<String> {
    let s = strip_by(s);
    // "Deutsche Welle (www.dw.com)", "speicherguide.de": a site, not a person.
    let head = s.split(['|', '•', '\n']).next().unwrap_or(s);
    if head.split([' ', '(', ')']).any(looks_like_domain) {
        return Vec::new();
    }
    // Cut at what usually follows the names in a byline.
    let mut end = s.len();
    for stop in [
        "|",
        "•",
        "\n",
        " on ",
        " - ",
        " – ",
        " — ",
        " updated",
        " Updated",
        " published",
        " Published",
        "(",
        "·",
        " am ",
        " le ",
        " el ",
        " il ",
        "©",
    ] {
        if let Some(p) = s.find(stop) {
            end = end.min(p);
        }
    }
    if let Some(p) = s.find(|c: char| c.is_ascii_digit()) {
        end = end.min(p);
    }
    if let Some(p) = glued_outlet(s) {
        end = end.min(p);
    }
    if let Some(p) = first_date_word(s) {
        end = end.min(p);
    }
    let s = &s[..end];
    // Fifty names fit in a few kilobytes: a longer byline is read up to its
    // last separator before that, so a hostile one costs no more.
    let s = if s.len() > MAX_BYLINE_BYTES {
        let cut = crate::passages::floor_boundary(s, MAX_BYLINE_BYTES);
        &s[..s[..cut].rfind([',', ';']).unwrap_or(cut)]
    } else {
        s
    };
    // E-mail addresses and handles are not names.
    let s: String = s
        .split(' ')
        .filter(|w| !w.contains('@'))
        .collect::<Vec<_>>()
        .join(" ");
    // "Example Verlag GmbH, Munich, Germany": a firm and its address.
    if s.split([',', ';']).next().is_some_and(|first| {
        first.split_whitespace().any(|w| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            FIRM_WORDS.iter().any(|f| w.eq_ignore_ascii_case(f))
        })
    }) {
        return Vec::new();
    }
    // (part, whether it follows a comma): a place or an outlet is written
    // after a comma ("Jane Doe, Paris"), a co-author after "and".
    let mut parts: Vec<(String, bool)> = Vec::new();
    for (gi, group) in s.split(',').enumerate() {
        let mut sub: Vec<String> = vec![group.to_string()];
        for sep in [";", "&", " / "].iter().chain(AND_WORDS) {
            sub = sub
                .iter()
                .flat_map(|p| p.split(sep).map(str::to_string).collect::<Vec<_>>())
                .collect();
        }
        parts.extend(
            sub.into_iter()
                .enumerate()
                .map(|(si, p)| (p, gi > 0 && si == 0)),
        );
    }
    let names: Vec<(String, bool)> = parts
        .into_iter()
        .map(|(p, after_comma)| {
            let p = strip_by(p.trim()).trim_end_matches(['.', ':']).trim();
            // A month abbreviation left before the cut date ("Jane Roe Nov 19").
            let p = match p.rsplit_once(' ') {
                Some((rest, last)) if MONTH_ABBREVIATIONS.contains(&last) => rest.trim(),
                _ => p,
            };
            (p.to_string(), after_comma)
        })
        .filter(|(p, _)| {
            let words = p.split_whitespace().count();
            !p.is_empty()
                && p.len() < 50
                && (1..=4).contains(&words)
                && !p.starts_with("http")
                && !p.contains(['!', '?', '"', '“', '”', '«', '»'])
                && p.chars().next().is_some_and(|c| !c.is_lowercase())
                && p.chars().filter(|c| c.is_alphabetic()).count() >= 3
                && !date_words().any(|d| p.eq_ignore_ascii_case(d.trim()))
                && !p.split_whitespace().any(|w| {
                    let w = w.trim_matches(|c: char| !c.is_alphanumeric());
                    FIRM_WORDS.iter().any(|f| w.eq_ignore_ascii_case(f))
                })
                && !p.split([' ', '-', '*', '/']).any(|w| {
                    let w = w.trim_matches(|c: char| !c.is_alphanumeric());
                    ROLE_WORDS.iter().any(|r| w.eq_ignore_ascii_case(r))
                })
                && !is_wire_agency(p)
        })
        .collect();
    // After a full name and a comma, what follows in the same byline is where
    // it was written or who published it ("Jane Doe, Paris", "Jane Doe, New
    // York", "Jane Doe, The Washington Post", "Jane Doe, CNN"), not another
    // author.
    let mut out: Vec<String> = Vec::new();
    let mut full_name_before = false;
    for (n, after_comma) in names {
        if after_comma && full_name_before && place_or_outlet(&n) {
            continue;
        }
        full_name_before |= n.split_whitespace().count() >= 2;
        out.push(n);
        if out.len() == MAX_AUTHORS {
            break;
        }
    }
    out
}

/// The most names a page's authors are read as: a long author list on a
/// paper is cut here, and a hostile page's thousands of "names" cost no more
/// than this many.
const MAX_AUTHORS: usize = 50;

/// The longest byline read for names (see [`split_authors`]).
const MAX_BYLINE_BYTES: usize = 4096;

/// Wire agencies and their desks: they carry a story, they are not its
/// author (matched as a whole part, a leading "The" ignored; "AFP/Reuters"
/// is agencies too).
const WIRE_AGENCIES: &[&str] = &[
    "reuters",
    "ap",
    "associated press",
    "afp",
    "agence france-presse",
    "agence france presse",
    "dpa",
    "dpa-afx",
    "deutsche presse-agentur",
    "pti",
    "press trust of india",
    "ians",
    "ani",
    "upi",
    "united press international",
    "xinhua",
    "ansa",
    "efe",
    "kyodo",
    "kyodo news",
    "yonhap",
    "tass",
    "ria novosti",
    "kna",
    "epd",
    "apa",
    "sda",
    "keystone-sda",
    "aap",
    "australian associated press",
    "canadian press",
    "anp",
    "belga",
    "bns",
    "ntb",
    "bloomberg",
    "bloomberg news",
    "agencies",
    "agencias",
    "agenturen",
    "news agencies",
    "wire services",
    "wires",
];

/// Whether a name is a wire agency (see [`WIRE_AGENCIES`]).
fn is_wire_agency(name: &str) -> bool {
    let lower = name.trim().to_lowercase();
    let lower = lower.strip_prefix("the ").unwrap_or(&lower);
    let known = |s: &str| WIRE_AGENCIES.contains(&s.trim());
    known(lower) || (lower.contains('/') && lower.split('/').all(known))
}

/// First words of places written after a byline's name in two words or
/// more ("New York", "Los Angeles", "Hong Kong", "Rio de Janeiro").
const PLACE_FIRST_WORDS: &[&str] = &[
    "New", "Los", "Las", "San", "Santa", "Saint", "St.", "Sankt", "Hong", "Rio", "Buenos", "Tel",
    "Abu", "Kuala", "Cape", "Mexico", "Sri",
];

/// Whether a part of a byline after a full name is a place or an outlet:
/// one word ("Paris", "CNN"), a place of [`PLACE_FIRST_WORDS`], a title
/// starting with "The", or a name with a word of [`ORGANIZATION_WORDS`]
/// (three letters or more).
fn place_or_outlet(part: &str) -> bool {
    let words: Vec<&str> = part.split_whitespace().collect();
    words.len() == 1
        || words
            .first()
            .is_some_and(|w| PLACE_FIRST_WORDS.contains(w) || w.eq_ignore_ascii_case("the"))
        || words.iter().any(|w| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            ORGANIZATION_WORDS
                .iter()
                .any(|o| o.len() >= 3 && w.eq_ignore_ascii_case(o))
        })
}

/// Where a byline runs into the paper's name without a space
/// ("Isabel KeaneJournal News"): a lower-case letter followed by a capital
/// that starts a word of [`ORGANIZATION_WORDS`] of four letters or more
/// after a first word (a capital inside a name, "McGrath", "DiBiase", is
/// not one, nor is a brand written in one word, "AppleInsider").
fn glued_outlet(s: &str) -> Option<usize> {
    // One pass: whether a first word has ended, and at most one word's worth
    // of letters read at each capital (a long run of glued letters must not
    // make this quadratic).
    let longest = ORGANIZATION_WORDS
        .iter()
        .map(|w| w.chars().count())
        .max()
        .unwrap_or(0);
    let mut prev_lower = false;
    let mut in_word = false;
    let mut after_first_word = false;
    for (i, c) in s.char_indices() {
        // Only after a first word: a one-word brand ("AppleInsider") is not a byline.
        if prev_lower && c.is_uppercase() && after_first_word {
            let mut word = String::new();
            let mut letters = 0;
            for c in s[i..]
                .chars()
                .take_while(|c| c.is_alphabetic())
                .take(longest + 1)
            {
                word.extend(c.to_lowercase());
                letters += 1;
            }
            if letters >= 4 && letters <= longest && ORGANIZATION_WORDS.contains(&word.as_str()) {
                return Some(i);
            }
        }
        if c.is_whitespace() {
            after_first_word |= in_word;
        } else {
            in_word = true;
        }
        prev_lower = c.is_lowercase();
    }
    None
}

/// The page's authors, from the first source that names a person: JSON-LD,
/// author meta tags, byline elements (`rel=author`, `itemprop=author`, class
/// `byline`/`author`, outside comments), then a short visible line "By X and
/// Y" (or "Von", "Par", "Por", …). Each source's names are cleaned and split
/// by [`split_authors`]; the site's own name, generic desks ("Admin",
/// "Redaktion") and URLs do not count as names.
fn authors(dom: &Dom, url: Option<&Url>, ld: &[String], publisher: Option<&str>) -> Vec<String> {
    // The site's names, and each part of a name such as "LinkNaija | News".
    let site_names: Vec<String> = [publisher, meta(dom, &["og:site_name", "application-name"])]
        .into_iter()
        .flatten()
        .flat_map(|n| std::iter::once(n).chain(n.split(['|', ':', '–', '—']).chain(n.split(" - "))))
        .map(squash)
        .filter(|s| s.len() >= 3)
        .collect();
    let host = url
        .and_then(Url::host_str)
        .map(|h| {
            h.trim_start_matches("www.")
                .split('.')
                .next()
                .unwrap_or("")
                .to_string()
        })
        .unwrap_or_default();
    let keep = |names: Vec<String>| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for n in names {
            let key = squash(&n);
            // "India Post News Weekly" on the site "India Post" is the site;
            // but a personal site is named after its author ("Jane Roe").
            let site = !looks_like_person(&n)
                && (site_names
                    .iter()
                    .any(|s| *s == key || (s.len() >= 6 && key.starts_with(s.as_str())))
                    || (!n.contains(' ') && host.len() >= 4 && host.contains(&key)));
            if !site && !out.iter().any(|x| x.eq_ignore_ascii_case(&n)) {
                out.push(n);
                if out.len() == MAX_AUTHORS {
                    break;
                }
            }
        }
        out
    };
    let from_ld = keep(ld.iter().flat_map(|a| split_authors(a)).collect());
    if !from_ld.is_empty() {
        return from_ld;
    }
    for key in AUTHOR_METAS {
        let names = keep(
            dom.head
                .metas
                .iter()
                .filter(|(k, v)| k == key && !v.is_empty())
                .flat_map(|(_, v)| split_authors(v))
                .collect(),
        );
        if !names.is_empty() {
            return names;
        }
    }
    for text in &dom.head.author_texts {
        let names = keep(split_authors(text));
        if !names.is_empty() {
            return names;
        }
    }
    keep(
        visible_byline(dom)
            .map(|b| split_authors(&b))
            .unwrap_or_default(),
    )
}

/// Meta tags that name the author, most specific first.
const AUTHOR_METAS: &[&str] = &[
    "author",
    "article:author",
    "dc.creator",
    "dc.creator.author",
    "parsely-author",
    "sailthru.author",
    "byl",
];

/// Whether a name reads as a person's: two to four capitalised words, none of
/// them a word that names an organisation ("News", "Zeitung", "GmbH").
fn looks_like_person(name: &str) -> bool {
    let words: Vec<&str> = name.split_whitespace().collect();
    (2..=4).contains(&words.len())
        && words.iter().all(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                && w.chars().skip(1).any(char::is_lowercase)
                && !ORGANIZATION_WORDS.iter().any(|o| {
                    w.trim_matches(|c: char| !c.is_alphanumeric())
                        .eq_ignore_ascii_case(o)
                })
        })
}

/// Words that make any name a firm's or a newsroom's, wherever it is found.
const FIRM_WORDS: &[&str] = &[
    "gmbh",
    "inc",
    "ltd",
    "llc",
    "e.v",
    "agency",
    "agencia",
    "agenzia",
    "agentur",
    "verlag",
    "editorial",
    "newsroom",
    "media",
    "news",
    "zeitung",
    "magazin",
    "magazine",
    "nachrichten",
    "noticias",
    "online",
    "foundation",
    "stiftung",
];

/// Words in the names of news sites, publishers and firms, not of people
/// (a site named like this is not its own author).
const ORGANIZATION_WORDS: &[&str] = &[
    "news",
    "post",
    "times",
    "press",
    "daily",
    "herald",
    "journal",
    "tribune",
    "gazette",
    "magazine",
    "magazin",
    "zeitung",
    "online",
    "media",
    "radio",
    "tv",
    "television",
    "network",
    "group",
    "agency",
    "agentur",
    "verlag",
    "gmbh",
    "inc",
    "ltd",
    "llc",
    "ag",
    "sa",
    "e.v",
    "foundation",
    "stiftung",
    "institute",
    "institut",
    "university",
    "universität",
    "blog",
    "today",
    "world",
    "info",
    "wire",
    "nachrichten",
    "noticias",
    "diario",
    "periódico",
    "revue",
    "express",
    "insider",
    "report",
    "review",
    "weekly",
    "monthly",
    "live",
    "channel",
    "service",
    "services",
    "team",
    "club",
    "verein",
    "shop",
    "store",
];

/// Lower-case letters and digits only: "The Daily-News" and "thedailynews" match.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The first short visible line that is a byline in words: an element whose
/// whole text (at most 100 bytes) starts with "By"/"Von"/"Par"/"Por"/… and
/// continues with capitalised names only ("By Jane Roe and John Doe",
/// "Von Max Muster, 12. März 2021"). Headings such as "Von Sarajevo zum
/// Flächenbrand" fail the names test.
fn visible_byline(dom: &Dom) -> Option<String> {
    const MAX: usize = 100;
    for (i, node) in dom.nodes.iter().enumerate() {
        if node.tag != Tag::Text || node.parent == dom::NONE {
            continue;
        }
        let t = dom.node_text(i as u32).trim_start();
        let Some(first) = t.split([' ', ':']).next() else {
            continue;
        };
        if !BY_PREFIXES
            .iter()
            .any(|p| !p.contains(' ') && first.eq_ignore_ascii_case(p))
        {
            continue;
        }
        let parent = node.parent;
        if dom.nodes[parent as usize].hidden || in_hidden(dom, parent) {
            continue;
        }
        let mut text = String::new();
        let mut stack = vec![parent];
        while let Some(x) = stack.pop() {
            if dom.nodes[x as usize].tag == Tag::Text {
                text.push_str(dom.node_text(x));
                if text.len() > MAX {
                    break;
                }
            }
            let start = stack.len();
            stack.extend(dom.children(x));
            stack[start..].reverse();
        }
        let text = text.trim();
        if text.len() > MAX || !text.starts_with(first) {
            continue;
        }
        if names_only(strip_by(text)) {
            return Some(text.to_string());
        }
    }
    None
}

fn in_hidden(dom: &Dom, mut id: u32) -> bool {
    while id != dom::NONE {
        let n = &dom.nodes[id as usize];
        if n.hidden || matches!(n.tag, Tag::Head | Tag::Noscript) {
            return true;
        }
        id = n.parent;
    }
    false
}

/// Whether a byline (after "By") is names up to the first separator, date or
/// role: every name two to four words, each capitalised or a particle.
fn names_only(s: &str) -> bool {
    let names = split_authors(s);
    !names.is_empty()
        && names.iter().all(|n| {
            let words: Vec<&str> = n.split_whitespace().collect();
            (2..=4).contains(&words.len())
                && words.iter().all(|w| {
                    w.chars().next().is_some_and(char::is_uppercase) || NAME_PARTICLES.contains(w)
                })
        })
        && {
            // Nothing but joiners between the names and the cut.
            let head = s.split(['|', '•', '·', '(', '\n']).next().unwrap_or(s);
            head.split_whitespace().all(|w| {
                let w = w.trim_matches(|c: char| !c.is_alphanumeric());
                w.is_empty()
                    || w.chars()
                        .next()
                        .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
                    || NAME_PARTICLES.contains(&w)
                    || AND_WORDS.iter().any(|a| a.trim() == w)
                    || DATE_JOINERS.contains(&w)
            })
        }
}

/// Lower-case words inside names ("Ludwig van Beethoven").
const NAME_PARTICLES: &[&str] = &[
    "van", "von", "der", "den", "de", "da", "del", "della", "di", "du", "la", "le", "dos", "das",
    "ten", "ter", "bin", "al", "el",
];

/// Lower-case words that may follow the names before a date ("on", "am").
const DATE_JOINERS: &[&str] = &[
    "on",
    "am",
    "le",
    "el",
    "il",
    "at",
    "um",
    "published",
    "updated",
];

/// Metadata from JSON-LD, OpenGraph, meta tags, `<time>` and `<title>`, in that order.
pub fn metadata(dom: &Dom, url: Option<&Url>) -> crate::Metadata {
    let ld = json_ld(dom);
    let title = ld
        .title
        .clone()
        .or_else(|| {
            meta(dom, &["og:title", "twitter:title", "dc.title", "headline"]).map(str::to_string)
        })
        .or_else(|| dom.head.title.clone())
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty());
    let publisher = ld.publisher.clone().or_else(|| {
        meta(
            dom,
            &[
                "og:site_name",
                "application-name",
                "publisher",
                "dc.publisher",
                "twitter:site",
            ],
        )
        .map(str::to_string)
    });
    let authors = authors(dom, url, &ld.authors, publisher.as_deref());
    let language = dom
        .head
        .lang
        .clone()
        .or(ld.language.clone())
        .or_else(|| {
            meta(
                dom,
                &["og:locale", "content-language", "language", "dc.language"],
            )
            .map(str::to_string)
        })
        .map(|l| l.replace('_', "-"))
        .filter(|l| !l.is_empty() && l.len() < 36);
    let dates = super::dates::page_dates(
        dom,
        url,
        language.as_deref(),
        ld.published.as_deref(),
        ld.modified.as_deref(),
    );
    let canonical_url = dom
        .head
        .canonical
        .as_deref()
        .and_then(|c| resolve(url, c))
        .or_else(|| meta(dom, &["og:url"]).and_then(|c| resolve(url, c)))
        .or_else(|| ld.url.clone())
        .or_else(|| url.map(Url::to_string));
    Metadata {
        title,
        publisher,
        authors,
        published_at: dates.published,
        modified_at: dates.modified,
        language,
        canonical_url,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The one-pass scan finds what a search for each " " + word finds
        /// first (the byline cut of `split_authors`).
        #[test]
        fn first_date_word_is_the_earliest_of_the_words(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just("March"), Just("Mar"), Just("Updated"), Just("May"),
                    Just("Maria"), Just(" "), Just("é"), Just("Jane Doe"), Just(","),
                ],
                0..12,
            )
        ) {
            let s: String = parts.concat();
            let each = date_words()
                .filter_map(|w| s.find(&format!(" {w}")))
                .min();
            prop_assert_eq!(first_date_word(&s), each);
        }
    }
}
