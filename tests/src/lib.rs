//! Support code for the workspace end-to-end tests (see `e2e/`).
