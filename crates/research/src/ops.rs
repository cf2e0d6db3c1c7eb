//! Session operations shared by the CLI and the library seams. Every write goes
//! through [`Store`]; the functions here decide *what* to write.

use crate::error::{Error, Result};
use crate::model::*;
use crate::store::Store;
use crate::validate;
use jiff::Timestamp;
use serde::Deserialize;

/// Inputs of `research run`.
#[derive(Debug, Clone)]
pub struct NewSession {
    pub question: String,
    pub intent: Option<String>,
    pub mode: Mode,
    pub gate_policy: GatePolicy,
    pub output: OutputKind,
}

/// Build (without persisting) the manifest and skeleton plan of a new session.
pub fn new_session(req: &NewSession, now: Timestamp) -> Result<(Manifest, Plan)> {
    let question = req.question.trim();
    if question.is_empty() {
        return Err(Error::Usage("--question must not be empty".into()));
    }
    let intent = match req.intent.as_deref().map(str::trim) {
        Some("") => return Err(Error::Usage("--intent must not be empty when given".into())),
        other => other.map(str::to_string),
    };
    let ms = u64::try_from(now.as_millisecond())
        .map_err(|_| Error::Usage("clock is before 1970".into()))?;
    let session_id = ulid::Ulid::from_parts(ms, ulid::Ulid::new().random()).to_string();
    let manifest = Manifest {
        schema_version: SCHEMA_VERSION,
        session_id: session_id.clone(),
        question: question.to_string(),
        intent,
        mode: req.mode,
        gate_policy: req.gate_policy,
        output: req.output,
        status: Status::Draft,
        created_at: now,
        updated_at: now,
        budget: req.mode.budget(),
        assumptions: Vec::new(),
    };
    let plan = Plan {
        schema_version: SCHEMA_VERSION,
        session_id,
        deepening_rounds: req.mode.deepening_rounds(),
        verification_tier: req.mode.verification_tier(),
        sub_questions: Vec::new(),
    };
    validate::manifest(&manifest).map_err(Error::from)?;
    validate::plan(&plan).map_err(Error::from)?;
    Ok((manifest, plan))
}

fn refuse_terminal(m: &Manifest) -> Result<()> {
    if m.status.is_terminal() {
        return Err(Error::Operational(format!(
            "session {} is {}; its plan is closed",
            m.session_id, m.status
        )));
    }
    Ok(())
}

/// `research plan <id> --add`: append a sub-question (`sq-N`, N = highest + 1).
pub fn add_sub_question(
    store: &Store,
    id: &str,
    text: &str,
    depends_on: &[String],
) -> Result<(SubQuestion, Plan)> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::Usage("--add needs a non-empty sub-question".into()));
    }
    for d in depends_on {
        validate::sub_question_id(d).map_err(Error::from)?;
    }
    store.transaction(id, |txn| {
        let manifest = txn.manifest()?;
        refuse_terminal(&manifest)?;
        let mut plan = txn.plan()?;
        if plan.sub_questions.len() >= manifest.budget.max_sub_questions as usize {
            return Err(Error::Operational(format!(
                "plan already holds {} sub-questions, the {} budget",
                plan.sub_questions.len(),
                manifest.mode
            )));
        }
        for d in depends_on {
            if !plan.sub_questions.iter().any(|sq| &sq.id == d) {
                return Err(Error::NotFound(format!(
                    "--depends-on {d}: no such sub-question in session {id}"
                )));
            }
        }
        let next = plan
            .sub_questions
            .iter()
            .filter_map(|sq| validate::sub_question_id(&sq.id).ok())
            .max()
            .unwrap_or(0)
            + 1;
        let mut deps: Vec<String> = Vec::new();
        for d in depends_on {
            if !deps.contains(d) {
                deps.push(d.clone());
            }
        }
        let sq = SubQuestion {
            id: format!("sq-{next}"),
            text: text.to_string(),
            depends_on: deps,
        };
        plan.sub_questions.push(sq.clone());
        txn.write_plan(&plan)?;
        Ok((sq, plan))
    })
}

/// `research plan <id> --remove sq-N`. Refused when another sub-question depends on it,
/// or when sources or a finding were already recorded for it.
pub fn remove_sub_question(store: &Store, id: &str, sq_id: &str) -> Result<Plan> {
    validate::sub_question_id(sq_id).map_err(Error::from)?;
    store.transaction(id, |txn| {
        refuse_terminal(&txn.manifest()?)?;
        let mut plan = txn.plan()?;
        let Some(pos) = plan.sub_questions.iter().position(|sq| sq.id == sq_id) else {
            return Err(Error::NotFound(format!(
                "no sub-question {sq_id} in session {id}"
            )));
        };
        let dependents: Vec<&str> = plan
            .sub_questions
            .iter()
            .filter(|sq| sq.depends_on.iter().any(|d| d == sq_id))
            .map(|sq| sq.id.as_str())
            .collect();
        if !dependents.is_empty() {
            return Err(Error::Operational(format!(
                "cannot remove {sq_id}: {} depend(s) on it",
                dependents.join(", ")
            )));
        }
        if txn
            .sources()?
            .sources
            .iter()
            .any(|s| s.sub_question_id == sq_id)
        {
            return Err(Error::Operational(format!(
                "cannot remove {sq_id}: sources are recorded for it"
            )));
        }
        if txn.findings()?.iter().any(|f| f.sub_question_id == sq_id) {
            return Err(Error::Operational(format!(
                "cannot remove {sq_id}: a finding is recorded for it"
            )));
        }
        plan.sub_questions.remove(pos);
        txn.write_plan(&plan)?;
        Ok(plan)
    })
}

/// One record handed to `gates --append`: the semantic fields only.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GateInput {
    pub url: String,
    pub gate_type: String,
    pub what_is_needed: String,
    #[serde(default)]
    pub sub_question_id: Option<String>,
    #[serde(default)]
    pub status: Option<GateStatus>,
}

/// Parse `gates --append` input: a JSON array of records, or one record object.
pub fn parse_gate_inputs(text: &str) -> Result<Vec<GateInput>> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| Error::Usage(format!("gate records are not valid JSON: {e}")))?;
    let items = match value {
        serde_json::Value::Array(items) => items,
        obj @ serde_json::Value::Object(_) => vec![obj],
        _ => {
            return Err(Error::Usage(
                "gate records must be a JSON array of objects (or one object)".into(),
            ));
        }
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            serde_json::from_value::<GateInput>(item)
                .map_err(|e| Error::Usage(format!("gate record {}: {e}", i + 1)))
        })
        .collect()
}

fn next_gate_number(gates: &GatesFile) -> u32 {
    gates
        .gates
        .iter()
        .filter_map(|g| validate::gate_id(&g.gate_id).ok())
        .max()
        .unwrap_or(0)
        + 1
}

/// Turn inputs into full records with ids continuing after `gates` (pure).
pub(crate) fn build_gates(
    gates: &GatesFile,
    inputs: &[GateInput],
    now: Timestamp,
) -> Result<Vec<Gate>> {
    let first = next_gate_number(gates);
    let mut out = Vec::new();
    for (next, (i, input)) in (first..).zip(inputs.iter().enumerate()) {
        let gate = Gate {
            gate_id: format!("g-{next}"),
            url: input.url.trim().to_string(),
            gate_type: input.gate_type.trim().to_string(),
            what_is_needed: input.what_is_needed.trim().to_string(),
            sub_question_id: input.sub_question_id.clone(),
            status: input.status.unwrap_or(GateStatus::Pending),
            blocked_at: now,
            updated_at: None,
            resolved_at: if input.status == Some(GateStatus::Resolved) {
                Some(now)
            } else {
                None
            },
            evidence_id: None,
            resolution_note: None,
        };
        validate::gate_record(&gate)
            .map_err(|e| Error::Usage(format!("gate record {}: {e}", i + 1)))?;
        out.push(gate);
    }
    Ok(out)
}

/// `research gates --append`: assign ids, stamp `blockedAt`, persist. Zero records is exit 2.
pub fn append_gates(
    store: &Store,
    id: &str,
    inputs: &[GateInput],
    now: Timestamp,
) -> Result<Vec<Gate>> {
    // Validate the input before touching the session (usage errors win).
    build_gates(
        &GatesFile {
            schema_version: SCHEMA_VERSION,
            gates: Vec::new(),
        },
        inputs,
        now,
    )?;
    if inputs.is_empty() {
        store.existing_session_dir(id)?;
        return Err(Error::Operational(
            "gates --append was handed zero records".into(),
        ));
    }
    store.transaction(id, |txn| {
        let mut gates = txn.gates()?;
        let added = build_gates(&gates, inputs, now)?;
        gates.gates.extend(added.iter().cloned());
        txn.write_gates(&gates)?;
        Ok(added)
    })
}

/// `research gates --retry`: mark `pending`/`retrying` gates `retrying`; returns them.
pub fn retry_gates(store: &Store, id: &str, now: Timestamp) -> Result<Vec<Gate>> {
    store.transaction(id, |txn| {
        let mut gates = txn.gates()?;
        let mut marked = Vec::new();
        for g in &mut gates.gates {
            if matches!(g.status, GateStatus::Pending | GateStatus::Retrying) {
                g.status = GateStatus::Retrying;
                g.updated_at = Some(now);
                marked.push(g.clone());
            }
        }
        if !marked.is_empty() {
            txn.write_gates(&gates)?;
        }
        Ok(marked)
    })
}

/// `research prune` filters (ANDed). At least one must be set.
#[derive(Debug, Clone, Copy, Default)]
pub struct PruneFilter {
    pub older_than_days: Option<u32>,
    pub status: Option<Status>,
}

/// Sessions matching the filter. Malformed sessions never match.
pub fn prune_matches(store: &Store, filter: PruneFilter, now: Timestamp) -> Result<Vec<Manifest>> {
    if filter.older_than_days.is_none() && filter.status.is_none() {
        return Err(Error::Usage(
            "prune needs --older-than and/or --status (a bare prune would wipe everything)".into(),
        ));
    }
    let cutoff = match filter.older_than_days {
        Some(days) => Some(
            now.checked_sub(jiff::SignedDuration::from_secs(i64::from(days) * 86_400))
                .map_err(|_| {
                    Error::Usage(format!("--older-than {days} reaches before the epoch"))
                })?,
        ),
        None => None,
    };
    let mut out = Vec::new();
    for scanned in store.scan()? {
        let Ok(m) = scanned.manifest else { continue };
        if cutoff.is_some_and(|c| m.created_at >= c) || filter.status.is_some_and(|s| m.status != s)
        {
            continue;
        }
        out.push(m);
    }
    Ok(out)
}
