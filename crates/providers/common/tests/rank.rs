use sgw_provider_common::{Candidate, is_time_sensitive, parse_date, rank};

fn c(url: &str, title: &str, date: Option<&str>) -> Candidate {
    Candidate::new(url)
        .with_title(Some(title.into()))
        .with_date(date.map(Into::into))
}

#[test]
fn relevance_first_irrelevant_dropped() {
    let ranked = rank(
        "rust release date",
        vec![
            c("http://x.test/about", "About us", Some("2026-01-01")),
            c(
                "http://x.test/blog/rust-release",
                "Rust release notes",
                Some("2020-01-01"),
            ),
            c("http://x.test/rust", "Rust", Some("2025-01-01")),
        ],
        false,
    );
    let urls: Vec<_> = ranked.iter().map(|r| r.candidate.url.as_str()).collect();
    assert_eq!(
        urls,
        ["http://x.test/blog/rust-release", "http://x.test/rust"]
    );
    assert!(ranked[0].relevance > ranked[1].relevance);
}

#[test]
fn time_sensitive_prefers_newest_among_similar() {
    let cands = vec![
        c(
            "http://x.test/a",
            "Rust compiler release announced today",
            Some("2024-01-01"),
        ),
        c(
            "http://x.test/b",
            "Rust compiler release",
            Some("2026-03-01T10:00:00Z"),
        ),
    ];
    let slow = rank("rust compiler release announced", cands.clone(), false);
    assert_eq!(slow[0].candidate.url, "http://x.test/a");
    let fast = rank("rust compiler release announced", cands, true);
    assert_eq!(fast[0].candidate.url, "http://x.test/b");
    assert!(is_time_sensitive("news") && is_time_sensitive("product_or_price"));
    assert!(!is_time_sensitive("static_reference"));
}

#[test]
fn text_counts_half_and_dates_parse() {
    let ranked = rank(
        "fee schedule",
        vec![
            Candidate::new("http://x.test/1").with_text(Some("the fee schedule".into())),
            c("http://x.test/2", "Fee schedule", None),
        ],
        false,
    );
    assert_eq!(ranked[0].candidate.url, "http://x.test/2");
    assert!((ranked[1].relevance - 0.5).abs() < 1e-9);
    assert_eq!(parse_date("2024-02-03").unwrap().to_string(), "2024-02-03");
    assert_eq!(
        parse_date("Sat, 03 Feb 2024 10:00:00 +0000").map(|d| d.to_string()),
        Some("2024-02-03".into())
    );
    assert!(parse_date("not a date").is_none());
}
