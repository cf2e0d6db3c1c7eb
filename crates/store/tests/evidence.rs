//! Evidence records: exact round trip, compression, replacement, validators, screenshots.

use crate::both_backends;
use crate::common::*;
use sgw_contract::HttpValidators;
use sgw_store::{StoreError, new_evidence_id};

async fn round_trip(fx: &Fixture) {
    let store = fx.open().await;
    let k = key("What is the fee?", "policy_or_law");
    let rec = stored(&k, "round-trip");
    store.put_evidence(&rec).await.unwrap();

    let back = store.get_evidence(&rec.id).await.unwrap().expect("stored");
    assert_eq!(back, read_back(&rec), "every field comes back exactly");
    assert!(back.evidence.stored, "read back from the store");
    assert_eq!(back.evidence.text, rec.evidence.text);
    assert_eq!(back.evidence.evidence_id.as_deref(), Some(rec.id.as_str()));

    // The text is stored compressed.
    let stats = store.stats(t0()).await.unwrap();
    assert_eq!(stats.evidence, 1);
    assert!(
        stats.evidence_text_bytes > 0
            && stats.evidence_text_bytes < rec.evidence.text.len() as u64 / 4,
        "{} compressed bytes for {} text bytes",
        stats.evidence_text_bytes,
        rec.evidence.text.len()
    );

    // Lookup by key: only this key's evidence, newest first.
    let mut newer = stored(&k, "newer");
    newer.extracted_at = t0() + days(1);
    store.put_evidence(&newer).await.unwrap();
    store
        .put_evidence(&stored(&key("other query", "policy_or_law"), "other"))
        .await
        .unwrap();
    let for_key = store.evidence_for_key(&k).await.unwrap();
    let ids: Vec<_> = for_key.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, [newer.id.as_str(), rec.id.as_str()]);

    // Empty text and a text without passages survive too.
    let mut empty = stored(&k, "empty");
    empty.evidence.text = String::new();
    empty.evidence.passages.clear();
    store.put_evidence(&empty).await.unwrap();
    assert_eq!(
        store.get_evidence(&empty.id).await.unwrap().unwrap(),
        read_back(&empty)
    );

    // Unknown and malformed ids.
    assert!(
        store
            .get_evidence(&new_evidence_id())
            .await
            .unwrap()
            .is_none()
    );
    let err = store.get_evidence("ev-nope").await.unwrap_err();
    assert!(matches!(err, StoreError::InvalidId { .. }), "{err}");
    assert!(err.to_string().contains("ev-nope"));
}
both_backends!(round_trip);

async fn replace_and_validators(fx: &Fixture) {
    let store = fx.open().await;
    let k = key("q", "news");
    let mut rec = stored(&k, "replace");
    store.put_evidence(&rec).await.unwrap();
    rec.evidence.title = "Changed".into();
    rec.confidence = None;
    store.put_evidence(&rec).await.unwrap();
    assert_eq!(
        store.get_evidence(&rec.id).await.unwrap().unwrap(),
        read_back(&rec)
    );
    assert_eq!(
        store.stats(t0()).await.unwrap().evidence,
        1,
        "replaced, not duplicated"
    );

    let v = HttpValidators {
        etag: Some("\"v2\"".into()),
        last_modified: None,
    };
    assert!(store.set_validators(&rec.id, &v).await.unwrap());
    let back = store.get_evidence(&rec.id).await.unwrap().unwrap();
    assert_eq!(back.evidence.validators, v);
    assert!(!store.set_validators(&new_evidence_id(), &v).await.unwrap());
}
both_backends!(replace_and_validators);

/// A batch read keeps the order of the ids asked for, repeats a repeated id,
/// skips unknown ones, and reads more ids than one statement takes.
async fn batch_reads(fx: &Fixture) {
    let store = fx.open().await;
    let k = key("What is the fee?", "policy_or_law");
    let mut records = Vec::new();
    for i in 0..300 {
        let rec = stored(&k, &format!("batch-{i}"));
        store.put_evidence(&rec).await.unwrap();
        records.push(rec);
    }
    assert!(store.get_evidence_batch(&[]).await.unwrap().is_empty());

    let unknown = new_evidence_id();
    let ids = vec![
        records[2].id.clone(),
        unknown.clone(),
        records[0].id.clone(),
        records[2].id.clone(),
    ];
    let back = store.get_evidence_batch(&ids).await.unwrap();
    let got: Vec<_> = back.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        got,
        [&records[2].id, &records[0].id, &records[2].id].map(String::as_str)
    );
    assert_eq!(back[1], read_back(&records[0]), "every field comes back");

    // More ids than one statement takes, newest first, with an unknown one.
    let mut ids: Vec<String> = records.iter().rev().map(|r| r.id.clone()).collect();
    ids.insert(150, unknown);
    let back = store.get_evidence_batch(&ids).await.unwrap();
    let got: Vec<_> = back.iter().map(|r| r.id.clone()).collect();
    let want: Vec<_> = records.iter().rev().map(|r| r.id.clone()).collect();
    assert_eq!(got, want);

    // A malformed id is an error, not a skipped row.
    let err = store
        .get_evidence_batch(&["not-an-id".to_string()])
        .await
        .unwrap_err();
    assert!(err.to_string().contains("not-an-id"), "{err}");
}
both_backends!(batch_reads);

async fn screenshots(fx: &Fixture) {
    let store = fx.open().await;
    let rec = stored(&key("q", "news"), "shot");
    store.put_evidence(&rec).await.unwrap();
    let png: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    let shot = store
        .put_screenshot(&rec.id, "image/PNG", png.clone(), t0())
        .await
        .unwrap();
    assert!(shot.id.starts_with("ss-"));
    let all = store.screenshots(&rec.id).await.unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].bytes, png);
    assert_eq!(all[0].mime, "image/png");
    assert_eq!(all[0].created_at, t0());

    let err = store
        .put_screenshot(&rec.id, "text/html", vec![1], t0())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("text/html"), "{err}");
    assert!(
        store
            .put_screenshot(&rec.id, "image/png", vec![], t0())
            .await
            .is_err()
    );
    // A screenshot must belong to stored evidence.
    assert!(
        store
            .put_screenshot(&new_evidence_id(), "image/png", vec![1], t0())
            .await
            .is_err()
    );
}
both_backends!(screenshots);

/// Damaged rows give errors that name the record, never a panic.
#[tokio::test]
async fn corrupt_rows_are_reported_not_panicked() {
    let fx = Fixture::sqlite();
    let store = fx.open().await;
    let good = stored(&key("q", "news"), "a");
    store.put_evidence(&good).await.unwrap();
    let raw = sqlx::SqlitePool::connect(&format!("sqlite://{}", fx.url))
        .await
        .unwrap();
    for (col, value) in [
        (
            "text_zstd",
            sqlx::query("UPDATE evidence SET text_zstd = x'00ff00ff'"),
        ),
        (
            "text_len",
            sqlx::query("UPDATE evidence SET text_len = 99999999999"),
        ),
        (
            "passages",
            sqlx::query("UPDATE evidence SET passages = '{not json'"),
        ),
        ("tier", sqlx::query("UPDATE evidence SET tier = 'BOGUS'")),
    ] {
        store.put_evidence(&good).await.unwrap();
        value.execute(&raw).await.unwrap();
        let err = store.get_evidence(&good.id).await.unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, StoreError::Corrupt { .. }), "{col}: {msg}");
        assert!(msg.contains(&good.id) && msg.contains(col), "{col}: {msg}");
    }
    raw.close().await;
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]

    /// Arbitrary bytes in the stored columns give an error or a record, never
    /// a panic or an unbounded allocation.
    #[test]
    fn arbitrary_column_bytes_never_panic(
        blob in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512),
        len in proptest::prelude::prop_oneof![0i64..2048, proptest::prelude::any::<i64>()],
        passages in ".{0,40}",
        extra in ".{0,40}",
    ) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let fx = Fixture::sqlite();
            let store = fx.open().await;
            let rec = stored(&key("q", "news"), "p");
            store.put_evidence(&rec).await.unwrap();
            let raw = sqlx::SqlitePool::connect(&format!("sqlite://{}", fx.url)).await.unwrap();
            sqlx::query("UPDATE evidence SET text_zstd = $1, text_len = $2, passages = $3, extra = $4")
                .bind(blob)
                .bind(len)
                .bind(passages)
                .bind(extra)
                .execute(&raw)
                .await
                .unwrap();
            raw.close().await;
            if let Err(e) = store.get_evidence(&rec.id).await {
                assert!(e.to_string().contains(&rec.id), "{e}");
            }
        });
    }
}
