//! The search gateway behind the `research` CLI: the [`sgw_research::Backend`]
//! used by `research search`, `research extract` and `research gates --resolve`.
//!
//! * search: the policy's fallback chain for the sub-question's text; kept sources
//!   carry the evidence id the gateway stored, gated attempts (CAPTCHA, CDN, login,
//!   JavaScript-only page, robots.txt) become gate records with a plain sentence of
//!   what a person must do.
//! * extract: the extractor brief done mechanically: passages of each source's stored
//!   evidence text ranked against the sub-question (BM25, `sgw-extract`), then the
//!   sentences of the best passages that state something checkable (a number, a
//!   date, a percentage, a definition) become claims whose quote is that sentence
//!   verbatim. No vertical knowledge: the rules are about sentence shape only.
//! * gates --resolve: the person's text, file (text, HTML, PDF, or a screenshot read
//!   by `tesseract`) or URL (fetched through the network layer, every guard on) is
//!   ingested by `sgw_provider_human_intake::ingest` (the same ingestion as `sgw
//!   evidence submit`) and handed to the gateway store's human intake
//!   (`create_request`/`resolve_request`), stored as USER_SUPPLIED_EVIDENCE.
//!
//! It is NOT the session store: every session write goes through `sgw_research`.

use search_gateway::contract::SearchResult;
use search_gateway::extract::{Document, DocumentKind, Metadata, Url, find_dates, tokenize};
use search_gateway::store::{
    BlockedUrl, GateType, NewHumanRequest, RequestStatus, Store, Submission,
};
use search_gateway::{Gateway, OpenOptions, Policy};
use sgw_provider_human_intake::ingest::{self, IngestError, Input};
use sgw_research::{
    Backend, BackendError, EvidenceInput, EvidenceTexts, ExtractRequest, ExtractedClaim,
    Extraction, GateEvidence, GatedUrl, GatewayOptions, GatewayReport, Importance, KeptSource,
    SearchOutcome, SearchRequest, SourceQuality, StoredSubmission,
};
use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;

/// The largest evidence `gates --resolve` accepts (file, text or fetched page).
pub const MAX_SUBMISSION_BYTES: u64 = ingest::MAX_BYTES;
/// Claims one automatic extraction emits at most.
const MAX_CLAIMS: usize = 8;
/// Claims taken from one source at most.
const MAX_CLAIMS_PER_SOURCE: usize = 3;
/// Central claims (from the best source) at most.
const MAX_CENTRAL: usize = 2;
/// Passages of one evidence text considered.
const PASSAGES_PER_SOURCE: usize = 4;
/// Quotes are whole sentences of this many bytes.
const QUOTE_MIN: usize = 20;
const QUOTE_MAX: usize = 500;

/// The gateway, opened per invocation from `--policy` / `--store`.
pub struct GatewayBackend {
    runtime: tokio::runtime::Runtime,
    /// Draw a spinner on stderr (only when stderr is a terminal).
    progress: bool,
}

impl std::fmt::Debug for GatewayBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatewayBackend")
            .field("progress", &self.progress)
            .finish()
    }
}

impl GatewayBackend {
    /// A backend with its own async runtime; a spinner when stderr is a terminal.
    pub fn new() -> std::io::Result<GatewayBackend> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        Ok(GatewayBackend {
            runtime,
            progress: std::io::stderr().is_terminal(),
        })
    }

    fn spinner(&self, message: String) -> indicatif::ProgressBar {
        if self.progress {
            crate::progress::spinner(message)
        } else {
            indicatif::ProgressBar::hidden()
        }
    }
}

fn open_error(e: search_gateway::OpenError) -> BackendError {
    if e.is_usage() {
        BackendError::Usage(e.to_string())
    } else {
        BackendError::Io(e.to_string())
    }
}

/// The policy at `options.policy`, else the built-in default.
fn load_policy(options: &GatewayOptions) -> Result<Policy, BackendError> {
    search_gateway::load_policy_or_default(options.policy.as_deref())
        .map(|(p, _)| p)
        .map_err(|e| BackendError::Usage(e.to_string()))
}

fn open_options(options: &GatewayOptions) -> OpenOptions {
    OpenOptions {
        store: options.store.clone(),
        no_store: false,
    }
}

async fn open_gateway(options: &GatewayOptions) -> Result<Gateway, BackendError> {
    let policy = load_policy(options)?;
    search_gateway::build(policy, open_options(options))
        .await
        .map_err(open_error)
}

/// The evidence store the gateway would use (`--store`, else the policy's
/// `store.url`, else the default location), decided by the facade.
async fn open_store(options: &GatewayOptions, policy: &Policy) -> Result<Store, BackendError> {
    search_gateway::open_store(policy, &open_options(options))
        .await
        .map_err(|e| BackendError::Io(e.to_string()))?
        .ok_or_else(|| BackendError::Io("evidence store: none configured".into()))
}

impl Backend for GatewayBackend {
    fn search(
        &self,
        options: &GatewayOptions,
        request: &SearchRequest,
    ) -> Result<GatewayReport, BackendError> {
        let bar = self.spinner(format!(
            "searching for {}: {}",
            request.sub_question_id, request.sub_question_text
        ));
        let result = self.runtime.block_on(async {
            let gateway = open_gateway(options).await?;
            let query = search_gateway::SearchRequest::new(request.sub_question_text.clone());
            gateway
                .search(&query)
                .await
                .map_err(|e| BackendError::Usage(format!("{}: {e}", request.sub_question_id)))
        });
        bar.finish_and_clear();
        Ok(report(&result?, &request.session_id))
    }

    fn evidence_texts(
        &self,
        options: &GatewayOptions,
        evidence_ids: &[String],
    ) -> Result<HashMap<String, String>, BackendError> {
        self.runtime.block_on(async {
            let policy = load_policy(options)?;
            let store = open_store(options, &policy).await?;
            let mut out = HashMap::new();
            for id in evidence_ids {
                if out.contains_key(id) || !search_gateway::store::is_evidence_id(id) {
                    continue;
                }
                let found = store
                    .get_evidence(id)
                    .await
                    .map_err(|e| BackendError::Io(format!("evidence {id}: {e}")))?;
                if let Some(record) = found {
                    out.insert(id.clone(), record.evidence.text);
                }
            }
            store.close().await;
            Ok(out)
        })
    }

    fn extract(
        &self,
        request: &ExtractRequest<'_>,
        texts: &dyn EvidenceTexts,
    ) -> Result<Extraction, BackendError> {
        Ok(extract_claims(request, texts))
    }

    fn submit_evidence(
        &self,
        options: &GatewayOptions,
        gate: &GateEvidence<'_>,
    ) -> Result<StoredSubmission, BackendError> {
        let bar = self.spinner(format!("handing in evidence for {}", gate.gate_id));
        let out = self.runtime.block_on(submit(options, gate));
        bar.finish_and_clear();
        out
    }
}

// ---- search ----

/// A gate as the session's `gateType` spells it: the gateway store's spelling
/// (`captcha`, `cdn`, `login`, `dynamic_page`, `robots`), except that a CDN block
/// whose diagnosis names Cloudflare is `cloudflare`, as in the searcher brief.
pub fn gate_type(gate: GateType, detail: Option<&str>) -> String {
    let cloudflare = detail.is_some_and(|d| d.to_ascii_lowercase().contains("cloudflare"));
    if gate == GateType::Cdn && cloudflare {
        "cloudflare".into()
    } else {
        gate.as_str().into()
    }
}

/// A plain sentence: what a person has to do for a gated URL.
pub fn what_is_needed(gate: &str, url: &str, session_id: &str) -> String {
    let action = match gate {
        "captcha" => "open it in a browser and pass the CAPTCHA yourself",
        "cloudflare" | "cdn" => {
            "open it in a browser (the site's CDN refused the gateway; if it challenges you, clear the challenge yourself)"
        }
        "login" => "sign in with your own account",
        "dynamic_page" => "open it in a browser (the page needs JavaScript) and let it load",
        "robots" => {
            "open it yourself (robots.txt forbids the gateway to fetch it) if you may read it"
        }
        _ => "open it in a browser",
    };
    format!(
        "The gateway could not read {url}: {action}, then hand in the page as pasted text, a saved HTML or PDF file, or a URL it can read (`research gates --resolve {session_id} <gateId> --text …|--file …|--url …`)."
    )
}

/// The session-side view of a gateway result.
pub fn report(result: &SearchResult, session_id: &str) -> GatewayReport {
    let mut kept = Vec::new();
    let mut unstored = 0;
    for s in &result.sources {
        let Some(evidence_id) = s.evidence_id.clone().filter(|e| !e.is_empty()) else {
            unstored += 1;
            continue;
        };
        let snippet = result
            .answer
            .passages
            .iter()
            .find(|p| p.evidence_id.as_deref() == Some(evidence_id.as_str()))
            .map(|p| one_line(&p.text, 200))
            .unwrap_or_else(|| one_line(&s.title, 200));
        kept.push(KeptSource {
            url: s.url.clone(),
            title: if s.title.trim().is_empty() {
                s.url.clone()
            } else {
                s.title.clone()
            },
            tier: s.tier.as_str().to_string(),
            snippet,
            evidence_id,
            publisher: s.publisher.clone(),
        });
    }
    // Which failed attempts are gates: the human-intake provider's rule, so the
    // session's queue and the gateway's request list agree.
    let mut gated: Vec<GatedUrl> = Vec::new();
    for blocked in sgw_provider_human_intake::blocked_urls(&result.attempts, false) {
        if kept.iter().any(|k| k.url == blocked.url) {
            continue;
        }
        let detail = result
            .attempts
            .iter()
            .filter(|a| {
                a.target
                    .as_deref()
                    .and_then(|t| Url::parse(t).ok())
                    .is_some_and(|u| u.as_str() == blocked.url)
            })
            .find_map(|a| a.detail.as_deref());
        let gate = gate_type(blocked.gate, detail);
        gated.push(GatedUrl {
            what_is_needed: what_is_needed(&gate, &blocked.url, session_id),
            url: blocked.url,
            gate_type: gate,
        });
    }
    GatewayReport {
        outcome: SearchOutcome { kept, gated },
        confidence: result.confidence,
        confidence_level: result.confidence_level.as_str().to_string(),
        failure_codes: result
            .failure_codes
            .iter()
            .map(|c| c.as_str().to_string())
            .collect(),
        human_request_id: result.human_request_id.clone(),
        unstored_sources: unstored,
    }
}

fn one_line(text: &str, max_chars: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > max_chars {
        format!("{}…", flat.chars().take(max_chars).collect::<String>())
    } else {
        flat
    }
}

// ---- extract ----

/// Words too common to tie a sentence to a question.
const STOP: &[&str] = &[
    "the", "and", "for", "are", "was", "were", "what", "when", "where", "which", "who", "how",
    "does", "did", "its", "from", "that", "this", "with", "has", "have", "had", "not", "can",
    "will", "into", "than", "then", "there", "their", "they", "them", "about", "been", "being",
    "also", "any", "all", "per", "our", "your",
];

fn terms(text: &str) -> HashSet<String> {
    tokenize(text)
        .into_iter()
        .map(|t| t.0)
        .filter(|t| t.chars().count() >= 3 && !STOP.contains(&t.as_str()))
        .collect()
}

/// Sentence spans of `text[start..end]` as byte offsets into `text`: a sentence
/// ends at `.`, `!` or `?` followed by whitespace and an uppercase letter, digit or
/// quote, or at a line break. Decimal points and abbreviations before lower-case
/// words do not split.
fn sentences(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let slice = &text[start..end];
    let chars: Vec<(usize, char)> = slice.char_indices().collect();
    let mut out = Vec::new();
    let mut from = 0;
    for (i, &(at, c)) in chars.iter().enumerate() {
        let cut = if c == '\n' {
            Some(at)
        } else if matches!(c, '.' | '!' | '?') {
            let next = chars.get(i + 1).map(|x| x.1);
            let after = chars
                .iter()
                .skip(i + 1)
                .find(|x| !x.1.is_whitespace())
                .map(|x| x.1);
            match (next, after) {
                (None, _) => Some(at + c.len_utf8()),
                (Some(n), Some(a))
                    if n.is_whitespace()
                        && (a.is_uppercase() || a.is_ascii_digit() || "\"“'(".contains(a)) =>
                {
                    Some(at + c.len_utf8())
                }
                (Some(n), None) if n.is_whitespace() => Some(at + c.len_utf8()),
                _ => None,
            }
        } else {
            None
        };
        if let Some(cut) = cut {
            push_trimmed(slice, from, cut, start, &mut out);
            from = cut;
        }
    }
    push_trimmed(slice, from, slice.len(), start, &mut out);
    out
}

fn push_trimmed(slice: &str, from: usize, to: usize, base: usize, out: &mut Vec<(usize, usize)>) {
    let piece = &slice[from..to];
    let lead = piece.len() - piece.trim_start().len();
    let trimmed = piece.trim();
    if !trimmed.is_empty() {
        let s = base + from + lead;
        out.push((s, s + trimmed.len()));
    }
}

/// The checkable facts a sentence states: numbers, dates, percentages (their
/// spellings, for corroboration), and whether it reads as a definition.
#[derive(Debug, Default)]
struct Facts {
    values: HashSet<String>,
    definition: bool,
}

impl Facts {
    fn of(sentence: &str) -> Facts {
        let mut values: HashSet<String> = find_dates(sentence).into_iter().map(|d| d.0).collect();
        for (tok, _, _) in tokenize(sentence) {
            if tok.chars().any(|c| c.is_ascii_digit()) {
                values.insert(tok);
            }
        }
        let lower = format!(" {} ", sentence.to_lowercase());
        let definition = [
            " is a ",
            " is an ",
            " is the ",
            " are the ",
            " means ",
            " refers to ",
            " is defined as ",
            " are defined as ",
            " consists of ",
            " stands for ",
        ]
        .iter()
        .any(|cue| lower.contains(cue));
        Facts { values, definition }
    }

    fn checkable(&self) -> bool {
        !self.values.is_empty() || self.definition
    }
}

struct Candidate {
    source: usize,
    start: usize,
    end: usize,
    score: f32,
    facts: Facts,
    terms: HashSet<String>,
}

fn quality_rank(q: SourceQuality) -> u8 {
    match q {
        SourceQuality::Primary => 3,
        SourceQuality::Secondary => 2,
        SourceQuality::Low | SourceQuality::UserSupplied => 1,
    }
}

/// The extractor brief, done mechanically over the stored evidence texts (see the
/// module doc). Every quote is a verbatim span of its source's text.
pub fn extract_claims(request: &ExtractRequest<'_>, texts: &dyn EvidenceTexts) -> Extraction {
    let query_terms = terms(request.sub_question_text);
    let mut notes = Vec::new();
    let mut loaded: Vec<(usize, String)> = Vec::new();
    for (i, s) in request.sources.iter().enumerate() {
        match s.evidence_id.as_deref().and_then(|e| texts.text(e)) {
            Some(t) if !t.trim().is_empty() => loaded.push((i, t)),
            _ => notes.push(format!(
                "{} ({}) skipped: no stored evidence text",
                s.source_id, s.url
            )),
        }
    }
    // Candidates per source, best first.
    let mut per_source: Vec<(usize, Vec<Candidate>)> = Vec::new();
    for (i, text) in &loaded {
        let doc = Document {
            kind: DocumentKind::Text,
            metadata: Metadata::default(),
            text: text.clone(),
            entries: Vec::new(),
            encoding: "utf-8".into(),
        };
        let passages = doc.passages(request.sub_question_text, PASSAGES_PER_SOURCE);
        let top = passages
            .first()
            .map(|p| p.score)
            .unwrap_or(0.0)
            .max(f32::EPSILON);
        let mut cands: Vec<Candidate> = Vec::new();
        for p in passages.iter().filter(|p| p.score > 0.0) {
            for (s, e) in sentences(text, p.start, p.end) {
                let sentence = &text[s..e];
                if !(QUOTE_MIN..=QUOTE_MAX).contains(&sentence.len()) {
                    continue;
                }
                let facts = Facts::of(sentence);
                let sentence_terms = terms(sentence);
                let overlap = sentence_terms.intersection(&query_terms).count();
                if !facts.checkable() || overlap == 0 {
                    continue;
                }
                let coverage = overlap as f32 / query_terms.len().max(1) as f32;
                cands.push(Candidate {
                    source: *i,
                    start: s,
                    end: e,
                    score: 2.0 * coverage + p.score / top,
                    facts,
                    terms: sentence_terms,
                });
            }
        }
        cands.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.start.cmp(&b.start)));
        per_source.push((*i, cands));
    }
    // Best source first: quality, then its best sentence.
    per_source.sort_by(|a, b| {
        let qa = quality_rank(request.sources[a.0].source_quality);
        let qb = quality_rank(request.sources[b.0].source_quality);
        let sa = a.1.first().map(|c| c.score).unwrap_or(0.0);
        let sb = b.1.first().map(|c| c.score).unwrap_or(0.0);
        qb.cmp(&qa).then(sb.total_cmp(&sa)).then(a.0.cmp(&b.0))
    });
    let text_of: HashMap<usize, &str> = loaded.iter().map(|(i, t)| (*i, t.as_str())).collect();
    let mut chosen: Vec<(Candidate, Importance)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (rank, (_, cands)) in per_source.into_iter().enumerate() {
        let mut taken = 0;
        for c in cands {
            if taken == MAX_CLAIMS_PER_SOURCE || chosen.len() == MAX_CLAIMS {
                break;
            }
            let flat = one_line(&text_of[&c.source][c.start..c.end], usize::MAX).to_lowercase();
            if !seen.insert(flat) {
                continue; // the same statement from a weaker source: one claim is enough
            }
            let importance = if rank == 0 && taken < MAX_CENTRAL {
                Importance::Central
            } else if chosen
                .iter()
                .any(|(central, imp)| *imp == Importance::Central && corroborates(&c, central))
            {
                Importance::Supporting
            } else {
                Importance::Incidental
            };
            chosen.push((c, importance));
            taken += 1;
        }
    }
    let claims: Vec<ExtractedClaim> = chosen
        .iter()
        .enumerate()
        .map(|(n, (c, importance))| {
            let src = &request.sources[c.source];
            let quote = &text_of[&c.source][c.start..c.end];
            ExtractedClaim {
                claim_id: format!("c-{}", n + 1),
                text: one_line(quote, usize::MAX),
                quote: quote.to_string(),
                source_id: src.source_id.clone(),
                importance: *importance,
                source_quality: Some(src.source_quality),
            }
        })
        .collect();
    let summary = claims
        .iter()
        .filter(|c| c.importance == Importance::Central)
        .map(|c| c.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let mut all_notes = vec![format!(
        "Extracted by the search gateway from {} of {} source(s): BM25 passages ranked against the sub-question, sentences stating a number, date, percentage or definition; quotes verbatim.",
        loaded.len(),
        request.sources.len()
    )];
    if claims.is_empty() {
        all_notes.push(
            "No sentence of the sources states a checkable fact matching the sub-question (off-topic, too thin, or all gated).".into(),
        );
    }
    all_notes.extend(notes);
    Extraction {
        sub_question_id: request.sub_question_id.to_string(),
        claims,
        unsourced_claims: 0,
        notes: all_notes.join(" "),
        summary: one_line(&summary, 600),
    }
}

/// A claim corroborates a central one when both state a common value (number,
/// date, percentage) or share at least half of the smaller one's words.
fn corroborates(c: &Candidate, central: &Candidate) -> bool {
    if c.source == central.source {
        return false;
    }
    if c.facts
        .values
        .intersection(&central.facts.values)
        .next()
        .is_some()
    {
        return true;
    }
    let shared = c.terms.intersection(&central.terms).count();
    let smaller = c.terms.len().min(central.terms.len()).max(1);
    shared * 2 >= smaller
}

// ---- gates --resolve ----

fn gate_of(gate_type: &str) -> GateType {
    match gate_type {
        "captcha" => GateType::Captcha,
        "cdn" | "cloudflare" => GateType::Cdn,
        "login" => GateType::Login,
        "dynamic_page" => GateType::DynamicPage,
        "robots" => GateType::Robots,
        _ => GateType::Other,
    }
}

/// The person's submission, ingested by the human-intake provider's one
/// ingestion (the same as `sgw evidence submit`): text, a file (HTML, PDF, text,
/// or a screenshot read by `tesseract`), or a URL through the network layer.
/// Passages are ranked against the gate's query; the source is the gated URL
/// (for `--url`, the URL fetched).
async fn submission_of(
    gate: &GateEvidence<'_>,
    policy: &Policy,
) -> Result<Submission, BackendError> {
    let gated_url = Url::parse(gate.url)
        .map_err(|e| BackendError::Operational(format!("gate url `{}`: {e}", gate.url)))?;
    let input = match gate.input {
        EvidenceInput::Text(text) => Input::Text(text.clone()),
        EvidenceInput::File(path) => Input::File(path.clone()),
        EvidenceInput::Url(raw) => {
            Input::Url(ingest::http_url(raw, "--url").map_err(backend_error)?)
        }
    };
    let mut options = ingest::Options::new(gate.query);
    options.passages = 8;
    options.max_bytes = MAX_SUBMISSION_BYTES;
    options.fallback_title = Some(format!("Evidence supplied for {}", gate.url));
    if !matches!(input, Input::Url(_)) {
        options.source_url = Some(gated_url);
    }
    let config = search_gateway::network_config(policy).map_err(open_error)?;
    let fetcher = search_gateway::Fetcher::new(config)
        .map_err(|e| BackendError::Usage(format!("network config: {e}")))?;
    ingest::ingest(&input, &fetcher, &options)
        .await
        .map_err(backend_error)
}

/// An ingestion error at its exit code (1 usage, 2 operational, 3 I/O).
fn backend_error(e: IngestError) -> BackendError {
    match e {
        IngestError::Usage(m) => BackendError::Usage(m),
        e @ IngestError::Operational { .. } => BackendError::Operational(e.to_string()),
        IngestError::Io(m) => BackendError::Io(m),
    }
}

async fn submit(
    options: &GatewayOptions,
    gate: &GateEvidence<'_>,
) -> Result<StoredSubmission, BackendError> {
    let policy = load_policy(options)?;
    let submission = submission_of(gate, &policy).await?;
    let text_chars = submission.evidence.text.chars().count();
    let title = submission.evidence.title.clone();
    // The cache key the gateway gives this query (its topic rules decide the topic).
    let gateway = search_gateway::build(
        policy.clone(),
        OpenOptions {
            store: None,
            no_store: true,
        },
    )
    .await
    .map_err(open_error)?;
    let key = gateway.cache_key(&search_gateway::SearchRequest::new(gate.query.to_string()));
    let store = open_store(options, &policy).await?;
    let io =
        |e: search_gateway::store::StoreError| BackendError::Io(format!("evidence store: {e}"));
    let now = gate.now;
    // Reuse the gateway's open request for this URL (or this query), else open one.
    let open = store
        .list_requests(Some(RequestStatus::Open))
        .await
        .map_err(io)?;
    let existing = open
        .iter()
        .find(|r| r.blocked.iter().any(|b| b.url == gate.url))
        .or_else(|| open.iter().find(|r| r.key == key));
    let request_id = match existing {
        Some(r) => r.id.clone(),
        None => {
            let gate_kind = gate_of(gate.gate_type);
            store
                .create_request(
                    NewHumanRequest {
                        key,
                        query: gate.query.to_string(),
                        attempts: Vec::new(),
                        blocked: vec![BlockedUrl {
                            url: gate.url.to_string(),
                            gate: gate_kind,
                            needed: what_is_needed(gate.gate_type, gate.url, gate.session_id),
                        }],
                    },
                    now,
                )
                .await
                .map_err(io)?
                .id
        }
    };
    let resolved = store
        .resolve_request(&request_id, submission, now)
        .await
        .map_err(io)?;
    store.close().await;
    let evidence_id = resolved.evidence_id.ok_or_else(|| {
        BackendError::Io(format!(
            "request {request_id} resolved without an evidence id"
        ))
    })?;
    tracing::info!(gate = gate.gate_id, %evidence_id, %request_id, "gate evidence stored");
    Ok(StoredSubmission {
        evidence_id,
        request_id,
        title,
        text_chars,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgw_research::Source;

    fn source(id: &str, ev: &str, quality: SourceQuality) -> Source {
        serde_json::from_value(serde_json::json!({
            "sourceId": id,
            "subQuestionId": "sq-1",
            "url": format!("https://{id}.example/page"),
            "title": id,
            "kind": "web",
            "sourceQuality": quality,
            "snippet": "",
            "evidenceId": ev,
            "retrievedAt": "2026-03-02T10:00:00Z",
        }))
        .unwrap()
    }

    #[test]
    fn sentences_keep_decimals_and_offsets() {
        let text = "Intro line\nThe rate is 4.5% since 1 March 2026. It is reviewed e.g. monthly. Next one?";
        let spans = sentences(text, 0, text.len());
        let got: Vec<&str> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(
            got,
            [
                "Intro line",
                "The rate is 4.5% since 1 March 2026.",
                "It is reviewed e.g. monthly.",
                "Next one?"
            ]
        );
    }

    #[test]
    fn claims_are_verbatim_ranked_and_classified() {
        let official = "Policy interest rate\n\nThe policy interest rate is 4.50% from 1 March 2026. \
            The committee meets in the capital.\n\nEarlier decisions are archived.";
        let news = "Markets moved.\n\nThe central bank set the policy interest rate at 4.50% on Friday. \
            Analysts had expected a hold on the interest rate for another quarter of 2026.";
        let off_topic = "Gardening tips: water 2 times a week.";
        let texts = HashMap::from([
            ("ev-a".to_string(), news.to_string()),
            ("ev-b".to_string(), official.to_string()),
            ("ev-c".to_string(), off_topic.to_string()),
        ]);
        let sources = [
            source("s1-1", "ev-a", SourceQuality::Secondary),
            source("s1-2", "ev-b", SourceQuality::Primary),
            source("s1-3", "ev-c", SourceQuality::Low),
            source("s1-4", "ev-missing", SourceQuality::Low),
        ];
        let req = ExtractRequest {
            sub_question_id: "sq-1",
            sub_question_text: "What is the policy interest rate?",
            sources: &sources,
        };
        let ex = extract_claims(&req, &texts);
        assert_eq!(ex.sub_question_id, "sq-1");
        assert_eq!(ex.unsourced_claims, 0);
        assert!(!ex.claims.is_empty());
        for c in &ex.claims {
            let src = sources.iter().find(|s| s.source_id == c.source_id).unwrap();
            let text = &texts[src.evidence_id.as_deref().unwrap()];
            assert!(text.contains(&c.quote), "{c:?}");
        }
        // The primary source wins the central claim, with the number in it.
        let first = &ex.claims[0];
        assert_eq!(first.source_id, "s1-2");
        assert_eq!(first.importance, Importance::Central);
        assert_eq!(first.source_quality, Some(SourceQuality::Primary));
        assert!(first.quote.contains("4.50%"));
        // The newspaper states the same value: supporting.
        let news_claim = ex.claims.iter().find(|c| c.source_id == "s1-1").unwrap();
        assert_eq!(news_claim.importance, Importance::Supporting);
        // No checkable fact or off-topic: not a claim; the missing text is a note.
        assert!(
            ex.claims
                .iter()
                .all(|c| !c.quote.contains("committee meets"))
        );
        assert!(ex.claims.iter().all(|c| c.source_id != "s1-3"));
        assert!(ex.notes.contains("s1-4"), "{}", ex.notes);
        assert!(ex.summary.contains("4.50%"));
    }

    #[test]
    fn nothing_checkable_is_an_empty_honest_return() {
        let texts = HashMap::from([(
            "ev-a".to_string(),
            "The rate question is discussed at length here without any figures.".to_string(),
        )]);
        let sources = [source("s1-1", "ev-a", SourceQuality::Primary)];
        let req = ExtractRequest {
            sub_question_id: "sq-1",
            sub_question_text: "policy rate",
            sources: &sources,
        };
        let ex = extract_claims(&req, &texts);
        assert!(ex.claims.is_empty());
        assert!(ex.notes.contains("No sentence"), "{}", ex.notes);
    }

    /// Random texts (multi-byte letters, digits, sentence ends, line breaks): no panic,
    /// every quote a verbatim span of its source, ids and counts within bounds.
    #[test]
    fn arbitrary_texts_never_panic_and_quotes_stay_verbatim() {
        let alphabet: Vec<char> =
            "aé日 Rate rate policy 4.5%. 2026-03-01! ?\n\t\u{0}ß€Ω is the means"
                .chars()
                .collect();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..300 {
            let len = (next() % 400) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let texts = HashMap::from([("ev-a".to_string(), text.clone())]);
            let sources = [source("s1-1", "ev-a", SourceQuality::Low)];
            let req = ExtractRequest {
                sub_question_id: "sq-1",
                sub_question_text: "what is the policy rate 2026",
                sources: &sources,
            };
            let ex = extract_claims(&req, &texts);
            assert!(ex.claims.len() <= MAX_CLAIMS, "round {round}");
            for c in &ex.claims {
                assert!(text.contains(&c.quote), "round {round}: {c:?}");
                assert!(!c.quote.trim().is_empty());
            }
            let spans = sentences(&text, 0, text.len());
            for (s, e) in spans {
                assert!(s < e && e <= text.len());
            }
        }
    }

    #[test]
    fn gate_types_and_sentences() {
        assert_eq!(gate_type(GateType::Captcha, None), "captcha");
        assert_eq!(
            gate_type(GateType::Cdn, Some("403 from Cloudflare (error 1020)")),
            "cloudflare"
        );
        assert_eq!(gate_type(GateType::Cdn, Some("AkamaiGHost")), "cdn");
        assert_eq!(gate_type(GateType::DynamicPage, None), "dynamic_page");
        let s = what_is_needed("login", "https://x.example/a", "01ARZ3NDEKTSV4RRFFQ69G5FAV");
        assert!(
            s.contains("--resolve 01ARZ3NDEKTSV4RRFFQ69G5FAV <gateId>"),
            "{s}"
        );
        assert!(
            s.contains("https://x.example/a") && s.contains("sign in"),
            "{s}"
        );
    }
}
