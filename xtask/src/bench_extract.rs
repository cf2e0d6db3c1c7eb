//! `cargo xtask bench-extract`: extraction quality and speed of `sgw-extract`
//! beside the reference tools, on the same pages, in one run, over the three
//! shared corpora (one table each):
//!
//! - `article` — `../shared/benchmarks/article-extraction` (181 news pages with
//!   hand-annotated bodies). Metric: the corpus README's (4-token shingles of
//!   `\w+` tokens, per-page precision and recall averaged over pages, F1 of the
//!   means), reimplemented in [`page_scores`].
//! - `with-without` — `../shared/benchmarks/with-without` (945 pages of every
//!   kind, snippets that must / must not appear). Metric: the corpus's
//!   `evaluate.py` (whitespace-normalised substring matching summed over all
//!   snippets), reimplemented in [`snippet_counts`].
//! - `publish-dates` — `../shared/benchmarks/publish-dates`, scored by
//!   [`crate::bench_dates`] (sgw-extract's `published_at` beside htmldate
//!   1.11.0 in extensive mode).
//! - `authors` — the hand-labelled author set `xtask/data/authors.tsv` (pages
//!   of the first two corpora), scored by [`authors_table`] beside
//!   trafilatura's metadata author.
//!
//! `SGW_BENCH_DIR` replaces `../shared/benchmarks` (the corpora's parent).
//!
//! Options: `--corpus NAME` (repeatable; default: all four), `--no-refs`
//! (measure only ours), `--fresh-refs` (re-run the reference tools even when
//! their cached output is there). `SGW_BENCH_SKIP_REFS=1` is `--no-refs`.
//!
//! - Ours: the `bench` example of `sgw-extract`, built with `--release`, on
//!   the page bytes as stored (the whole `extract` entry point: charset
//!   decoding, parsing, metadata, main text).
//! - References: a venv under `target/bench-venv` (created on first run:
//!   `pip install -U pip`, then the pinned tools) running
//!   `xtask/scripts/bench_extract_refs.py`: trafilatura 2.3.1 with its defaults
//!   and with `include_comments=False`, readability-lxml 0.9. Their output per
//!   corpus is cached in `target/bench-extract/refs-<corpus>.json` (with the
//!   script's and the corpus's fingerprint), so repeated development runs only
//!   measure ours; the table says when the reference figures come from the
//!   cache.
//! - Every tool runs single-threaded; only the extraction call of each page is
//!   timed (no process start-up, no file reading). The speed column is the
//!   faster trafilatura configuration's mean ms/page divided by the tool's.
//!
//! Our per-page failures are written to `target/bench-extract/` for inspection
//! (`article-sgw.tsv`: per-page F1, worst first; `with-without-sgw.tsv`: the
//! snippets we miss or leak).

use anyhow::{Context, Result, bail};
use regex::Regex;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, workspace_root};

/// Page id → (extracted text, milliseconds).
type Predictions = HashMap<String, (String, f64)>;

const VENV_TOOLS: [&str; 3] = [
    "trafilatura==2.3.1",
    "readability-lxml==0.9",
    "htmldate==1.11.0",
];
const REF_TOOLS: [(&str, &str); 3] = [
    ("trafilatura", "trafilatura 2.3.1 (defaults)"),
    (
        "trafilatura-no-comments",
        "trafilatura 2.3.1 (`include_comments=False`)",
    ),
    ("readability-lxml", "readability-lxml 0.9"),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Corpus {
    Article,
    WithWithout,
    PublishDates,
    /// The labelled author set (`xtask/data/authors.tsv`), pages of the
    /// article and with/without corpora.
    Authors,
}

impl Corpus {
    const ALL: [Corpus; 4] = [
        Corpus::Article,
        Corpus::WithWithout,
        Corpus::PublishDates,
        Corpus::Authors,
    ];

    fn name(self) -> &'static str {
        match self {
            Corpus::Article => "article",
            Corpus::WithWithout => "with-without",
            Corpus::PublishDates => "publish-dates",
            Corpus::Authors => "authors",
        }
    }

    fn dir_name(self) -> &'static str {
        match self {
            Corpus::Article => "article-extraction",
            Corpus::WithWithout => "with-without",
            Corpus::PublishDates => "publish-dates",
            Corpus::Authors => "authors",
        }
    }

    fn parse(s: &str) -> Result<Corpus> {
        Corpus::ALL
            .into_iter()
            .find(|c| c.name() == s || c.dir_name() == s)
            .with_context(|| {
                format!("unknown corpus `{s}` (article, with-without, publish-dates, authors)")
            })
    }
}

#[derive(Debug)]
struct Options {
    corpora: Vec<Corpus>,
    refs: bool,
    fresh_refs: bool,
}

fn parse_args(args: &[String]) -> Result<Options> {
    let mut o = Options {
        corpora: Vec::new(),
        refs: std::env::var_os("SGW_BENCH_SKIP_REFS").is_none(),
        fresh_refs: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--corpus" => {
                let v = it.next().context("--corpus needs a value")?;
                for c in v.split(',') {
                    o.corpora.push(Corpus::parse(c.trim())?);
                }
            }
            s if s.starts_with("--corpus=") => {
                for c in s["--corpus=".len()..].split(',') {
                    o.corpora.push(Corpus::parse(c.trim())?);
                }
            }
            "--no-refs" => o.refs = false,
            "--fresh-refs" => o.fresh_refs = true,
            other => bail!(
                "unknown option `{other}` for bench-extract (--corpus NAME, --no-refs, --fresh-refs)"
            ),
        }
    }
    if o.corpora.is_empty() {
        o.corpora = Corpus::ALL.to_vec();
    }
    o.corpora.dedup();
    Ok(o)
}

pub fn run(args: &[String]) -> Result<()> {
    let opts = parse_args(args)?;
    let root = workspace_root();
    let bench_root = match std::env::var_os("SGW_BENCH_DIR") {
        Some(d) => PathBuf::from(d),
        None => root.join("../shared/benchmarks"),
    };
    let out_dir = root.join("target/bench-extract");
    std::fs::create_dir_all(&out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let needs_text = opts.corpora.iter().any(|c| *c != Corpus::PublishDates);
    let needs_refs_text = opts
        .corpora
        .iter()
        .any(|c| matches!(c, Corpus::Article | Corpus::WithWithout | Corpus::Authors));
    if needs_text {
        cargo(&[
            "build",
            "--quiet",
            "--release",
            "-p",
            "sgw-extract",
            "--example",
            "bench",
        ])?;
    }
    let python = if opts.refs && needs_refs_text {
        Some(ensure_venv(&root)?)
    } else {
        None
    };
    let mut report = String::new();
    for corpus in &opts.corpora {
        let dir = bench_root.join(corpus.dir_name());
        let table = match corpus {
            Corpus::PublishDates => dates_table(opts.refs)?,
            Corpus::Authors => authors_table(
                &root,
                &bench_root,
                &out_dir,
                python.as_deref(),
                opts.fresh_refs,
            )?,
            _ => text_table(*corpus, &root, &dir, &out_dir, python.as_deref(), &opts)?,
        };
        println!("{table}");
        report.push_str(&table);
        report.push('\n');
    }
    std::fs::write(out_dir.join("report.md"), &report)?;
    Ok(())
}

/// The publication-date table of [`crate::bench_dates`]; without references it
/// runs `bench-dates` in a child process with `SGW_BENCH_SKIP_REFS=1`.
fn dates_table(refs: bool) -> Result<String> {
    if refs {
        return crate::bench_dates::table();
    }
    let exe = std::env::current_exe().context("cannot find the xtask binary")?;
    let out = Command::new(&exe)
        .arg("bench-dates")
        .env("SGW_BENCH_SKIP_REFS", "1")
        .output()
        .with_context(|| format!("cannot run {} bench-dates", exe.display()))?;
    if !out.status.success() {
        bail!(
            "bench-dates failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn read_truth(dir: &Path) -> Result<serde_json::Map<String, Value>> {
    let path = dir.join("ground-truth.json");
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read {} (set SGW_BENCH_DIR to the corpora's parent)",
            path.display()
        )
    })?;
    let v: Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    match v {
        Value::Object(o) => Ok(o),
        _ => bail!("{} is not a JSON object", path.display()),
    }
}

fn text_table(
    corpus: Corpus,
    root: &Path,
    dir: &Path,
    out_dir: &Path,
    python: Option<&Path>,
    opts: &Options,
) -> Result<String> {
    let truth = read_truth(dir)?;
    let mut ids: Vec<&String> = truth.keys().collect();
    ids.sort();

    let mut results: Vec<(String, Predictions)> =
        vec![("sgw-extract".into(), parse_tool(&our_outputs(root, dir)?)?)];
    let mut cached = None;
    if let Some(python) = python {
        let (refs, from_cache) = reference_outputs(corpus, root, dir, out_dir, python, opts)?;
        for (tool, label) in REF_TOOLS {
            results.push((label.into(), parse_tool(&refs[tool])?));
        }
        cached = from_cache;
    }

    let mut t = String::new();
    let rows: Vec<Row> = results
        .iter()
        .map(|(tool, preds)| row(corpus, tool, preds, &truth, &ids))
        .collect();
    let traf_ms = rows
        .iter()
        .filter(|r| r.tool.starts_with("trafilatura"))
        .map(|r| r.mean_ms)
        .fold(f64::INFINITY, f64::min);
    match corpus {
        Corpus::Article => {
            writeln!(
                t,
                "Article bodies, {} pages (`{}`): shingle F1 as the corpus README defines it\n",
                ids.len(),
                dir.display()
            )?;
            writeln!(
                t,
                "| extractor | F1 | precision | recall | ms/page (mean) | ms/page (median) | speed vs trafilatura |"
            )?;
            writeln!(t, "|---|---|---|---|---|---|---|")?;
        }
        _ => {
            writeln!(
                t,
                "With/without snippets, {} pages (`{}`): the corpus's evaluate.py metric\n",
                ids.len(),
                dir.display()
            )?;
            writeln!(
                t,
                "| extractor | F1 | precision | recall | accuracy | ms/page (mean) | ms/page (median) | speed vs trafilatura |"
            )?;
            writeln!(t, "|---|---|---|---|---|---|---|---|")?;
        }
    }
    for r in &rows {
        let speed = if traf_ms.is_finite() && r.mean_ms > 0.0 {
            format!("{:.1}×", traf_ms / r.mean_ms)
        } else {
            "—".into()
        };
        match corpus {
            Corpus::Article => writeln!(
                t,
                "| {} | {:.3} | {:.3} | {:.3} | {:.2} | {:.2} | {speed} |",
                r.tool, r.f1, r.precision, r.recall, r.mean_ms, r.median_ms
            )?,
            _ => writeln!(
                t,
                "| {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.2} | {:.2} | {speed} |",
                r.tool, r.f1, r.precision, r.recall, r.accuracy, r.mean_ms, r.median_ms
            )?,
        }
    }
    if let Some(when) = cached {
        writeln!(
            t,
            "\n(reference figures from the cache, measured {when}; `--fresh-refs` measures them again)"
        )?;
    }
    write_failures(corpus, out_dir, &results[0].1, &truth, &ids)?;
    Ok(t)
}

struct Row {
    tool: String,
    f1: f64,
    precision: f64,
    recall: f64,
    accuracy: f64,
    mean_ms: f64,
    median_ms: f64,
}

fn row(
    corpus: Corpus,
    tool: &str,
    preds: &Predictions,
    truth: &serde_json::Map<String, Value>,
    ids: &[&String],
) -> Row {
    let mut times: Vec<f64> = ids
        .iter()
        .map(|id| preds.get(*id).map_or(0.0, |p| p.1))
        .collect();
    let mean_ms = mean(&times);
    times.sort_by(f64::total_cmp);
    let median_ms = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let text = |id: &str| preds.get(id).map_or("", |p| p.0.as_str());
    let (precision, recall, accuracy) = match corpus {
        Corpus::Article => {
            let (mut ps, mut rs) = (Vec::new(), Vec::new());
            for id in ids {
                let (p, r) =
                    page_scores(truth[*id]["articleBody"].as_str().unwrap_or(""), text(id));
                ps.extend(p);
                rs.extend(r);
            }
            (mean(&ps), mean(&rs), f64::NAN)
        }
        _ => {
            let mut c = SnippetCounts::default();
            for id in ids {
                c.add(snippet_counts(&truth[*id], text(id)));
            }
            (c.precision(), c.recall(), c.accuracy())
        }
    };
    Row {
        tool: tool.to_string(),
        f1: f1(precision, recall),
        precision,
        recall,
        accuracy,
        mean_ms,
        median_ms,
    }
}

fn f1(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

/// The output of our `bench` example on every page of `dir` (page id →
/// `{text, authors, ms}`); it must have been built (`run` builds it).
pub(crate) fn our_outputs(root: &Path, dir: &Path) -> Result<Value> {
    Ok(crate::example_json(root, "bench", dir)?.0)
}

/// Our failures, one per line, for looking at causes (not for tuning to pages).
fn write_failures(
    corpus: Corpus,
    out_dir: &Path,
    ours: &Predictions,
    truth: &serde_json::Map<String, Value>,
    ids: &[&String],
) -> Result<()> {
    let text = |id: &str| ours.get(id).map_or("", |p| p.0.as_str());
    let mut s = String::new();
    match corpus {
        Corpus::Article => {
            let mut rows: Vec<(f64, &String)> = ids
                .iter()
                .map(|id| {
                    let (p, r) =
                        page_scores(truth[*id]["articleBody"].as_str().unwrap_or(""), text(id));
                    (f1(p.unwrap_or(0.0), r.unwrap_or(0.0)), *id)
                })
                .collect();
            rows.sort_by(|a, b| a.0.total_cmp(&b.0));
            s.push_str("f1\tid\turl\n");
            for (f, id) in rows {
                let url = truth[id]["url"].as_str().unwrap_or("");
                writeln!(s, "{f:.3}\t{id}\t{url}")?;
            }
        }
        _ => {
            s.push_str("id\tkind\tsnippet\turl\n");
            for id in ids {
                let page = &truth[*id];
                let got = normalize_ws(text(id));
                let url = page["url"].as_str().unwrap_or("");
                for (key, kind, bad_if_found) in
                    [("with", "missed", false), ("without", "leaked", true)]
                {
                    for snip in page[key].as_array().into_iter().flatten() {
                        let snip = normalize_ws(snip.as_str().unwrap_or(""));
                        if got.contains(&snip) == bad_if_found {
                            writeln!(s, "{id}\t{kind}\t{snip}\t{url}")?;
                        }
                    }
                }
            }
        }
    }
    let path = out_dir.join(format!("{}-sgw.tsv", corpus.name()));
    std::fs::write(&path, s).with_context(|| format!("cannot write {}", path.display()))
}

/// The reference tools' output for `corpus`, from the cache when its
/// fingerprint matches, else measured now; the second value says when the
/// cached figures were measured.
fn reference_outputs(
    corpus: Corpus,
    root: &Path,
    dir: &Path,
    out_dir: &Path,
    python: &Path,
    opts: &Options,
) -> Result<(Value, Option<String>)> {
    let script = root.join("xtask/scripts/bench_extract_refs.py");
    let cache = out_dir.join(format!("refs-{}.json", corpus.name()));
    let key = fingerprint(&script, dir)?;
    if !opts.fresh_refs
        && let Ok(text) = std::fs::read_to_string(&cache)
        && let Ok(v) = serde_json::from_str::<Value>(&text)
        && v["_key"].as_str() == Some(key.as_str())
    {
        let when = v["_measured"].as_str().unwrap_or("earlier").to_string();
        return Ok((v, Some(when)));
    }
    let raw = out_dir.join(format!("refs-{}.tmp.json", corpus.name()));
    eprintln!(
        "$ {} {} {} … (reference tools, {})",
        python.display(),
        script.display(),
        corpus.name(),
        dir.display()
    );
    let status = Command::new(python)
        .arg(&script)
        .arg(corpus.name())
        .arg(dir)
        .arg(&raw)
        .env("OMP_NUM_THREADS", "1")
        .status()
        .context("cannot run the reference script")?;
    if !status.success() {
        bail!("reference script failed with {status}");
    }
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&raw)?)
        .context("reference script wrote no JSON")?;
    let _ = std::fs::remove_file(&raw);
    v["_key"] = Value::String(key);
    v["_measured"] = Value::String(now_utc());
    std::fs::write(&cache, serde_json::to_string(&v)?)
        .with_context(|| format!("cannot write {}", cache.display()))?;
    Ok((v, None))
}

/// Changes when the script, the tool pins or the corpus's truth change.
fn fingerprint(script: &Path, dir: &Path) -> Result<String> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::fs::read(script)
        .with_context(|| format!("cannot read {}", script.display()))?
        .hash(&mut h);
    VENV_TOOLS.hash(&mut h);
    let truth = dir.join("ground-truth.json");
    std::fs::read(&truth)
        .with_context(|| format!("cannot read {}", truth.display()))?
        .hash(&mut h);
    Ok(format!("{:016x}", h.finish()))
}

pub(crate) fn now_utc() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "earlier".into())
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

/// Per-page (precision, recall) of the article corpus, each `None` when
/// undefined (see the README).
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

/// Snippet counts of the with/without corpus, summed over pages.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SnippetCounts {
    pub tp: usize,
    pub fp: usize,
    pub fn_: usize,
    pub tn: usize,
}

impl SnippetCounts {
    fn add(&mut self, o: SnippetCounts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.tn += o.tn;
    }

    fn ratio(a: usize, b: usize) -> f64 {
        if b == 0 { 0.0 } else { a as f64 / b as f64 }
    }

    pub fn precision(&self) -> f64 {
        Self::ratio(self.tp, self.tp + self.fp)
    }

    pub fn recall(&self) -> f64 {
        Self::ratio(self.tp, self.tp + self.fn_)
    }

    pub fn accuracy(&self) -> f64 {
        Self::ratio(self.tp + self.tn, self.tp + self.fp + self.fn_ + self.tn)
    }
}

fn normalize_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One page of the with/without corpus as its `evaluate.py` scores it: a
/// `with` snippet found in the whitespace-normalised text is a true positive
/// (missing: a false negative), a `without` snippet found is a false positive
/// (absent: a true negative).
pub fn snippet_counts(page: &Value, text: &str) -> SnippetCounts {
    let text = normalize_ws(text);
    let mut c = SnippetCounts::default();
    for s in page["with"].as_array().into_iter().flatten() {
        if text.contains(&normalize_ws(s.as_str().unwrap_or(""))) {
            c.tp += 1;
        } else {
            c.fn_ += 1;
        }
    }
    for s in page["without"].as_array().into_iter().flatten() {
        if text.contains(&normalize_ws(s.as_str().unwrap_or(""))) {
            c.fp += 1;
        } else {
            c.tn += 1;
        }
    }
    c
}

/// One labelled page of the author set: corpus directory, page id, names.
struct AuthorLabel {
    corpus: String,
    id: String,
    names: Vec<String>,
}

/// Reads `xtask/data/authors.tsv` (`corpus<TAB>id<TAB>name; name`, `#`
/// comments; an empty name column: the page names no person).
fn read_author_labels(path: &Path) -> Result<Vec<AuthorLabel>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut cols = line.split('\t');
        let (Some(corpus), Some(id)) = (cols.next(), cols.next()) else {
            bail!(
                "{}:{}: expected corpus<TAB>id<TAB>names",
                path.display(),
                n + 1
            );
        };
        let names = cols
            .next()
            .unwrap_or("")
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        out.push(AuthorLabel {
            corpus: corpus.to_string(),
            id: id.to_string(),
            names,
        });
    }
    Ok(out)
}

/// A name as compared: lower case, whitespace collapsed, outer punctuation gone.
fn author_key(s: &str) -> String {
    normalize_ws(s)
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// Author counts over the labelled pages: names found and expected (true
/// positives), found but not expected, expected but missing, and pages whose
/// set of names is exactly right.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AuthorCounts {
    pub tp: usize,
    pub fp: usize,
    pub fn_: usize,
    pub exact_pages: usize,
    pub pages: usize,
}

impl AuthorCounts {
    /// Adds one page: `found` against `expected` (compared by [`author_key`]).
    pub fn add(&mut self, expected: &[String], found: &[String]) {
        let want: Vec<String> = expected.iter().map(|s| author_key(s)).collect();
        let mut got: Vec<String> = found.iter().map(|s| author_key(s)).collect();
        got.dedup();
        let tp = got.iter().filter(|g| want.contains(g)).count();
        self.tp += tp;
        self.fp += got.len() - tp;
        self.fn_ += want.iter().filter(|w| !got.contains(w)).count();
        self.pages += 1;
        let mut a = want.clone();
        let mut b = got.clone();
        a.sort();
        b.sort();
        if a == b {
            self.exact_pages += 1;
        }
    }

    fn precision(&self) -> f64 {
        SnippetCounts::ratio(self.tp, self.tp + self.fp)
    }

    fn recall(&self) -> f64 {
        SnippetCounts::ratio(self.tp, self.tp + self.fn_)
    }

    fn accuracy(&self) -> f64 {
        SnippetCounts::ratio(self.exact_pages, self.pages)
    }
}

/// The author table: our `authors` beside trafilatura's metadata author on
/// the labelled pages of `xtask/data/authors.tsv`. Our misses go to
/// `target/bench-extract/authors-sgw.tsv`.
fn authors_table(
    root: &Path,
    bench_root: &Path,
    out_dir: &Path,
    python: Option<&Path>,
    fresh_refs: bool,
) -> Result<String> {
    let labels_path = root.join("xtask/data/authors.tsv");
    let labels = read_author_labels(&labels_path)?;
    let mut ours: HashMap<String, Value> = HashMap::new();
    for l in &labels {
        if !ours.contains_key(&l.corpus) {
            ours.insert(
                l.corpus.clone(),
                our_outputs(root, &bench_root.join(&l.corpus))?,
            );
        }
    }
    let names_of = |v: &Value| -> Vec<String> {
        v["authors"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a.as_str().map(str::to_string))
            .collect()
    };
    let mut rows: Vec<(String, AuthorCounts, f64)> = Vec::new();
    let mut counts = AuthorCounts::default();
    let mut ms = Vec::new();
    let mut misses = String::from("corpus\tid\texpected\tfound\n");
    for l in &labels {
        let page = &ours[&l.corpus][&l.id];
        let found = names_of(page);
        let before = counts.exact_pages;
        counts.add(&l.names, &found);
        if counts.exact_pages == before {
            writeln!(
                misses,
                "{}\t{}\t{}\t{}",
                l.corpus,
                l.id,
                l.names.join("; "),
                found.join("; ")
            )?;
        }
        ms.push(page["ms"].as_f64().unwrap_or(0.0));
    }
    std::fs::write(out_dir.join("authors-sgw.tsv"), misses)?;
    rows.push(("sgw-extract (whole `extract`)".into(), counts, mean(&ms)));
    let mut cached = None;
    if let Some(python) = python {
        let script = root.join("xtask/scripts/bench_authors_refs.py");
        let cache = out_dir.join("refs-authors.json");
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            std::fs::read(&script)
                .with_context(|| format!("cannot read {}", script.display()))?
                .hash(&mut h);
            std::fs::read(&labels_path)?.hash(&mut h);
            VENV_TOOLS.hash(&mut h);
            format!("{:016x}", h.finish())
        };
        let refs = match std::fs::read_to_string(&cache)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        {
            Some(v) if !fresh_refs && v["_key"].as_str() == Some(key.as_str()) => {
                cached = Some(v["_measured"].as_str().unwrap_or("earlier").to_string());
                v
            }
            _ => {
                let raw = out_dir.join("refs-authors.tmp.json");
                let status = Command::new(python)
                    .arg(&script)
                    .arg(&labels_path)
                    .arg(bench_root)
                    .arg(&raw)
                    .env("OMP_NUM_THREADS", "1")
                    .status()
                    .context("cannot run the author reference script")?;
                if !status.success() {
                    bail!("author reference script failed with {status}");
                }
                let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&raw)?)
                    .context("author reference script wrote no JSON")?;
                let _ = std::fs::remove_file(&raw);
                v["_key"] = Value::String(key);
                v["_measured"] = Value::String(now_utc());
                std::fs::write(&cache, serde_json::to_string(&v)?)
                    .with_context(|| format!("cannot write {}", cache.display()))?;
                v
            }
        };
        let mut counts = AuthorCounts::default();
        let mut ms = Vec::new();
        for l in &labels {
            let page = &refs[format!("{}/{}", l.corpus, l.id)];
            counts.add(&l.names, &names_of(page));
            ms.push(page["ms"].as_f64().unwrap_or(0.0));
        }
        rows.push((
            "trafilatura 2.3.1 (`extract_metadata`)".into(),
            counts,
            mean(&ms),
        ));
    }
    let with_names = labels.iter().filter(|l| !l.names.is_empty()).count();
    let mut t = format!(
        "Authors, {} labelled pages ({} with a named author, {} without; `{}`): names compared \
         case-insensitively; accuracy = pages whose set of names is exactly right\n\n\
         | extractor | precision | recall | F1 | accuracy | ms/page |\n|---|---|---|---|---|---|\n",
        labels.len(),
        with_names,
        labels.len() - with_names,
        labels_path
            .strip_prefix(root)
            .unwrap_or(&labels_path)
            .display()
    );
    for (tool, c, ms) in rows {
        writeln!(
            t,
            "| {tool} | {:.3} | {:.3} | {:.3} | {:.3} | {ms:.2} |",
            c.precision(),
            c.recall(),
            f1(c.precision(), c.recall()),
            c.accuracy()
        )?;
    }
    if let Some(when) = cached {
        writeln!(
            t,
            "\n(reference figures from the cache, measured {when}; `--fresh-refs` measures them again)"
        )?;
    }
    Ok(t)
}

/// The reference tools' venv under `target/bench-venv` (trafilatura,
/// readability-lxml, htmldate at pinned versions), created on first use.
pub(crate) fn ensure_venv(root: &Path) -> Result<PathBuf> {
    let venv = root.join("target/bench-venv");
    let python = venv.join("bin/python");
    let ready = Command::new(&python)
        .args([
            "-c",
            "import trafilatura, readability, htmldate; \
             assert trafilatura.__version__ == '2.3.1' and htmldate.__version__ == '1.11.0'",
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
    if !python.exists() {
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
    }
    run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "-U", "pip"]))?;
    run(Command::new(&python)
        .args(["-m", "pip", "install", "--quiet"])
        .args(VENV_TOOLS))?;
    Ok(python)
}

#[cfg(test)]
mod tests {
    use super::{AuthorCounts, Corpus, SnippetCounts, page_scores, parse_args, snippet_counts};
    use serde_json::json;

    #[test]
    fn article_metric_matches_the_readme() {
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

    #[test]
    fn snippet_metric_matches_evaluate_py() {
        let page = json!({
            "with": ["main  text\nhere", "missing one"],
            "without": ["Cookie notice", "Menu"],
        });
        // Whitespace is normalised on both sides; matching is by substring.
        let c = snippet_counts(&page, "The main text   here, and a\tCookie notice.");
        assert_eq!(
            c,
            SnippetCounts {
                tp: 1,
                fn_: 1,
                fp: 1,
                tn: 1
            }
        );
        assert_eq!(c.precision(), 0.5);
        assert_eq!(c.recall(), 0.5);
        assert_eq!(c.accuracy(), 0.5);
        // No output: every `with` missed, every `without` absent.
        let c = snippet_counts(&page, "");
        assert_eq!((c.tp, c.fn_, c.fp, c.tn), (0, 2, 0, 2));
        assert_eq!(c.precision(), 0.0);
    }

    #[test]
    fn author_metric_counts_names_and_exact_pages() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let mut c = AuthorCounts::default();
        // Case and spacing do not matter; order does not matter.
        c.add(&s(&["Ann Lee", "Bo Chen"]), &s(&["bo  chen", "ANN LEE"]));
        // One right, one wrong, one missing.
        c.add(&s(&["Ann Lee", "Bo Chen"]), &s(&["Ann Lee", "Staff"]));
        // No author expected, none found: an exact page with no counts.
        c.add(&[], &[]);
        assert_eq!(
            c,
            AuthorCounts {
                tp: 3,
                fp: 1,
                fn_: 1,
                exact_pages: 2,
                pages: 3
            }
        );
        assert_eq!(c.precision(), 0.75);
        assert!((c.accuracy() - 2.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn options() {
        let args = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let o = parse_args(&args(&["--corpus", "with-without", "--no-refs"])).unwrap();
        assert_eq!(o.corpora, vec![Corpus::WithWithout]);
        assert!(!o.refs);
        let o = parse_args(&args(&["--corpus=article,publish-dates"])).unwrap();
        assert_eq!(o.corpora, vec![Corpus::Article, Corpus::PublishDates]);
        let o = parse_args(&[]).unwrap();
        assert_eq!(o.corpora.len(), 4);
        assert!(parse_args(&args(&["--corpus", "nope"])).is_err());
        assert!(parse_args(&args(&["--fast"])).is_err());
    }
}
