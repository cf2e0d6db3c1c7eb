//! Page metadata: title, publisher, authors, dates, language and canonical URL,
//! from JSON-LD, OpenGraph, meta tags, `<time>` and `<title>`.

use super::dom::Dom;
use crate::Metadata;
use serde_json::Value;
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
            .or_else(|| super::dates::image_url_date(dom, opts));
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
    for o in &objs {
        let article = is_article_type(o.get("@type"));
        if article {
            if info.title.is_none() {
                info.title = ld_str(o.get("headline")).or_else(|| ld_str(o.get("name")));
            }
            if info.authors.is_empty()
                && let Some(a) = o.get("author").or(o.get("creator"))
            {
                info.authors = ld_name(a).into_iter().filter(|s| !s.is_empty()).collect();
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
];

/// Words joining several names: "and" in the languages of [`BY_PREFIXES`].
const AND_WORDS: &[&str] = &[
    " and ", " und ", " et ", " y ", " e ", " en ", " og ", " och ", " i ", " i ",
];

/// Strips one "By"-like prefix (or a `Label:`) from the start of a byline.
fn strip_by(s: &str) -> &str {
    let s = s.trim();
    for prefix in BY_PREFIXES {
        let n = prefix.len();
        if s.len() > n
            && s.is_char_boundary(n)
            && s[..n].eq_ignore_ascii_case(prefix)
            && s[n..].starts_with([' ', ':'])
        {
            let rest = s[n..].trim_start_matches([' ', ':']);
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
            && s[n..].trim_start().starts_with(':')
        {
            return s[n..].trim_start()[1..].trim_start();
        }
    }
    s
}

/// Author names from a byline or an `author` meta value: "By" prefixes (in
/// several languages), e-mail addresses, dates and job titles removed; several
/// names split on `,`, `;`, `&`, `/` and "and" (`und`, `et`, `y`, …).
fn split_authors(s: &str) -> Vec<String> {
    let s = strip_by(s);
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
    ] {
        if let Some(p) = s.find(stop) {
            end = end.min(p);
        }
    }
    if let Some(p) = s.find(|c: char| c.is_ascii_digit()) {
        end = end.min(p);
    }
    for month in [
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
    ] {
        if let Some(p) = s.find(&format!(" {month}")) {
            end = end.min(p);
        }
    }
    let s = &s[..end];
    // E-mail addresses and handles are not names.
    let s: String = s
        .split(' ')
        .filter(|w| !w.contains('@'))
        .collect::<Vec<_>>()
        .join(" ");
    let mut parts: Vec<String> = vec![s];
    for sep in [",", ";", "&", " / "].iter().chain(AND_WORDS) {
        parts = parts
            .iter()
            .flat_map(|p| p.split(sep).map(str::to_string).collect::<Vec<_>>())
            .collect();
    }
    parts
        .into_iter()
        .map(|p| {
            strip_by(p.trim())
                .trim_end_matches(['.', ':'])
                .trim()
                .to_string()
        })
        .filter(|p| {
            let words = p.split_whitespace().count();
            !p.is_empty()
                && p.len() < 50
                && (1..=4).contains(&words)
                && !p.starts_with("http")
                && p.chars().next().is_some_and(|c| !c.is_lowercase())
                && !p.split_whitespace().any(|w| {
                    let w = w.trim_matches(|c: char| !c.is_alphanumeric());
                    ROLE_WORDS.iter().any(|r| w.eq_ignore_ascii_case(r))
                })
        })
        .collect()
}

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
    let mut ld_authors = ld.authors.clone();
    if ld_authors.is_empty()
        && let Some(a) = meta(
            dom,
            &[
                "author",
                "article:author",
                "dc.creator",
                "parsely-author",
                "sailthru.author",
                "byl",
            ],
        )
    {
        ld_authors = split_authors(a);
    }
    if ld_authors.is_empty() {
        // The first byline-like element that holds a name.
        ld_authors = dom
            .head
            .author_texts
            .iter()
            .map(|a| split_authors(a))
            .find(|names| !names.is_empty())
            .unwrap_or_default();
    }
    let mut authors: Vec<String> = Vec::new();
    for a in ld_authors.iter().flat_map(|a| split_authors(a)) {
        if !authors.iter().any(|x| x.eq_ignore_ascii_case(&a)) {
            authors.push(a);
        }
    }
    authors.retain(|a| !a.starts_with("http"));
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
