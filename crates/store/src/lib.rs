#![doc = include_str!("../README.md")]

mod db;
mod error;
mod model;
mod sink;
mod store;

pub use db::Backend;
pub use error::StoreError;
pub use model::{
    BlockedUrl, CacheEntry, CacheEntrySummary, CacheFilter, CacheLookup, GateType, HumanRequest,
    NewHumanRequest, PurgeReport, RequestStatus, Screenshot, StalenessRules, StoreStats,
    StoredEvidence, Submission, TopicStats, is_evidence_id, new_evidence_id, new_request_id,
};
pub use store::{CacheCursor, CachePage, MAX_SCREENSHOT_BYTES, MAX_TEXT_BYTES, Store};
