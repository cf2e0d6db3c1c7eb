//! Integration tests of sgw-fetch against the simulated web (sgw-testkit),
//! one binary with a module per topic. Loopback only.

mod common;
mod decoding;
mod faults;
mod props;
mod robots;
mod ssrf;
