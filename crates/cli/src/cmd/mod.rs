//! One module per `sgw` subcommand. Each exposes `Args` (clap) and `run`.
pub mod extract;
