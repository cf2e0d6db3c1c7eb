//! Integration tests of sgw-extract, one module per topic.

mod authors;
mod charset;
mod content;
mod dates;
#[cfg(feature = "feed")]
mod feeds;
mod fields;
mod metadata;
mod passages;
mod robustness;
mod tags;
