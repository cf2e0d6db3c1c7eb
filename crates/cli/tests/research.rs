//! The real `research` binary: exit codes, stdin, concurrent processes.

use assert_cmd::Command;
use std::collections::HashSet;
use std::path::Path;

fn research(root: &Path) -> Command {
    let mut cmd = Command::cargo_bin("research").unwrap();
    cmd.env("PA_REPO_ROOT", root).env_remove("DAVE_REPO_ROOT");
    cmd
}

fn create(root: &Path, mode: &str) -> String {
    let out = research(root)
        .args(["run", "--mode", mode, "--question", "What is a ULID?"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    stdout
        .lines()
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string()
}

fn code(cmd: &mut Command) -> i32 {
    cmd.output().unwrap().status.code().unwrap()
}

#[test]
fn help_and_usage_exit_codes() {
    let root = tempfile::tempdir().unwrap();
    research(root.path())
        .arg("--help")
        .assert()
        .code(0)
        .stdout(predicates::str::contains("prune"));
    research(root.path()).assert().code(1);
    research(root.path()).arg("explode").assert().code(1);
    research(root.path())
        .args(["run", "--mode", "huge", "--question", "q"])
        .assert()
        .code(1);
    research(root.path()).arg("prune").assert().code(1);
    research(root.path())
        .args(["show", "not-an-id"])
        .assert()
        .code(1);
}

#[test]
fn lifecycle_through_the_binary() {
    let root = tempfile::tempdir().unwrap();
    let id = create(root.path(), "normal");
    research(root.path())
        .arg("list")
        .assert()
        .code(0)
        .stdout(predicates::str::contains(&id));
    research(root.path())
        .args(["plan", &id, "--add", "Layout?"])
        .assert()
        .code(0);
    research(root.path())
        .args(["gates", "--append", &id])
        .write_stdin(r#"[{"url":"https://x","gateType":"cloudflare","whatIsNeeded":"clear the challenge","subQuestionId":"sq-1"}]"#)
        .assert()
        .code(0)
        .stdout(predicates::str::contains("g-1"));
    research(root.path())
        .args(["gates", "--append", &id])
        .write_stdin("[]")
        .assert()
        .code(2);
    research(root.path())
        .args(["gates", "--append", &id])
        .write_stdin("{oops")
        .assert()
        .code(1);
    research(root.path())
        .args(["show", &id])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("Gates"));
    let json = research(root.path())
        .args(["show", &id, "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["gates"][0]["gateId"], "g-1");
    std::fs::write(
        root.path()
            .join(format!(".cache/research/sessions/{id}/answer.md")),
        "Answer.\n",
    )
    .unwrap();
    research(root.path())
        .args(["mark", "done", &id])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("promoted"));
    research(root.path())
        .args(["mark", "done", &id])
        .assert()
        .code(2);
    research(root.path())
        .args(["prune", "--status", "aborted"])
        .assert()
        .code(2);
    research(root.path())
        .args(["prune", "--status", "done"])
        .assert()
        .code(0);
    research(root.path()).args(["show", &id]).assert().code(2);
    let paths = research(root.path())
        .args(["paths", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&paths.stdout).unwrap();
    for key in ["sessionsDir", "briefsDir", "workflowsDir", "schemaDir"] {
        assert!(v[key].is_string(), "{key}");
    }
    assert!(
        Path::new(v["briefsDir"].as_str().unwrap())
            .join("searcher.md")
            .is_file()
    );
    assert!(
        Path::new(v["schemaDir"].as_str().unwrap())
            .join("gates.schema.json")
            .is_file()
    );
}

#[test]
fn garbage_session_file_is_exit_2_naming_it() {
    let root = tempfile::tempdir().unwrap();
    let id = create(root.path(), "light");
    std::fs::write(
        root.path()
            .join(format!(".cache/research/sessions/{id}/sources.json")),
        "\u{0}garbage",
    )
    .unwrap();
    research(root.path())
        .args(["show", &id])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("sources.json"));
}

#[test]
fn disk_failure_is_exit_3() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join(".cache/research")).unwrap();
    std::fs::write(
        root.path().join(".cache/research/sessions"),
        "not a directory",
    )
    .unwrap();
    assert_eq!(
        code(research(root.path()).args(["run", "--mode", "light", "--question", "q"])),
        3
    );
    assert_eq!(code(research(root.path()).arg("list")), 3);
}

#[test]
fn repo_root_is_found_by_walking_up_to_git() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join(".git")).unwrap();
    let deep = root.path().join("a/b");
    std::fs::create_dir_all(&deep).unwrap();
    let mut cmd = Command::cargo_bin("research").unwrap();
    cmd.env_remove("PA_REPO_ROOT")
        .env_remove("DAVE_REPO_ROOT")
        .current_dir(&deep);
    cmd.args(["run", "--mode", "light", "--question", "q"])
        .assert()
        .code(0);
    assert_eq!(
        std::fs::read_dir(root.path().join(".cache/research/sessions"))
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name() != ".gitignore")
            .count(),
        1
    );
}

#[test]
fn two_processes_appending_at_once_lose_nothing() {
    let root = tempfile::tempdir().unwrap();
    let id = create(root.path(), "normal");
    let bin = assert_cmd::cargo::cargo_bin("research");
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let (bin, root, id) = (bin.clone(), root.path().to_path_buf(), id.clone());
            std::thread::spawn(move || {
                for i in 0..15 {
                    let rec = format!(r#"{{"url":"https://w{w}/{i}","gateType":"login","whatIsNeeded":"sign in"}}"#);
                    let status = std::process::Command::new(&bin)
                        .env("PA_REPO_ROOT", &root)
                        .args(["gates", "--append", &id, "--record", &rec])
                        .stdout(std::process::Stdio::null())
                        .status()
                        .unwrap();
                    assert!(status.success());
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let out = research(root.path())
        .args(["gates", "--list", &id, "--json"])
        .output()
        .unwrap();
    let gates: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(gates.len(), 30);
    let ids: HashSet<&str> = gates
        .iter()
        .map(|g| g["gateId"].as_str().unwrap())
        .collect();
    let urls: HashSet<&str> = gates.iter().map(|g| g["url"].as_str().unwrap()).collect();
    assert_eq!((ids.len(), urls.len()), (30, 30));
}
