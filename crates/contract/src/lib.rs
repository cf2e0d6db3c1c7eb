#![doc = include_str!("../README.md")]

mod attempt;
mod breakdown;
mod evidence;
mod failure;
mod hosts;
mod provider;
mod request;
mod result;
mod scoring;
mod storage_error;
mod tier;

pub use attempt::{Attempt, AttemptOutcome};
pub use breakdown::{CountedSource, ScoreBreakdown, ScoreCap, ScorePenalty};
pub use evidence::{Evidence, EvidenceMetadata, FoundField, HttpValidators, Passage, content_hash};
pub use failure::{FailureCode, UnknownFailureCode, classify_http_or_extraction_failure};
pub use hosts::{HostHealth, HostRest, host_ledger_key};
pub use provider::{
    BuildContext, EvidenceSink, FactoryError, Provider, ProviderCall, ProviderError,
    ProviderFactory, ProviderReport, Services, SuspensionLedger, SuspensionRecord, factories,
    factory,
};
pub use request::{
    CacheKey, FieldKind, FieldSpec, FieldSpecError, Hints, PlannedSource, SearchRequest,
    normalize_query,
};
pub use result::{
    Answer, AnswerField, AnswerPassage, CompetingReason, ConfidenceLevel, EvidenceSource,
    FieldCandidate, SearchResult, build_result, confidence_level,
};
pub use scoring::{Penalties, Scoring, TierBases, score_sources};
pub use storage_error::{StorageError, StorageErrorKind};
pub use tier::{SourceTier, UnknownTier};

/// Re-exported so adapter crates register factories without naming `inventory` themselves.
pub use inventory;
