//! The orchestrator's view of the store.

use crate::Store;
use sgw_contract::{CacheKey, Evidence, EvidenceSink, SearchResult};

#[async_trait::async_trait]
impl EvidenceSink for Store {
    /// [`Store::persist_result`] at the current time, in one transaction.
    async fn persist(
        &self,
        key: &CacheKey,
        result: &SearchResult,
        used: &[Evidence],
    ) -> Result<(), String> {
        self.persist_result(key, result, used, jiff::Timestamp::now())
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}
