//! Extracting a local input (a file, or a stream such as standard input):
//! the bounded read, the extraction and the passages ranked for a query, as
//! one value with its JSON view. `sgw extract` is this plus printing.

use crate::{Document, ExtractError, Passage, Url};
use serde::Serialize;
use std::io::Read;
use std::path::PathBuf;

/// The most [`extract_input`] reads: the PDF cap, the largest input any
/// extractor takes.
pub const MAX_INPUT_BYTES: u64 = crate::PDF_MAX_BYTES as u64;

/// Where [`extract_input`] reads from.
pub enum Input {
    /// A path; it must name a regular file (a FIFO or a device is refused,
    /// never read). Symbolic links are followed.
    File(PathBuf),
    /// A stream (standard input), read up to [`MAX_INPUT_BYTES`].
    Reader(Box<dyn Read + Send>),
}

impl Input {
    /// How errors name the input: the path, or `standard input`.
    pub fn name(&self) -> String {
        match self {
            Input::File(path) => path.display().to_string(),
            Input::Reader(_) => "standard input".into(),
        }
    }
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Input({})", self.name())
    }
}

/// How [`extract_input`] reads its input.
#[derive(Debug, Clone, Default)]
pub struct InputOptions {
    /// Content type, if known (`text/html; charset=iso-8859-1`); sniffed otherwise.
    pub content_type: Option<String>,
    /// Where the document came from (resolves relative canonical links).
    pub url: Option<Url>,
    /// Rank passages against this query.
    pub query: Option<String>,
    /// How many passages to keep.
    pub max_passages: usize,
}

/// Why a local input could not be extracted. Each message names the input.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The machine could not read it (permissions, a disk error): not the
    /// input's fault.
    #[error("cannot read {name}: {source}")]
    Read {
        /// The input ([`Input::name`]).
        name: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The input cannot be used: missing, too large, not a regular file.
    #[error("{name}: {source}")]
    Unusable {
        /// The input ([`Input::name`]).
        name: String,
        /// What is wrong with it.
        source: sgw_safeio::ReadError,
    },
    /// The bytes could not be extracted.
    #[error("{name}: {source}")]
    Extract {
        /// The input ([`Input::name`]).
        name: String,
        /// The extractor's error.
        source: ExtractError,
    },
}

impl InputError {
    /// True when the input (not the machine) is at fault.
    pub fn is_input_fault(&self) -> bool {
        !matches!(self, InputError::Read { .. })
    }
}

/// A local input extracted: the document and the passages ranked for the
/// query (none without one). Its JSON (`sgw extract --json`) is the
/// document's fields flat, its feed entries and the passages.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    /// What was extracted.
    pub document: Document,
    /// The passages ranked for [`InputOptions::query`], best first.
    pub passages: Vec<Passage>,
}

/// Reads `input` (at most [`MAX_INPUT_BYTES`]), extracts it and ranks its
/// passages for `options.query`. Blocking: the read and a PDF extraction
/// may take seconds, so async callers run it on a blocking thread.
/// Errors name the input by [`Input::name`].
pub fn extract_input(input: Input, options: &InputOptions) -> Result<Extracted, InputError> {
    let name = input.name();
    let read = match input {
        Input::File(path) => sgw_safeio::read_file(&path, MAX_INPUT_BYTES, sgw_safeio::Follow::Yes),
        Input::Reader(reader) => sgw_safeio::read_capped(reader, MAX_INPUT_BYTES),
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(sgw_safeio::ReadError::Io(source)) if source.kind() != std::io::ErrorKind::NotFound => {
            return Err(InputError::Read { name, source });
        }
        Err(source) => return Err(InputError::Unusable { name, source }),
    };
    let document = crate::extract(
        &bytes,
        options.content_type.as_deref(),
        options.url.as_ref(),
    )
    .map_err(|source| InputError::Extract { name, source })?;
    let passages = options
        .query
        .as_deref()
        .map(|q| document.passages(q, options.max_passages))
        .unwrap_or_default();
    Ok(Extracted { document, passages })
}

/// The JSON view of [`Extracted`], field order as printed.
#[derive(Serialize)]
struct View<'a> {
    kind: crate::DocumentKind,
    title: &'a Option<String>,
    publisher: &'a Option<String>,
    authors: &'a [String],
    published_at: &'a Option<String>,
    modified_at: &'a Option<String>,
    language: &'a Option<String>,
    canonical_url: &'a Option<String>,
    encoding: &'a str,
    text: &'a str,
    entries: &'a [crate::FeedEntry],
    passages: &'a [Passage],
}

impl Serialize for Extracted {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let d = &self.document;
        let m = &d.metadata;
        View {
            kind: d.kind,
            title: &m.title,
            publisher: &m.publisher,
            authors: &m.authors,
            published_at: &m.published_at,
            modified_at: &m.modified_at,
            language: &m.language,
            canonical_url: &m.canonical_url,
            encoding: &d.encoding,
            text: &d.text,
            entries: &d.entries,
            passages: &self.passages,
        }
        .serialize(serializer)
    }
}
