//! Crash safety and concurrent writers.

use crate::support::*;
use sgw_research::ops::{self, GateInput};
use sgw_research::{Store, validate};
use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHILD_ROOT: &str = "SGW_RESEARCH_TEST_CHILD_ROOT";
const CHILD_ID: &str = "SGW_RESEARCH_TEST_CHILD_SESSION";

fn input(url: &str) -> GateInput {
    GateInput {
        url: url.into(),
        gate_type: "login".into(),
        what_is_needed: "sign in".into(),
        sub_question_id: None,
        status: None,
    }
}

/// Not a test on its own: the child process of `a_writer_killed_mid_write_leaves_valid_files`.
/// It appends gates, rewrites the plan and creates sessions until it is killed.
#[test]
#[ignore = "helper process, spawned by store::a_writer_killed_mid_write_leaves_valid_files"]
fn child_writer_loop() {
    let (Some(root), Some(id)) = (std::env::var_os(CHILD_ROOT), std::env::var_os(CHILD_ID)) else {
        return;
    };
    let store = Store::new(root);
    let id = id.to_string_lossy().into_owned();
    for i in 0.. {
        ops::append_gates(&store, &id, &[input(&format!("https://child/{i}"))], now()).unwrap();
        ops::add_sub_question(&store, &id, &format!("q{i}"), &[]).ok();
        if let Ok(plan) = store.read_plan(&id)
            && let Some(last) = plan.sub_questions.last()
        {
            ops::remove_sub_question(&store, &id, &last.id).ok();
        }
        if i % 5 == 0 {
            new_session_at(store.repo_root(), now(), "light", &format!("child {i}"));
        }
    }
}

fn validate_everything(root: &Path) {
    let store = Store::new(root);
    for scanned in store.scan().unwrap() {
        let m = scanned
            .manifest
            .unwrap_or_else(|e| panic!("{}: {e}", scanned.dir_name));
        store.load(&m.session_id).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn a_writer_killed_mid_write_leaves_valid_files() {
    let dir = tempfile::tempdir().unwrap();
    let id = new_session(dir.path(), "deep");
    let exe = std::env::current_exe().unwrap();
    for round in 0..4 {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "store::child_writer_loop",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ROOT, dir.path())
            .env(CHILD_ID, &id)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Let it get going, then kill it at an arbitrary point.
        let gates = session_dir(dir.path(), &id).join("gates.json");
        let start = Instant::now();
        let before = fs::read(&gates).unwrap().len();
        while fs::read(&gates).unwrap().len() <= before + 400 * (round + 1)
            && start.elapsed() < Duration::from_secs(30)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(3 * round as u64));
        child.kill().unwrap();
        child.wait().unwrap();
        validate_everything(dir.path());
    }
    let gates = Store::new(dir.path()).read_gates(&id).unwrap();
    assert!(
        gates.gates.len() > 4,
        "the child made progress ({} gates)",
        gates.gates.len()
    );
    validate::gates(&gates).unwrap();
    // Leftover temp files are hidden and ignored; the session still takes writes.
    ops::append_gates(
        &Store::new(dir.path()),
        &id,
        &[input("https://after")],
        now(),
    )
    .unwrap();
    validate_everything(dir.path());
}

#[test]
fn concurrent_appends_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let id = new_session(dir.path(), "normal");
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let root = dir.path().to_path_buf();
            let id = id.clone();
            std::thread::spawn(move || {
                let store = Store::new(root);
                for i in 0..25 {
                    ops::append_gates(&store, &id, &[input(&format!("https://t{t}/{i}"))], now())
                        .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let gates = Store::new(dir.path()).read_gates(&id).unwrap().gates;
    assert_eq!(gates.len(), 100);
    let ids: HashSet<&str> = gates.iter().map(|g| g.gate_id.as_str()).collect();
    assert_eq!(ids.len(), 100, "ids unique");
    let urls: HashSet<&str> = gates.iter().map(|g| g.url.as_str()).collect();
    assert_eq!(urls.len(), 100, "every record present");
}

#[test]
fn concurrent_cli_appends_through_processes() {
    // Two CLI invocations at once, in-process threads each with their own streams.
    let dir = tempfile::tempdir().unwrap();
    let id = new_session(dir.path(), "normal");
    let handles: Vec<_> = (0..2)
        .map(|t| {
            let root = dir.path().to_path_buf();
            let id = id.clone();
            std::thread::spawn(move || {
                for i in 0..20 {
                    let rec = format!(r#"{{"url":"https://p{t}/{i}","gateType":"captcha","whatIsNeeded":"solve"}}"#);
                    let out = research(&root, &["gates", "--append", &id, "--record", &rec]);
                    assert_eq!(out.code, 0, "{}", out.stderr);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let gates = Store::new(dir.path()).read_gates(&id).unwrap().gates;
    assert_eq!(gates.len(), 40);
    assert_eq!(
        gates
            .iter()
            .map(|g| &g.gate_id)
            .collect::<HashSet<_>>()
            .len(),
        40
    );
}

#[test]
fn session_creation_is_atomic_and_hidden_entries_are_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let id = new_session(dir.path(), "light");
    let sessions = dir.path().join(".cache/research/sessions");
    fs::create_dir(sessions.join(".tmp-01ARZ3NDEKTSV4RRFFQ69G5FAV-1")).unwrap();
    fs::write(
        session_dir(dir.path(), &id).join(".gates.json.tmp-1-x"),
        "half a fi",
    )
    .unwrap();
    let out = research(dir.path(), &["list"]);
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
    assert_eq!(research(dir.path(), &["show", &id]).code, 0);
}
