//! Provider suspensions kept beyond the process (the orchestrator's ledger).

use crate::both_backends;
use crate::common::*;
use sgw_contract::{EvidenceSink, FailureCode, SuspensionLedger, SuspensionRecord};

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

async fn rests_are_kept_in_the_evidence_commit(fx: &Fixture) {
    let store = fx.open().await;
    let k = key("what is the rate", "news");
    let ev = stored(&k, "with-rest").evidence;
    let result = result_for(&[ev.evidence_id.as_deref().unwrap()]);
    let rest = SuspensionRecord {
        provider: sgw_contract::host_ledger_key("slow.example"),
        until: t0() + days(1),
        reason: FailureCode::SearchProviderTimeout,
        consecutive_timeouts: 1,
    };
    let sink: &dyn EvidenceSink = &store;
    let kept = sink
        .persist_with_rests(
            &k,
            &result,
            std::slice::from_ref(&ev),
            std::slice::from_ref(&rest),
        )
        .await
        .unwrap();
    assert!(kept, "the store keeps the rests itself");
    let other = fx.open().await;
    assert_eq!(other.active_suspensions(t0()).await.unwrap(), vec![rest]);
    assert!(
        other
            .get_evidence(ev.evidence_id.as_deref().unwrap())
            .await
            .unwrap()
            .is_some()
    );
}

both_backends!(rests_are_kept_in_the_evidence_commit);
