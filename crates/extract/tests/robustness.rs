use proptest::prelude::*;
use sgw_extract::{decode_html, extract, looks_like_js_shell};

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048), ct in prop_oneof![Just(None), Just(Some("text/html")), Just(Some("application/rss+xml")), Just(Some("application/json"))]) {
        let _ = extract(&bytes, ct, None);
        let _ = decode_html(&bytes, None);
    }

    #[test]
    fn tag_soup_never_panics(parts in proptest::collection::vec(prop_oneof![
        Just("<p>".to_string()), Just("</p>".to_string()), Just("<div class='content'>".to_string()), Just("</div>".to_string()),
        Just("<li>".to_string()), Just("<table><tr><td>".to_string()), Just("<script>".to_string()), Just("</script>".to_string()),
        Just("<!--".to_string()), Just("-->".to_string()), Just("<a href=x>".to_string()), Just("&amp;&#x1F600;&#99999999;&".to_string()),
        Just("<".to_string()), Just(">".to_string()), Just("<br/>".to_string()), "[a-z ,.]{0,40}",
    ], 0..200)) {
        let html = parts.concat();
        let doc = match extract(html.as_bytes(), Some("text/html"), None) {
            Ok(doc) => doc,
            Err(sgw_extract::ExtractError::Empty { .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("unexpected error {e}"))),
        };
        for p in doc.passages("a b", 5) {
            prop_assert_eq!(&doc.text[p.start..p.end], p.text.as_str());
        }
        let _ = looks_like_js_shell(&html);
    }
}

#[test]
fn deeply_nested_elements() {
    let n = 100_000;
    let mut html = String::with_capacity(n * 12);
    for _ in 0..n {
        html.push_str("<div><span>");
    }
    html.push_str("<p>The deep text, which is the content of this page, is here.</p>");
    for _ in 0..n {
        html.push_str("</span></div>");
    }
    let doc = extract(html.as_bytes(), Some("text/html"), None).unwrap();
    assert!(
        doc.text.contains("The deep text"),
        "{}",
        &doc.text[..doc.text.len().min(200)]
    );
}

#[test]
fn ten_mib_page() {
    let para = "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.</p>\n";
    let mut html = String::from("<html><body><article>");
    while html.len() < 10 << 20 {
        html.push_str(para);
    }
    html.push_str("</article></body></html>");
    let doc = extract(html.as_bytes(), None, None).unwrap();
    assert!(doc.text.len() > 5 << 20);
    let ps = doc.passages("tempor", 3);
    assert_eq!(ps.len(), 3);
}

#[test]
fn one_huge_line() {
    // 8 MiB of text without a single newline or tag.
    let line = "word, ".repeat(8 << 20 >> 3);
    let html = format!("<html><body><p>{line}</p></body></html>");
    let doc = extract(html.as_bytes(), None, None).unwrap();
    assert!(doc.text.len() > 5 << 20);
    let ps = doc.passages("word", 2);
    assert!(ps.iter().all(|p| p.text.len() <= 1200));
    let doc = extract(line.as_bytes(), Some("text/plain"), None).unwrap();
    assert!(!doc.passages("word", 1).is_empty());
}

#[test]
fn unclosed_raw_text_and_comments() {
    let doc = extract(
        b"<p>Visible text of the page, long enough.</p><script>never closed <p>hidden",
        Some("text/html"),
        None,
    )
    .unwrap();
    assert!(doc.text.contains("Visible text"));
    assert!(!doc.text.contains("hidden"));
    let doc = extract(
        b"<p>Before the comment, visible text.</p><!-- open comment <p>zzz</p>",
        Some("text/html"),
        None,
    )
    .unwrap();
    assert!(doc.text.contains("Before the comment"));
    assert!(!doc.text.contains("zzz"));
}
