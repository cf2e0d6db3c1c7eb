//! `sgw evidence requests | show | submit`: the human evidence loop.
//!
//! A blocked query opens a request (`hr-…`, by the `human-intake` provider);
//! a person reads the page themselves and hands it in with `submit`: pasted
//! text, a file (HTML, PDF or plain text, by content sniffing; a PNG, JPEG
//! or WebP screenshot, read by `tesseract` when it is on PATH or transcribed
//! with `--text`), or a URL fetched through the network layer with all its
//! guards. The store keeps it as USER_SUPPLIED_EVIDENCE (never upgraded),
//! resolves the request and caches it for the request's key, so the next
//! identical query answers from the cache. A bad input changes nothing.

use crate::cmd::cache::{StoreArgs, print_json, store_error};
use crate::exit::{CliError, CliResult};
use search_gateway::contract::{Evidence, Passage};
use search_gateway::extract::{Document, DocumentKind, Url};
use search_gateway::store::{HumanRequest, RequestStatus, Submission};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Submissions larger than this are refused.
pub const MAX_SUBMIT_BYTES: u64 = 20 << 20;
/// How long OCR may run.
const OCR_TIMEOUT: Duration = Duration::from_secs(60);
/// Passages kept per submitted evidence.
const PASSAGES: usize = 5;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: StoreArgs,
    #[command(subcommand)]
    pub command: EvidenceCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum EvidenceCommand {
    /// List human evidence requests (oldest first).
    Requests {
        /// Only requests with this status.
        #[arg(long, value_parser = ["open", "resolved", "cancelled"])]
        status: Option<String>,
    },
    /// Show an evidence record (`ev-…`, with its text) or a request (`hr-…`).
    Show {
        /// `ev-…` or `hr-…`.
        id: String,
    },
    /// Answer an open request with evidence a person obtained.
    Submit {
        /// The request (`hr-…`).
        request_id: String,
        /// Pasted text (HTML is extracted); `-` reads standard input. With
        /// `--file IMAGE`, the transcription of the screenshot.
        #[arg(long)]
        text: Option<String>,
        /// A file: PDF, HTML, plain text, or a PNG/JPEG/WebP screenshot.
        #[arg(long, conflicts_with = "url")]
        file: Option<PathBuf>,
        /// A URL to fetch through the network layer (SSRF guard, robots.txt, caps).
        #[arg(long, conflicts_with = "text")]
        url: Option<String>,
        /// Where the content came from (default: the request's first blocked URL).
        #[arg(long, value_name = "URL")]
        source_url: Option<String>,
        /// A title for the evidence (default: the document's own, or the file name).
        #[arg(long)]
        title: Option<String>,
    },
}

pub async fn run(args: Args) -> CliResult {
    let policy = args.common.load_policy()?;
    let json = args.common.json;
    match args.command {
        EvidenceCommand::Requests { status } => {
            let status = status
                .map(|s| s.parse::<RequestStatus>())
                .transpose()
                .map_err(|e| CliError::Usage(e.to_string()))?;
            let store = args.common.open(&policy).await?;
            let requests = store.list_requests(status).await.map_err(store_error)?;
            if json {
                print_json(&requests)?;
            } else if requests.is_empty() {
                println!("no human evidence requests");
            } else {
                for r in &requests {
                    println!(
                        "{}  {:<9}  {}  {:?}  {} blocked URL(s)",
                        r.id,
                        r.status.as_str(),
                        r.created_at,
                        r.query,
                        r.blocked.len()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        EvidenceCommand::Show { id } => {
            let store = args.common.open(&policy).await?;
            if id.starts_with("hr-") {
                let r = store
                    .get_request(&id)
                    .await
                    .map_err(store_error)?
                    .ok_or_else(|| CliError::Operational(format!("request `{id}` not found")))?;
                if json {
                    print_json(&r)?;
                } else {
                    print!("{}", render_request(&r));
                }
            } else if id.starts_with("ev-") {
                let e = store
                    .get_evidence(&id)
                    .await
                    .map_err(store_error)?
                    .ok_or_else(|| CliError::Operational(format!("evidence `{id}` not found")))?;
                let shots = store.screenshots(&id).await.map_err(store_error)?;
                if json {
                    print_json(&serde_json::json!({"evidence": e, "screenshots": shots}))?;
                } else {
                    println!("{}  {}", e.id, e.tier);
                    println!("title      {}", e.evidence.title);
                    println!("url        {}", e.evidence.url);
                    println!("key        {}", e.key);
                    println!(
                        "extracted  {} ({})",
                        e.extracted_at, e.evidence.extraction_method
                    );
                    if let Some(c) = e.confidence {
                        println!("confidence {c:.3}");
                    }
                    for s in &shots {
                        println!("screenshot {} {} ({} bytes)", s.id, s.mime, s.bytes.len());
                    }
                    println!("\n{}", e.evidence.text);
                }
            } else {
                return Err(CliError::Usage(format!(
                    "`{id}` is neither an evidence id (ev-…) nor a request id (hr-…)"
                )));
            }
            Ok(ExitCode::SUCCESS)
        }
        EvidenceCommand::Submit {
            request_id,
            text,
            file,
            url,
            source_url,
            title,
        } => {
            if text.is_none() && file.is_none() && url.is_none() {
                return Err(CliError::Usage(
                    "sgw evidence submit needs --text, --file or --url".into(),
                ));
            }
            let source_url = source_url
                .map(|u| http_url(&u, "--source-url"))
                .transpose()?;
            let store = args.common.open(&policy).await?;
            // The request must exist and be open before anything is read.
            let request = store
                .get_request(&request_id)
                .await
                .map_err(store_error)?
                .ok_or_else(|| {
                    CliError::Operational(format!("request `{request_id}` not found"))
                })?;
            if request.status != RequestStatus::Open {
                return Err(CliError::Operational(format!(
                    "request `{request_id}` is {}, not open",
                    request.status
                )));
            }
            let text = match text.as_deref() {
                Some("-") => Some(read_stdin()?),
                Some(t) => Some(t.to_string()),
                None => None,
            };
            let ingest = Ingest {
                request: &request,
                source_url,
                title,
            };
            let (evidence, screenshot) = match (file, url) {
                (Some(path), _) => ingest.file(&path, text).await?,
                (None, Some(u)) => (ingest.url(&u, &policy).await?, None),
                (None, None) => {
                    let text = text.unwrap_or_default();
                    (ingest.text(&text)?, None)
                }
            };
            let mut submission = Submission::new(evidence.clone());
            if let Some((mime, bytes)) = screenshot {
                submission = submission.with_screenshot(mime, bytes);
            }
            let resolved = store
                .resolve_request(&request_id, submission, jiff::Timestamp::now())
                .await
                .map_err(store_error)?;
            let evidence_id = resolved.evidence_id.clone().unwrap_or_default();
            if json {
                print_json(&serde_json::json!({
                    "request_id": resolved.id,
                    "status": resolved.status,
                    "evidence_id": evidence_id,
                    "tier": "USER_SUPPLIED_EVIDENCE",
                    "extraction_method": evidence.extraction_method,
                    "url": evidence.url,
                    "title": evidence.title,
                    "text_bytes": evidence.text.len(),
                    "key": resolved.key,
                }))?;
            } else {
                println!(
                    "resolved {} with {evidence_id} (USER_SUPPLIED_EVIDENCE, {}, {} bytes of text)",
                    resolved.id,
                    evidence.extraction_method,
                    evidence.text.len()
                );
                println!(
                    "the next `sgw search {:?}` with the same topic/scope/date answers from the cache",
                    resolved.query
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn render_request(r: &HumanRequest) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{}  {}", r.id, r.status);
    let _ = writeln!(out, "query    {}", r.query);
    let _ = writeln!(out, "key      {}", r.key);
    let _ = writeln!(out, "created  {}", r.created_at);
    if let Some(t) = r.resolved_at {
        let _ = writeln!(out, "closed   {t}");
    }
    if let Some(e) = &r.evidence_id {
        let _ = writeln!(out, "evidence {e}  (sgw evidence show {e})");
    }
    if r.blocked.is_empty() {
        let _ = writeln!(
            out,
            "\nNeeded: any source that answers the query; submit it with `sgw evidence submit {}`",
            r.id
        );
    } else {
        let _ = writeln!(out, "\nBlocked URLs");
        for b in &r.blocked {
            let needed = sgw_provider_human_intake::needed_with_id(&b.needed, &r.id);
            let _ = writeln!(out, "  [{}] {}\n      {needed}", b.gate, b.url);
        }
        if r.status == RequestStatus::Open {
            let _ = writeln!(
                out,
                "\nSubmit with: sgw evidence submit {} (--file PATH | --url URL | --text TEXT)",
                r.id
            );
        }
    }
    let _ = writeln!(out, "\nWhat was tried");
    for a in &r.attempts {
        let code = a
            .failure_code
            .map(|c| c.to_string())
            .unwrap_or_else(|| format!("{:?}", a.outcome).to_lowercase());
        let _ = writeln!(
            out,
            "  {:<30} {:<22} {} → {code}",
            a.step,
            a.provider,
            a.target.as_deref().unwrap_or("-")
        );
    }
    out
}

fn http_url(s: &str, flag: &str) -> Result<Url, CliError> {
    match Url::parse(s) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(u),
        Ok(u) => Err(CliError::Usage(format!(
            "{flag} `{s}`: scheme `{}` is not http or https",
            u.scheme()
        ))),
        Err(e) => Err(CliError::Usage(format!("{flag} `{s}`: {e}"))),
    }
}

fn read_stdin() -> Result<String, CliError> {
    let mut buf = Vec::new();
    std::io::stdin()
        .take(MAX_SUBMIT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| CliError::Io(format!("standard input: {e}")))?;
    if buf.len() as u64 > MAX_SUBMIT_BYTES {
        return Err(CliError::Usage(format!(
            "standard input: more than the {} MiB limit",
            MAX_SUBMIT_BYTES >> 20
        )));
    }
    String::from_utf8(buf)
        .map_err(|e| CliError::Usage(format!("standard input: not UTF-8 text: {e}")))
}

/// The image type of `bytes` by its magic number.
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

/// Refuses bytes that are neither a PDF nor readable text: control bytes
/// (other than whitespace) in the first 8 KiB, or text that decodes to many
/// replacement characters, mean binary data or a wrong file.
fn check_readable(bytes: &[u8], doc: &Document, what: &str) -> Result<(), CliError> {
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
        return Err(CliError::Usage(format!(
            "{what}: not readable text, HTML, PDF or a PNG/JPEG/WebP screenshot (binary data or a wrong encoding)"
        )));
    }
    Ok(())
}

/// The `extraction_method` of a submitted document kind (never `cache`).
fn method(kind: DocumentKind) -> &'static str {
    match kind {
        DocumentKind::Html => "user-html",
        DocumentKind::Feed => "user-feed",
        DocumentKind::Pdf => "user-pdf",
        DocumentKind::Text => "user-text",
        DocumentKind::Markdown => "user-markdown",
        DocumentKind::Json => "user-json",
    }
}

struct Ingest<'a> {
    request: &'a HumanRequest,
    source_url: Option<Url>,
    title: Option<String>,
}

impl Ingest<'_> {
    /// Where the evidence says it came from: `--source-url`, else the
    /// request's first blocked URL, else `fallback`.
    fn origin(&self, fallback: impl FnOnce() -> Url) -> Url {
        self.source_url
            .clone()
            .or_else(|| {
                self.request
                    .blocked
                    .first()
                    .and_then(|b| Url::parse(&b.url).ok())
            })
            .unwrap_or_else(fallback)
    }

    fn request_urn(&self) -> Url {
        Url::parse(&format!("urn:sgw:submission:{}", self.request.id))
            .unwrap_or_else(|_| Url::parse("urn:sgw:submission").expect("a valid URN"))
    }

    /// Evidence from an extracted document.
    fn evidence(
        &self,
        doc: Document,
        url: Url,
        default_title: &str,
        method: &str,
    ) -> Result<Evidence, CliError> {
        if doc.text.trim().is_empty() {
            return Err(CliError::Usage(format!(
                "{default_title}: no text could be extracted"
            )));
        }
        let title = self
            .title
            .clone()
            .or(doc.metadata.title.clone())
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| default_title.to_string());
        let passages: Vec<Passage> = doc
            .passages(&self.request.query, PASSAGES)
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
        ev.tier_hint = Some(search_gateway::SourceTier::UserSuppliedEvidence);
        Ok(ev)
    }

    /// Pasted text (HTML pasted is extracted).
    fn text(&self, text: &str) -> Result<Evidence, CliError> {
        if text.len() as u64 > MAX_SUBMIT_BYTES {
            return Err(CliError::Usage(format!(
                "--text: {} bytes is over the {} MiB limit",
                text.len(),
                MAX_SUBMIT_BYTES >> 20
            )));
        }
        if text.trim().is_empty() {
            return Err(CliError::Usage("--text is empty".into()));
        }
        let doc = search_gateway::extract::extract(text.as_bytes(), None, None)
            .map_err(|e| CliError::Usage(format!("--text: {e}")))?;
        check_readable(text.as_bytes(), &doc, "--text")?;
        let method = if doc.kind == DocumentKind::Html {
            "user-html"
        } else {
            "user-text"
        };
        let url = self.origin(|| self.request_urn());
        self.evidence(doc, url, "pasted text", method)
    }

    /// A file: document or screenshot. Returns the screenshot to store too.
    async fn file(
        &self,
        path: &Path,
        transcription: Option<String>,
    ) -> Result<(Evidence, Option<(String, Vec<u8>)>), CliError> {
        let name = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| CliError::Usage(format!("{name}: {e}")))?;
        if !meta.is_file() {
            return Err(CliError::Usage(format!("{name}: not a regular file")));
        }
        if meta.len() > MAX_SUBMIT_BYTES {
            return Err(CliError::Usage(format!(
                "{name}: {} bytes is over the {} MiB submission limit",
                meta.len(),
                MAX_SUBMIT_BYTES >> 20
            )));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_SUBMIT_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| CliError::Usage(format!("{name}: {e}")))?;
        if bytes.len() as u64 > MAX_SUBMIT_BYTES {
            return Err(CliError::Usage(format!(
                "{name}: over the {} MiB submission limit",
                MAX_SUBMIT_BYTES >> 20
            )));
        }
        let file_url = || {
            std::path::absolute(path)
                .ok()
                .and_then(|p| Url::from_file_path(p).ok())
                .unwrap_or_else(|| self.request_urn())
        };
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| name.clone());
        if let Some(mime) = image_mime(&bytes) {
            let (text, method) = match transcription {
                Some(t) if !t.trim().is_empty() => (t, "user-transcription"),
                Some(_) => return Err(CliError::Usage("--text is empty".into())),
                None => match find_tesseract() {
                    Some(bin) => (ocr(&bin, path, &name).await?, "user-ocr"),
                    None => {
                        return Err(CliError::Usage(format!(
                            "{name} is a screenshot ({mime}) and no `tesseract` is on PATH to read it: \
                             give its text with --text \"…\" alongside --file"
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
            };
            let url = self.origin(file_url);
            let ev = self.evidence(doc, url, &file_name, method)?;
            return Ok((ev, Some((mime.to_string(), bytes))));
        }
        if transcription.is_some() {
            return Err(CliError::Usage(format!(
                "{name} is not a PNG, JPEG or WebP screenshot: --text goes with --file only for images"
            )));
        }
        let doc = search_gateway::extract::extract(&bytes, None, None)
            .map_err(|e| CliError::Usage(format!("{name}: {e}")))?;
        check_readable(&bytes, &doc, &name)?;
        let m = method(doc.kind);
        let url = self.origin(file_url);
        Ok((self.evidence(doc, url, &file_name, m)?, None))
    }

    /// A URL fetched through the network layer with every guard.
    async fn url(&self, raw: &str, policy: &search_gateway::Policy) -> Result<Evidence, CliError> {
        let url = http_url(raw, "--url")?;
        let config =
            search_gateway::network_config(policy).map_err(|e| CliError::Usage(e.to_string()))?;
        let fetcher =
            search_gateway::Fetcher::new(config).map_err(|e| CliError::Usage(e.to_string()))?;
        let resp = fetcher
            .fetch(&search_gateway::fetch::FetchRequest::page(url.clone()))
            .await
            .map_err(|e| CliError::Operational(format!("--url: {e}")))?;
        if resp.body.len() as u64 > MAX_SUBMIT_BYTES {
            return Err(CliError::Operational(format!(
                "--url {url}: {} bytes is over the {} MiB submission limit",
                resp.body.len(),
                MAX_SUBMIT_BYTES >> 20
            )));
        }
        let doc = search_gateway::extract::extract(
            &resp.body,
            Some(resp.content_type.as_str()),
            Some(&resp.final_url),
        )
        .map_err(|e| {
            CliError::Operational(format!("--url {url}: SOURCE_EXTRACTION_FAILED: {e}"))
        })?;
        if doc.text.trim().is_empty() {
            return Err(CliError::Operational(format!(
                "--url {url}: SOURCE_EXTRACTION_FAILED: no text could be extracted ({})",
                resp.content_type
            )));
        }
        let source = self.source_url.clone().unwrap_or_else(|| url.clone());
        let m = format!("user-url-{}", method(doc.kind).trim_start_matches("user-"));
        let mut ev = self.evidence(doc, source, url.as_str(), &m)?;
        if resp.final_url != ev.url {
            ev.final_url = Some(resp.final_url.clone());
        }
        ev.validators = resp.validators.clone();
        Ok(ev)
    }
}

/// `tesseract` on PATH, if any.
fn find_tesseract() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("tesseract"))
        .find(|p| p.is_file())
}

/// Text of an image by OCR (`tesseract IMAGE stdout`), bounded in time.
async fn ocr(bin: &Path, image: &Path, name: &str) -> Result<String, CliError> {
    let child = tokio::process::Command::new(bin)
        .arg(image)
        .arg("stdout")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(OCR_TIMEOUT, child)
        .await
        .map_err(|_| {
            CliError::Operational(format!(
                "{name}: OCR took longer than {} s; give the text with --text",
                OCR_TIMEOUT.as_secs()
            ))
        })?
        .map_err(|e| CliError::Io(format!("running {}: {e}", bin.display())))?;
    if !out.status.success() {
        return Err(CliError::Usage(format!(
            "{name}: tesseract failed ({}): {}; give the text with --text",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if text.is_empty() {
        return Err(CliError::Usage(format!(
            "{name}: OCR found no text; give the text with --text"
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
}
