//! Integration tests of sgw-fetch (one binary, one module per topic).
