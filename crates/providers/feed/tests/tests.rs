//! Integration tests of sgw-provider-feed against the simulated web.

// Link the crate so its factories register.
use sgw_provider_feed as _;

mod feed;
mod json_api;
