//! Evidence a person hands in for a blocked query (feature `human-intake`):
//! the two steps every front end (`sgw evidence submit`, `research gates
//! --resolve`, a service) takes, in one place.
//!
//! 1. [`ingest_evidence`]: the person's text, file or URL becomes a
//!    [`Submission`] through the human-intake provider's one ingestion, with
//!    the policy's network layer (SSRF guard, robots.txt, size and time caps)
//!    for a URL.
//! 2. [`resolve_with_evidence`]: the submission gets an evidence id and the
//!    result a gateway gives user-supplied evidence (USER_SUPPLIED_EVIDENCE,
//!    never upgraded), and the store resolves the open request with it and
//!    caches it under the request's key, so the next identical query answers
//!    from the cache.
//!
//! Ingestion comes first and writes nothing: bad input changes nothing.

use crate::OpenError;
use sgw_orchestrator::Policy;
pub use sgw_provider_human_intake::ingest::{self, IngestError, Input};
pub use sgw_store::Submission;
use sgw_store::{HumanRequest, Store, StoreError};

/// Why a person's evidence could not be ingested.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The policy's `network:` section is invalid (usage error).
    #[error("{0}")]
    Network(#[from] OpenError),
    /// The input could not be read, fetched or understood.
    #[error("{0}")]
    Ingest(#[from] IngestError),
}

/// Ingests `input` with `options` (passages ranked against its query), a URL
/// fetched through the network layer `policy` configures.
pub async fn ingest_evidence(
    policy: &Policy,
    input: &Input,
    options: &ingest::Options,
) -> Result<Submission, SubmitError> {
    let fetcher = crate::fetcher(policy)?;
    Ok(ingest::ingest(input, &fetcher, options).await?)
}

/// Resolves the open request `request_id` with `submission` at `now`: a new
/// evidence id, the user-evidence result the policy gives it, stored and
/// cached under the request's key. Returns the resolved request (its
/// `evidence_id` set).
pub async fn resolve_with_evidence(
    policy: &Policy,
    store: &Store,
    request_id: &str,
    mut submission: Submission,
    now: jiff::Timestamp,
) -> Result<HumanRequest, StoreError> {
    submission.evidence.evidence_id = Some(sgw_store::new_evidence_id());
    let result = sgw_orchestrator::user_evidence_result(policy, &submission.evidence, now);
    store
        .resolve_request(request_id, submission, result, now)
        .await
}
