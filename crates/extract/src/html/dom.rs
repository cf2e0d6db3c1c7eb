//! A small, forgiving, single-pass HTML tokenizer that builds a light arena tree.
//!
//! It is not an HTML5-conformant tree builder: it knows void elements, raw-text
//! elements, the common implied end tags (`p`, `li`, `td`, …) and ignores stray
//! end tags. That is enough to score blocks of text, and it is fast, iterative
//! (no recursion anywhere) and bounded: nesting is capped at [`MAX_DEPTH`]
//! (deeper elements are flattened into their ancestor) and the number of
//! element nodes at [`MAX_NODES`]. Tokens (tag names, attributes, raw-text
//! elements) come from [`super::tags`], the crate's one tokenizer.

use super::entities::decode_into;
use super::tags::{Markup, is_raw, next_markup, parse_attrs, raw_text_end};

/// Deeper elements are attached to the element at this depth.
pub const MAX_DEPTH: usize = 256;
/// Past this many nodes, new elements are not created (text still is).
pub const MAX_NODES: usize = 2_000_000;

/// The element names the extractor cares about; everything else is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    Root,
    Text,
    Html,
    Head,
    Body,
    P,
    Div,
    Span,
    A,
    Br,
    Hr,
    Img,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Ul,
    Ol,
    Li,
    Dl,
    Dt,
    Dd,
    Table,
    Tr,
    Td,
    Th,
    Caption,
    Pre,
    Blockquote,
    Article,
    Main,
    Section,
    Header,
    Footer,
    Nav,
    Aside,
    Form,
    Button,
    Select,
    Option,
    Label,
    Figure,
    Figcaption,
    Svg,
    Math,
    Time,
    Address,
    Details,
    Summary,
    Dialog,
    Menu,
    Center,
    Thead,
    Tbody,
    Tfoot,
    /// Parsed as markup (JavaScript-rendered pages keep their text there),
    /// but not visible in a browser that runs scripts.
    Noscript,
    Other,
}

impl Tag {
    fn from_lower(name: &[u8]) -> Tag {
        match name {
            b"html" => Tag::Html,
            b"head" => Tag::Head,
            b"body" => Tag::Body,
            b"p" => Tag::P,
            b"div" => Tag::Div,
            b"span" => Tag::Span,
            b"a" => Tag::A,
            b"br" => Tag::Br,
            b"hr" => Tag::Hr,
            b"img" => Tag::Img,
            b"h1" => Tag::H1,
            b"h2" => Tag::H2,
            b"h3" => Tag::H3,
            b"h4" => Tag::H4,
            b"h5" => Tag::H5,
            b"h6" => Tag::H6,
            b"ul" => Tag::Ul,
            b"ol" => Tag::Ol,
            b"li" => Tag::Li,
            b"dl" => Tag::Dl,
            b"dt" => Tag::Dt,
            b"dd" => Tag::Dd,
            b"table" => Tag::Table,
            b"tr" => Tag::Tr,
            b"td" => Tag::Td,
            b"th" => Tag::Th,
            b"thead" => Tag::Thead,
            b"tbody" => Tag::Tbody,
            b"tfoot" => Tag::Tfoot,
            b"caption" => Tag::Caption,
            b"pre" => Tag::Pre,
            b"blockquote" => Tag::Blockquote,
            b"article" => Tag::Article,
            b"main" => Tag::Main,
            b"section" => Tag::Section,
            b"header" => Tag::Header,
            b"footer" => Tag::Footer,
            b"nav" => Tag::Nav,
            b"aside" => Tag::Aside,
            b"form" => Tag::Form,
            b"button" => Tag::Button,
            b"select" => Tag::Select,
            b"option" => Tag::Option,
            b"label" => Tag::Label,
            b"figure" => Tag::Figure,
            b"figcaption" => Tag::Figcaption,
            b"svg" => Tag::Svg,
            b"math" => Tag::Math,
            b"time" => Tag::Time,
            b"address" => Tag::Address,
            b"details" => Tag::Details,
            b"summary" => Tag::Summary,
            b"dialog" => Tag::Dialog,
            b"menu" => Tag::Menu,
            b"center" => Tag::Center,
            b"noscript" => Tag::Noscript,
            _ => Tag::Other,
        }
    }

    /// Elements that start a new block of text.
    pub fn is_block(self) -> bool {
        !matches!(
            self,
            Tag::Span
                | Tag::A
                | Tag::Img
                | Tag::Time
                | Tag::Label
                | Tag::Other
                | Tag::Noscript
                | Tag::Text
                | Tag::Option
                | Tag::Button
        )
    }

    pub fn is_heading(self) -> bool {
        matches!(
            self,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
        )
    }
}

fn is_void(name: &[u8]) -> bool {
    matches!(
        name,
        b"area"
            | b"base"
            | b"br"
            | b"col"
            | b"embed"
            | b"hr"
            | b"img"
            | b"input"
            | b"link"
            | b"meta"
            | b"param"
            | b"source"
            | b"track"
            | b"wbr"
            | b"keygen"
            | b"frame"
    )
}

/// One node of the arena. Children are linked (first/next) to keep nodes small.
#[derive(Debug, Clone)]
pub struct Node {
    pub tag: Tag,
    pub parent: u32,
    pub first_child: u32,
    pub last_child: u32,
    pub next: u32,
    /// Text nodes: range into [`Dom::text`]. Elements: range of `class id` in [`Dom::attrs`].
    pub start: u32,
    pub end: u32,
    /// Hidden (`hidden`, `display:none`, `aria-hidden`) or semantically boilerplate.
    pub hidden: bool,
    /// `itemprop="articleBody"` / `role="main"` style hints.
    pub body_hint: bool,
}

pub const NONE: u32 = u32::MAX;

/// What the tokenizer saw in `<head>` and friends, for metadata extraction.
#[derive(Debug, Default, Clone)]
pub struct HeadInfo {
    pub title: Option<String>,
    pub lang: Option<String>,
    /// `(key, content)`: key is the lowercased `property`, `name` or `itemprop`.
    pub metas: Vec<(String, String)>,
    pub canonical: Option<String>,
    pub json_ld: Vec<String>,
    /// Machine-readable times: `<time datetime>` and the `datetime`/`content`
    /// of elements marked `itemprop=datePublished`, with what marks them.
    pub times: Vec<(String, TimeHint)>,
    /// Text of elements with `itemprop=author`/`rel=author`/class `byline`/`author`.
    pub author_texts: Vec<String>,
}

/// What says that a machine-readable time is the publication time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeHint {
    /// Nothing: any `<time datetime>`.
    None,
    /// The `pubdate` attribute (also used on comments).
    Pubdate,
    /// `itemprop=datePublished` (microdata of the page's item).
    Itemprop,
}

/// The parsed page.
#[derive(Debug, Default)]
pub struct Dom {
    pub nodes: Vec<Node>,
    pub text: String,
    pub attrs: String,
    pub head: HeadInfo,
}

impl Dom {
    pub fn node_text(&self, id: u32) -> &str {
        let n = &self.nodes[id as usize];
        &self.text[n.start as usize..n.end as usize]
    }

    pub fn class_id(&self, id: u32) -> &str {
        let n = &self.nodes[id as usize];
        if n.tag == Tag::Text {
            return "";
        }
        &self.attrs[n.start as usize..n.end as usize]
    }

    pub fn children(&self, id: u32) -> Children<'_> {
        Children {
            dom: self,
            cur: self.nodes[id as usize].first_child,
        }
    }
}

pub struct Children<'a> {
    dom: &'a Dom,
    cur: u32,
}

impl Iterator for Children<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.cur == NONE {
            return None;
        }
        let c = self.cur;
        self.cur = self.dom.nodes[c as usize].next;
        Some(c)
    }
}

struct Builder {
    dom: Dom,
    /// Open elements: (node id, hash of the lowercased name, tag).
    stack: Vec<(u32, u64, Tag)>,
    /// Elements opened past MAX_DEPTH (not pushed); their end tags are swallowed.
    overflow: usize,
    attr_buf: Vec<(String, String)>,
    /// Open author-ish element whose text we collect: stack depth at open.
    author_depth: Option<usize>,
    author_buf: String,
    /// Open element whose class or id names comments (`comment`, `reply`):
    /// stack depth at open. Authors inside are commenters, not the page's.
    comment_depth: Option<usize>,
}

/// Whether a class or id token marks a comment or a comment section
/// (`comment`, `comment-author-link`, `recentcomments`), not a page-wide
/// state or a counter such as `comments-open`, `has-comments`, `comment-count`.
fn names_comments(token: &str) -> bool {
    token.contains("comment")
        && !["open", "closed", "has-", "count", "number", "no-"]
            .iter()
            .any(|w| token.contains(w))
}

fn hash_name(name: &[u8]) -> u64 {
    // FNV-1a: tiny and good enough to match end tags.
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in name {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

impl Builder {
    fn new(cap: usize) -> Builder {
        let mut dom = Dom {
            nodes: Vec::with_capacity(cap / 40 + 16),
            text: String::with_capacity(cap / 3),
            ..Dom::default()
        };
        dom.nodes.push(Node {
            tag: Tag::Root,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next: NONE,
            start: 0,
            end: 0,
            hidden: false,
            body_hint: false,
        });
        Builder {
            dom,
            stack: vec![(0, 0, Tag::Root)],
            overflow: 0,
            attr_buf: Vec::new(),
            author_depth: None,
            author_buf: String::new(),
            comment_depth: None,
        }
    }

    fn current(&self) -> u32 {
        self.stack.last().map_or(0, |s| s.0)
    }

    fn append(&mut self, node: Node) -> u32 {
        let id = self.dom.nodes.len() as u32;
        let parent = node.parent;
        self.dom.nodes.push(node);
        let p = &mut self.dom.nodes[parent as usize];
        if p.last_child == NONE {
            p.first_child = id;
        } else {
            let last = p.last_child as usize;
            p.last_child = id;
            self.dom.nodes[last].next = id;
            return id;
        }
        p.last_child = id;
        id
    }

    /// Appends the text `raw`; `input_left` is how many bytes of the page
    /// follow it (what can still become text).
    fn push_text(&mut self, raw: &str, input_left: usize) {
        if raw.is_empty() {
            return;
        }
        // Grow by doubling, but never past what the rest of the page can add
        // (text is never longer than the markup it comes from): a text-heavy
        // page of 1 MB ends with ~1 MB of buffer, not a doubled 1.4–2 MB.
        let text = &mut self.dom.text;
        if text.capacity() - text.len() < raw.len() {
            let grow = text
                .capacity()
                .min(raw.len() + input_left + 64)
                .max(raw.len());
            text.reserve_exact(grow);
        }
        let start = self.dom.text.len();
        // Decode entities, then collapse whitespace in place.
        let mut decoded = String::new();
        let src: &str = if raw.contains('&') {
            decode_into(raw, &mut decoded);
            &decoded
        } else {
            raw
        };
        let mut prev_space = self.dom.text.ends_with(' ');
        // Runs of ASCII that is not whitespace are copied whole; other
        // characters one at a time (Unicode spaces, zero-width ones, the rest).
        let bytes = src.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let run = i;
            while i < bytes.len() && bytes[i] < 0x80 && !matches!(bytes[i], b'\t'..=b'\r' | b' ') {
                i += 1;
            }
            if i > run {
                self.dom.text.push_str(&src[run..i]);
                prev_space = false;
            }
            let Some(c) = src[i..].chars().next() else {
                break;
            };
            i += c.len_utf8();
            if c.is_whitespace() || c == '\u{200b}' || c == '\u{feff}' {
                if !prev_space {
                    self.dom.text.push(' ');
                    prev_space = true;
                }
            } else {
                self.dom.text.push(c);
                prev_space = false;
            }
        }
        if self.author_depth.is_some() && self.author_buf.len() < 200 {
            self.author_buf.push_str(&self.dom.text[start..]);
        }
        let end = self.dom.text.len();
        if end == start {
            return;
        }
        let parent = self.current();
        // Merge with a directly preceding text node.
        let last = self.dom.nodes[parent as usize].last_child;
        if last != NONE {
            let l = &mut self.dom.nodes[last as usize];
            if l.tag == Tag::Text && l.end as usize == start {
                l.end = end as u32;
                return;
            }
        }
        self.append(Node {
            tag: Tag::Text,
            parent,
            first_child: NONE,
            last_child: NONE,
            next: NONE,
            start: start as u32,
            end: end as u32,
            hidden: false,
            body_hint: false,
        });
    }

    /// Pops up to and including the stack entry at `idx`.
    fn pop_to(&mut self, idx: usize) {
        while self.stack.len() > idx.max(1) {
            self.stack.pop();
        }
        if let Some(d) = self.author_depth
            && self.stack.len() < d
        {
            self.finish_author();
        }
        if self.comment_depth.is_some_and(|d| self.stack.len() < d) {
            self.comment_depth = None;
        }
    }

    fn finish_author(&mut self) {
        self.author_depth = None;
        let t = self.author_buf.trim();
        if !t.is_empty() && self.dom.head.author_texts.len() < 8 {
            self.dom.head.author_texts.push(t.to_string());
        }
        self.author_buf.clear();
    }

    /// Content elements inside an unclosed `<head>` close it (the body starts
    /// implicitly), as an HTML5 parser does; otherwise the whole page would be
    /// pruned with the head.
    fn close_head_for(&mut self, name: &[u8]) {
        if matches!(
            name,
            b"head"
                | b"title"
                | b"meta"
                | b"link"
                | b"style"
                | b"script"
                | b"base"
                | b"noscript"
                | b"template"
                | b"html"
        ) {
            return;
        }
        if let Some(i) = self.stack.iter().position(|s| s.2 == Tag::Head) {
            self.pop_to(i);
        }
    }

    /// Closes implied elements before opening `tag`.
    fn implied_end(&mut self, tag: Tag) {
        let closes: &[Tag] = match tag {
            Tag::Li => &[Tag::Li],
            Tag::Dt | Tag::Dd => &[Tag::Dt, Tag::Dd],
            Tag::Td | Tag::Th => &[Tag::Td, Tag::Th],
            Tag::Tr => &[Tag::Tr, Tag::Td, Tag::Th],
            Tag::Option => &[Tag::Option],
            _ => &[],
        };
        let barrier = |t: Tag| {
            matches!(
                t,
                Tag::Ul | Tag::Ol | Tag::Dl | Tag::Table | Tag::Select | Tag::Root | Tag::Menu
            )
        };
        if !closes.is_empty() {
            for i in (1..self.stack.len()).rev() {
                let t = self.stack[i].2;
                if closes.contains(&t) {
                    self.pop_to(i);
                    break;
                }
                if barrier(t) || self.stack.len() - i > 12 {
                    break;
                }
            }
        }
        if tag.is_block() && !matches!(tag, Tag::Br | Tag::Img) {
            // A block closes an open paragraph (if it is the innermost block).
            for i in (1..self.stack.len()).rev() {
                let t = self.stack[i].2;
                if t == Tag::P {
                    self.pop_to(i);
                    break;
                }
                if t.is_block() || self.stack.len() - i > 8 {
                    break;
                }
            }
        }
    }

    fn start_tag(&mut self, name: &[u8], self_closing: bool) {
        let tag = Tag::from_lower(name);
        let attrs = std::mem::take(&mut self.attr_buf);
        let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        // Metadata that lives in attributes.
        match name {
            b"meta" => {
                let content = get("content").unwrap_or("");
                for key in ["property", "name", "itemprop", "http-equiv"] {
                    if let Some(k) = get(key)
                        && !content.is_empty()
                        && self.dom.head.metas.len() < 512
                    {
                        self.dom
                            .head
                            .metas
                            .push((k.trim().to_ascii_lowercase(), content.trim().to_string()));
                    }
                }
            }
            b"link" => {
                if let (Some(rel), Some(href)) = (get("rel"), get("href"))
                    && rel
                        .split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("canonical"))
                    && self.dom.head.canonical.is_none()
                {
                    self.dom.head.canonical = Some(href.trim().to_string());
                }
            }
            b"html" => {
                if let Some(l) = get("lang").or(get("xml:lang")) {
                    self.dom.head.lang = Some(l.trim().to_string());
                }
            }
            _ => {}
        }
        let itemprop_published =
            get("itemprop").is_some_and(|p| p.to_ascii_lowercase().contains("datepublished"));
        // Times in comment sections date the comments, not the page.
        if self.dom.head.times.len() < 64 && self.comment_depth.is_none() {
            if tag == Tag::Time
                && let Some(dt) = get("datetime")
            {
                let hint = if itemprop_published {
                    TimeHint::Itemprop
                } else if get("pubdate").is_some() {
                    TimeHint::Pubdate
                } else {
                    TimeHint::None
                };
                self.dom.head.times.push((dt.to_string(), hint));
            } else if itemprop_published && let Some(dt) = get("datetime").or(get("content")) {
                self.dom
                    .head
                    .times
                    .push((dt.to_string(), TimeHint::Itemprop));
            }
        }
        let is_author = self.author_depth.is_none()
            && self.comment_depth.is_none()
            // An author marked as an organisation (`itemtype=…/Organization`) is the site.
            && !get("itemtype").is_some_and(|t| t.ends_with("Organization"))
            && (get("itemprop").is_some_and(|p| p.eq_ignore_ascii_case("author"))
                || get("rel").is_some_and(|p| p.eq_ignore_ascii_case("author")));
        if is_void(name) || self_closing && !matches!(tag, Tag::Div | Tag::P | Tag::Span | Tag::A) {
            if tag == Tag::Br || tag == Tag::Hr || tag == Tag::Img {
                // Keep line breaks as (childless) nodes: they separate text.
                self.implied_end(tag);
                let parent = self.current();
                self.append(Node {
                    tag,
                    parent,
                    first_child: NONE,
                    last_child: NONE,
                    next: NONE,
                    start: 0,
                    end: 0,
                    hidden: false,
                    body_hint: false,
                });
            }
            self.attr_buf = attrs;
            self.attr_buf.clear();
            return;
        }
        self.implied_end(tag);
        self.close_head_for(name);
        if self.stack.len() >= MAX_DEPTH || self.dom.nodes.len() >= MAX_NODES {
            self.overflow += 1;
            self.attr_buf = attrs;
            self.attr_buf.clear();
            return;
        }
        let a_start = self.dom.attrs.len();
        let mut hidden = get("hidden").is_some()
            || get("aria-hidden").is_some_and(|v| v.eq_ignore_ascii_case("true"))
            || get("style").is_some_and(|s| {
                let s = s.to_ascii_lowercase().replace(' ', "");
                s.contains("display:none") || s.contains("visibility:hidden")
            });
        if matches!(
            tag,
            Tag::Svg | Tag::Math | Tag::Select | Tag::Button | Tag::Dialog
        ) {
            hidden = true;
        }
        let mut body_hint = false;
        if let Some(ip) = get("itemprop")
            && (ip.eq_ignore_ascii_case("articleBody")
                || ip.eq_ignore_ascii_case("text")
                || ip.eq_ignore_ascii_case("reviewBody"))
        {
            body_hint = true;
        }
        if get("role")
            .is_some_and(|r| r.eq_ignore_ascii_case("main") || r.eq_ignore_ascii_case("article"))
        {
            body_hint = true;
        }
        if let Some(c) = get("class") {
            for ch in c.chars() {
                self.dom.attrs.push(ch.to_ascii_lowercase());
            }
        }
        if let Some(i) = get("id") {
            self.dom.attrs.push(' ');
            for ch in i.chars() {
                self.dom.attrs.push(ch.to_ascii_lowercase());
            }
        }
        if let Some(r) = get("role") {
            self.dom.attrs.push_str(" role-");
            self.dom.attrs.push_str(&r.to_ascii_lowercase());
        }
        let a_end = self.dom.attrs.len();
        let ci = &self.dom.attrs[a_start..a_end];
        let is_comment = !matches!(tag, Tag::Body | Tag::Html | Tag::Article | Tag::Main)
            && ci.split_ascii_whitespace().any(names_comments);
        let is_author = !is_comment
            && self.comment_depth.is_none()
            && (is_author
                || (self.author_depth.is_none()
                    && (ci.contains("byline") || ci.contains("author"))
                    && !matches!(tag, Tag::Body | Tag::Html | Tag::Article | Tag::Main)));
        let parent = self.current();
        let id = self.append(Node {
            tag,
            parent,
            first_child: NONE,
            last_child: NONE,
            next: NONE,
            start: a_start as u32,
            end: a_end as u32,
            hidden,
            body_hint,
        });
        self.stack.push((id, hash_name(name), tag));
        // Text of two elements that touch ("Jane Roe</a><a>View all") is
        // two things: keep them apart in the byline.
        if self.author_depth.is_some()
            && self.author_buf.len() < 200
            && !self.author_buf.is_empty()
            && !self.author_buf.ends_with(char::is_whitespace)
        {
            self.author_buf.push('\n');
        }
        if is_author {
            self.author_depth = Some(self.stack.len());
        }
        if is_comment && self.comment_depth.is_none() {
            self.comment_depth = Some(self.stack.len());
        }
        self.attr_buf = attrs;
        self.attr_buf.clear();
    }

    fn end_tag(&mut self, name: &[u8]) {
        let h = hash_name(name);
        let tag = Tag::from_lower(name);
        for i in (1..self.stack.len()).rev() {
            if self.stack[i].1 == h {
                self.pop_to(i);
                return;
            }
            // Do not let a stray inline end tag close blocks far away.
            if !tag.is_block() && self.stack.len() - i > 16 {
                break;
            }
        }
        if self.overflow > 0 {
            self.overflow -= 1;
        }
        if tag == Tag::P {
            // `</p>` without an open `<p>` is an empty paragraph: a break.
            let parent = self.current();
            self.append(Node {
                tag: Tag::Br,
                parent,
                first_child: NONE,
                last_child: NONE,
                next: NONE,
                start: 0,
                end: 0,
                hidden: false,
                body_hint: false,
            });
        }
    }
}

fn lower_into(src: &[u8], buf: &mut Vec<u8>) {
    buf.clear();
    buf.extend(src.iter().map(u8::to_ascii_lowercase));
}

/// Parses `html` into a [`Dom`].
pub fn parse(html: &str) -> Dom {
    parse_upto(html, usize::MAX)
}

/// Parses `html` up to the first markup item (tag, comment, raw-text
/// element) that ends at or past byte `limit`, then stops: the result is
/// the tree of the whole page as it stood at that point. The tree is only
/// ever appended to (nodes are never removed, moved or re-flagged, text
/// nodes only grow), so everything in it is in the whole page's tree too.
pub fn parse_upto(html: &str, limit: usize) -> Dom {
    let mut bld = Builder::new(html.len().min(limit.saturating_add(1024)));
    let b = html.as_bytes();
    let mut i = 0;
    let mut text_start = 0;
    let mut name_buf: Vec<u8> = Vec::with_capacity(16);
    let mut stopped = false;
    loop {
        // Here `text_start == i`: no text is pending.
        if i >= limit {
            stopped = true;
            break;
        }
        let Some((lt, markup, after)) = next_markup(b, i) else {
            break;
        };
        bld.push_text(&html[text_start..lt], html.len() - lt);
        i = after;
        text_start = i;
        let name = match markup {
            Markup::Skip => continue,
            Markup::Cdata(content) => {
                let left = html.len() - content.end;
                bld.push_text(&html[content], left);
                continue;
            }
            Markup::End(name) => {
                lower_into(&b[name], &mut name_buf);
                bld.end_tag(&name_buf);
                continue;
            }
            Markup::Start(name) => name,
        };
        lower_into(&b[name], &mut name_buf);
        let keep = !matches!(
            name_buf.as_slice(),
            b"path" | b"g" | b"rect" | b"circle" | b"use" | b"polygon" | b"source"
        );
        let mut attrs = std::mem::take(&mut bld.attr_buf);
        attrs.clear();
        let (after, self_closing) = parse_attrs(html, i, &mut attrs, keep);
        i = after;
        text_start = i;
        // `<noscript>` is parsed as markup: JavaScript-rendered pages keep
        // their only copy of the text there. A self-closed `<title/>` (SVG)
        // or `<iframe/>` has no raw text to skip; scripts and styles ignore
        // the slash, as browsers do.
        let raw = is_raw(&name_buf)
            && name_buf != b"noscript"
            && (!self_closing || matches!(name_buf.as_slice(), b"script" | b"style"));
        if raw {
            let is_ld = name_buf == b"script"
                && attrs.iter().any(|(n, v)| {
                    n == "type" && v.trim().eq_ignore_ascii_case("application/ld+json")
                });
            bld.attr_buf = attrs;
            let (end, past) = raw_text_end(b, &name_buf, i);
            let content = &html[i..end];
            if is_ld && bld.dom.head.json_ld.len() < 16 {
                bld.dom.head.json_ld.push(content.to_string());
            } else if name_buf == b"title" && bld.dom.head.title.is_none() {
                let mut t = String::new();
                decode_into(content, &mut t);
                bld.dom.head.title = Some(t.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            i = past;
            text_start = i;
            continue;
        }
        bld.attr_buf = attrs;
        bld.start_tag(&name_buf, self_closing);
    }
    if !stopped && text_start < b.len() {
        bld.push_text(&html[text_start..], 0);
    }
    if bld.author_depth.is_some() {
        bld.finish_author();
    }
    bld.dom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_tree() {
        let d = parse(
            "<html lang=en><head><title>T &amp; t</title><meta property='og:title' content='OG'></head><body><p>one<p>two<ul><li>a<li>b</ul><script>var x='<p>';</script></body>",
        );
        assert_eq!(d.head.title.as_deref(), Some("T & t"));
        assert_eq!(d.head.lang.as_deref(), Some("en"));
        assert_eq!(d.head.metas[0], ("og:title".into(), "OG".into()));
        let ps = d.nodes.iter().filter(|n| n.tag == Tag::P).count();
        assert_eq!(ps, 2);
        let lis: Vec<_> = d
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.tag == Tag::Li)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(lis.len(), 2);
        assert_eq!(d.nodes[lis[1]].parent, d.nodes[lis[0]].parent);
        assert!(!d.text.contains("var x"));
    }
}
