//! `cargo xtask bench-dates`: publication-date quality of `sgw-extract`
//! (`published_at`) beside htmldate, on the same pages.
//!
//! - Pages: `../shared/benchmarks/publish-dates` relative to the workspace root,
//!   or `publish-dates` under `SGW_BENCH_DIR`, or `SGW_BENCH_DATES_DIR`
//!   (`ground-truth.json` + `html/<id>.html.gz`).
//! - Ours: the `bench_dates` example of `sgw-extract`, built with `--release`,
//!   given each page's URL.
//! - Reference: htmldate 1.11.0 `find_date(original_date=True,
//!   extensive_search=True)` run by `xtask/scripts/bench_dates_refs.py` in the
//!   venv `target/bench-venv` (htmldate is pip-installed there when missing).
//!   Its output is cached in `target/bench-dates/htmldate-1.11.0.json`; delete
//!   the file to measure again. `SGW_BENCH_SKIP_REFS=1` measures only ours.
//! - Metric: the corpus README's (and htmldate's): a predicted day equal to the
//!   reference is a true positive, another day a false positive, no date a false
//!   negative; accuracy = correct / all pages.
//!
//! Our predictions and a list of the pages we get wrong are written to
//! `target/bench-dates/` for inspection.

use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, workspace_root};

/// Precision, recall, F1 and accuracy over `truth` (page id → reference day).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scores {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
}

/// Scores predictions (page id → `YYYY-MM-DD…` or `None`) as the corpus's
/// `evaluate.py` does: only the first ten characters (the day) count.
pub fn score(
    truth: &BTreeMap<String, Option<String>>,
    pred: &BTreeMap<String, Option<String>>,
) -> Scores {
    let (mut tp, mut fp, mut fne) = (0usize, 0usize, 0usize);
    for (id, reference) in truth {
        match pred.get(id).and_then(|p| p.as_deref()).map(day) {
            None | Some("") => fne += 1,
            Some(p) if Some(p) == reference.as_deref() => tp += 1,
            Some(_) => fp += 1,
        }
    }
    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let precision = ratio(tp, tp + fp);
    let recall = ratio(tp, tp + fne);
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    Scores {
        precision,
        recall,
        f1,
        accuracy: ratio(tp, truth.len()),
    }
}

fn day(s: &str) -> &str {
    s.get(..10).unwrap_or(s)
}

/// The corpus directory: `SGW_BENCH_DATES_DIR`, else `publish-dates` under
/// `SGW_BENCH_DIR` (as `bench-extract` reads it), else under
/// `../shared/benchmarks`.
fn corpus_dir(root: &Path) -> PathBuf {
    if let Some(d) = std::env::var_os("SGW_BENCH_DATES_DIR") {
        return PathBuf::from(d);
    }
    match std::env::var_os("SGW_BENCH_DIR") {
        Some(d) => PathBuf::from(d).join("publish-dates"),
        None => root.join("../shared/benchmarks/publish-dates"),
    }
}

fn read_json(path: &Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    // The corpus writes a missing reference as Python's bare `NaN`.
    let text = text.replace(": NaN", ": null");
    serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))
}

/// Runs the whole benchmark and returns the Markdown table (one row per tool:
/// precision, recall, F1, accuracy, ms/page). `bench-extract` calls this to
/// print the publication-date table in its run.
pub fn table() -> Result<String> {
    let root = workspace_root();
    let dir = corpus_dir(&root);
    let truth_json = read_json(&dir.join("ground-truth.json"))
        .context("publication-date corpus missing (set SGW_BENCH_DATES_DIR)")?;
    let truth_obj = truth_json
        .as_object()
        .context("ground-truth.json is not an object")?;
    // A reference that is not a date (NaN in the corpus) can never be matched.
    let truth: BTreeMap<String, Option<String>> = truth_obj
        .iter()
        .map(|(k, v)| (k.clone(), v["date"].as_str().map(str::to_string)))
        .collect();
    let out_dir = root.join("target/bench-dates");
    std::fs::create_dir_all(&out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;

    cargo(&[
        "build",
        "--quiet",
        "--release",
        "-p",
        "sgw-extract",
        "--example",
        "bench_dates",
    ])?;
    let (ours, printed) = crate::example_json(&root, "bench_dates", &dir)?;
    std::fs::write(out_dir.join("sgw.json"), &printed)?;
    let ours = ours
        .as_object()
        .context("bench_dates output not an object")?;
    let our_pred: BTreeMap<String, Option<String>> = ours
        .iter()
        .map(|(k, v)| (k.clone(), v["published"].as_str().map(str::to_string)))
        .collect();
    let our_ms = mean_ms(ours.values());
    write_errors(&out_dir.join("sgw-errors.tsv"), truth_obj, &our_pred)?;

    let mut rows = vec![(
        "sgw-extract (`published_at`)".to_string(),
        score(&truth, &our_pred),
        our_ms,
    )];
    if std::env::var_os("SGW_BENCH_SKIP_REFS").is_none() {
        match htmldate(&root, &dir, &out_dir) {
            Ok(refs) => {
                let pred = refs
                    .iter()
                    .map(|(k, v)| (k.clone(), v["date"].as_str().map(str::to_string)))
                    .collect();
                rows.push((
                    "htmldate 1.11.0, extensive".to_string(),
                    score(&truth, &pred),
                    mean_ms(refs.values()),
                ));
            }
            Err(e) => eprintln!("htmldate skipped: {e:#}"),
        }
    }
    let mut t = format!(
        "Publication dates, {} pages (`{}`)\n\n| extractor | precision | recall | F1 | accuracy | ms/page |\n|---|---|---|---|---|---|\n",
        truth.len(),
        dir.display()
    );
    for (name, s, ms) in rows {
        writeln!(
            t,
            "| {name} | {:.3} | {:.3} | {:.3} | {:.3} | {ms:.2} |",
            s.precision, s.recall, s.f1, s.accuracy
        )?;
    }
    Ok(t)
}

pub fn run() -> Result<()> {
    print!("{}", table()?);
    Ok(())
}

fn mean_ms<'a>(values: impl Iterator<Item = &'a Value>) -> f64 {
    let ms: Vec<f64> = values.filter_map(|v| v["ms"].as_f64()).collect();
    if ms.is_empty() {
        0.0
    } else {
        ms.iter().sum::<f64>() / ms.len() as f64
    }
}

/// One line per page we get wrong: id, reference, prediction, URL.
fn write_errors(
    path: &Path,
    truth: &serde_json::Map<String, Value>,
    pred: &BTreeMap<String, Option<String>>,
) -> Result<()> {
    let mut s = String::from("id\treference\tpredicted\turl\n");
    for (id, v) in truth {
        let reference = v["date"].as_str().unwrap_or("-");
        let p = pred.get(id).cloned().flatten().unwrap_or_default();
        if day(&p) != reference {
            let url = v["url"].as_str().unwrap_or("");
            writeln!(
                s,
                "{id}\t{reference}\t{}\t{url}",
                if p.is_empty() { "-" } else { &p }
            )?;
        }
    }
    std::fs::write(path, s).with_context(|| format!("cannot write {}", path.display()))
}

/// htmldate's predictions, from the cache or by running the reference script.
fn htmldate(root: &Path, dir: &Path, out_dir: &Path) -> Result<serde_json::Map<String, Value>> {
    let cache = out_dir.join("htmldate-1.11.0.json");
    if !cache.exists() {
        let python = ensure_htmldate(root)?;
        let script = root.join("xtask/scripts/bench_dates_refs.py");
        eprintln!("running htmldate on {} (cached afterwards)", dir.display());
        let status = Command::new(&python)
            .arg(&script)
            .arg(dir)
            .arg(&cache)
            .status()
            .with_context(|| format!("cannot run {}", script.display()))?;
        if !status.success() {
            bail!("{} failed with {status}", script.display());
        }
    }
    Ok(read_json(&cache)?
        .as_object()
        .context("htmldate output is not an object")?
        .clone())
}

/// The venv's python with htmldate installed: the one reference venv of
/// `bench-extract` (created on first use).
fn ensure_htmldate(root: &Path) -> Result<PathBuf> {
    crate::bench_extract::ensure_venv(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_matches_evaluate_py() {
        let truth: BTreeMap<_, _> = [
            ("a", Some("2020-01-02")),
            ("b", Some("2021-05-06")),
            ("c", Some("2019-12-31")),
            ("d", None),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
        .collect();
        let pred: BTreeMap<_, _> = [
            ("a", Some("2020-01-02T10:00:00Z")),
            ("b", Some("2021-05-07")),
            ("c", None),
            ("d", Some("2020-01-01")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
        .collect();
        let s = score(&truth, &pred);
        assert!((s.precision - 1.0 / 3.0).abs() < 1e-9);
        assert!((s.recall - 0.5).abs() < 1e-9);
        assert!((s.accuracy - 0.25).abs() < 1e-9);
    }
}
