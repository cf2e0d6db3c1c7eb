//! Integration tests of sgw-provider-official-site against the simulated web.

mod chain;
mod direct;
mod parse;
mod site_search;
mod support;
