//! The gateway as the CLI sees it: the [`Backend`] trait behind `research search`,
//! `research extract` and `research gates --resolve`.
//!
//! The session store works without the search gateway: the gateway-backed
//! implementation, `gateway_backend::GatewayBackend`, is behind this crate's
//! `gateway` feature and reaches the CLI (`sgw_cli::research::run_with`) as a
//! trait object; without one the three verbs exit 2 ("this build has no
//! gateway"). Tests implement the trait with fakes.
//!
//! The backend only talks to the gateway; every session write still goes through
//! the seams in [`crate::gateway`] (`record_search`, `record_extractions`,
//! `resolve_gate`) and so through the store's chokepoint.

use crate::gateway::{EvidenceTexts, Extraction, SearchOutcome, SearchRequest};
use crate::model::Source;
use serde::Serialize;
use sgw_contract::StorageErrorKind;
use std::collections::HashMap;
use std::path::PathBuf;

/// Where the gateway's policy and evidence store are (`--policy`, `--store`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GatewayOptions {
    /// Policy file; `None` means the gateway's built-in default policy.
    pub policy: Option<PathBuf>,
    /// Evidence store location (path, `sqlite:…`, `postgres://…`); `None` means the
    /// policy's `store.url`, else the gateway's default location.
    pub store: Option<String>,
}

/// A backend failure, by kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    /// The caller's input is at fault (bad policy file, bad `--file`, bad URL).
    #[error("{0}")]
    Usage(String),
    /// The gateway could not do it (fetch refused, nothing to read, no request).
    #[error("{0}")]
    Operational(String),
    /// The gateway's evidence store failed; `kind` is the store's own classification.
    #[error("{message}")]
    Store {
        kind: StorageErrorKind,
        message: String,
    },
    /// A local file could not be read or written.
    #[error("{0}")]
    Io(String),
}

impl BackendError {
    /// Whether trying again unchanged could help (a busy or unreachable store).
    pub fn is_temporary(&self) -> bool {
        match self {
            BackendError::Store { kind, .. } => kind.is_temporary(),
            BackendError::Io(_) => true,
            BackendError::Usage(_) | BackendError::Operational(_) => false,
        }
    }
}

/// What the gateway said about one sub-question, besides the outcome the session
/// records.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayReport {
    /// Kept sources and gated URLs, as recorded by [`crate::record_search`].
    pub outcome: SearchOutcome,
    /// The gateway's confidence in its answer (0–0.99).
    pub confidence: f64,
    /// `high`, `medium` or `low`.
    pub confidence_level: String,
    /// Every failure code of the run, as the gateway spells them.
    pub failure_codes: Vec<String>,
    /// The gateway's own human evidence request (`hr-…`), when its chain opened one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub human_request_id: Option<String>,
    /// Kept sources dropped because the gateway stored no evidence for them.
    pub unstored_sources: usize,
}

/// The sources of one sub-question handed to an automatic extractor.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractRequest<'a> {
    pub sub_question_id: &'a str,
    pub sub_question_text: &'a str,
    /// The session's recorded sources of that sub-question, in id order.
    pub sources: &'a [Source],
}

/// What a person handed in to clear a gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvidenceInput {
    /// Pasted text.
    Text(String),
    /// A local file: text, HTML or PDF (sniffed from its bytes).
    File(PathBuf),
    /// A URL to fetch through the gateway's network layer (every guard applies).
    Url(String),
}

/// One gate being resolved with evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateEvidence<'a> {
    pub session_id: &'a str,
    pub gate_id: &'a str,
    /// The gated URL.
    pub url: &'a str,
    pub gate_type: &'a str,
    /// The text of the gate's sub-question (the query the evidence answers), else the
    /// session question.
    pub query: &'a str,
    pub input: &'a EvidenceInput,
    /// The invocation's clock (request and evidence times).
    pub now: jiff::Timestamp,
}

/// The evidence record the gateway stored for a gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredSubmission {
    /// `ev-…`: stored as `USER_SUPPLIED_EVIDENCE`.
    pub evidence_id: String,
    /// The gateway human evidence request (`hr-…`) it resolved.
    pub request_id: String,
    /// A title for the source (the document's, else the gated URL).
    pub title: String,
    /// Characters of text extracted from the submission.
    pub text_chars: usize,
}

/// The gateway, as the `research` CLI and [`crate::search_sub_question`] use it.
/// Implementations block: the CLI is synchronous.
pub trait Backend {
    /// Run the gateway for one sub-question (`request.sub_question_text` is the query):
    /// its kept sources and gated URLs (`report.outcome`) and what it said about them.
    fn search(
        &self,
        options: &GatewayOptions,
        request: &SearchRequest,
    ) -> Result<GatewayReport, BackendError>;

    /// The stored evidence texts of `evidence_ids` (ids the store lacks are absent).
    fn evidence_texts(
        &self,
        options: &GatewayOptions,
        evidence_ids: &[String],
    ) -> Result<HashMap<String, String>, BackendError>;

    /// Do the extractor brief's job for one sub-question: claims with verbatim quotes
    /// drawn from `texts` (the evidence texts of `request.sources`).
    fn extract(
        &self,
        request: &ExtractRequest<'_>,
        texts: &dyn EvidenceTexts,
    ) -> Result<Extraction, BackendError>;

    /// Hand a person's evidence for a gate to the gateway's human intake; returns the
    /// stored evidence record.
    fn submit_evidence(
        &self,
        options: &GatewayOptions,
        gate: &GateEvidence<'_>,
    ) -> Result<StoredSubmission, BackendError>;
}
