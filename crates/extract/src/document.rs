//! The entry point: sniff the kind of bytes, extract, and hand out a [`Document`].

use crate::error::ExtractError;
#[cfg(feature = "feed")]
use crate::feed;
use crate::{decode, html, pdf};
use serde::{Deserialize, Serialize};
use url::Url;

/// What kind of input a document came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    Html,
    Feed,
    Pdf,
    Text,
    Markdown,
    Json,
}

/// Page metadata. Dates are RFC 3339 when a time of day is known, with the
/// offset the page wrote (`Z` when it gave none), so that the first ten
/// characters are the day as published; `YYYY-MM-DD` when only a date is known.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct Metadata {
    pub title: Option<String>,
    /// Publisher or site name.
    pub publisher: Option<String>,
    pub authors: Vec<String>,
    /// When the page was first published (never its "updated" date).
    pub published_at: Option<String>,
    /// When the page says it was last updated, if it says so.
    pub modified_at: Option<String>,
    /// BCP 47-ish language tag as declared (`en`, `en-US`, `fr`).
    pub language: Option<String>,
    /// Absolute canonical URL (declared, else the document URL).
    pub canonical_url: Option<String>,
}

/// One entry of an RSS, Atom or JSON feed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct FeedEntry {
    pub title: Option<String>,
    pub url: Option<String>,
    /// Summary or content, as plain text.
    pub text: String,
    pub published_at: Option<String>,
    pub updated_at: Option<String>,
}

/// Extracted evidence text with its metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct Document {
    pub kind: DocumentKind,
    #[serde(flatten)]
    pub metadata: Metadata,
    /// Main text: paragraphs separated by blank lines, list items by newlines.
    /// Passage and field offsets are byte offsets into this string.
    pub text: String,
    /// Feed entries (feeds only; their text is also concatenated into `text`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<FeedEntry>,
    /// The character encoding the input was decoded from.
    pub encoding: String,
    /// An HTML page that is a JavaScript application shell: almost no
    /// visible text, and a "please enable JavaScript" message or a body of
    /// scripts and an empty root element ([`crate::looks_like_js_shell`],
    /// judged on the tree parsed for the text). Always false for other kinds.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub js_shell: bool,
}

/// Guesses the kind of `bytes` from the content type and the first bytes.
pub fn sniff_kind(bytes: &[u8], content_type: Option<&str>) -> DocumentKind {
    let ct = content_type
        .map(|c| {
            c.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    match ct.as_str() {
        "text/html" | "application/xhtml+xml" => return DocumentKind::Html,
        "application/rss+xml" | "application/atom+xml" | "application/feed+json" => {
            return DocumentKind::Feed;
        }
        "application/pdf" => return DocumentKind::Pdf,
        "text/markdown" | "text/x-markdown" => return DocumentKind::Markdown,
        "application/json" => {
            return if looks_like_json_feed(bytes) {
                DocumentKind::Feed
            } else {
                DocumentKind::Json
            };
        }
        _ => {}
    }
    if bytes.starts_with(b"%PDF-") {
        return DocumentKind::Pdf;
    }
    let head = &bytes[..bytes.len().min(2048)];
    let start = String::from_utf8_lossy(head)
        .trim_start_matches('\u{feff}')
        .trim_start()
        .to_ascii_lowercase();
    if start.starts_with("<?xml")
        || start.starts_with("<rss")
        || start.starts_with("<feed")
        || start.starts_with("<rdf")
    {
        if start.contains("<rss") || start.contains("<feed") || start.contains("<rdf:rdf") {
            return DocumentKind::Feed;
        }
        if !start.contains("<html") {
            return DocumentKind::Text;
        }
    }
    if start.starts_with('{') || start.starts_with('[') {
        return if looks_like_json_feed(bytes) {
            DocumentKind::Feed
        } else {
            DocumentKind::Json
        };
    }
    if start.starts_with("<!doctype html")
        || start.starts_with("<html")
        || start.contains("<body")
        || start.contains("<head")
        || start.contains("<div")
        || start.contains("<p>")
    {
        return DocumentKind::Html;
    }
    if ct == "text/plain" {
        return DocumentKind::Text;
    }
    if start.starts_with("# ") || start.contains("\n## ") {
        return DocumentKind::Markdown;
    }
    if ct.starts_with("text/") || ct.is_empty() {
        if start.contains("</") {
            return DocumentKind::Html;
        }
        return DocumentKind::Text;
    }
    DocumentKind::Text
}

fn looks_like_json_feed(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(512)];
    String::from_utf8_lossy(head).contains("jsonfeed.org/version")
}

/// True for bytes that are not text: a known binary magic number, many NUL
/// bytes (but not UTF-16 with a BOM), or more than 2 % control bytes other
/// than tab, line breaks, form feed and ESC in the first 8 KiB (random or
/// compressed data has about 10 %; text in any charset has next to none).
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8192)];
    let utf16_bom = head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff]);
    let controls = head
        .iter()
        .filter(|&&b| matches!(b, 0x00..=0x08 | 0x0e..=0x1a | 0x1c..=0x1f | 0x7f))
        .count();
    if !utf16_bom && controls * 50 > head.len() {
        return true;
    }
    let head = &head[..head.len().min(1024)];
    let magic: &[&[u8]] = &[
        b"\x89PNG",
        b"GIF8",
        b"\xff\xd8\xff",
        b"PK\x03\x04",
        b"RIFF",
        b"\x00\x00\x01\x00",
    ];
    magic.iter().any(|m| head.starts_with(m))
        || (head.iter().filter(|&&b| b == 0).count() > head.len() / 10
            && !head.starts_with(&[0xff, 0xfe])
            && !head.starts_with(&[0xfe, 0xff]))
}

fn charset_param(content_type: Option<&str>) -> Option<&str> {
    let ct = content_type?;
    ct.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim().eq_ignore_ascii_case("charset").then_some(v.trim())
    })
}

/// Extracts a document from fetched bytes.
///
/// `content_type` is the HTTP `Content-Type` (its `charset` is honoured);
/// `url` resolves relative canonical links and names the source in errors.
/// Gzip-compressed bytes are unwrapped first (at most 64 MiB).
pub fn extract(
    bytes: &[u8],
    content_type: Option<&str>,
    url: Option<&Url>,
) -> Result<Document, ExtractError> {
    let url_s = url.map(Url::to_string);
    let gunzipped = decode::gunzip(bytes).map_err(|e| ExtractError::Unsupported {
        url: url_s.clone(),
        what: e.to_string(),
    })?;
    let bytes = gunzipped.as_deref().unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ExtractError::Empty { url: url_s });
    }
    let kind = sniff_kind(bytes, content_type);
    if kind != DocumentKind::Pdf && is_binary(bytes) {
        return Err(ExtractError::Unsupported {
            url: url_s,
            what: "binary data (not text, HTML, feed or PDF)".into(),
        });
    }
    let charset = charset_param(content_type);
    match kind {
        DocumentKind::Html => {
            let (text, enc) = decode::decode_html(bytes, charset);
            let h = html::extract_html(&text, url);
            Ok(Document {
                kind,
                metadata: h.metadata,
                text: h.text,
                entries: Vec::new(),
                encoding: enc.name().to_string(),
                js_shell: h.js_shell,
            })
        }
        #[cfg(feature = "feed")]
        DocumentKind::Feed => feed::extract_feed(bytes, url).map_err(|e| ExtractError::Feed {
            url: url_s,
            reason: e.to_string(),
        }),
        #[cfg(not(feature = "feed"))]
        DocumentKind::Feed => Err(ExtractError::Unsupported {
            url: url_s,
            what: "a feed (this build of sgw-extract has no `feed` feature)".into(),
        }),
        DocumentKind::Pdf => pdf::extract_pdf(bytes, url),
        DocumentKind::Text | DocumentKind::Markdown | DocumentKind::Json => {
            let (text, enc) = decode::decode_html(bytes, charset);
            let text = text.replace("\r\n", "\n");
            let mut metadata = Metadata {
                canonical_url: url_s,
                ..Metadata::default()
            };
            if kind == DocumentKind::Markdown {
                metadata.title = text
                    .lines()
                    .find_map(|l| l.strip_prefix("# "))
                    .map(|t| t.trim().to_string());
            }
            Ok(Document {
                kind,
                metadata,
                text,
                entries: Vec::new(),
                encoding: enc.name().to_string(),
                js_shell: false,
            })
        }
    }
}

impl Document {
    /// The `max` passages of [`Document::text`] that best match `query` (BM25),
    /// best first. Every passage satisfies `text[start..end] == passage.text`.
    /// [`crate::rank_passages`] does the same for any text.
    pub fn passages(&self, query: &str, max: usize) -> Vec<crate::Passage> {
        crate::passages::rank(&self.text, query, max)
    }

    /// Typed answer fields found near the query's key terms.
    pub fn fields(&self, query: &str, specs: &[crate::FieldSpec]) -> Vec<crate::FieldValue> {
        crate::fields::find_fields(&self.text, query, specs)
    }
}
