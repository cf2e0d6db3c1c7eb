use thiserror::Error;

/// Why a document could not be extracted. Each message names what was at fault.
#[derive(Debug, Error)]
pub enum ExtractError {
    /// The bytes are empty (after gzip unwrapping).
    #[error("empty document{}", at(.url))]
    Empty { url: Option<String> },
    /// A feed could not be parsed.
    #[error("feed{} is not valid RSS/Atom/JSON Feed: {reason}", at(.url))]
    Feed { url: Option<String>, reason: String },
    /// A PDF could not be read.
    #[error("PDF{}: {reason}", at(.url))]
    Pdf { url: Option<String>, reason: String },
    /// PDF extraction exceeded its time limit.
    #[error("PDF{} extraction took longer than {secs} s and was abandoned", at(.url))]
    PdfTimeout { url: Option<String>, secs: u64 },
    /// The content type is not supported (e.g. an image, or PDF without the `pdf` feature).
    #[error("unsupported content{}: {what}", at(.url))]
    Unsupported { url: Option<String>, what: String },
}

fn at(url: &Option<String>) -> String {
    url.as_ref().map(|u| format!(" at {u}")).unwrap_or_default()
}

impl ExtractError {
    /// Extraction errors are properties of the bytes: retrying the same bytes cannot help.
    pub fn is_temporary(&self) -> bool {
        matches!(self, ExtractError::PdfTimeout { .. })
    }
}
