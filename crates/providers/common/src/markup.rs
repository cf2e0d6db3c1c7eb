//! A small, forgiving scanner of HTML/XML start tags and their attributes,
//! for the few things adapters read from markup themselves: links of a search
//! results page, `<link rel="search">` of a home page, OpenSearch `<Url>`
//! elements, sitemap `<loc>`/`<lastmod>`.
//!
//! It is not a DOM parser: it never builds a tree, never fails, runs in linear
//! time and reads at most [`MAX_INPUT`] bytes of its input.

use url::Url;

/// Input beyond this many bytes is ignored.
pub const MAX_INPUT: usize = 8 * 1024 * 1024;
/// At most this many tags are reported.
pub const MAX_TAGS: usize = 200_000;

/// A start (or self-closing) tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// Lower-cased local name (a namespace prefix is dropped: `xhtml:link` → `link`).
    pub name: String,
    /// Lower-cased qualified name as written (`news:title`): what its closing tag repeats.
    pub qname: String,
    /// `(lower-cased name, entity-decoded value)`, in source order.
    pub attrs: Vec<(String, String)>,
    /// Byte offset of the tag's `<`.
    pub start: usize,
    /// Byte offset just past the tag's `>`.
    pub end: usize,
}

impl Tag {
    /// The value of attribute `name` (lower case).
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

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

/// Every start tag of `input`, skipping comments, `<!…>`/`<?…?>` declarations,
/// CDATA sections and the contents of `<script>` and `<style>`.
pub fn start_tags(input: &str) -> Vec<Tag> {
    let s = clip(input);
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() && out.len() < MAX_TAGS {
        let Some(off) = s[i..].find('<') else { break };
        i += off;
        let rest = &s[i..];
        if rest.starts_with("<!--") {
            i = rest.find("-->").map_or(b.len(), |e| i + e + 3);
            continue;
        }
        if rest.starts_with("<![CDATA[") {
            i = rest.find("]]>").map_or(b.len(), |e| i + e + 3);
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("<?") || rest.starts_with("</") {
            i = rest.find('>').map_or(b.len(), |e| i + e + 1);
            continue;
        }
        let Some((tag, end)) = parse_tag(s, i) else {
            i += 1;
            continue;
        };
        i = end;
        if tag.name == "script" || tag.name == "style" {
            let close = format!("</{}", tag.name);
            i = find_ci(&s[i..], &close).map_or(b.len(), |e| i + e);
        }
        out.push(tag);
    }
    out
}

/// Byte offset of the first ASCII-case-insensitive occurrence of `needle`
/// (ASCII) in `hay`; linear in `hay` for the short needles used here.
fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let first = *n.first()?;
    let mut i = 0;
    while i + n.len() <= h.len() {
        let off = h[i..].iter().position(|&c| c == first)?;
        i += off;
        if i + n.len() > h.len() {
            return None;
        }
        if h[i..i + n.len()].eq_ignore_ascii_case(n) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// How far [`text_until_close`] looks for the closing tag.
pub const MAX_ELEMENT_SCAN: usize = 16 * 1024;

/// Parses the tag starting at `s[at] == '<'`; `None` when it is not a tag.
fn parse_tag(s: &str, at: usize) -> Option<(Tag, usize)> {
    let b = s.as_bytes();
    let mut i = at + 1;
    let name_start = i;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'-' | b'_' | b':' | b'.'))
    {
        i += 1;
    }
    if i == name_start || !b[name_start].is_ascii_alphabetic() {
        return None;
    }
    let full = s[name_start..i].to_ascii_lowercase();
    let name = full.rsplit(':').next().unwrap_or(&full).to_string();
    let mut attrs = Vec::new();
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        if i >= b.len() {
            return Some((
                Tag {
                    name,
                    qname: full,
                    attrs,
                    start: at,
                    end: b.len(),
                },
                b.len(),
            ));
        }
        if b[i] == b'>' {
            i += 1;
            return Some((
                Tag {
                    name,
                    qname: full,
                    attrs,
                    start: at,
                    end: i,
                },
                i,
            ));
        }
        let k0 = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        let key = s[k0..i].to_ascii_lowercase();
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if i < b.len() && b[i] == b'=' {
            i += 1;
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                let q = b[i];
                let v0 = i + 1;
                let v1 = s[v0..]
                    .bytes()
                    .position(|c| c == q)
                    .map_or(b.len(), |p| v0 + p);
                value = decode_entities(&s[v0..v1]);
                i = (v1 + 1).min(b.len());
            } else {
                let v0 = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                    i += 1;
                }
                value = decode_entities(&s[v0..i]);
            }
        }
        if !key.is_empty() {
            attrs.push((key, value));
        }
        if i == k0 {
            // Not progressing (a stray `=`): skip it.
            i += 1;
        }
    }
}

/// Decodes the common named entities and numeric references.
pub fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find('&') {
        out.push_str(&rest[..p]);
        rest = &rest[p..];
        let end = rest[1..].find(';').map(|e| e + 1).filter(|&e| e <= 12);
        let decoded = end.and_then(|e| {
            let ent = &rest[1..e];
            let c = match ent {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ => ent
                    .strip_prefix("#x")
                    .or_else(|| ent.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| ent.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            }?;
            Some((c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
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
    let s = clip(input);
    let mut stop = limit
        .min(s.len())
        .min(from.saturating_add(MAX_ELEMENT_SCAN));
    while stop > from && !s.is_char_boundary(stop) {
        stop -= 1;
    }
    let Some(rest) = s.get(from..stop) else {
        return String::new();
    };
    let close = format!("</{name}");
    let end = find_ci(rest, &close).unwrap_or(rest.len());
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
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed.chars().take(max).collect()
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
