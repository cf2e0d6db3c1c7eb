//! The same bad `--store` gives the same exit code in every command that opens
//! the evidence store, in both tools (`sgw search`, `sgw cache`, `sgw evidence requests`,
//! `research search`, `research gates --resolve`): one mapping, by the store's
//! error kind.

use assert_cmd::Command;
use std::path::Path;

/// A command with no store or policy from the environment.
fn bin(name: &str) -> Command {
    let mut cmd = Command::cargo_bin(name).unwrap();
    cmd.env_remove("SGW_STORE")
        .env_remove("SGW_POLICY")
        .env_remove("DAVE_REPO_ROOT");
    cmd
}

/// A research root with one session, sub-question `sq-1` and gate `g-1`;
/// returns the session id.
fn research_session(root: &Path) -> String {
    let research = |args: &[&str]| {
        let out = bin("research")
            .env("PA_REPO_ROOT", root)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "research {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let created = research(&[
        "run",
        "--mode",
        "normal",
        "--question",
        "What is the policy rate?",
    ]);
    let id = created
        .lines()
        .next()
        .and_then(|l| l.rsplit(' ').next())
        .unwrap()
        .to_string();
    research(&["plan", &id, "--add", "What is the rate today?"]);
    research(&[
        "gates",
        "--append",
        &id,
        "--record",
        r#"{"url":"https://walled.example/rate","gateType":"login","whatIsNeeded":"sign in","subQuestionId":"sq-1"}"#,
    ]);
    id
}

/// The exit code of every store-opening command with `--store store`.
fn codes(root: &Path, id: &str, store: &str) -> Vec<(&'static str, i32)> {
    let run = |name: &'static str, tool: &str, args: &[&str]| {
        let out = bin(tool)
            .env("PA_REPO_ROOT", root)
            .args(args)
            .args(["--store", store])
            .output()
            .unwrap();
        // The failure is the store's, not a mistyped command line.
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("store"), "{name}: {stderr}");
        (name, out.status.code().unwrap_or(-1))
    };
    vec![
        run("sgw search", "sgw", &["search", "what is the policy rate"]),
        run("sgw cache list", "sgw", &["cache", "list"]),
        run("sgw cache stats", "sgw", &["cache", "stats"]),
        run("sgw evidence requests", "sgw", &["evidence", "requests"]),
        run(
            "research search",
            "research",
            &["search", id, "--sub-question", "sq-1"],
        ),
        run(
            "research gates --resolve",
            "research",
            &[
                "gates",
                "--resolve",
                id,
                "g-1",
                "--text",
                "The rate is 4.5%.",
            ],
        ),
    ]
}

fn assert_all(codes: &[(&str, i32)], expected: i32) {
    for (name, code) in codes {
        assert_eq!(*code, expected, "{name}: {codes:?}");
    }
}

#[test]
fn an_unsupported_store_scheme_is_a_usage_error_everywhere() {
    let root = tempfile::tempdir().unwrap();
    let id = research_session(root.path());
    let codes = codes(root.path(), &id, "ftp://store.invalid/evidence");
    assert_all(&codes, 1);
}

#[test]
fn a_store_path_under_a_regular_file_is_a_bad_location_everywhere() {
    let root = tempfile::tempdir().unwrap();
    let id = research_session(root.path());
    let file = root.path().join("not-a-directory");
    std::fs::write(&file, b"plain file").unwrap();
    let store = file.join("evidence.db");
    let codes = codes(root.path(), &id, store.to_str().unwrap());
    assert_all(&codes, 1);
}

#[test]
fn a_store_file_that_is_not_a_database_is_a_store_failure_everywhere() {
    let root = tempfile::tempdir().unwrap();
    let id = research_session(root.path());
    let store = root.path().join("evidence.db");
    std::fs::write(&store, "not a database, ".repeat(512)).unwrap();
    let codes = codes(root.path(), &id, store.to_str().unwrap());
    assert_all(&codes, 3);
}
