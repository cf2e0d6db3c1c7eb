//! Evidence records (`ev-…`): storing, reading back, validators,
//! screenshots, and what the orchestrator persists after a search
//! ([`Store::persist_result`], the [`EvidenceSink`] implementation).

use crate::Store;
use crate::StoreError;
use crate::cache::upsert_cache;
use crate::db::{Arg, Row, Tx, args};
use crate::model::*;
use crate::store::{KEY_MATCH, decode_key, in_record, key_args, to_json, ts, whole_ms};
use crate::suspensions::upsert_suspension;
use jiff::Timestamp;
use sgw_contract::{
    CacheKey, Evidence, EvidenceSink, HttpValidators, Passage, SearchResult, SourceTier,
    StorageError, SuspensionRecord,
};

/// Largest evidence text accepted (bytes, before compression).
pub const MAX_TEXT_BYTES: usize = 64 << 20;
/// Largest screenshot accepted (bytes).
pub const MAX_SCREENSHOT_BYTES: usize = 32 << 20;
/// zstd level for evidence text: fast, and text compresses well at it.
const ZSTD_LEVEL: i32 = 3;

/// Fields of the evidence table, in the order `decode_evidence` reads them.
pub(crate) const EVIDENCE_COLS: &str = "id, normalized_query, topic_type, jurisdiction_or_scope, effective_date, \
    tier, publisher, url, final_url, title, extracted_at_ms, published_at, answer_fields, confidence, \
    content_hash, extraction_method, text_zstd, text_len, passages, etag, last_modified, extra";

impl Store {
    /// Stores (or replaces, by id) one evidence record.
    pub async fn put_evidence(&self, record: &StoredEvidence) -> Result<(), StoreError> {
        let mut tx = self.write().await?;
        insert_evidence(&mut tx, record).await?;
        tx.commit().await
    }

    /// The evidence record `id`, if stored.
    pub async fn get_evidence(&self, id: &str) -> Result<Option<StoredEvidence>, StoreError> {
        check_id("evidence", "ev-", id)?;
        let row = self
            .pool
            .fetch_optional(
                "reading evidence",
                &format!("SELECT {EVIDENCE_COLS} FROM evidence WHERE id = $1"),
                args![id],
            )
            .await?;
        row.map(|r| decode_evidence(&r)).transpose()
    }

    /// The records for `ids` that are stored, in the order of `ids` (one
    /// read; unknown ids are skipped, malformed ones are an error). Handy
    /// for loading a cache entry's evidence: `get_evidence_batch(&entry.evidence_ids)`.
    pub async fn get_evidence_batch(
        &self,
        ids: &[String],
    ) -> Result<Vec<StoredEvidence>, StoreError> {
        for id in ids {
            check_id("evidence", "ev-", id)?;
        }
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        // One statement for up to this many ids (a snapshot by itself);
        // more go in one read transaction, a statement per chunk.
        const IDS_PER_STATEMENT: usize = 256;
        let select = |n: usize| {
            let marks: Vec<String> = (1..=n).map(|i| format!("${i}")).collect();
            format!(
                "SELECT {EVIDENCE_COLS} FROM evidence WHERE id IN ({})",
                marks.join(", ")
            )
        };
        let to_args = |chunk: &[String]| chunk.iter().map(Arg::from).collect::<Vec<_>>();
        let rows = if ids.len() <= IDS_PER_STATEMENT {
            self.pool
                .fetch_all("reading evidence", &select(ids.len()), to_args(ids))
                .await?
        } else {
            let mut tx = self.pool.read().await?;
            let mut rows = Vec::with_capacity(ids.len());
            for chunk in ids.chunks(IDS_PER_STATEMENT) {
                rows.extend(
                    tx.fetch_all("reading evidence", &select(chunk.len()), to_args(chunk))
                        .await?,
                );
            }
            rows
        };
        let mut found = std::collections::HashMap::with_capacity(rows.len());
        for row in &rows {
            let record = decode_evidence(row)?;
            found.insert(record.id.clone(), record);
        }
        Ok(ids.iter().filter_map(|id| found.get(id).cloned()).collect())
    }

    /// Every evidence record gathered for `key`, newest first.
    pub async fn evidence_for_key(
        &self,
        key: &CacheKey,
    ) -> Result<Vec<StoredEvidence>, StoreError> {
        let mut tx = self.pool.read().await?;
        let rows = tx
            .fetch_all(
                "reading evidence for a key",
                &format!(
                    "SELECT {EVIDENCE_COLS} FROM evidence WHERE {KEY_MATCH} ORDER BY extracted_at_ms DESC, id DESC"
                ),
                key_args(key),
            )
            .await?;
        rows.iter().map(decode_evidence).collect()
    }

    /// Replaces the HTTP validators of evidence `id` (after a revalidation
    /// that returned new ones). Returns false when there is no such evidence.
    pub async fn set_validators(
        &self,
        id: &str,
        validators: &HttpValidators,
    ) -> Result<bool, StoreError> {
        check_id("evidence", "ev-", id)?;
        let mut tx = self.write().await?;
        let n = tx
            .execute(
                "updating validators",
                "UPDATE evidence SET etag = $1, last_modified = $2 WHERE id = $3",
                args![
                    validators.etag.clone(),
                    validators.last_modified.clone(),
                    id
                ],
            )
            .await?;
        tx.commit().await?;
        Ok(n > 0)
    }

    /// Stores an image linked to evidence `evidence_id`; returns its record.
    pub async fn put_screenshot(
        &self,
        evidence_id: &str,
        mime: &str,
        bytes: Vec<u8>,
        now: Timestamp,
    ) -> Result<Screenshot, StoreError> {
        let now = whole_ms(now);
        check_id("evidence", "ev-", evidence_id)?;
        let mut tx = self.write().await?;
        let shot = insert_screenshot(&mut tx, evidence_id, mime, bytes, now).await?;
        tx.commit().await?;
        Ok(shot)
    }

    /// The images linked to evidence `evidence_id`, oldest first.
    pub async fn screenshots(&self, evidence_id: &str) -> Result<Vec<Screenshot>, StoreError> {
        check_id("evidence", "ev-", evidence_id)?;
        let mut tx = self.pool.read().await?;
        let rows = tx
            .fetch_all(
                "reading screenshots",
                "SELECT id, evidence_id, mime, bytes, created_at_ms FROM screenshots WHERE evidence_id = $1 ORDER BY id",
                args![evidence_id],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(Screenshot {
                    id: r.text("id")?,
                    evidence_id: r.text("evidence_id")?,
                    mime: r.text("mime")?,
                    bytes: r.bytes("bytes")?,
                    created_at: ts(r.int("created_at_ms")?, "screenshot created_at")?,
                })
            })
            .collect()
    }

    /// What the orchestrator's [`sgw_contract::EvidenceSink`] does, in one
    /// transaction: stores every piece of `used` evidence (tier and
    /// extraction time from the result's matching source, answer fields
    /// that cite it, the result's confidence) and the cache entry for `key`.
    /// Evidence without a valid `ev-` id gets a new one. Returns the ids.
    pub async fn persist_result(
        &self,
        key: &CacheKey,
        result: &SearchResult,
        used: &[Evidence],
        now: Timestamp,
    ) -> Result<Vec<String>, StoreError> {
        self.persist_result_with_rests(key, result, used, &[], now)
            .await
    }

    /// [`Store::persist_result`], and `rests` recorded in the suspension
    /// ledger ([`Store::record_suspension`]) in the same transaction.
    pub async fn persist_result_with_rests(
        &self,
        key: &CacheKey,
        result: &SearchResult,
        used: &[Evidence],
        rests: &[SuspensionRecord],
        now: Timestamp,
    ) -> Result<Vec<String>, StoreError> {
        let now = whole_ms(now);
        let mut tx = self.write().await?;
        for rest in rests {
            upsert_suspension(&mut tx, rest).await?;
        }
        // Cache entry first, then evidence: the same lock order as `purge`,
        // so concurrent persists and purges on PostgreSQL cannot deadlock.
        upsert_cache(&mut tx, key, result, &self.staleness, now).await?;
        let mut ids = Vec::with_capacity(used.len());
        for ev in used {
            let record = record_for_result(key, result, ev, now);
            if ev.evidence_id.as_deref() != Some(record.id.as_str()) {
                tracing::warn!(url = %ev.url, id = %record.id, "evidence without a valid ev- id: assigned one");
            }
            insert_evidence(&mut tx, &record).await?;
            ids.push(record.id);
        }
        tx.commit().await?;
        Ok(ids)
    }
}

#[async_trait::async_trait]
impl EvidenceSink for Store {
    /// [`Store::persist_result`] at the current time, in one transaction.
    async fn persist(
        &self,
        key: &CacheKey,
        result: &SearchResult,
        used: &[Evidence],
    ) -> Result<(), StorageError> {
        self.persist_result(key, result, used, jiff::Timestamp::now())
            .await
            .map(|_| ())
            .map_err(StorageError::from)
    }

    /// [`Store::persist_result_with_rests`] at the current time: the
    /// evidence, the cache entry and the rests in one transaction.
    async fn persist_with_rests(
        &self,
        key: &CacheKey,
        result: &SearchResult,
        used: &[Evidence],
        rests: &[SuspensionRecord],
    ) -> Result<bool, StorageError> {
        self.persist_result_with_rests(key, result, used, rests, jiff::Timestamp::now())
            .await
            .map(|_| true)
            .map_err(StorageError::from)
    }

    /// [`Store::close_after_writes`].
    async fn close(&self) {
        self.close_after_writes().await;
    }
}

pub(crate) async fn insert_evidence(tx: &mut Tx, r: &StoredEvidence) -> Result<(), StoreError> {
    check_id("evidence", "ev-", &r.id)?;
    let ev = &r.evidence;
    if ev.text.len() > MAX_TEXT_BYTES {
        return Err(StoreError::Invalid {
            field: "evidence text",
            message: format!(
                "{} is {} bytes, more than the {MAX_TEXT_BYTES}-byte limit",
                r.id,
                ev.text.len()
            ),
        });
    }
    let compressed =
        zstd::bulk::compress(ev.text.as_bytes(), ZSTD_LEVEL).map_err(|e| StoreError::Invalid {
            field: "evidence text",
            message: format!("{}: zstd compression failed: {e}", r.id),
        })?;
    // Everything of the evidence that has no column of its own (metadata,
    // tier hint, flags, found fields, and whatever the contract adds later)
    // is kept as the evidence's own JSON with the bulky parts emptied.
    // `stored` describes an evidence in memory, not a fact to keep.
    let extra = Evidence {
        text: String::new(),
        passages: Vec::new(),
        evidence_id: None,
        stored: false,
        ..ev.clone()
    };
    let mut a = vec![Arg::from(&r.id)];
    a.extend(key_args(&r.key));
    a.extend(args![
        r.tier.as_str(),
        ev.publisher.clone(),
        ev.url.to_string(),
        ev.final_url.as_ref().map(|u| u.to_string()),
        &ev.title,
        r.extracted_at.as_millisecond(),
        ev.published_at.clone(),
        to_json(&r.answer_fields, "evidence answer_fields")?,
        r.confidence,
        &ev.content_hash,
        &ev.extraction_method,
        compressed,
        ev.text.len() as i64,
        to_json(&ev.passages, "evidence passages")?,
        ev.validators.etag.clone(),
        ev.validators.last_modified.clone(),
        to_json(&extra, "evidence metadata")?,
    ]);
    let updates = EVIDENCE_COLS
        .split(',')
        .map(str::trim)
        .filter(|c| *c != "id")
        .map(|c| format!("{c} = excluded.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let placeholders = (1..=22)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    tx.execute(
        "storing evidence",
        &format!(
            "INSERT INTO evidence ({EVIDENCE_COLS}) VALUES ({placeholders}) ON CONFLICT (id) DO UPDATE SET {updates}"
        ),
        a,
    )
    .await?;
    Ok(())
}

/// Largest text length believed when decompressing (guards against a corrupt length).
pub(crate) const MAX_STORED_TEXT: i64 = MAX_TEXT_BYTES as i64;

pub(crate) fn decode_evidence(row: &Row) -> Result<StoredEvidence, StoreError> {
    let id = row.text("id")?;
    decode_evidence_of(row, id.clone()).map_err(|e| in_record(e, &format!("evidence {id}")))
}

fn decode_evidence_of(row: &Row, id: String) -> Result<StoredEvidence, StoreError> {
    let what = |field: &str| format!("evidence {id} field `{field}`");
    let key = decode_key(row)?;
    let tier: SourceTier = row
        .text("tier")?
        .parse()
        .map_err(|e| StoreError::corrupt(what("tier"), e))?;
    let url =
        url::Url::parse(&row.text("url")?).map_err(|e| StoreError::corrupt(what("url"), e))?;
    let final_url = row
        .opt_text("final_url")?
        .map(|u| url::Url::parse(&u))
        .transpose()
        .map_err(|e| StoreError::corrupt(what("final_url"), e))?;
    let text_len = row.int("text_len")?;
    if !(0..=MAX_STORED_TEXT).contains(&text_len) {
        return Err(StoreError::corrupt(
            what("text_len"),
            format!("{text_len} is out of range"),
        ));
    }
    let compressed = row.bytes("text_zstd")?;
    let raw = zstd::bulk::decompress(&compressed, text_len as usize)
        .map_err(|e| StoreError::corrupt(what("text_zstd"), e))?;
    if raw.len() as i64 != text_len {
        return Err(StoreError::corrupt(
            what("text_zstd"),
            format!("decompressed to {} bytes, expected {text_len}", raw.len()),
        ));
    }
    let text = String::from_utf8(raw).map_err(|e| StoreError::corrupt(what("text_zstd"), e))?;
    let passages: Vec<Passage> = serde_json::from_str(&row.text("passages")?)
        .map_err(|e| StoreError::corrupt(what("passages"), e))?;
    let mut evidence: Evidence = serde_json::from_str(&row.text("extra")?)
        .map_err(|e| StoreError::corrupt(what("extra"), e))?;
    let answer_fields = serde_json::from_str(&row.text("answer_fields")?)
        .map_err(|e| StoreError::corrupt(what("answer_fields"), e))?;
    // The columns are authoritative for what they hold.
    evidence.url = url;
    evidence.final_url = final_url;
    evidence.title = row.text("title")?;
    evidence.publisher = row.opt_text("publisher")?;
    evidence.published_at = row.opt_text("published_at")?;
    evidence.text = text;
    evidence.passages = passages;
    evidence.content_hash = row.text("content_hash")?;
    evidence.extraction_method = row.text("extraction_method")?;
    evidence.validators = HttpValidators {
        etag: row.opt_text("etag")?,
        last_modified: row.opt_text("last_modified")?,
    };
    evidence.evidence_id = Some(id.clone());
    // Read back from the store: the orchestrator does not persist it again.
    evidence.stored = true;
    Ok(StoredEvidence {
        extracted_at: ts(row.int("extracted_at_ms")?, &what("extracted_at_ms"))?,
        confidence: row.opt_float("confidence")?,
        id,
        key,
        tier,
        answer_fields,
        evidence,
    })
}

pub(crate) async fn insert_screenshot(
    tx: &mut Tx,
    evidence_id: &str,
    mime: &str,
    bytes: Vec<u8>,
    now: Timestamp,
) -> Result<Screenshot, StoreError> {
    let now = whole_ms(now);
    let mime = mime.trim().to_ascii_lowercase();
    if !mime.starts_with("image/") || mime.len() > 100 {
        return Err(StoreError::Invalid {
            field: "screenshot MIME type",
            message: format!(
                "`{}` is not an image/* type",
                mime.chars().take(100).collect::<String>()
            ),
        });
    }
    if bytes.is_empty() || bytes.len() > MAX_SCREENSHOT_BYTES {
        return Err(StoreError::Invalid {
            field: "screenshot",
            message: format!("{} bytes (must be 1..={MAX_SCREENSHOT_BYTES})", bytes.len()),
        });
    }
    let id = new_screenshot_id();
    tx.execute(
        "storing a screenshot",
        "INSERT INTO screenshots (id, evidence_id, mime, bytes, created_at_ms) VALUES ($1, $2, $3, $4, $5)",
        args![&id, evidence_id, mime.as_str(), bytes.clone(), now.as_millisecond()],
    )
    .await?;
    Ok(Screenshot {
        id,
        evidence_id: evidence_id.to_string(),
        mime,
        bytes,
        created_at: now,
    })
}

/// The stored record for one piece of evidence a result used.
fn record_for_result(
    key: &CacheKey,
    result: &SearchResult,
    ev: &Evidence,
    now: Timestamp,
) -> StoredEvidence {
    let now = whole_ms(now);
    let mut record = StoredEvidence::new(
        key.clone(),
        ev.tier_hint.unwrap_or(SourceTier::GeneralWeb),
        ev.clone(),
    );
    record.extracted_at = now;
    if let Some(src) = result
        .sources
        .iter()
        .find(|s| s.evidence_id.as_deref() == Some(record.id.as_str()))
    {
        record.tier = src.tier;
        if let Ok(t) = src.extracted_at.parse::<Timestamp>() {
            record.extracted_at = t;
        }
    }
    let fields: serde_json::Map<String, serde_json::Value> = result
        .answer
        .fields
        .iter()
        .filter(|(_, f)| f.sources.iter().any(|s| s == &record.id))
        .filter_map(|(name, f)| serde_json::to_value(f).ok().map(|v| (name.clone(), v)))
        .collect();
    record.answer_fields = serde_json::Value::Object(fields);
    record.confidence = Some(result.confidence);
    record
}
