//! End-to-end scenarios: one binary, one module per topic.

#[test]
fn contract_links() {
    assert!(!sgw_contract::FailureCode::ALL.is_empty());
}
