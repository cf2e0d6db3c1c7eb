//! Integration tests of sgw-provider-official-site against the simulated web.

mod direct;
mod parse;
mod site_search;
mod support;
