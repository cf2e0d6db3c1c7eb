//! RSS 2.0, Atom 1.0 and JSON Feed 1.1 documents, valid and malformed.

use crate::response::{Response, xml_escape as x};

/// One feed entry. `published` is `YYYY-MM-DD` or RFC 3339; anything else
/// is written verbatim (handy for testing bad dates).
#[derive(Debug, Clone)]
pub struct FeedItem {
    /// Entry title.
    pub title: String,
    /// Absolute link to the entry.
    pub link: String,
    /// Publication date (see type docs).
    pub published: String,
    /// Summary text.
    pub summary: String,
}

impl FeedItem {
    /// Build an item.
    pub fn new(title: &str, link: &str, published: &str, summary: &str) -> Self {
        Self {
            title: title.to_owned(),
            link: link.to_owned(),
            published: published.to_owned(),
            summary: summary.to_owned(),
        }
    }
}

fn timestamp(s: &str) -> Option<jiff::Timestamp> {
    if let Ok(ts) = s.parse::<jiff::Timestamp>() {
        return Some(ts);
    }
    let d: jiff::civil::Date = s.parse().ok()?;
    d.to_zoned(jiff::tz::TimeZone::UTC)
        .ok()
        .map(|z| z.timestamp())
}

fn rfc2822(s: &str) -> String {
    timestamp(s)
        .map(|t| t.strftime("%a, %d %b %Y %H:%M:%S +0000").to_string())
        .unwrap_or_else(|| s.to_owned())
}

fn rfc3339(s: &str) -> String {
    timestamp(s)
        .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|| s.to_owned())
}

fn rss_text(title: &str, site: &str, items: &[FeedItem]) -> String {
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\">\n<channel>\n\
         <title>{t}</title>\n<link>{s}</link>\n<description>Latest news from {t}</description>\n<language>en</language>\n",
        t = x(title),
        s = x(site),
    );
    if let Some(first) = items.first() {
        out.push_str(&format!(
            "<lastBuildDate>{}</lastBuildDate>\n",
            x(&rfc2822(&first.published))
        ));
    }
    for it in items {
        out.push_str(&format!(
            "<item>\n  <title>{}</title>\n  <link>{}</link>\n  <guid isPermaLink=\"true\">{}</guid>\n  <pubDate>{}</pubDate>\n  <description>{}</description>\n</item>\n",
            x(&it.title),
            x(&it.link),
            x(&it.link),
            x(&rfc2822(&it.published)),
            x(&it.summary)
        ));
    }
    out.push_str("</channel>\n</rss>\n");
    out
}

/// A valid RSS 2.0 feed (`application/rss+xml`).
pub fn rss(title: &str, site: &str, items: &[FeedItem]) -> Response {
    Response::bytes(
        "application/rss+xml; charset=utf-8",
        rss_text(title, site, items),
    )
}

/// A broken RSS feed: a bare `&` in a title and the document cut off
/// inside the last `<item>` (no closing tags).
pub fn rss_malformed(title: &str, site: &str, items: &[FeedItem]) -> Response {
    let mut text =
        rss_text(&format!("{title} & friends"), site, items).replace("&amp; friends", "& friends");
    let cut = text.rfind("<description>").unwrap_or(text.len() / 2);
    text.truncate(cut);
    Response::bytes("application/rss+xml; charset=utf-8", text)
}

fn atom_text(title: &str, site: &str, items: &[FeedItem]) -> String {
    let updated = items
        .first()
        .map(|i| rfc3339(&i.published))
        .unwrap_or_else(|| "2024-01-01T00:00:00Z".to_owned());
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>{t}</title>\n\
         <link href=\"{s}\"/>\n<id>{s}</id>\n<updated>{u}</updated>\n<author><name>{t}</name></author>\n",
        t = x(title),
        s = x(site),
        u = x(&updated),
    );
    for it in items {
        out.push_str(&format!(
            "<entry>\n  <title>{}</title>\n  <link href=\"{}\"/>\n  <id>{}</id>\n  <published>{}</published>\n  <updated>{}</updated>\n  <summary>{}</summary>\n</entry>\n",
            x(&it.title),
            x(&it.link),
            x(&it.link),
            x(&rfc3339(&it.published)),
            x(&rfc3339(&it.published)),
            x(&it.summary)
        ));
    }
    out.push_str("</feed>\n");
    out
}

/// A valid Atom 1.0 feed (`application/atom+xml`).
pub fn atom(title: &str, site: &str, items: &[FeedItem]) -> Response {
    Response::bytes(
        "application/atom+xml; charset=utf-8",
        atom_text(title, site, items),
    )
}

/// A broken Atom feed: mismatched closing tag and no `</feed>`.
pub fn atom_malformed(title: &str, site: &str, items: &[FeedItem]) -> Response {
    let text = atom_text(title, site, items)
        .replacen("</title>", "</titel>", 1)
        .replace("</feed>\n", "");
    Response::bytes("application/atom+xml; charset=utf-8", text)
}

fn json_feed_value(title: &str, site: &str, items: &[FeedItem]) -> serde_json::Value {
    serde_json::json!({
        "version": "https://jsonfeed.org/version/1.1",
        "title": title,
        "home_page_url": site,
        "items": items.iter().map(|it| serde_json::json!({
            "id": it.link,
            "url": it.link,
            "title": it.title,
            "content_text": it.summary,
            "date_published": rfc3339(&it.published),
        })).collect::<Vec<_>>(),
    })
}

/// A valid JSON Feed 1.1 (`application/feed+json`).
pub fn json_feed(title: &str, site: &str, items: &[FeedItem]) -> Response {
    Response::bytes(
        "application/feed+json",
        json_feed_value(title, site, items).to_string(),
    )
}

/// A broken JSON Feed: the JSON text is cut in half (not parseable).
pub fn json_feed_malformed(title: &str, site: &str, items: &[FeedItem]) -> Response {
    let mut text = json_feed_value(title, site, items).to_string();
    text.truncate(text.len() / 2);
    Response::bytes("application/feed+json", text)
}
