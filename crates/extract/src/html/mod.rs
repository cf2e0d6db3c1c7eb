//! HTML: tree building, main content, metadata, JS-shell detection.

pub mod content;
mod dates;
pub mod dom;
mod entities;
mod metadata;
pub mod tags;

pub use entities::{decode_attr_entities, decode_entities};
pub use metadata::metadata;
pub use tags::{StartTag, StartTags, start_tags, text_until_close};

use crate::Metadata;
use dom::Tag;
use metadata::with_text_fallbacks;
use url::Url;

/// The result of extracting one HTML page.
#[derive(Debug, Clone)]
pub struct HtmlExtract {
    pub metadata: Metadata,
    pub text: String,
}

/// Extracts main text and metadata from decoded HTML.
pub fn extract_html(html: &str, url: Option<&Url>) -> HtmlExtract {
    let dom = dom::parse(html);
    let metadata = metadata(&dom, url);
    let text = content::main_text(&dom, metadata.title.as_deref());
    let metadata = with_text_fallbacks(metadata, &dom, url, &text, html);
    HtmlExtract { metadata, text }
}

/// Visible text length (bytes, whitespace collapsed) of an HTML page: text not in
/// `<head>`, scripts, styles or hidden elements.
pub fn visible_text_len(html: &str) -> usize {
    let dom = dom::parse(html);
    content::visible_text(&dom).len()
}

/// Whether a page is a JavaScript application shell with no readable content:
/// almost no visible text, and either a "please enable JavaScript" message or a
/// body that is just an empty root `<div>` plus scripts. The fetch layer uses it
/// to classify `SOURCE_DYNAMIC_PAGE_UNREADABLE`.
///
/// Both signs are looked for in the raw text first (no allocation, one pass
/// each): a page with neither a JavaScript message nor a `<script>` is not a
/// shell, and is never parsed here.
pub fn looks_like_js_shell(html: &str) -> bool {
    /// ASCII case-insensitive substring search without a lower-cased copy.
    fn contains_ci(hay: &str, needle: &str) -> bool {
        let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
        let Some((&first, rest)) = needle.split_first() else {
            return true;
        };
        hay.iter().enumerate().any(|(i, b)| {
            b.eq_ignore_ascii_case(&first)
                && hay
                    .get(i + 1..i + 1 + rest.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(rest))
        })
    }
    let js_message = [
        "enable javascript",
        "javascript is disabled",
        "javascript is required",
        "requires javascript",
        "turn on javascript",
        "javascript must be enabled",
        "activate javascript",
        "you need to enable javascript",
    ]
    .iter()
    .any(|m| contains_ci(html, m));
    let has_script = contains_ci(html, "<script");
    if !js_message && !has_script {
        return false;
    }
    let dom = dom::parse(html);
    let visible = content::visible_text(&dom);
    let vis_len = visible.chars().filter(|c| c.is_alphanumeric()).count();
    if vis_len >= 400 {
        return false;
    }
    if js_message {
        return true;
    }
    // Body with only empty container elements (e.g. `<div id="root"></div>`).
    let body = dom.nodes.iter().position(|n| n.tag == Tag::Body);
    let elements = match body {
        Some(b) => dom.nodes[b + 1..]
            .iter()
            .filter(|n| n.tag != Tag::Text)
            .count(),
        None => dom
            .nodes
            .iter()
            .filter(|n| !matches!(n.tag, Tag::Text | Tag::Html | Tag::Head | Tag::Root))
            .count(),
    };
    has_script && vis_len < 50 && elements <= 3
}
