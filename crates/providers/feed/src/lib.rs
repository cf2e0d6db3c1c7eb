//! `sgw-provider-feed`: structured sources of Search Gateway — feeds and JSON APIs.
//!
//! - `feed` (step `structured_api_or_feed`): RSS 2.0 / Atom 1.0 / JSON Feed
//!   1.1 from the planned sources' `feed_urls` and `config.urls`; entries
//!   ranked by relevance and recency, the best entries' pages read, the
//!   entry's own content standing in when a page cannot be read.
//! - `json-api` (step `structured_api_or_feed`): any JSON API described by a
//!   URL template and JSON pointers (`items`, and `item.title`, `item.url`,
//!   `item.text`, `item.date`), with its `tier` and `publisher` in config.
//!
//! It is **not** a feed aggregator or poller (one fetch per feed per request,
//! no state), holds no politeness, retry, SSRF or robots logic (`sgw-fetch`
//! does), and decides no tier (hints only; the orchestrator classifies).
#![doc = include_str!("../README.md")]

mod feed;
mod json_api;

pub use feed::{FeedConfig, FeedProvider};
pub use json_api::{ApiItem, ItemPointers, ItemsError, JsonApi, JsonApiConfig, SecretHeader};

sgw_contract::register_provider!(FeedConfig);
sgw_contract::register_provider!(JsonApiConfig);
