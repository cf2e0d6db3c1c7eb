//! What adapters read from markup themselves: links of a search results page,
//! `<link rel="search">` of a home page, OpenSearch `<Url>` elements, sitemap
//! `<loc>`/`<lastmod>`.
//!
//! A thin layer over `sgw_extract::html`'s tokenizer (the one the extractor
//! builds its tree with: [`start_tags`], [`decode_entities`],
//! [`sgw_extract::html::text_until_close`]): it adds input/tag-count bounds and
//! link resolution against a base URL. It is not a DOM parser: it never builds
//! a tree, never fails, runs in linear time and reads at most [`MAX_INPUT`]
//! bytes of its input.

use url::Url;

/// A start (or self-closing) tag: see [`sgw_extract::html::StartTag`].
pub use sgw_extract::html::StartTag as Tag;
pub use sgw_extract::html::decode_entities;
pub use sgw_extract::html::tags::MAX_ELEMENT_SCAN;

/// Input beyond this many bytes is ignored.
pub const MAX_INPUT: usize = 8 * 1024 * 1024;
/// At most this many tags are reported.
pub const MAX_TAGS: usize = 200_000;

fn clip(input: &str) -> &str {
    if input.len() <= MAX_INPUT {
        return input;
    }
    let mut end = MAX_INPUT;
    while !input.is_char_boundary(end) {
        end -= 1;
    }
    &input[..end]
}

/// Every start tag of `input` (its first [`MAX_INPUT`] bytes, at most
/// [`MAX_TAGS`] of them), skipping comments, `<!…>`/`<?…?>` declarations,
/// CDATA sections and the contents of raw-text elements (`<script>`,
/// `<style>`, `<noscript>`, `<template>`, …).
pub fn start_tags(input: &str) -> Vec<Tag> {
    sgw_extract::html::start_tags(clip(input))
        .take(MAX_TAGS)
        .collect()
}

/// The text between `from` and the next closing tag `</name>` (`name` as
/// written, prefix included: see [`Tag::qname`]) — tags inside removed,
/// CDATA unwrapped, entities decoded, whitespace collapsed — at most `max`
/// characters. The closing tag is looked for within [`MAX_ELEMENT_SCAN`]
/// bytes (the text stops there when it is not found).
pub fn text_until_close(input: &str, from: usize, name: &str, max: usize) -> String {
    text_until_close_within(input, from, usize::MAX, name, max)
}

/// Like [`text_until_close`], never reading past byte `limit` (callers
/// walking many elements pass the next element's start, keeping the total
/// work linear in the input).
pub fn text_until_close_within(
    input: &str,
    from: usize,
    limit: usize,
    name: &str,
    max: usize,
) -> String {
    sgw_extract::html::text_until_close(clip(input), from, limit, name, max)
}

/// A hyperlink of an HTML page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Absolute URL (resolved against the page URL), fragment removed.
    pub url: Url,
    /// The anchor text (empty for `<link>`), whitespace collapsed, ≤ 300 characters.
    pub text: String,
    /// The `rel` attribute, lower case.
    pub rel: Option<String>,
    /// The `type` attribute, lower case.
    pub media_type: Option<String>,
    /// `a` or `link`.
    pub element: &'static str,
}

/// Every `<a href>` and `<link href>` of `html` with an http(s) target.
pub fn links(html: &str, base: &Url) -> Vec<Link> {
    let html = clip(html);
    let mut out = Vec::new();
    let tags = start_tags(html);
    for (i, tag) in tags.iter().enumerate() {
        let element = match tag.name.as_str() {
            "a" => "a",
            "link" => "link",
            _ => continue,
        };
        let Some(href) = tag.attr("href").filter(|h| !h.trim().is_empty()) else {
            continue;
        };
        let Ok(mut url) = base.join(href.trim()) else {
            continue;
        };
        if !matches!(url.scheme(), "http" | "https") {
            continue;
        }
        url.set_fragment(None);
        let text = if element == "a" {
            // An anchor's text cannot run past the next anchor.
            let next_a = tags[i + 1..]
                .iter()
                .find(|t| t.name == "a")
                .map_or(usize::MAX, |t| t.start);
            text_until_close_within(html, tag.end, next_a, &tag.qname, 300)
        } else {
            String::new()
        };
        out.push(Link {
            url,
            text,
            rel: tag.attr("rel").map(|r| r.trim().to_ascii_lowercase()),
            media_type: tag.attr("type").map(|t| t.trim().to_ascii_lowercase()),
            element,
        });
    }
    out
}
