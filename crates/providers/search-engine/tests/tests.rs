//! Integration tests against the simulated web (one binary, a module per topic).

// inventory registers only what is linked.
use sgw_provider_search_engine as _;

mod support;

mod brave;
mod json_search;
mod robustness;
mod searxng;

#[test]
fn every_kind_is_registered_for_its_step() {
    for kind in ["searxng", "brave", "json-search"] {
        let f = sgw_contract::factory(kind).unwrap_or_else(|| panic!("{kind} not registered"));
        assert_eq!(f.step, sgw_contract::ChainStep::SearchEngineProvider);
        assert_eq!(f.crate_name, "sgw-provider-search-engine");
    }
}
