//! `cargo xtask bench-chain [--quick] [--only GROUP,…]`: the whole chain, in process, on the
//! simulated web — raw fetch vs full search, cached answers (1k vs 100k
//! entries), a black-holed official host (first and later searches, with and
//! without hedging), 1/4/16 sources, 10 KB vs 1 MB pages, 1/8/64 concurrent
//! searches — then `sgw --version` vs an `sgw search` cache hit and the peak
//! RSS of a search, as processes. Prints one table with ratios and the
//! issue's targets (met or not).
//!
//! The run itself is the `bench_chain` example of `sgw-e2e` (release build);
//! the `sgw` binary is built in release too and handed over as `SGW_BIN`.
//! `--only` picks case groups (pages, cache, black-hole, sources,
//! concurrency, processes), e.g. `--only pages` for the 10 KB / 1 MB rows;
//! `--repeat-search KB N` runs only the full search of a KB-KiB page N times
//! (run `target/release/examples/bench_chain --repeat-search 10 300` under
//! a profiler to see where a search goes); `--repeat-later N` runs only the
//! later searches of the black-holed host (no hedging), printing the
//! attempts of one.

use anyhow::{Context, Result};
use std::process::Command;

use crate::{cargo, workspace_root};

pub fn run(args: &[String]) -> Result<()> {
    cargo(&[
        "build",
        "--quiet",
        "--release",
        "-p",
        "sgw-e2e",
        "--example",
        "bench_chain",
    ])?;
    // The process-level cases need `sgw`; without it the in-process table still runs.
    let sgw = cargo(&[
        "build",
        "--quiet",
        "--release",
        "-p",
        "sgw-cli",
        "--bin",
        "sgw",
    ]);
    if let Err(e) = &sgw {
        eprintln!("warning: {e:#}: process-level cases skipped");
    }
    let root = workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let bench = target.join("release/examples/bench_chain");
    let mut cmd = Command::new(&bench);
    cmd.args(args).current_dir(&root);
    if sgw.is_ok() {
        cmd.env("SGW_BIN", target.join("release/sgw"));
    }
    let status = cmd
        .status()
        .with_context(|| format!("cannot run {}", bench.display()))?;
    anyhow::ensure!(status.success(), "bench_chain failed with {status}");
    Ok(())
}
