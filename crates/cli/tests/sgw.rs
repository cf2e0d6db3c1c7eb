//! `sgw` as a user runs it: policy check, providers, search exit codes.

use assert_cmd::Command;
use predicates::prelude::*;

fn sgw() -> Command {
    Command::cargo_bin("sgw").unwrap()
}

fn seed_policy() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../policies/search-gateway-resilience.yaml")
}

#[test]
fn the_seed_policy_checks_ok_with_a_warning_per_unbound_step() {
    sgw()
        .args(["policy", "check"])
        .arg(seed_policy())
        .assert()
        .success()
        .stdout(predicate::str::contains("ok:"))
        .stderr(predicate::str::contains(
            "no provider is bound to chain step `cached_evidence`",
        ));
}

#[test]
fn a_misspelled_kind_exits_1_naming_the_path_and_the_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.yaml");
    std::fs::write(
        &file,
        "version: 1\nname: t\nproviders:\n  search_engine_provider:\n    - kind: serxng\n",
    )
    .unwrap();
    sgw()
        .args(["policy", "check"])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "bad.yaml:5: providers.search_engine_provider[0].kind: unknown provider kind `serxng`",
        ))
        .stderr(predicate::str::contains("registered kinds:"));
}

#[test]
fn garbage_exits_1_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("garbage.yaml");
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&file, bytes).unwrap();
    sgw()
        .args(["policy", "check"])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("garbage.yaml"));
    sgw()
        .args(["policy", "check", "/nonexistent/policy.yaml"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot read"));
}

#[test]
fn usage_errors_exit_1_and_help_exits_0() {
    sgw()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("search"));
    sgw().arg("frobnicate").assert().code(1);
    sgw()
        .args(["search", "x", "--field", "bad"])
        .arg("--policy")
        .arg(seed_policy())
        .assert()
        .code(1);
    sgw()
        .args(["search", "x", "--as-of", "yesterday"])
        .arg("--policy")
        .arg(seed_policy())
        .assert()
        .code(1);
}

#[test]
fn a_search_with_no_evidence_exits_2_and_json_has_the_contract() {
    let out = sgw()
        .args(["search", "anything", "--no-store", "--json", "--policy"])
        .arg(seed_policy())
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    for field in search_gateway::SearchResult::CONTRACT_FIELDS {
        assert!(json.get(field).is_some(), "{field}");
    }
}

/// `sgw search <the world's question> --json` on `store`, with the world's
/// policy written into `dir`.
fn world_search(
    world: &sgw_testkit::world::World,
    dir: &std::path::Path,
    store: &std::path::Path,
) -> Command {
    let policy = dir.join("world.yaml");
    std::fs::write(
        &policy,
        world.policy(&sgw_testkit::world::PolicyOptions::default()),
    )
    .unwrap();
    let mut cmd = sgw();
    cmd.args(["search", sgw_testkit::world::QUESTION, "--json", "--store"])
        .arg(store)
        .arg("--policy")
        .arg(&policy);
    cmd
}

/// The size of an SQLite store's write-ahead log (0 when there is none).
fn wal_len(store: &std::path::Path) -> u64 {
    let mut wal = store.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).map_or(0, |m| m.len())
}

#[test]
fn a_search_leaves_its_store_checkpointed_for_the_next_process() {
    let world = sgw_testkit::world::World::start_detached();
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store.sqlite");
    let search = |expect_cached: bool| {
        let out = world_search(&world, dir.path(), &store)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["from_cache"], expect_cached, "{json}");
    };
    // A miss writes evidence; closing the store at exit moves it into the
    // database file, so the next process has no log to replay.
    search(false);
    assert_eq!(wal_len(&store), 0, "the miss left a write-ahead log");
    search(true);
    assert_eq!(wal_len(&store), 0, "the hit left a write-ahead log");
}

#[test]
fn everything_blocked_exits_2_with_the_codes_that_explain_why() {
    let world = sgw_testkit::world::World::start_detached();
    world.break_everything();
    let dir = tempfile::tempdir().unwrap();
    let out = world_search(&world, dir.path(), &dir.path().join("store.sqlite"))
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let codes: Vec<&str> = json["failure_codes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    for code in [
        "SOURCE_BLOCKED_BY_CDN",
        "SEARCH_PROVIDER_CAPTCHA",
        "HUMAN_EVIDENCE_REQUIRED",
    ] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
    assert!(
        json["human_request_id"]
            .as_str()
            .unwrap()
            .starts_with("hr-")
    );
}

#[test]
fn the_demo_runs_every_scenario_without_network() {
    let out = sgw()
        .args(["demo", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<&str> = lines
        .iter()
        .map(|l| l["scenario"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "healthy",
            "official-blocked",
            "engine-captcha",
            "conflict",
            "all-blocked"
        ]
    );
    assert_eq!(lines[0]["result"]["confidence_level"], "high");
    assert_eq!(lines[1]["result"]["fallback_used"], true);
    assert!(
        lines[3]["result"]["failure_codes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "SOURCE_CONFLICT_NEEDS_REVIEW")
    );
    assert!(lines[4]["result"]["sources"].as_array().unwrap().is_empty());
    sgw().args(["demo", "--scenario", "nope"]).assert().code(1);
}
