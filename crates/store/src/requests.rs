//! Human evidence requests (`hr-…`): opening, listing, resolving with
//! what a person submitted, cancelling.

use crate::Store;
use crate::StoreError;
use crate::cache::upsert_cache;
use crate::db::{Arg, Backend, Row, Tx, args};
use crate::evidence::{insert_evidence, insert_screenshot};
use crate::model::*;
use crate::store::{decode_key, in_record, json_col, key_args, to_json, ts, whole_ms};
use jiff::Timestamp;
use sgw_contract::{SearchResult, SourceTier};

const REQUEST_COLS: &str = "id, status, normalized_query, topic_type, jurisdiction_or_scope, \
    effective_date, query, attempts, blocked, created_at_ms, resolved_at_ms, evidence_id";

impl Store {
    /// Opens a human evidence request.
    pub async fn create_request(
        &self,
        new: NewHumanRequest,
        now: Timestamp,
    ) -> Result<HumanRequest, StoreError> {
        let now = whole_ms(now);
        let req = HumanRequest {
            id: new_request_id(),
            status: RequestStatus::Open,
            key: new.key,
            query: new.query,
            attempts: new.attempts,
            blocked: new.blocked,
            created_at: now,
            resolved_at: None,
            evidence_id: None,
        };
        let mut a = vec![Arg::from(&req.id), Arg::from(req.status.as_str())];
        a.extend(key_args(&req.key));
        a.extend(args![
            &req.query,
            to_json(&req.attempts, "request attempts")?,
            to_json(&req.blocked, "request blocked URLs")?,
            now.as_millisecond()
        ]);
        let mut tx = self.write().await?;
        tx.execute(
            "creating a human evidence request",
            &format!(
                "INSERT INTO human_requests ({REQUEST_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, NULL)"
            ),
            a,
        )
        .await?;
        tx.commit().await?;
        tracing::info!(id = %req.id, key = %req.key, "human evidence request opened");
        Ok(req)
    }

    /// The request `id`, if stored.
    pub async fn get_request(&self, id: &str) -> Result<Option<HumanRequest>, StoreError> {
        check_id("human evidence request", "hr-", id)?;
        let mut tx = self.pool.read().await?;
        fetch_request(&mut tx, id, false).await
    }

    /// Requests with `status` (all when `None`), oldest first.
    pub async fn list_requests(
        &self,
        status: Option<RequestStatus>,
    ) -> Result<Vec<HumanRequest>, StoreError> {
        let mut tx = self.pool.read().await?;
        let rows = match status {
            Some(s) => {
                tx.fetch_all(
                    "listing requests",
                    &format!(
                        "SELECT {REQUEST_COLS} FROM human_requests WHERE status = $1 ORDER BY created_at_ms, id"
                    ),
                    args![s.as_str()],
                )
                .await?
            }
            None => {
                tx.fetch_all(
                    "listing requests",
                    &format!("SELECT {REQUEST_COLS} FROM human_requests ORDER BY created_at_ms, id"),
                    vec![],
                )
                .await?
            }
        };
        rows.iter().map(decode_request).collect()
    }

    /// Resolves open request `id` with what a person submitted, in one
    /// transaction: stores the evidence as USER_SUPPLIED_EVIDENCE under the
    /// request's key (plus the screenshot, if any), marks the request
    /// resolved, and writes the cache entry for the key so the next
    /// identical query answers from cache with `result`. The caller builds
    /// the result (the store does not score): usually
    /// `sgw_orchestrator::user_evidence_result(&policy, &submission.evidence, now)`
    /// after giving the evidence its `evidence_id`; the store adds the
    /// evidence id, the request id and the key when the result lacks them.
    pub async fn resolve_request(
        &self,
        id: &str,
        submission: Submission,
        mut result: SearchResult,
        now: Timestamp,
    ) -> Result<HumanRequest, StoreError> {
        let now = whole_ms(now);
        check_id("human evidence request", "hr-", id)?;
        let mut tx = self.write().await?;
        let mut req = fetch_open_request(&mut tx, id).await?;
        let mut record = StoredEvidence::new(
            req.key.clone(),
            SourceTier::UserSuppliedEvidence,
            submission.evidence,
        );
        record.extracted_at = now;
        record.evidence.tier_hint = Some(SourceTier::UserSuppliedEvidence);
        if !result.evidence_ids.contains(&record.id) {
            result.evidence_ids.push(record.id.clone());
        }
        result
            .human_request_id
            .get_or_insert_with(|| id.to_string());
        result.cache_key.get_or_insert_with(|| req.key.clone());
        record.confidence = Some(result.confidence);
        insert_evidence(&mut tx, &record).await?;
        if let Some((mime, bytes)) = submission.screenshot {
            insert_screenshot(&mut tx, &record.id, &mime, bytes, now).await?;
        }
        let n = tx
            .execute(
                "resolving a request",
                "UPDATE human_requests SET status = 'resolved', resolved_at_ms = $1, evidence_id = $2 \
                 WHERE id = $3 AND status = 'open'",
                args![now.as_millisecond(), &record.id, id],
            )
            .await?;
        if n != 1 {
            return Err(StoreError::InvalidState {
                id: id.to_string(),
                status: "no longer open".into(),
                expected: "open",
            });
        }
        upsert_cache(&mut tx, &req.key, &result, &self.staleness, now).await?;
        tx.commit().await?;
        req.status = RequestStatus::Resolved;
        req.resolved_at = Some(now);
        req.evidence_id = Some(record.id);
        tracing::info!(id, evidence = ?req.evidence_id, "human evidence request resolved");
        Ok(req)
    }

    /// Cancels open request `id`.
    pub async fn cancel_request(
        &self,
        id: &str,
        now: Timestamp,
    ) -> Result<HumanRequest, StoreError> {
        let now = whole_ms(now);
        check_id("human evidence request", "hr-", id)?;
        let mut tx = self.write().await?;
        let mut req = fetch_open_request(&mut tx, id).await?;
        tx.execute(
            "cancelling a request",
            "UPDATE human_requests SET status = 'cancelled', resolved_at_ms = $1 WHERE id = $2 AND status = 'open'",
            args![now.as_millisecond(), id],
        )
        .await?;
        tx.commit().await?;
        req.status = RequestStatus::Cancelled;
        req.resolved_at = Some(now);
        Ok(req)
    }
}

/// Request `id`, locked for update, which must exist and be open.
async fn fetch_open_request(tx: &mut Tx, id: &str) -> Result<HumanRequest, StoreError> {
    let req = fetch_request(tx, id, true)
        .await?
        .ok_or_else(|| StoreError::NotFound {
            kind: "human evidence request",
            id: id.to_string(),
        })?;
    if req.status != RequestStatus::Open {
        return Err(StoreError::InvalidState {
            id: id.to_string(),
            status: req.status.to_string(),
            expected: "open",
        });
    }
    Ok(req)
}

async fn fetch_request(
    tx: &mut Tx,
    id: &str,
    for_update: bool,
) -> Result<Option<HumanRequest>, StoreError> {
    // SQLite write transactions already hold the database's write lock.
    let lock = if for_update && tx.backend() == Backend::Postgres {
        " FOR UPDATE"
    } else {
        ""
    };
    let row = tx
        .fetch_optional(
            "reading a request",
            &format!("SELECT {REQUEST_COLS} FROM human_requests WHERE id = $1{lock}"),
            args![id],
        )
        .await?;
    row.map(|r| decode_request(&r)).transpose()
}

fn decode_request(row: &Row) -> Result<HumanRequest, StoreError> {
    let id = row.text("id")?;
    let owner = format!("human evidence request {id}");
    decode_request_of(row, id, &owner).map_err(|e| in_record(e, &owner))
}

fn decode_request_of(row: &Row, id: String, owner: &str) -> Result<HumanRequest, StoreError> {
    Ok(HumanRequest {
        status: row.text("status")?.parse()?,
        key: decode_key(row)?,
        query: row.text("query")?,
        attempts: json_col(row, "attempts", &owner)?,
        blocked: json_col(row, "blocked", &owner)?,
        created_at: ts(row.int("created_at_ms")?, "request created_at")?,
        resolved_at: row
            .opt_int("resolved_at_ms")?
            .map(|ms| ts(ms, "request resolved_at"))
            .transpose()?,
        evidence_id: row.opt_text("evidence_id")?,
        id,
    })
}
