//! What is particular to the cache tests: an official page answering
//! conditional GETs, and ageing cache entries. The store, fetcher and gateway
//! come from `sgw_testkit::provider`.

use sgw_store::Store;
use sgw_testkit::SimWeb;

/// The official rate page, with an ETag, answering 304 to a matching
/// `If-None-Match`; `body` is the paragraph it serves.
pub fn serve_rates(web: &SimWeb, etag: &'static str, body: &'static str) {
    web.route_fn("official.test", "/rates", move |req| {
        if req.header("if-none-match") == Some(etag) {
            return sgw_testkit::Response::new(304).header("etag", etag).into();
        }
        sgw_testkit::Response::html(sgw_testkit::pages::article(
            "Central bank interest rate",
            "Official Bank",
            "2026-01-15",
            &[body],
        ))
        .header("etag", etag)
        .into()
    });
}

/// Makes the entry for `key` look `days` old (refreshed then).
pub async fn age(store: &Store, key: &sgw_contract::CacheKey, days: i64) {
    let now = jiff::Timestamp::now();
    let entry = store.lookup(key, now).await.unwrap();
    let entry = entry.entry().expect("an entry to age").clone();
    let then = now - jiff::SignedDuration::from_hours(24 * days);
    store
        .put_cache_entry(key, &entry.result, then)
        .await
        .unwrap();
}
