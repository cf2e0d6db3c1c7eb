//! The search gateway as a [`Backend`] (feature `gateway`): what `research
//! search`, `research extract` and `research gates --resolve` run.
//!
//! * search: the policy's fallback chain for the sub-question's text; kept sources
//!   carry the evidence id the gateway stored, gated attempts (CAPTCHA, CDN, login,
//!   JavaScript-only page, robots.txt) become gate records with a plain sentence of
//!   what a person must do.
//! * extract: the extractor brief done mechanically ([`claims`]): the checkable
//!   statements of each source's stored evidence text (`sgw-extract`) become claims
//!   whose quote is that sentence verbatim. No vertical knowledge: the rules are
//!   about sentence shape only.
//! * gates --resolve: the person's text, file (text, HTML, PDF, or a screenshot read
//!   by `tesseract`) or URL (fetched through the network layer, every guard on) is
//!   ingested by `sgw_provider_human_intake::ingest` (the same ingestion as `sgw
//!   evidence submit`) and handed to the gateway store's human intake
//!   (`create_request`/`resolve_request`), stored as USER_SUPPLIED_EVIDENCE.
//!
//! It is NOT the session store: every session write goes through the seams in
//! [`crate::gateway`]. It draws nothing on the terminal: a CLI wraps it for that.

pub mod claims;

use crate::backend::{
    Backend, BackendError, EvidenceInput, ExtractRequest, GateEvidence, GatewayOptions,
    GatewayReport, StoredSubmission,
};
use crate::gateway::{
    EvidenceTexts, Extraction, GatedUrl, KeptSource, SearchOutcome, SearchRequest,
};
use claims::one_line;
use search_gateway::evidence::SubmitError;
use search_gateway::{Gateway, OpenOptions, Policy};
use sgw_contract::SearchResult;
use sgw_extract::Url;
use sgw_provider_human_intake::ingest::{self, IngestError, Input};
use sgw_store::{BlockedUrl, GateType, NewHumanRequest, RequestStatus, Store, Submission};
use std::collections::HashMap;

/// The largest evidence `gates --resolve` accepts (file, text or fetched page).
pub const MAX_SUBMISSION_BYTES: u64 = ingest::MAX_BYTES;

/// The gateway, opened per call from the call's [`GatewayOptions`]
/// (`--policy` / `--store`). Blocking: it runs the async gateway on its own runtime.
pub struct GatewayBackend {
    runtime: tokio::runtime::Runtime,
}

impl std::fmt::Debug for GatewayBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GatewayBackend")
    }
}

impl GatewayBackend {
    /// A backend with its own multi-threaded async runtime.
    pub fn new() -> std::io::Result<GatewayBackend> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        Ok(GatewayBackend { runtime })
    }
}

/// A gateway that could not be opened: the store's failure keeps its kind; any
/// other cause is the policy, the caller's input.
fn open_error(e: search_gateway::OpenError) -> BackendError {
    match e {
        search_gateway::OpenError::Store(e) => store_error(e),
        e => BackendError::Usage(e.to_string()),
    }
}

/// An evidence-store failure with the store's own kind.
fn store_error(e: sgw_store::StoreError) -> BackendError {
    BackendError::Store {
        kind: e.kind(),
        message: format!("evidence store: {e}"),
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
        .map_err(open_error)?
        .ok_or_else(|| BackendError::Usage("no evidence store configured".into()))
}

impl Backend for GatewayBackend {
    fn search(
        &self,
        options: &GatewayOptions,
        request: &SearchRequest,
    ) -> Result<GatewayReport, BackendError> {
        let result = self.runtime.block_on(async {
            let gateway = open_gateway(options).await?;
            let query = search_gateway::SearchRequest::new(request.sub_question_text.clone());
            let result = gateway.search(&query).await;
            // Opened per call: closed before the next (the store checkpoints its log).
            gateway.close().await;
            result.map_err(|e| BackendError::Usage(format!("{}: {e}", request.sub_question_id)))
        });
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
                if out.contains_key(id) || !sgw_store::is_evidence_id(id) {
                    continue;
                }
                let found = store.get_evidence(id).await.map_err(store_error)?;
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
        Ok(claims::extract_claims(request, texts))
    }

    fn submit_evidence(
        &self,
        options: &GatewayOptions,
        gate: &GateEvidence<'_>,
    ) -> Result<StoredSubmission, BackendError> {
        self.runtime.block_on(submit(options, gate))
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

/// A plain sentence: what a person has to do for a gated URL — the
/// human-intake provider's sentence for the gate, ending with this session's
/// `research gates --resolve` command.
pub fn what_is_needed(gate: GateType, url: &str, session_id: &str) -> String {
    let how = format!(
        "hand in the page as pasted text, a saved HTML or PDF file, or a URL the gateway can read (`research gates --resolve {session_id} <gateId> --text …|--file …|--url …`)"
    );
    sgw_provider_human_intake::needed_sentence(url, gate, None, &how)
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
            what_is_needed: what_is_needed(blocked.gate, &blocked.url, session_id),
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

// ---- gates --resolve ----

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
    search_gateway::evidence::ingest_evidence(policy, &input, &options)
        .await
        .map_err(|e| match e {
            SubmitError::Network(e) => open_error(e),
            SubmitError::Ingest(e) => backend_error(e),
        })
}

/// An ingestion error at its exit code (1 usage, 2 operational, 3 I/O).
fn backend_error(e: IngestError) -> BackendError {
    match e {
        IngestError::BadInput(m) => BackendError::Usage(m),
        e @ IngestError::NotDone { .. } => BackendError::Operational(e.to_string()),
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
    // The cache key the gateway gives this query (its planner's topic rules decide the topic).
    let query = sgw_contract::SearchRequest::new(gate.query.to_string());
    let key = search_gateway::cache_key(&policy, &query);
    let store = open_store(options, &policy).await?;
    let now = gate.now;
    // Reuse the gateway's open request for this URL (or this query), else open one.
    let open = store
        .list_requests(Some(RequestStatus::Open))
        .await
        .map_err(store_error)?;
    let existing = open
        .iter()
        .find(|r| r.blocked.iter().any(|b| b.url == gate.url))
        .or_else(|| open.iter().find(|r| r.key == key));
    let request_id = match existing {
        Some(r) => r.id.clone(),
        None => {
            // `cloudflare` reads as a CDN block; a spelling from a hand-edited
            // session that is no gate at all is "other".
            let gate_kind = gate.gate_type.parse().unwrap_or(GateType::Other);
            store
                .create_request(
                    NewHumanRequest {
                        key,
                        query: gate.query.to_string(),
                        attempts: Vec::new(),
                        blocked: vec![BlockedUrl {
                            url: gate.url.to_string(),
                            gate: gate_kind,
                            needed: what_is_needed(gate_kind, gate.url, gate.session_id),
                        }],
                    },
                    now,
                )
                .await
                .map_err(store_error)?
                .id
        }
    };
    let resolved = search_gateway::evidence::resolve_with_evidence(
        &policy,
        &store,
        &request_id,
        submission,
        now,
    )
    .await
    .map_err(store_error)?;
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

    #[test]
    fn gate_types_and_sentences() {
        assert_eq!(gate_type(GateType::Captcha, None), "captcha");
        assert_eq!(
            gate_type(GateType::Cdn, Some("403 from Cloudflare (error 1020)")),
            "cloudflare"
        );
        assert_eq!(gate_type(GateType::Cdn, Some("AkamaiGHost")), "cdn");
        assert_eq!(gate_type(GateType::DynamicPage, None), "dynamic_page");
        let s = what_is_needed(
            GateType::Login,
            "https://x.example/a",
            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        );
        assert!(
            s.contains("--resolve 01ARZ3NDEKTSV4RRFFQ69G5FAV <gateId>"),
            "{s}"
        );
        assert!(s.starts_with("Sign in to https://x.example/a"), "{s}");
    }
}
