//! The one HTML/XML tokenizer of the crate: markup classification, tag names,
//! attributes and raw-text elements. [`super::dom::parse`] builds its tree on
//! it; [`start_tags`] and [`text_until_close`] expose it to adapters that read
//! a few elements themselves (links of a results page, OpenSearch `<Url>`,
//! sitemap `<loc>`).
//!
//! It is forgiving (never fails, never panics on any input), single pass and
//! linear in time: every byte is looked at a bounded number of times, an
//! unterminated comment, quote or raw-text element simply runs to the end of
//! the input. Memory per tag is bounded by [`MAX_ATTRS`] attributes.

use super::entities::decode_attr_into;
use super::entities::decode_entities;
use std::ops::Range;

/// At most this many attributes of a tag are kept (the rest are skipped).
pub const MAX_ATTRS: usize = 64;
/// How far [`text_until_close`] looks for the closing tag.
pub const MAX_ELEMENT_SCAN: usize = 16 * 1024;

/// What starts at a `<` of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Markup {
    /// A comment, `<!…>` declaration or `<?…?>` instruction.
    Skip,
    /// A CDATA section: the byte range of its content.
    Cdata(Range<usize>),
    /// `</name…>`: the byte range of the name as written.
    End(Range<usize>),
    /// `<name`: the byte range of the name; attributes follow (see [`parse_attrs`]).
    Start(Range<usize>),
}

/// The next markup at or after byte `from`: `(offset of its '<', markup,
/// offset just past it)` (for [`Markup::Start`], past the name only). A `<`
/// that starts no markup (`a < b`) is text and is passed over.
pub(crate) fn next_markup(b: &[u8], from: usize) -> Option<(usize, Markup, usize)> {
    let mut i = from;
    loop {
        let off = b.get(i..)?.iter().position(|&c| c == b'<')?;
        let lt = i + off;
        let next = b.get(lt + 1).copied().unwrap_or(0);
        if next == b'!' {
            if b[lt..].starts_with(b"<!--") {
                let end = find_sub(b, lt + 4, b"-->").map_or(b.len(), |p| p + 3);
                return Some((lt, Markup::Skip, end));
            }
            if b[lt..].starts_with(b"<![CDATA[") {
                let end = find_sub(b, lt + 9, b"]]>").unwrap_or(b.len());
                return Some((lt, Markup::Cdata(lt + 9..end), (end + 3).min(b.len())));
            }
            return Some((lt, Markup::Skip, past_gt(b, lt)));
        }
        if next == b'?' {
            return Some((lt, Markup::Skip, past_gt(b, lt)));
        }
        let is_end = next == b'/';
        let ns = if is_end { lt + 2 } else { lt + 1 };
        if ns >= b.len() || !b[ns].is_ascii_alphabetic() {
            // Not a tag: '<' is text.
            i = lt + 1;
            continue;
        }
        let mut ne = ns;
        while ne < b.len() && !b[ne].is_ascii_whitespace() && b[ne] != b'>' && b[ne] != b'/' {
            ne += 1;
        }
        if is_end {
            return Some((lt, Markup::End(ns..ne), past_gt(b, ne)));
        }
        return Some((lt, Markup::Start(ns..ne), ne));
    }
}

/// Offset just past the first `>` at or after `from` (the input's end when none).
fn past_gt(b: &[u8], from: usize) -> usize {
    b[from..]
        .iter()
        .position(|&c| c == b'>')
        .map_or(b.len(), |p| from + p + 1)
}

pub(crate) fn find_sub(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from >= hay.len() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

/// First ASCII-case-insensitive occurrence of `needle` (lower-case ASCII,
/// starting with `<`) in `hay[from..]`; linear in `hay`.
pub(crate) fn find_ci(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let mut i = from;
    while i + needle.len() <= hay.len() {
        let off = hay[i..].iter().position(|&b| b == b'<')?;
        i += off;
        if i + needle.len() <= hay.len()
            && hay[i..i + needle.len()]
                .iter()
                .zip(needle)
                .all(|(a, b)| a.to_ascii_lowercase() == *b)
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Raw-text elements whose content is never markup (lower-case name).
pub(crate) fn is_raw(name: &[u8]) -> bool {
    matches!(
        name,
        b"script"
            | b"style"
            | b"noscript"
            | b"template"
            | b"iframe"
            | b"xmp"
            | b"noembed"
            | b"noframes"
            | b"textarea"
            | b"title"
            | b"plaintext"
    )
}

/// For the raw-text element `name` (lower case) whose content starts at
/// `from`: `(end of the content, offset just past its end tag)`.
pub(crate) fn raw_text_end(b: &[u8], name: &[u8], from: usize) -> (usize, usize) {
    let end = if name == b"plaintext" {
        b.len()
    } else {
        let mut close = Vec::with_capacity(name.len() + 2);
        close.extend_from_slice(b"</");
        close.extend_from_slice(name);
        find_ci(b, from, &close).unwrap_or(b.len())
    };
    (end, past_gt(b, end))
}

/// Parses attributes in `s[from..]` up to `>`; returns the index after `>`
/// and whether the tag was self-closing. When `keep`, pushes at most
/// [`MAX_ATTRS`] `(lower-cased name, entity-decoded value)` pairs to `out`.
pub(crate) fn parse_attrs(
    s: &str,
    from: usize,
    out: &mut Vec<(String, String)>,
    keep: bool,
) -> (usize, bool) {
    let b = s.as_bytes();
    let mut i = from;
    let mut self_closing = false;
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            self_closing = b[i] == b'/';
            i += 1;
        }
        if i >= b.len() {
            return (b.len(), self_closing);
        }
        if b[i] == b'>' {
            return (i + 1, self_closing);
        }
        self_closing = false;
        let ns = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        if i == ns {
            // e.g. a lone '=': skip it.
            i += 1;
            continue;
        }
        let name_end = i;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = "";
        if i < b.len() && b[i] == b'=' {
            i += 1;
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                let q = b[i];
                let vs = i + 1;
                let ve = b[vs..]
                    .iter()
                    .position(|&c| c == q)
                    .map_or(b.len(), |p| vs + p);
                value = &s[vs..ve];
                i = (ve + 1).min(b.len());
            } else {
                let vs = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                    i += 1;
                }
                value = &s[vs..i];
            }
        } else {
            i = name_end;
        }
        if keep && out.len() < MAX_ATTRS {
            let mut name = s[ns..name_end].to_string();
            name.make_ascii_lowercase();
            let mut v = String::new();
            if value.contains('&') {
                decode_attr_into(value, &mut v);
            } else {
                v.push_str(value);
            }
            out.push((name, v));
        }
    }
}

/// A start (or self-closing) tag, as [`start_tags`] reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartTag {
    /// Lower-cased local name (a namespace prefix is dropped: `xhtml:link` → `link`).
    pub name: String,
    /// Lower-cased qualified name as written (`news:title`): what its closing tag repeats.
    pub qname: String,
    /// `(lower-cased name, entity-decoded value)`, in source order, at most [`MAX_ATTRS`].
    pub attrs: Vec<(String, String)>,
    /// Byte offset of the tag's `<`.
    pub start: usize,
    /// Byte offset just past the tag's `>` (the input's end when unterminated).
    pub end: usize,
    /// Written `<name … />`.
    pub self_closing: bool,
}

impl StartTag {
    /// The value of attribute `name` (lower case).
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Iterator of the start tags of a document: see [`start_tags`].
#[derive(Debug, Clone)]
pub struct StartTags<'a> {
    s: &'a str,
    pos: usize,
}

/// Every start tag of `input`, in order, with the same tokenizer the
/// extractor's tree builder uses: comments, `<!…>`/`<?…?>` declarations, CDATA
/// sections, end tags and the content of raw-text elements (`script`,
/// `style`, `noscript`, `template`, `textarea`, `title`, …) are skipped.
/// Lazy; linear in `input` overall.
pub fn start_tags(input: &str) -> StartTags<'_> {
    StartTags { s: input, pos: 0 }
}

impl Iterator for StartTags<'_> {
    type Item = StartTag;

    fn next(&mut self) -> Option<StartTag> {
        let b = self.s.as_bytes();
        loop {
            let (lt, markup, after) = next_markup(b, self.pos)?;
            let Markup::Start(name) = markup else {
                self.pos = after;
                continue;
            };
            let qname = self.s[name].to_ascii_lowercase();
            let mut attrs = Vec::new();
            let (end, self_closing) = parse_attrs(self.s, after, &mut attrs, true);
            self.pos = end;
            if is_raw(qname.as_bytes()) {
                self.pos = raw_text_end(b, qname.as_bytes(), end).1;
            }
            let name = qname.rsplit(':').next().unwrap_or(&qname).to_string();
            return Some(StartTag {
                name,
                qname,
                attrs,
                start: lt,
                end,
                self_closing,
            });
        }
    }
}

/// The text between byte `from` and the next closing tag `</qname>` (`qname`
/// as written, prefix included: see [`StartTag::qname`]), never reading past
/// byte `limit` nor more than [`MAX_ELEMENT_SCAN`] bytes (the text stops there
/// when the closing tag is not found): tags inside removed, CDATA unwrapped,
/// entities decoded, whitespace collapsed, at most `max` characters.
///
/// Callers walking many elements pass the next element's start as `limit`,
/// keeping their total work linear in the input. Never panics (any `from`,
/// `limit`, including ones off a char boundary or past the end).
pub fn text_until_close(input: &str, from: usize, limit: usize, qname: &str, max: usize) -> String {
    let mut stop = limit
        .min(input.len())
        .min(from.saturating_add(MAX_ELEMENT_SCAN));
    while stop > from && !input.is_char_boundary(stop) {
        stop -= 1;
    }
    let Some(rest) = input.get(from..stop) else {
        return String::new();
    };
    let mut close = Vec::with_capacity(qname.len() + 2);
    close.extend_from_slice(b"</");
    close.extend(qname.bytes().map(|c| c.to_ascii_lowercase()));
    let end = find_ci(rest.as_bytes(), 0, &close).unwrap_or(rest.len());
    let inner = &rest[..end];
    let mut text = String::new();
    let mut r = inner;
    while !r.is_empty() {
        if let Some(c) = r.strip_prefix("<![CDATA[") {
            let e = c.find("]]>").unwrap_or(c.len());
            text.push_str(&c[..e]);
            r = c.get(e + 3..).unwrap_or("");
        } else if r.starts_with('<') {
            let e = r.find('>').map_or(r.len(), |e| e + 1);
            text.push(' ');
            r = &r[e..];
        } else {
            let e = r.find('<').unwrap_or(r.len());
            text.push_str(&decode_entities(&r[..e]));
            r = &r[e..];
        }
    }
    let mut out = String::new();
    for (n, word) in text.split_whitespace().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    match out.char_indices().nth(max) {
        Some((cut, _)) => out[..cut].to_string(),
        None => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_start_tags_with_offsets() {
        let s = "<!-- <a> --><P class=x><xhtml:Link REL='search' href=\"/a?b=1&amp;c=2&copy=3\"/>\
                 <script>'<a href=no>'</script><b>";
        let tags: Vec<_> = start_tags(s).collect();
        let names: Vec<_> = tags.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["p", "link", "script", "b"]);
        assert_eq!(tags[1].qname, "xhtml:link");
        assert_eq!(tags[1].attr("rel"), Some("search"));
        assert_eq!(tags[1].attr("href"), Some("/a?b=1&c=2&copy=3"));
        assert!(tags[1].self_closing);
        assert_eq!(&s[tags[0].start..tags[0].end], "<P class=x>");
    }

    #[test]
    fn element_text() {
        let s = "<t>a <b>x</b> &amp; <![CDATA[<c>]]></T> after";
        let from = s.find('>').unwrap() + 1;
        assert_eq!(text_until_close(s, from, usize::MAX, "t", 100), "a x & <c>");
        assert_eq!(text_until_close(s, from, usize::MAX, "t", 3), "a x");
        assert_eq!(text_until_close(s, from, from + 2, "t", 100), "a");
        assert_eq!(text_until_close(s, 999, usize::MAX, "t", 100), "");
    }
}
