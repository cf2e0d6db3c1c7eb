//! Integration tests of sgw-provider-common against the simulated web.

mod markup;
mod rank;
mod read;
mod template;
