//! The facade: feature wiring and policy loading.

use search_gateway::{ChainStep, FEATURE_KINDS, enabled_features, registered_kinds};

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
    let path = root.join("search-gateway-resilience.yaml");
    if let Err(e) = search_gateway::load_policy(&path) {
        panic!("{}: {e}", path.display());
    }
    // The default policy loads in every build, binding only the linked kinds.
    let (policy, _) = search_gateway::default_policy().unwrap_or_else(|e| panic!("{e}"));
    let kinds = registered_kinds();
    let bound: Vec<&str> = policy
        .providers
        .values()
        .flatten()
        .map(|p| p.kind.as_str())
        .collect();
    assert!(bound.iter().all(|k| kinds.contains(k)), "{bound:?}");
    for f in enabled_features() {
        if f.feature != "search-engine" {
            // The default binds a kind of every family but search engines
            // other than `brave`: enabled features keep their entries.
            assert!(
                f.kinds.iter().any(|k| bound.contains(k)),
                "{}: {bound:?}",
                f.feature
            );
        }
    }
}

/// A policy binding the first kind of every provider feature.
fn policy_binding_every_feature(dir: &std::path::Path) -> std::path::PathBuf {
    let mut yaml = String::from(
        "version: 1\nname: every-feature\nfallback_chain: [direct_official_adapter]\nproviders:\n  direct_official_adapter:\n",
    );
    for f in FEATURE_KINDS {
        yaml.push_str(&format!(
            "    - kind: {}\n      enabled: false\n",
            f.kinds[0]
        ));
    }
    let path = dir.join("every.yaml");
    std::fs::write(&path, yaml).unwrap();
    path
}

#[test]
fn a_kind_of_a_feature_this_build_lacks_names_the_feature() {
    let dir = tempfile::tempdir().unwrap();
    let path = policy_binding_every_feature(dir.path());
    let disabled: Vec<_> = FEATURE_KINDS.iter().filter(|f| !f.enabled).collect();
    match search_gateway::load_policy(&path) {
        Ok(_) => assert!(disabled.is_empty(), "{disabled:?} should be refused"),
        Err(e) => {
            assert_eq!(e.0.len(), disabled.len(), "{e}");
            for f in disabled {
                let message = e.to_string();
                assert!(
                    message.contains(&format!("Cargo feature `{}`", f.feature))
                        && message.contains(f.krate),
                    "{message}"
                );
            }
        }
    }
}

mod extra {
    use search_gateway::{ChainStep, ProviderFactory};
    use serde::Deserialize;
    use sgw_contract::{
        BuildContext, FactoryError, Provider, ProviderCall, ProviderConfig, ProviderError,
        ProviderReport,
    };
    use std::sync::Arc;

    /// A kind known only to the tests, never registered with `inventory`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ExtraConfig {}

    struct Extra;

    #[async_trait::async_trait]
    impl Provider for Extra {
        async fn run(&self, _call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
            Ok(ProviderReport::default())
        }
    }

    impl ProviderConfig for ExtraConfig {
        const KIND: &'static str = "test-extra";
        const STEP: ChainStep = ChainStep::StructuredApiOrFeed;
        const DESCRIPTION: &'static str = "answers nothing";

        fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
            let _fetcher: Arc<search_gateway::Fetcher> = ctx.fetcher()?;
            Ok(Arc::new(Extra))
        }
    }

    pub fn factory(crate_name: &'static str) -> ProviderFactory {
        ProviderFactory::of::<ExtraConfig>(crate_name)
    }
}

#[tokio::test]
async fn extra_provider_kinds_are_validated_and_built() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("extra.yaml");
    std::fs::write(
        &path,
        "version: 1\nname: extra\nfallback_chain: [structured_api_or_feed]\nproviders:\n  structured_api_or_feed:\n    - kind: test-extra\n",
    )
    .unwrap();
    let unknown = search_gateway::load_policy(&path).unwrap_err().to_string();
    assert!(
        unknown.contains("unknown provider kind `test-extra`"),
        "{unknown}"
    );
    let extra = [extra::factory("extra-crate")];
    let options = search_gateway::OpenOptions {
        store: None,
        no_store: true,
    };
    let gateway = search_gateway::open_with_providers(&path, options, &extra)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        gateway.chain(),
        vec![(
            ChainStep::StructuredApiOrFeed,
            vec!["test-extra".to_string()]
        )]
    );
}

#[test]
fn a_kind_from_two_crates_is_refused_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let path = policy_binding_every_feature(dir.path());
    let twice = [extra::factory("crate-one"), extra::factory("crate-two")];
    let err = search_gateway::load_policy_with(&path, &twice)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`test-extra` is registered twice")
            && err.contains("`crate-one`")
            && err.contains("`crate-two`"),
        "{err}"
    );
    let dup = search_gateway::registry(&twice).unwrap_err();
    assert_eq!((dup.first, dup.second), ("crate-one", "crate-two"));
}

#[test]
fn the_analyzer_keeps_quotes_verbatim() {
    use sgw_contract::TextAnalyzer;
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
