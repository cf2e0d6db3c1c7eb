#![doc = include_str!("../README.md")]

pub mod backend;
mod error;
pub mod format;
pub mod gateway;
#[cfg(feature = "gateway")]
pub mod gateway_backend;
pub mod model;
pub mod ops;
pub mod promote;
pub mod reference;
pub mod root;
pub mod store;
pub mod validate;

pub use backend::{
    Backend, BackendError, EvidenceInput, ExtractRequest, GateEvidence, GatewayOptions,
    GatewayReport, StoredSubmission,
};
pub use error::{Error, Result};
pub use gateway::{
    EvidenceTexts, ExtractedClaim, Extraction, GateResolution, GatedUrl, KeptSource,
    RecordedSearch, RunOutcome, SearchOutcome, SearchRequest, SubQuestionSearch,
    extract_sub_question, parse_extractions, quality_for_tier, record_extractions, record_search,
    resolve_gate, resolve_gate_with_evidence, search_sub_question,
};
pub use model::*;
pub use store::{Session, Store};
