//! Integration tests of the research session store (`sgw-research`) driven
//! through the in-process `research` CLI (one binary, a module per topic).

mod cli;
mod gateway;
mod hostile;
mod store;
mod support;
mod validate;
