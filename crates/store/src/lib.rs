#![doc = include_str!("../README.md")]

mod cache;
mod db;
mod error;
mod evidence;
mod model;
mod requests;
mod store;
mod suspensions;

pub use cache::{CacheCursor, CachePage};
pub use db::Backend;
pub use error::StoreError;
pub use evidence::{MAX_SCREENSHOT_BYTES, MAX_TEXT_BYTES};
pub use model::{
    BlockedUrl, CacheEntry, CacheEntrySummary, CacheFilter, CacheLookup, HumanRequest,
    NewHumanRequest, PurgeReport, RequestStatus, Screenshot, StalenessRules, StoreStats,
    StoredEvidence, Submission, TopicStats, is_evidence_id, new_evidence_id, new_request_id,
};
/// The gate taxonomy of human requests (defined by the contract).
pub use sgw_contract::GateType;
pub use store::Store;
