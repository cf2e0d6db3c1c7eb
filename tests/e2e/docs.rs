//! Tidy checks: the documentation names everything the code registers.

use search_gateway::FailureCode;

fn doc(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_provider_kind_has_a_policy_reference_section() {
    let reference = doc("policy-reference.md");
    for kind in search_gateway::registry(&[]).unwrap().kinds() {
        assert!(
            reference.contains(&format!("### `{kind}`")),
            "docs/policy-reference.md has no section for kind `{kind}`"
        );
    }
}

#[test]
fn every_failure_code_is_in_the_failure_code_table() {
    let table = doc("failure-codes.md");
    for code in FailureCode::ALL {
        assert!(
            table.contains(&format!("| `{}` |", code.as_str())),
            "docs/failure-codes.md has no row for {code}"
        );
    }
}

#[test]
fn every_chain_step_is_documented() {
    let reference = doc("policy-reference.md");
    for step in search_gateway::ChainStep::DEFAULT_CHAIN {
        assert!(
            reference.contains(&format!("`{}`", step.as_str())),
            "docs/policy-reference.md does not name step {step}"
        );
    }
}
