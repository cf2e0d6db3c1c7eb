//! What the chain hands the evidence sink: only evidence not already stored,
//! and a storage failure becomes a note on the result, not a failed search.

use crate::support::{SCRIPTED, unique};
use sgw_contract::{
    CacheKey, Evidence, EvidenceSink, SearchRequest, SearchResult, StorageError, StorageErrorKind,
    StoreWrite, StoreWriteFailure,
};
use sgw_orchestrator::{Gateway, GatewayBuilder, Policy};
use std::sync::{Arc, Mutex};

/// Records the URLs of every persisted piece of evidence, or fails with `fail`.
#[derive(Default)]
struct RecordingSink {
    persisted: Mutex<Vec<String>>,
    fail: Option<StorageErrorKind>,
}

#[async_trait::async_trait]
impl EvidenceSink for RecordingSink {
    async fn persist(
        &self,
        _key: &CacheKey,
        _result: &SearchResult,
        used: &[Evidence],
    ) -> Result<(), StorageError> {
        if let Some(kind) = self.fail {
            return Err(StorageError::new(kind, "the test store is locked")
                .with_context("location", "test"));
        }
        self.persisted
            .lock()
            .unwrap()
            .extend(used.iter().map(|e| e.url.to_string()));
        Ok(())
    }
}

fn gateway_with_sink(counter: &str, sink: Arc<RecordingSink>) -> Gateway {
    let yaml = format!(
        "version: 1\nname: t\nsources:\n  stats:\n    publisher: Stats Office\n    tier: OFFICIAL_PRIMARY\n    domains: [stats.example]\n  ministry:\n    publisher: Ministry\n    tier: OFFICIAL_PRIMARY\n    domains: [ministry.example]\n\
         providers:\n  direct_official_adapter:\n    - {{kind: scripted, name: {counter}, config: {{counter: {counter}, docs: [\
         {{url: \"https://stats.example/new\", title: \"Rates\", text: \"The interest rate is 4.5 percent.\"}}, \
         {{url: \"https://ministry.example/kept\", title: \"Rates\", text: \"The interest rate is 4.5 percent, says the ministry.\", stored: true}}]}}}}\n"
    );
    let (policy, _) = Policy::from_bytes(yaml.as_bytes(), Some("test.yaml"), &["scripted"])
        .unwrap_or_else(|e| panic!("{e}"));
    GatewayBuilder::new(policy)
        .register(SCRIPTED)
        .sink(sink)
        .build()
        .unwrap()
}

#[tokio::test(start_paused = true)]
async fn evidence_already_stored_is_not_persisted_again() {
    let sink = Arc::new(RecordingSink::default());
    let r = gateway_with_sink(&unique("p"), sink.clone())
        .search(&SearchRequest::new("interest rate"))
        .await
        .unwrap();
    assert_eq!(r.sources.len(), 2, "both pieces of evidence are used");
    assert_eq!(
        *sink.persisted.lock().unwrap(),
        vec!["https://stats.example/new".to_string()]
    );
}

#[tokio::test(start_paused = true)]
async fn a_storage_failure_is_a_note_and_a_typed_failure_on_the_result() {
    let sink = Arc::new(RecordingSink {
        fail: Some(StorageErrorKind::Busy),
        ..RecordingSink::default()
    });
    let r = gateway_with_sink(&unique("p"), sink)
        .search(&SearchRequest::new("interest rate"))
        .await
        .unwrap();
    assert!(r.has_answer());
    assert!(
        r.notes.iter().any(|n| n
            == "the evidence could not be stored: storage busy: the test store is locked (location: test)"),
        "{:?}",
        r.notes
    );
    assert_eq!(
        r.store_failures,
        [StoreWriteFailure {
            write: StoreWrite::Evidence,
            kind: StorageErrorKind::Busy,
            error: "storage busy: the test store is locked (location: test)".into(),
        }]
    );
}
