//! `cargo xtask <task>`: everything beyond `cargo test`.
//!
//! Tasks are plain functions; each lives in its own module when it grows.

mod bench_chain;
mod bench_dates;
mod bench_extract;
mod calibrate;
mod fuzz;

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  ci             fmt --check, clippy -D warnings, docs, `package`, the test suite, fuzzing, the slim
                 facade builds (what .ci/run does)
  package        [--no-verify] `cargo package` of every library crate; by default each package is
                 also built from its .crate the way a registry user would (~12 CPU-minutes)
  policy-check   validate every policy under policies/ with `sgw policy check`
  fuzz           [TARGET] [--seconds N] [--seed S] [--list]: structure-aware fuzzing of every
                 parser under time and memory budgets (N s split over all targets when none given)
  bench-chain    [--quick] [--only GROUP,…] the chain in process on the simulated web: overhead, cache, black-holed
                 host, sources, page sizes, concurrency; `sgw` process start and peak RSS
  bench-dates    publication-date precision/recall/accuracy: sgw-extract vs htmldate
  bench-extract  [--corpus article|with-without|publish-dates] [--no-refs] [--fresh-refs]
                 body F1 on both text corpora, dates on publish-dates, ms/page: sgw-extract vs
                 trafilatura, readability-lxml, htmldate (one table per corpus)
  calibrate      the labelled calibration world: reliability table per confidence level, flags, citations
                 (--verbose lists wrong answers, --json, --check fails below the floor, --only ID,ID)
";

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    match task.as_deref() {
        Some("ci") => ci(),
        Some("policy-check") => policy_check(),
        Some("package") => package(&rest),
        Some("fuzz") => fuzz::run(&rest),
        Some("bench-chain") => bench_chain::run(&rest),
        Some("bench-dates") => bench_dates::run(),
        Some("bench-extract") => bench_extract::run(&rest),
        Some("calibrate") => calibrate::run(&rest),
        Some("-h" | "--help") | None => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => bail!("unknown task `{other}` (args {rest:?})\n\n{USAGE}"),
    }
}

/// The workspace root (the parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// Runs `cargo <args>` in the workspace root, failing on a non-zero exit.
pub fn cargo(args: &[&str]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("$ cargo {}", args.join(" "));
    let status = Command::new(cargo)
        .args(args)
        .current_dir(workspace_root())
        .status()
        .with_context(|| format!("cannot run cargo {}", args.join(" ")))?;
    if !status.success() {
        bail!("cargo {} failed with {status}", args.join(" "));
    }
    Ok(())
}

/// Runs the release build of the example `name` (built beforehand) on the
/// corpus folder `dir`: the JSON it prints, parsed, and as printed.
pub fn example_json(root: &Path, name: &str, dir: &Path) -> Result<(serde_json::Value, Vec<u8>)> {
    let exe = root.join("target/release/examples").join(name);
    let out = Command::new(&exe)
        .arg(dir)
        .output()
        .with_context(|| format!("cannot run {}", exe.display()))?;
    if !out.status.success() {
        bail!(
            "{} failed: {}",
            exe.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let json = serde_json::from_slice(&out.stdout)
        .with_context(|| format!("{} printed no JSON", exe.display()))?;
    Ok((json, out.stdout))
}

fn ci() -> Result<()> {
    cargo(&["fmt", "--all", "--check"])?;
    cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;
    doc()?;
    // Before the tests, which may leave files in the tree.
    package(&[])?;
    cargo(&["test", "--workspace"])?;
    fuzz::run(&["--seconds".into(), "220".into()])?;
    cargo(&[
        "test",
        "-p",
        "search-gateway",
        "--no-default-features",
        "--features",
        "feed",
    ])?;
    cargo(&["check", "-p", "search-gateway", "--no-default-features"])?;
    for backend in ["sqlite", "postgres"] {
        cargo(&[
            "clippy",
            "-p",
            "sgw-store",
            "--all-targets",
            "--no-default-features",
            "--features",
            backend,
            "--",
            "-D",
            "warnings",
        ])?;
    }
    Ok(())
}

/// The API docs of every library crate, failing on a broken link or warning.
fn doc() -> Result<()> {
    let mut args = vec!["doc", "--no-deps", "--workspace"];
    for name in NOT_PACKAGED {
        args.extend(["--exclude", name]);
    }
    let cargo_bin = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("$ RUSTDOCFLAGS=\"-D warnings\" cargo {}", args.join(" "));
    let status = Command::new(cargo_bin)
        .args(&args)
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(workspace_root())
        .status()
        .context("cannot run cargo doc")?;
    if !status.success() {
        bail!("cargo doc failed with {status}");
    }
    Ok(())
}

/// The crates of the workspace that are not libraries for others to use.
const NOT_PACKAGED: &[&str] = &["sgw-e2e", "sgw-fuzz", "xtask"];

/// `cargo package` of every library crate (`--no-verify` skips building each package).
fn package(args: &[String]) -> Result<()> {
    let mut cmd = vec!["package", "--workspace"];
    for name in NOT_PACKAGED {
        cmd.extend(["--exclude", name]);
    }
    for arg in args {
        match arg.as_str() {
            "--no-verify" => cmd.push("--no-verify"),
            other => bail!("package: unknown argument `{other}` (only --no-verify)"),
        }
    }
    cargo(&cmd)
}

fn policy_check() -> Result<()> {
    let dir = workspace_root().join("policies");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    let mut args = vec![
        "run",
        "--quiet",
        "--package",
        "sgw-cli",
        "--bin",
        "sgw",
        "--",
        "policy",
        "check",
    ];
    args.extend(files.iter().map(String::as_str));
    cargo(&args)
}
