//! Provider suspensions kept beyond the process (the orchestrator's ledger).

use crate::both_backends;
use crate::common::*;
use sgw_contract::{FailureCode, SuspensionLedger, SuspensionRecord};

async fn suspensions_round_trip_and_expire(fx: &Fixture) {
    let store = fx.open().await;
    let record = SuspensionRecord {
        provider: "default/searx".into(),
        until: t0() + days(1),
        reason: FailureCode::SearchProviderCaptcha,
        consecutive_timeouts: 0,
    };
    store.record_suspension(&record).await.unwrap();
    assert_eq!(
        store.active_suspensions(t0()).await.unwrap(),
        vec![record.clone()]
    );
    // a later failure replaces the row
    let later = SuspensionRecord {
        until: t0() + days(2),
        reason: FailureCode::SearchProviderTimeout,
        consecutive_timeouts: 3,
        ..record
    };
    SuspensionLedger::record_suspension(&store, &later)
        .await
        .unwrap();
    let active = SuspensionLedger::active_suspensions(&store, t0())
        .await
        .unwrap();
    assert_eq!(active, vec![later.clone()]);
    // once over, it is no longer active
    assert!(
        store
            .active_suspensions(t0() + days(3))
            .await
            .unwrap()
            .is_empty()
    );
    // another handle (another process) sees it
    let other = fx.open().await;
    assert_eq!(other.active_suspensions(t0()).await.unwrap(), vec![later]);
}

both_backends!(suspensions_round_trip_and_expire);
