//! Integration tests for sgw-research (one binary, a module per topic).

mod cli;
mod gateway;
mod hostile;
mod store;
mod support;
mod validate;
