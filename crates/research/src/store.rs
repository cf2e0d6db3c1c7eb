//! The write chokepoint: the only module that creates directories, writes files or
//! deletes anything.
//!
//! There is deliberately no "write this path" API. Callers hand over whole, typed
//! artifacts; the store validates each one ([`crate::validate`]) before it reaches the
//! disk and writes it atomically (temp file in the same directory, fsync, rename, fsync
//! the directory), so a reader — or a writer killed half-way — only ever sees the old
//! file or the new one. Read-modify-write goes through [`Store::transaction`], which
//! holds an exclusive advisory lock on `<session>/.lock`, so two concurrent
//! `gates --append` calls serialise instead of losing a record.
//!
//! Reads also live here (they are shared by every verb), but reads may fan out:
//! nothing stops a command from reading a session file directly.

use crate::error::{Error, Result};
use crate::model::*;
use crate::validate;
use serde::Serialize;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// File names inside a session directory.
pub const MANIFEST: &str = "manifest.json";
/// The plan.
pub const PLAN: &str = "plan.json";
/// The source registry.
pub const SOURCES: &str = "sources.json";
/// The human-gate queue.
pub const GATES: &str = "gates.json";
/// One finding per sub-question lives in here, as `sq-N.json`.
pub const FINDINGS_DIR: &str = "findings";
/// The synthesised answer, written by the workflow; promoted on `mark done`.
pub const ANSWER: &str = "answer.md";
const LOCK: &str = ".lock";

/// Session store rooted at an operator repo root.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
}

/// Everything on disk for one session, as `show --json` prints it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub manifest: Manifest,
    pub plan: Plan,
    pub sources: Vec<Source>,
    pub gates: Vec<Gate>,
    pub findings: Vec<Finding>,
}

/// One entry of the sessions directory, as `list` sees it.
#[derive(Debug)]
pub struct Scanned {
    /// The directory name (the session id, when well formed).
    pub dir_name: String,
    /// The manifest, or why it could not be read.
    pub manifest: Result<Manifest>,
}

/// Outcome of writing a knowledge-library document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placed {
    /// The file was written.
    Written(PathBuf),
    /// A file of that name already existed; nothing was written.
    AlreadyThere(PathBuf),
}

impl Store {
    /// A store for the repo rooted at `repo_root`. Nothing is created until a write.
    pub fn new(repo_root: impl Into<PathBuf>) -> Self {
        Store {
            root: repo_root.into(),
        }
    }

    /// The operator repo root.
    pub fn repo_root(&self) -> &Path {
        &self.root
    }

    /// `<root>/.cache/research`.
    pub fn research_dir(&self) -> PathBuf {
        self.root.join(".cache").join("research")
    }

    /// `<root>/.cache/research/sessions`.
    pub fn sessions_dir(&self) -> PathBuf {
        self.research_dir().join("sessions")
    }

    /// `<root>/operator/knowledge/research`.
    pub fn knowledge_dir(&self) -> PathBuf {
        self.root
            .join("operator")
            .join("knowledge")
            .join("research")
    }

    /// The directory of session `id`. The id is validated before any path is built.
    pub fn session_dir(&self, id: &str) -> Result<PathBuf> {
        validate::session_id(id).map_err(Error::from)?;
        Ok(self.sessions_dir().join(id))
    }

    /// The session directory, or `NotFound` when it does not exist.
    pub fn existing_session_dir(&self, id: &str) -> Result<PathBuf> {
        let dir = self.session_dir(id)?;
        // symlink_metadata: a session directory that is a link (possibly out
        // of the root) is not a session.
        match fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() => Ok(dir),
            Ok(_) => Err(Error::NotFound(format!("session {id} not found"))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(Error::NotFound(format!("session {id} not found")))
            }
            Err(e) => Err(Error::io("cannot read", &dir, e)),
        }
    }

    // ----------------------------------------------------------------- reads

    /// Session directory names, newest first (ULIDs sort by creation time).
    /// Hidden entries (temp and lock files) are skipped; a missing sessions dir is empty.
    pub fn session_names(&self) -> Result<Vec<String>> {
        let dir = self.sessions_dir();
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io("cannot read", &dir, e)),
        };
        let mut names = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| Error::io("cannot read", &dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let is_dir = entry
                .file_type()
                .map_err(|e| Error::io("cannot read", &entry.path(), e))?
                .is_dir();
            if is_dir {
                names.push(name);
            }
        }
        names.sort_by(|a, b| b.cmp(a));
        Ok(names)
    }

    /// Every session directory with its manifest (or the reason it is malformed).
    pub fn scan(&self) -> Result<Vec<Scanned>> {
        let names = self.session_names()?;
        Ok(names
            .into_iter()
            .map(|dir_name| {
                let manifest = match validate::session_id(&dir_name) {
                    Err(e) => Err(Error::malformed(&self.sessions_dir().join(&dir_name), e.0)),
                    Ok(()) => self.read_manifest(&dir_name),
                };
                Scanned { dir_name, manifest }
            })
            .collect())
    }

    /// Read and validate `manifest.json` (its `sessionId` must match the directory).
    pub fn read_manifest(&self, id: &str) -> Result<Manifest> {
        let dir = self.existing_session_dir(id)?;
        let path = dir.join(MANIFEST);
        let m = read_artifact(&path, validate::manifest_bytes)?;
        if m.session_id != id {
            return Err(Error::malformed(
                &path,
                format!("sessionId {} does not match its directory", m.session_id),
            ));
        }
        Ok(m)
    }

    /// Read and validate `plan.json`.
    pub fn read_plan(&self, id: &str) -> Result<Plan> {
        let path = self.existing_session_dir(id)?.join(PLAN);
        let p = read_artifact(&path, validate::plan_bytes)?;
        if p.session_id != id {
            return Err(Error::malformed(
                &path,
                format!("sessionId {} does not match its directory", p.session_id),
            ));
        }
        Ok(p)
    }

    /// Read and validate `sources.json`.
    pub fn read_sources(&self, id: &str) -> Result<SourcesFile> {
        read_artifact(
            &self.existing_session_dir(id)?.join(SOURCES),
            validate::sources_bytes,
        )
    }

    /// Read and validate `gates.json`.
    pub fn read_gates(&self, id: &str) -> Result<GatesFile> {
        read_artifact(
            &self.existing_session_dir(id)?.join(GATES),
            validate::gates_bytes,
        )
    }

    /// Read and validate every `findings/sq-N.json`, ordered by N.
    pub fn read_findings(&self, id: &str) -> Result<Vec<Finding>> {
        let dir = self.existing_session_dir(id)?.join(FINDINGS_DIR);
        if fs::symlink_metadata(&dir).is_ok_and(|m| !m.is_dir()) {
            return Err(Error::malformed(&dir, "findings/ is not a directory"));
        }
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io("cannot read", &dir, e)),
        };
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| Error::io("cannot read", &dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = entry.path();
            let sq = name
                .strip_suffix(".json")
                .and_then(|stem| {
                    validate::sub_question_id(stem)
                        .ok()
                        .map(|n| (n, stem.to_string()))
                })
                .ok_or_else(|| Error::malformed(&path, "findings/ holds only sq-N.json files"))?;
            let f = read_artifact(&path, validate::finding_bytes)?;
            if f.sub_question_id != sq.1 {
                return Err(Error::malformed(
                    &path,
                    format!(
                        "subQuestionId {} does not match the file name",
                        f.sub_question_id
                    ),
                ));
            }
            found.push((sq.0, f));
        }
        found.sort_by_key(|(n, _)| *n);
        Ok(found.into_iter().map(|(_, f)| f).collect())
    }

    /// The session's `answer.md`, if the workflow wrote one.
    pub fn read_answer(&self, id: &str) -> Result<Option<String>> {
        let path = self.existing_session_dir(id)?.join(ANSWER);
        match read_session_file(&path)? {
            Some(bytes) => String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| Error::malformed(&path, "not UTF-8")),
            None => Ok(None),
        }
    }

    /// Read and validate the whole session.
    pub fn load(&self, id: &str) -> Result<Session> {
        Ok(Session {
            manifest: self.read_manifest(id)?,
            plan: self.read_plan(id)?,
            sources: self.read_sources(id)?.sources,
            gates: self.read_gates(id)?.gates,
            findings: self.read_findings(id)?,
        })
    }

    // ---------------------------------------------------------------- writes

    /// Create a session: manifest, plan, empty sources and gates, and `findings/`.
    ///
    /// The session is assembled in a hidden temp directory and renamed into place, so a
    /// half-created session is never visible.
    pub fn create_session(&self, manifest: &Manifest, plan: &Plan) -> Result<PathBuf> {
        validate::manifest(manifest).map_err(|e| Error::Usage(format!("invalid manifest: {e}")))?;
        validate::plan(plan).map_err(|e| Error::Usage(format!("invalid plan: {e}")))?;
        let sources = SourcesFile {
            schema_version: SCHEMA_VERSION,
            sources: Vec::new(),
        };
        let gates = GatesFile {
            schema_version: SCHEMA_VERSION,
            gates: Vec::new(),
        };
        let final_dir = self.session_dir(&manifest.session_id)?;
        if plan.session_id != manifest.session_id {
            return Err(Error::Usage(
                "plan and manifest name different sessions".into(),
            ));
        }
        let sessions = self.sessions_dir();
        fs::create_dir_all(&sessions).map_err(|e| Error::io("cannot create", &sessions, e))?;
        // Runtime session data never goes into git (the seed's §16).
        let ignore = sessions.join(".gitignore");
        if fs::symlink_metadata(&ignore).is_err() {
            atomic_write(&ignore, SESSIONS_GITIGNORE.as_bytes())?;
        }
        if final_dir.exists() {
            return Err(Error::Operational(format!(
                "session {} already exists",
                manifest.session_id
            )));
        }
        let tmp = sessions.join(format!(
            ".tmp-{}-{}",
            manifest.session_id,
            std::process::id()
        ));
        let build = || -> Result<()> {
            fs::create_dir(&tmp).map_err(|e| Error::io("cannot create", &tmp, e))?;
            let findings = tmp.join(FINDINGS_DIR);
            fs::create_dir(&findings).map_err(|e| Error::io("cannot create", &findings, e))?;
            write_json(&tmp.join(MANIFEST), manifest)?;
            write_json(&tmp.join(PLAN), plan)?;
            write_json(&tmp.join(SOURCES), &sources)?;
            write_json(&tmp.join(GATES), &gates)?;
            sync_dir(&tmp)?;
            fs::rename(&tmp, &final_dir).map_err(|e| Error::io("cannot create", &final_dir, e))?;
            sync_dir(&sessions)
        };
        build().inspect_err(|_| {
            let _ = fs::remove_dir_all(&tmp);
        })?;
        Ok(final_dir)
    }

    /// Run `f` with the session's writer lock held. Every read-modify-write of a
    /// session goes through here.
    pub fn transaction<T>(&self, id: &str, f: impl FnOnce(&mut Txn<'_>) -> Result<T>) -> Result<T> {
        let dir = self.existing_session_dir(id)?;
        let lock_path = dir.join(LOCK);
        // A regular file, not a link, opened without blocking: a FIFO or a
        // device planted as `.lock` is an error, not a hang.
        let lock = sgw_safeio::open_regular(
            &lock_path,
            OpenOptions::new().create(true).truncate(false).write(true),
            sgw_safeio::Follow::No,
        )
        .map_err(|e| match e {
            sgw_safeio::ReadError::Io(e) => Error::io("cannot open lock", &lock_path, e),
            // A directory cannot be opened for writing: the disk refuses, as
            // it would without the check (exit 3), whereas a planted FIFO or
            // device is a malformed session (exit 2).
            sgw_safeio::ReadError::NotRegular { kind: "directory" } => Error::io(
                "cannot open lock",
                &lock_path,
                std::io::Error::from(std::io::ErrorKind::IsADirectory),
            ),
            other => Error::malformed(&lock_path, other.to_string()),
        })?;
        lock.lock()
            .map_err(|e| Error::io("cannot lock", &lock_path, e))?;
        // The lock may have been taken on a session that was pruned meanwhile.
        if !dir.exists() {
            return Err(Error::NotFound(format!("session {id} not found")));
        }
        remove_stale_temp_files(&dir);
        // Never append to a session `list` calls MALFORMED: every file must
        // read and validate before anything is written.
        self.load(id)?;
        let mut txn = Txn {
            store: self,
            id: id.to_string(),
            dir,
        };
        let out = f(&mut txn);
        drop(lock); // closing the file releases the lock
        out
    }

    /// Set a terminal status. Refuses (exit 2) when the session is already terminal.
    pub fn update_manifest_status(
        &self,
        id: &str,
        status: Status,
        now: jiff::Timestamp,
    ) -> Result<Manifest> {
        self.transaction(id, |txn| {
            let mut m = txn.manifest()?;
            if m.status.is_terminal() {
                return Err(Error::Operational(format!(
                    "session {id} is already {}; mark is one-way",
                    m.status
                )));
            }
            m.status = status;
            m.updated_at = now.max(m.created_at);
            txn.write_manifest(&m)?;
            Ok(m)
        })
    }

    /// Delete a whole session. The directory is first renamed to a hidden name, so it
    /// disappears from `list` atomically even if the removal is interrupted.
    pub fn delete_session(&self, id: &str) -> Result<()> {
        let dir = self.existing_session_dir(id)?;
        let doomed = self
            .sessions_dir()
            .join(format!(".del-{id}-{}", std::process::id()));
        fs::rename(&dir, &doomed).map_err(|e| Error::io("cannot delete", &dir, e))?;
        sync_dir(&self.sessions_dir())?;
        fs::remove_dir_all(&doomed).map_err(|e| Error::io("cannot delete", &doomed, e))
    }

    /// Write a document into the knowledge library (`operator/knowledge/research/`).
    /// Deterministic names make this idempotent: an existing file is left alone.
    pub fn place_knowledge_doc(&self, file_name: &str, contents: &str) -> Result<Placed> {
        if file_name.contains(['/', '\\'])
            || file_name.starts_with('.')
            || !file_name.ends_with(".md")
        {
            return Err(Error::Usage(format!(
                "invalid knowledge document name {file_name:?}"
            )));
        }
        let dir = self.knowledge_dir();
        let path = dir.join(file_name);
        if path.exists() {
            return Ok(Placed::AlreadyThere(path));
        }
        fs::create_dir_all(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
        atomic_write(&path, contents.as_bytes())?;
        Ok(Placed::Written(path))
    }

    /// Write the embedded reference files (schemas, briefs) under
    /// `<root>/.cache/research/<kind>/`, rewriting only what differs. Returns the dir.
    pub fn materialize(&self, kind: Reference, files: &[(&str, &str)]) -> Result<PathBuf> {
        let dir = self.research_dir().join(kind.dir_name());
        fs::create_dir_all(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
        for (name, contents) in files {
            let path = dir.join(name);
            if fs::read(&path).ok().as_deref() != Some(contents.as_bytes()) {
                atomic_write(&path, contents.as_bytes())?;
            }
        }
        Ok(dir)
    }
}

/// The reference directories `paths` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference {
    /// JSON Schemas of the five artifacts.
    Schema,
    /// Worker dispatch briefs.
    Briefs,
    /// Workflow scripts.
    Workflows,
}

impl Reference {
    fn dir_name(self) -> &'static str {
        match self {
            Reference::Schema => "schema",
            Reference::Briefs => "briefs",
            Reference::Workflows => "workflows",
        }
    }
}

/// A locked session, handed to [`Store::transaction`] closures. Writes validate first.
#[derive(Debug)]
pub struct Txn<'a> {
    store: &'a Store,
    id: String,
    dir: PathBuf,
}

impl Txn<'_> {
    /// The session id.
    pub fn id(&self) -> &str {
        &self.id
    }
    /// Read the manifest.
    pub fn manifest(&self) -> Result<Manifest> {
        self.store.read_manifest(&self.id)
    }
    /// Read the plan.
    pub fn plan(&self) -> Result<Plan> {
        self.store.read_plan(&self.id)
    }
    /// Read the source registry.
    pub fn sources(&self) -> Result<SourcesFile> {
        self.store.read_sources(&self.id)
    }
    /// Read the gate queue.
    pub fn gates(&self) -> Result<GatesFile> {
        self.store.read_gates(&self.id)
    }
    /// Read all findings.
    pub fn findings(&self) -> Result<Vec<Finding>> {
        self.store.read_findings(&self.id)
    }

    /// Validate and write the manifest.
    pub fn write_manifest(&mut self, m: &Manifest) -> Result<()> {
        validate::manifest(m)
            .map_err(|e| Error::Usage(format!("refusing to write invalid manifest: {e}")))?;
        self.same_session(&m.session_id)?;
        write_json(&self.dir.join(MANIFEST), m)
    }
    /// Validate and write the plan.
    pub fn write_plan(&mut self, p: &Plan) -> Result<()> {
        validate::plan(p)
            .map_err(|e| Error::Usage(format!("refusing to write invalid plan: {e}")))?;
        self.same_session(&p.session_id)?;
        write_json(&self.dir.join(PLAN), p)
    }
    /// Validate and write the source registry.
    pub fn write_sources(&mut self, s: &SourcesFile) -> Result<()> {
        validate::sources(s)
            .map_err(|e| Error::Usage(format!("refusing to write invalid sources: {e}")))?;
        write_json(&self.dir.join(SOURCES), s)
    }
    /// Validate and write the gate queue.
    pub fn write_gates(&mut self, g: &GatesFile) -> Result<()> {
        validate::gates(g)
            .map_err(|e| Error::Usage(format!("refusing to write invalid gates: {e}")))?;
        write_json(&self.dir.join(GATES), g)
    }
    /// Validate and write (or replace) `findings/<subQuestionId>.json`.
    pub fn write_finding(&mut self, f: &Finding) -> Result<()> {
        validate::finding(f)
            .map_err(|e| Error::Usage(format!("refusing to write invalid finding: {e}")))?;
        let dir = self.dir.join(FINDINGS_DIR);
        fs::create_dir_all(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
        write_json(&dir.join(format!("{}.json", f.sub_question_id)), f)
    }

    fn same_session(&self, id: &str) -> Result<()> {
        if id != self.id {
            return Err(Error::Usage(format!(
                "artifact names session {id}, not {}",
                self.id
            )));
        }
        Ok(())
    }
}

/// The largest session file read (a manifest, a plan, a gate queue, a
/// finding, `answer.md`): far above anything the CLI writes, far below what
/// would hurt the machine.
pub const MAX_ARTIFACT_BYTES: u64 = 16 << 20;

/// Reads a session file: a regular file, not a symbolic link (so a session
/// never reads outside the root), at most [`MAX_ARTIFACT_BYTES`]. A FIFO, a
/// device or a link is a malformed session, not a hang or an endless read.
fn read_session_file(path: &Path) -> Result<Option<Vec<u8>>> {
    match sgw_safeio::read_file(path, MAX_ARTIFACT_BYTES, sgw_safeio::Follow::No) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(sgw_safeio::ReadError::Io(e)) => Err(Error::io("cannot read", path, e)),
        // As reading a directory always was: an I/O failure (exit 3).
        Err(sgw_safeio::ReadError::NotRegular { kind: "directory" }) => Err(Error::io(
            "cannot read",
            path,
            io::Error::new(io::ErrorKind::IsADirectory, "is a directory"),
        )),
        Err(e) => Err(Error::malformed(path, e.to_string())),
    }
}

fn read_artifact<T>(
    path: &Path,
    parse: impl FnOnce(&[u8]) -> Result<T, validate::Invalid>,
) -> Result<T> {
    let Some(bytes) = read_session_file(path)? else {
        return Err(Error::malformed(path, "file is missing"));
    };
    parse(&bytes).map_err(|reason| Error::malformed(path, reason.0))
}

/// Removes the temp files of writers that died between writing and renaming
/// (`.gates.json.tmp-<pid>-<ulid>`). Called with the session's writer lock
/// held: every write into a session directory happens under that lock, so a
/// temp file seen then belongs to no live writer.
fn remove_stale_temp_files(dir: &Path) {
    for d in [dir.to_path_buf(), dir.join(FINDINGS_DIR)] {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_temp = name.starts_with('.') && name.contains(".tmp-");
            if is_temp
                && entry
                    .file_type()
                    .is_ok_and(|t| t.is_file() || t.is_symlink())
            {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value)
        .map_err(|e| Error::Usage(format!("cannot encode {}: {e}", path.display())))?;
    bytes.push(b'\n');
    atomic_write(path, &bytes)
}

/// Temp file in the same directory, fsync, rename over the target, fsync the directory.
/// The sessions directory's `.gitignore`: everything in it but itself.
const SESSIONS_GITIGNORE: &str =
    "# Runtime research sessions: operational data, never tracked.\n*\n!.gitignore\n";

fn atomic_write(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        ulid::Ulid::new()
    ));
    let write = || -> io::Result<()> {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    };
    if let Err(e) = write() {
        let _ = fs::remove_file(&tmp);
        return Err(Error::io("cannot write", path, e));
    }
    sync_dir(dir)
}

fn sync_dir(dir: &Path) -> Result<()> {
    // Directories cannot be opened for fsync on every platform; where they can, do it.
    match File::open(dir) {
        Ok(d) => match d.sync_all() {
            Ok(()) => Ok(()),
            Err(e) if cfg!(windows) || e.kind() == io::ErrorKind::PermissionDenied => Ok(()),
            Err(e) => Err(Error::io("cannot sync", dir, e)),
        },
        Err(_) if cfg!(windows) => Ok(()),
        Err(e) => Err(Error::io("cannot sync", dir, e)),
    }
}
