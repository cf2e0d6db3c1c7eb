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
        None,
    );
    assert!(!fields.is_empty());
    for f in fields {
        assert_eq!(&text[f.start..f.end], f.quote);
    }
}

#[tokio::test]
async fn the_store_location_is_decided_in_one_place() {
    use search_gateway::{OpenOptions, open_store, store_location};
    let dir = tempfile::tempdir().unwrap();
    let policy_path = dir.path().join("policy.yaml");
    std::fs::write(
        &policy_path,
        "version: 1\nname: store-test\nstore:\n  url: data/ev.sqlite\ncache_policy:\n  stale_after_days_by_topic:\n    news: 2\n    default: 9\n",
    )
    .unwrap();
    let (policy, _) = search_gateway::load_policy(&policy_path).unwrap();
    // A relative `store.url` is resolved against the policy file's directory.
    let relative = store_location(&policy, &OpenOptions::default()).unwrap();
    assert_eq!(
        std::path::Path::new(&relative),
        dir.path().join("data/ev.sqlite")
    );
    // `--store` wins over the policy.
    let flag = OpenOptions {
        store: Some("sqlite::memory:".into()),
        no_store: false,
    };
    assert_eq!(
        store_location(&policy, &flag).as_deref(),
        Some("sqlite::memory:")
    );
    // `no_store` opens nothing; otherwise the store carries the policy's staleness rules.
    let none = OpenOptions {
        store: None,
        no_store: true,
    };
    assert!(open_store(&policy, &none).await.unwrap().is_none());
    let rules = search_gateway::staleness_rules(&policy);
    assert_eq!(rules.by_topic.get("news"), Some(&2));
    assert_eq!(rules.default_days, 9);
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    let store = open_store(&policy, &OpenOptions::default())
        .await
        .unwrap()
        .expect("a store");
    assert_eq!(store.staleness(), &rules);
    store.close().await;
    assert!(dir.path().join("data/ev.sqlite").exists());
}

#[tokio::test]
async fn a_bad_network_section_names_its_key() {
    // The network section is validated when the policy loads (path and line),
    // so a bad one never reaches `build`.
    for (yaml, key, line) in [
        (
            "version: 1\nname: t\nnetwork:\n  max_redirect: 3\n",
            "network.max_redirect",
            "p.yaml:4",
        ),
        (
            "version: 1\nname: t\nnetwork:\n  timeouts: {total_ms: \"soon\"}\n",
            "network.timeouts.total_ms",
            "p.yaml:4",
        ),
    ] {
        let err = search_gateway::Policy::from_bytes(yaml.as_bytes(), Some("p.yaml"), &[])
            .unwrap_err()
            .to_string();
        assert!(err.contains(key) && err.contains(line), "{err}");
    }
}
