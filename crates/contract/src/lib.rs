#![doc = include_str!("../README.md")]

mod attempt;
mod breakdown;
mod evidence;
mod failure;
mod gate;
mod hosts;
mod provider;
mod registry;
mod request;
mod result;
mod scoring;
mod step;
mod storage_error;
mod tier;

pub use attempt::{Attempt, AttemptOutcome};
pub use breakdown::{CountedSource, ScoreBreakdown, ScoreCap, ScorePenalty};
pub use evidence::{Evidence, EvidenceMetadata, FoundField, HttpValidators, Passage, content_hash};
pub use failure::{FailureCode, UnknownFailureCode, classify_http_or_extraction_failure};
pub use gate::{GateType, UnknownGate};
pub use hosts::{HostHealth, HostRest, host_ledger_key};
pub use provider::{
    EvidenceSink, Provider, ProviderCall, ProviderError, ProviderReport, SuspensionLedger,
    SuspensionRecord,
};
pub use registry::{
    BuildContext, BuildFn, DuplicateKind, FactoryError, ProviderConfig, ProviderFactory, Registry,
    Services, TextAnalyzer, factories, factory, parse_config,
};
pub use request::{
    CacheKey, CacheKeyParseError, FieldKind, FieldSpec, FieldSpecError, Hints, PlannedSource,
    SearchRequest, normalize_query,
};
pub use result::{
    Answer, AnswerField, AnswerPassage, CompetingReason, ConfidenceLevel, EvidenceSource,
    FieldCandidate, SearchResult, build_result, confidence_level,
};
pub use scoring::{Penalties, Scoring, TierBases, score_sources};
pub use step::ChainStep;
pub use storage_error::{StorageError, StorageErrorKind, StoreWrite, StoreWriteFailure};
pub use tier::{SourceTier, UnknownTier};

/// Re-exported so [`register_provider!`] works without the provider crate naming `inventory`.
pub use inventory;
