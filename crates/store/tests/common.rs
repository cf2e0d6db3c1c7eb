//! Fixtures: a store location per test on each backend, and sample records.

use jiff::Timestamp;
use sgw_contract::{
    CacheKey, Evidence, EvidenceMetadata, EvidenceSource, HttpValidators, Passage, SearchRequest,
    SearchResult, SourceTier,
};
use sgw_store::{Store, StoredEvidence};

pub const PG_ENV: &str = "SGW_TEST_POSTGRES_URL";

/// Where one test's store lives; cleans up on drop (temp dir / PG schema).
pub struct Fixture {
    pub url: String,
    pub name: &'static str,
    _dir: Option<tempfile::TempDir>,
    pg: Option<PgSchema>,
}

impl Fixture {
    pub fn sqlite() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("store.sqlite");
        Fixture {
            url: path.to_string_lossy().into_owned(),
            name: "sqlite",
            _dir: Some(dir),
            pg: None,
        }
    }

    /// `None` (after printing why) when no PostgreSQL database is configured.
    pub async fn postgres(test: &str) -> Option<Fixture> {
        let Ok(base) = std::env::var(PG_ENV) else {
            println!("skipped: {PG_ENV} not set ({test} on PostgreSQL)");
            return None;
        };
        let schema = format!("t_{}", ulid::Ulid::new().to_string().to_lowercase());
        let admin = sqlx::PgPool::connect(&base)
            .await
            .unwrap_or_else(|e| panic!("{PG_ENV}={base}: cannot connect: {e}"));
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&admin)
            .await
            .unwrap();
        admin.close().await;
        let sep = if base.contains('?') { '&' } else { '?' };
        Some(Fixture {
            url: format!("{base}{sep}options[search_path]={schema}"),
            name: "postgres",
            _dir: None,
            pg: Some(PgSchema { base, schema }),
        })
    }

    pub async fn open(&self) -> Store {
        Store::open(&self.url)
            .await
            .unwrap_or_else(|e| panic!("open {}: {e}", self.url))
    }

    /// The PostgreSQL schema this fixture's store lives in.
    pub fn schema(&self) -> &str {
        self.pg.as_ref().map_or("", |pg| pg.schema.as_str())
    }

    pub fn is_sqlite(&self) -> bool {
        self.pg.is_none()
    }
}

/// A PostgreSQL schema dropped when the test ends (even by panic).
struct PgSchema {
    base: String,
    schema: String,
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        let base = self.base.clone();
        let schema = self.schema.clone();
        // Drop may run inside the test's runtime: use a thread with its own.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                if let Ok(pool) = sqlx::PgPool::connect(&base).await {
                    let _ = sqlx::query(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
                        .execute(&pool)
                        .await;
                    pool.close().await;
                }
            })
        })
        .join();
    }
}

/// Generates `mod $name { sqlite, postgres }` tests running `$body(&Fixture)`.
#[macro_export]
macro_rules! both_backends {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let fx = $crate::common::Fixture::sqlite();
                super::$name(&fx).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(fx) = $crate::common::Fixture::postgres(stringify!($name)).await {
                    super::$name(&fx).await;
                }
            }
        }
    };
}

/// A fixed instant (whole milliseconds, as the store keeps them).
pub fn t0() -> Timestamp {
    "2026-03-01T12:00:00Z".parse().unwrap()
}

pub fn days(n: i64) -> jiff::SignedDuration {
    jiff::SignedDuration::from_hours(24 * n)
}

pub fn key(query: &str, topic: &str) -> CacheKey {
    let mut r = SearchRequest::new(query);
    r.scope = Some("eu".into());
    CacheKey::new(&r, topic)
}

/// Evidence with every optional part filled and a text long and varied
/// enough that compression matters.
pub fn sample_evidence(seed: &str) -> Evidence {
    let mut text = String::new();
    for i in 0..2000 {
        text.push_str(&format!(
            "Paragraph {i} of {seed}: the fee is €{}.{:02} — «déjà vu» 日本語 🚀\n",
            i * 7,
            i % 100
        ));
    }
    let url = format!("https://example.org/{seed}").parse().unwrap();
    let mut ev = Evidence::new(url, format!("Title {seed}"), text.clone(), "html");
    ev.final_url = Some(
        format!("https://www.example.org/{seed}?r=1")
            .parse()
            .unwrap(),
    );
    ev.publisher = Some("Example Org".into());
    ev.published_at = Some("2026-02-01".into());
    let start = text.find("Paragraph 5 ").unwrap();
    let end = start + text[start..].find('\n').unwrap();
    ev.passages = vec![Passage::from_span(&text, start, end, 0.75).unwrap()];
    ev.metadata = EvidenceMetadata {
        authors: vec!["A. Author".into()],
        language: Some("en".into()),
        ..EvidenceMetadata::default()
    };
    ev.tier_hint = Some(SourceTier::OfficialSecondary);
    ev.validators = HttpValidators {
        etag: Some(format!("\"{seed}-etag\"")),
        last_modified: Some("Sun, 01 Feb 2026 10:00:00 GMT".into()),
    };
    ev.truncated = true;
    ev
}

pub fn stored(k: &CacheKey, seed: &str) -> StoredEvidence {
    let mut r = StoredEvidence::new(
        k.clone(),
        SourceTier::OfficialPrimary,
        sample_evidence(seed),
    );
    r.extracted_at = t0();
    r.answer_fields = serde_json::json!({"fee": {"value": "7.01 EUR"}});
    r.confidence = Some(0.93);
    r
}

/// `rec` as the store reads it back: the same in every field, its evidence
/// marked [`Evidence::stored`](sgw_contract::Evidence::stored).
pub fn read_back(rec: &StoredEvidence) -> StoredEvidence {
    let mut r = rec.clone();
    r.evidence.stored = true;
    r
}

/// The result of one piece of user evidence, as
/// `sgw_orchestrator::user_evidence_result` builds it with the default policy
/// (USER_SUPPLIED_EVIDENCE, 0.5): its opening text as the answer. The store
/// adds the evidence id it assigns.
pub fn user_result(ev: &Evidence) -> SearchResult {
    let tier = SourceTier::UserSuppliedEvidence;
    let passage = sgw_contract::AnswerPassage {
        text: ev.text.clone(),
        evidence_id: None,
        url: ev.url.to_string(),
        tier,
        start: 0,
        end: ev.text.len(),
        score: 1.0,
    };
    let source = EvidenceSource::new(
        ev.url.to_string(),
        ev.title.clone(),
        tier,
        "2026-03-01T12:00:00Z",
    );
    sgw_contract::build_result(
        sgw_contract::Answer {
            passages: vec![passage],
            fields: Default::default(),
        },
        vec![source],
        Vec::new(),
        true,
        Vec::new(),
    )
}

/// A result citing `ids` (as the orchestrator would build it).
pub fn result_for(ids: &[&str]) -> SearchResult {
    let sources = ids
        .iter()
        .map(|id| {
            let mut s = EvidenceSource::new(
                format!("https://example.org/{id}"),
                "t",
                SourceTier::OfficialPrimary,
                "2026-03-01T12:00:00Z",
            );
            s.evidence_id = Some(id.to_string());
            s
        })
        .collect();
    let mut r = sgw_contract::build_result(Default::default(), sources, vec![], false, vec![]);
    r.verified_at = t0();
    r
}
