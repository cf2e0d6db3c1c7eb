//! Benchmark driver used by `cargo xtask bench-dates`: reads
//! `<dir>/ground-truth.json` (for each page's URL) and `<dir>/html/<id>.html.gz`,
//! extracts each page, and writes
//! `{ "<id>": { "published": "...", "modified": "...", "authors": [...], "ms": 0.1 } }`
//! as JSON to stdout. Only the extraction call is timed.
//!
//! Usage: `cargo run --release -p sgw-extract --example bench_dates -- <dir>`

use std::io::Read;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: bench_dates <benchmark dir>")?;
    // The corpus writes a missing reference as Python's bare `NaN`.
    let truth = std::fs::read_to_string(format!("{dir}/ground-truth.json"))?;
    let truth: serde_json::Value = serde_json::from_str(&truth.replace(": NaN", ": null"))?;
    let truth = truth
        .as_object()
        .ok_or("ground-truth.json is not an object")?;
    let _ = sgw_extract::extract(
        b"<p class='date'>1 May 2020, warm up.</p>",
        Some("text/html"),
        None,
    );
    let mut out = serde_json::Map::new();
    for (id, v) in truth {
        let path = format!("{dir}/html/{id}.html.gz");
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path)?).read_to_end(&mut bytes)?;
        let url = v["url"]
            .as_str()
            .and_then(|u| sgw_extract::Url::parse(u).ok());
        let t = Instant::now();
        let doc = sgw_extract::extract(&bytes, Some("text/html"), url.as_ref());
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let m = doc.map(|d| d.metadata).unwrap_or_default();
        out.insert(
            id.clone(),
            serde_json::json!({
                "published": m.published_at,
                "modified": m.modified_at,
                "authors": m.authors,
                "ms": ms,
            }),
        );
    }
    println!("{}", serde_json::to_string(&out)?);
    Ok(())
}
