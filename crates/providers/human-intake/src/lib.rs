#![doc = include_str!("../README.md")]

pub mod ingest;

use jiff::Timestamp;
use serde::Deserialize;
use sgw_contract::{
    Attempt, AttemptOutcome, BuildContext, ChainStep, FactoryError, FailureCode, Provider,
    ProviderCall, ProviderConfig, ProviderError, ProviderReport, StoreWrite, StoreWriteFailure,
};
use sgw_store::{BlockedUrl, GateType, NewHumanRequest, RequestStatus, Store};
use std::collections::BTreeSet;
use std::sync::Arc;

/// `config:` of a `human-intake` provider.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HumanIntakeConfig {
    /// Open a request only when at least one URL was blocked by a gate a
    /// person can pass (CAPTCHA, CDN, login, dynamic page, robots.txt).
    /// Default `false`: any unanswered query opens a request.
    #[serde(default)]
    pub only_when_blocked: bool,
    /// Also list URLs that failed for other reasons (404, timeouts, server
    /// errors) as gate `other` (default `true`): a person may still find the
    /// content, e.g. at its new address.
    #[serde(default = "yes")]
    pub include_other_failures: bool,
}

fn yes() -> bool {
    true
}

impl Default for HumanIntakeConfig {
    fn default() -> Self {
        HumanIntakeConfig {
            only_when_blocked: false,
            include_other_failures: true,
        }
    }
}

/// How a person hands evidence in, the tail of every "needed" sentence.
pub const SUBMIT_HOW: &str = "submit the page as a PDF, a screenshot, the URL or pasted text with `sgw evidence submit` and this request's id";

/// `needed` (as stored) with the request's id written into its command:
/// "… with `sgw evidence submit hr-…`". The id is only known once the store
/// has created the request, so stored sentences name it generically.
pub fn needed_with_id(needed: &str, id: &str) -> String {
    needed.replace(
        "`sgw evidence submit` and this request's id",
        &format!("`sgw evidence submit {id}`"),
    )
}

/// The plain sentence saying what a person should do about `url` behind
/// `gate`, ending with `how` they hand the evidence in (for `sgw`,
/// [`SUBMIT_HOW`]; `research` names its own command). The one builder of
/// these sentences: human requests and research gates both use it.
pub fn needed_sentence(url: &str, gate: GateType, code: Option<FailureCode>, how: &str) -> String {
    match gate {
        GateType::Captcha => {
            format!("Open {url} in a browser, pass the CAPTCHA, and {how}.")
        }
        GateType::Cdn => {
            format!("Open {url} in a browser (a CDN or firewall refused the gateway), and {how}.")
        }
        GateType::Login => {
            format!("Sign in to {url} with your own account in a browser, and {how}.")
        }
        GateType::DynamicPage => format!(
            "Open {url} in a browser with JavaScript enabled (the page has no readable text without it), and {how}."
        ),
        GateType::Robots => format!(
            "robots.txt asks automated clients not to read {url}: open it in a browser yourself, and {how}."
        ),
        GateType::Other => match code {
            Some(c) => format!(
                "The gateway could not read {url} ({c}): if you can find this content (here or at a new address), {how}."
            ),
            None => format!("Find the content of {url}, and {how}."),
        },
    }
}

/// The blocked URLs behind the failed `attempts`: gates first (in attempt
/// order), then other failures when `include_other`; one entry per URL.
pub fn blocked_urls(attempts: &[Attempt], include_other: bool) -> Vec<BlockedUrl> {
    let mut gates = Vec::new();
    let mut others = Vec::new();
    let mut seen = BTreeSet::new();
    for a in attempts {
        if a.outcome != AttemptOutcome::Failed {
            continue;
        }
        let (Some(code), Some(target)) = (a.failure_code, a.target.as_deref()) else {
            continue;
        };
        let Ok(url) = url::Url::parse(target) else {
            continue; // a query or a cache key, not a URL
        };
        if !matches!(url.scheme(), "http" | "https") {
            continue;
        }
        let gate = GateType::of_code(code);
        // Never ask a person to open a URL the gateway did not reach at a
        // public address: refused by the SSRF guard, unreachable (DNS failure,
        // refused connection), or an internal address or name.
        let skip = matches!(
            code,
            FailureCode::EvidenceCacheMiss
                | FailureCode::EvidenceCacheStale
                | FailureCode::HumanEvidenceRequired
                | FailureCode::SourceAddressForbidden
                | FailureCode::SourceUnreachable
                | FailureCode::SearchProviderMisconfigured
        ) || !sgw_fetch::human_may_open(&url);
        if skip || (gate == GateType::Other && !include_other) {
            continue;
        }
        if !seen.insert(url.to_string()) {
            continue;
        }
        let entry = BlockedUrl {
            url: url.to_string(),
            gate,
            needed: needed_sentence(url.as_str(), gate, Some(code), SUBMIT_HOW),
        };
        if gate == GateType::Other {
            others.push(entry);
        } else {
            gates.push(entry);
        }
    }
    // A URL both gated and failing otherwise (e.g. a retry) is listed once, as gated.
    let gated: BTreeSet<String> = gates.iter().map(|b| b.url.clone()).collect();
    others.retain(|b| !gated.contains(&b.url));
    gates.extend(others);
    gates
}

/// The human-intake provider. Without a store (`--no-store`) it still
/// reports `HUMAN_EVIDENCE_REQUIRED` and what is needed, in notes.
pub struct HumanIntake {
    config: HumanIntakeConfig,
    store: Option<Arc<Store>>,
}

impl HumanIntake {
    pub fn new(config: HumanIntakeConfig, store: Option<Arc<Store>>) -> HumanIntake {
        HumanIntake { config, store }
    }
}

#[async_trait::async_trait]
impl Provider for HumanIntake {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let mut report = ProviderReport::default();
        let blocked = blocked_urls(call.prior_attempts, self.config.include_other_failures);
        let gated = blocked.iter().filter(|b| b.gate != GateType::Other).count();
        if self.config.only_when_blocked && gated == 0 {
            report.attempts.push(
                Attempt::new(call.step, call.provider, AttemptOutcome::Empty)
                    .with_target(call.key.to_string())
                    .with_detail("no source was blocked by a gate (only_when_blocked)"),
            );
            return Ok(report);
        }
        report.codes.push(FailureCode::HumanEvidenceRequired);
        let Some(store) = &self.store else {
            report.notes.push(
                "human evidence is required, but there is no evidence store to record the request (--no-store)"
                    .into(),
            );
            report
                .notes
                .extend(blocked.iter().map(|b| format!("{}: {}", b.gate, b.needed)));
            report.attempts.push(
                Attempt::new(call.step, call.provider, AttemptOutcome::Empty)
                    .with_target(call.key.to_string())
                    .with_detail("no store: request not recorded"),
            );
            return Ok(report);
        };
        // A read-only or broken store: the failure says so, typed, so that
        // callers (`sgw search`) report an I/O error instead of a success
        // with the request silently lost.
        let store_err = |e: sgw_store::StoreError| {
            let failure = StoreWriteFailure::new(StoreWrite::HumanRequest, e.kind(), &e);
            ProviderError {
                store_failure: Some(failure.clone()),
                ..ProviderError::new(FailureCode::HumanEvidenceRequired, failure.to_string())
            }
        };
        let open = store
            .list_requests(Some(RequestStatus::Open))
            .await
            .map_err(store_err)?;
        let (request, reused) = match open.into_iter().find(|r| &r.key == call.key) {
            Some(r) => (r, true),
            None => {
                let new = NewHumanRequest {
                    key: call.key.clone(),
                    query: call.request.query.clone(),
                    attempts: call.prior_attempts.to_vec(),
                    blocked: blocked.clone(),
                };
                (
                    store
                        .create_request(new, Timestamp::now())
                        .await
                        .map_err(store_err)?,
                    false,
                )
            }
        };
        let id = request.id.clone();
        report.notes.push(format!(
            "human evidence requested: {id} ({}); submit with `sgw evidence submit {id} (--file PATH | --url URL | --text TEXT)`",
            if reused {
                "an open request for this query already existed"
            } else {
                "new request"
            }
        ));
        for b in &request.blocked {
            report.notes.push(format!(
                "{id} needs [{}]: {}",
                b.gate,
                needed_with_id(&b.needed, &id)
            ));
        }
        if request.blocked.is_empty() {
            report.notes.push(format!(
                "{id} needs: any source that answers “{}”",
                request.query
            ));
        }
        report.attempts.push(
            Attempt::new(call.step, call.provider, AttemptOutcome::Empty)
                .with_target(id.clone())
                .with_detail(format!(
                    "{} human evidence request, {} blocked URL(s)",
                    if reused { "reused open" } else { "opened" },
                    request.blocked.len()
                )),
        );
        report.human_request_id = Some(id);
        Ok(report)
    }
}

/// Without a `Store` (`--no-store`) the provider still reports what is needed, in notes.
impl ProviderConfig for HumanIntakeConfig {
    const KIND: &'static str = "human-intake";
    const STEP: ChainStep = ChainStep::UserSuppliedEvidenceRequest;
    const DESCRIPTION: &'static str = "opens a human evidence request (blocked URLs, gate types, what is needed) in the evidence store";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        Ok(Arc::new(HumanIntake::new(self, ctx.store().ok())))
    }
}

sgw_contract::register_provider!(HumanIntakeConfig);
