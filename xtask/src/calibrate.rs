//! `cargo xtask calibrate [--verbose] [--json] [--check] [--only ID,ID]`:
//! the calibration world of `sgw-testkit` (more than eighty labelled
//! questions over official sites, newspapers, a wire story, blogs, a SearXNG
//! instance, an archive, a mirror and blocked pages) through the real facade,
//! graded by `sgw_e2e::calibration`.
//!
//! Prints the reliability table (per confidence level: answers, requested
//! field right, %), conflicts and human requests expected vs raised, and the
//! citation-integrity counts. The run itself is the `calibrate` example of
//! `sgw-e2e`, so the grading code is the one the floor test uses.

use anyhow::Result;

use crate::cargo;

pub fn run(args: &[String]) -> Result<()> {
    let mut cmd = vec![
        "run",
        "--quiet",
        "--package",
        "sgw-e2e",
        "--example",
        "calibrate",
        "--",
    ];
    cmd.extend(args.iter().map(String::as_str));
    cargo(&cmd)
}
