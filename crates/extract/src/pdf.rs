//! PDF text, behind the `pdf` feature: pdf-extract in a worker thread with a
//! size limit, a page limit and a deadline. A PDF that takes too long is
//! abandoned (the worker thread finishes on its own; its result is dropped),
//! so a caller never hangs.

use crate::document::Document;
use crate::error::ExtractError;
use std::time::Duration;
use url::Url;

/// PDFs larger than this are refused.
pub const PDF_MAX_BYTES: usize = 32 << 20;
/// Only the text of the first pages is kept.
pub const PDF_MAX_PAGES: usize = 500;
/// Extraction is abandoned after this long.
pub const PDF_TIMEOUT: Duration = Duration::from_secs(20);

#[cfg(feature = "pdf")]
pub fn extract_pdf(bytes: &[u8], url: Option<&Url>) -> Result<Document, ExtractError> {
    use crate::document::{DocumentKind, Metadata};
    let url_s = url.map(Url::to_string);
    if bytes.len() > PDF_MAX_BYTES {
        return Err(ExtractError::Pdf {
            url: url_s,
            reason: format!(
                "{} bytes is over the {PDF_MAX_BYTES}-byte limit",
                bytes.len()
            ),
        });
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let data = bytes.to_vec();
    std::thread::Builder::new()
        .name("sgw-pdf".into())
        .spawn(move || {
            let r = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem_by_pages(&data));
            let _ = tx.send(r);
        })
        .map_err(|e| ExtractError::Pdf {
            url: url_s.clone(),
            reason: format!("cannot start worker: {e}"),
        })?;
    let pages = match rx.recv_timeout(PDF_TIMEOUT) {
        Ok(Ok(Ok(pages))) => pages,
        Ok(Ok(Err(e))) => {
            return Err(ExtractError::Pdf {
                url: url_s,
                reason: e.to_string(),
            });
        }
        Ok(Err(_)) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            return Err(ExtractError::Pdf {
                url: url_s,
                reason: "the PDF parser failed on malformed input".into(),
            });
        }
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            return Err(ExtractError::PdfTimeout {
                url: url_s,
                secs: PDF_TIMEOUT.as_secs(),
            });
        }
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
    })
}

#[cfg(not(feature = "pdf"))]
pub fn extract_pdf(_bytes: &[u8], url: Option<&Url>) -> Result<Document, ExtractError> {
    Err(ExtractError::Unsupported {
        url: url.map(Url::to_string),
        what: "PDF (built without the `pdf` feature)".into(),
    })
}
