//! Validators: fixed cases and property tests (never panic on arbitrary input).

use proptest::prelude::*;
use sgw_research::validate;

#[test]
fn session_ids() {
    assert!(validate::session_id("01ARZ3NDEKTSV4RRFFQ69G5FAV").is_ok());
    assert!(validate::session_id(&ulid::Ulid::new().to_string()).is_ok());
    for bad in [
        "",
        "01ARZ3NDEKTSV4RRFFQ69G5FA",   // 25
        "01ARZ3NDEKTSV4RRFFQ69G5FAVV", // 27
        "01arz3ndektsv4rrffq69g5fav",  // lowercase
        "01ARZ3NDEKTSV4RRFFQ69G5FAI",  // I
        "01ARZ3NDEKTSV4RRFFQ69G5FAL",
        "01ARZ3NDEKTSV4RRFFQ69G5FAO",
        "01ARZ3NDEKTSV4RRFFQ69G5FAU",
        "81ARZ3NDEKTSV4RRFFQ69G5FAV", // overflows 48 bits
        "../../ARZ3NDEKTSV4RRFFQ69G5",
        "01ARZ3NDEKTSV4RRFFQ69G5F/V",
        "01ARZ3NDEKTSV4RRFFQ69G5FÅ",
    ] {
        assert!(validate::session_id(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn numbered_ids() {
    assert_eq!(validate::sub_question_id("sq-12"), Ok(12));
    assert_eq!(validate::source_id("s3-4"), Ok((3, 4)));
    assert_eq!(validate::gate_id("g-1"), Ok(1));
    for bad in [
        "sq-0",
        "sq-01",
        "sq-",
        "sq-1a",
        "sq--1",
        "SQ-1",
        "sq-99999999999",
    ] {
        assert!(validate::sub_question_id(bad).is_err(), "{bad}");
    }
    for bad in ["s1", "s-1", "s1-0", "s0-1", "t1-1", "s1-1-1"] {
        assert!(validate::source_id(bad).is_err(), "{bad}");
    }
}

#[test]
fn plan_rules() {
    let plan = |subs: &str| {
        format!(
            r#"{{"schemaVersion":1,"sessionId":"01ARZ3NDEKTSV4RRFFQ69G5FAV","deepeningRounds":1,"verificationTier":"central-3vote","subQuestions":{subs}}}"#
        )
    };
    assert!(
        validate::plan_bytes(
            plan(r#"[{"id":"sq-1","text":"a"},{"id":"sq-2","text":"b","dependsOn":["sq-1"]}]"#)
                .as_bytes()
        )
        .is_ok()
    );
    for bad in [
        r#"[{"id":"sq-1","text":"a"},{"id":"sq-1","text":"b"}]"#,
        r#"[{"id":"sq-1","text":"a","dependsOn":["sq-1"]}]"#,
        r#"[{"id":"sq-1","text":"a","dependsOn":["sq-2"]}]"#,
        r#"[{"id":"sq-1","text":"a","dependsOn":["sq-2"]},{"id":"sq-2","text":"b","dependsOn":["sq-1"]}]"#,
        r#"[{"id":"sq-1","text":" "}]"#,
        r#"[{"id":"sq-1","text":"a","extra":true}]"#,
    ] {
        assert!(validate::plan_bytes(plan(bad).as_bytes()).is_err(), "{bad}");
    }
}

fn arb_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f)
            .map_or(serde_json::Value::Null, serde_json::Value::Number)),
        prop_oneof![
            ".*",
            "sq-[0-9]{1,3}",
            "s[0-9]-[0-9]",
            "g-[0-9]",
            "c-[0-9]",
            Just("01ARZ3NDEKTSV4RRFFQ69G5FAV".to_string()),
            Just("2026-05-01T10:00:00Z".to_string()),
            Just("primary".to_string()),
            Just("pending".to_string()),
        ]
        .prop_map(serde_json::Value::from),
    ];
    let keys = prop_oneof![
        ".{0,8}",
        Just("schemaVersion".to_string()),
        Just("sessionId".to_string()),
        Just("subQuestions".to_string()),
        Just("id".to_string()),
        Just("dependsOn".to_string()),
        Just("sources".to_string()),
        Just("gates".to_string()),
        Just("claims".to_string()),
        Just("sourceId".to_string()),
    ];
    leaf.prop_recursive(4, 64, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(keys.clone(), inner, 0..8)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

fn all_validators(bytes: &[u8]) {
    let _ = validate::manifest_bytes(bytes);
    let _ = validate::plan_bytes(bytes);
    let _ = validate::sources_bytes(bytes);
    let _ = validate::gates_bytes(bytes);
    let _ = validate::finding_bytes(bytes);
    let _ = sgw_research::ops::parse_gate_inputs(&String::from_utf8_lossy(bytes));
}

/// Valid documents, so mutations start from something the validators accept.
fn valid_docs() -> &'static [serde_json::Value] {
    static DOCS: std::sync::OnceLock<Vec<serde_json::Value>> = std::sync::OnceLock::new();
    DOCS.get_or_init(make_valid_docs)
}

fn make_valid_docs() -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let id = crate::support::new_session(dir.path(), "normal");
    let sd = crate::support::session_dir(dir.path(), &id);
    crate::support::research(dir.path(), &["plan", &id, "--add", "a?"]);
    crate::support::research(
        dir.path(),
        &["plan", &id, "--add", "b?", "--depends-on", "sq-1"],
    );
    crate::support::research(
        dir.path(),
        &[
            "gates",
            "--append",
            &id,
            "--record",
            r#"{"url":"u","gateType":"t","whatIsNeeded":"n"}"#,
        ],
    );
    let finding = serde_json::json!({"schemaVersion":1,"subQuestionId":"sq-1","confidence":"high","claims":[{"claimId":"c-1","text":"t","quote":"q","sourceId":"s1-1","importance":"central","sourceQuality":"primary","verdict":"verified","votes":[{"vote":"supports"}]}],"unsourcedClaims":0,"writtenAt":"2026-05-01T10:00:00Z"});
    assert!(validate::finding_bytes(finding.to_string().as_bytes()).is_ok());
    let mut docs: Vec<serde_json::Value> =
        ["manifest.json", "plan.json", "gates.json", "sources.json"]
            .iter()
            .map(|f| crate::support::read_json(&sd.join(f)))
            .collect();
    docs.push(finding);
    docs
}

fn mutate(v: &mut serde_json::Value, path: &[usize], replacement: serde_json::Value) {
    let Some((&i, rest)) = path.split_first() else {
        *v = replacement;
        return;
    };
    match v {
        serde_json::Value::Object(m) if !m.is_empty() => {
            let key = m.keys().nth(i % m.len()).unwrap().clone();
            mutate(m.get_mut(&key).unwrap(), rest, replacement);
        }
        serde_json::Value::Array(a) if !a.is_empty() => {
            let n = a.len();
            mutate(&mut a[i % n], rest, replacement);
        }
        _ => *v = replacement,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn validators_never_panic_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        all_validators(&bytes);
    }

    #[test]
    fn validators_never_panic_on_json(value in arb_json()) {
        all_validators(value.to_string().as_bytes());
    }

    #[test]
    fn validators_never_panic_on_mutated_documents(
        which in 0usize..5,
        path in prop::collection::vec(any::<usize>(), 0..5),
        replacement in arb_json(),
    ) {
        let mut doc = valid_docs()[which].clone();
        mutate(&mut doc, &path, replacement);
        all_validators(doc.to_string().as_bytes());
    }

    #[test]
    fn session_id_validation_never_panics(s in ".{0,40}") {
        let _ = validate::session_id(&s);
        let _ = validate::source_id(&s);
        let _ = validate::sub_question_id(&s);
    }
}
