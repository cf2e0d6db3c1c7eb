//! Loading and validating policies.

use sgw_orchestrator::{ChainStep, Policy};

fn seed_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../policies/search-gateway-resilience.yaml")
}

#[test]
fn the_seed_policy_loads_unchanged_and_warns_per_unbound_step() {
    let (policy, warnings) = Policy::load(&seed_path(), &[]).unwrap();
    assert_eq!(policy.name, "search-gateway-resilience");
    assert_eq!(policy.fallback_chain, ChainStep::DEFAULT_CHAIN.to_vec());
    assert_eq!(policy.failure_codes.len(), 14);
    assert_eq!(policy.cache_policy.stale_after_days("news"), 7);
    assert_eq!(policy.cache_policy.stale_after_days("unknown-topic"), 14);
    assert_eq!(warnings.len(), 7, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .all(|w| w.message.contains("no provider is bound"))
    );
    assert_eq!(
        policy
            .scoring()
            .tier_bases
            .base(sgw_contract::SourceTier::SpecializedDatabase),
        0.78
    );
}

fn errors(yaml: &str, kinds: &[&str]) -> String {
    match Policy::from_bytes(yaml.as_bytes(), Some("p.yaml"), kinds) {
        Ok(_) => panic!("expected an error for:\n{yaml}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_misspelled_kind_names_the_path_line_and_registered_kinds() {
    let yaml = "version: 1\nname: t\nproviders:\n  search_engine_provider:\n    - kind: searxng\n    - kind: serxng\n";
    let e = errors(yaml, &["searxng", "brave"]);
    assert!(
        e.contains("p.yaml:6: providers.search_engine_provider[1].kind"),
        "{e}"
    );
    assert!(e.contains("unknown provider kind `serxng`"), "{e}");
    assert!(e.contains("registered kinds: searxng, brave"), "{e}");
}

#[test]
fn unknown_keys_steps_codes_and_tiers_are_errors_with_paths() {
    let e = errors(
        "version: 1\nname: t\nexecution:\n  deadline_ms: 5\n  dedline: 3\n",
        &[],
    );
    assert!(e.contains("execution") && e.contains("dedline"), "{e}");
    let e = errors(
        "version: 1\nname: t\nfallback_chain: [direct_official_adapter, telepathy]\n",
        &[],
    );
    assert!(
        e.contains("fallback_chain[1]") && e.contains("telepathy"),
        "{e}"
    );
    let e = errors(
        "version: 1\nname: t\nfailure_codes: [SEARCH_PROVIDER_TIMEOUT, SEARCH_PROVIDER_SLEEPY]\n",
        &[],
    );
    assert!(
        e.contains("failure_codes[1]") && e.contains("SEARCH_PROVIDER_SLEEPY"),
        "{e}"
    );
    let e = errors(
        "version: 1\nname: t\nsource_priority:\n  OFFICIAL_TERTIARY:\n    confidence_base: 0.5\n",
        &[],
    );
    assert!(e.contains("OFFICIAL_TERTIARY"), "{e}");
    let e = errors("version: 1\nname: t\nsurprise: true\n", &[]);
    assert!(e.contains("surprise"), "{e}");
}

#[test]
fn bad_numbers_are_errors() {
    let e = errors(
        "version: 1\nname: t\nsource_priority:\n  GENERAL_WEB:\n    confidence_base: 1.5\n",
        &[],
    );
    assert!(
        e.contains("source_priority.GENERAL_WEB.confidence_base") && e.contains("outside 0..1"),
        "{e}"
    );
    let e = errors(
        "version: 1\nname: t\nconfidence_thresholds:\n  high: 0.6\n  medium: 0.7\n",
        &[],
    );
    assert!(e.contains("not monotonic"), "{e}");
    let e = errors(
        "version: 1\nname: t\nexecution:\n  target_confidence: -1\n",
        &[],
    );
    assert!(e.contains("execution.target_confidence"), "{e}");
    let e = errors(
        "version: 1\nname: t\ncache_policy:\n  stale_after_days_by_topic: {news: 0}\n",
        &[],
    );
    assert!(e.contains("stale_after_days_by_topic.news"), "{e}");
    let e = errors("version: 2\nname: t\n", &[]);
    assert!(e.contains("unsupported version 2"), "{e}");
    let e = errors(
        "version: 1\nname: t\ntiering:\n  - {domain: a.example, suffix: .gov, tier: GENERAL_WEB}\n",
        &[],
    );
    assert!(e.contains("tiering[0]"), "{e}");
    let e = errors(
        "version: 1\nname: t\ntopics:\n  - {topic: news, patterns: ['(unclosed']}\n",
        &[],
    );
    assert!(e.contains("topics[0].patterns[0]"), "{e}");
}

#[test]
fn garbage_gets_an_error_not_a_panic() {
    let cases: Vec<Vec<u8>> = vec![
        vec![0, 159, 146, 150, 255],
        b"\x00\x01binary".to_vec(),
        b"- just\n- a list\n".to_vec(),
        b"key: [unclosed\n".to_vec(),
        "a: ".repeat(10).into_bytes(),
        format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000)).into_bytes(),
        b"version: 1\nname: t\n".repeat(10).to_vec(),
        vec![b'x'; 2 << 20],
        // a billion-laughs alias bomb
        b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n".to_vec(),
    ];
    for bytes in cases {
        let result = Policy::from_bytes(&bytes, Some("garbage.yaml"), &[]);
        let e = result.expect_err("garbage must not load");
        assert!(e.to_string().starts_with("garbage.yaml"), "{e}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512)) {
        let _ = Policy::from_bytes(&bytes, None, &[]);
    }

    #[test]
    fn arbitrary_yamlish_text_never_panics(text in "[a-z_:\\-\\[\\]{}&*!| \n0-9.]{0,300}") {
        let _ = Policy::from_bytes(text.as_bytes(), None, &["x"]);
    }
}

#[test]
fn a_partial_staleness_map_overrides_only_the_topics_it_names() {
    let yaml = "version: 1\nname: t\ncache_policy:\n  stale_after_days_by_topic:\n    news: 2\n    recipes: 60\n";
    let (policy, _) = Policy::from_bytes(yaml.as_bytes(), Some("p.yaml"), &[]).unwrap();
    let days = |topic| policy.cache_policy.stale_after_days(topic);
    assert_eq!(days("news"), 2, "named: overridden");
    assert_eq!(days("recipes"), 60, "named: added");
    assert_eq!(days("policy_or_law"), 30, "not named: the seed's default");
    assert_eq!(days("product_or_price"), 3);
    assert_eq!(days("static_reference"), 180);
    assert_eq!(days("anything-else"), 14);
}
