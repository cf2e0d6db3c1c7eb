//! The search/extract/resolve seams, driven by a fake gateway.

use crate::support::*;
use sgw_research::ops::{self, NewSession};
use sgw_research::*;
use std::collections::HashMap;
use std::fs;

/// A gateway that answers `search` from a fixed outcome (or fails) and is not
/// asked for anything else in these tests.
struct FakeGateway {
    outcome: Result<SearchOutcome, BackendError>,
}

impl FakeGateway {
    fn answering(outcome: SearchOutcome) -> FakeGateway {
        FakeGateway {
            outcome: Ok(outcome),
        }
    }

    fn failing() -> FakeGateway {
        FakeGateway {
            outcome: Err(BackendError::Operational("gateway unreachable".into())),
        }
    }
}

impl Backend for FakeGateway {
    fn search(
        &self,
        _: &GatewayOptions,
        req: &SearchRequest,
    ) -> Result<GatewayReport, BackendError> {
        assert_eq!(req.tool_call_cap, 8);
        assert!(req.sub_question_text.ends_with('?'));
        self.outcome.clone().map(|outcome| GatewayReport {
            outcome,
            ..GatewayReport::default()
        })
    }

    fn evidence_texts(
        &self,
        _: &GatewayOptions,
        _: &[String],
    ) -> Result<HashMap<String, String>, BackendError> {
        unreachable!("these tests only search")
    }

    fn extract(
        &self,
        _: &ExtractRequest<'_>,
        _: &dyn EvidenceTexts,
    ) -> Result<Extraction, BackendError> {
        unreachable!("these tests only search")
    }

    fn submit_evidence(
        &self,
        _: &GatewayOptions,
        _: &GateEvidence<'_>,
    ) -> Result<StoredSubmission, BackendError> {
        unreachable!("these tests only search")
    }
}

fn kept(url: &str, tier: &str, ev: &str) -> KeptSource {
    KeptSource {
        url: url.into(),
        title: format!("Title of {url}"),
        tier: tier.into(),
        snippet: "what it establishes".into(),
        evidence_id: ev.into(),
        publisher: Some("Publisher".into()),
    }
}

fn gated(url: &str) -> GatedUrl {
    GatedUrl {
        url: url.into(),
        gate_type: "login".into(),
        what_is_needed: "sign in".into(),
    }
}

fn setup() -> (tempfile::TempDir, Store, String) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path());
    let req = NewSession {
        question: "How do ULIDs work?".into(),
        intent: None,
        mode: Mode::Normal,
        gate_policy: GatePolicy::Background,
        output: OutputKind::ShortAnswer,
    };
    let (m, p) = ops::new_session(&req, now()).unwrap();
    store.create_session(&m, &p).unwrap();
    ops::add_sub_question(&store, &m.session_id, "What is the layout?", &[]).unwrap();
    ops::add_sub_question(&store, &m.session_id, "How do they sort?", &[]).unwrap();
    (dir, store, m.session_id)
}

#[test]
fn tier_mapping() {
    assert_eq!(
        quality_for_tier("OFFICIAL_PRIMARY"),
        Some(SourceQuality::Primary)
    );
    assert_eq!(
        quality_for_tier("OFFICIAL_SECONDARY"),
        Some(SourceQuality::Primary)
    );
    assert_eq!(
        quality_for_tier("AUTHORITATIVE_MEDIA"),
        Some(SourceQuality::Secondary)
    );
    assert_eq!(
        quality_for_tier("SPECIALIZED_DATABASE"),
        Some(SourceQuality::Secondary)
    );
    assert_eq!(quality_for_tier("GENERAL_WEB"), Some(SourceQuality::Low));
    assert_eq!(
        quality_for_tier("USER_SUPPLIED_EVIDENCE"),
        Some(SourceQuality::UserSupplied)
    );
    assert_eq!(quality_for_tier("official_primary"), None);
}

#[test]
fn search_records_sources_and_gates() {
    let (_dir, store, id) = setup();
    let gateway = FakeGateway::answering(SearchOutcome {
        kept: vec![
            kept("https://spec.example/ulid", "OFFICIAL_PRIMARY", "ev-1"),
            kept("https://news.example/ulid", "AUTHORITATIVE_MEDIA", "ev-2"),
            kept("https://blog.example/ulid", "GENERAL_WEB", "ev-3"),
            kept("https://pasted.example", "USER_SUPPLIED_EVIDENCE", "ev-4"),
        ],
        gated: vec![
            gated("https://walled.example"),
            gated("https://walled.example"),
        ],
    });
    let searched = search_sub_question(
        &store,
        &id,
        "sq-2",
        &gateway,
        &GatewayOptions::default(),
        now(),
    )
    .unwrap();
    assert_eq!(searched.report.outcome.kept.len(), 4);
    let rec = searched.recorded;
    assert_eq!(rec.source_ids, ["s2-1", "s2-2", "s2-3", "s2-4"]);
    assert_eq!(rec.new_gate_ids, ["g-1"]);
    assert_eq!(rec.duplicate_gates, 1);
    let sources = store.read_sources(&id).unwrap().sources;
    let q: Vec<SourceQuality> = sources.iter().map(|s| s.source_quality).collect();
    use SourceQuality::*;
    assert_eq!(q, [Primary, Secondary, Low, UserSupplied]);
    assert_eq!(sources[0].tier.as_deref(), Some("OFFICIAL_PRIMARY"));
    assert_eq!(sources[0].evidence_id.as_deref(), Some("ev-1"));
    assert_eq!(sources[0].publisher.as_deref(), Some("Publisher"));
    assert_eq!(store.read_manifest(&id).unwrap().status, Status::InProgress);

    // Again, with one known and one new URL: known keeps its id, new continues; gate deduped.
    let again = SearchOutcome {
        kept: vec![
            kept("https://new.example", "GENERAL_WEB", "ev-5"),
            kept("https://spec.example/ulid", "OFFICIAL_PRIMARY", "ev-1"),
        ],
        gated: vec![
            gated("https://walled.example"),
            gated("https://other.example"),
        ],
    };
    let rec = record_search(&store, &id, "sq-2", &again, now()).unwrap();
    assert_eq!(rec.source_ids, ["s2-5", "s2-1"]);
    assert_eq!(rec.new_gate_ids, ["g-2"]);
    let rec = record_search(&store, &id, "sq-1", &again, now()).unwrap();
    assert_eq!(rec.source_ids, ["s1-1", "s1-2"], "ids are per sub-question");
    let gates = store.read_gates(&id).unwrap().gates;
    assert_eq!(gates.len(), 2);
    assert_eq!(gates[0].sub_question_id.as_deref(), Some("sq-2"));

    // Rejections write nothing.
    let before = fs::read(store.session_dir(&id).unwrap().join("sources.json")).unwrap();
    let bad = SearchOutcome {
        kept: vec![kept("https://x", "SOMETHING", "ev-9")],
        gated: vec![],
    };
    assert_eq!(
        record_search(&store, &id, "sq-1", &bad, now())
            .unwrap_err()
            .exit_code(),
        1
    );
    let no_ev = SearchOutcome {
        kept: vec![kept("https://x", "GENERAL_WEB", " ")],
        gated: vec![],
    };
    assert_eq!(
        record_search(&store, &id, "sq-1", &no_ev, now())
            .unwrap_err()
            .exit_code(),
        1
    );
    assert_eq!(
        record_search(&store, &id, "sq-9", &again, now())
            .unwrap_err()
            .exit_code(),
        2
    );
    assert_eq!(
        search_sub_question(
            &store,
            &id,
            "sq-1",
            &FakeGateway::failing(),
            &GatewayOptions::default(),
            now()
        )
        .unwrap_err()
        .exit_code(),
        2
    );
    assert_eq!(
        before,
        fs::read(store.session_dir(&id).unwrap().join("sources.json")).unwrap()
    );
}

fn evidence() -> HashMap<String, String> {
    HashMap::from([
        (
            "ev-1".to_string(),
            "A ULID is 128 bits: a 48-bit timestamp and 80 bits of randomness.".to_string(),
        ),
        (
            "ev-2".to_string(),
            "ULIDs sort lexicographically by time.".to_string(),
        ),
    ])
}

fn claim(id: &str, quote: &str, source: &str, importance: Importance) -> ExtractedClaim {
    ExtractedClaim {
        claim_id: id.into(),
        text: format!("claim {id}"),
        quote: quote.into(),
        source_id: source.into(),
        importance,
        source_quality: None,
    }
}

fn searched() -> (tempfile::TempDir, Store, String) {
    let (dir, store, id) = setup();
    let outcome = SearchOutcome {
        kept: vec![
            kept("https://spec.example", "OFFICIAL_PRIMARY", "ev-1"),
            kept("https://media.example", "AUTHORITATIVE_MEDIA", "ev-2"),
        ],
        gated: vec![],
    };
    record_search(&store, &id, "sq-1", &outcome, now()).unwrap();
    (dir, store, id)
}

#[test]
fn extraction_writes_grounded_findings() {
    let (_dir, store, id) = searched();
    let run = [Extraction {
        sub_question_id: "sq-1".into(),
        claims: vec![
            claim(
                "c-1",
                "a 48-bit timestamp and 80 bits of randomness",
                "s1-1",
                Importance::Central,
            ),
            claim(
                "c-2",
                "sort lexicographically by time",
                "s1-2",
                Importance::Supporting,
            ),
        ],
        unsourced_claims: 0,
        notes: "consistent".into(),
        summary: "128 bits, time first.".into(),
    }];
    let out = record_extractions(&store, &id, &run, &evidence(), now()).unwrap();
    assert!(!out.aborted);
    assert_eq!(out.unsourced_ratio, 0.0);
    let findings = store.read_findings(&id).unwrap();
    assert_eq!(findings.len(), 1);
    let f = &findings[0];
    assert_eq!(f.confidence, Confidence::High);
    assert_eq!(f.claims[0].source_quality, SourceQuality::Primary);
    assert_eq!(f.claims[1].source_quality, SourceQuality::Secondary);
    assert_eq!(f.claims[0].verdict, Verdict::Unverified);
    assert_eq!(store.read_manifest(&id).unwrap().status, Status::InProgress);
    // The extractor brief's JSON parses straight into Extraction.
    let from_brief: Extraction = serde_json::from_str(
        r#"{"subQuestionId":"sq-1","claims":[{"claimId":"c-1","text":"t","quote":"q","sourceId":"s1-1","importance":"central","sourceQuality":"primary"}],"unsourcedClaims":0,"notes":""}"#,
    )
    .unwrap();
    assert_eq!(
        from_brief.claims[0].source_quality,
        Some(SourceQuality::Primary)
    );
}

#[test]
fn extraction_rejects_ungrounded_claims() {
    let (_dir, store, id) = searched();
    let reject = |c: ExtractedClaim| {
        let run = [Extraction {
            sub_question_id: "sq-1".into(),
            claims: vec![c],
            unsourced_claims: 0,
            notes: String::new(),
            summary: String::new(),
        }];
        let err = record_extractions(&store, &id, &run, &evidence(), now()).unwrap_err();
        assert_eq!(err.exit_code(), 1, "{err}");
        err.to_string()
    };
    assert!(
        reject(claim(
            "c-1",
            "a 64-bit timestamp",
            "s1-1",
            Importance::Central
        ))
        .contains("verbatim")
    );
    reject(claim(
        "c-1",
        "sort lexicographically",
        "s1-1",
        Importance::Central,
    )); // quote from the other source
    reject(claim("c-1", "sort", "s1-9", Importance::Central)); // unknown source
    reject(claim("c-1", "sort", "s2-1", Importance::Central)); // another sub-question's id
    reject(claim("c-1", "", "s1-1", Importance::Central));
    let mut upgraded = claim("c-1", "sort lexicographically", "s1-2", Importance::Central);
    upgraded.source_quality = Some(SourceQuality::Primary);
    assert!(reject(upgraded).contains("upgrades"));
    // No evidence text available for the source.
    let run = [Extraction {
        sub_question_id: "sq-1".into(),
        claims: vec![claim("c-1", "128 bits", "s1-1", Importance::Central)],
        unsourced_claims: 0,
        notes: String::new(),
        summary: String::new(),
    }];
    assert_eq!(
        record_extractions(&store, &id, &run, &HashMap::new(), now())
            .unwrap_err()
            .exit_code(),
        1
    );
    assert!(
        store.read_findings(&id).unwrap().is_empty(),
        "nothing written"
    );
}

#[test]
fn a_run_over_ten_percent_unsourced_aborts_the_session() {
    let (_dir, store, id) = searched();
    let run = [
        Extraction {
            sub_question_id: "sq-1".into(),
            claims: (1..=8)
                .map(|i| {
                    claim(
                        &format!("c-{i}"),
                        "128 bits",
                        "s1-1",
                        Importance::Supporting,
                    )
                })
                .collect(),
            unsourced_claims: 1,
            notes: String::new(),
            summary: String::new(),
        },
        Extraction {
            sub_question_id: "sq-2".into(),
            claims: vec![],
            unsourced_claims: 1,
            notes: "all gated".into(),
            summary: String::new(),
        },
    ];
    let out = record_extractions(&store, &id, &run, &evidence(), now()).unwrap();
    assert!((out.unsourced_ratio - 0.2).abs() < 1e-9);
    assert!(out.aborted);
    assert_eq!(store.read_manifest(&id).unwrap().status, Status::Aborted);
    let findings = store.read_findings(&id).unwrap();
    assert_eq!(findings.len(), 2, "the findings are still recorded");
    assert!(findings[1].is_unsourced());
    // An aborted session takes no more findings.
    assert_eq!(
        record_extractions(&store, &id, &run, &evidence(), now())
            .unwrap_err()
            .exit_code(),
        2
    );
}

#[test]
fn exactly_ten_percent_is_not_aborted() {
    let (_dir, store, id) = searched();
    let run = [Extraction {
        sub_question_id: "sq-1".into(),
        claims: (1..=9)
            .map(|i| claim(&format!("c-{i}"), "128 bits", "s1-1", Importance::Central))
            .collect(),
        unsourced_claims: 1,
        notes: String::new(),
        summary: String::new(),
    }];
    let out = record_extractions(&store, &id, &run, &evidence(), now()).unwrap();
    assert!(!out.aborted);
    assert_eq!(store.read_manifest(&id).unwrap().status, Status::InProgress);
}

#[test]
fn resolve_gate_marks_resolved() {
    let (_dir, store, id) = setup();
    let outcome = SearchOutcome {
        kept: vec![],
        gated: vec![gated("https://walled.example")],
    };
    record_search(&store, &id, "sq-1", &outcome, now()).unwrap();
    let g = resolve_gate(
        &store,
        &id,
        "g-1",
        Some("ev-77"),
        Some("pasted by the operator"),
        days_later(1),
    )
    .unwrap();
    assert_eq!(g.status, GateStatus::Resolved);
    assert_eq!(g.evidence_id.as_deref(), Some("ev-77"));
    assert_eq!(
        store.read_gates(&id).unwrap().gates[0].resolved_at,
        Some(days_later(1))
    );
    assert_eq!(
        resolve_gate(&store, &id, "g-1", None, None, now())
            .unwrap_err()
            .exit_code(),
        2
    );
    assert_eq!(
        resolve_gate(&store, &id, "g-5", None, None, now())
            .unwrap_err()
            .exit_code(),
        2
    );
    assert_eq!(
        resolve_gate(&store, &id, "gate-1", None, None, now())
            .unwrap_err()
            .exit_code(),
        1
    );
    // show renders findings, sources and gates together.
    let session = store.load(&id).unwrap();
    let text = sgw_research::format::session(&session);
    assert!(text.contains("1 resolved"), "{text}");
}

#[test]
fn show_renders_findings_with_flags() {
    let (dir, store, id) = searched();
    let run = [Extraction {
        sub_question_id: "sq-1".into(),
        claims: vec![claim("c-1", "128 bits", "s1-1", Importance::Central)],
        unsourced_claims: 1,
        notes: String::new(),
        summary: String::new(),
    }];
    record_extractions(&store, &id, &run, &evidence(), now()).unwrap();
    let out = research(dir.path(), &["show", &id]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let row = out
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("sq-1") && l.contains("UNSOURCED"))
        .unwrap();
    assert!(row.contains("0/0/1"), "{row}");
    assert!(out.stdout.contains("s1-1") && out.stdout.contains("https://spec.example"));
}

/// A gateway whose evidence store holds `texts` and whose extraction quotes
/// the first source's text whole.
struct ExtractingGateway {
    texts: HashMap<String, String>,
}

impl Backend for ExtractingGateway {
    fn search(&self, _: &GatewayOptions, _: &SearchRequest) -> Result<GatewayReport, BackendError> {
        unreachable!("these tests only extract")
    }

    fn evidence_texts(
        &self,
        _: &GatewayOptions,
        ids: &[String],
    ) -> Result<HashMap<String, String>, BackendError> {
        Ok(ids
            .iter()
            .filter_map(|id| Some((id.clone(), self.texts.get(id)?.clone())))
            .collect())
    }

    fn extract(
        &self,
        request: &ExtractRequest<'_>,
        texts: &dyn EvidenceTexts,
    ) -> Result<Extraction, BackendError> {
        let first = &request.sources[0];
        let quote = texts
            .text(first.evidence_id.as_deref().unwrap())
            .expect("the texts of the request's sources");
        Ok(Extraction {
            sub_question_id: request.sub_question_id.into(),
            claims: vec![claim("c-1", &quote, &first.source_id, Importance::Central)],
            unsourced_claims: 0,
            notes: String::new(),
            summary: request.sub_question_text.into(),
        })
    }

    fn submit_evidence(
        &self,
        _: &GatewayOptions,
        _: &GateEvidence<'_>,
    ) -> Result<StoredSubmission, BackendError> {
        unreachable!("these tests only extract")
    }
}

#[test]
fn extract_sub_question_runs_the_backend_over_the_recorded_sources() {
    let (_dir, store, id) = searched();
    let gateway = ExtractingGateway { texts: evidence() };
    let options = GatewayOptions::default();
    let out = extract_sub_question(&store, &id, "sq-1", None, &gateway, &options, now()).unwrap();
    assert_eq!(out.findings.len(), 1);
    assert_eq!(out.findings[0].claims[0].source_id, "s1-1");
    assert_eq!(out.findings[0].confidence, Confidence::High);
    assert_eq!(store.read_findings(&id).unwrap().len(), 1);
}

#[test]
fn extract_sub_question_says_why_it_cannot_start() {
    let (_dir, store, id) = searched();
    let options = GatewayOptions {
        store: Some("/elsewhere/evidence.db".into()),
        ..GatewayOptions::default()
    };
    // Nothing searched for sq-2 yet.
    let gateway = ExtractingGateway { texts: evidence() };
    let err =
        extract_sub_question(&store, &id, "sq-2", None, &gateway, &options, now()).unwrap_err();
    assert!(
        matches!(&err, Error::Operational(m) if m.contains("sq-2 has no recorded sources") && m.contains("research search")),
        "{err}"
    );
    // The sources' evidence is not in the store the options name.
    let empty = ExtractingGateway {
        texts: HashMap::new(),
    };
    let err = extract_sub_question(&store, &id, "sq-1", None, &empty, &options, now()).unwrap_err();
    assert!(
        matches!(&err, Error::Operational(m) if m.contains("none of the 2 evidence record(s)") && m.contains("at /elsewhere/evidence.db")),
        "{err}"
    );
    // An unknown sub-question is named.
    let err =
        extract_sub_question(&store, &id, "sq-9", None, &gateway, &options, now()).unwrap_err();
    assert!(err.to_string().contains("sq-9"), "{err}");
    assert!(store.read_findings(&id).unwrap().is_empty());
}
