//! The `research` command line: argument parsing, verb routing, and the only place
//! where errors become exit codes (0 ok, 1 usage, 2 operational, 3 I/O).
//!
//! [`run`] takes everything it touches as parameters — arguments, an [`Env`] (root and
//! clock) and an [`Io`] (stdin, stdout, stderr) — so tests drive it in-process.

use crate::error::{Error, Result};
use crate::model::*;
use crate::ops::{self, NewSession, PruneFilter};
use crate::promote::{self, Promotion};
use crate::store::{Reference, Store};
use crate::{format, reference, root, validate};
use clap::{Args, Parser, Subcommand, ValueEnum};
use jiff::Timestamp;
use serde_json::json;
use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;

/// Where the repo root comes from, and what time it is.
#[derive(Debug, Clone)]
pub struct Env {
    /// Environment variables consulted for root discovery (`DAVE_REPO_ROOT`, `PA_REPO_ROOT`).
    pub vars: HashMap<String, OsString>,
    /// Working directory discovery walks up from.
    pub cwd: PathBuf,
    /// The clock, read once per invocation.
    pub now: Timestamp,
}

impl Env {
    /// The real process environment and clock.
    pub fn from_process() -> Self {
        let vars = root::ROOT_ENV_VARS
            .iter()
            .filter_map(|k| std::env::var_os(k).map(|v| (k.to_string(), v)))
            .collect();
        Env {
            vars,
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            now: Timestamp::now(),
        }
    }

    /// A fixed root (as if `PA_REPO_ROOT` were set) and clock.
    pub fn fixed(root: impl Into<PathBuf>, now: Timestamp) -> Self {
        let root = root.into();
        let vars = HashMap::from([("PA_REPO_ROOT".to_string(), root.clone().into_os_string())]);
        Env {
            vars,
            cwd: root,
            now,
        }
    }

    fn store(&self) -> Result<Store> {
        root::discover(|k| self.vars.get(k).cloned(), &self.cwd).map(Store::new)
    }
}

/// The three standard streams.
pub struct Io<'a> {
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
}

impl std::fmt::Debug for Io<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Io")
    }
}

/// Deep-research session store: create, inspect, mark and prune research sessions.
///
/// Sessions live under <repo root>/.cache/research/sessions/ (repo root: $DAVE_REPO_ROOT,
/// $PA_REPO_ROOT, else the nearest parent with a .git entry).
///
/// Exit codes: 0 ok, 1 usage error, 2 operational failure (not found, malformed
/// session file, nothing matched, already terminal), 3 disk I/O failure.
#[derive(Debug, Parser)]
#[command(
    name = "research",
    version,
    disable_help_subcommand = true,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    /// Create a session (manifest + skeleton plan) and print it. Never spawns workers.
    Run(RunArgs),
    /// List sessions, newest first (20 most recent unless --all).
    List(ListArgs),
    /// Show one session: manifest, plan, findings, sources, gates.
    Show(ShowArgs),
    /// Inspect or change the human-gate queue (exactly one of --list, --retry, --append).
    Gates(GatesArgs),
    /// Delete sessions older than N days and/or with a status (at least one filter).
    Prune(PruneArgs),
    /// Set a terminal status (one-way). `mark done` promotes normal/deep answers.
    Mark(MarkArgs),
    /// Show the plan, or add/remove a sub-question.
    Plan(PlanArgs),
    /// Print the workflow-facing paths (sessionsDir, briefsDir, workflowsDir, schemaDir).
    Paths(PathsArgs),
}

#[derive(Debug, Args)]
struct RunArgs {
    /// light (0 rounds, no verify), normal (1 round, central-3vote), deep (3 rounds, diverse-lens-3vote).
    #[arg(long)]
    mode: Mode,
    /// The research question.
    #[arg(long)]
    question: String,
    /// Human-gate posture recorded in the manifest.
    #[arg(long, default_value = "worker")]
    gate: GatePolicy,
    /// Clarified intent, recorded on the manifest.
    #[arg(long)]
    intent: Option<String>,
    /// Synthesis render target.
    #[arg(long, default_value = "shortAnswer")]
    output: OutputKind,
    /// Validate and print without persisting.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Debug, Args)]
struct ListArgs {
    /// Only sessions with this status.
    #[arg(long)]
    status: Option<Status>,
    /// Every session, not just the 20 most recent.
    #[arg(long)]
    all: bool,
    /// Emit manifests as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct ShowArgs {
    /// The session id (26-character ULID).
    session_id: String,
    /// Emit { manifest, plan, sources, gates, findings } as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct GatesArgs {
    /// The gate queue across all sessions, or of one session.
    #[arg(long, value_name = "SESSION_ID", num_args = 0..=1)]
    list: Option<Option<String>>,
    /// Mark pending/retrying gates of a session as retrying.
    #[arg(long, value_name = "SESSION_ID")]
    retry: Option<String>,
    /// Append gate records (a JSON array on stdin, or --record).
    #[arg(long, value_name = "SESSION_ID")]
    append: Option<String>,
    /// One gate record as a JSON object (stdin is then not read).
    #[arg(long, value_name = "JSON", requires = "append")]
    record: Option<String>,
    /// Emit JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct PruneArgs {
    /// Sessions created more than this many days ago.
    #[arg(long, value_name = "DAYS")]
    older_than: Option<String>,
    /// Sessions with this status.
    #[arg(long)]
    status: Option<Status>,
    /// Preview; delete nothing.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Terminal {
    Done,
    Aborted,
}

#[derive(Debug, Args)]
struct MarkArgs {
    /// The terminal status.
    status: Terminal,
    /// The session id.
    session_id: String,
    /// Skip knowledge-library promotion (normal/deep).
    #[arg(long, conflicts_with = "promote")]
    no_promote: bool,
    /// Insist on promotion (a usage error on light sessions).
    #[arg(long)]
    promote: bool,
}

#[derive(Debug, Args)]
struct PlanArgs {
    /// The session id.
    session_id: String,
    /// Add a sub-question with this text.
    #[arg(long, value_name = "TEXT", conflicts_with = "remove")]
    add: Option<String>,
    /// With --add: sub-question(s) it depends on (repeat, or comma-separate).
    #[arg(long, value_name = "SQ_ID", requires = "add", value_delimiter = ',')]
    depends_on: Vec<String>,
    /// Remove sub-question sq-N.
    #[arg(long, value_name = "SQ_ID")]
    remove: Option<String>,
    /// Emit the plan as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct PathsArgs {
    /// Emit JSON.
    #[arg(long)]
    json: bool,
}

/// The binary's entry point: the process's arguments, environment and streams.
pub fn main() -> u8 {
    let stdin = std::io::stdin();
    let mut stdin = stdin.lock();
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr().lock();
    let mut io = Io {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
    };
    run(std::env::args_os(), &Env::from_process(), &mut io)
}

/// Run one `research` invocation; returns the exit code. `args` includes the program name.
pub fn run<I, T>(args: I, env: &Env, io: &mut Io<'_>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            let text = err.render().to_string();
            return match err.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = io.stdout.write_all(text.as_bytes());
                    0
                }
                _ => {
                    let _ = io.stderr.write_all(text.as_bytes());
                    1
                }
            };
        }
    };
    let outcome = dispatch(cli.verb, env, io);
    let _ = io.stdout.flush();
    match outcome {
        Ok(code) => code,
        Err(err) => {
            let _ = writeln!(io.stderr, "research: error: {err}");
            err.exit_code()
        }
    }
}

fn out(io: &mut Io<'_>, text: &str) -> Result<()> {
    io.stdout
        .write_all(text.as_bytes())
        .map_err(|e| Error::io("cannot write", std::path::Path::new("<stdout>"), e))
}

fn out_json(io: &mut Io<'_>, value: &impl serde::Serialize) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::Operational(format!("cannot encode JSON: {e}")))?;
    text.push('\n');
    out(io, &text)
}

fn note(io: &mut Io<'_>, text: &str) {
    let _ = writeln!(io.stderr, "{text}");
}

fn session_id(id: &str) -> Result<()> {
    validate::session_id(id).map_err(Error::Usage)
}

fn dispatch(verb: Verb, env: &Env, io: &mut Io<'_>) -> Result<u8> {
    match verb {
        Verb::Run(a) => cmd_run(a, env, io),
        Verb::List(a) => cmd_list(a, env, io),
        Verb::Show(a) => cmd_show(a, env, io),
        Verb::Gates(a) => cmd_gates(a, env, io),
        Verb::Prune(a) => cmd_prune(a, env, io),
        Verb::Mark(a) => cmd_mark(a, env, io),
        Verb::Plan(a) => cmd_plan(a, env, io),
        Verb::Paths(a) => cmd_paths(a, env, io),
    }
}

fn cmd_run(a: RunArgs, env: &Env, io: &mut Io<'_>) -> Result<u8> {
    let req = NewSession {
        question: a.question,
        intent: a.intent,
        mode: a.mode,
        gate_policy: a.gate,
        output: a.output,
    };
    let (manifest, plan) = ops::new_session(&req, env.now)?;
    let mut text = format::manifest(&manifest);
    text.push_str(&format::plan(&plan));
    if a.dry_run {
        text.push_str("\n(dry run: validated, nothing written)\n");
    } else {
        let dir = env.store()?.create_session(&manifest, &plan)?;
        text.push_str(&format!("\ncreated {}\n", dir.display()));
    }
    out(io, &text)?;
    Ok(0)
}

fn cmd_list(a: ListArgs, env: &Env, io: &mut Io<'_>) -> Result<u8> {
    let scanned = env.store()?.scan()?;
    let mut shown: Vec<_> = scanned
        .iter()
        .filter(|s| match (&s.manifest, a.status) {
            (Ok(m), Some(st)) => m.status == st,
            _ => true, // malformed entries are always surfaced
        })
        .collect();
    if !a.all {
        shown.truncate(20);
    }
    if a.json {
        let items: Vec<serde_json::Value> = shown
            .iter()
            .map(|s| match &s.manifest {
                Ok(m) => serde_json::to_value(m).unwrap_or_default(),
                Err(e) => {
                    json!({ "sessionId": s.dir_name, "malformed": true, "error": e.to_string() })
                }
            })
            .collect();
        out_json(io, &items)?;
    } else {
        out(io, &format::list(&shown))?;
    }
    Ok(0)
}

fn cmd_show(a: ShowArgs, env: &Env, io: &mut Io<'_>) -> Result<u8> {
    session_id(&a.session_id)?;
    let session = env.store()?.load(&a.session_id)?;
    if a.json {
        out_json(io, &session)?;
    } else {
        out(io, &format::session(&session))?;
    }
    Ok(0)
}

fn cmd_gates(a: GatesArgs, env: &Env, io: &mut Io<'_>) -> Result<u8> {
    let chosen = a.list.is_some() as u8 + a.retry.is_some() as u8 + a.append.is_some() as u8;
    if chosen != 1 {
        return Err(Error::Usage("gates needs exactly one of --list [<sessionId>], --retry <sessionId>, --append <sessionId>".into()));
    }
    let emit = |io: &mut Io<'_>, rows: Vec<(String, Gate)>| -> Result<()> {
        if a.json {
            let items: Vec<serde_json::Value> = rows
                .iter()
                .map(|(s, g)| {
                    let mut v = serde_json::to_value(g).unwrap_or_default();
                    if let Some(obj) = v.as_object_mut() {
                        obj.insert("sessionId".into(), json!(s));
                    }
                    v
                })
                .collect();
            out_json(io, &items)
        } else {
            out(io, &format::gates(&rows))
        }
    };
    if let Some(target) = a.list {
        if let Some(id) = &target {
            session_id(id)?;
        }
        let store = env.store()?;
        let ids = match target {
            Some(id) => vec![id],
            None => store
                .session_names()?
                .into_iter()
                .filter(|n| validate::session_id(n).is_ok())
                .collect(),
        };
        let single = ids.len() == 1;
        let mut rows = Vec::new();
        let mut broken = None;
        for id in ids {
            match store.read_gates(&id) {
                Ok(g) => rows.extend(g.gates.into_iter().map(|g| (id.clone(), g))),
                Err(e) if single => return Err(e),
                Err(e) => {
                    note(io, &format!("research: warning: {e}"));
                    broken.get_or_insert(e);
                }
            }
        }
        emit(io, rows)?;
        return Ok(broken.map_or(0, |e| e.exit_code()));
    }
    if let Some(id) = a.retry {
        session_id(&id)?;
        let marked = ops::retry_gates(&env.store()?, &id, env.now)?;
        if marked.is_empty() && !a.json {
            out(io, "nothing eligible to retry\n")?;
        } else {
            emit(io, marked.into_iter().map(|g| (id.clone(), g)).collect())?;
        }
        return Ok(0);
    }
    let id = a.append.unwrap_or_default();
    session_id(&id)?;
    let text = match a.record {
        Some(r) => r,
        None => {
            let mut s = String::new();
            io.stdin
                .read_to_string(&mut s)
                .map_err(|e| Error::io("cannot read", std::path::Path::new("<stdin>"), e))?;
            s
        }
    };
    let inputs = ops::parse_gate_inputs(&text)?;
    let added = ops::append_gates(&env.store()?, &id, &inputs, env.now)?;
    emit(io, added.into_iter().map(|g| (id.clone(), g)).collect())?;
    Ok(0)
}

fn cmd_prune(a: PruneArgs, env: &Env, io: &mut Io<'_>) -> Result<u8> {
    let older_than_days = match a.older_than.as_deref() {
        None => None,
        Some(s) => Some(s.trim().parse::<u32>().map_err(|_| {
            Error::Usage(format!(
                "--older-than {s:?}: expected a whole number of days"
            ))
        })?),
    };
    let filter = PruneFilter {
        older_than_days,
        status: a.status,
    };
    let store = env.store()?;
    let matches = ops::prune_matches(&store, filter, env.now)?;
    if matches.is_empty() {
        return Err(Error::Operational(
            "prune: no session matched the filter".into(),
        ));
    }
    let verb = if a.dry_run { "would delete" } else { "deleted" };
    for m in &matches {
        if !a.dry_run {
            store.delete_session(&m.session_id)?;
        }
        out(
            io,
            &format!(
                "{verb} {}  {}  {}  {}\n",
                m.session_id,
                m.status,
                format::when(m.created_at),
                format::clip(&m.question, 60)
            ),
        )?;
    }
    out(
        io,
        &format!(
            "{verb} {} session{}\n",
            matches.len(),
            if matches.len() == 1 { "" } else { "s" }
        ),
    )?;
    Ok(0)
}

fn cmd_mark(a: MarkArgs, env: &Env, io: &mut Io<'_>) -> Result<u8> {
    session_id(&a.session_id)?;
    let status = match a.status {
        Terminal::Done => Status::Done,
        Terminal::Aborted => Status::Aborted,
    };
    if a.promote && status == Status::Aborted {
        return Err(Error::Usage(
            "--promote: aborted sessions are never promoted".into(),
        ));
    }
    let store = env.store()?;
    let before = store.read_manifest(&a.session_id)?;
    if a.promote && !before.mode.promotes() {
        return Err(Error::Usage(
            "--promote: light sessions are never promoted".into(),
        ));
    }
    let m = store.update_manifest_status(&a.session_id, status, env.now)?;
    out(io, &format!("marked {} {}\n", m.session_id, m.status))?;
    if status == Status::Done {
        match promote::promote(&store, &a.session_id, a.no_promote, env.now) {
            Promotion::Promoted(p) => {
                out(io, &format!("promoted to {}\n", p.display()))?;
                note(
                    io,
                    "hint: run the knowledge reindex (the 6-hourly cron, or the graph/index builders) so the doc becomes queryable",
                );
            }
            Promotion::AlreadyPromoted(p) => {
                note(io, &format!("note: already promoted at {}", p.display()))
            }
            Promotion::SkippedLight => {}
            Promotion::SkippedByFlag => note(io, "note: promotion skipped (--no-promote)"),
            Promotion::NoAnswer => note(io, "note: no answer.md in the session; nothing promoted"),
            Promotion::Failed(e) => note(
                io,
                &format!("note: promotion failed ({e}); the session is still done"),
            ),
        }
    }
    Ok(0)
}

fn cmd_plan(a: PlanArgs, env: &Env, io: &mut Io<'_>) -> Result<u8> {
    session_id(&a.session_id)?;
    let store = env.store()?;
    let plan = if let Some(text) = &a.add {
        let (sq, plan) = ops::add_sub_question(&store, &a.session_id, text, &a.depends_on)?;
        if !a.json {
            out(io, &format!("added {}\n", sq.id))?;
        }
        plan
    } else if let Some(sq) = &a.remove {
        let plan = ops::remove_sub_question(&store, &a.session_id, sq)?;
        if !a.json {
            out(io, &format!("removed {sq}\n"))?;
        }
        plan
    } else {
        store.read_plan(&a.session_id)?
    };
    if a.json {
        out_json(io, &plan)?;
    } else {
        out(io, format::plan(&plan).trim_start())?;
    }
    Ok(0)
}

fn cmd_paths(a: PathsArgs, env: &Env, io: &mut Io<'_>) -> Result<u8> {
    let store = env.store()?;
    let schema = store.materialize(Reference::Schema, reference::SCHEMAS)?;
    let briefs = store.materialize(Reference::Briefs, reference::BRIEFS)?;
    let workflows = store.materialize(Reference::Workflows, reference::WORKFLOWS)?;
    let rows = [
        ("repoRoot", store.repo_root().to_path_buf()),
        ("sessionsDir", store.sessions_dir()),
        ("briefsDir", briefs),
        ("workflowsDir", workflows),
        ("schemaDir", schema),
        ("knowledgeDir", store.knowledge_dir()),
    ];
    if a.json {
        let map: serde_json::Map<String, serde_json::Value> = rows
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v.display().to_string())))
            .collect();
        out_json(io, &map)?;
    } else {
        let text: String = rows
            .iter()
            .map(|(k, v)| format!("{k:<13} {}\n", v.display()))
            .collect();
        out(io, &text)?;
    }
    Ok(0)
}
