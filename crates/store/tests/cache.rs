//! Cache entries: staleness per topic, lookup, refresh, list, purge, stats, the EvidenceSink.

use crate::both_backends;
use crate::common::*;
use sgw_contract::{EvidenceSink, FailureCode, SourceTier};
use sgw_store::{CacheFilter, CacheLookup, StalenessRules};
use std::collections::BTreeMap;

async fn staleness_per_topic(fx: &Fixture) {
    let store = fx.open().await;
    let ms = jiff::SignedDuration::from_millis(1);
    for (topic, d) in [
        ("news", 7),
        ("policy_or_law", 30),
        ("product_or_price", 3),
        ("static_reference", 180),
        ("something_else", 14),
    ] {
        let k = key("rust release", topic);
        let entry = store
            .put_cache_entry(&k, &result_for(&[]), t0())
            .await
            .unwrap();
        assert_eq!(entry.stale_after, t0() + days(d), "{topic}");
        let limit = t0() + days(d);
        match store.lookup(&k, limit - ms).await.unwrap() {
            CacheLookup::Fresh(e) => assert_eq!(e.key, k),
            other => panic!("{topic}: expected fresh just before {d} days, got {other:?}"),
        }
        let stale = store.lookup(&k, limit).await.unwrap();
        assert!(
            matches!(stale, CacheLookup::Stale(_)),
            "{topic} at {d} days"
        );
        assert_eq!(stale.failure_code(), Some(FailureCode::EvidenceCacheStale));
    }
    let miss = store
        .lookup(&key("never asked", "news"), t0())
        .await
        .unwrap();
    assert_eq!(miss, CacheLookup::Miss);
    assert_eq!(miss.failure_code(), Some(FailureCode::EvidenceCacheMiss));

    // Rules come from the policy.
    let rules = StalenessRules::from_days_by_topic(BTreeMap::from([
        ("news".to_string(), 1),
        ("default".to_string(), 2),
    ]));
    let store = store.with_staleness(rules);
    let e = store
        .put_cache_entry(&key("a", "news"), &result_for(&[]), t0())
        .await
        .unwrap();
    assert_eq!(e.stale_after, t0() + days(1));
    let e = store
        .put_cache_entry(&key("a", "static_reference"), &result_for(&[]), t0())
        .await
        .unwrap();
    assert_eq!(e.stale_after, t0() + days(2), "unlisted topic uses default");
}
both_backends!(staleness_per_topic);

async fn lookup_returns_the_stored_result_and_refresh_bumps(fx: &Fixture) {
    let store = fx.open().await;
    let k = key("q", "news");
    let ev = stored(&k, "a");
    store.put_evidence(&ev).await.unwrap();
    let result = result_for(&[&ev.id]);
    store.put_cache_entry(&k, &result, t0()).await.unwrap();

    let CacheLookup::Fresh(e) = store.lookup(&k, t0() + days(1)).await.unwrap() else {
        panic!("fresh expected")
    };
    assert_eq!(e.result, result);
    assert_eq!(e.evidence_ids, vec![ev.id.clone()]);
    assert_eq!((e.created_at, e.refreshed_at), (t0(), t0()));

    let later = t0() + days(8);
    assert!(matches!(
        store.lookup(&k, later).await.unwrap(),
        CacheLookup::Stale(_)
    ));
    let refreshed = store
        .refresh(&k, later)
        .await
        .unwrap()
        .expect("entry exists");
    assert_eq!(refreshed.created_at, t0());
    assert_eq!(refreshed.refreshed_at, later);
    assert_eq!(refreshed.stale_after, later + days(7));
    assert!(matches!(
        store.lookup(&k, later).await.unwrap(),
        CacheLookup::Fresh(_)
    ));
    assert!(
        store
            .refresh(&key("none", "news"), later)
            .await
            .unwrap()
            .is_none()
    );

    // Replacing the entry keeps created_at.
    let e2 = store
        .put_cache_entry(&k, &result_for(&[]), later)
        .await
        .unwrap();
    assert_eq!(e2.created_at, t0());
    let CacheLookup::Fresh(e3) = store.lookup(&k, later).await.unwrap() else {
        panic!()
    };
    assert_eq!(e3.created_at, t0());
    assert!(e3.evidence_ids.is_empty());
}
both_backends!(lookup_returns_the_stored_result_and_refresh_bumps);

async fn list_purge_and_stats(fx: &Fixture) {
    let store = fx.open().await;
    // news: 7 days; product_or_price: 3; static_reference: 180.
    let entries = [
        ("n-old", "news", 0),             // stale at t0+10d, 10 days old
        ("n-new", "news", 9),             // fresh at t0+10d, 1 day old
        ("p-old", "product_or_price", 5), // stale, 5 days old
        ("s-old", "static_reference", 0), // fresh, 10 days old
    ];
    let mut ev_ids = BTreeMap::new();
    for (q, topic, at) in entries {
        let k = key(q, topic);
        let ev = stored(&k, q);
        store.put_evidence(&ev).await.unwrap();
        store
            .put_cache_entry(&k, &result_for(&[&ev.id]), t0() + days(at))
            .await
            .unwrap();
        ev_ids.insert(q, ev.id);
    }
    let now = t0() + days(10);
    let names = |list: Vec<sgw_store::CacheEntrySummary>| {
        let mut v: Vec<String> = list.into_iter().map(|e| e.key.normalized_query).collect();
        v.sort();
        v
    };
    assert_eq!(store.list(None, now).await.unwrap().len(), 4);
    assert_eq!(
        names(store.list(Some(&CacheFilter::stale()), now).await.unwrap()),
        ["n-old", "p-old"]
    );
    assert_eq!(
        names(
            store
                .list(Some(&CacheFilter::topic("news")), now)
                .await
                .unwrap()
        ),
        ["n-new", "n-old"]
    );
    assert_eq!(
        names(
            store
                .list(Some(&CacheFilter::older_than_days(7)), now)
                .await
                .unwrap()
        ),
        ["n-old", "s-old"]
    );
    assert_eq!(
        names(
            store
                .list(Some(&CacheFilter::older_than_days(3).and_stale()), now)
                .await
                .unwrap()
        ),
        ["n-old", "p-old"]
    );
    let listed = store
        .list(Some(&CacheFilter::topic("news")), now)
        .await
        .unwrap();
    let old = listed
        .iter()
        .find(|e| e.key.normalized_query == "n-old")
        .unwrap();
    assert!(old.stale);
    assert_eq!(old.evidence_ids, vec![ev_ids["n-old"].clone()]);

    let stats = store.stats(now).await.unwrap();
    assert_eq!((stats.cache_entries, stats.stale, stats.fresh), (4, 2, 2));
    assert_eq!(stats.by_topic["news"].entries, 2);
    assert_eq!(stats.by_topic["news"].stale, 1);
    assert_eq!(stats.evidence, 4);

    // The s-old evidence is also cited by another entry: it must survive its purge.
    let keep = key("cites s-old", "static_reference");
    store
        .put_cache_entry(&keep, &result_for(&[&ev_ids["s-old"]]), now)
        .await
        .unwrap();

    let r = store
        .purge(&CacheFilter::stale().and_topic("news"), now)
        .await
        .unwrap();
    assert_eq!((r.cache_entries, r.evidence), (1, 1));
    assert!(
        store
            .get_evidence(&ev_ids["n-old"])
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .get_evidence(&ev_ids["p-old"])
            .await
            .unwrap()
            .is_some()
    );

    let r = store
        .purge(&CacheFilter::older_than_days(7), now)
        .await
        .unwrap();
    assert_eq!(
        (r.cache_entries, r.evidence),
        (1, 0),
        "s-old entry goes, its evidence stays"
    );
    assert!(
        store
            .get_evidence(&ev_ids["s-old"])
            .await
            .unwrap()
            .is_some()
    );

    let r = store
        .purge(&CacheFilter::topic("product_or_price"), now)
        .await
        .unwrap();
    assert_eq!((r.cache_entries, r.evidence), (1, 1));
    assert_eq!(
        names(store.list(None, now).await.unwrap()),
        ["cites s-old", "n-new"]
    );

    // A purge matching nothing is fine; there is no way to build an empty filter.
    let r = store
        .purge(&CacheFilter::topic("nothing"), now)
        .await
        .unwrap();
    assert_eq!((r.cache_entries, r.evidence), (0, 0));
}
both_backends!(list_purge_and_stats);

async fn evidence_sink_persists_everything(fx: &Fixture) {
    let store = fx.open().await;
    let k = key("what is the fee", "product_or_price");
    let a = stored(&k, "sink-a").evidence;
    let b = stored(&k, "sink-b").evidence;
    let (ida, idb) = (
        a.evidence_id.clone().unwrap(),
        b.evidence_id.clone().unwrap(),
    );
    let mut result = result_for(&[&ida, &idb]);
    result.sources[1].tier = SourceTier::AuthoritativeMedia;
    let sink: &dyn EvidenceSink = &store;
    sink.persist(&k, &result, &[a.clone(), b.clone()])
        .await
        .unwrap();

    let back_b = store.get_evidence(&idb).await.unwrap().unwrap();
    assert_eq!(
        back_b.tier,
        SourceTier::AuthoritativeMedia,
        "tier from the result's source"
    );
    assert_eq!(
        back_b.evidence,
        sgw_contract::Evidence {
            stored: true,
            ..b.clone()
        }
    );
    assert_eq!(back_b.key, k);
    assert_eq!(back_b.extracted_at, t0(), "extracted_at from the source");
    assert_eq!(back_b.confidence, Some(result.confidence));
    let entry = store
        .lookup(&k, jiff::Timestamp::now())
        .await
        .unwrap()
        .entry()
        .cloned()
        .expect("cache entry written");
    assert_eq!(entry.result, result);
    assert_eq!(entry.evidence_ids, vec![ida, idb]);
}
both_backends!(evidence_sink_persists_everything);

#[tokio::test]
async fn purging_everything_is_said_explicitly() {
    // The public constructors cannot build an empty filter; "everything" is
    // written as older than 0 days.
    let fx = Fixture::sqlite();
    let store = fx.open().await;
    store
        .put_cache_entry(&key("a", "news"), &result_for(&[]), t0())
        .await
        .unwrap();
    let r = store
        .purge(&CacheFilter::older_than_days(0), t0() + days(1))
        .await
        .unwrap();
    assert_eq!(r.cache_entries, 1);
    assert!(store.list(None, t0()).await.unwrap().is_empty());
}

async fn list_pages_walk_the_whole_list_in_order(fx: &Fixture) {
    let store = fx.open().await;
    // Ties on refreshed_at (same instant) and distinct instants, two topics.
    for i in 0..7 {
        let at = t0() + jiff::SignedDuration::from_millis(i % 3);
        let topic = if i % 2 == 0 { "news" } else { "default" };
        store
            .put_cache_entry(&key(&format!("question {i}"), topic), &result_for(&[]), at)
            .await
            .unwrap();
    }
    let all = store.list(None, t0()).await.unwrap();
    assert_eq!(all.len(), 7);
    for limit in [1, 2, 3, 7, 50] {
        let mut walked = Vec::new();
        let mut after = None;
        loop {
            let page = store
                .list_page(None, t0(), after.as_ref(), limit)
                .await
                .unwrap();
            assert!(page.entries.len() <= limit);
            walked.extend(page.entries.into_iter().map(|e| e.key));
            match page.next {
                Some(c) => after = Some(c),
                None => break,
            }
        }
        let expected: Vec<_> = all.iter().map(|e| e.key.clone()).collect();
        assert_eq!(walked, expected, "limit {limit}");
    }
    // Filters apply to pages too.
    let news = CacheFilter::topic("news");
    let page = store.list_page(Some(&news), t0(), None, 2).await.unwrap();
    assert_eq!(page.entries.len(), 2);
    assert!(page.entries.iter().all(|e| e.key.topic_type == "news"));
    let rest = store
        .list_page(Some(&news), t0(), page.next.as_ref(), 10)
        .await
        .unwrap();
    assert_eq!(rest.entries.len(), 2);
    assert!(rest.next.is_none());
}
both_backends!(list_pages_walk_the_whole_list_in_order);

async fn a_question_filter_selects_its_entries_in_every_topic(fx: &Fixture) {
    let store = fx.open().await;
    for (q, topic) in [
        ("what is the fee", "news"),
        ("what is the fee", "product_or_price"),
        ("what is the fee now", "news"),
        ("another question", "news"),
    ] {
        store
            .put_cache_entry(&key(q, topic), &result_for(&[]), t0())
            .await
            .unwrap();
    }
    let wanted = key("What is  the FEE", "news").normalized_query;
    let topics = |entries: Vec<sgw_store::CacheEntrySummary>| {
        let mut t: Vec<String> = entries
            .into_iter()
            .inspect(|e| assert_eq!(e.key.normalized_query, wanted))
            .map(|e| e.key.topic_type)
            .collect();
        t.sort();
        t
    };
    let all = store
        .list(Some(&CacheFilter::question(wanted.clone())), t0())
        .await
        .unwrap();
    assert_eq!(topics(all), ["news", "product_or_price"]);
    let news = store
        .list(
            Some(&CacheFilter::topic("news").and_question(wanted.clone())),
            t0(),
        )
        .await
        .unwrap();
    assert_eq!(topics(news), ["news"]);
}
both_backends!(a_question_filter_selects_its_entries_in_every_topic);
