//! Integration tests of sgw-testkit: one binary, a module per topic.

mod support;

mod bombs;
mod calibration;
mod content;
mod faults;
mod fetch_contract;
mod routing;
