//! Human evidence requests: open, list, resolve (evidence + screenshot + cache entry), cancel.

use crate::both_backends;
use crate::common::*;
use sgw_contract::{Attempt, Evidence, FailureCode, SourceTier};
use sgw_store::{
    BlockedUrl, CacheLookup, GateType, NewHumanRequest, RequestStatus, StoreError, Submission,
    new_request_id,
};

fn new_request(q: &str) -> NewHumanRequest {
    NewHumanRequest {
        key: key(q, "policy_or_law"),
        query: q.to_string(),
        attempts: vec![
            Attempt::failed(
                sgw_contract::ChainStep::DirectOfficialAdapter,
                "official-site",
                FailureCode::SearchProviderCaptcha,
            )
            .with_target("https://gov.example/fees")
            .with_status(Some(403)),
        ],
        blocked: vec![BlockedUrl {
            url: "https://gov.example/fees".into(),
            gate: GateType::of_code(FailureCode::SearchProviderCaptcha),
            needed: "Open the fee page in a browser and paste the fee table or a screenshot of it."
                .into(),
        }],
    }
}

async fn request_lifecycle(fx: &Fixture) {
    let store = fx.open().await;
    let created = store
        .create_request(new_request("Fee for X?"), t0())
        .await
        .unwrap();
    assert!(created.id.starts_with("hr-"));
    assert_eq!(created.status, RequestStatus::Open);
    assert_eq!(created.blocked[0].gate, GateType::Captcha);
    assert_eq!(
        store.get_request(&created.id).await.unwrap().unwrap(),
        created
    );
    let other = store
        .create_request(new_request("Other?"), t0() + days(1))
        .await
        .unwrap();
    let open: Vec<_> = store
        .list_requests(Some(RequestStatus::Open))
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(open, [created.id.clone(), other.id.clone()]);

    // The key has no cache entry until a person answers.
    let k = created.key.clone();
    assert_eq!(store.lookup(&k, t0()).await.unwrap(), CacheLookup::Miss);

    let mut ev = Evidence::new(
        "https://gov.example/fees".parse().unwrap(),
        "Fee table (screenshot)",
        "The fee for X is 120 EUR.",
        "screenshot-ocr",
    );
    ev.tier_hint = Some(SourceTier::OfficialPrimary); // never upgraded
    let png = vec![0x89, b'P', b'N', b'G', 1, 2, 3];
    let resolved_at = t0() + days(2);
    let resolved = store
        .resolve_request(
            &created.id,
            Submission::new(ev.clone()).with_screenshot("image/png", png.clone()),
            user_result(&ev),
            resolved_at,
        )
        .await
        .unwrap();
    assert_eq!(resolved.status, RequestStatus::Resolved);
    assert_eq!(resolved.resolved_at, Some(resolved_at));
    let ev_id = resolved.evidence_id.clone().expect("evidence id");
    assert_eq!(
        store.get_request(&created.id).await.unwrap().unwrap(),
        resolved
    );

    let stored = store.get_evidence(&ev_id).await.unwrap().unwrap();
    assert_eq!(stored.tier, SourceTier::UserSuppliedEvidence);
    assert_eq!(stored.evidence.text, ev.text);
    assert_eq!(stored.key, k);
    let shots = store.screenshots(&ev_id).await.unwrap();
    assert_eq!(shots.len(), 1);
    assert_eq!(shots[0].bytes, png);

    // The next identical query answers from cache.
    let CacheLookup::Fresh(entry) = store.lookup(&k, resolved_at).await.unwrap() else {
        panic!("resolution must write a fresh cache entry")
    };
    assert_eq!(entry.evidence_ids, vec![ev_id.clone()]);
    assert_eq!(
        entry.result.sources[0].tier,
        SourceTier::UserSuppliedEvidence
    );
    assert_eq!(
        entry.result.human_request_id.as_deref(),
        Some(created.id.as_str())
    );
    assert_eq!(entry.result.confidence, 0.5);
    assert!(entry.result.answer.passages[0].text.contains("120 EUR"));

    // A resolved request cannot be resolved or cancelled again.
    let again = store
        .resolve_request(
            &created.id,
            Submission::new(ev.clone()),
            user_result(&ev),
            resolved_at,
        )
        .await
        .unwrap_err();
    assert!(matches!(again, StoreError::InvalidState { .. }), "{again}");
    assert!(
        store
            .cancel_request(&created.id, resolved_at)
            .await
            .is_err()
    );
    // ...and the failed attempt left nothing behind.
    assert_eq!(store.stats(resolved_at).await.unwrap().evidence, 1);

    let cancelled = store.cancel_request(&other.id, resolved_at).await.unwrap();
    assert_eq!(cancelled.status, RequestStatus::Cancelled);
    let by_status = |s| {
        let store = store.clone();
        async move {
            store
                .list_requests(Some(s))
                .await
                .unwrap()
                .into_iter()
                .map(|r| r.id)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        by_status(RequestStatus::Resolved).await,
        vec![created.id.clone()]
    );
    assert_eq!(
        by_status(RequestStatus::Cancelled).await,
        vec![other.id.clone()]
    );
    assert!(by_status(RequestStatus::Open).await.is_empty());
    assert_eq!(store.list_requests(None).await.unwrap().len(), 2);
    let stats = store.stats(resolved_at).await.unwrap();
    assert_eq!(
        (
            stats.requests_open,
            stats.requests_resolved,
            stats.requests_cancelled,
            stats.screenshots
        ),
        (0, 1, 1, 1)
    );

    // Unknown and malformed ids.
    let missing = new_request_id();
    assert!(store.get_request(&missing).await.unwrap().is_none());
    let err = store
        .resolve_request(
            &missing,
            Submission::new(ev.clone()),
            user_result(&ev),
            t0(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NotFound { .. }), "{err}");
    assert!(matches!(
        store.get_request("ev-01").await.unwrap_err(),
        StoreError::InvalidId { .. }
    ));

    // A rejected screenshot rolls the whole resolution back.
    let third = store
        .create_request(new_request("Third?"), t0())
        .await
        .unwrap();
    let err = store
        .resolve_request(
            &third.id,
            Submission::new(ev.clone()).with_screenshot("application/pdf", vec![1]),
            user_result(&ev),
            t0(),
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("application/pdf"), "{err}");
    let third_back = store.get_request(&third.id).await.unwrap().unwrap();
    assert_eq!(third_back.status, RequestStatus::Open);
    assert_eq!(
        store.lookup(&third.key, t0()).await.unwrap(),
        CacheLookup::Miss
    );
    assert_eq!(store.stats(t0()).await.unwrap().evidence, 1);
}
both_backends!(request_lifecycle);
