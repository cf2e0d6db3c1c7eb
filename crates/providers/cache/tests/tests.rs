//! sgw-provider-cache against a real SQLite store, the orchestrator and the
//! simulated web.

mod cache;
mod support;
