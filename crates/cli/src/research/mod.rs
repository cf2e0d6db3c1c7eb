//! The `research` command line: argument parsing, verb routing and output over
//! the session store `sgw-research`; errors become exit codes (0 ok, 1 usage,
//! 2 operational, 3 I/O) in [`crate::exit`].
//!
//! [`run`] takes everything it touches as parameters — arguments, an [`Env`] (root and
//! clock) and an [`Io`] (stdin, stdout, stderr) — so tests drive it in-process.
//! [`run_with`] also takes the gateway ([`Backend`]) behind `search`, `extract` and
//! `gates --resolve`; without one those verbs exit 2 ("this build has no gateway").

pub mod gateway;

use crate::exit::research_exit_code;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use jiff::Timestamp;
use serde_json::json;
use sgw_research::model::*;
use sgw_research::ops::{self, NewSession, PruneFilter};
use sgw_research::promote::{self, Promotion};
use sgw_research::store::{Reference, Store};
use sgw_research::{Backend, Error, EvidenceInput, GateResolution, GatewayOptions, Result};
use sgw_research::{
    SubQuestionSearch, extract_sub_question, parse_extractions, resolve_gate_with_evidence,
    search_sub_question,
};
use sgw_research::{format, reference, root, validate};
use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;

/// A parser for one of the session store's spelled enums: its on-disk
/// spellings are the possible values (listed in help and in errors).
fn spelled<T>(all: &'static [T], spell: fn(T) -> &'static str) -> impl TypedValueParser<Value = T>
where
    T: Copy + Send + Sync + std::str::FromStr + 'static,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    PossibleValuesParser::new(all.iter().map(move |v| spell(*v))).try_map(|s| s.parse::<T>())
}

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
    /// Run the search gateway for one sub-question: kept sources → sources.json, gated URLs → gates.json.
    Search(SearchArgs),
    /// Write the finding of one sub-question: claims with verbatim quotes (from the gateway's evidence, or --from).
    Extract(ExtractArgs),
}

/// Where the gateway's policy and evidence store are.
#[derive(Debug, Args)]
struct GatewayArgs {
    /// Gateway policy file (default: the gateway's built-in policy).
    #[arg(long, value_name = "FILE", env = "SGW_POLICY")]
    policy: Option<PathBuf>,
    /// Gateway evidence store (path, sqlite:…, postgres://…); overrides the policy's store.url.
    #[arg(long, value_name = "LOCATION", env = "SGW_STORE")]
    store: Option<String>,
}

impl GatewayArgs {
    fn options(&self) -> GatewayOptions {
        GatewayOptions {
            policy: self.policy.clone(),
            store: self.store.clone(),
        }
    }
}

#[derive(Debug, Args)]
struct SearchArgs {
    /// The session id.
    session_id: String,
    /// The sub-question to search for (sq-N); its text is the query.
    #[arg(long, value_name = "SQ_ID")]
    sub_question: String,
    #[command(flatten)]
    gateway: GatewayArgs,
    /// Emit JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct ExtractArgs {
    /// The session id.
    session_id: String,
    /// The sub-question whose finding is written (sq-N).
    #[arg(long, value_name = "SQ_ID")]
    sub_question: String,
    /// Record an extractor's structured return (the extractor brief's JSON) from FILE, or `-` for stdin,
    /// instead of extracting claims from the gateway's evidence.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    #[command(flatten)]
    gateway: GatewayArgs,
    /// Emit JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct RunArgs {
    /// light (0 rounds, no verify), normal (1 round, central-3vote), deep (3 rounds, diverse-lens-3vote).
    #[arg(long, value_parser = spelled(Mode::ALL, Mode::as_str))]
    mode: Mode,
    /// The research question.
    #[arg(long)]
    question: String,
    /// Human-gate posture recorded in the manifest.
    #[arg(long, default_value = "worker", value_parser = spelled(GatePolicy::ALL, GatePolicy::as_str))]
    gate: GatePolicy,
    /// Clarified intent, recorded on the manifest.
    #[arg(long)]
    intent: Option<String>,
    /// Synthesis render target.
    #[arg(long, default_value = "shortAnswer", value_parser = spelled(OutputKind::ALL, OutputKind::as_str))]
    output: OutputKind,
    /// Validate and print without persisting.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Debug, Args)]
struct ListArgs {
    /// Only sessions with this status.
    #[arg(long, value_parser = spelled(Status::ALL, Status::as_str))]
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
    /// Resolve a gate with evidence handed to the gateway's human intake (with --file, --text or --url).
    #[arg(long, num_args = 2, value_names = ["SESSION_ID", "GATE_ID"])]
    resolve: Option<Vec<String>>,
    /// With --resolve: a file (text, HTML or PDF) holding the evidence.
    #[arg(long, value_name = "PATH", requires = "resolve", conflicts_with_all = ["text", "url"])]
    file: Option<PathBuf>,
    /// With --resolve: the evidence as pasted text.
    #[arg(
        long,
        value_name = "TEXT",
        requires = "resolve",
        conflicts_with = "url"
    )]
    text: Option<String>,
    /// With --resolve: a URL the gateway fetches (every network guard applies).
    #[arg(long, value_name = "URL", requires = "resolve")]
    url: Option<String>,
    /// With --resolve: a note kept on the gate.
    #[arg(long, value_name = "TEXT", requires = "resolve")]
    note: Option<String>,
    #[command(flatten)]
    gateway: GatewayArgs,
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
    #[arg(long, value_parser = spelled(Status::ALL, Status::as_str))]
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

/// The binary's entry point: the process's arguments, environment and streams,
/// with `backend` as the gateway behind `search`, `extract` and `gates --resolve`.
pub fn main_with(backend: Option<&dyn Backend>) -> u8 {
    let stdin = std::io::stdin();
    let mut stdin = stdin.lock();
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr().lock();
    let mut io = Io {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
    };
    run_with(std::env::args_os(), &Env::from_process(), &mut io, backend)
}

/// Run one `research` invocation; returns the exit code. `args` includes the program name.
/// No gateway: `search`, `extract` and `gates --resolve` exit 2.
pub fn run<I, T>(args: I, env: &Env, io: &mut Io<'_>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with(args, env, io, None)
}

/// Run one `research` invocation with `backend` as the gateway; returns the exit code.
pub fn run_with<I, T>(args: I, env: &Env, io: &mut Io<'_>, backend: Option<&dyn Backend>) -> u8
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
    let outcome = dispatch(cli.verb, env, io, backend);
    let _ = io.stdout.flush();
    match outcome {
        Ok(code) => code,
        Err(err) => {
            let _ = writeln!(
                io.stderr,
                "research: error: {}",
                sgw_safeio::terminal_safe(&err.to_string())
            );
            research_exit_code(&err)
        }
    }
}

/// Human output: terminal-safe (a question, a title or a URL may carry
/// control characters from a user or a website).
fn out(io: &mut Io<'_>, text: &str) -> Result<()> {
    out_raw(io, &sgw_safeio::terminal_safe(text))
}

fn out_raw(io: &mut Io<'_>, text: &str) -> Result<()> {
    io.stdout
        .write_all(text.as_bytes())
        .map_err(|e| Error::io("cannot write", std::path::Path::new("<stdout>"), e))
}

/// JSON output: serde already escapes control characters.
fn out_json(io: &mut Io<'_>, value: &impl serde::Serialize) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::Operational(format!("cannot encode JSON: {e}")))?;
    text.push('\n');
    out_raw(io, &text)
}

fn note(io: &mut Io<'_>, text: &str) {
    let _ = writeln!(io.stderr, "{}", sgw_safeio::terminal_safe(text));
}

fn session_id(id: &str) -> Result<()> {
    validate::session_id(id).map_err(Error::from)
}

fn dispatch(verb: Verb, env: &Env, io: &mut Io<'_>, backend: Option<&dyn Backend>) -> Result<u8> {
    match verb {
        Verb::Run(a) => cmd_run(a, env, io),
        Verb::List(a) => cmd_list(a, env, io),
        Verb::Show(a) => cmd_show(a, env, io),
        Verb::Gates(a) => cmd_gates(a, env, io, backend),
        Verb::Search(a) => cmd_search(a, env, io, backend),
        Verb::Extract(a) => cmd_extract(a, env, io, backend),
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
    // Malformed entries are always surfaced, first, and never count against the
    // cap of 20 most recent sessions.
    let (mut shown, well_formed): (Vec<_>, Vec<_>) =
        scanned.iter().partition(|s| s.manifest.is_err());
    let matching = well_formed
        .into_iter()
        .filter(|s| match (&s.manifest, a.status) {
            (Ok(m), Some(st)) => m.status == st,
            _ => true,
        });
    shown.extend(matching.take(if a.all { usize::MAX } else { 20 }));
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

fn cmd_gates(
    a: GatesArgs,
    env: &Env,
    io: &mut Io<'_>,
    backend: Option<&dyn Backend>,
) -> Result<u8> {
    let chosen = a.list.is_some() as u8
        + a.retry.is_some() as u8
        + a.append.is_some() as u8
        + a.resolve.is_some() as u8;
    if chosen != 1 {
        return Err(Error::Usage("gates needs exactly one of --list [<sessionId>], --retry <sessionId>, --append <sessionId>, --resolve <sessionId> <gateId>".into()));
    }
    if let Some(pair) = &a.resolve {
        return cmd_resolve(&a, pair, env, io, backend);
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
        return Ok(broken.map_or(0, |e| research_exit_code(&e)));
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
            let bytes = read_from(std::path::Path::new("-"), io)?;
            String::from_utf8(bytes)
                .map_err(|_| Error::Usage("gates --append: standard input is not UTF-8".into()))?
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

// ---- the gateway verbs: search, extract, gates --resolve ----

/// The most `--from` input read (an extractor's return is a few kilobytes).
const MAX_FROM_BYTES: u64 = 16 << 20;

fn need_backend<'b>(backend: Option<&'b dyn Backend>, verb: &str) -> Result<&'b dyn Backend> {
    backend.ok_or_else(|| {
        Error::Operational(format!(
            "this build has no gateway: `research {verb}` needs the search gateway (the `research` binary of sgw-cli)"
        ))
    })
}

/// The prologue of the sub-question verbs (`search`, `extract`): both ids
/// checked, the session's store, and the sub-question's text from its plan.
fn open_sub_question(env: &Env, session: &str, sq_id: &str) -> Result<(Store, String)> {
    session_id(session)?;
    validate::sub_question_id(sq_id).map_err(Error::from)?;
    let store = env.store()?;
    let plan = store.read_plan(session)?;
    let text = plan
        .sub_questions
        .iter()
        .find(|s| s.id == sq_id)
        .map(|s| s.text.clone())
        .ok_or_else(|| {
            Error::NotFound(format!(
                "no sub-question {sq_id} in session {}",
                plan.session_id
            ))
        })?;
    Ok((store, text))
}

fn cmd_search(
    a: SearchArgs,
    env: &Env,
    io: &mut Io<'_>,
    backend: Option<&dyn Backend>,
) -> Result<u8> {
    let (store, text) = open_sub_question(env, &a.session_id, &a.sub_question)?;
    let backend = need_backend(backend, "search")?;
    let SubQuestionSearch { report, recorded } = search_sub_question(
        &store,
        &a.session_id,
        &a.sub_question,
        backend,
        &a.gateway.options(),
        env.now,
    )?;
    let sources = store.read_sources(&a.session_id)?;
    let gates = store.read_gates(&a.session_id)?;
    let kept: Vec<&Source> = recorded
        .source_ids
        .iter()
        .filter_map(|id| sources.sources.iter().find(|s| &s.source_id == id))
        .collect();
    let queued: Vec<&Gate> = recorded
        .new_gate_ids
        .iter()
        .filter_map(|id| gates.gates.iter().find(|g| &g.gate_id == id))
        .collect();
    if a.json {
        out_json(
            io,
            &json!({
                "sessionId": a.session_id,
                "subQuestionId": a.sub_question,
                "query": text,
                "confidence": report.confidence,
                "confidenceLevel": report.confidence_level,
                "failureCodes": report.failure_codes,
                "humanRequestId": report.human_request_id,
                "unstoredSources": report.unstored_sources,
                "sources": kept,
                "gates": queued,
                "duplicateGates": recorded.duplicate_gates,
            }),
        )?;
        return Ok(0);
    }
    let mut t = format!(
        "{}: {}\ngateway confidence {:.3} ({})\n",
        a.sub_question,
        format::clip(&text, 100),
        report.confidence,
        if report.confidence_level.is_empty() {
            "-"
        } else {
            &report.confidence_level
        }
    );
    if !report.failure_codes.is_empty() {
        t.push_str(&format!(
            "failure codes: {}\n",
            report.failure_codes.join(", ")
        ));
    }
    t.push_str(&format!(
        "kept {} source{}\n",
        kept.len(),
        if kept.len() == 1 { "" } else { "s" }
    ));
    for s in &kept {
        t.push_str(&format!(
            "  {:<6} {:<9} {:<22} {}  {}\n",
            s.source_id,
            s.source_quality.to_string(),
            s.tier.as_deref().unwrap_or("-"),
            format::clip(&s.title, 50),
            s.url
        ));
    }
    t.push_str(&format!(
        "queued {} gate{}{}\n",
        queued.len(),
        if queued.len() == 1 { "" } else { "s" },
        if recorded.duplicate_gates > 0 {
            format!(" ({} already queued)", recorded.duplicate_gates)
        } else {
            String::new()
        }
    ));
    for g in &queued {
        t.push_str(&format!(
            "  {:<5} {:<12} {}\n        {}\n",
            g.gate_id, g.gate_type, g.url, g.what_is_needed
        ));
    }
    if report.unstored_sources > 0 {
        note(
            io,
            &format!(
                "note: {} source(s) had no stored evidence and were not recorded",
                report.unstored_sources
            ),
        );
    }
    if kept.is_empty() {
        note(io, "note: no source kept for this sub-question");
    }
    out(io, &t)?;
    Ok(0)
}

/// Reads `path` (`-`: standard input), at most [`MAX_FROM_BYTES`]; a path
/// must name a regular file (a FIFO or a device is refused, never read).
fn read_from(path: &std::path::Path, io: &mut Io<'_>) -> Result<Vec<u8>> {
    let (shown, res) = if path.as_os_str() == "-" {
        (
            std::path::Path::new("<stdin>"),
            sgw_safeio::read_capped(&mut *io.stdin, MAX_FROM_BYTES),
        )
    } else {
        (
            path,
            sgw_safeio::read_file(path, MAX_FROM_BYTES, sgw_safeio::Follow::Yes),
        )
    };
    res.map_err(|e| match e {
        e if e.is_not_found() => Error::Usage(format!("{}: no such file", shown.display())),
        sgw_safeio::ReadError::Io(e) => Error::io("cannot read", shown, e),
        other => Error::Usage(format!("{}: {other}", shown.display())),
    })
}

fn cmd_extract(
    a: ExtractArgs,
    env: &Env,
    io: &mut Io<'_>,
    backend: Option<&dyn Backend>,
) -> Result<u8> {
    let (store, _) = open_sub_question(env, &a.session_id, &a.sub_question)?;
    let from = match &a.from {
        Some(path) => {
            let bytes = read_from(path, io)?;
            let shown = if path.as_os_str() == "-" {
                "<stdin>".to_string()
            } else {
                path.display().to_string()
            };
            Some(parse_extractions(&bytes, &shown, &a.sub_question)?)
        }
        None => None,
    };
    let backend = need_backend(backend, "extract")?;
    let outcome = extract_sub_question(
        &store,
        &a.session_id,
        &a.sub_question,
        from,
        backend,
        &a.gateway.options(),
        env.now,
    )?;
    if a.json {
        out_json(
            io,
            &json!({
                "sessionId": a.session_id,
                "findings": outcome.findings,
                "unsourcedRatio": outcome.unsourced_ratio,
                "aborted": outcome.aborted,
            }),
        )?;
    } else {
        let mut t = String::new();
        for f in &outcome.findings {
            t.push_str(&format!(
                "{}: confidence {}, {} claim{}, {} unsourced\n",
                f.sub_question_id,
                f.confidence,
                f.claims.len(),
                if f.claims.len() == 1 { "" } else { "s" },
                f.unsourced_claims
            ));
            for c in &f.claims {
                t.push_str(&format!(
                    "  {:<4} {:<10} {:<9} {:<6} {}\n       “{}”\n",
                    c.claim_id,
                    c.importance.to_string(),
                    c.source_quality.to_string(),
                    c.source_id,
                    format::clip(&c.text, 120),
                    format::clip(&c.quote, 160)
                ));
            }
            if !f.notes.is_empty() {
                t.push_str(&format!("  notes: {}\n", f.notes));
            }
        }
        out(io, &t)?;
    }
    if outcome.aborted {
        note(
            io,
            &format!(
                "note: the run is {:.0}% unsourced (over 10%): the session is now aborted",
                outcome.unsourced_ratio * 100.0
            ),
        );
    }
    Ok(0)
}

fn cmd_resolve(
    a: &GatesArgs,
    pair: &[String],
    env: &Env,
    io: &mut Io<'_>,
    backend: Option<&dyn Backend>,
) -> Result<u8> {
    let [id, gate_id] = pair else {
        return Err(Error::Usage("--resolve needs <sessionId> <gateId>".into()));
    };
    session_id(id)?;
    validate::gate_id(gate_id).map_err(Error::from)?;
    let input = match (&a.file, &a.text, &a.url) {
        (Some(f), None, None) => EvidenceInput::File(f.clone()),
        (None, Some(t), None) if !t.trim().is_empty() => EvidenceInput::Text(t.clone()),
        (None, Some(_), None) => return Err(Error::Usage("--text is empty".into())),
        (None, None, Some(u)) => EvidenceInput::Url(u.clone()),
        _ => {
            return Err(Error::Usage(
                "--resolve needs exactly one of --file PATH, --text T, --url URL".into(),
            ));
        }
    };
    let store = env.store()?;
    let backend = need_backend(backend, "gates --resolve")?;
    let GateResolution {
        gate: resolved,
        evidence: stored,
        source_id,
    } = resolve_gate_with_evidence(
        &store,
        id,
        gate_id,
        &input,
        a.note.as_deref(),
        backend,
        &a.gateway.options(),
        env.now,
    )?;
    if a.json {
        out_json(
            io,
            &json!({
                "sessionId": id,
                "gate": resolved,
                "evidence": stored,
                "sourceId": source_id,
            }),
        )?;
    } else {
        let mut t = format!(
            "resolved {gate_id} ({}) with {} [{} chars, gateway request {}]\n",
            resolved.url, stored.evidence_id, stored.text_chars, stored.request_id
        );
        if let (Some(s), Some(sq)) = (&source_id, &resolved.sub_question_id) {
            t.push_str(&format!("recorded as source {s} of {sq} (userSupplied)\n"));
        }
        out(io, &t)?;
    }
    Ok(0)
}
