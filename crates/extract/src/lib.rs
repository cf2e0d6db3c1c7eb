#![doc = include_str!("../README.md")]

mod candidates;
mod date;
mod decode;
mod document;
mod error;
#[cfg(feature = "feed")]
mod feed;
mod fields;
pub mod html;
mod input;
mod passages;
mod pdf;
mod question;
mod statements;

pub use candidates::{FieldCandidate, field_candidates};
pub use date::{find_dates, normalize_date};
pub use decode::{GunzipError, decode_html, gunzip, maybe_gunzip, meta_charset};
pub use document::{Document, DocumentKind, FeedEntry, Metadata, extract, sniff_kind};
pub use error::ExtractError;
pub use fields::{FieldKind, FieldSpec, FieldValue};
pub use html::{looks_like_js_shell, visible_text_len};
pub use input::{Extracted, Input, InputError, InputOptions, MAX_INPUT_BYTES, extract_input};
pub use passages::{Passage, rank as rank_passages, tokenize};
pub use pdf::{
    PDF_MAX_BYTES, PDF_MAX_INFLATED, PDF_MAX_PAGES, PDF_MEMORY_BYTES, PDF_TIMEOUT, WORKER_ARG,
    inflated_size, worker_hook,
};
pub use statements::{
    CheckableFacts, STATEMENT_MAX_BYTES, STATEMENT_MIN_BYTES, Statement, checkable_statements,
    content_terms, sentence_spans,
};
pub use url::Url;
