//! The facade: feature wiring and policy loading.

use search_gateway::{FEATURE_KINDS, enabled_features, registered_kinds};

#[test]
fn every_enabled_feature_registers_its_kinds() {
    let kinds = registered_kinds();
    for f in enabled_features() {
        for k in f.kinds {
            assert!(
                kinds.contains(k),
                "feature `{}` ({}) is on but kind `{k}` is not registered",
                f.feature,
                f.krate
            );
        }
    }
    for f in FEATURE_KINDS.iter().filter(|f| !f.enabled) {
        for k in f.kinds {
            assert!(
                !kinds.contains(k),
                "feature `{}` is off but kind `{k}` is registered",
                f.feature
            );
        }
    }
    let mut sorted = kinds.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(kinds, sorted, "kinds are listed sorted and once");
}

#[test]
fn the_shipped_policies_load() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../policies");
    // The default policy binds every provider family: it loads when all features are on.
    let all_on = enabled_features().len() == FEATURE_KINDS.len();
    let names: &[&str] = if all_on {
        &["search-gateway-resilience.yaml", "default.yaml"]
    } else {
        &["search-gateway-resilience.yaml"]
    };
    for name in names {
        let path = root.join(name);
        if let Err(e) = search_gateway::load_policy(&path) {
            panic!("{}: {e}", path.display());
        }
    }
}

#[test]
fn the_analyzer_keeps_quotes_verbatim() {
    use search_gateway::orchestrator::TextAnalyzer;
    let text = "Intro.\n\nThe fee rose to 4.5% on 1 March 2026 for all members.\n\nOther news.";
    let a = search_gateway::ExtractAnalyzer;
    for p in a.passages(text, "fee rose", 3) {
        assert_eq!(&text[p.start..p.end], p.text);
    }
    let fields = a.fields(
        text,
        "fee",
        &[
            "rate:percent".parse().unwrap(),
            "when:date".parse().unwrap(),
        ],
    );
    assert!(!fields.is_empty());
    for f in fields {
        assert_eq!(&text[f.start..f.end], f.quote);
    }
}
