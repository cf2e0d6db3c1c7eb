//! PDF text, behind the `pdf` feature: pdf-extract under a size limit, a page
//! limit, a time budget and a memory budget.
//!
//! A PDF is hostile input that can make a parser allocate gigabytes (a small
//! content stream that inflates to 1 GB, or worse) or spin. A thread cannot be
//! stopped nor its memory bounded, so a binary that calls [`worker_hook`]
//! first thing in `main` runs every extraction in a **child process of
//! itself** started with [`WORKER_ARG`]: the child limits its own address
//! space to [`PDF_MEMORY_BYTES`] (`setrlimit(RLIMIT_AS)`) and its CPU time,
//! reads the PDF on stdin and writes the pages as JSON on stdout. An
//! allocation past the budget ends the child, not the caller; at
//! [`PDF_TIMEOUT`] the parent kills the child, so nothing keeps running. The
//! child prints nothing on stderr (pdf-extract's panics are caught, quietly).
//!
//! Without the hook (a library user, a test binary) extraction runs in a
//! worker thread with the same time limit, after a pre-scan that refuses PDFs
//! whose Flate streams inflate past [`PDF_MAX_INFLATED`]; a thread that times
//! out is abandoned. Binaries should call the hook.

use crate::document::Document;
use crate::error::ExtractError;
use std::time::Duration;
use url::Url;

/// PDFs larger than this are refused.
pub const PDF_MAX_BYTES: usize = 32 << 20;
/// Only the text of the first pages is kept.
pub const PDF_MAX_PAGES: usize = 500;
/// Extraction is abandoned (the worker process killed) after this long.
pub const PDF_TIMEOUT: Duration = Duration::from_secs(20);
/// The address-space limit of the worker process.
pub const PDF_MEMORY_BYTES: u64 = 768 << 20;
/// In-thread extraction only: the most all Flate streams of a PDF may
/// inflate to, together (checked before pdf-extract sees the file).
pub const PDF_MAX_INFLATED: u64 = 64 << 20;
/// The first argument that makes a binary calling [`worker_hook`] act as the
/// PDF worker.
pub const WORKER_ARG: &str = "--sgw-pdf-worker";
/// The most text a worker may hand back.
#[cfg(feature = "pdf")]
const MAX_WORKER_OUTPUT: u64 = 64 << 20;

#[cfg(feature = "pdf")]
static WORKER_EXE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Call first thing in `main`: when the process was started as the PDF
/// worker (`argv[1] == WORKER_ARG`) it runs the worker and exits; otherwise it
/// registers the current executable, so every later PDF extraction runs in a
/// memory-limited child process of it. Without the `pdf` feature it does
/// nothing.
pub fn worker_hook() {
    #[cfg(feature = "pdf")]
    {
        if std::env::args_os().nth(1).as_deref() == Some(std::ffi::OsStr::new(WORKER_ARG)) {
            std::process::exit(worker::serve());
        }
        if let Ok(exe) = std::env::current_exe() {
            let _ = WORKER_EXE.set(exe);
        }
    }
}

#[cfg(feature = "pdf")]
pub fn extract_pdf(bytes: &[u8], url: Option<&Url>) -> Result<Document, ExtractError> {
    use crate::document::{DocumentKind, Metadata};
    let url_s = url.map(Url::to_string);
    let fail = |reason: String| ExtractError::Pdf {
        url: url_s.clone(),
        reason,
    };
    if bytes.len() > PDF_MAX_BYTES {
        return Err(fail(format!(
            "{} bytes is over the {PDF_MAX_BYTES}-byte limit",
            bytes.len()
        )));
    }
    let outcome = match WORKER_EXE.get() {
        Some(exe) => worker::run(exe, bytes),
        None => in_thread(bytes),
    };
    let pages = match outcome {
        Ok(pages) => pages,
        Err(Failure::Timeout) => {
            return Err(ExtractError::PdfTimeout {
                url: url_s,
                secs: PDF_TIMEOUT.as_secs(),
            });
        }
        Err(Failure::Reason(r)) => return Err(fail(r)),
    };
    let mut text = String::new();
    for page in pages.iter().take(PDF_MAX_PAGES) {
        let page = page.trim();
        if page.is_empty() {
            continue;
        }
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        // Join hard-wrapped lines within paragraphs; keep blank lines.
        for (i, para) in page.split("\n\n").enumerate() {
            if i > 0 {
                text.push_str("\n\n");
            }
            text.push_str(&para.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    let title = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().chars().take(200).collect());
    Ok(Document {
        kind: DocumentKind::Pdf,
        metadata: Metadata {
            title,
            canonical_url: url_s,
            ..Metadata::default()
        },
        text,
        entries: Vec::new(),
        encoding: "PDF".into(),
        js_shell: false,
    })
}

#[cfg(not(feature = "pdf"))]
pub fn extract_pdf(_bytes: &[u8], url: Option<&Url>) -> Result<Document, ExtractError> {
    Err(ExtractError::Unsupported {
        url: url.map(Url::to_string),
        what: "PDF (built without the `pdf` feature)".into(),
    })
}

/// Why extraction produced no pages.
#[cfg(feature = "pdf")]
enum Failure {
    Timeout,
    Reason(String),
}

/// pdf-extract on `data`, its panics caught without printing anything.
#[cfg(feature = "pdf")]
fn parse_quietly(data: &[u8]) -> Result<Vec<String>, String> {
    quiet::install();
    quiet::QUIET.with(|q| q.set(true));
    let r = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem_by_pages(data));
    quiet::QUIET.with(|q| q.set(false));
    match r {
        Ok(Ok(pages)) => Ok(pages),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("the PDF parser failed on malformed input".into()),
    }
}

/// The fallback without a worker process: a thread, after the inflation pre-scan.
#[cfg(feature = "pdf")]
fn in_thread(bytes: &[u8]) -> Result<Vec<String>, Failure> {
    let inflated = inflated_size(bytes, PDF_MAX_INFLATED);
    if inflated > PDF_MAX_INFLATED {
        return Err(Failure::Reason(format!(
            "its streams inflate past the {} MiB limit",
            PDF_MAX_INFLATED >> 20
        )));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let data = bytes.to_vec();
    std::thread::Builder::new()
        .name("sgw-pdf".into())
        .spawn(move || {
            let _ = tx.send(parse_quietly(&data));
        })
        .map_err(|e| Failure::Reason(format!("cannot start worker: {e}")))?;
    match rx.recv_timeout(PDF_TIMEOUT) {
        Ok(r) => r.map_err(Failure::Reason),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(Failure::Reason(
            "the PDF parser failed on malformed input".into(),
        )),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(Failure::Timeout),
    }
}

/// How many bytes the PDF's Flate streams inflate to, together (nested Flate
/// layers included), counting no further than `cap + 1`. Streams are found by
/// their `stream`/`endstream` keywords; data that is not zlib counts as what
/// it inflated to before the error. Nothing is kept in memory.
pub fn inflated_size(pdf: &[u8], cap: u64) -> u64 {
    let mut total = 0u64;
    let mut at = 0;
    while let Some(p) = find(&pdf[at..], b"stream") {
        let mut start = at + p + b"stream".len();
        // `endstream` also contains `stream`: skip it.
        if at + p >= 3 && &pdf[at + p - 3..at + p] == b"end" {
            at = start;
            continue;
        }
        if pdf.get(start) == Some(&b'\r') {
            start += 1;
        }
        if pdf.get(start) == Some(&b'\n') {
            start += 1;
        }
        let end = find(&pdf[start..], b"endstream").map_or(pdf.len(), |e| start + e);
        total = total.saturating_add(inflate_count(&pdf[start..end], cap - total.min(cap), 3));
        if total > cap {
            return total;
        }
        at = end;
    }
    total
}

/// Bytes `data` inflates to (zlib, then any zlib layers inside), up to `cap + 1`.
fn inflate_count(data: &[u8], cap: u64, depth: u8) -> u64 {
    use std::io::Read;
    if depth == 0 || data.len() < 2 || data[0] & 0x0f != 8 {
        return 0;
    }
    let mut dec = flate2::read::ZlibDecoder::new(data).take(cap + 1);
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    let mut head: Vec<u8> = Vec::new();
    loop {
        match dec.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                total += n as u64;
                if head.len() < (4 << 20) {
                    head.extend_from_slice(&buf[..n.min((4 << 20) - head.len())]);
                }
            }
        }
    }
    // A stream that inflates to zlib again (a /FlateDecode /FlateDecode chain).
    if total <= cap && head.len() as u64 == total {
        total = total.saturating_add(inflate_count(&head, cap - total, depth - 1));
    } else if head.len() as u64 != total && head.first().is_some_and(|b| b & 0x0f == 8) {
        // Too big to hold for a nested look: count it as over the cap.
        return cap + 1;
    }
    total
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A panic hook that stays silent on threads that ask it to: pdf-extract
/// panics on malformed input; the panic is caught and reported as an error,
/// so printing a backtrace would only be noise.
#[cfg(feature = "pdf")]
mod quiet {
    use std::cell::Cell;

    thread_local! {
        pub(super) static QUIET: Cell<bool> = const { Cell::new(false) };
    }

    pub(super) fn install() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if !QUIET.with(Cell::get) {
                    previous(info);
                }
            }));
        });
    }
}

#[cfg(feature = "pdf")]
mod worker {
    use super::{Failure, MAX_WORKER_OUTPUT, PDF_MAX_BYTES, PDF_MEMORY_BYTES, PDF_TIMEOUT};
    use std::io::Write;
    use std::path::Path;
    use std::process::{Command, Stdio};

    /// The parent side: runs `exe WORKER_ARG`, feeds it the PDF, waits at
    /// most [`PDF_TIMEOUT`] (then kills it) and reads at most
    /// `MAX_WORKER_OUTPUT` bytes of JSON.
    pub(super) fn run(exe: &Path, bytes: &[u8]) -> Result<Vec<String>, Failure> {
        let mut child = Command::new(exe)
            .arg(super::WORKER_ARG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::Reason(format!("cannot start the PDF worker: {e}")))?;
        let mut stdin = child.stdin.take();
        let data = bytes.to_vec();
        // A writer thread: the child may stop reading (it died) at any time.
        let writer = std::thread::spawn(move || {
            if let Some(mut s) = stdin.take() {
                let _ = s.write_all(&data);
            }
        });
        let stdout = child.stdout.take();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let out = stdout.map(|s| read_at_most(s, MAX_WORKER_OUTPUT));
            let _ = tx.send(out);
        });
        let output = match rx.recv_timeout(PDF_TIMEOUT) {
            Ok(out) => out,
            Err(_) => {
                // Past the budget: the worker dies now, nothing keeps running.
                let _ = child.kill();
                let _ = child.wait();
                let _ = writer.join();
                return Err(Failure::Timeout);
            }
        };
        let status = child
            .wait()
            .map_err(|e| Failure::Reason(format!("PDF worker: {e}")))?;
        let _ = writer.join();
        let output = match output {
            Some(Some(out)) => out,
            Some(None) => {
                let _ = child.kill();
                return Err(Failure::Reason(format!(
                    "its text is over the {} MiB limit",
                    MAX_WORKER_OUTPUT >> 20
                )));
            }
            None => return Err(Failure::Reason("the PDF worker gave no output".into())),
        };
        if !status.success() && output.is_empty() {
            return Err(Failure::Reason(format!(
                "the PDF parser needed more than its {} MiB memory budget or crashed ({status})",
                PDF_MEMORY_BYTES >> 20
            )));
        }
        match serde_json::from_slice::<Reply>(&output) {
            Ok(Reply::Pages(pages)) => Ok(pages),
            Ok(Reply::Error(e)) => Err(Failure::Reason(e)),
            Err(e) => Err(Failure::Reason(format!("the PDF worker's reply: {e}"))),
        }
    }

    /// At most `limit` bytes, `None` past it or on a read error.
    fn read_at_most(r: impl std::io::Read, limit: u64) -> Option<Vec<u8>> {
        sgw_safeio::read_capped(r, limit).ok()
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Reply {
        Pages(Vec<String>),
        Error(String),
    }

    /// The child side: limits itself, reads the PDF on stdin, answers on
    /// stdout. Returns the exit code.
    pub(super) fn serve() -> i32 {
        limit_self();
        let Some(data) = read_at_most(std::io::stdin().lock(), PDF_MAX_BYTES as u64) else {
            return 2;
        };
        let reply = match super::parse_quietly(&data) {
            Ok(pages) => Reply::Pages(pages),
            Err(e) => Reply::Error(e),
        };
        drop(data);
        let Ok(json) = serde_json::to_vec(&reply) else {
            return 2;
        };
        let mut out = std::io::stdout().lock();
        if out.write_all(&json).and_then(|()| out.flush()).is_err() {
            return 2;
        }
        0
    }

    /// Address space and CPU time of this (the worker) process.
    fn limit_self() {
        #[cfg(target_os = "linux")]
        {
            use rustix::process::{Resource, Rlimit, setrlimit};
            let _ = setrlimit(
                Resource::As,
                Rlimit {
                    current: Some(PDF_MEMORY_BYTES),
                    maximum: Some(PDF_MEMORY_BYTES),
                },
            );
            let cpu = PDF_TIMEOUT.as_secs() + 5;
            let _ = setrlimit(
                Resource::Cpu,
                Rlimit {
                    current: Some(cpu),
                    maximum: Some(cpu),
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(data).unwrap();
        z.finish().unwrap()
    }

    #[test]
    fn inflation_is_counted_with_a_cap_and_nested_layers() {
        let small = zlib(b"BT /F1 12 Tf (hello) Tj ET");
        let mut pdf = b"%PDF-1.4\n1 0 obj << /Length 9 >>\nstream\n".to_vec();
        pdf.extend_from_slice(&small);
        pdf.extend_from_slice(b"\nendstream\nendobj\n");
        assert_eq!(inflated_size(&pdf, 1 << 20), 26);
        let bomb = zlib(&vec![b' '; 8 << 20]);
        let mut pdf = b"%PDF-1.4\n1 0 obj << >>\nstream\r\n".to_vec();
        pdf.extend_from_slice(&bomb);
        pdf.extend_from_slice(b"endstream\n");
        assert!(inflated_size(&pdf, 1 << 20) > 1 << 20);
        // Flate inside Flate: small outside, big inside.
        let nested = zlib(&bomb);
        let mut pdf = b"%PDF-1.4\nstream\n".to_vec();
        pdf.extend_from_slice(&nested);
        pdf.extend_from_slice(b"endstream");
        assert!(inflated_size(&pdf, 1 << 20) > 1 << 20);
        assert_eq!(inflated_size(b"no streams at all", 10), 0);
    }

    /// In-thread extraction (no worker hook): a parser panic is an error,
    /// and the bomb is refused by the pre-scan before the parser sees it.
    #[cfg(feature = "pdf")]
    #[test]
    fn without_the_worker_panics_are_errors_and_bombs_are_refused() {
        let e = extract_pdf(&sgw_testkit::hostile::pdf_that_panics_the_parser(), None);
        assert!(matches!(e, Err(ExtractError::Pdf { .. })), "{e:?}");
        let bomb = sgw_testkit::hostile::pdf_inflation_bomb("0 0 m ", 12_000_000);
        let e = extract_pdf(&bomb, None).unwrap_err().to_string();
        assert!(e.contains("inflate past"), "{e}");
    }
}
