//! Several processes on one store: concurrent writers lose nothing, and a
//! writer killed mid-stream leaves every committed record readable.
//!
//! The children are this test binary itself, running the hidden
//! `processes::child_writer` test with `SGW_STORE_CHILD_URL` set. A child
//! prints `committed <id>` after each transaction commits.

use crate::both_backends;
use crate::common::*;
use sgw_contract::SourceTier;
use sgw_store::{Store, StoredEvidence};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

const CHILD_URL: &str = "SGW_STORE_CHILD_URL";
const CHILD_COUNT: &str = "SGW_STORE_CHILD_COUNT";
const CHILD_TAG: &str = "SGW_STORE_CHILD_TAG";
/// A bound for "write until killed", so a lost child cannot run forever.
const UNTIL_KILLED: u64 = 100_000;

/// Not a test of its own: the body of a child process. Does nothing unless
/// `SGW_STORE_CHILD_URL` is set.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_writer() {
    let Ok(url) = std::env::var(CHILD_URL) else {
        return;
    };
    let count: u64 = std::env::var(CHILD_COUNT)
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(UNTIL_KILLED);
    let tag = std::env::var(CHILD_TAG).unwrap_or_default();
    let store = Store::open(&url).await.expect("child opens the store");
    for i in 0..count {
        let k = key(&format!("{tag} question {i}"), "news");
        let mut ev = StoredEvidence::new(
            k.clone(),
            SourceTier::GeneralWeb,
            sample_evidence(&format!("{tag}-{i}")),
        );
        ev.extracted_at = t0();
        // Evidence and its cache entry in one transaction, as the orchestrator writes them.
        store
            .persist_result(
                &k,
                &result_for(&[&ev.id]),
                std::slice::from_ref(&ev.evidence),
                t0(),
            )
            .await
            .expect("child write");
        println!("committed {}", ev.id);
    }
}

fn spawn_child(url: &str, tag: &str, count: Option<u64>) -> Child {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "processes::child_writer",
        "--exact",
        "--nocapture",
        "--test-threads",
        "1",
    ])
    .env(CHILD_URL, url)
    .env(CHILD_TAG, tag)
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    if let Some(n) = count {
        cmd.env(CHILD_COUNT, n.to_string());
    }
    cmd.spawn().expect("spawn the test binary as a child")
}

/// The id in a `committed <id>` line (the test harness may have printed
/// `test processes::child_writer ... ` before it on the same line).
fn committed_id(line: &str) -> Option<String> {
    let at = line.find("committed ev-")?;
    Some(line[at + "committed ".len()..].trim().to_string())
}

fn committed_ids(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .lines()
        .filter_map(committed_id)
        .collect()
}

async fn concurrent_writers_lose_nothing(fx: &Fixture) {
    // Create the schema first, as a deployment would.
    let store = fx.open().await;
    const N: u64 = 40;
    let children = [
        spawn_child(&fx.url, "a", Some(N)),
        spawn_child(&fx.url, "b", Some(N)),
    ];
    let mut ids = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "child failed: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let got = committed_ids(&out.stdout);
        assert_eq!(
            got.len() as u64,
            N,
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        ids.extend(got);
    }
    let stats = store.stats(t0()).await.unwrap();
    assert_eq!(stats.evidence, 2 * N, "{}: evidence records", fx.name);
    assert_eq!(stats.cache_entries, 2 * N, "{}: cache entries", fx.name);
    for id in &ids {
        let ev = store.get_evidence(id).await.unwrap();
        assert!(
            ev.is_some(),
            "{}: {id} reported committed but missing",
            fx.name
        );
    }
    if fx.is_sqlite() {
        assert_eq!(store.check_integrity().await.unwrap(), Vec::<String>::new());
    }
}
both_backends!(concurrent_writers_lose_nothing);

async fn kill_during_writes_keeps_committed_records(fx: &Fixture) {
    fx.open().await.close().await;
    let mut child = spawn_child(&fx.url, "k", None);
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    let mut line = String::new();
    // Wait (by reading, not by sleeping) until 15 records are committed.
    while seen.len() < 15 {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            let mut err = String::new();
            let _ = std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err);
            panic!("child stopped early after {} records: {err}", seen.len());
        }
        seen.extend(committed_id(&line));
    }
    child.kill().unwrap(); // SIGKILL: no destructors, no rollback handlers
    let status = child.wait().unwrap();
    assert!(!status.success(), "the child was killed, not finished");
    // Whatever it printed before dying was committed too.
    let mut rest = Vec::new();
    std::io::Read::read_to_end(&mut reader, &mut rest).unwrap();
    seen.extend(committed_ids(&rest));

    let store = fx.open().await;
    if fx.is_sqlite() {
        assert_eq!(store.check_integrity().await.unwrap(), Vec::<String>::new());
    }
    for id in &seen {
        let ev = store.get_evidence(id).await.unwrap();
        assert!(
            ev.is_some(),
            "{}: {id} was committed but is missing",
            fx.name
        );
    }
    let stats = store.stats(t0()).await.unwrap();
    assert!(stats.evidence >= seen.len() as u64);
    assert_eq!(
        stats.evidence, stats.cache_entries,
        "evidence and entry commit together"
    );
    // The store stays writable.
    store
        .put_evidence(&stored(&key("after", "news"), "after"))
        .await
        .unwrap();
}
both_backends!(kill_during_writes_keeps_committed_records);

async fn two_processes_create_a_new_store_at_once(fx: &Fixture) {
    // Nobody has opened the store yet: both children race to create and
    // migrate it; both must succeed and write.
    let children = [
        spawn_child(&fx.url, "x", Some(3)),
        spawn_child(&fx.url, "y", Some(3)),
    ];
    let mut ids = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}: child failed: {}",
            fx.name,
            String::from_utf8_lossy(&out.stderr)
        );
        ids.extend(committed_ids(&out.stdout));
    }
    assert_eq!(ids.len(), 6);
    let store = fx.open().await;
    assert_eq!(store.get_evidence_batch(&ids).await.unwrap().len(), 6);
}
both_backends!(two_processes_create_a_new_store_at_once);
