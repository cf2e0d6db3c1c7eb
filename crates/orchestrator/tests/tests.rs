//! Integration tests of sgw-orchestrator: policies, and the chain run with
//! providers defined here (no network).

mod chain;
mod confidence;
mod persist;
mod policy;
mod support;
