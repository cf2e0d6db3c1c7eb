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
    /// The page is a JavaScript application shell ([`looks_like_js_shell`]),
    /// judged on the tree parsed for the text.
    pub js_shell: bool,
}

/// Extracts main text and metadata from decoded HTML.
pub fn extract_html(html: &str, url: Option<&Url>) -> HtmlExtract {
    let dom = dom::parse(html);
    let metadata = metadata(&dom, url);
    let text = content::main_text(&dom, metadata.title.as_deref());
    let metadata = with_text_fallbacks(metadata, &dom, url, &text, html);
    let js_shell = js_shell_of_tree(html, &dom);
    HtmlExtract {
        metadata,
        text,
        js_shell,
    }
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
/// Both signs are looked for in the raw text first (one pass over the bytes,
/// no allocation): a page with neither a JavaScript message nor a `<script>`
/// is not a shell, and is never parsed here. A long page whose first 4 or
/// 32 KiB already show enough text is not parsed to its end.
pub fn looks_like_js_shell(html: &str) -> bool {
    let (js_message, has_script) = shell_signals(html);
    if !js_message && !has_script {
        return false;
    }
    // The tree of a page's first bytes is part of the whole page's tree
    // (see [`dom::parse_upto`]), so its visible text is a lower bound: when
    // the first 4 or 32 KiB already show enough text, a long page is not a
    // shell and is not parsed to its end here.
    for prefix in [4 * 1024, 32 * 1024] {
        if html.len() > prefix
            && visible_alnum(&dom::parse_upto(html, prefix), SHELL_MAX_TEXT) >= SHELL_MAX_TEXT
        {
            return false;
        }
    }
    shell_by_tree(&dom::parse(html), js_message, has_script)
}

/// [`looks_like_js_shell`] of `html` whose tree `dom` (`dom::parse(html)`)
/// is already built: the same verdict without parsing the page again.
fn js_shell_of_tree(html: &str, dom: &dom::Dom) -> bool {
    let (js_message, has_script) = shell_signals(html);
    (js_message || has_script) && shell_by_tree(dom, js_message, has_script)
}

/// A page with this many visible letters and digits is read, not a shell.
const SHELL_MAX_TEXT: usize = 400;

/// The shell verdict from the whole page's tree and the page's signals.
fn shell_by_tree(dom: &dom::Dom, js_message: bool, has_script: bool) -> bool {
    let vis_len = visible_alnum(dom, SHELL_MAX_TEXT);
    if vis_len >= SHELL_MAX_TEXT {
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

/// The letters and digits of [`content::visible_text`], counted up to
/// `cap` (the count stops there): the text nodes outside `<head>`,
/// `<noscript>` and hidden elements, read in one pass over the nodes
/// (a parent comes before its children) without writing the text out.
fn visible_alnum(dom: &dom::Dom, cap: usize) -> usize {
    let mut pruned = vec![false; dom.nodes.len()];
    let mut count = 0;
    for (i, node) in dom.nodes.iter().enumerate().skip(1) {
        pruned[i] = pruned[node.parent as usize]
            || (node.tag != Tag::Text
                && (node.hidden || matches!(node.tag, Tag::Head | Tag::Noscript)));
        if node.tag == Tag::Text && !pruned[i] {
            for c in dom.node_text(i as u32).chars() {
                count += usize::from(c.is_alphanumeric());
                if count >= cap {
                    return count;
                }
            }
        }
    }
    count
}

/// Messages of pages that need JavaScript, lower case. Every one names
/// "javascript", so a message can only start `k` bytes before a `j`/`J`
/// where `k` is the offset of "javascript" in it.
const JS_MESSAGES: [&str; 8] = [
    "enable javascript",
    "javascript is disabled",
    "javascript is required",
    "requires javascript",
    "turn on javascript",
    "javascript must be enabled",
    "activate javascript",
    "you need to enable javascript",
];

/// Whether `html` holds a "enable JavaScript"-like message, and a `<script`
/// tag (ASCII case-insensitively), as searching the lower-cased text for
/// them would say.
fn shell_signals(html: &str) -> (bool, bool) {
    let b = html.as_bytes();
    let at = |pos: usize, needle: &str| {
        b.get(pos..pos + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
    };
    let (mut js_message, mut has_script) = (false, false);
    // Only `<`, `j` and `J` matter: a SIMD search jumps from one to the
    // next (and to the one kind still wanted once the other was seen).
    let mut i = 0;
    while !(js_message && has_script) {
        let next = match (js_message, has_script) {
            (false, false) => memchr::memchr3(b'<', b'j', b'J', &b[i..]),
            (false, true) => memchr::memchr2(b'j', b'J', &b[i..]),
            _ => memchr::memchr(b'<', &b[i..]),
        };
        let Some(off) = next else { break };
        i += off;
        if b[i] == b'<' {
            has_script = at(i + 1, "script");
        } else {
            js_message = JS_MESSAGES.iter().any(|m| {
                let k = m.find("javascript").unwrap_or(0);
                i.checked_sub(k).is_some_and(|s| at(s, m))
            });
        }
        i += 1;
    }
    (js_message, has_script)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: the lower-cased text searched for each signal.
    fn signals_by_definition(html: &str) -> (bool, bool) {
        let lower = html.to_ascii_lowercase();
        let message = JS_MESSAGES.iter().any(|m| lower.contains(m));
        (message, lower.contains("<script"))
    }

    /// The definition of the count: the letters and digits of the visible text.
    fn visible_alnum_by_definition(dom: &dom::Dom) -> usize {
        content::visible_text(dom)
            .chars()
            .filter(|c| c.is_alphanumeric())
            .count()
    }

    proptest::proptest! {
        #[test]
        fn visible_alnum_counts_the_visible_text_and_the_tree_verdict_is_the_page_verdict(
            pieces in proptest::collection::vec(
                "(<script>x</script>|<div id=root>|</div>|<p>|</p>|<head>|</head>|<body>|<noscript>|</noscript>|<div hidden>|<title>|</title>|Enable JavaScript|word |é1 |<br>|<ul><li>|<!-- c -->)",
                0..40,
            ),
            repeat in 1usize..40,
        ) {
            let html = pieces.concat().repeat(repeat);
            let tree = dom::parse(&html);
            let all = visible_alnum_by_definition(&tree);
            proptest::prop_assert_eq!(visible_alnum(&tree, usize::MAX), all);
            proptest::prop_assert_eq!(visible_alnum(&tree, SHELL_MAX_TEXT), all.min(SHELL_MAX_TEXT));
            proptest::prop_assert_eq!(js_shell_of_tree(&html, &tree), looks_like_js_shell(&html));
            proptest::prop_assert_eq!(extract_html(&html, None).js_shell, looks_like_js_shell(&html));
        }

        #[test]
        fn shell_signals_equal_searching_the_lower_cased_text(
            pieces in proptest::collection::vec(
                "(<script|<SCRIPT>|<p>|Enable JavaScript|JAVASCRIPT IS REQUIRED|javascript|j|J|<|é| )",
                0..12,
            ),
        ) {
            let html = pieces.concat();
            proptest::prop_assert_eq!(shell_signals(&html), signals_by_definition(&html));
        }
    }
}
