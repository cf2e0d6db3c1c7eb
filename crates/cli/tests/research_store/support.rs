//! Shared helpers: an in-process `research` runner against a temp root.

use jiff::Timestamp;
use sgw_cli::research::{Env, Io, run};
use std::path::{Path, PathBuf};

/// The exit code the `research` CLI gives a library error.
pub trait ExitCodeOf {
    fn exit_code(&self) -> u8;
}

impl ExitCodeOf for sgw_research::Error {
    fn exit_code(&self) -> u8 {
        sgw_cli::exit::research_exit_code(self)
    }
}

pub struct Out {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
}

pub fn now() -> Timestamp {
    "2026-05-01T10:00:00Z".parse().unwrap()
}

pub fn days_later(days: i64) -> Timestamp {
    now()
        .checked_add(jiff::SignedDuration::from_hours(24 * days))
        .unwrap()
}

/// Run `research <args>` in-process at `root` with the fixed clock.
pub fn research(root: &Path, args: &[&str]) -> Out {
    research_at(root, now(), args, "")
}

pub fn research_at(root: &Path, at: Timestamp, args: &[&str], stdin: &str) -> Out {
    let mut input = stdin.as_bytes();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut io = Io {
        stdin: &mut input,
        stdout: &mut stdout,
        stderr: &mut stderr,
    };
    let argv = std::iter::once("research").chain(args.iter().copied());
    let code = run(argv, &Env::fixed(root, at), &mut io);
    Out {
        code,
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    }
}

/// Create a session and return its id.
pub fn new_session(root: &Path, mode: &str) -> String {
    new_session_at(root, now(), mode, "What is a ULID?")
}

pub fn new_session_at(root: &Path, at: Timestamp, mode: &str, question: &str) -> String {
    let out = research_at(
        root,
        at,
        &["run", "--mode", mode, "--question", question],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
        .lines()
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string()
}

pub fn session_dir(root: &Path, id: &str) -> PathBuf {
    root.join(".cache/research/sessions").join(id)
}

pub fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}
