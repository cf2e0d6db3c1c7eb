//! End-to-end scenarios through the facade against the simulated web: one
//! binary, one module per topic.

mod calibration;
mod docs;
mod scenarios;
mod speed;
