//! A scripted provider: behaviour comes from its `config:` block.

use serde::Deserialize;
use sgw_contract::{
    Attempt, BuildContext, ChainStep, Evidence, FactoryError, FailureCode, FoundField, Passage,
    Provider, ProviderCall, ProviderConfig, ProviderError, ProviderFactory, ProviderReport,
    SourceTier,
};
use sgw_orchestrator::{Gateway, GatewayBuilder, Policy};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

static CALLS: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);

/// How many times the provider with this `counter` name has run.
pub fn calls(counter: &str) -> usize {
    CALLS
        .lock()
        .unwrap()
        .as_ref()
        .and_then(|m| m.get(counter).copied())
        .unwrap_or(0)
}

fn bump(counter: &str) -> usize {
    let mut guard = CALLS.lock().unwrap();
    let map = guard.get_or_insert_with(HashMap::new);
    let n = map.entry(counter.to_string()).or_insert(0);
    *n += 1;
    *n
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Doc {
    pub url: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub tier: Option<SourceTier>,
    #[serde(default)]
    pub snippet: bool,
    #[serde(default)]
    pub truncated: bool,
    /// name → value
    #[serde(default)]
    pub fields: HashMap<String, String>,
    /// Scored candidates, best first: (name, value, score).
    #[serde(default)]
    pub candidates: Vec<(String, String, f64)>,
    /// `published_at` (YYYY-MM-DD).
    #[serde(default)]
    pub published: Option<String>,
    /// The claimed publisher (a snippet's engine).
    #[serde(default)]
    pub publisher: Option<String>,
    /// For a snippet: the page it is about.
    #[serde(default)]
    pub about: Option<String>,
    /// The evidence was read back from the store (it must not be stored again).
    #[serde(default)]
    pub stored: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    /// Unique per test: counts runs.
    counter: String,
    #[serde(default)]
    delay_ms: u64,
    #[serde(default)]
    docs: Vec<Doc>,
    /// A provider-level failure for the first `fail_times` runs.
    #[serde(default)]
    error: Option<FailureCode>,
    #[serde(default = "always")]
    fail_times: usize,
    #[serde(default)]
    retry_after_secs: Option<u64>,
    /// Per-target failures reported inside a successful report.
    #[serde(default)]
    target_failures: Vec<(String, FailureCode)>,
    /// Result-level codes to report.
    #[serde(default)]
    codes: Vec<FailureCode>,
    #[serde(default)]
    human_request: bool,
    /// The report comes from the evidence cache.
    #[serde(default)]
    from_cache: bool,
}

fn always() -> usize {
    usize::MAX
}

struct Scripted(Script);

#[async_trait::async_trait]
impl Provider for Scripted {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let s = &self.0;
        let n = bump(&s.counter);
        if s.delay_ms > 0 {
            tokio::time::sleep(Duration::from_millis(s.delay_ms)).await;
        }
        if let Some(code) = s.error
            && n <= s.fail_times
        {
            let mut e = ProviderError::new(code, "scripted failure");
            e.retry_after = s.retry_after_secs.map(Duration::from_secs);
            return Err(e);
        }
        let mut report = ProviderReport::default();
        for (target, code) in &s.target_failures {
            report
                .attempts
                .push(Attempt::failed(call.step, call.provider, *code).with_target(target.clone()));
        }
        for d in &s.docs {
            let mut e = Evidence::new(
                url::Url::parse(&d.url).unwrap(),
                &d.title,
                &d.text,
                "scripted",
            );
            e.tier_hint = d.tier;
            e.snippet_only = d.snippet;
            e.truncated = d.truncated;
            e.stored = d.stored;
            e.published_at = d.published.clone();
            e.publisher = d.publisher.clone();
            e.about = d.about.as_deref().map(|u| url::Url::parse(u).unwrap());
            if let Some(p) = Passage::from_span(&d.text, 0, d.text.len().min(40), 1.0) {
                e.passages.push(p);
            }
            for (name, value) in &d.fields {
                let start = d.text.find(value.as_str()).unwrap_or(0);
                e.fields.push(FoundField {
                    name: name.clone(),
                    value: value.clone(),
                    quote: value.clone(),
                    start,
                    end: start + value.len(),
                    score: 1.0,
                });
            }
            for (name, value, score) in &d.candidates {
                let start = d.text.find(value.as_str()).unwrap_or(0);
                e.fields.push(FoundField {
                    name: name.clone(),
                    value: value.clone(),
                    quote: value.clone(),
                    start,
                    end: start + value.len(),
                    score: *score,
                });
            }
            report.evidence.push(e);
        }
        report.codes = s.codes.clone();
        report.from_cache = s.from_cache;
        if s.human_request {
            report.human_request_id = Some("hr-test".into());
            report.codes.push(FailureCode::HumanEvidenceRequired);
        }
        Ok(report)
    }
}

impl ProviderConfig for Script {
    const KIND: &'static str = "scripted";
    const STEP: ChainStep = ChainStep::DirectOfficialAdapter;
    const DESCRIPTION: &'static str = "behaviour from config";

    fn build(self, _ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        Ok(Arc::new(Scripted(self)))
    }
}

pub const SCRIPTED: ProviderFactory = ProviderFactory::of::<Script>("tests");

/// A gateway from policy YAML whose providers are `kind: scripted`.
pub fn gateway(yaml: &str) -> Gateway {
    let (policy, _) = Policy::from_bytes(yaml.as_bytes(), Some("test.yaml"), &["scripted"])
        .unwrap_or_else(|e| panic!("{e}"));
    GatewayBuilder::new(policy)
        .register(SCRIPTED)
        .build()
        .unwrap()
}

/// A counter name unique to the calling test.
pub fn unique(prefix: &str) -> String {
    format!("{prefix}-{}", ulid::Ulid::new())
}
