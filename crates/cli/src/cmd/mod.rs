//! One module per `sgw` subcommand. Each exposes `Args` (clap) and `run`.
pub mod cache;
pub mod demo;
pub mod evidence;
pub mod extract;
pub mod fetch;
pub mod policy;
pub mod providers;
pub mod search;
