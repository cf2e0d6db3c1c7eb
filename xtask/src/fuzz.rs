//! `cargo xtask fuzz [TARGET] [--seconds N] [--seed S]`: the fuzz runner
//! (`fuzz/`, the `sgw-fuzz` binary) built in the dev profile, so CI reuses
//! what `cargo test --workspace` already compiled. Without TARGET, N seconds
//! are split over every target. Fails when any target found a panic, an
//! input over its time budget or a worker over the memory budget; the
//! reproducers are in `fuzz/crashes/`. See docs/security.md.

use anyhow::Result;

pub fn run(args: &[String]) -> Result<()> {
    let mut cargo_args = vec!["run", "--quiet", "--package", "sgw-fuzz", "--"];
    cargo_args.extend(args.iter().map(String::as_str));
    crate::cargo(&cargo_args)
}
