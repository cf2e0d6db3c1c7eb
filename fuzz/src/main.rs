//! `sgw-fuzz [TARGET] [--seconds N] [--seed S]` (run as `cargo xtask fuzz`):
//! continuous fuzzing on stable Rust, without coverage instrumentation.
//!
//! A **supervisor** runs one **worker** process per target (this binary
//! again, with `--worker`). The worker generates inputs with the
//! structure-aware mutator (`mutate.rs`) from the target's seeds and runs the
//! target (`targets.rs`) on each, writing the input it is about to run to
//! `fuzz/crashes/.inflight-TARGET` first. The supervisor polls the worker:
//!
//! - it exits abnormally (a panic, an abort, a signal) → **crash**;
//! - the in-flight input is older than the target's time budget → **timeout**;
//! - its resident memory exceeds [`MEMORY_BUDGET`] → **memory**.
//!
//! Each failure kills the worker, saves the input as a reproducer
//! `fuzz/crashes/TARGET-KIND-HASH.bin` and starts a new worker until the
//! target's budget is spent. Replay one with `sgw-fuzz --replay FILE TARGET`.
//! The exit code is 1 when any target failed.
//!
//! `--seconds N` is the budget of TARGET, or, without a target, of the whole
//! run, split evenly over every target.

mod mutate;
mod targets;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant, SystemTime};
use targets::{State, TARGETS, Target};

/// Peak resident memory a worker may reach (1 GiB, the gateway's promise).
const MEMORY_BUDGET: u64 = 1 << 30;

fn crashes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crashes")
}

fn main() -> ExitCode {
    // The PDF target runs extraction in a memory-limited worker of this binary.
    sgw_extract::worker_hook();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sgw-fuzz: {e}");
            ExitCode::from(2)
        }
    }
}

fn usage() -> String {
    let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
    format!(
        "usage: sgw-fuzz [TARGET] [--seconds N] [--seed S] | --list | --replay FILE TARGET\ntargets: {}",
        names.join(", ")
    )
}

fn target(name: &str) -> Result<&'static Target, String> {
    TARGETS
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| format!("unknown target `{name}`\n{}", usage()))
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut seconds = 20u64 * TARGETS.len() as u64;
    let mut seed = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut only = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--worker" => {
                let t = target(args.get(i + 1).ok_or("--worker TARGET SEED UNTIL_MS")?)?;
                let seed = args.get(i + 2).and_then(|s| s.parse().ok()).ok_or("seed")?;
                let until = args
                    .get(i + 3)
                    .and_then(|s| s.parse().ok())
                    .ok_or("until")?;
                worker(t, seed, until);
                return Ok(ExitCode::SUCCESS);
            }
            "--replay" => {
                let file = args.get(i + 1).ok_or("--replay FILE TARGET")?;
                let t = target(args.get(i + 2).ok_or("--replay FILE TARGET")?)?;
                let data = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
                let mut state = State::new(&scratch(t.name));
                let start = Instant::now();
                (t.run)(&mut state, &data);
                println!("{}: ran in {:?} without a panic", t.name, start.elapsed());
                return Ok(ExitCode::SUCCESS);
            }
            "--seconds" => {
                i += 1;
                seconds = args
                    .get(i)
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| format!("--seconds needs a number\n{}", usage()))?;
            }
            "--seed" => {
                i += 1;
                seed = args
                    .get(i)
                    .and_then(|s| s.parse().ok())
                    .ok_or("--seed needs a number")?;
            }
            "--list" => {
                for t in TARGETS {
                    println!(
                        "{:<12} ≤{} KiB, {} s per input: {}",
                        t.name,
                        t.max_len >> 10,
                        t.time_budget.as_secs(),
                        t.guarantee
                    );
                }
                return Ok(ExitCode::SUCCESS);
            }
            "-h" | "--help" => {
                println!("{}", usage());
                return Ok(ExitCode::SUCCESS);
            }
            name => only = Some(target(name)?),
        }
        i += 1;
    }
    let chosen: Vec<&Target> = match only {
        Some(t) => vec![t],
        None => TARGETS.iter().collect(),
    };
    let per_target = Duration::from_secs((seconds / chosen.len() as u64).max(2));
    std::fs::create_dir_all(crashes_dir()).map_err(|e| format!("fuzz/crashes: {e}"))?;
    println!(
        "sgw-fuzz: {} target(s), {} s each, seed {seed}, memory budget {} MiB",
        chosen.len(),
        per_target.as_secs(),
        MEMORY_BUDGET >> 20
    );
    let mut failed = 0;
    for (n, t) in chosen.iter().enumerate() {
        let report = supervise(t, seed.wrapping_add(n as u64 * 1_000_003), per_target)?;
        println!(
            "{:<12} {:>8} inputs  peak RSS {:>5} MiB  longest input {:>6} ms  {}",
            t.name,
            report.inputs,
            report.peak_rss >> 20,
            report.longest.as_millis(),
            if report.failures.is_empty() {
                "ok".to_string()
            } else {
                format!("{} FAILURE(S)", report.failures.len())
            }
        );
        for f in &report.failures {
            println!("  {f}");
        }
        failed += report.failures.len();
    }
    if failed > 0 {
        println!("sgw-fuzz: {failed} failure(s); reproducers in fuzz/crashes/");
        return Ok(ExitCode::from(1));
    }
    println!("sgw-fuzz: no failures");
    Ok(ExitCode::SUCCESS)
}

#[derive(Default)]
struct Report {
    inputs: u64,
    peak_rss: u64,
    longest: Duration,
    failures: Vec<String>,
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("sgw-fuzz-{}-{name}", std::process::id()))
}

fn inflight(name: &str) -> PathBuf {
    crashes_dir().join(format!(".inflight-{name}"))
}

/// Runs workers for `t` until `budget` is spent, watching each.
fn supervise(t: &Target, mut seed: u64, budget: Duration) -> Result<Report, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let end = SystemTime::now() + budget;
    let mut report = Report::default();
    while SystemTime::now() < end && report.failures.len() < 3 {
        let until_ms = end
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_err(|e| e.to_string())?
            .as_millis();
        let _ = std::fs::remove_file(inflight(t.name));
        let mut child = Command::new(&exe)
            .args(["--worker", t.name, &seed.to_string(), &until_ms.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start a worker: {e}"))?;
        let pid = child.id();
        let failure = loop {
            std::thread::sleep(Duration::from_millis(50));
            if let Some(rss) = rss_of(pid) {
                report.peak_rss = report.peak_rss.max(rss);
                if rss > MEMORY_BUDGET {
                    break Some("memory");
                }
            }
            if let Ok(age) = std::fs::metadata(inflight(t.name))
                .and_then(|m| m.modified())
                .map(|m| m.elapsed().unwrap_or_default())
            {
                report.longest = report.longest.max(age.min(t.time_budget));
                if age > t.time_budget {
                    break Some("timeout");
                }
            }
            match child.try_wait() {
                Ok(Some(status)) if status.success() => break None,
                Ok(Some(_)) => break Some("crash"),
                Ok(None) => {}
                Err(e) => return Err(format!("waiting for the worker: {e}")),
            }
            if SystemTime::now() > end + t.time_budget + Duration::from_secs(5) {
                break Some("timeout");
            }
        };
        if failure.is_some() {
            let _ = child.kill();
        }
        let _ = child.wait();
        let mut out = String::new();
        if let Some(mut so) = child.stdout.take() {
            use std::io::Read;
            let _ = so.read_to_string(&mut out);
        }
        report.inputs += out
            .lines()
            .find_map(|l| l.strip_prefix("inputs "))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or(0);
        if let Some(kind) = failure {
            let data = std::fs::read(inflight(t.name)).unwrap_or_default();
            let name = format!("{}-{kind}-{:016x}.bin", t.name, fnv(&data));
            let path = crashes_dir().join(&name);
            std::fs::write(&path, &data).map_err(|e| format!("{}: {e}", path.display()))?;
            report.failures.push(format!(
                "{kind}: fuzz/crashes/{name} ({} bytes; replay: cargo run -p sgw-fuzz -- --replay fuzz/crashes/{name} {})",
                data.len(),
                t.name
            ));
        }
        seed = seed.wrapping_add(1);
    }
    let _ = std::fs::remove_file(inflight(t.name));
    Ok(report)
}

/// Resident memory of `pid` (Linux `/proc`), in bytes.
fn rss_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The worker: mutate and run until `until_ms` (Unix ms), recording each
/// input before running it. A panic ends the process (a crash for the
/// supervisor).
fn worker(t: &Target, seed: u64, until_ms: u128) {
    let seeds = (t.seeds)();
    let mut state = State::new(&scratch(t.name));
    let mut rng = mutate::Rng::new(seed);
    let path = inflight(t.name);
    let mut inputs = 0u64;
    let now_ms = || {
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis())
    };
    // Every seed once as it is, then mutants.
    let mut queue: Vec<Vec<u8>> = seeds.clone();
    while now_ms() < until_ms {
        let data = queue
            .pop()
            .unwrap_or_else(|| mutate::mutate(&mut rng, &seeds, t.tokens, t.max_len));
        if std::fs::write(&path, &data).is_err() {
            eprintln!("sgw-fuzz: cannot write {}", path.display());
            std::process::exit(2);
        }
        (t.run)(&mut state, &data);
        inputs += 1;
    }
    let _ = std::fs::remove_dir_all(&state.root);
    println!("inputs {inputs}");
}
