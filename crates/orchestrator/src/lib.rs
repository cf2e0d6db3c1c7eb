//! The Search Gateway engine.
//!
//! It loads and validates a [`Policy`], builds the fallback chain from the
//! registered provider factories, and runs requests through it ([`Gateway`]):
//! topic choice and cache key, planning of registry sources, tier
//! classification, steps in policy order with concurrent providers, timeouts,
//! one deadline, hedging, suspension, scoring, conflict detection and the
//! failure diagnosis of the result.
//!
//! It does **not** fetch, extract or store anything itself: providers fetch
//! (through `sgw-fetch`), a [`TextAnalyzer`] finds passages and typed fields,
//! and an [`sgw_contract::EvidenceSink`] keeps evidence.

mod answer;
mod chain;
mod confidence;
mod plan;
pub mod policy;
mod relevance;
mod suspend;
mod user_evidence;

pub use answer::TextAnalyzer;
pub use chain::{BuildError, Gateway, GatewayBuilder, SearchError};
pub use plan::{Planner, registrable_domain};
pub use policy::{ChainStep, Policy, PolicyError, PolicyErrors, Warning};
pub use user_evidence::user_evidence_result;
