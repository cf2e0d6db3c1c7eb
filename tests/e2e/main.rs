//! End-to-end scenarios through the facade against the simulated web: one
//! binary, one module per topic.

mod calibration;
mod docs;
mod provider_hello;
mod scenarios;
mod speed;
