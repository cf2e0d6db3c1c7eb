//! Parsers survive arbitrary input without panicking.

use proptest::prelude::*;
use sgw_provider_search_engine::hits::{Pointers, parse_brave, parse_pointers, parse_searxng};
use sgw_provider_search_engine::plain;

fn pointers() -> Pointers {
    Pointers {
        items: "/r".into(),
        url: "/u".into(),
        title: Some("/t".into()),
        snippet: Some("/s".into()),
        date: Some("/d".into()),
    }
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in ".{0,400}") {
        let _ = parse_searxng(&s);
        let _ = parse_brave(&s);
        let _ = parse_pointers(&s, &pointers());
        let p = plain(&s);
        prop_assert!(!p.chars().any(char::is_control), "{p:?}");
        prop_assert!(!p.starts_with(' ') && !p.ends_with(' ') && !p.contains("  "), "{p:?}");
    }

    #[test]
    fn json_shaped_noise_never_panics(
        url in "(https?://[a-z]{1,8}\\.test/[a-z]{0,5})|.{0,20}",
        title in ".{0,40}",
        date in ".{0,30}",
    ) {
        let body = serde_json::json!({
            "results": [{"url": url, "title": title, "content": title, "publishedDate": date}],
            "unresponsive_engines": [[title, date], 3, null],
            "web": {"results": [{"url": url, "title": title, "description": title, "page_age": date}]},
            "r": [{"u": url, "t": title, "s": title, "d": date}],
        })
        .to_string();
        let a = parse_searxng(&body).unwrap();
        let b = parse_brave(&body).unwrap();
        let c = parse_pointers(&body, &pointers()).unwrap();
        // The three formats agree on whether the URL is usable.
        prop_assert_eq!(a.hits.len(), b.len());
        prop_assert_eq!(b.len(), c.len());
        for h in a.hits.iter().chain(&b).chain(&c) {
            prop_assert!(matches!(h.url.scheme(), "http" | "https"));
        }
    }
}
