//! RSS, Atom and JSON Feed through feed-rs.

use crate::document::{Document, DocumentKind, FeedEntry, Metadata};
use url::Url;

/// At most this many entries are kept.
const MAX_ENTRIES: usize = 1000;

fn html_to_text(s: &str) -> String {
    if !s.contains('<') && !s.contains('&') {
        return s.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    let dom = crate::html::dom::parse(s);
    crate::html::content::visible_text(&dom)
}

macro_rules! fmt_date {
    ($d:expr) => {
        $d.map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
    };
}

/// Parses a feed; the error says why it is not a feed.
pub(crate) fn extract_feed(
    bytes: &[u8],
    url: Option<&Url>,
) -> Result<Document, feed_rs::parser::ParseFeedError> {
    let parser = feed_rs::parser::Builder::new()
        .base_uri(url.map(Url::as_str))
        .build();
    let feed = parser.parse(bytes)?;
    let mut entries = Vec::new();
    for e in feed.entries.into_iter().take(MAX_ENTRIES) {
        let body = e
            .content
            .as_ref()
            .and_then(|c| c.body.clone())
            .filter(|b| !b.trim().is_empty())
            .or_else(|| e.summary.as_ref().map(|s| s.content.clone()))
            .unwrap_or_default();
        entries.push(FeedEntry {
            title: e
                .title
                .map(|t| html_to_text(&t.content))
                .filter(|t| !t.is_empty()),
            url: e.links.first().map(|l| l.href.clone()),
            text: html_to_text(&body),
            published_at: fmt_date!(e.published),
            updated_at: fmt_date!(e.updated),
        });
    }
    let mut text = String::new();
    for e in &entries {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        if let Some(t) = &e.title {
            text.push_str(t);
            text.push('\n');
        }
        text.push_str(&e.text);
    }
    let metadata = Metadata {
        title: feed.title.map(|t| html_to_text(&t.content)),
        publisher: None,
        authors: feed
            .authors
            .into_iter()
            .filter_map(|p| p.name)
            .filter(|n| !n.is_empty())
            .collect(),
        published_at: fmt_date!(feed.published),
        modified_at: fmt_date!(feed.updated),
        language: feed.language,
        canonical_url: feed
            .links
            .iter()
            .find(|l| l.rel.as_deref() != Some("self"))
            .or(feed.links.first())
            .map(|l| l.href.clone())
            .or_else(|| url.map(Url::to_string)),
    };
    Ok(Document {
        kind: DocumentKind::Feed,
        metadata,
        text,
        entries,
        encoding: "UTF-8".into(),
        js_shell: false,
    })
}
