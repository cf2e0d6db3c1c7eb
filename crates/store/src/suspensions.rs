//! Provider and host suspensions kept beyond the process: the
//! orchestrator's [`SuspensionLedger`], so a CAPTCHA'd engine also rests
//! across separate runs and across processes sharing the store.

use crate::Store;
use crate::db::{Tx, args};
use crate::error::StoreError;
use sgw_contract::{StorageError, SuspensionLedger, SuspensionRecord};

impl Store {
    /// Suspensions still running at `now`.
    pub async fn active_suspensions(
        &self,
        now: jiff::Timestamp,
    ) -> Result<Vec<SuspensionRecord>, StoreError> {
        let rows = self
            .pool
            .fetch_all(
                "reading provider suspensions",
                "SELECT provider, until_ms, reason, consecutive_timeouts FROM provider_suspensions WHERE until_ms > $1 ORDER BY provider",
                args![now.as_millisecond()],
            )
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let reason_text = row.text("reason")?;
            let Ok(reason) = reason_text.parse() else {
                tracing::warn!(reason = %reason_text, "ignoring a suspension with an unknown failure code");
                continue;
            };
            let until = jiff::Timestamp::from_millisecond(row.int("until_ms")?)
                .map_err(|e| StoreError::corrupt("provider_suspensions.until_ms", e))?;
            out.push(SuspensionRecord {
                provider: row.text("provider")?,
                until,
                reason,
                consecutive_timeouts: u32::try_from(row.int("consecutive_timeouts")?)
                    .unwrap_or(u32::MAX),
            });
        }
        Ok(out)
    }

    /// Records (or replaces) a provider's suspension.
    pub async fn record_suspension(&self, record: &SuspensionRecord) -> Result<(), StoreError> {
        let mut tx = self.write().await?;
        upsert_suspension(&mut tx, record).await?;
        tx.commit().await
    }
}

/// Records (or replaces) a suspension inside the write `tx`.
pub(crate) async fn upsert_suspension(
    tx: &mut Tx,
    record: &SuspensionRecord,
) -> Result<(), StoreError> {
    tx.execute(
            "recording a provider suspension",
            "INSERT INTO provider_suspensions (provider, until_ms, reason, consecutive_timeouts) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (provider) DO UPDATE SET until_ms = excluded.until_ms, reason = excluded.reason, \
             consecutive_timeouts = excluded.consecutive_timeouts",
            args![
                record.provider.clone(),
                record.until.as_millisecond(),
                record.reason.as_str().to_string(),
                i64::from(record.consecutive_timeouts)
            ],
        )
        .await?;
    Ok(())
}

#[async_trait::async_trait]
impl SuspensionLedger for Store {
    async fn active_suspensions(
        &self,
        now: jiff::Timestamp,
    ) -> Result<Vec<SuspensionRecord>, StorageError> {
        Store::active_suspensions(self, now)
            .await
            .map_err(StorageError::from)
    }

    async fn record_suspension(&self, record: &SuspensionRecord) -> Result<(), StorageError> {
        Store::record_suspension(self, record)
            .await
            .map_err(StorageError::from)
    }
}
