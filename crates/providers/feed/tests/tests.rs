//! Integration tests of sgw-provider-feed against the simulated web.

mod feed;
mod json_api;
mod support;
