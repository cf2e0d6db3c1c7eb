//! Benchmark driver used by `cargo xtask bench-extract`: reads
//! `<dir>/html/*.html.gz`, extracts each page's main text, and writes
//! `{ "<id>": { "text": "...", "authors": [...], "ms": 0.123 } }` as JSON to
//! stdout. Only the extraction call is timed (not reading or gunzipping the
//! file).
//!
//! Usage: `cargo run --release -p sgw-extract --example bench -- <dir>`

use std::io::Read;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: bench <benchmark dir>")?;
    let mut files: Vec<_> = std::fs::read_dir(format!("{dir}/html"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    // Warm-up: compile the lazily built regexes outside the timed loop.
    let _ = sgw_extract::extract(
        b"<p class='content'>warm up, warm up.</p>",
        Some("text/html"),
        None,
    );
    let mut out = serde_json::Map::new();
    for path in files {
        let Some(id) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".html.gz"))
        else {
            continue;
        };
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path)?).read_to_end(&mut bytes)?;
        let t = Instant::now();
        let doc = sgw_extract::extract(&bytes, Some("text/html"), None);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let (text, authors) = doc
            .map(|d| (d.text, d.metadata.authors))
            .unwrap_or_default();
        out.insert(
            id.to_string(),
            serde_json::json!({ "text": text, "authors": authors, "ms": ms }),
        );
    }
    println!("{}", serde_json::to_string(&out)?);
    Ok(())
}
