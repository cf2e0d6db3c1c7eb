//! The example provider crate `examples/provider-hello`, used as a third
//! party would: it is outside the workspace members, builds on the SDK
//! crates by path, and ships its own five-line `sgw`. The test builds it with
//! cargo (offline, its own target directory under `target/`), then runs that
//! `sgw`: `providers --json` lists the example's kind, and a search on the
//! simulated web (loopback) is answered by it.

use serde_json::Value;
use sgw_testkit::{Response, SimWeb, pages};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The example's `sgw`, built once per test binary.
fn custom_sgw() -> &'static Path {
    static SGW: OnceLock<PathBuf> = OnceLock::new();
    SGW.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let target = root.join("target/provider-hello");
        let out = Command::new(env!("CARGO"))
            .args(["build", "--offline", "--quiet", "--manifest-path"])
            .arg(root.join("examples/provider-hello/Cargo.toml"))
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "building examples/provider-hello failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        target
            .join("debug")
            .join(format!("sgw{}", std::env::consts::EXE_SUFFIX))
    })
}

/// Runs the custom `sgw` off the async runtime (the simulated web runs on it).
async fn sgw(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        Command::new(custom_sgw())
            .args(&args)
            .output()
            .expect("the custom sgw runs")
    })
    .await
    .expect("no panic")
}

#[tokio::test]
async fn the_custom_sgw_lists_the_example_kind_with_every_built_in_one() {
    let out = sgw(vec!["providers".into(), "--json".into()]).await;
    assert!(out.status.success(), "{out:?}");
    let rows: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let hello = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "hello")
        .unwrap_or_else(|| panic!("no `hello` kind in {rows}"));
    assert_eq!(hello["crate"], "provider-hello");
    assert_eq!(hello["step"], "structured_api_or_feed");
    // The facade's own kinds are all there too.
    for kind in search_gateway::registry(&[]).unwrap().kinds() {
        assert!(
            rows.as_array().unwrap().iter().any(|r| r["kind"] == kind),
            "{kind} missing from {rows}"
        );
    }
}

#[tokio::test]
async fn the_hello_provider_answers_a_search_on_the_simulated_web() {
    let web = SimWeb::start().await;
    web.route(
        "hello.test",
        "/greeting",
        Response::html(pages::article(
            "The hello example",
            "Hello Publisher",
            "2026-01-15",
            &["The hello example provider greets the world from its own crate."],
        )),
    );
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("hello.yaml");
    std::fs::write(
        &policy,
        format!(
            "version: 1\nname: hello\nfallback_chain: [structured_api_or_feed]\nproviders:\n  structured_api_or_feed:\n    - kind: hello\n      config: {{ url: \"{}\" }}\n{}",
            web.url("hello.test", "/greeting"),
            web.policy_fragment()
        ),
    )
    .unwrap();
    let out = sgw(vec![
        "search".into(),
        "hello example provider".into(),
        "--policy".into(),
        policy.display().to_string(),
        "--no-store".into(),
        "--json".into(),
    ])
    .await;
    let result: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let sources = result["sources"].as_array().expect("sources");
    assert!(
        sources
            .iter()
            .any(|s| s["url"].as_str().unwrap_or("").contains("hello.test")),
        "{result:#}"
    );
    assert!(
        result["attempts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["provider"] == "hello"),
        "{result:#}"
    );
}
