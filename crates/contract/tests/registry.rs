//! The inventory registry and the service map.

use sgw_contract::{
    BuildContext, FactoryError, Provider, ProviderCall, ProviderError, ProviderFactory,
    ProviderReport, Services, factories, factory,
};
use std::sync::Arc;

struct Nothing;

#[async_trait::async_trait]
impl Provider for Nothing {
    async fn run(&self, _call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        Ok(ProviderReport::default())
    }
}

fn build(
    _config: &serde_json::Value,
    _ctx: &BuildContext,
) -> Result<Arc<dyn Provider>, FactoryError> {
    Ok(Arc::new(Nothing))
}

sgw_contract::inventory::submit! {
    ProviderFactory { kind: "test-nothing", step: "cached_evidence", crate_name: "tests", description: "does nothing", build }
}

#[test]
fn submitted_factories_are_found_and_sorted() {
    assert_eq!(factory("test-nothing").unwrap().step, "cached_evidence");
    let kinds: Vec<_> = factories().iter().map(|f| f.kind).collect();
    let mut sorted = kinds.clone();
    sorted.sort();
    assert_eq!(kinds, sorted);
    assert!(factory("no-such-kind").is_none());
}

#[test]
fn services_are_found_by_type() {
    let mut services = Services::new();
    services.insert(Arc::new(42u32));
    assert_eq!(*services.get::<u32>().unwrap(), 42);
    assert!(services.get::<String>().is_none());
    let err = services.require::<String>().unwrap_err();
    assert!(err.to_string().contains("String"), "{err}");
}
