use sgw_extract::{FieldKind, FieldSpec, extract};

#[test]
fn fields_come_with_spans_and_passages() {
    let page = "<html><body><article><p>The weather was fine and the sky was blue on that day, with 20 birds.</p>\
<p>The museum's new entry price is €12.50 since 1 April 2024, a rise of 25% over last year's ticket price.</p></article></body></html>";
    let doc = extract(page.as_bytes(), None, None).unwrap();
    let specs = [
        FieldSpec {
            name: "price".into(),
            kind: FieldKind::Money,
        },
        FieldSpec {
            name: "since".into(),
            kind: FieldKind::Date,
        },
        FieldSpec {
            name: "rise".into(),
            kind: FieldKind::Percent,
        },
        FieldSpec {
            name: "n".into(),
            kind: FieldKind::Number,
        },
    ];
    let f = doc.fields("museum entry price", &specs);
    assert_eq!(f.len(), 4, "{f:?}");
    assert_eq!(f[0].value, "EUR 12.50");
    assert_eq!(f[1].value, "2024-04-01");
    assert_eq!(f[2].value, "25");
    let passages = doc.passages("museum entry price", 10);
    for v in &f {
        assert_eq!(&doc.text[v.start..v.end], v.raw);
        let p = passages
            .iter()
            .find(|p| Some(p.index) == v.passage_index)
            .unwrap();
        assert!(p.start <= v.start && v.end <= p.end);
    }
    let json = serde_json::to_value(&f[0]).unwrap();
    assert_eq!(json["kind"], "money");
    assert_eq!(json["passage_index"], serde_json::json!(f[0].passage_index));
}

#[test]
fn bad_pattern_yields_nothing() {
    let doc = extract(
        b"<p>some text here, long enough for a paragraph of the page.</p>",
        None,
        None,
    )
    .unwrap();
    let f = doc.fields(
        "text",
        &[FieldSpec {
            name: "x".into(),
            kind: FieldKind::Pattern("(".into()),
        }],
    );
    assert!(f.is_empty());
}
