//! Integration tests for sgw-research (one binary, a module per topic).

mod cli;
mod gateway;
mod store;
mod support;
mod validate;
