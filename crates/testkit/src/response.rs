//! What a route answers: a [`Response`] (status, headers, a [`Body`]) or a
//! [`Fault`](crate::Fault), and the [`Request`] a dynamic handler sees.

use bytes::Bytes;
use http::{HeaderMap, Method, StatusCode};

use crate::fault::Fault;

/// How the body of a [`Response`] is produced on the wire.
///
/// Most tests only need [`Body::Full`]; the other variants are the byte-level
/// behaviours behind the [`Fault`]s and are public so that a dynamic handler
/// can combine them with its own status and headers.
#[derive(Debug, Clone)]
pub enum Body {
    /// The whole body at once, with a correct `Content-Length`.
    Full(Bytes),
    /// Never send the status line: the connection stays open and silent until
    /// the client gives up (or the [`SimWeb`](crate::SimWeb) is dropped).
    Hang,
    /// Close the connection without sending a single byte (curl: "Empty
    /// reply from server").
    Close,
    /// Send the status line and headers with `Content-Length: declared`,
    /// then never a body byte.
    Stall {
        /// The declared length.
        declared: u64,
    },
    /// `total` bytes of HTML-ish filler, `chunk` bytes every `every`, with a
    /// truthful `Content-Length: total`. The first chunk is sent at once.
    Drip {
        /// Bytes per write.
        chunk: usize,
        /// Pause between writes.
        every: std::time::Duration,
        /// Total body length (and the declared `Content-Length`).
        total: u64,
    },
    /// Declare `Content-Length: declared`, send only `bytes` (which must be
    /// shorter), then close the connection.
    Truncated {
        /// The lie told in `Content-Length`.
        declared: u64,
        /// What is really sent before the connection is closed.
        bytes: Bytes,
    },
    /// `total` bytes of HTML-ish filler streamed in 64 KiB chunks; with
    /// `declare_length` a truthful `Content-Length`, else chunked encoding.
    Filler {
        /// Body length.
        total: u64,
        /// Send `Content-Length` (else `Transfer-Encoding: chunked`).
        declare_length: bool,
    },
    /// A valid gzip stream (correct CRC and ISIZE) that inflates to
    /// `uncompressed` zero bytes (rounded up to whole MiB) while only about
    /// 1/1000 of that crosses the wire. Sent with its exact `Content-Length`;
    /// the `Content-Encoding: gzip` header is the caller's business (the
    /// [`Fault::GzipBomb`] sets it).
    GzipZeros {
        /// Inflated size in bytes.
        uncompressed: u64,
    },
    /// A brotli stream of `uncompressed` zero bytes, compressed on the fly as
    /// the client reads (chunked encoding; nothing is precomputed).
    BrotliZeros {
        /// Inflated size in bytes.
        uncompressed: u64,
    },
}

/// A response: status, headers in order, and a [`Body`].
///
/// Constructors set realistic `Content-Type` values; add more headers with
/// [`Response::header`]. `Content-Length` is computed by the server unless a
/// body variant says otherwise; do not set it yourself for [`Body::Full`].
#[derive(Debug, Clone)]
pub struct Response {
    /// HTTP status.
    pub status: StatusCode,
    /// Header name/value pairs, sent in this order (names may repeat).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Body,
}

impl Response {
    /// A response with the given status, no headers and an empty body.
    pub fn new(status: u16) -> Self {
        Self {
            status: StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            headers: Vec::new(),
            body: Body::Full(Bytes::new()),
        }
    }

    /// 200 `text/html; charset=utf-8`.
    pub fn html(html: impl Into<String>) -> Self {
        Self::new(200)
            .header("content-type", "text/html; charset=utf-8")
            .body(html.into())
    }

    /// 200 `text/plain; charset=utf-8`.
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(200)
            .header("content-type", "text/plain; charset=utf-8")
            .body(text.into())
    }

    /// 200 `application/json` with the value serialized compactly.
    pub fn json(value: &serde_json::Value) -> Self {
        Self::new(200)
            .header("content-type", "application/json")
            .body(value.to_string())
    }

    /// 200 with arbitrary bytes and the given `Content-Type`.
    pub fn bytes(content_type: &str, bytes: impl Into<Bytes>) -> Self {
        Self::new(200)
            .header("content-type", content_type)
            .body(bytes)
    }

    /// 200 with `html` really encoded in `encoding` (e.g.
    /// [`encoding_rs::WINDOWS_1252`], [`encoding_rs::SHIFT_JIS`]) and a
    /// `Content-Type: text/html` that names **no** charset, so that the only
    /// declaration is whatever `<meta>` the HTML itself carries.
    /// Characters the encoding cannot represent become numeric character
    /// references (as encoding_rs does).
    pub fn html_encoded(html: &str, encoding: &'static encoding_rs::Encoding) -> Self {
        let (bytes, _, _) = encoding.encode(html);
        Self::new(200)
            .header("content-type", "text/html")
            .body(bytes.into_owned())
    }

    /// A redirect (`status` should be 301, 302, 303, 307 or 308) to
    /// `location`, which is sent verbatim (absolute or relative).
    pub fn redirect(status: u16, location: &str) -> Self {
        Self::new(status)
            .header("location", location)
            .header("content-type", "text/html; charset=utf-8")
            .body(format!(
                "<html><head><title>Moved</title></head><body><h1>Moved</h1>\
                 <p>The document has moved <a href=\"{}\">here</a>.</p></body></html>",
                html_escape(location)
            ))
    }

    /// Set the status.
    #[must_use]
    pub fn status(mut self, status: u16) -> Self {
        self.status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        self
    }

    /// Append a header (names may repeat, e.g. `set-cookie`).
    #[must_use]
    pub fn header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_ascii_lowercase(), value.into()));
        self
    }

    /// Replace every header named `name` by one with `value`.
    #[must_use]
    pub fn set_header(mut self, name: &str, value: impl Into<String>) -> Self {
        let name = name.to_ascii_lowercase();
        self.headers.retain(|(n, _)| *n != name);
        self.headers.push((name, value.into()));
        self
    }

    /// Replace the body by these bytes.
    #[must_use]
    pub fn body(mut self, bytes: impl Into<Bytes>) -> Self {
        self.body = Body::Full(bytes.into());
        self
    }

    /// Replace the body by a streamed/faulty [`Body`].
    #[must_use]
    pub fn with_body(mut self, body: Body) -> Self {
        self.body = body;
        self
    }

    /// The first header value named `name` (case-insensitive).
    pub fn header_value(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body bytes if it is a [`Body::Full`].
    pub fn full_body(&self) -> Option<&Bytes> {
        match &self.body {
            Body::Full(b) => Some(b),
            _ => None,
        }
    }
}

/// What a route or a dynamic handler answers: a [`Response`] or a [`Fault`]
/// (faults are rendered per request, as some need the server's port).
#[derive(Debug, Clone)]
pub enum Reply {
    /// A ready response.
    Response(Response),
    /// A fault rendered at request time.
    Fault(Fault),
}

impl From<Response> for Reply {
    fn from(r: Response) -> Self {
        Reply::Response(r)
    }
}

impl From<Fault> for Reply {
    fn from(f: Fault) -> Self {
        Reply::Fault(f)
    }
}

/// The request as a dynamic handler (and the request log) sees it.
#[derive(Debug, Clone)]
pub struct Request {
    /// Method.
    pub method: Method,
    /// Host name from the `Host` header, lower-cased, without port.
    pub host: String,
    /// Path, percent-encoded as received, without the query.
    pub path: String,
    /// Raw query string (without `?`), if any.
    pub query: Option<String>,
    /// All request headers.
    pub headers: HeaderMap,
}

impl Request {
    /// Decoded query pairs (`application/x-www-form-urlencoded`).
    pub fn query_pairs(&self) -> Vec<(String, String)> {
        match &self.query {
            Some(q) => url::form_urlencoded::parse(q.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The first decoded value of query parameter `name`.
    pub fn query_param(&self, name: &str) -> Option<String> {
        self.query_pairs()
            .into_iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// A request header as text (first value), if present and valid UTF-8.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// Escape text for HTML element content and attribute values.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Escape text for XML (feeds, sitemaps, OpenSearch).
pub(crate) fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}
