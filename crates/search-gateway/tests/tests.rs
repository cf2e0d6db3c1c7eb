//! The facade: feature wiring and policy loading.

use search_gateway::ChainStep;

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
    let path = dir.path().join("minimal.yaml");
    std::fs::write(&path, "version: 1\nname: minimal\n").unwrap();
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

#[test]
fn a_network_error_names_its_key_or_the_whole_section() {
    let (mut policy, _) = search_gateway::parse_policy(b"version: 1\nname: t\n", "p.yaml").unwrap();
    policy.origin = Some("p.yaml".into());
    // The whole section at fault: no key after `network`.
    policy.network = Some(serde_json::json!(5));
    let whole = search_gateway::fetcher(&policy).unwrap_err().to_string();
    assert!(
        whole.starts_with("p.yaml: network: invalid type"),
        "{whole}"
    );
    // One key at fault (a value `Fetcher::new` refuses): named once.
    policy.network = Some(serde_json::json!({"user_agent": ""}));
    let key = search_gateway::fetcher(&policy).unwrap_err().to_string();
    assert_eq!(key, "p.yaml: network.user_agent: must not be empty");
}
