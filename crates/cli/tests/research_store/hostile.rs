//! Hostile session files: links out of the root, FIFOs, devices, endless
//! stdin, writers killed half-way, malformed sessions. Every read is bounded,
//! nothing hangs, nothing is appended to a session `list` calls MALFORMED.

use crate::support::*;
use std::fs;
use std::path::Path;

const REC: &str = r#"{"url":"https://y.example","gateType":"login","whatIsNeeded":"sign in"}"#;

fn mkfifo(path: &Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_session_file_linked_to_a_device_is_malformed_not_read() {
    let r = tempfile::tempdir().unwrap();
    let id = new_session(r.path(), "light");
    let gates = session_dir(r.path(), &id).join("gates.json");
    fs::remove_file(&gates).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &gates).unwrap();
    for args in [
        vec!["show", id.as_str()],
        vec!["gates", "--list", id.as_str()],
    ] {
        let out = research(r.path(), &args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("symbolic link"), "{}", out.stderr);
    }
}

#[test]
fn fifos_never_hang_a_read_or_the_lock() {
    let r = tempfile::tempdir().unwrap();
    let id = new_session(r.path(), "light");
    let other = new_session(r.path(), "light");
    let dir = session_dir(r.path(), &id);
    fs::remove_file(dir.join("gates.json")).unwrap();
    if !mkfifo(&dir.join("gates.json")) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    for args in [
        vec!["show", id.as_str()],
        vec!["gates", "--list"],
        vec!["gates", "--append", id.as_str(), "--record", REC],
    ] {
        let out = research(r.path(), &args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("FIFO"), "{args:?}: {}", out.stderr);
    }
    let lock = session_dir(r.path(), &other).join(".lock");
    let _ = fs::remove_file(&lock);
    assert!(mkfifo(&lock));
    let out = research(r.path(), &["mark", "aborted", &other]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains(".lock"), "{}", out.stderr);
}

#[test]
fn endless_stdin_is_cut_at_the_cap() {
    let r = tempfile::tempdir().unwrap();
    let id = new_session(r.path(), "light");
    let endless = " ".repeat((16 << 20) + 1);
    let out = research_at(r.path(), now(), &["gates", "--append", &id], &endless);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("larger than"), "{}", out.stderr);
}

#[test]
fn temp_files_of_killed_writers_are_cleaned_under_the_lock() {
    let r = tempfile::tempdir().unwrap();
    let id = new_session(r.path(), "light");
    let dir = session_dir(r.path(), &id);
    let stale = dir.join(".gates.json.tmp-999999-01J00000000000000000000000");
    fs::write(&stale, b"{\"half\": ").unwrap();
    let out = research(r.path(), &["gates", "--append", &id, "--record", REC]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!stale.exists());
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_malformed_session_is_never_appended_to() {
    let r = tempfile::tempdir().unwrap();
    let id = new_session(r.path(), "light");
    let dir = session_dir(r.path(), &id);
    fs::write(dir.join("manifest.json"), b"{ not json").unwrap();
    let list = research(r.path(), &["list"]);
    assert!(list.stdout.contains("MALFORMED"), "{}", list.stdout);
    let before = fs::read(dir.join("gates.json")).unwrap();
    let out = research(r.path(), &["gates", "--append", &id, "--record", REC]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("manifest.json"), "{}", out.stderr);
    assert_eq!(fs::read(dir.join("gates.json")).unwrap(), before);
}

#[test]
fn a_session_directory_linked_out_of_the_root_is_not_followed() {
    let r = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let id = new_session(outside.path(), "light");
    let target = session_dir(outside.path(), &id);
    let sessions = r.path().join(".cache/research/sessions");
    fs::create_dir_all(&sessions).unwrap();
    std::os::unix::fs::symlink(&target, sessions.join(&id)).unwrap();
    let out = research(r.path(), &["show", &id]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("not found"), "{}", out.stderr);
    let out = research(r.path(), &["gates", "--append", &id, "--record", REC]);
    assert_eq!(out.code, 2, "{}", out.stderr);
}

#[test]
fn terminal_escapes_in_a_question_are_not_echoed_raw() {
    let r = tempfile::tempdir().unwrap();
    let question = "What is \u{1b}]0;pwned\u{7}\u{1b}[2J a ULID?";
    let out = research_at(
        r.path(),
        now(),
        &["run", "--mode", "light", "--question", question],
        "",
    );
    if out.code != 0 {
        // Refusing such a question outright is as good as neutralising it.
        assert!(!out.stderr.contains('\u{1b}'), "{:?}", out.stderr);
        return;
    }
    assert!(!out.stdout.contains('\u{1b}'), "{:?}", out.stdout);
    let id = out
        .stdout
        .lines()
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap();
    let show = research(r.path(), &["show", id]);
    assert!(!show.stdout.contains('\u{1b}'), "{:?}", show.stdout);
    assert!(show.stdout.contains("\\x1b]0;pwned"), "{:?}", show.stdout);
}
