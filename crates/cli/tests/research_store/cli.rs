//! Every verb and every exit code of the seed's tables, driven in-process.

use crate::support::*;
use std::fs;
use tempfile::TempDir;

fn root() -> TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn help_is_exit_0_and_usage_errors_are_exit_1() {
    let r = root();
    let out = research(r.path(), &["--help"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("run") && out.stdout.contains("prune"));
    assert_eq!(research(r.path(), &["-h"]).code, 0);
    assert_eq!(research(r.path(), &["run", "--help"]).code, 0);
    assert_eq!(research(r.path(), &[]).code, 1, "no verb");
    assert_eq!(research(r.path(), &["frobnicate"]).code, 1, "unknown verb");
    assert_eq!(
        research(r.path(), &["list", "--bogus"]).code,
        1,
        "unknown flag"
    );
}

#[test]
fn run_creates_a_valid_session_with_mode_derived_plan() {
    let r = root();
    let out = research(
        r.path(),
        &[
            "run",
            "--mode",
            "deep",
            "--question",
            "Compare A and B",
            "--intent",
            "choose one",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let id = out
        .stdout
        .lines()
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(id.len(), 26);
    let dir = session_dir(r.path(), &id);
    let m = read_json(&dir.join("manifest.json"));
    assert_eq!(m["sessionId"], id.as_str());
    assert_eq!(m["mode"], "deep");
    assert_eq!(m["gatePolicy"], "worker");
    assert_eq!(m["output"], "shortAnswer");
    assert_eq!(m["status"], "draft");
    assert_eq!(m["intent"], "choose one");
    let p = read_json(&dir.join("plan.json"));
    assert_eq!(p["deepeningRounds"], 3);
    assert_eq!(p["verificationTier"], "diverse-lens-3vote");
    assert_eq!(p["subQuestions"], serde_json::json!([]));
    assert_eq!(
        read_json(&dir.join("sources.json"))["sources"],
        serde_json::json!([])
    );
    assert_eq!(
        read_json(&dir.join("gates.json"))["gates"],
        serde_json::json!([])
    );
    // The id's time part is the clock.
    let ulid = ulid::Ulid::from_string(&id).unwrap();
    assert_eq!(ulid.timestamp_ms() as i64, now().as_millisecond());

    for (mode, rounds, tier) in [("light", 0, "none"), ("normal", 1, "central-3vote")] {
        let id = new_session(r.path(), mode);
        let p = read_json(&session_dir(r.path(), &id).join("plan.json"));
        assert_eq!(p["deepeningRounds"], rounds);
        assert_eq!(p["verificationTier"], tier);
    }
}

#[test]
fn run_flags_and_dry_run() {
    let r = root();
    let out = research(
        r.path(),
        &[
            "run",
            "--mode",
            "light",
            "--question",
            "q",
            "--gate",
            "operatorPresent",
            "--output",
            "article",
            "--dry-run",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("dry run"));
    assert!(
        !r.path().join(".cache").exists(),
        "--dry-run writes nothing"
    );
    for args in [
        vec!["run", "--question", "q"],
        vec!["run", "--mode", "light"],
        vec!["run", "--mode", "huge", "--question", "q"],
        vec![
            "run",
            "--mode",
            "light",
            "--question",
            "q",
            "--gate",
            "nobody",
        ],
        vec![
            "run",
            "--mode",
            "light",
            "--question",
            "q",
            "--output",
            "poem",
        ],
        vec!["run", "--mode", "light", "--question", "   "],
        vec!["run", "--mode", "light", "--question", "q", "--intent", ""],
    ] {
        let out = research(r.path(), &args);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
    }
    assert!(!r.path().join(".cache").exists());
}

#[test]
fn run_write_failure_is_exit_3() {
    let r = root();
    fs::create_dir_all(r.path().join(".cache/research")).unwrap();
    fs::write(r.path().join(".cache/research/sessions"), "not a dir").unwrap();
    let out = research(r.path(), &["run", "--mode", "light", "--question", "q"]);
    assert_eq!(out.code, 3, "{}", out.stderr);
}

#[test]
fn list_newest_first_limits_filters_and_json() {
    let r = root();
    let out = research(r.path(), &["list"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "no sessions\n"));
    let ids: Vec<String> = (0..22)
        .map(|i| new_session_at(r.path(), days_later(i), "light", &format!("question {i}")))
        .collect();
    let out = research(r.path(), &["list"]);
    assert_eq!(out.code, 0);
    let rows: Vec<&str> = out.stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 20, "default is the 20 most recent");
    assert!(rows[0].starts_with(&ids[21]), "newest first");
    let all = research(r.path(), &["list", "--all"]);
    assert_eq!(all.stdout.lines().count(), 23);
    assert_eq!(research(r.path(), &["mark", "aborted", &ids[3]]).code, 0);
    let aborted = research(r.path(), &["list", "--status", "aborted", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&aborted.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert_eq!(v[0]["sessionId"], ids[3].as_str());
    assert_eq!(v[0]["status"], "aborted");
    assert_eq!(
        research(r.path(), &["list", "--status", "finished"]).code,
        1
    );
    assert_eq!(
        research(r.path(), &["list", "--status", "draft"])
            .stdout
            .lines()
            .count(),
        21
    );
}

#[test]
fn list_surfaces_malformed_sessions() {
    let r = root();
    let id = new_session(r.path(), "normal");
    let bad = new_session_at(r.path(), days_later(1), "normal", "second");
    fs::write(session_dir(r.path(), &bad).join("manifest.json"), "{ nope").unwrap();
    fs::create_dir_all(r.path().join(".cache/research/sessions/not-a-session")).unwrap();
    let out = research(r.path(), &["list"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains(&id));
    let malformed: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("MALFORMED"))
        .collect();
    assert_eq!(malformed.len(), 2, "{}", out.stdout);
    assert!(
        malformed
            .iter()
            .any(|l| l.starts_with(&bad) && l.contains("manifest.json")),
        "{malformed:?}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&research(r.path(), &["list", "--json"]).stdout).unwrap();
    assert_eq!(
        json.as_array()
            .unwrap()
            .iter()
            .filter(|v| v["malformed"] == true)
            .count(),
        2
    );
}

#[test]
fn list_shows_malformed_first_outside_the_cap() {
    let r = root();
    let oldest = new_session_at(r.path(), days_later(0), "light", "oldest");
    fs::write(
        session_dir(r.path(), &oldest).join("manifest.json"),
        "{ nope",
    )
    .unwrap();
    for i in 1..=21 {
        new_session_at(r.path(), days_later(i), "light", &format!("question {i}"));
    }
    let out = research(r.path(), &["list"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<&str> = out.stdout.lines().skip(1).collect();
    assert_eq!(
        rows.len(),
        21,
        "20 sessions + the malformed one:\n{}",
        out.stdout
    );
    assert!(rows[0].starts_with(&oldest) && rows[0].contains("MALFORMED"));
    assert_eq!(rows.iter().filter(|r| r.contains("MALFORMED")).count(), 1);
}

#[test]
fn list_read_failure_is_exit_3() {
    let r = root();
    fs::create_dir_all(r.path().join(".cache/research")).unwrap();
    fs::write(r.path().join(".cache/research/sessions"), "file").unwrap();
    assert_eq!(research(r.path(), &["list"]).code, 3);
}

#[test]
fn show_text_json_and_errors() {
    let r = root();
    let id = new_session(r.path(), "normal");
    assert_eq!(
        research(r.path(), &["plan", &id, "--add", "What is it?"]).code,
        0
    );
    let out = research(r.path(), &["show", &id]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for section in [
        "Research session",
        "Plan",
        "Findings",
        "Sources",
        "Gates",
        "What is it?",
    ] {
        assert!(out.stdout.contains(section), "{section}\n{}", out.stdout);
    }
    let json: serde_json::Value =
        serde_json::from_str(&research(r.path(), &["show", &id, "--json"]).stdout).unwrap();
    for key in ["manifest", "plan", "sources", "gates", "findings"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["plan"]["subQuestions"][0]["id"], "sq-1");
    assert_eq!(research(r.path(), &["show"]).code, 1, "missing id");
    assert_eq!(research(r.path(), &["show", "01abc"]).code, 1, "invalid id");
    assert_eq!(
        research(r.path(), &["show", "../../../../etc/passwd"]).code,
        1,
        "path traversal"
    );
    assert_eq!(
        research(r.path(), &["show", "01ARZ3NDEKTSV4RRFFQ69G5FAV"]).code,
        2,
        "not found"
    );
}

#[test]
fn garbage_in_any_session_file_is_exit_2_naming_the_file() {
    let r = root();
    for file in [
        "manifest.json",
        "plan.json",
        "sources.json",
        "gates.json",
        "findings/sq-1.json",
    ] {
        for garbage in [
            "",
            "{",
            "[]",
            "\u{0}\u{1}binary",
            "{\"schemaVersion\":1}",
            "null",
        ] {
            let id = new_session(r.path(), "normal");
            fs::write(session_dir(r.path(), &id).join(file), garbage).unwrap();
            let out = research(r.path(), &["show", &id]);
            assert_eq!(out.code, 2, "{file} {garbage:?}: {}", out.stderr);
            assert!(out.stderr.contains(file), "{file}: {}", out.stderr);
        }
    }
    // A missing file is malformed too, and so is a stray file in findings/.
    let id = new_session(r.path(), "normal");
    fs::remove_file(session_dir(r.path(), &id).join("plan.json")).unwrap();
    let out = research(r.path(), &["show", &id]);
    assert!(
        out.code == 2 && out.stderr.contains("plan.json"),
        "{}",
        out.stderr
    );
    let id = new_session(r.path(), "normal");
    fs::write(session_dir(r.path(), &id).join("findings/notes.json"), "{}").unwrap();
    let out = research(r.path(), &["show", &id]);
    assert!(
        out.code == 2 && out.stderr.contains("notes.json"),
        "{}",
        out.stderr
    );
    // Commands that read one file name it too.
    let id = new_session(r.path(), "normal");
    fs::write(session_dir(r.path(), &id).join("gates.json"), "garbage").unwrap();
    for args in [vec!["gates", "--list", &id], vec!["gates", "--retry", &id]] {
        let out = research(r.path(), &args);
        assert!(
            out.code == 2 && out.stderr.contains("gates.json"),
            "{args:?} {}",
            out.stderr
        );
    }
    let out = research(
        r.path(),
        &[
            "gates",
            "--append",
            &id,
            "--record",
            r#"{"url":"u","gateType":"t","whatIsNeeded":"n"}"#,
        ],
    );
    assert!(
        out.code == 2 && out.stderr.contains("gates.json"),
        "{}",
        out.stderr
    );
    fs::write(session_dir(r.path(), &id).join("manifest.json"), "garbage").unwrap();
    let out = research(r.path(), &["mark", "done", &id]);
    assert!(
        out.code == 2 && out.stderr.contains("manifest.json"),
        "{}",
        out.stderr
    );
}

#[test]
fn gates_append_list_retry() {
    let r = root();
    let id = new_session(r.path(), "normal");
    let stdin = r#"[{"url":"https://x","gateType":"cloudflare","whatIsNeeded":"clear the challenge","subQuestionId":"sq-2"},
                   {"url":"https://z","gateType":"captcha","whatIsNeeded":"solve it","status":"failed"}]"#;
    let out = research_at(
        r.path(),
        now(),
        &["gates", "--append", &id, "--json"],
        stdin,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let added: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(added[0]["gateId"], "g-1");
    assert_eq!(added[0]["status"], "pending");
    assert_eq!(added[0]["blockedAt"], "2026-05-01T10:00:00Z");
    assert_eq!(added[1]["gateId"], "g-2");
    assert_eq!(added[1]["status"], "failed");
    // --record: stdin is not read.
    let out = research_at(
        r.path(),
        now(),
        &[
            "gates",
            "--append",
            &id,
            "--record",
            r#"{"url":"https://y","gateType":"login","whatIsNeeded":"sign in"}"#,
        ],
        "this is not json",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("g-3"));
    let other = new_session_at(r.path(), days_later(1), "light", "other");
    research(
        r.path(),
        &[
            "gates",
            "--append",
            &other,
            "--record",
            r#"{"url":"https://o","gateType":"login","whatIsNeeded":"x"}"#,
        ],
    );
    let all = research(r.path(), &["gates", "--list", "--json"]);
    assert_eq!(all.code, 0);
    let all: serde_json::Value = serde_json::from_str(&all.stdout).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 4);
    let one = research(r.path(), &["gates", "--list", &id]);
    assert_eq!(one.code, 0);
    assert_eq!(one.stdout.lines().count(), 4, "{}", one.stdout);
    // --retry: pending → retrying; failed stays.
    let out = research(r.path(), &["gates", "--retry", &id, "--json"]);
    let marked: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let ids: Vec<&str> = marked
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["gateId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["g-1", "g-3"]);
    assert!(
        marked
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["status"] == "retrying")
    );
    // retrying is still eligible; a session with nothing eligible is a clean no-op.
    assert_eq!(research(r.path(), &["gates", "--retry", &id]).code, 0);
    let empty = new_session_at(r.path(), days_later(2), "light", "empty");
    let out = research(r.path(), &["gates", "--retry", &empty]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("nothing eligible"));
    assert_eq!(
        research(r.path(), &["gates", "--list", &empty]).stdout,
        "no gates\n"
    );
}

#[test]
fn gates_exit_codes() {
    let r = root();
    let id = new_session(r.path(), "normal");
    let ghost = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    let rec = r#"{"url":"https://y","gateType":"login","whatIsNeeded":"sign in"}"#;
    for (args, stdin, code) in [
        (vec!["gates"], "", 1),
        (vec!["gates", "--list", "--retry", id.as_str()], "", 1),
        (vec!["gates", "--retry", "nope"], "", 1),
        (vec!["gates", "--list", "lowercase01arz3ndektsv4rr"], "", 1),
        (vec!["gates", "--append", id.as_str()], "{not json", 1),
        (vec!["gates", "--append", id.as_str()], "42", 1),
        (
            vec!["gates", "--append", id.as_str()],
            r#"[{"url":"u","gateType":"t","whatIsNeeded":"n","extra":1}]"#,
            1,
        ),
        (
            vec!["gates", "--append", id.as_str()],
            r#"[{"url":"u","gateType":"t","whatIsNeeded":"n","status":"open"}]"#,
            1,
        ),
        (
            vec!["gates", "--append", id.as_str()],
            r#"[{"url":"u","gateType":"t"}]"#,
            1,
        ),
        (
            vec!["gates", "--append", id.as_str()],
            r#"[{"url":"u","gateType":"","whatIsNeeded":"n"}]"#,
            1,
        ),
        (
            vec!["gates", "--append", id.as_str()],
            r#"[{"url":"u","gateType":"t","whatIsNeeded":"n","subQuestionId":"q1"}]"#,
            1,
        ),
        (vec!["gates", "--append", id.as_str()], "[]", 2),
        (vec!["gates", "--list", ghost], "", 2),
        (vec!["gates", "--retry", ghost], "", 2),
        (vec!["gates", "--append", ghost, "--record", rec], "", 2),
    ] {
        let out = research_at(r.path(), now(), &args, stdin);
        assert_eq!(out.code, code, "{args:?} {stdin}: {}", out.stderr);
    }
    // Nothing above changed the queue.
    assert_eq!(
        read_json(&session_dir(r.path(), &id).join("gates.json"))["gates"],
        serde_json::json!([])
    );
    // An I/O failure is exit 3.
    let gates = session_dir(r.path(), &id).join("gates.json");
    fs::remove_file(&gates).unwrap();
    fs::create_dir(&gates).unwrap();
    assert_eq!(
        research(r.path(), &["gates", "--append", &id, "--record", rec]).code,
        3
    );
}

#[test]
fn prune_filters_and_exit_codes() {
    let r = root();
    let old = new_session_at(r.path(), now(), "light", "old");
    let mid = new_session_at(r.path(), days_later(20), "normal", "mid");
    let new = new_session_at(r.path(), days_later(40), "normal", "new");
    assert_eq!(
        research(r.path(), &["mark", "done", &mid, "--no-promote"]).code,
        0
    );
    let at = days_later(45);
    for (args, code) in [
        (vec!["prune"], 1),
        (vec!["prune", "--dry-run"], 1),
        (vec!["prune", "--older-than", "soon"], 1),
        (vec!["prune", "--older-than", "-3"], 1),
        (vec!["prune", "--status", "gone"], 1),
        (vec!["prune", "--status", "aborted"], 2),
        (vec!["prune", "--older-than", "100"], 2),
    ] {
        let out = research_at(r.path(), at, &args, "");
        assert_eq!(out.code, code, "{args:?}: {}", out.stderr);
    }
    let out = research_at(
        r.path(),
        at,
        &["prune", "--older-than", "10", "--dry-run"],
        "",
    );
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains(&old) && out.stdout.contains(&mid) && !out.stdout.contains(&new));
    assert!(
        session_dir(r.path(), &old).exists(),
        "dry run deletes nothing"
    );
    // Filters AND together.
    let out = research_at(
        r.path(),
        at,
        &["prune", "--older-than", "10", "--status", "done"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!session_dir(r.path(), &mid).exists());
    assert!(session_dir(r.path(), &old).exists());
    // Malformed sessions are never matched.
    fs::write(session_dir(r.path(), &old).join("manifest.json"), "x").unwrap();
    assert_eq!(
        research_at(r.path(), at, &["prune", "--older-than", "30"], "").code,
        2
    );
    assert!(session_dir(r.path(), &old).exists());
    let out = research_at(r.path(), at, &["prune", "--status", "draft"], "");
    assert_eq!(out.code, 0);
    assert!(!session_dir(r.path(), &new).exists());
}

#[test]
fn mark_is_one_way_with_exit_codes() {
    let r = root();
    let id = new_session(r.path(), "light");
    assert_eq!(research(r.path(), &["mark"]).code, 1);
    assert_eq!(research(r.path(), &["mark", "finished", &id]).code, 1);
    assert_eq!(research(r.path(), &["mark", "done"]).code, 1);
    assert_eq!(research(r.path(), &["mark", "done", "bad-id"]).code, 1);
    assert_eq!(
        research(r.path(), &["mark", "done", "01ARZ3NDEKTSV4RRFFQ69G5FAV"]).code,
        2
    );
    assert_eq!(
        research(r.path(), &["mark", "done", &id, "--promote"]).code,
        1,
        "--promote on light"
    );
    assert_eq!(
        research(
            r.path(),
            &["mark", "done", &id, "--promote", "--no-promote"]
        )
        .code,
        1
    );
    let out = research_at(r.path(), days_later(1), &["mark", "done", &id], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let m = read_json(&session_dir(r.path(), &id).join("manifest.json"));
    assert_eq!(m["status"], "done");
    assert_eq!(m["updatedAt"], "2026-05-02T10:00:00Z");
    assert!(
        !r.path().join("operator").exists(),
        "light is never promoted"
    );
    assert_eq!(
        research(r.path(), &["mark", "done", &id]).code,
        2,
        "already done"
    );
    assert_eq!(
        research(r.path(), &["mark", "aborted", &id]).code,
        2,
        "terminal is one-way"
    );
    let other = new_session(r.path(), "normal");
    assert_eq!(research(r.path(), &["mark", "aborted", &other]).code, 0);
    assert_eq!(research(r.path(), &["mark", "done", &other]).code, 2);
    assert!(
        !r.path().join("operator").exists(),
        "aborted is never promoted"
    );
    // Disk write failure: the manifest cannot be replaced.
    let third = new_session(r.path(), "normal");
    let dir = session_dir(r.path(), &third);
    fs::create_dir(dir.join(".lock")).unwrap(); // the lock file cannot be opened
    assert_eq!(research(r.path(), &["mark", "done", &third]).code, 3);
}

#[test]
fn mark_done_promotes_normal_and_deep() {
    let r = root();
    let id = new_session_at(r.path(), now(), "normal", "How do ULIDs sort?");
    fs::write(
        session_dir(r.path(), &id).join("answer.md"),
        "They sort by time.\n",
    )
    .unwrap();
    let out = research(r.path(), &["mark", "done", &id]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("reindex"), "prints the reindex hint");
    let doc_path = r.path().join(format!(
        "operator/knowledge/research/{id}-how-do-ulids-sort.md"
    ));
    let doc = fs::read_to_string(&doc_path).unwrap();
    for line in [
        "---\n",
        "title: \"How do ULIDs sort?\"",
        "domain: research\n",
        "type: research-session\n",
        "mode: normal\n",
        &format!("sessionId: {id}\n"),
        "date: 2026-05-01\n",
        "sourceCount: 0\n",
        "verifiedCount: 0\n",
        "refutedCount: 0\n",
        "unverifiedCount: 0\n",
        "gatedCount: 0\n",
        "\n# How do ULIDs sort?\n\nThey sort by time.\n",
    ] {
        assert!(doc.contains(line), "{line:?} in\n{doc}");
    }
    assert!(doc.contains("name: ") && doc.contains("description: "));

    // The answer is copied byte for byte: no newline added, no spaces trimmed.
    let raw = "Déjà vu:\r\n  indented \u{1F980}\n\n\tno final newline";
    let exact = new_session_at(r.path(), now(), "normal", "Déjà vu?");
    fs::write(session_dir(r.path(), &exact).join("answer.md"), raw).unwrap();
    assert_eq!(research(r.path(), &["mark", "done", &exact]).code, 0);
    let doc = fs::read_to_string(
        r.path()
            .join(format!("operator/knowledge/research/{exact}-deja-vu.md")),
    )
    .unwrap();
    assert!(doc.ends_with(&format!("\n# Déjà vu?\n\n{raw}")), "{doc:?}");

    // --no-promote: status moves, no file.
    let quiet = new_session_at(r.path(), now(), "deep", "Sensitive topic");
    fs::write(session_dir(r.path(), &quiet).join("answer.md"), "secret").unwrap();
    let out = research(r.path(), &["mark", "done", &quiet, "--no-promote"]);
    assert_eq!(out.code, 0);
    assert!(out.stderr.contains("--no-promote"));
    assert_eq!(
        fs::read_dir(r.path().join("operator/knowledge/research"))
            .unwrap()
            .count(),
        2
    );

    // No answer.md: a soft note, still done.
    let bare = new_session_at(r.path(), now(), "deep", "No answer");
    let out = research(r.path(), &["mark", "done", &bare, "--promote"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("answer.md"));
    assert_eq!(
        read_json(&session_dir(r.path(), &bare).join("manifest.json"))["status"],
        "done"
    );

    // Promotion failure never fails mark.
    let blocked = new_session_at(r.path(), now(), "normal", "Blocked");
    fs::write(session_dir(r.path(), &blocked).join("answer.md"), "a").unwrap();
    let knowledge = r.path().join("operator/knowledge/research");
    fs::remove_dir_all(&knowledge).unwrap();
    fs::write(&knowledge, "a file where the dir should be").unwrap();
    let out = research(r.path(), &["mark", "done", &blocked]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("promotion failed"));
    assert_eq!(
        read_json(&session_dir(r.path(), &blocked).join("manifest.json"))["status"],
        "done"
    );
}

#[test]
fn plan_add_remove() {
    let r = root();
    let id = new_session(r.path(), "light"); // budget: 3 sub-questions
    let out = research(r.path(), &["plan", &id, "--add", "First?"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("added sq-1"));
    assert_eq!(
        research(
            r.path(),
            &["plan", &id, "--add", "Second?", "--depends-on", "sq-1"]
        )
        .code,
        0
    );
    let out = research(
        r.path(),
        &[
            "plan",
            &id,
            "--add",
            "Third?",
            "--depends-on",
            "sq-1,sq-2",
            "--json",
        ],
    );
    assert_eq!(out.code, 0);
    let plan: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        plan["subQuestions"][2]["dependsOn"],
        serde_json::json!(["sq-1", "sq-2"])
    );
    assert_eq!(
        research(r.path(), &["plan", &id, "--add", "Fourth?"]).code,
        2,
        "over budget"
    );
    for (args, code) in [
        (vec!["plan", id.as_str(), "--add", "  "], 1),
        (vec!["plan", id.as_str(), "--remove", "sq-x"], 1),
        (
            vec!["plan", id.as_str(), "--add", "x", "--remove", "sq-1"],
            1,
        ),
        (vec!["plan", id.as_str(), "--depends-on", "sq-1"], 1),
        (vec!["plan", "nope", "--add", "x"], 1),
        (vec!["plan", id.as_str(), "--remove", "sq-9"], 2),
        (vec!["plan", id.as_str(), "--remove", "sq-1"], 2), // sq-2, sq-3 depend on it
        (vec!["plan", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "--add", "x"], 2),
    ] {
        let out = research(r.path(), &args);
        assert_eq!(out.code, code, "{args:?}: {}", out.stderr);
    }
    assert_eq!(
        research(r.path(), &["plan", &id, "--remove", "sq-3"]).code,
        0
    );
    let out = research(
        r.path(),
        &["plan", &id, "--add", "Again", "--depends-on", "sq-7"],
    );
    assert_eq!(out.code, 2, "unknown dependency");
    let out = research(r.path(), &["plan", &id]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("sq-2  sq-1"), "{}", out.stdout);
    research(r.path(), &["mark", "aborted", &id]);
    assert_eq!(
        research(r.path(), &["plan", &id, "--add", "Late"]).code,
        2,
        "terminal session"
    );
}

#[test]
fn paths_reports_real_directories() {
    let r = root();
    let out = research(r.path(), &["paths", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let dir = |k: &str| std::path::PathBuf::from(v[k].as_str().unwrap());
    assert_eq!(
        dir("sessionsDir"),
        r.path().join(".cache/research/sessions")
    );
    let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../research");
    for name in ["searcher.md", "extractor.md"] {
        assert_eq!(
            fs::read(dir("briefsDir").join(name)).unwrap(),
            fs::read(crate_dir.join("briefs").join(name)).unwrap()
        );
    }
    for name in ["manifest", "plan", "finding", "sources", "gates"] {
        let file = format!("{name}.schema.json");
        let shipped = fs::read(crate_dir.join("schema").join(&file)).unwrap();
        assert_eq!(fs::read(dir("schemaDir").join(&file)).unwrap(), shipped);
        let _: serde_json::Value = serde_json::from_slice(&shipped).unwrap();
    }
    assert!(dir("workflowsDir").is_dir());
    assert_eq!(research(r.path(), &["paths"]).code, 0);
}

#[test]
fn root_discovery() {
    use sgw_research::root::discover;
    let r = root();
    let nested = r.path().join("a/b/c");
    fs::create_dir_all(&nested).unwrap();
    fs::create_dir(r.path().join("a/.git")).unwrap();
    let none = |_: &str| None;
    assert_eq!(discover(none, &nested).unwrap(), r.path().join("a"));
    let env = |k: &str| (k == "PA_REPO_ROOT").then(|| std::ffi::OsString::from("/elsewhere"));
    assert_eq!(
        discover(env, &nested).unwrap(),
        std::path::PathBuf::from("/elsewhere")
    );
    let both = |k: &str| {
        Some(std::ffi::OsString::from(if k == "DAVE_REPO_ROOT" {
            "/dave"
        } else {
            "/pa"
        }))
    };
    assert_eq!(
        discover(both, &nested).unwrap(),
        std::path::PathBuf::from("/dave")
    );
    let lonely = tempfile::tempdir().unwrap();
    let err = discover(none, lonely.path()).unwrap_err();
    assert_eq!(err.exit_code(), 2);
}

#[test]
fn sessions_directory_is_gitignored() {
    let r = root();
    let id = new_session(r.path(), "light");
    let sessions = r.path().join(".cache/research/sessions");
    let ignore = fs::read_to_string(sessions.join(".gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*") && ignore.lines().any(|l| l == "!.gitignore"));
    // When git is installed, ask it: the session's files are ignored, the .gitignore is not.
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(r.path())
            .output()
    };
    if git(&["init", "-q"]).is_ok_and(|o| o.status.success()) {
        let manifest = format!(".cache/research/sessions/{id}/manifest.json");
        let ignored = git(&["check-ignore", "-q", &manifest]).unwrap();
        assert!(ignored.status.success(), "{manifest} must be ignored");
        let own = git(&["check-ignore", "-q", ".cache/research/sessions/.gitignore"]).unwrap();
        assert!(!own.status.success(), "the .gitignore itself stays tracked");
    }
}
