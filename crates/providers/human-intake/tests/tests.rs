//! sgw-provider-human-intake against a real SQLite store, the orchestrator
//! and the simulated web.

mod intake;
