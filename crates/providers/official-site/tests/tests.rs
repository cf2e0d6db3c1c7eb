//! Integration tests of sgw-provider-official-site against the simulated web.

// Link the crate so its factories register.
use sgw_provider_official_site as _;

mod chain;
mod direct;
mod parse;
mod site_search;
