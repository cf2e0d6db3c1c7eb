//! The registry: typed configs, registration, duplicates and the service slots.

use serde::Deserialize;
use sgw_contract::{
    BuildContext, ChainStep, DuplicateKind, FactoryError, Provider, ProviderCall, ProviderConfig,
    ProviderError, ProviderFactory, ProviderReport, Registry, Services, factories, factory,
};
use std::sync::Arc;

struct Nothing(u32);

#[async_trait::async_trait]
impl Provider for Nothing {
    async fn run(&self, _call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        Ok(ProviderReport {
            notes: vec![self.0.to_string()],
            ..Default::default()
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NothingConfig {
    #[serde(default)]
    limit: u32,
}

impl ProviderConfig for NothingConfig {
    const KIND: &'static str = "test-nothing";
    const STEP: ChainStep = ChainStep::CachedEvidence;
    const DESCRIPTION: &'static str = "does nothing";

    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
        if self.limit > 10 {
            return Err(FactoryError::config_field("limit", "must be at most 10"));
        }
        // A provider that needs the network layer asks for it by type.
        if self.limit == 7 {
            let _fetcher: Arc<String> = ctx.fetcher()?;
        }
        Ok(Arc::new(Nothing(self.limit)))
    }
}

sgw_contract::register_provider!(NothingConfig);

#[test]
fn registered_configs_are_found_and_sorted() {
    let f = factory("test-nothing").unwrap();
    assert_eq!(f.step, ChainStep::CachedEvidence);
    assert_eq!(f.crate_name, "sgw-contract");
    assert_eq!(f.description, "does nothing");
    let kinds: Vec<_> = factories().iter().map(|f| f.kind).collect();
    let mut sorted = kinds.clone();
    sorted.sort();
    assert_eq!(kinds, sorted);
    assert!(factory("no-such-kind").is_none());
}

#[test]
fn the_registry_parses_the_config_and_names_the_field_at_fault() {
    let f = factory("test-nothing").unwrap();
    let ctx = BuildContext::new("n", f.step);
    // `null` is an empty config.
    assert!(f.build(&serde_json::Value::Null, &ctx).is_ok());
    let typo = f
        .build(&serde_json::json!({"limt": 3}), &ctx)
        .err()
        .unwrap();
    assert!(typo.to_string().contains("limt"), "{typo}");
    let wrong = f
        .build(&serde_json::json!({"limit": "x"}), &ctx)
        .err()
        .unwrap();
    match wrong {
        FactoryError::Config { field, .. } => assert_eq!(field.as_deref(), Some("limit")),
        other => panic!("{other}"),
    }
    let checked = f
        .build(&serde_json::json!({"limit": 11}), &ctx)
        .err()
        .unwrap();
    assert_eq!(checked.to_string(), "limit: must be at most 10");
}

#[test]
fn services_are_typed_slots() {
    let f = factory("test-nothing").unwrap();
    let needs_fetcher = serde_json::json!({"limit": 7});
    let bare = BuildContext::new("n", f.step);
    let missing = f.build(&needs_fetcher, &bare).err().unwrap();
    assert!(
        matches!(missing, FactoryError::MissingService("fetcher")),
        "{missing}"
    );
    let wrong = bare
        .clone()
        .with_services(Services::new().with_fetcher(Arc::new(42u32)));
    let err = f.build(&needs_fetcher, &wrong).err().unwrap();
    assert!(
        err.to_string().contains("u32") && err.to_string().contains("String"),
        "{err}"
    );
    let right = bare.with_services(Services::new().with_fetcher(Arc::new(String::from("net"))));
    assert!(f.build(&needs_fetcher, &right).is_ok());
    assert!(right_store_is_missing(&right));
}

fn right_store_is_missing(ctx: &BuildContext) -> bool {
    matches!(
        ctx.store::<String>(),
        Err(FactoryError::MissingService("store"))
    ) && matches!(
        ctx.analyzer(),
        Err(FactoryError::MissingService("analyzer"))
    )
}

#[test]
fn a_kind_from_two_crates_is_an_error_naming_both() {
    let mut registry = Registry::linked().unwrap();
    assert!(registry.kinds().contains(&"test-nothing"));
    // The same factory again (one crate) is kept once.
    registry
        .add(ProviderFactory::of::<NothingConfig>("sgw-contract"))
        .unwrap();
    let err = registry
        .add(ProviderFactory::of::<NothingConfig>("other-crate"))
        .unwrap_err();
    assert_eq!(
        err,
        DuplicateKind {
            kind: "test-nothing",
            first: "sgw-contract",
            second: "other-crate"
        }
    );
    let message = err.to_string();
    assert!(
        message.contains("`sgw-contract`") && message.contains("`other-crate`"),
        "{message}"
    );
}
