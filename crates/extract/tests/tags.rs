use proptest::prelude::*;
use sgw_extract::html::{decode_attr_entities, decode_entities, start_tags, text_until_close};

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn start_tags_never_panic_and_offsets_hold(
        s in "(<|>|/|=|\"|'| |&|;|#|x|a|A|-|!|\\?|\\[|\\]|CDATA|script|title|é|\u{0}|&amp;|&#|<!--|-->|<a href=|</a>){0,120}",
        from in 0usize..400,
        limit in 0usize..400,
    ) {
        let mut prev_end = 0;
        for t in start_tags(&s) {
            prop_assert!(t.start >= prev_end && t.start < t.end && t.end <= s.len());
            prop_assert!(s.is_char_boundary(t.start) && s.is_char_boundary(t.end));
            prop_assert_eq!(&s[t.start..t.start + 1], "<");
            prop_assert!(!t.name.is_empty() && t.name.bytes().all(|c| !c.is_ascii_uppercase()));
            prop_assert!(t.attrs.len() <= sgw_extract::html::tags::MAX_ATTRS);
            prev_end = t.end;
            let text = text_until_close(&s, t.end, usize::MAX, &t.qname, 50);
            prop_assert!(text.chars().count() <= 50);
        }
        let _ = text_until_close(&s, from, limit, "a", 50);
        let _ = decode_entities(&s);
        let _ = decode_attr_entities(&s);
    }

    #[test]
    fn decoding_without_ampersand_is_identity(s in "[^&]{0,80}") {
        prop_assert_eq!(decode_entities(&s), s.as_str());
        prop_assert_eq!(decode_attr_entities(&s), s.as_str());
    }
}

#[test]
fn attributes_and_entities_match_the_extractor() {
    let html = "<META property=og:title content='A &amp; B&#8212;C'>\
                <a href='/s?q=x&num=10&amp;p=2'>r</a><textarea><a href=/no></textarea>";
    let tags: Vec<_> = start_tags(html).collect();
    let names: Vec<_> = tags.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["meta", "a", "textarea"]);
    assert_eq!(tags[0].attr("content"), Some("A & B—C"));
    assert_eq!(tags[1].attr("href"), Some("/s?q=x&num=10&p=2"));
    let doc = sgw_extract::html::extract_html(html, None);
    assert_eq!(doc.metadata.title.as_deref(), Some("A & B—C"));
}

#[test]
fn many_unclosed_tags_stay_linear() {
    // A quadratic scan would take minutes here, not milliseconds.
    let s = "<a href='x ".repeat(50_000) + &"<b c=\"".repeat(50_000);
    // No `>` anywhere: the first tag runs to the end of the input.
    let tags: Vec<_> = start_tags(&s).collect();
    assert_eq!(tags.len(), 1);
    assert_eq!(tags[0].end, s.len());
    let s = "<p>".repeat(200_000);
    assert_eq!(start_tags(&s).count(), 200_000);
}
