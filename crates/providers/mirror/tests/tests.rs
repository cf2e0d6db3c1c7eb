//! Integration tests against the simulated web (one binary, a module per topic).

// inventory registers only what is linked.
use sgw_provider_mirror as _;

mod support;

mod mirror;
mod robustness;
mod web_archive;

#[test]
fn every_kind_is_registered_for_its_step() {
    for kind in ["web-archive", "mirror"] {
        let f = sgw_contract::factory(kind).unwrap_or_else(|| panic!("{kind} not registered"));
        assert_eq!(f.step, sgw_contract::ChainStep::AuthoritativeMirrorOrMedia);
        assert_eq!(f.crate_name, "sgw-provider-mirror");
    }
}
