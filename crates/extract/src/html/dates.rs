//! Publication and modification dates of a page.
//!
//! Sources, most explicit first (the first that yields a plausible date wins):
//! 1. a complete date in the page's own URL path (`/2021/03/12/`, `/20210312/`,
//!    `-2021-03-12-`), else in its canonical address (`<link rel=canonical>`,
//!    `og:url`): publishers put the original date there;
//! 2. the declared publication time: meta tags (OpenGraph/
//!    `article:published_time`, Dublin Core, `date`, `pubdate`,
//!    `sailthru.date`, `parsely-pub-date`, …), then JSON-LD `datePublished`
//!    (articles first, `@graph` included, then any object, then the raw text
//!    of JSON-LD that does not parse). When one declaration is in UTC and
//!    another names the same instant in local time, the local one gives the
//!    day (the publisher's day, not Greenwich's); so does a `<time datetime>`
//!    naming the same instant with a local offset. When the declarations name
//!    different days, the one the visible dateline next to the headline
//!    confirms wins (a republication time in one tag, the original in
//!    another), else the first. The generic keys (`date`, `dc.date`,
//!    `dcterms.date`, [`WEAK_KEYS`]) often hold the last edit: they rank
//!    after JSON-LD, count beside the others only to be confirmed by the
//!    dateline, and alone they wait for steps 3 and 4. When the dateline
//!    names another day than the declaration, it wins if it is the declared
//!    modification day (the page shows its revision as its date) or the day
//!    next to a declaration in UTC (the publisher's local day, see
//!    `shown_day`);
//! 3. microdata: `itemprop=datePublished` on any element (`datetime` or
//!    `content`);
//! 4. the dateline next to the main heading: dates in date-like elements
//!    around the `<h1>`, then the first date right after it, then one right
//!    before it (see `title_date`);
//! 5. `<time datetime pubdate>`;
//! 6. the visible text of small elements whose class or id says "date",
//!    "published", "posted", "byline", "meta", … (in any of the languages
//!    [`crate::date::scan`] reads), outside comments, forums, footers,
//!    sidebars, site logos (a newspaper's edition date) and quoted embeds, and
//!    not labelled "updated". The page's own headline (the `<h1>` that is most
//!    of the `<title>`) and the blocks around it are never such a region,
//!    whatever their classes (`teaser`, `…__breadcrumbnavigation`);
//! 7. any other `<time datetime>` outside comment sections;
//! 8. a date in the `<h1>` or `<title>`;
//! 9. (after body extraction) a publication date the page carries only in
//!    its scripts or data attributes (`"published_at": "2019-03-02…"` in an
//!    application's state, [`embedded_date`]); a date near the start of the
//!    main text, then the first date of the page's visible text outside
//!    copyright lines, comments, footers and sidebars; then the date in the
//!    path of the page's preview image (`og:image`, an upload name with a
//!    time such as `20201007120909561.jpg` included); last, a date in the
//!    page's `description`.
//!
//! In a URL a day must be a whole path segment when slashes separate the
//! parts: `/2023/10/3-questions-for` is a month and a slug.
//!
//! A machine-readable date whose time does not parse
//! (`2022-01-10T22:06:08:684Z`) keeps its day.
//!
//! Numeric dates with dots (`02.03.2021`) are read day first everywhere;
//! slashes and dashes follow the page's locale.
//!
//! Modification dates come from JSON-LD `dateModified`, meta tags
//! (`article:modified_time`, `og:updated_time`, …), `itemprop=dateModified`
//! and text labelled "updated" (`Aktualisiert`, `mis à jour`, …); they are never
//! taken as the publication date.
//!
//! Plausibility: a date after the reference time (now, plus one day of time
//! zones) is discarded, and so is one before 1995 unless it comes from
//! structured data (JSON-LD, meta, `<time>`), which may date old documents.
//! Relative expressions ("3 hours ago") are not read: the extractor has no
//! reference time for the page. Dates keep the offset they were written with
//! (see [`crate::date::normalize_date_local`]).

use super::dom::{Dom, NONE, Tag, TimeHint};
use crate::date::{Found, ScanOptions, normalize_date_local, scan, written_offset};
use url::Url;

/// Meta keys (lowercased `name`/`property`/`itemprop`) of the original
/// publication date, most specific first.
const PUBLISHED_KEYS: &[&str] = &[
    "article:published_time",
    "og:article:published_time",
    "og:published_time",
    "article:published",
    "article:published_date",
    "article:publicationdate",
    "article:post_date",
    "article.published",
    "article.created",
    "datepublished",
    "date_published",
    "datecreated",
    "date_created",
    "dateposted",
    "publishdate",
    "publish-date",
    "publish_date",
    "published-date",
    "published_date",
    "publication_date",
    "publication-date",
    "publicationdate",
    "originalpublicationdate",
    "pubdate",
    "og:pubdate",
    "bt:pubdate",
    "sailthru.date",
    "parsely-pub-date",
    "cxenseparse:recs:publishtime",
    "article_date_original",
    "analyticsattributes.articledate",
    "citation_publication_date",
    "citation_date",
    "prism.publicationdate",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date.created",
    "dcterms.created",
    "dc.date",
    "dcterms.date",
    "dc.created",
    "content_create_date",
    "created",
    "date",
];

/// Meta keys of the last modification, most specific first.
const MODIFIED_KEYS: &[&str] = &[
    "article:modified_time",
    "og:article:modified_time",
    "article:modified",
    "article:modified_date",
    "og:updated_time",
    "og:modified_time",
    "datemodified",
    "dateupdate",
    "modified_time",
    "updated_time",
    "modificationdate",
    "dc.date.modified",
    "dcterms.modified",
    "dc.modified",
    "bt:moddate",
    "lastmodified",
    "last-modified",
    "lastmod",
    "modified",
];

/// Class/id fragments of elements that hold a date (or a byline with one).
const DATE_CLASSES: &[&str] = &[
    "date",
    "time",
    "publish",
    "posted",
    "meta",
    "byline",
    "dateline",
    "datum",
    "fecha",
    "submitted",
    "created",
    "stamp",
    "info-post",
    "post-info",
    "article-info",
    "author",
];

/// Class/id fragments of regions whose dates are not the page's: comments,
/// footers, sidebars, teasers of other pages.
const EXCLUDED_CLASSES: &[&str] = &[
    "comment",
    "forum",
    "related",
    "recent",
    "popular",
    "reply",
    "replies",
    "disqus",
    "sidebar",
    "teaser",
    "archive",
    "calendar",
    "more",
    "next",
    "prev",
    "breadcrumb",
    "menu",
    "nav",
    "logo",
    "role-navigation",
    "role-complementary",
    "role-contentinfo",
];

/// The first entries of [`EXCLUDED_CLASSES`] also apply inside an `<article>`.
const IN_ARTICLE_EXCLUDED: usize = 8;

/// Labels that make the following date a modification date.
const UPDATED_LABELS: &[&str] = &[
    "update",
    "modifi",
    "edited",
    "revised",
    "aktualisiert",
    "geändert",
    "mis à jour",
    "mise à jour",
    "actualizado",
    "actualización",
    "aggiornat",
    "atualizado",
    "bijgewerkt",
    "gewijzigd",
    "zaktualizowano",
    "обновлено",
    "更新",
];

/// Dates of a page found before body extraction.
#[derive(Debug, Default, Clone)]
pub(super) struct PageDates {
    pub published: Option<String>,
    pub modified: Option<String>,
}

/// The reference day: dates after it are implausible.
fn today() -> jiff::civil::Date {
    jiff::Zoned::now().date()
}

/// Whether `value` (normalised, `YYYY-MM-DD…`) is a plausible publication date:
/// not after `today` plus a day, and not before 1995 unless `structured`.
fn plausible(value: &str, structured: bool, today: jiff::civil::Date) -> bool {
    let Some(day) = value
        .get(..10)
        .and_then(|d| d.parse::<jiff::civil::Date>().ok())
    else {
        return false;
    };
    let latest = today.tomorrow().unwrap_or(today);
    if day > latest {
        return false;
    }
    if structured {
        // Placeholders of empty date fields.
        day.year() >= 1900 && !matches!(value.get(..10), Some("1970-01-01" | "1900-01-01"))
    } else {
        day.year() >= 1995
    }
}

/// How numeric dates are read on a page in `lang` at `url`.
pub(super) fn scan_options(lang: Option<&str>, url: Option<&Url>) -> ScanOptions {
    ScanOptions {
        month_first: month_first(lang, url),
        short_years: false,
    }
}

/// Whether numeric dates on this page put the month first (US style): an
/// English page without a non-US region, or a page without a language on a
/// US-style domain.
fn month_first(lang: Option<&str>, url: Option<&Url>) -> bool {
    let tld = url
        .and_then(Url::host_str)
        .and_then(|h| h.rsplit('.').next())
        .unwrap_or("")
        .to_ascii_lowercase();
    match lang.map(|l| l.to_ascii_lowercase().replace('_', "-")) {
        Some(l) if l.starts_with("en") => {
            let region = l.split('-').nth(1).unwrap_or("");
            match region {
                "us" => true,
                "" => matches!(
                    tld.as_str(),
                    "com" | "us" | "gov" | "edu" | "org" | "net" | ""
                ),
                _ => false,
            }
        }
        Some(l) if !l.is_empty() => false,
        _ => matches!(tld.as_str(), "us" | "gov" | "edu" | "com"),
    }
}

/// The date in the page's canonical address (`<link rel=canonical>`, else
/// `og:url`) when it differs from the address the page was fetched at (a
/// short link, an AMP or tracking variant, or no address at all): the
/// publisher files the page under its day there.
fn canonical_url_date(dom: &Dom, url: Option<&Url>, month_first: bool) -> Option<String> {
    let og_url = dom
        .head
        .metas
        .iter()
        .find(|(k, _)| k == "og:url")
        .map(|(_, v)| v.as_str());
    [dom.head.canonical.as_deref(), og_url]
        .into_iter()
        .flatten()
        .filter_map(|href| match url {
            Some(base) => base.join(href.trim()).ok(),
            None => Url::parse(href.trim()).ok(),
        })
        .filter(|c| url != Some(c))
        .find_map(|c| url_date(&c, month_first))
}

/// A complete date in a URL's path or query: `/2021/03/12/`, `/2021-03-12-`,
/// `_20210312_`.
pub(super) fn url_date(url: &Url, month_first: bool) -> Option<String> {
    url_date_in(url, month_first, false)
}

/// [`url_date`]; with `stamps`, also a compact date glued to a time of day
/// (`/images/20201007120909561.jpg`), as upload names are. Not in a page's
/// own address: archives put the time they copied it there.
fn url_date_in(url: &Url, month_first: bool, stamps: bool) -> Option<String> {
    let mut s = url.path().to_string();
    if let Some(q) = url.query() {
        s.push('?');
        s.push_str(q);
    }
    let b = s.as_bytes();
    let digits_at = |i: usize, n: usize| -> Option<u32> {
        let part = b.get(i..i + n)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    // Reads 1-2 digits at `i`: (value, length).
    let small = |i: usize| -> Option<(u32, usize)> {
        let two = digits_at(i, 2);
        match two {
            Some(v) if !b.get(i + 2).is_some_and(u8::is_ascii_digit) => Some((v, 2)),
            Some(_) => None,
            None => digits_at(i, 1)
                .filter(|_| !b.get(i + 1).is_some_and(u8::is_ascii_digit))
                .map(|v| (v, 1)),
        }
    };
    let sep = |c: u8| matches!(c, b'/' | b'-' | b'_' | b'.');
    // A time of day glued to a compact date, as in upload names
    // (`20201007120909561.jpg`: `hhmmss`, then at most milliseconds).
    let time_stamp_at = |k: usize| -> bool {
        let (Some(h), Some(mi), Some(sec)) =
            (digits_at(k, 2), digits_at(k + 2, 2), digits_at(k + 4, 2))
        else {
            return false;
        };
        let extra = b[k + 6..].iter().take_while(|c| c.is_ascii_digit()).count();
        h < 24
            && mi < 60
            && sec < 60
            && extra <= 3
            && !b.get(k + 6 + extra).is_some_and(u8::is_ascii_alphanumeric)
    };
    for i in 0..b.len() {
        if i > 0 && (b[i - 1].is_ascii_digit() || b[i - 1].is_ascii_alphabetic()) {
            continue;
        }
        // Day and month first: `/29-10-2021`, `_10.29.2021_`.
        if let Some((a, la)) = small(i)
            && la == 2
            && b.get(i + 2).copied().is_some_and(sep)
            && let Some((c, lc)) = small(i + 3)
            && lc == 2
            && b.get(i + 5) == b.get(i + 2)
            && let Some(y) = digits_at(i + 6, 4)
            && !b.get(i + 10).is_some_and(u8::is_ascii_alphanumeric)
        {
            let (d, m) = if a > 12 || (c <= 12 && !month_first) {
                (a, c)
            } else {
                (c, a)
            };
            if let Some(v) = ymd(y, m, d).filter(|_| y >= 1995) {
                return Some(v);
            }
        }
        let Some(y) = digits_at(i, 4) else { continue };
        if !(1995..=2100).contains(&y) {
            continue;
        }
        let j = i + 4;
        if b.get(j).copied().is_some_and(sep) {
            let s1 = b[j];
            // With slashes the day is a whole path segment: in
            // `/2023/10/3-questions-for` the number starts the slug.
            let after_day = |ld: usize, lm: usize| b.get(j + 2 + lm + ld).copied();
            if let Some((m, lm)) = small(j + 1)
                && b.get(j + 1 + lm) == Some(&s1)
                && let Some((d, ld)) = small(j + 2 + lm)
                && !after_day(ld, lm).is_some_and(|c| c.is_ascii_alphanumeric())
                && !(s1 == b'/' && after_day(ld, lm).is_some_and(|c| matches!(c, b'-' | b'_')))
                && let Some(v) = ymd(y, m, d)
            {
                return Some(v);
            }
        } else if let (Some(m), Some(d)) = (digits_at(j, 2), digits_at(j + 2, 2))
            && (!b.get(j + 4).is_some_and(u8::is_ascii_alphanumeric)
                || (stamps && time_stamp_at(j + 4)))
            && let Some(v) = ymd(y, m, d)
        {
            return Some(v);
        }
    }
    None
}

fn ymd(y: u32, m: u32, d: u32) -> Option<String> {
    jiff::civil::Date::new(
        i16::try_from(y).ok()?,
        i8::try_from(m).ok()?,
        i8::try_from(d).ok()?,
    )
    .ok()
    .map(|d| d.to_string())
}

fn meta_date(dom: &Dom, keys: &[&str], today: jiff::civil::Date) -> Option<String> {
    keys.iter().find_map(|k| {
        dom.head
            .metas
            .iter()
            .filter(|(n, _)| n == k)
            .find_map(|(_, v)| normalize_date_local(v).filter(|d| plausible(d, true, today)))
    })
}

/// Whether an element is in a region whose dates are not the page's, for
/// every node (parents come before their children in the arena). A region
/// counts only when it holds less than half of the page's text: layouts name
/// their outer wrappers `has-sidebar`, `widget Blog`, `footer-wrap` too. The
/// page's own headline ([`main_heading`]) and the elements around it are
/// never such a region, whatever their classes say (a headline inside
/// `figure.teaser`, `…__breadcrumbnavigation` or `preview_top` blocks).
fn excluded_regions(dom: &Dom) -> Vec<bool> {
    let n = dom.nodes.len();
    let mut protected = vec![false; n];
    if let Some(h1) = main_heading(dom) {
        let mut x = h1 as u32;
        while x != NONE {
            protected[x as usize] = true;
            x = dom.nodes[x as usize].parent;
        }
    }
    let mut size = vec![0usize; n];
    for i in (0..n).rev() {
        let node = &dom.nodes[i];
        if node.tag == Tag::Text {
            size[i] = (node.end - node.start) as usize;
        }
        if node.parent != NONE {
            size[node.parent as usize] += size[i];
        }
    }
    let total = size.first().copied().unwrap_or(0);
    let mut out = vec![false; n];
    // Inside an `<article>`: its `<aside>` and `<footer>` hold its own metadata.
    let mut in_article = vec![false; n];
    for (i, node) in dom.nodes.iter().enumerate() {
        if node.tag == Tag::Text {
            continue;
        }
        let (parent, parent_article) = if node.parent == NONE {
            (false, false)
        } else {
            (out[node.parent as usize], in_article[node.parent as usize])
        };
        in_article[i] = parent_article || node.tag == Tag::Article;
        out[i] = parent
            || node.hidden
            || node.tag == Tag::Head
            || (size[i] * 2 < total
                && !protected[i]
                && !matches!(node.tag, Tag::Body | Tag::Html | Tag::Main | Tag::Article)
                && (matches!(node.tag, Tag::Nav | Tag::Blockquote)
                    || (matches!(node.tag, Tag::Footer | Tag::Aside) && !parent_article)
                    || excluded_class(dom.class_id(i as u32), parent_article)));
    }
    out
}

/// The page's own headline: the first visible `<h1>` whose text is most of
/// the `<title>` (at least 12 bytes and half of it), so that a site-name
/// `<h1>` in the masthead does not count.
fn main_heading(dom: &Dom) -> Option<usize> {
    let title = dom.head.title.as_deref()?.trim().to_lowercase();
    dom.nodes.iter().enumerate().find_map(|(i, n)| {
        if n.tag != Tag::H1 || n.hidden {
            return None;
        }
        let text = subtree_text(dom, i as u32, 500)?;
        let text = text.trim().to_lowercase();
        (text.len() >= 12 && text.len() * 2 >= title.len() && title.contains(&text)).then_some(i)
    })
}

/// Whether a class/id string names a region whose dates are not the page's.
/// Inside an `<article>` only comments and links to other pages count: its
/// "footer", "teaser" or "info" parts are its own. A "footer" of a post or
/// entry (`post-footer`, `entry-footer`) is the post's own anywhere.
fn excluded_class(ci: &str, in_article: bool) -> bool {
    if ci.is_empty() {
        return false;
    }
    let classes = if in_article {
        &EXCLUDED_CLASSES[..IN_ARTICLE_EXCLUDED]
    } else {
        EXCLUDED_CLASSES
    };
    // A keyword counts at the start of a `-`/`_`-separated part of a class
    // token: `comment-list`, `main_menu`, `related-posts`, not `taxomenu`.
    ci.split_ascii_whitespace().any(|token| {
        token.split(['-', '_']).any(|part| {
            classes.iter().any(|c| {
                part.starts_with(c)
                        && !(*c == "prev" && part.starts_with("preview"))
                        // Bootstrap's `nav` styles any list (`nav meta`);
                        // `navbar`, `navtop`, `navigation` are navigation.
                        && !(*c == "nav" && part == "nav")
            }) || (!in_article && part.starts_with("footer"))
        }) && !(token.contains("footer")
            && ["post", "entry", "article", "asset", "meta"]
                .iter()
                .any(|p| token.contains(p)))
    })
}

/// The text of the subtree of `id`, or `None` when longer than `max` bytes.
fn subtree_text(dom: &Dom, id: u32, max: usize) -> Option<String> {
    let mut out = String::new();
    let mut stack = vec![dom.nodes[id as usize].first_child];
    while let Some(cur) = stack.pop() {
        if cur == NONE {
            continue;
        }
        let n = &dom.nodes[cur as usize];
        stack.push(n.next);
        if n.tag == Tag::Text {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(dom.node_text(cur));
            if out.len() > max {
                return None;
            }
        } else if !n.hidden {
            stack.push(n.first_child);
        }
    }
    Some(out)
}

/// Whether the words just before byte `at` of `text` label a modification.
fn labelled_updated(text: &str, at: usize) -> bool {
    let mut from = at.saturating_sub(40);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..at].to_lowercase();
    UPDATED_LABELS.iter().any(|l| before.contains(l))
}

/// Whether the date at `at` follows a copyright mark within 40 bytes.
fn after_copyright(text: &str, at: usize) -> bool {
    let mut from = at.saturating_sub(40);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..at].to_ascii_lowercase();
    before.contains('©') || before.contains("copyright") || before.contains("(c)")
}

/// Dates found before body extraction (steps 1-8 of the module overview).
pub(super) fn page_dates(
    dom: &Dom,
    url: Option<&Url>,
    lang: Option<&str>,
    ld_published: Option<&str>,
    ld_modified: Option<&str>,
) -> PageDates {
    let today = today();
    let scan_opts = scan_options(lang, url);
    let labelled = ScanOptions {
        short_years: true,
        ..scan_opts
    };
    let structured = |v: Option<&str>| {
        v.and_then(|v| normalize_date_local(v).or_else(|| leading_day(v)))
            .filter(|d| plausible(d, true, today))
    };
    let mut modified = structured(ld_modified).or_else(|| meta_date(dom, MODIFIED_KEYS, today));
    let mut excluded = None;
    let mut published = url
        .and_then(|u| url_date(u, scan_opts.month_first))
        .or_else(|| canonical_url_date(dom, url, scan_opts.month_first))
        .filter(|d| plausible(d, false, today));
    let mut weak_day = None;
    if published.is_none() {
        let (mut declared, weak) = declared_published(dom, ld_published);
        let n_strong = declared.len();
        declared.extend(weak);
        // `<time datetime>` values written with a local offset: witnesses of
        // the publisher's day for a declaration in UTC.
        let local_times: Vec<&str> = dom
            .head
            .times
            .iter()
            .map(|(t, _)| t.as_str())
            .filter(|t| matches!(instant(t), Some((_, Some(o))) if o != jiff::tz::Offset::UTC))
            .collect();
        let day_of = |raw: &&str| structured(Some(publishers_day(raw, &declared, &local_times)));
        let strong_days = declared[..n_strong].iter().filter_map(day_of).count();
        // The specific declarations first, then the weak ones: these count
        // only to confirm a visible dateline or to break a disagreement.
        let days: Vec<String> = declared.iter().filter_map(day_of).collect();
        published = match days.first() {
            None => None,
            // Only weak declarations: they wait for the visible dateline.
            Some(weak) if strong_days == 0 => {
                weak_day = Some(weak.clone());
                None
            }
            // The declarations disagree (a republication time in one tag, the
            // original in another): the day the visible dateline confirms.
            Some(first) if days.iter().any(|d| d.get(..10) != first.get(..10)) => {
                let ex = excluded.get_or_insert_with(|| excluded_regions(dom));
                let (seen, _) = title_date(dom, ex, labelled, today);
                seen.and_then(|s| days.iter().find(|d| d.get(..10) == s.get(..10)).cloned())
                    .or_else(|| days.first().cloned())
            }
            first => first.cloned(),
        };
        if let Some(p) = published.take() {
            let ex = excluded.get_or_insert_with(|| excluded_regions(dom));
            let (seen, _) = title_date(dom, ex, labelled, today);
            published = Some(match seen {
                Some(v) => shown_day(p, &v, modified.as_deref()),
                None => p,
            });
        }
    }
    let hinted = |hint: TimeHint| {
        dom.head
            .times
            .iter()
            .filter(|(_, h)| *h == hint)
            .find_map(|(t, _)| structured(Some(t)))
    };
    if published.is_none() {
        published = hinted(TimeHint::Itemprop);
    }
    if published.is_none() {
        let ex = excluded.get_or_insert_with(|| excluded_regions(dom));
        let (found, updated) = title_date(dom, ex, labelled, today);
        published = found;
        if modified.is_none() {
            modified = updated;
        }
    }
    if published.is_none() {
        published = weak_day;
    }
    if published.is_none() {
        published = hinted(TimeHint::Pubdate);
    }
    if published.is_none() || modified.is_none() {
        let excluded = excluded.unwrap_or_else(|| excluded_regions(dom));
        let mut found_pub = None;
        let mut found_mod = None;
        for (i, n) in dom.nodes.iter().enumerate() {
            if found_pub.is_some() && (found_mod.is_some() || modified.is_some()) {
                break;
            }
            if n.tag == Tag::Text
                || excluded[i]
                || matches!(
                    n.tag,
                    Tag::Body | Tag::Html | Tag::Article | Tag::Main | Tag::Root
                )
            {
                continue;
            }
            let ci = dom.class_id(i as u32);
            if !(n.tag == Tag::Time || DATE_CLASSES.iter().any(|c| ci.contains(c))) {
                continue;
            }
            let Some(text) = subtree_text(dom, i as u32, 300) else {
                continue;
            };
            let class_updated = UPDATED_LABELS[..3].iter().any(|l| ci.contains(l));
            for Found { day, start, .. } in scan(&text, labelled) {
                if !plausible(&day, false, today) {
                    continue;
                }
                if class_updated || labelled_updated(&text, start) {
                    found_mod.get_or_insert(day);
                } else {
                    found_pub.get_or_insert(day);
                    break;
                }
            }
        }
        if modified.is_none() {
            modified = found_mod;
        }
        if published.is_none() {
            published = found_pub
                .or_else(|| dom.head.times.iter().find_map(|(t, _)| structured(Some(t))))
                .or_else(|| heading_date(dom, &excluded, scan_opts, today));
        }
    }
    PageDates {
        published,
        modified,
    }
}

/// The declared publication time `declared` against `seen`, the day of the
/// visible dateline next to the headline, when they differ: the page shows
/// its last revision as its date (`seen` is the declared modification day),
/// or the declaration is in UTC and `seen` is the publisher's local day
/// (the day after for a time late in the UTC day, the day before for one
/// early in it).
fn shown_day(declared: String, seen: &str, modified: Option<&str>) -> String {
    let (Some(p), Some(v)) = (declared.get(..10), seen.get(..10)) else {
        return declared;
    };
    if p == v {
        return declared;
    }
    if let Some(m) = modified
        && m.get(..10) == Some(v)
    {
        return m.to_string();
    }
    let utc = declared.ends_with('Z') || declared.ends_with("+00:00");
    let hour = declared
        .get(11..13)
        .and_then(|h| h.parse::<u8>().ok())
        .filter(|_| declared.len() > 13);
    if let (true, Some(hour), Ok(pd), Ok(vd)) = (
        utc,
        hour,
        p.parse::<jiff::civil::Date>(),
        v.parse::<jiff::civil::Date>(),
    ) {
        let next = pd.tomorrow().ok() == Some(vd) && hour >= 10;
        let prev = pd.yesterday().ok() == Some(vd) && hour < 12;
        if next || prev {
            return v.to_string();
        }
    }
    declared
}

/// The day of a machine-readable date whose time part does not parse
/// (`2022-01-10T22:06:08:684Z`): a valid `YYYY-MM-DD` followed by `T` or a
/// space.
fn leading_day(raw: &str) -> Option<String> {
    let raw = raw.trim();
    let day = raw.get(..10)?;
    if !matches!(raw.as_bytes().get(10), Some(b'T' | b' ')) {
        return None;
    }
    day.parse::<jiff::civil::Date>().ok().map(|d| d.to_string())
}

/// Keys under which scripts and data attributes carry a page's publication
/// time (state objects of JavaScript applications, analytics data layers),
/// then its creation time, each group most specific first.
const EMBEDDED_KEYS: &[&[&str]] = &[
    &[
        "datePublished",
        "publishedDate",
        "published_at",
        "publishedAt",
        "publishDate",
        "publish_date",
        "publicationDate",
        "publication_date",
        "date_published",
        "firstPublishedAt",
        "pubDate",
    ],
    &["dateCreated", "created_at", "createdAt", "uploadDate"],
];

/// A publication date that the page carries only in its scripts or data
/// attributes: the first `"key": "YYYY-MM-DD…"` (quotes as `"`, `'`, `\"` or
/// `&quot;`) of [`EMBEDDED_KEYS`], publication keys before creation keys.
/// One substring search per key over the raw HTML.
pub(super) fn embedded_date(html: &str) -> Option<String> {
    let today = today();
    for group in EMBEDDED_KEYS {
        for key in *group {
            let mut from = 0;
            while let Some(at) = html[from..].find(key) {
                let start = from + at;
                from = start + key.len();
                if let Some(day) =
                    value_after_key(&html[from..]).filter(|d| plausible(d, true, today))
                {
                    return Some(day);
                }
            }
        }
    }
    None
}

/// The date right after a key in JSON or JavaScript: the key's closing quote,
/// `:` or `=`, the value's opening quote, then `YYYY-MM-DD` (or slashes).
fn value_after_key(rest: &str) -> Option<String> {
    let quote = |s: &str| -> Option<usize> {
        ["&quot;", "\\\"", "\"", "'"]
            .iter()
            .find(|q| s.starts_with(*q))
            .map(|q| q.len())
    };
    let mut s = rest;
    if let Some(n) = quote(s) {
        s = &s[n..];
    } else if s.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        // Part of a longer name (`publishedDateLabel`).
        return None;
    }
    s = s.trim_start();
    s = s.strip_prefix(':').or_else(|| s.strip_prefix('='))?;
    s = s.trim_start();
    s = &s[quote(s)?..];
    let value = s.get(..10)?.replace('/', "-");
    let b = value.as_bytes();
    if !(b[4] == b'-' && b[7] == b'-') {
        return None;
    }
    value
        .parse::<jiff::civil::Date>()
        .ok()
        .map(|d| d.to_string())
}

/// Generic meta keys (`date`, `dc.date`, `dcterms.date`): content systems
/// fill them with the time of the last edit as often as with the publication
/// time, so they rank below every specific declaration, JSON-LD, microdata
/// and the visible dateline.
const WEAK_KEYS: &[&str] = &["dc.date", "dcterms.date", "date"];

/// The raw publication dates the page declares in its metadata: meta tags in
/// the order of [`PUBLISHED_KEYS`] except [`WEAK_KEYS`], then JSON-LD; and,
/// apart, those of the weak keys.
fn declared_published<'a>(
    dom: &'a Dom,
    ld_published: Option<&'a str>,
) -> (Vec<&'a str>, Vec<&'a str>) {
    let strong = PUBLISHED_KEYS.iter().filter(|k| !WEAK_KEYS.contains(k));
    let mut out = meta_values(dom, strong);
    out.extend(ld_published);
    (out, meta_values(dom, WEAK_KEYS.iter()))
}

/// The values of the meta tags named `keys`, in the order of `keys`.
fn meta_values<'a, 'k>(dom: &'a Dom, keys: impl Iterator<Item = &'k &'k str>) -> Vec<&'a str> {
    keys.flat_map(|k| {
        dom.head
            .metas
            .iter()
            .filter(move |(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    })
    .collect()
}

/// The instant a machine-readable date names, and the offset it was
/// written with (`None` for a local time without an offset).
fn instant(raw: &str) -> Option<(jiff::Timestamp, Option<jiff::tz::Offset>)> {
    let raw = raw.trim();
    if let Ok(ts) = raw.parse::<jiff::Timestamp>() {
        return Some((
            ts,
            Some(written_offset(raw).unwrap_or(jiff::tz::Offset::UTC)),
        ));
    }
    if raw.len() > 10
        && let Ok(dt) = raw.parse::<jiff::civil::DateTime>()
    {
        return dt
            .to_zoned(jiff::tz::TimeZone::UTC)
            .ok()
            .map(|z| (z.timestamp(), None));
    }
    None
}

/// Of several declarations of the publication time, the one that gives the
/// publisher's local day: a time written in UTC (`…T23:59:50+00:00`) is
/// replaced by the same instant written with the local offset
/// (`…T01:59:50+02:00`), or by a local time without an offset that differs
/// from it by whole quarter hours of a time zone (`2023-11-08 22:35:29`
/// beside `2023-11-09T06:35:29Z`).
///
/// `local_times` (`<time datetime>` values with a non-UTC offset) also count,
/// but only when they name exactly the same instant: the page's own `<time>`
/// beside its UTC metadata (`2023-11-08T21:11:03-05:00` for
/// `2023-11-09T02:11:03+00:00`).
fn publishers_day<'a>(first: &'a str, declared: &[&'a str], local_times: &[&'a str]) -> &'a str {
    let Some((t0, Some(off0))) = instant(first) else {
        return first;
    };
    if off0 != jiff::tz::Offset::UTC {
        return first;
    }
    for &other in local_times {
        if instant(other).is_some_and(|(t1, _)| t1 == t0) {
            return other;
        }
    }
    for &other in declared {
        let Some((t1, off1)) = instant(other) else {
            continue;
        };
        let diff = t1.as_second() - t0.as_second();
        let same_local = match off1 {
            Some(o) => o != jiff::tz::Offset::UTC && diff == 0,
            None => diff != 0 && diff.abs() <= 14 * 3600 && diff % 900 == 0,
        };
        if same_local {
            return other;
        }
    }
    first
}

/// Visible text after the page's main heading that [`title_date`] reads.
const TITLE_AFTER: usize = 250;
/// Visible text before the main heading that [`title_date`] reads.
const TITLE_BEFORE: usize = 120;

/// A date written next to the page's main heading, where datelines sit
/// (`<h1>…</h1><p>21. Januar 2022 | Mobilität</p>`, a date above the
/// headline). The heading is the `<h1>` matching the `<title>`, else the
/// first; the window is its own text and [`TITLE_AFTER`] bytes of visible
/// text after it, and [`TITLE_BEFORE`] bytes before it, outside excluded
/// regions and elements marked "updated". Dates in date-like elements
/// (`<time>`, classes of [`DATE_CLASSES`]) of the window come first, then
/// the first date after the heading, then the first before it. Returns
/// (published, updated): a date labelled "updated" is the modification date.
fn title_date(
    dom: &Dom,
    excluded: &[bool],
    opts: ScanOptions,
    today: jiff::civil::Date,
) -> (Option<String>, Option<String>) {
    let title = dom.head.title.as_deref().map(str::to_lowercase);
    let mut first = None;
    let mut matching = None;
    for (i, n) in dom.nodes.iter().enumerate() {
        if n.tag != Tag::H1 || excluded[i] {
            continue;
        }
        let Some(text) = subtree_text(dom, i as u32, 500) else {
            continue;
        };
        let text = text.trim().to_lowercase();
        if text.is_empty() {
            continue;
        }
        first.get_or_insert(i);
        if title.as_deref().is_some_and(|t| t.contains(&text)) {
            matching = Some(i);
            break;
        }
    }
    let Some(h1) = matching.or(first) else {
        return (None, None);
    };
    // Whether a text node is in a date-like element (a few levels up).
    let marked = |j: usize| {
        let mut x = dom.nodes[j].parent;
        for _ in 0..4 {
            if x == NONE || x as usize == h1 {
                return false;
            }
            let n = &dom.nodes[x as usize];
            if matches!(n.tag, Tag::Body | Tag::Article | Tag::Main) {
                return false;
            }
            let ci = dom.class_id(x);
            if n.tag == Tag::Time || DATE_CLASSES.iter().any(|c| ci.contains(c)) {
                return true;
            }
            x = n.parent;
        }
        false
    };
    let skip = |j: usize| {
        let n = &dom.nodes[j];
        n.tag != Tag::Text
            && (excluded[j]
                || UPDATED_LABELS[..3]
                    .iter()
                    .any(|l| dom.class_id(j as u32).contains(l)))
    };
    // (all text, text of date-like elements) after and before the heading.
    let (mut after, mut after_marked) = (String::new(), String::new());
    let end = dom.nodes.len();
    let mut j = h1 + 1;
    while j < end && after.len() < TITLE_AFTER {
        if skip(j) {
            j = super::content::subtree_end(dom, j as u32);
            continue;
        }
        if dom.nodes[j].tag == Tag::Text {
            let t = dom.node_text(j as u32);
            after.push_str(t);
            after.push(' ');
            if marked(j) {
                after_marked.push_str(t);
                after_marked.push(' ');
            }
        }
        j += 1;
    }
    let (mut before, mut before_marked) = (Vec::new(), Vec::new());
    let mut len = 0;
    let mut j = h1;
    while j > 0 && len < TITLE_BEFORE {
        j -= 1;
        let n = &dom.nodes[j];
        if n.tag != Tag::Text {
            continue;
        }
        // Text inside a skipped element (excluded, "updated").
        let mut x = n.parent;
        let mut skipped = false;
        while x != NONE && (x as usize) > 0 {
            if skip(x as usize) {
                skipped = true;
                break;
            }
            x = dom.nodes[x as usize].parent;
        }
        if skipped {
            continue;
        }
        let t = dom.node_text(j as u32);
        len += t.len();
        before.push(t);
        if marked(j) {
            before_marked.push(t);
        }
    }
    before.reverse();
    before_marked.reverse();
    let (before, before_marked) = (before.join(" "), before_marked.join(" "));
    let mut updated = None;
    for text in [&after_marked, &before_marked, &after, &before] {
        for f in scan(text, opts) {
            if !plausible(&f.day, false, today) {
                continue;
            }
            if labelled_updated(text, f.start) {
                updated.get_or_insert(f.day);
            } else {
                return (Some(f.day), updated);
            }
        }
    }
    (None, updated)
}

/// A date in the first `<h1>` or the `<title>`.
fn heading_date(
    dom: &Dom,
    excluded: &[bool],
    opts: ScanOptions,
    today: jiff::civil::Date,
) -> Option<String> {
    let first = |text: &str| {
        scan(text, opts)
            .into_iter()
            .map(|f| f.day)
            .find(|d| plausible(d, false, today))
    };
    dom.nodes
        .iter()
        .enumerate()
        .find(|(i, n)| n.tag == Tag::H1 && !excluded[*i])
        .and_then(|(i, _)| subtree_text(dom, i as u32, 500))
        .and_then(|t| first(&t))
        .or_else(|| dom.head.title.as_deref().and_then(first))
}

/// The date in the path of the page's preview image (`og:image`,
/// `twitter:image`): content systems file uploads under the day they were
/// made (`/files/2016/05/04/…`, `/images/large/20201007120909561.jpg`).
pub(super) fn image_url_date(dom: &Dom, opts: ScanOptions) -> Option<String> {
    let today = today();
    [
        "og:image",
        "og:image:url",
        "og:image:secure_url",
        "twitter:image",
        "twitter:image:src",
    ]
    .iter()
    .flat_map(|k| dom.head.metas.iter().filter(move |(n, _)| n == k))
    .filter_map(|(_, v)| Url::parse(v.trim()).ok())
    .find_map(|u| url_date_in(&u, opts.month_first, true).filter(|d| plausible(d, false, today)))
}

/// A date in the page's summary (`description`, `og:description`:
/// "Press release of 14 January 2020"), when nothing else dates the page.
pub(super) fn description_date(dom: &Dom, opts: ScanOptions) -> Option<String> {
    let today = today();
    ["description", "og:description", "twitter:description"]
        .iter()
        .flat_map(|k| dom.head.metas.iter().filter(move |(n, _)| n == k))
        .find_map(|(_, v)| {
            scan(v, opts)
                .into_iter()
                .map(|f| f.day)
                .find(|d| plausible(d, false, today))
        })
}

/// Last resorts after body extraction: a date near the start of the main
/// text, then the first date of the visible text outside excluded regions and
/// copyright lines.
pub(super) fn text_date(dom: &Dom, main_text: &str, opts: ScanOptions) -> Option<String> {
    let today = today();
    let mut end = main_text.len().min(1000);
    while !main_text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &main_text[..end];
    if let Some(d) = scan(head, opts).into_iter().find(|f| {
        plausible(&f.day, false, today)
            && !after_copyright(head, f.start)
            && !labelled_updated(head, f.start)
    }) {
        return Some(d.day);
    }
    let excluded = excluded_regions(dom);
    for (i, n) in dom.nodes.iter().enumerate() {
        if n.tag != Tag::Text || n.parent == NONE || excluded[n.parent as usize] {
            continue;
        }
        let text = dom.node_text(i as u32);
        if !text.bytes().any(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Some(f) = scan(text, opts).into_iter().find(|f| {
            plausible(&f.day, false, today)
                && !after_copyright(text, f.start)
                && !labelled_updated(text, f.start)
        }) {
            return Some(f.day);
        }
    }
    None
}
