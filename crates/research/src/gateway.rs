//! Seams for the gateway: the session side of `search`, `extract` and
//! `gates --resolve`. The CLI verbs and any other caller hand a [`Backend`] (the
//! gateway) and [`EvidenceTexts`] to the functions below (all writes go through
//! [`Store`]).
//!
//! * [`search_sub_question`] / [`record_search`] — kept sources → `sources.json`
//!   (ids `s<N>-<k>`, stable per sub-question and URL), gated URLs → `gates.json`
//!   (deduplicated by URL).
//! * [`record_extractions`] — one run of extractor output → `findings/sq-N.json`;
//!   every quote must be a verbatim substring of the source's evidence text; a run
//!   more than 10% unsourced stamps the session `aborted`.
//! * [`resolve_gate`] — a person supplied the evidence; the gate is `resolved`.
//! * [`resolve_gate_with_evidence`] — the evidence goes to the gateway first, then
//!   the gate is `resolved` and the evidence becomes a source of its sub-question.

use crate::backend::{
    Backend, EvidenceInput, ExtractRequest, GateEvidence, GatewayOptions, GatewayReport,
    StoredSubmission,
};
use crate::error::{Error, Result};
use crate::model::*;
use crate::ops::{GateInput, build_gates};
use crate::store::Store;
use crate::validate;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What a searcher is asked for one sub-question (the searcher brief's placeholders).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest {
    pub session_id: String,
    pub question: String,
    pub intent: Option<String>,
    pub sub_question_id: String,
    pub sub_question_text: String,
    pub sibling_sub_questions: Vec<String>,
    pub gate_policy: GatePolicy,
    pub tool_call_cap: u32,
}

/// A source the gateway kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptSource {
    pub url: String,
    pub title: String,
    /// The gateway trust tier: `OFFICIAL_PRIMARY`, `OFFICIAL_SECONDARY`,
    /// `AUTHORITATIVE_MEDIA`, `SPECIALIZED_DATABASE`, `GENERAL_WEB`, `USER_SUPPLIED_EVIDENCE`.
    pub tier: String,
    pub snippet: String,
    /// The gateway evidence record (`ev-…`) whose text grounds quotes.
    pub evidence_id: String,
    pub publisher: Option<String>,
}

/// A URL the gateway could not pass (login wall, CAPTCHA, …): a job for a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GatedUrl {
    pub url: String,
    pub gate_type: String,
    pub what_is_needed: String,
}

/// What a searcher returns for one sub-question.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchOutcome {
    pub kept: Vec<KeptSource>,
    pub gated: Vec<GatedUrl>,
}

/// Map a gateway trust tier to the session's `sourceQuality`.
pub fn quality_for_tier(tier: &str) -> Option<SourceQuality> {
    Some(match tier {
        "OFFICIAL_PRIMARY" | "OFFICIAL_SECONDARY" => SourceQuality::Primary,
        "AUTHORITATIVE_MEDIA" | "SPECIALIZED_DATABASE" => SourceQuality::Secondary,
        "GENERAL_WEB" => SourceQuality::Low,
        "USER_SUPPLIED_EVIDENCE" => SourceQuality::UserSupplied,
        _ => return None,
    })
}

/// What [`record_search`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedSearch {
    /// One source id per kept source, in order (an already-known URL keeps its id).
    pub source_ids: Vec<String>,
    /// Ids of newly queued gates.
    pub new_gate_ids: Vec<String>,
    /// Gated URLs already in the queue (not added again).
    pub duplicate_gates: usize,
}

/// What [`search_sub_question`] did: the gateway's report and what was recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct SubQuestionSearch {
    /// What the gateway said (its kept sources and gated URLs are in `outcome`).
    pub report: GatewayReport,
    /// What the session recorded from it.
    pub recorded: RecordedSearch,
}

/// Ask `backend` (with `options`) to search for `sq_id` and record the outcome.
/// A backend failure keeps its class (usage, operational, I/O) and writes nothing.
pub fn search_sub_question(
    store: &Store,
    id: &str,
    sq_id: &str,
    backend: &dyn Backend,
    options: &GatewayOptions,
    now: Timestamp,
) -> Result<SubQuestionSearch> {
    let manifest = store.read_manifest(id)?;
    let plan = store.read_plan(id)?;
    let sq = find_sub_question(&plan, sq_id)?;
    let request = SearchRequest {
        session_id: id.to_string(),
        question: manifest.question.clone(),
        intent: manifest.intent.clone(),
        sub_question_id: sq.id.clone(),
        sub_question_text: sq.text.clone(),
        sibling_sub_questions: plan
            .sub_questions
            .iter()
            .filter(|s| s.id != sq_id)
            .map(|s| s.text.clone())
            .collect(),
        gate_policy: manifest.gate_policy,
        tool_call_cap: manifest.budget.tool_call_cap,
    };
    let report = backend.search(options, &request)?;
    let recorded = record_search(store, id, sq_id, &report.outcome, now)?;
    Ok(SubQuestionSearch { report, recorded })
}

fn find_sub_question<'p>(plan: &'p Plan, sq_id: &str) -> Result<&'p SubQuestion> {
    validate::sub_question_id(sq_id).map_err(Error::from)?;
    plan.sub_questions
        .iter()
        .find(|s| s.id == sq_id)
        .ok_or_else(|| {
            Error::NotFound(format!(
                "no sub-question {sq_id} in session {}",
                plan.session_id
            ))
        })
}

/// Record a searcher's outcome for `sq_id`: kept sources into `sources.json`, gated
/// URLs into `gates.json`. All input is checked before anything is written.
pub fn record_search(
    store: &Store,
    id: &str,
    sq_id: &str,
    outcome: &SearchOutcome,
    now: Timestamp,
) -> Result<RecordedSearch> {
    let sq_n = validate::sub_question_id(sq_id).map_err(Error::from)?;
    let mut qualities = Vec::new();
    for (i, kept) in outcome.kept.iter().enumerate() {
        let q = quality_for_tier(&kept.tier).ok_or_else(|| {
            Error::Usage(format!(
                "kept source {} ({}): unknown tier {:?}",
                i + 1,
                kept.url,
                kept.tier
            ))
        })?;
        if kept.evidence_id.trim().is_empty() {
            return Err(Error::Usage(format!(
                "kept source {} ({}): no evidence id",
                i + 1,
                kept.url
            )));
        }
        qualities.push(q);
    }
    store.transaction(id, |txn| {
        let mut manifest = txn.manifest()?;
        find_sub_question(&txn.plan()?, sq_id)?;
        let mut sources = txn.sources()?;
        let mut next = sources
            .sources
            .iter()
            .filter_map(|s| validate::source_id(&s.source_id).ok())
            .filter(|(n, _)| *n == sq_n)
            .map(|(_, k)| k)
            .max()
            .unwrap_or(0)
            + 1;
        let mut source_ids = Vec::new();
        for (kept, quality) in outcome.kept.iter().zip(qualities) {
            let url = kept.url.trim();
            let record = Source {
                source_id: String::new(),
                sub_question_id: sq_id.to_string(),
                url: url.to_string(),
                title: kept.title.trim().to_string(),
                kind: SourceKind::Web,
                source_quality: quality,
                tier: Some(kept.tier.clone()),
                snippet: kept.snippet.trim().to_string(),
                evidence_id: Some(kept.evidence_id.trim().to_string()),
                publisher: kept.publisher.clone().filter(|p| !p.trim().is_empty()),
                retrieved_at: now,
            };
            if let Some(existing) = sources
                .sources
                .iter_mut()
                .find(|s| s.sub_question_id == sq_id && s.url == url)
            {
                // Same URL again: refresh the record, keep its id.
                let source_id = existing.source_id.clone();
                *existing = Source {
                    source_id: source_id.clone(),
                    ..record
                };
                source_ids.push(source_id);
            } else {
                let source_id = format!("s{sq_n}-{next}");
                next += 1;
                sources.sources.push(Source {
                    source_id: source_id.clone(),
                    ..record
                });
                source_ids.push(source_id);
            }
        }
        let mut gates = txn.gates()?;
        let mut fresh: Vec<GateInput> = Vec::new();
        let mut duplicate_gates = 0;
        for g in &outcome.gated {
            let url = g.url.trim();
            if gates.gates.iter().any(|e| e.url == url) || fresh.iter().any(|f| f.url == url) {
                duplicate_gates += 1;
                continue;
            }
            fresh.push(GateInput {
                url: url.to_string(),
                gate_type: g.gate_type.clone(),
                what_is_needed: g.what_is_needed.clone(),
                sub_question_id: Some(sq_id.to_string()),
                status: None,
            });
        }
        let added = build_gates(&gates, &fresh, now)?;
        let new_gate_ids = added.iter().map(|g| g.gate_id.clone()).collect();
        gates.gates.extend(added);
        // Validate everything, then write.
        validate::sources(&sources).map_err(Error::from)?;
        validate::gates(&gates).map_err(Error::from)?;
        txn.write_sources(&sources)?;
        txn.write_gates(&gates)?;
        if manifest.status == Status::Draft {
            manifest.status = Status::InProgress;
            manifest.updated_at = now.max(manifest.created_at);
            txn.write_manifest(&manifest)?;
        }
        Ok(RecordedSearch {
            source_ids,
            new_gate_ids,
            duplicate_gates,
        })
    })
}

/// One claim from the extractor brief's structured return.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExtractedClaim {
    pub claim_id: String,
    pub text: String,
    pub quote: String,
    pub source_id: String,
    pub importance: Importance,
    /// Defaults to the cited source's quality; may only downgrade it.
    #[serde(default)]
    pub source_quality: Option<SourceQuality>,
}

/// The extractor brief's structured return for one sub-question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Extraction {
    pub sub_question_id: String,
    pub claims: Vec<ExtractedClaim>,
    pub unsourced_claims: u32,
    #[serde(default)]
    pub notes: String,
    #[serde(default)]
    pub summary: String,
}

/// Look up the stored text of a gateway evidence record.
pub trait EvidenceTexts {
    /// The evidence text for `evidence_id`, if the store has it.
    fn text(&self, evidence_id: &str) -> Option<String>;
}

impl EvidenceTexts for HashMap<String, String> {
    fn text(&self, evidence_id: &str) -> Option<String> {
        self.get(evidence_id).cloned()
    }
}

/// What one extraction run wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    pub findings: Vec<Finding>,
    /// Unsourced share of the run: unsourced / (claims + unsourced).
    pub unsourced_ratio: f64,
    /// The run exceeded 10% unsourced and the session was stamped `aborted`.
    pub aborted: bool,
}

fn may_carry(claimed: SourceQuality, source: SourceQuality) -> bool {
    use SourceQuality::*;
    claimed == source || claimed == Low || (source == Primary && claimed == Secondary)
}

fn confidence(claims: &[Claim], unsourced: u32) -> Confidence {
    let ok_ratio = ratio(u64::from(unsourced), claims.len() as u64) <= UNSOURCED_LIMIT;
    if ok_ratio
        && claims.iter().any(|c| {
            c.importance == Importance::Central && c.source_quality == SourceQuality::Primary
        })
        && !claims.iter().any(|c| c.verdict == Verdict::Refuted)
    {
        Confidence::High
    } else if claims.iter().any(|c| {
        matches!(
            c.source_quality,
            SourceQuality::Primary | SourceQuality::Secondary
        )
    }) {
        Confidence::Medium
    } else {
        Confidence::Low
    }
}

/// Record one extraction run (one [`Extraction`] per sub-question) as findings.
///
/// Each claim must cite a source recorded for its sub-question, and its quote must be
/// a verbatim substring of that source's evidence text (looked up through
/// `evidence`); otherwise the whole run is rejected and nothing is written. Finding
/// confidence: `high` with a central claim from a primary source and ≤ 10% unsourced,
/// `medium` with any primary/secondary claim, else `low`. When the run as a whole is
/// more than 10% unsourced, the session is stamped `aborted` (build-spec §8).
pub fn record_extractions(
    store: &Store,
    id: &str,
    run: &[Extraction],
    evidence: &dyn EvidenceTexts,
    now: Timestamp,
) -> Result<RunOutcome> {
    store.transaction(id, |txn| {
        let mut manifest = txn.manifest()?;
        if manifest.status.is_terminal() {
            return Err(Error::Operational(format!(
                "session {id} is {}; findings are closed",
                manifest.status
            )));
        }
        let plan = txn.plan()?;
        let sources = txn.sources()?;
        let mut findings = Vec::new();
        let (mut sourced, mut unsourced) = (0u64, 0u64);
        let mut texts: HashMap<String, Option<String>> = HashMap::new();
        for ex in run {
            find_sub_question(&plan, &ex.sub_question_id)?;
            if findings
                .iter()
                .any(|f: &Finding| f.sub_question_id == ex.sub_question_id)
            {
                return Err(Error::Usage(format!(
                    "{} appears twice in one run",
                    ex.sub_question_id
                )));
            }
            let mut claims = Vec::new();
            for c in &ex.claims {
                let src = sources
                    .sources
                    .iter()
                    .find(|s| s.source_id == c.source_id && s.sub_question_id == ex.sub_question_id)
                    .ok_or_else(|| {
                        Error::Usage(format!(
                            "{} {}: cites {}, not a source of {}",
                            ex.sub_question_id, c.claim_id, c.source_id, ex.sub_question_id
                        ))
                    })?;
                let ev = src.evidence_id.clone().unwrap_or_default();
                let text = texts.entry(ev.clone()).or_insert_with(|| {
                    if ev.is_empty() {
                        None
                    } else {
                        evidence.text(&ev)
                    }
                });
                let Some(text) = text.as_deref() else {
                    return Err(Error::Usage(format!(
                        "{} {}: no stored evidence text for {} to ground the quote",
                        ex.sub_question_id, c.claim_id, c.source_id
                    )));
                };
                if c.quote.trim().is_empty() || !text.contains(c.quote.as_str()) {
                    return Err(Error::Usage(format!(
                        "{} {}: quote is not a verbatim span of {}'s evidence text",
                        ex.sub_question_id, c.claim_id, c.source_id
                    )));
                }
                let quality = c.source_quality.unwrap_or(src.source_quality);
                if !may_carry(quality, src.source_quality) {
                    return Err(Error::Usage(format!(
                        "{} {}: sourceQuality {quality} upgrades {} ({})",
                        ex.sub_question_id, c.claim_id, c.source_id, src.source_quality
                    )));
                }
                claims.push(Claim {
                    claim_id: c.claim_id.clone(),
                    text: c.text.trim().to_string(),
                    quote: c.quote.clone(),
                    source_id: c.source_id.clone(),
                    importance: c.importance,
                    source_quality: quality,
                    verdict: Verdict::Unverified,
                    votes: Vec::new(),
                });
            }
            sourced += claims.len() as u64;
            unsourced += u64::from(ex.unsourced_claims);
            let finding = Finding {
                schema_version: SCHEMA_VERSION,
                sub_question_id: ex.sub_question_id.clone(),
                summary: ex.summary.trim().to_string(),
                confidence: confidence(&claims, ex.unsourced_claims),
                claims,
                unsourced_claims: ex.unsourced_claims,
                notes: ex.notes.trim().to_string(),
                written_at: now,
            };
            validate::finding(&finding)
                .map_err(|e| Error::Usage(format!("{}: {e}", ex.sub_question_id)))?;
            findings.push(finding);
        }
        for f in &findings {
            txn.write_finding(f)?;
        }
        let unsourced_ratio = ratio(unsourced, sourced);
        let aborted = unsourced_ratio > UNSOURCED_LIMIT;
        let status = if aborted {
            Status::Aborted
        } else if manifest.status == Status::Draft {
            Status::InProgress
        } else {
            manifest.status
        };
        if status != manifest.status {
            manifest.status = status;
            manifest.updated_at = now.max(manifest.created_at);
            txn.write_manifest(&manifest)?;
        }
        Ok(RunOutcome {
            findings,
            unsourced_ratio,
            aborted,
        })
    })
}

/// A person cleared gate `gate_id` (optionally handing in evidence): mark it `resolved`.
pub fn resolve_gate(
    store: &Store,
    id: &str,
    gate_id: &str,
    evidence_id: Option<&str>,
    note: Option<&str>,
    now: Timestamp,
) -> Result<Gate> {
    validate::gate_id(gate_id).map_err(Error::from)?;
    store.transaction(id, |txn| {
        let mut gates = txn.gates()?;
        let gate = gates
            .gates
            .iter_mut()
            .find(|g| g.gate_id == gate_id)
            .ok_or_else(|| Error::NotFound(format!("no gate {gate_id} in session {id}")))?;
        if gate.status == GateStatus::Resolved {
            return Err(Error::Operational(format!(
                "gate {gate_id} is already resolved"
            )));
        }
        gate.status = GateStatus::Resolved;
        gate.updated_at = Some(now);
        gate.resolved_at = Some(now);
        gate.evidence_id = evidence_id
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
        gate.resolution_note = note
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
        let out = gate.clone();
        txn.write_gates(&gates)?;
        Ok(out)
    })
}

/// What [`resolve_gate_with_evidence`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct GateResolution {
    /// The gate, now `resolved`.
    pub gate: Gate,
    /// The evidence record the gateway stored.
    pub evidence: StoredSubmission,
    /// The source the evidence became, when the gate belongs to a sub-question of
    /// a session still open (`s<N>-<k>`, `userSupplied`).
    pub source_id: Option<String>,
}

impl EvidenceInput {
    /// How the evidence came in, for notes: `pasted text`, `file PATH`, `URL U`.
    pub fn describe(&self) -> String {
        match self {
            EvidenceInput::Text(_) => "pasted text".to_string(),
            EvidenceInput::File(p) => format!("file {}", p.display()),
            EvidenceInput::Url(u) => format!("URL {u}"),
        }
    }
}

/// A person hands in `input` to clear gate `gate_id` of session `id`: `backend`
/// stores it as the gateway's user-supplied evidence (answering the gate's
/// sub-question, else the session question), the gate is marked `resolved` with
/// `note` (default: how it came in and the gateway request), and the evidence
/// becomes a citable source of the gate's sub-question while the session is open.
/// An unknown or already resolved gate fails before the backend is asked.
#[allow(clippy::too_many_arguments)]
pub fn resolve_gate_with_evidence(
    store: &Store,
    id: &str,
    gate_id: &str,
    input: &EvidenceInput,
    note: Option<&str>,
    backend: &dyn Backend,
    options: &GatewayOptions,
    now: Timestamp,
) -> Result<GateResolution> {
    validate::gate_id(gate_id).map_err(Error::from)?;
    let manifest = store.read_manifest(id)?;
    let plan = store.read_plan(id)?;
    let gate = store
        .read_gates(id)?
        .gates
        .into_iter()
        .find(|g| g.gate_id == gate_id)
        .ok_or_else(|| Error::NotFound(format!("no gate {gate_id} in session {id}")))?;
    if gate.status == GateStatus::Resolved {
        return Err(Error::Operational(format!(
            "gate {gate_id} is already resolved"
        )));
    }
    let query = gate
        .sub_question_id
        .as_deref()
        .and_then(|sq| plan.sub_questions.iter().find(|s| s.id == sq))
        .map(|s| s.text.clone())
        .unwrap_or_else(|| manifest.question.clone());
    let evidence = backend.submit_evidence(
        options,
        &GateEvidence {
            session_id: id,
            gate_id,
            url: &gate.url,
            gate_type: &gate.gate_type,
            query: &query,
            input,
            now,
        },
    )?;
    let how = input.describe();
    let default_note = format!("{how} via gateway request {}", evidence.request_id);
    let resolved = resolve_gate(
        store,
        id,
        gate_id,
        Some(&evidence.evidence_id),
        Some(note.unwrap_or(&default_note)),
        now,
    )
    .map_err(|e| {
        Error::Operational(format!(
            "evidence {} was stored by the gateway, but the gate could not be marked: {e}",
            evidence.evidence_id
        ))
    })?;
    let mut source_id = None;
    if let Some(sq) = &gate.sub_question_id
        && !manifest.status.is_terminal()
        && plan.sub_questions.iter().any(|s| &s.id == sq)
    {
        let outcome = SearchOutcome {
            kept: vec![KeptSource {
                url: gate.url.clone(),
                title: evidence.title.clone(),
                tier: "USER_SUPPLIED_EVIDENCE".into(),
                snippet: format!("supplied by a person to clear gate {gate_id} ({how})"),
                evidence_id: evidence.evidence_id.clone(),
                publisher: None,
            }],
            gated: Vec::new(),
        };
        let rec = record_search(store, id, sq, &outcome, now)?;
        source_id = rec.source_ids.into_iter().next();
    }
    Ok(GateResolution {
        gate: resolved,
        evidence,
        source_id,
    })
}

/// Record the findings of sub-question `sq_id` of session `id`: from `from`
/// (an extraction run someone else did, e.g. the extractor brief's JSON read by
/// [`parse_extractions`]), else from `backend`'s own extraction over the
/// evidence texts of the sub-question's recorded sources. The quotes of either
/// are checked against those texts by [`record_extractions`].
///
/// Fails (and writes nothing) when the sub-question is unknown, when the
/// backend must extract but no source is recorded yet, or when none of the
/// sources' evidence records is in the gateway's store (a different `--store`
/// than the search used, most likely).
pub fn extract_sub_question(
    store: &Store,
    id: &str,
    sq_id: &str,
    from: Option<Vec<Extraction>>,
    backend: &dyn Backend,
    options: &GatewayOptions,
    now: Timestamp,
) -> Result<RunOutcome> {
    let plan = store.read_plan(id)?;
    let sq = find_sub_question(&plan, sq_id)?;
    let sources: Vec<Source> = store
        .read_sources(id)?
        .sources
        .into_iter()
        .filter(|s| s.sub_question_id == sq_id)
        .collect();
    let ids: Vec<String> = sources
        .iter()
        .filter_map(|s| s.evidence_id.clone())
        .collect();
    let texts = if ids.is_empty() {
        HashMap::new()
    } else {
        backend.evidence_texts(options, &ids)?
    };
    let run = match from {
        Some(run) => run,
        None => {
            if sources.is_empty() {
                return Err(Error::Operational(format!(
                    "{sq_id} has no recorded sources: run `research search {id} --sub-question {sq_id}` first"
                )));
            }
            if !ids.is_empty() && texts.is_empty() {
                return Err(Error::Operational(format!(
                    "none of the {} evidence record(s) of {sq_id}'s sources is in the gateway evidence store{}: is it the store `research search` used (--store / the policy's store.url)?",
                    ids.len(),
                    options
                        .store
                        .as_deref()
                        .map(|s| format!(" at {s}"))
                        .unwrap_or_default()
                )));
            }
            let request = ExtractRequest {
                sub_question_id: sq_id,
                sub_question_text: &sq.text,
                sources: &sources,
            };
            vec![backend.extract(&request, &texts)?]
        }
    };
    record_extractions(store, id, &run, &texts, now)
}

/// The extractor brief's return for sub-question `sq_id` (one object, or an
/// array of them), read from `shown` (named in errors). Every item must be for
/// `sq_id`; any bytes give extractions or a usage error, never a panic.
pub fn parse_extractions(bytes: &[u8], shown: &str, sq_id: &str) -> Result<Vec<Extraction>> {
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| Error::Usage(format!("--from {shown}: not JSON: {e}")))?;
    let items = match value {
        serde_json::Value::Array(items) => items,
        other => vec![other],
    };
    if items.is_empty() {
        return Err(Error::Usage(format!("--from {shown}: no extraction in it")));
    }
    let mut run = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let ex: Extraction = serde_json::from_value(item)
            .map_err(|e| Error::Usage(format!("--from {shown}: extraction {}: {e}", i + 1)))?;
        if ex.sub_question_id != sq_id {
            return Err(Error::Usage(format!(
                "--from {shown}: extraction {} is for {}, not {sq_id}",
                i + 1,
                ex.sub_question_id
            )));
        }
        run.push(ex);
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::parse_extractions;

    #[test]
    fn from_input_of_any_bytes_is_an_error_or_extractions_never_a_panic() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let samples: [&[u8]; 6] = [
            b"",
            b"[]",
            b"{}",
            b"{\"subQuestionId\":\"sq-1\",\"claims\":[],\"unsourcedClaims\":0}",
            b"[{\"subQuestionId\":\"sq-1\",\"claims\":[{}],\"unsourcedClaims\":-1}]",
            b"{\"subQuestionId\":\"sq-1\",\"claims\":[],\"unsourcedClaims\":0,\"extra\":1}",
        ];
        let ok = parse_extractions(samples[3], "t", "sq-1").unwrap();
        assert_eq!(ok.len(), 1);
        for s in &samples[..3] {
            assert!(parse_extractions(s, "t", "sq-1").is_err());
        }
        for s in &samples[4..] {
            assert!(parse_extractions(s, "t", "sq-1").is_err());
        }
        for _ in 0..500 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let base = samples[(seed % 6) as usize];
            let mut bytes = base.to_vec();
            if !bytes.is_empty() {
                let at = (seed >> 8) as usize % bytes.len();
                bytes[at] = (seed >> 24) as u8;
                bytes.truncate(((seed >> 32) as usize % bytes.len()) + 1);
            }
            let _ = parse_extractions(&bytes, "t", "sq-1");
        }
    }
}
