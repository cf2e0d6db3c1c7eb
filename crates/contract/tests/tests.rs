//! Integration tests of sgw-contract.

mod registry;
mod seed;
