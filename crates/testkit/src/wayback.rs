//! A Wayback-Machine-style availability API
//! (`/wayback/available?url=…[&timestamp=…]`).

use crate::response::{Reply, Request, Response};

/// One archived snapshot.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The original URL it archives.
    pub original: String,
    /// Where the archived copy is served.
    pub archived_url: String,
    /// `YYYYMMDDhhmmss`.
    pub timestamp: String,
}

/// The availability answer for `url`: with a snapshot,
/// `{"url":…,"archived_snapshots":{"closest":{"status":"200","available":true,"url":…,"timestamp":…}}}`,
/// else `{"url":…,"archived_snapshots":{}}`.
pub fn available(url: &str, snapshot: Option<&Snapshot>) -> Response {
    let snaps = match snapshot {
        Some(s) => serde_json::json!({"closest": {
            "status": "200",
            "available": true,
            "url": s.archived_url,
            "timestamp": s.timestamp,
        }}),
        None => serde_json::json!({}),
    };
    Response::json(&serde_json::json!({"url": url, "archived_snapshots": snaps}))
}

/// A dynamic handler for [`SimWeb::route_fn`](crate::SimWeb::route_fn):
/// looks the `url` query parameter up among `snapshots` (exact match, or
/// ignoring the scheme and a trailing `/`), answers [`available`].
pub fn handler(snapshots: Vec<Snapshot>) -> impl Fn(&Request) -> Reply + Send + Sync + 'static {
    fn norm(u: &str) -> String {
        let u = u.trim();
        let u = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"))
            .unwrap_or(u);
        u.trim_end_matches('/').to_ascii_lowercase()
    }
    move |req: &Request| {
        let Some(url) = req.query_param("url") else {
            return Response::json(&serde_json::json!({"archived_snapshots": {}})).into();
        };
        let want = norm(&url);
        let found = snapshots.iter().find(|s| norm(&s.original) == want);
        available(&url, found).into()
    }
}
