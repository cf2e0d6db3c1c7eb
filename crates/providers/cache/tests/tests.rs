//! Integration tests (filled below).
