//! `cargo xtask bench-extract`: main-content extraction quality and speed of
//! `sgw-extract` beside trafilatura and readability-lxml, on the same pages, in
//! one run.
//!
//! - Pages: `../shared/benchmarks/article-extraction` relative to the workspace
//!   root, or `SGW_BENCH_EXTRACT_DIR`.
//! - Ours: the `bench` example of `sgw-extract`, built with `--release`.
//! - References: a venv under `target/bench-venv` (created on first run:
//!   `pip install -U pip`, then `trafilatura==2.3.1 readability-lxml==0.9`)
//!   running `xtask/scripts/bench_extract_refs.py` (trafilatura with its
//!   defaults and with `include_comments=False`, readability-lxml). `SGW_BENCH_SKIP_REFS=1`
//!   measures only ours.
//! - Metric: the benchmark README's (4-token shingles of `\w+` tokens, per-page
//!   precision and recall averaged over pages, F1 of the means).
//!
//! Every tool runs single-threaded; only the extraction call of each page is
//! timed (no process start-up, no file reading).

use anyhow::{Context, Result, bail};
use regex::Regex;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, workspace_root};

/// Page id → (extracted text, milliseconds).
type Predictions = HashMap<String, (String, f64)>;

pub fn run() -> Result<()> {
    let root = workspace_root();
    let dir = match std::env::var_os("SGW_BENCH_EXTRACT_DIR") {
        Some(d) => PathBuf::from(d),
        None => root.join("../shared/benchmarks/article-extraction"),
    };
    let truth_path = dir.join("ground-truth.json");
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(&truth_path).with_context(|| {
            format!(
                "cannot read {} (set SGW_BENCH_EXTRACT_DIR)",
                truth_path.display()
            )
        })?)
        .with_context(|| format!("{} is not JSON", truth_path.display()))?;
    let truth: HashMap<String, String> = truth
        .as_object()
        .context("ground truth is not an object")?
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v["articleBody"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();

    let mut results: Vec<(String, Predictions)> = Vec::new();

    cargo(&[
        "build",
        "--quiet",
        "--release",
        "-p",
        "sgw-extract",
        "--example",
        "bench",
    ])?;
    let exe = root.join("target/release/examples/bench");
    let out = Command::new(&exe)
        .arg(&dir)
        .output()
        .with_context(|| format!("cannot run {}", exe.display()))?;
    if !out.status.success() {
        bail!(
            "{} failed: {}",
            exe.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    results.push((
        "sgw-extract".into(),
        parse_tool(&serde_json::from_slice(&out.stdout)?)?,
    ));

    if std::env::var_os("SGW_BENCH_SKIP_REFS").is_none() {
        let python = ensure_venv(&root)?;
        let script = root.join("xtask/scripts/bench_extract_refs.py");
        let json_out = root.join("target/bench-extract-refs.json");
        eprintln!("$ {} {} …", python.display(), script.display());
        let status = Command::new(&python)
            .arg(&script)
            .arg(&dir)
            .arg(&json_out)
            .env("OMP_NUM_THREADS", "1")
            .status()
            .context("cannot run the reference script")?;
        if !status.success() {
            bail!("reference script failed with {status}");
        }
        let refs: Value = serde_json::from_str(&std::fs::read_to_string(&json_out)?)?;
        for tool in ["trafilatura", "trafilatura-no-comments", "readability-lxml"] {
            results.push((tool.into(), parse_tool(&refs[tool])?));
        }
    }

    let ids: Vec<&String> = {
        let mut v: Vec<&String> = truth.keys().collect();
        v.sort();
        v
    };
    println!("pages: {} ({})", ids.len(), dir.display());
    println!();
    println!("| extractor | F1 | precision | recall | ms/page (mean) | ms/page (median) |");
    println!("|---|---|---|---|---|---|");
    for (tool, preds) in &results {
        let mut ps = Vec::new();
        let mut rs = Vec::new();
        let mut times = Vec::new();
        for id in &ids {
            let (pred, ms) = preds.get(*id).cloned().unwrap_or_default();
            times.push(ms);
            let (p, r) = page_scores(&truth[*id], &pred);
            ps.extend(p);
            rs.extend(r);
        }
        let p = mean(&ps);
        let r = mean(&rs);
        let f1 = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        println!(
            "| {tool} | {f1:.3} | {p:.3} | {r:.3} | {:.2} | {median:.2} |",
            mean(&times)
        );
    }
    if let Ok(path) = std::env::var("SGW_BENCH_DUMP") {
        // Per-page F1 of ours, worst first: for looking at failures, not for tuning to pages.
        let (_, ours) = &results[0];
        let mut rows: Vec<(f64, &String)> = ids
            .iter()
            .map(|id| {
                let (p, r) = page_scores(
                    &truth[*id],
                    &ours.get(*id).map(|x| x.0.clone()).unwrap_or_default(),
                );
                let (p, r) = (p.unwrap_or(0.0), r.unwrap_or(0.0));
                (
                    if p + r > 0.0 {
                        2.0 * p * r / (p + r)
                    } else {
                        0.0
                    },
                    *id,
                )
            })
            .collect();
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        let text: String = rows
            .iter()
            .map(|(f, id)| format!("{f:.3} {id}\n"))
            .collect();
        std::fs::write(&path, text)?;
    }
    Ok(())
}

fn parse_tool(v: &Value) -> Result<Predictions> {
    let obj = v.as_object().context("tool output is not an object")?;
    Ok(obj
        .iter()
        .map(|(k, x)| {
            (
                k.clone(),
                (
                    x["text"].as_str().unwrap_or("").to_string(),
                    x["ms"].as_f64().unwrap_or(0.0),
                ),
            )
        })
        .collect())
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn shingles(text: &str) -> HashMap<Vec<&str>, i64> {
    static WORD: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let re = WORD.get_or_init(|| Regex::new(r"\w+").expect("valid regex"));
    let tokens: Vec<&str> = re.find_iter(text).map(|m| m.as_str()).collect();
    let mut out = HashMap::new();
    if tokens.is_empty() {
        return out;
    }
    if tokens.len() < 4 {
        out.insert(tokens, 1);
        return out;
    }
    for w in tokens.windows(4) {
        *out.entry(w.to_vec()).or_insert(0) += 1;
    }
    out
}

/// Per-page (precision, recall), each `None` when undefined (see the README).
pub fn page_scores(truth: &str, pred: &str) -> (Option<f64>, Option<f64>) {
    let t = shingles(truth);
    let p = shingles(pred);
    let (mut tp, mut fp, mut fneg) = (0i64, 0i64, 0i64);
    for (k, &tc) in &t {
        let pc = p.get(k).copied().unwrap_or(0);
        tp += tc.min(pc);
        fneg += (tc - pc).max(0);
    }
    for (k, &pc) in &p {
        let tc = t.get(k).copied().unwrap_or(0);
        fp += (pc - tc).max(0);
    }
    if fp == 0 && fneg == 0 {
        return (Some(1.0), Some(1.0));
    }
    // Normalising (tp, fp, fn) to sum 1 does not change the ratios.
    let (tp, fp, fneg) = (tp as f64, fp as f64, fneg as f64);
    let precision = (tp + fp > 0.0).then(|| tp / (tp + fp));
    let recall = (tp + fneg > 0.0).then(|| tp / (tp + fneg));
    (precision, recall)
}

fn ensure_venv(root: &Path) -> Result<PathBuf> {
    let venv = root.join("target/bench-venv");
    let python = venv.join("bin/python");
    let ready = Command::new(&python)
        .args([
            "-c",
            "import trafilatura, readability; assert trafilatura.__version__ == '2.3.1'",
        ])
        .status()
        .is_ok_and(|s| s.success());
    if ready {
        return Ok(python);
    }
    let run = |cmd: &mut Command| -> Result<()> {
        eprintln!("$ {cmd:?}");
        let status = cmd
            .status()
            .with_context(|| format!("cannot run {cmd:?}"))?;
        if !status.success() {
            bail!("{cmd:?} failed with {status}");
        }
        Ok(())
    };
    run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
    run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "-U", "pip"]))?;
    run(Command::new(&python).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "trafilatura==2.3.1",
        "readability-lxml==0.9",
    ]))?;
    Ok(python)
}

#[cfg(test)]
mod tests {
    use super::page_scores;

    #[test]
    fn metric_matches_the_readme() {
        assert_eq!(page_scores("", ""), (Some(1.0), Some(1.0)));
        assert_eq!(
            page_scores("a b c d e", "a b c d e"),
            (Some(1.0), Some(1.0))
        );
        // Truth has shingles abcd, bcde; prediction abcd only.
        assert_eq!(page_scores("a b c d e", "a b c d"), (Some(1.0), Some(0.5)));
        assert_eq!(page_scores("a b c d", ""), (None, Some(0.0)));
        assert_eq!(page_scores("a b", "a b"), (Some(1.0), Some(1.0)));
    }
}
