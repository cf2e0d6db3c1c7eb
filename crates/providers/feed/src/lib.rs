#![doc = include_str!("../README.md")]

mod feed;
mod json_api;

pub use feed::{FeedConfig, FeedProvider};
pub use json_api::{ApiItem, ItemPointers, ItemsError, JsonApi, JsonApiConfig, SecretHeader};

sgw_contract::register_provider!(FeedConfig);
sgw_contract::register_provider!(JsonApiConfig);
