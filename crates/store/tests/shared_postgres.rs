//! Two store handles on one PostgreSQL schema see each other's writes.

use crate::common::*;
use sgw_store::{CacheLookup, NewHumanRequest, RequestStatus, Submission};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_handles_share_one_schema() {
    let Some(fx) = Fixture::postgres("two_handles_share_one_schema").await else {
        return;
    };
    let (a, b) = (fx.open().await, fx.open().await);
    let k = key("shared question", "news");
    let rec = stored(&k, "shared");
    a.put_evidence(&rec).await.unwrap();
    assert_eq!(
        b.get_evidence(&rec.id).await.unwrap().unwrap(),
        read_back(&rec)
    );

    b.put_cache_entry(&k, &result_for(&[&rec.id]), t0())
        .await
        .unwrap();
    assert!(matches!(
        a.lookup(&k, t0()).await.unwrap(),
        CacheLookup::Fresh(_)
    ));

    let req = a
        .create_request(
            NewHumanRequest {
                key: key("blocked", "news"),
                query: "blocked".into(),
                attempts: vec![],
                blocked: vec![],
            },
            t0(),
        )
        .await
        .unwrap();
    let ev = sample_evidence("human");
    b.resolve_request(&req.id, Submission::new(ev.clone()), user_result(&ev), t0())
        .await
        .unwrap();
    assert_eq!(
        a.get_request(&req.id).await.unwrap().unwrap().status,
        RequestStatus::Resolved
    );
    // Only one handle can win a race to resolve: the other sees it resolved.
    assert!(
        a.resolve_request(
            &req.id,
            Submission::new(sample_evidence("late")),
            user_result(&sample_evidence("late")),
            t0()
        )
        .await
        .is_err()
    );
}

/// Concurrent resolutions of one request from two handles: exactly one wins.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_resolutions_one_winner() {
    for fx in [
        Some(Fixture::sqlite()),
        Fixture::postgres("concurrent_resolutions_one_winner").await,
    ]
    .into_iter()
    .flatten()
    {
        let (a, b) = (fx.open().await, fx.open().await);
        let req = a
            .create_request(
                NewHumanRequest {
                    key: key("race", "news"),
                    query: "race".into(),
                    attempts: vec![],
                    blocked: vec![],
                },
                t0(),
            )
            .await
            .unwrap();
        let (ra, rb) = tokio::join!(
            a.resolve_request(
                &req.id,
                Submission::new(sample_evidence("ra")),
                user_result(&sample_evidence("ra")),
                t0()
            ),
            b.resolve_request(
                &req.id,
                Submission::new(sample_evidence("rb")),
                user_result(&sample_evidence("rb")),
                t0()
            ),
        );
        assert_eq!(
            usize::from(ra.is_ok()) + usize::from(rb.is_ok()),
            1,
            "{}: {ra:?} / {rb:?}",
            fx.name
        );
        let stats = a.stats(t0()).await.unwrap();
        assert_eq!(stats.evidence, 1, "{}: the loser stored nothing", fx.name);
    }
}
