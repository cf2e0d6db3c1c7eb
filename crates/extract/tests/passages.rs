use proptest::prelude::*;
use sgw_extract::{DocumentKind, FieldKind, FieldSpec, extract};

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The quote invariant: every passage and field is a verbatim slice of the text.
    #[test]
    fn passages_are_exact_slices(text in "(\\PC{0,80}[\\n ]{0,3}){0,40}", query in "\\PC{0,20}", max in 0usize..20) {
        let doc = extract(text.as_bytes(), Some("text/plain"), None);
        if let Ok(doc) = doc {
            prop_assume!(doc.kind == DocumentKind::Text);
            for p in doc.passages(&query, max) {
                prop_assert_eq!(&doc.text[p.start..p.end], p.text.as_str());
                prop_assert!(!p.text.is_empty());
            }
            let specs = [
                FieldSpec { name: "d".into(), kind: FieldKind::Date },
                FieldSpec { name: "n".into(), kind: FieldKind::Number },
                FieldSpec { name: "m".into(), kind: FieldKind::Money },
                FieldSpec { name: "p".into(), kind: FieldKind::Percent },
            ];
            for f in doc.fields(&query, &specs) {
                prop_assert_eq!(&doc.text[f.start..f.end], f.raw.as_str());
            }
        }
    }

    #[test]
    fn html_passages_are_exact_slices(words in proptest::collection::vec("[a-zé日本 ]{1,30}", 1..60), query in "[a-z ]{0,20}") {
        let html: String = words.iter().map(|w| format!("<p>{w}, {w}.</p>")).collect();
        let doc = extract(html.as_bytes(), Some("text/html"), None).unwrap();
        for p in doc.passages(&query, 50) {
            prop_assert_eq!(&doc.text[p.start..p.end], p.text.as_str());
        }
    }
}

#[test]
fn long_unbroken_text_is_split_on_char_boundaries() {
    let text = "日本語".repeat(2000);
    let doc = extract(text.as_bytes(), Some("text/plain"), None).unwrap();
    let ps = doc.passages("", 1000);
    assert!(ps.len() > 3);
    let total: usize = ps.iter().map(|p| p.text.len()).sum();
    assert_eq!(total, text.len());
}
