//! Ingestion of the evidence a person hands in: pasted text, a file or a URL
//! becomes one [`Submission`] for [`sgw_store::Store::resolve_request`].
//!
//! * [`Input::Text`]: pasted text; pasted HTML is extracted like a page.
//! * [`Input::File`]: a PDF, HTML or plain-text file (sniffed from its bytes),
//!   or a PNG/JPEG/WebP screenshot, read by `tesseract` when it is on `PATH`
//!   or given as a transcription ([`Options::transcription`]); the image is
//!   kept with the submission.
//! * [`Input::Url`]: fetched through the network layer ([`Fetcher`]) with all
//!   its guards (SSRF, robots.txt, caps): nothing here goes around a gate.
//!
//! The evidence is tier-hinted USER_SUPPLIED_EVIDENCE (the store never
//! upgrades it), its passages are ranked against [`Options::query`], and its
//! `extraction_method` says how it came in (`user-text`, `user-html`,
//! `user-pdf`, `user-ocr`, `user-transcription`, `user-url-html`, …).
//! Errors say whose fault they are ([`IngestError`]): the input, the network
//! or a tool at run time (with the fetch's failure code), or local I/O; a
//! command line maps these kinds to its exit codes. Nothing is written
//! anywhere: storing is the caller's.
//!
//! This is the one ingestion `sgw evidence submit` and `research gates
//! --resolve` share.

use sgw_contract::{Evidence, FailureCode, Passage, SourceTier};
use sgw_extract::{Document, DocumentKind};
use sgw_fetch::{FetchRequest, Fetcher};
use sgw_store::Submission;
use std::path::{Path, PathBuf};
use std::time::Duration;
use url::Url;

/// Submissions larger than this are refused by default (20 MiB).
pub const MAX_BYTES: u64 = 20 << 20;
/// How long OCR may run by default.
pub const OCR_TIMEOUT: Duration = Duration::from_secs(60);

/// What a person hands in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Pasted text (HTML is extracted).
    Text(String),
    /// A local file: PDF, HTML, plain text, or a PNG/JPEG/WebP screenshot.
    File(PathBuf),
    /// An `http(s)` URL to fetch through the network layer (see [`http_url`]).
    Url(Url),
}

/// How to ingest: limits, where the content came from, naming.
#[derive(Debug, Clone)]
pub struct Options {
    /// The query the evidence answers: passages are ranked against it.
    pub query: String,
    /// Passages kept (best first).
    pub passages: usize,
    /// The largest input accepted, in bytes (text, file or fetched body).
    pub max_bytes: u64,
    /// Where the content came from (e.g. the blocked URL the person read).
    /// For text and files the default is the file's `file:` URL, else
    /// [`Options::placeholder_url`]; for a URL input, the URL fetched.
    pub source_url: Option<Url>,
    /// The URL of pasted text (or a file with no absolute path) when no
    /// `source_url` is given.
    pub placeholder_url: Url,
    /// The title; default the document's own, else [`Options::fallback_title`].
    pub title: Option<String>,
    /// The title when the document has none; default the file name, the URL,
    /// or `pasted text`.
    pub fallback_title: Option<String>,
    /// The text of a screenshot ([`Input::File`] with an image), typed by the
    /// person: used instead of OCR. Refused with any other input.
    pub transcription: Option<String>,
    /// How long `tesseract` may run.
    pub ocr_timeout: Duration,
    /// The flag names messages use for each input (`--text`, `--file`, `--url`).
    pub flags: Flags,
}

/// The names of the inputs in messages (a CLI's flags).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flags {
    pub text: &'static str,
    pub file: &'static str,
    pub url: &'static str,
}

impl Default for Flags {
    fn default() -> Self {
        Flags {
            text: "--text",
            file: "--file",
            url: "--url",
        }
    }
}

impl Options {
    /// Defaults for `query`: 5 passages, [`MAX_BYTES`], [`OCR_TIMEOUT`],
    /// placeholder `urn:sgw:submission`.
    pub fn new(query: impl Into<String>) -> Options {
        Options {
            query: query.into(),
            passages: 5,
            max_bytes: MAX_BYTES,
            source_url: None,
            placeholder_url: Url::parse("urn:sgw:submission").expect("a valid URN"),
            title: None,
            fallback_title: None,
            transcription: None,
            ocr_timeout: OCR_TIMEOUT,
            flags: Flags::default(),
        }
    }
}

/// Why a submission could not be ingested. Nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// The input is at fault: a bad, empty, oversized or unreadable file or
    /// text, a screenshot nobody can read.
    #[error("{0}")]
    BadInput(String),
    /// It could not be done now: the fetch was refused or failed (`code` is
    /// its failure code), the fetched page had no text, OCR timed out.
    #[error("{message}")]
    NotDone {
        code: Option<FailureCode>,
        message: String,
    },
    /// Local I/O failed (reading a file, running `tesseract`).
    #[error("{0}")]
    Io(String),
}

impl IngestError {
    /// The failure code of an operational error, when it has one.
    pub fn failure_code(&self) -> Option<FailureCode> {
        match self {
            IngestError::NotDone { code, .. } => *code,
            _ => None,
        }
    }

    fn operational(code: Option<FailureCode>, message: String) -> IngestError {
        IngestError::NotDone { code, message }
    }
}

/// `s` as an `http(s)` URL, or a usage error naming `flag`.
pub fn http_url(s: &str, flag: &str) -> Result<Url, IngestError> {
    match Url::parse(s) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(u),
        Ok(u) => Err(IngestError::BadInput(format!(
            "{flag} `{s}`: scheme `{}` is not http or https",
            u.scheme()
        ))),
        Err(e) => Err(IngestError::BadInput(format!("{flag} `{s}`: {e}"))),
    }
}

/// The image type of `bytes` by its magic number (PNG, JPEG, WebP).
pub fn image_mime(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// The `extraction_method` of a submitted document kind (never `cache`).
pub fn method(kind: DocumentKind) -> &'static str {
    match kind {
        DocumentKind::Html => "user-html",
        DocumentKind::Feed => "user-feed",
        DocumentKind::Pdf => "user-pdf",
        DocumentKind::Text => "user-text",
        DocumentKind::Markdown => "user-markdown",
        DocumentKind::Json => "user-json",
    }
}

/// Turns `input` into a submission (evidence, plus the image of a
/// screenshot). `fetcher` is used only for [`Input::Url`].
pub async fn ingest(
    input: &Input,
    fetcher: &Fetcher,
    options: &Options,
) -> Result<Submission, IngestError> {
    if options.transcription.is_some() && !matches!(input, Input::File(_)) {
        return Err(IngestError::BadInput(format!(
            "a transcription ({}) goes with {} only for images",
            options.flags.text, options.flags.file
        )));
    }
    match input {
        Input::Text(text) => text_evidence(text, options).map(Submission::new),
        Input::File(path) => file_evidence(path, options).await,
        Input::Url(url) => url_evidence(url, fetcher, options)
            .await
            .map(Submission::new),
    }
}

/// Evidence from an extracted document.
fn evidence(
    doc: Document,
    url: Url,
    default_title: &str,
    method: &str,
    options: &Options,
) -> Result<Evidence, IngestError> {
    if doc.text.trim().is_empty() {
        return Err(IngestError::BadInput(format!(
            "{default_title}: no text could be extracted"
        )));
    }
    let title = options
        .title
        .clone()
        .or(doc.metadata.title.clone())
        .filter(|t| !t.trim().is_empty())
        .or_else(|| options.fallback_title.clone())
        .unwrap_or_else(|| default_title.to_string());
    let passages: Vec<Passage> = doc
        .passages(&options.query, options.passages)
        .into_iter()
        .filter_map(|p| Passage::from_span(&doc.text, p.start, p.end, f64::from(p.score)))
        .collect();
    let mut ev = Evidence::new(url, title, doc.text, method);
    ev.passages = passages;
    ev.published_at = doc.metadata.published_at;
    ev.publisher = doc.metadata.publisher;
    ev.metadata.authors = doc.metadata.authors;
    ev.metadata.modified_at = doc.metadata.modified_at;
    ev.metadata.language = doc.metadata.language;
    ev.metadata.canonical_url = doc.metadata.canonical_url;
    ev.tier_hint = Some(SourceTier::UserSuppliedEvidence);
    Ok(ev)
}

/// Refuses bytes that are neither a PDF nor readable text: control bytes
/// (other than whitespace) in the first 8 KiB, or text that decodes to many
/// replacement characters, mean binary data or a wrong file.
fn check_readable(bytes: &[u8], doc: &Document, what: &str) -> Result<(), IngestError> {
    if doc.kind == DocumentKind::Pdf {
        return Ok(());
    }
    let head = &bytes[..bytes.len().min(8192)];
    let control = head
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)) || b == 0x7f)
        .count();
    let chars = doc.text.chars().count().max(1);
    let replaced = doc.text.chars().filter(|&c| c == '\u{fffd}').count();
    if control * 100 > head.len() || replaced * 20 > chars {
        return Err(IngestError::BadInput(format!(
            "{what}: not readable text, HTML, PDF or a PNG/JPEG/WebP screenshot (binary data or a wrong encoding)"
        )));
    }
    Ok(())
}

/// The base URL extraction resolves links against: the source, when it is a web page.
fn base(options: &Options) -> Option<&Url> {
    options
        .source_url
        .as_ref()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
}

fn text_evidence(text: &str, options: &Options) -> Result<Evidence, IngestError> {
    let flag = options.flags.text;
    if text.len() as u64 > options.max_bytes {
        return Err(IngestError::BadInput(format!(
            "{flag}: {} bytes is over the {} MiB limit",
            text.len(),
            options.max_bytes >> 20
        )));
    }
    if text.trim().is_empty() {
        return Err(IngestError::BadInput(format!("{flag} is empty")));
    }
    let doc = sgw_extract::extract(text.as_bytes(), None, base(options))
        .map_err(|e| IngestError::BadInput(format!("{flag}: {e}")))?;
    check_readable(text.as_bytes(), &doc, flag)?;
    let method = if doc.kind == DocumentKind::Html {
        "user-html"
    } else {
        "user-text"
    };
    let url = options
        .source_url
        .clone()
        .unwrap_or_else(|| options.placeholder_url.clone());
    evidence(doc, url, "pasted text", method, options)
}

/// Reads at most `max` bytes of `path`: a missing, unreadable or irregular
/// file is the input's fault; other read failures are I/O.
fn read_file(path: &Path, max: u64) -> Result<Vec<u8>, IngestError> {
    let name = path.display().to_string();
    let file_error = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound
        | std::io::ErrorKind::IsADirectory
        | std::io::ErrorKind::PermissionDenied
        | std::io::ErrorKind::InvalidInput
        | std::io::ErrorKind::InvalidFilename => IngestError::BadInput(format!("{name}: {e}")),
        _ => IngestError::Io(format!("{name}: {e}")),
    };
    // One bounded reader for every binary: regular files only (a FIFO
    // cannot hang the open), never more than `max` bytes.
    sgw_safeio::read_file(path, max, sgw_safeio::Follow::Yes).map_err(|e| match e {
        sgw_safeio::ReadError::Io(e) => file_error(e),
        sgw_safeio::ReadError::TooLarge { .. } => IngestError::BadInput(format!(
            "{name}: over the {} MiB submission limit",
            max >> 20
        )),
        other => IngestError::BadInput(format!("{name}: {other}")),
    })
}

/// Reads standard input, at most `max` bytes (`evidence submit --text -`,
/// `research gates --resolve --text -`).
pub fn read_stdin(max: u64) -> Result<Vec<u8>, IngestError> {
    sgw_safeio::read_capped(std::io::stdin().lock(), max).map_err(|e| match e {
        sgw_safeio::ReadError::Io(e) => IngestError::Io(format!("standard input: {e}")),
        _ => IngestError::BadInput(format!(
            "standard input is over the {} MiB submission limit",
            max >> 20
        )),
    })
}

async fn file_evidence(path: &Path, options: &Options) -> Result<Submission, IngestError> {
    let name = path.display().to_string();
    let bytes = read_file(path, options.max_bytes)?;
    let url = options.source_url.clone().unwrap_or_else(|| {
        std::path::absolute(path)
            .ok()
            .and_then(|p| Url::from_file_path(p).ok())
            .unwrap_or_else(|| options.placeholder_url.clone())
    });
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.clone());
    let flag = options.flags.text;
    if let Some(mime) = image_mime(&bytes) {
        let (text, method) = match &options.transcription {
            Some(t) if !t.trim().is_empty() => (t.clone(), "user-transcription"),
            Some(_) => return Err(IngestError::BadInput(format!("{flag} is empty"))),
            None => match find_tesseract() {
                Some(bin) => (ocr(&bin, path, &name, options).await?, "user-ocr"),
                None => {
                    return Err(IngestError::BadInput(format!(
                        "{name} is a screenshot ({mime}) and no `tesseract` is on PATH to read it: \
                         give its text with {flag} \"…\" alongside {}",
                        options.flags.file
                    )));
                }
            },
        };
        let doc = Document {
            kind: DocumentKind::Text,
            metadata: Default::default(),
            text,
            entries: Vec::new(),
            encoding: "UTF-8".into(),
            js_shell: false,
        };
        let ev = evidence(doc, url, &file_name, method, options)?;
        return Ok(Submission::new(ev).with_screenshot(mime, bytes));
    }
    if options.transcription.is_some() {
        return Err(IngestError::BadInput(format!(
            "{name} is not a PNG, JPEG or WebP screenshot: {flag} goes with {} only for images",
            options.flags.file
        )));
    }
    let doc = sgw_extract::extract(&bytes, None, base(options))
        .map_err(|e| IngestError::BadInput(format!("{name}: {e}")))?;
    check_readable(&bytes, &doc, &name)?;
    let m = method(doc.kind);
    Ok(Submission::new(evidence(doc, url, &file_name, m, options)?))
}

async fn url_evidence(
    url: &Url,
    fetcher: &Fetcher,
    options: &Options,
) -> Result<Evidence, IngestError> {
    let flag = options.flags.url;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(IngestError::BadInput(format!(
            "{flag} `{url}`: scheme `{}` is not http or https",
            url.scheme()
        )));
    }
    let resp = fetcher
        .fetch(&FetchRequest::page(url.clone()))
        .await
        .map_err(|e| IngestError::operational(Some(e.code), format!("{flag}: {e}")))?;
    if resp.body.len() as u64 > options.max_bytes {
        return Err(IngestError::operational(
            None,
            format!(
                "{flag} {url}: {} bytes is over the {} MiB submission limit",
                resp.body.len(),
                options.max_bytes >> 20
            ),
        ));
    }
    let failed = Some(FailureCode::SourceExtractionFailed);
    let doc = sgw_extract::extract(
        &resp.body,
        Some(resp.content_type.as_str()),
        Some(&resp.final_url),
    )
    .map_err(|e| {
        IngestError::operational(
            failed,
            format!("{flag} {url}: SOURCE_EXTRACTION_FAILED: {e}"),
        )
    })?;
    if doc.text.trim().is_empty() {
        return Err(IngestError::operational(
            failed,
            format!(
                "{flag} {url}: SOURCE_EXTRACTION_FAILED: no text could be extracted ({})",
                resp.content_type
            ),
        ));
    }
    let source = options.source_url.clone().unwrap_or_else(|| url.clone());
    let m = format!("user-url-{}", method(doc.kind).trim_start_matches("user-"));
    let mut ev = evidence(doc, source, url.as_str(), &m, options)?;
    if resp.final_url != ev.url {
        ev.final_url = Some(resp.final_url.clone());
    }
    ev.validators = resp.validators.clone();
    Ok(ev)
}

/// `tesseract` on PATH, if any.
fn find_tesseract() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("tesseract"))
        .find(|p| p.is_file())
}

/// Text of an image by OCR (`tesseract IMAGE stdout`), bounded in time.
async fn ocr(
    bin: &Path,
    image: &Path,
    name: &str,
    options: &Options,
) -> Result<String, IngestError> {
    let flag = options.flags.text;
    let child = tokio::process::Command::new(bin)
        .arg(image)
        .arg("stdout")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(options.ocr_timeout, child)
        .await
        .map_err(|_| {
            IngestError::operational(
                None,
                format!(
                    "{name}: OCR took longer than {} s; give the text with {flag}",
                    options.ocr_timeout.as_secs()
                ),
            )
        })?
        .map_err(|e| IngestError::Io(format!("running {}: {e}", bin.display())))?;
    if !out.status.success() {
        return Err(IngestError::BadInput(format!(
            "{name}: tesseract failed ({}): {}; give the text with {flag}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if text.is_empty() {
        return Err(IngestError::BadInput(format!(
            "{name}: OCR found no text; give the text with {flag}"
        )));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_recognised_by_magic() {
        assert_eq!(image_mime(b"\x89PNG\r\n\x1a\nrest"), Some("image/png"));
        assert_eq!(image_mime(&[0xff, 0xd8, 0xff, 0xe0]), Some("image/jpeg"));
        assert_eq!(image_mime(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(image_mime(b"RIFF\0\0\0\0WAVEfmt "), None);
        assert_eq!(image_mime(b"%PDF-1.4"), None);
        assert_eq!(image_mime(b""), None);
    }

    #[test]
    fn urls_must_be_http() {
        assert!(http_url("https://a.example/x", "--url").is_ok());
        let e = http_url("ftp://a.example/x", "--url").unwrap_err();
        assert!(matches!(e, IngestError::BadInput(_)));
        assert!(e.to_string().contains("--url") && e.to_string().contains("ftp"));
        assert!(http_url("not a url", "--source-url").is_err());
    }

    fn fetcher() -> Fetcher {
        Fetcher::new(sgw_fetch::FetchConfig::default()).unwrap()
    }

    #[tokio::test]
    async fn pasted_html_is_extracted_and_hinted_user_supplied() {
        let mut o = Options::new("interest rate");
        o.source_url = Some(Url::parse("https://bank.example/rates").unwrap());
        let html = "<html><head><title>Rates</title></head><body><main><p>The interest rate \
                    is <b>4.5%</b> from today on.</p></main></body></html>";
        let s = ingest(&Input::Text(html.into()), &fetcher(), &o)
            .await
            .unwrap();
        let ev = &s.evidence;
        assert_eq!(ev.extraction_method, "user-html");
        assert_eq!(ev.title, "Rates");
        assert_eq!(ev.url.as_str(), "https://bank.example/rates");
        assert!(ev.text.contains("4.5%") && !ev.text.contains("<b>"));
        assert_eq!(ev.tier_hint, Some(SourceTier::UserSuppliedEvidence));
        assert!(!ev.passages.is_empty());
        assert!(s.screenshot.is_none());
        // No source: the placeholder URL and the fallback title.
        let mut o = Options::new("q");
        o.fallback_title = Some("Evidence for q".into());
        let s = ingest(&Input::Text("plain words".into()), &fetcher(), &o)
            .await
            .unwrap();
        assert_eq!(s.evidence.url.as_str(), "urn:sgw:submission");
        assert_eq!(s.evidence.title, "Evidence for q");
        assert_eq!(s.evidence.extraction_method, "user-text");
    }

    #[tokio::test]
    async fn bad_inputs_are_usage_errors() {
        let dir = tempfile::tempdir().unwrap();
        let f = fetcher();
        let o = Options::new("q");
        let e = ingest(&Input::Text("  \n".into()), &f, &o)
            .await
            .unwrap_err();
        assert!(matches!(e, IngestError::BadInput(_)), "{e}");
        let missing = dir.path().join("missing.pdf");
        let e = ingest(&Input::File(missing), &f, &o).await.unwrap_err();
        assert!(matches!(e, IngestError::BadInput(_)), "{e}");
        assert!(e.to_string().contains("missing.pdf"), "{e}");
        let e = ingest(&Input::File(dir.path().to_path_buf()), &f, &o)
            .await
            .unwrap_err();
        assert!(matches!(e, IngestError::BadInput(_)), "{e}");
        let garbage = dir.path().join("garbage.bin");
        let bytes: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        std::fs::write(&garbage, bytes).unwrap();
        let e = ingest(&Input::File(garbage), &f, &o).await.unwrap_err();
        assert!(matches!(e, IngestError::BadInput(_)), "{e}");
        assert!(e.to_string().contains("garbage.bin"), "{e}");
        let mut small = Options::new("q");
        small.max_bytes = 4;
        let e = ingest(&Input::Text("more than four".into()), &f, &small)
            .await
            .unwrap_err();
        assert!(e.to_string().contains("limit"), "{e}");
        // A transcription goes with a screenshot file only.
        let mut o = Options::new("q");
        o.transcription = Some("typed".into());
        let e = ingest(&Input::Text("x".into()), &f, &o).await.unwrap_err();
        assert!(matches!(e, IngestError::BadInput(_)), "{e}");
        let page = dir.path().join("page.txt");
        std::fs::write(&page, "plain text page").unwrap();
        let e = ingest(&Input::File(page), &f, &o).await.unwrap_err();
        assert!(e.to_string().contains("only for images"), "{e}");
    }

    #[tokio::test]
    async fn a_transcribed_screenshot_keeps_its_image() {
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("shot.png");
        let bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01".to_vec();
        std::fs::write(&png, &bytes).unwrap();
        let mut o = Options::new("rate");
        o.transcription = Some("The rate is 4.5%.".into());
        let s = ingest(&Input::File(png), &fetcher(), &o).await.unwrap();
        assert_eq!(s.evidence.extraction_method, "user-transcription");
        assert_eq!(s.evidence.title, "shot.png");
        assert_eq!(s.evidence.url.scheme(), "file");
        assert_eq!(s.screenshot, Some(("image/png".to_string(), bytes)));
    }

    #[tokio::test]
    async fn a_refused_fetch_is_operational_with_its_code() {
        // Loopback is refused by the default SSRF guard: nothing is fetched.
        let url = Url::parse("http://127.0.0.1:9/page").unwrap();
        let e = ingest(&Input::Url(url), &fetcher(), &Options::new("q"))
            .await
            .unwrap_err();
        assert!(matches!(e, IngestError::NotDone { .. }), "{e}");
        assert!(e.failure_code().is_some(), "{e}");
        assert!(e.to_string().starts_with("--url: "), "{e}");
    }
}
