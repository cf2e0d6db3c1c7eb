//! Pure validators: bytes (or a typed value) in, a typed artifact or the reason
//! it is not valid ([`Invalid`]) out.
//!
//! Nothing here touches the disk. Every artifact is checked twice: serde enforces the
//! shape (required fields, enums, no unknown fields), then the functions below enforce
//! the rules serde cannot (id formats, uniqueness, references, non-empty text).
//! The store calls these before every write and after every read.

use crate::model::*;
use std::collections::{HashMap, HashSet};

/// Why an id or an artifact is not valid: one sentence naming the id, field
/// or rule (`invalid gate id "x": expected g-N (N ≥ 1)`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

const CROCKFORD: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A ULID session id: 26 uppercase Crockford base32 chars (no I L O U), 48-bit time first.
pub fn session_id(id: &str) -> Result<(), Invalid> {
    if id.len() != 26 {
        return Err(Invalid(format!(
            "invalid session id {id:?}: expected 26 characters, got {}",
            id.chars().count()
        )));
    }
    if let Some(c) = id.chars().find(|c| !CROCKFORD.contains(*c)) {
        return Err(Invalid(format!(
            "invalid session id {id:?}: {c:?} is not an uppercase Crockford base32 character"
        )));
    }
    if id.as_bytes()[0] > b'7' {
        return Err(Invalid(format!(
            "invalid session id {id:?}: timestamp overflows 48 bits"
        )));
    }
    Ok(())
}

/// `sq-N` with N ≥ 1, no leading zeros. Returns N.
pub fn sub_question_id(id: &str) -> Result<u32, Invalid> {
    numbered(id, "sq-").ok_or_else(|| {
        Invalid(format!(
            "invalid sub-question id {id:?}: expected sq-N (N ≥ 1)"
        ))
    })
}

/// `g-N`. Returns N.
pub fn gate_id(id: &str) -> Result<u32, Invalid> {
    numbered(id, "g-")
        .ok_or_else(|| Invalid(format!("invalid gate id {id:?}: expected g-N (N ≥ 1)")))
}

/// `c-N`. Returns N.
pub fn claim_id(id: &str) -> Result<u32, Invalid> {
    numbered(id, "c-")
        .ok_or_else(|| Invalid(format!("invalid claim id {id:?}: expected c-N (N ≥ 1)")))
}

/// `s<N>-<k>`. Returns (N, k).
pub fn source_id(id: &str) -> Result<(u32, u32), Invalid> {
    let err = || {
        Invalid(format!(
            "invalid source id {id:?}: expected s<N>-<k> (N, k ≥ 1)"
        ))
    };
    let rest = id.strip_prefix('s').ok_or_else(err)?;
    let (n, k) = rest.split_once('-').ok_or_else(err)?;
    Ok((number(n).ok_or_else(err)?, number(k).ok_or_else(err)?))
}

fn numbered(id: &str, prefix: &str) -> Option<u32> {
    number(id.strip_prefix(prefix)?)
}

fn number(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || s.starts_with('0') || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok().filter(|n| *n >= 1)
}

fn text(field: &str, value: &str) -> Result<(), Invalid> {
    if value.trim().is_empty() {
        return Err(Invalid(format!("{field} must not be empty")));
    }
    Ok(())
}

fn parse<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Invalid> {
    serde_json::from_slice(bytes).map_err(|e| Invalid(e.to_string()))
}

fn version(v: u32) -> Result<(), Invalid> {
    if v != SCHEMA_VERSION {
        return Err(Invalid(format!(
            "unsupported schemaVersion {v} (expected {SCHEMA_VERSION})"
        )));
    }
    Ok(())
}

/// Parse and check `manifest.json`.
pub fn manifest_bytes(bytes: &[u8]) -> Result<Manifest, Invalid> {
    let m: Manifest = parse(bytes)?;
    manifest(&m)?;
    Ok(m)
}

/// Check a manifest.
pub fn manifest(m: &Manifest) -> Result<(), Invalid> {
    version(m.schema_version)?;
    session_id(&m.session_id)?;
    text("question", &m.question)?;
    if let Some(intent) = &m.intent {
        text("intent", intent)?;
    }
    if m.updated_at < m.created_at {
        return Err(Invalid("updatedAt is before createdAt".into()));
    }
    if m.budget.max_sub_questions == 0 || m.budget.tool_call_cap == 0 {
        return Err(Invalid("budget values must be at least 1".into()));
    }
    for a in &m.assumptions {
        text("assumptions[]", a)?;
    }
    Ok(())
}

/// Parse and check `plan.json`.
pub fn plan_bytes(bytes: &[u8]) -> Result<Plan, Invalid> {
    let p: Plan = parse(bytes)?;
    plan(&p)?;
    Ok(p)
}

/// Check a plan: ids unique, dependencies exist, no self-dependency, no cycle.
pub fn plan(p: &Plan) -> Result<(), Invalid> {
    version(p.schema_version)?;
    session_id(&p.session_id)?;
    let mut ids = HashSet::new();
    for sq in &p.sub_questions {
        sub_question_id(&sq.id)?;
        text(&format!("{} text", sq.id), &sq.text)?;
        if !ids.insert(sq.id.as_str()) {
            return Err(Invalid(format!("duplicate sub-question id {}", sq.id)));
        }
    }
    let deps: HashMap<&str, &[String]> = p
        .sub_questions
        .iter()
        .map(|sq| (sq.id.as_str(), sq.depends_on.as_slice()))
        .collect();
    for sq in &p.sub_questions {
        let mut seen = HashSet::new();
        for d in &sq.depends_on {
            if d == &sq.id {
                return Err(Invalid(format!("{} depends on itself", sq.id)));
            }
            if !ids.contains(d.as_str()) {
                return Err(Invalid(format!(
                    "{} depends on unknown sub-question {d:?}",
                    sq.id
                )));
            }
            if !seen.insert(d) {
                return Err(Invalid(format!("{} lists dependency {d} twice", sq.id)));
            }
        }
    }
    // Cycle check: depth-first with colours.
    fn visit<'a>(
        id: &'a str,
        deps: &HashMap<&'a str, &'a [String]>,
        state: &mut HashMap<&'a str, u8>,
    ) -> Result<(), Invalid> {
        match state.get(id) {
            Some(2) => return Ok(()),
            Some(1) => return Err(Invalid(format!("dependency cycle through {id}"))),
            _ => {}
        }
        state.insert(id, 1);
        for d in deps.get(id).copied().unwrap_or_default() {
            visit(d, deps, state)?;
        }
        state.insert(id, 2);
        Ok(())
    }
    let mut state = HashMap::new();
    for sq in &p.sub_questions {
        visit(&sq.id, &deps, &mut state)?;
    }
    Ok(())
}

/// Parse and check `sources.json`.
pub fn sources_bytes(bytes: &[u8]) -> Result<SourcesFile, Invalid> {
    let s: SourcesFile = parse(bytes)?;
    sources(&s)?;
    Ok(s)
}

/// Check the source registry: ids well formed, unique, and numbered after their sub-question.
pub fn sources(s: &SourcesFile) -> Result<(), Invalid> {
    version(s.schema_version)?;
    let mut ids = HashSet::new();
    for src in &s.sources {
        let (n, _) = source_id(&src.source_id)?;
        let sq = sub_question_id(&src.sub_question_id)?;
        if n != sq {
            return Err(Invalid(format!(
                "source {} belongs to sq-{n} but is filed under {}",
                src.source_id, src.sub_question_id
            )));
        }
        if !ids.insert(src.source_id.as_str()) {
            return Err(Invalid(format!("duplicate source id {}", src.source_id)));
        }
        url(&format!("{} url", src.source_id), &src.url)?;
        if let Some(ev) = &src.evidence_id {
            text(&format!("{} evidenceId", src.source_id), ev)?;
        }
        if let Some(tier) = &src.tier {
            text(&format!("{} tier", src.source_id), tier)?;
        }
    }
    Ok(())
}

fn url(field: &str, value: &str) -> Result<(), Invalid> {
    text(field, value)?;
    if value.chars().any(char::is_whitespace) {
        return Err(Invalid(format!("{field} must not contain whitespace")));
    }
    Ok(())
}

/// Parse and check `gates.json`.
pub fn gates_bytes(bytes: &[u8]) -> Result<GatesFile, Invalid> {
    let g: GatesFile = parse(bytes)?;
    gates(&g)?;
    Ok(g)
}

/// Check the gate queue: ids unique, required text present.
pub fn gates(g: &GatesFile) -> Result<(), Invalid> {
    version(g.schema_version)?;
    let mut ids = HashSet::new();
    for gate in &g.gates {
        gate_id(&gate.gate_id)?;
        if !ids.insert(gate.gate_id.as_str()) {
            return Err(Invalid(format!("duplicate gate id {}", gate.gate_id)));
        }
        gate_record(gate)?;
    }
    Ok(())
}

/// Check one gate's semantic fields (also used for `gates --append` input).
pub fn gate_record(gate: &Gate) -> Result<(), Invalid> {
    url("url", &gate.url)?;
    text("gateType", &gate.gate_type)?;
    text("whatIsNeeded", &gate.what_is_needed)?;
    if let Some(sq) = &gate.sub_question_id {
        sub_question_id(sq)?;
    }
    Ok(())
}

/// Parse and check one `findings/sq-N.json`.
pub fn finding_bytes(bytes: &[u8]) -> Result<Finding, Invalid> {
    let f: Finding = parse(bytes)?;
    finding(&f)?;
    Ok(f)
}

/// Check a finding: ids, non-empty quotes, sources cited from its own sub-question.
pub fn finding(f: &Finding) -> Result<(), Invalid> {
    version(f.schema_version)?;
    let sq = sub_question_id(&f.sub_question_id)?;
    let mut ids = HashSet::new();
    for c in &f.claims {
        claim_id(&c.claim_id)?;
        if !ids.insert(c.claim_id.as_str()) {
            return Err(Invalid(format!("duplicate claim id {}", c.claim_id)));
        }
        text(&format!("{} text", c.claim_id), &c.text)?;
        if c.quote.trim().is_empty() {
            return Err(Invalid(format!(
                "{} has no quote: a claim without a verbatim quote is not a claim",
                c.claim_id
            )));
        }
        let (n, _) = source_id(&c.source_id)?;
        if n != sq {
            return Err(Invalid(format!(
                "{} cites {}, which is not a source of {}",
                c.claim_id, c.source_id, f.sub_question_id
            )));
        }
    }
    Ok(())
}
