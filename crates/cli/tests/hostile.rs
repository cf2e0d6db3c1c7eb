//! Hostile input against the real `sgw` binary: a website, a file or a policy
//! must never crash it, hang it, exhaust its memory, drive the terminal or
//! get a wrong exit code. Each test is a regression test of a finding of the
//! hostile-input review (see docs/security.md).

use assert_cmd::Command;
use predicates::prelude::*;
use sgw_testkit::{Response, SimWeb, hostile};
use std::path::{Path, PathBuf};

fn sgw() -> Command {
    Command::cargo_bin("sgw").unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// A policy whose network section reaches the simulated web.
fn web_policy(dir: &Path, web: &SimWeb) -> PathBuf {
    write(
        dir,
        "web.yaml",
        format!("version: 1\nname: web\n{}", web.policy_fragment()).as_bytes(),
    )
}

#[test]
fn a_huge_crawl_delay_does_not_crash_the_fetch() {
    let web = SimWeb::start_detached();
    let dir = tempfile::tempdir().unwrap();
    for (i, delay) in ["99999999999999999999999", "18446744073709551615", "1e19"]
        .iter()
        .enumerate()
    {
        let host = format!("delay{i}.test");
        web.route(
            &host,
            "/robots.txt",
            Response::text(hostile::robots_crawl_delay(delay)),
        );
        web.route(
            &host,
            "/page",
            Response::html("<html><body><p>A page with enough words to be read.</p></body></html>"),
        );
    }
    let policy = web_policy(dir.path(), &web);
    for i in 0..3 {
        sgw()
            .args(["fetch", "--policy"])
            .arg(&policy)
            .arg(web.url(&format!("delay{i}.test"), "/page").as_str())
            .assert()
            .success()
            .stdout(predicate::str::contains("Classification OK"));
    }
}

#[test]
fn an_unreachable_origin_is_unreachable_not_a_robots_block() {
    // A closed loopback port: the connection (to robots.txt first) is refused.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let policy = write(
        dir.path(),
        "p.yaml",
        b"version: 1\nname: t\nnetwork:\n  resolve: { gone.test: 127.0.0.1 }\n  allow_hosts: [gone.test]\n  retries: { max: 0 }\n",
    );
    sgw()
        .args(["fetch", "--json", "--policy"])
        .arg(&policy)
        .arg(format!("http://gone.test:{port}/page"))
        .assert()
        .code(2)
        .stdout(predicate::str::contains("SOURCE_UNREACHABLE"))
        .stdout(predicate::str::contains("SOURCE_ROBOTS_DISALLOWED").not());
}

#[test]
fn a_pdf_that_inflates_past_the_memory_budget_is_refused_not_run() {
    let dir = tempfile::tempdir().unwrap();
    // ~100 MiB of path operators from a file of about 200 KiB: an unbounded
    // parser needs gigabytes for it.
    let bomb = write(
        dir.path(),
        "bomb.pdf",
        &hostile::pdf_inflation_bomb("0 0 m ", 18_000_000),
    );
    sgw()
        .arg("extract")
        .arg(&bomb)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("memory budget"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn a_pdf_parser_panic_is_an_error_without_a_backtrace() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = write(
        dir.path(),
        "panic.pdf",
        &hostile::pdf_that_panics_the_parser(),
    );
    sgw()
        .arg("extract")
        .arg(&pdf)
        .env("RUST_BACKTRACE", "1")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("PDF"))
        .stderr(predicate::str::contains("panicked").not())
        .stderr(predicate::str::contains("backtrace").not());
}

#[test]
fn reads_are_bounded_and_only_from_regular_files() {
    sgw()
        .args(["extract", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not a regular file"));
    let big = vec![b'a'; sgw_extract::PDF_MAX_BYTES + 10];
    sgw()
        .args(["extract", "-"])
        .write_stdin(big)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("larger than"));
}

#[test]
fn corrupt_gzip_and_binary_files_are_errors_not_text() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("truncated.gz", hostile::truncated_gzip()),
        ("corrupt.gz", hostile::corrupt_gzip()),
        ("random.bin", hostile::random_bytes(64 * 1024, 42)),
    ] {
        let file = write(dir.path(), name, &bytes);
        sgw()
            .arg("extract")
            .arg(&file)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("unsupported content"));
    }
}

#[test]
fn an_invalid_field_regex_is_a_usage_error() {
    sgw()
        .args([
            "search",
            "--no-store",
            "--field",
            "rate:text=([a-",
            "what is the rate",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not a valid regular expression"));
}

#[test]
fn terminal_escapes_from_pages_are_not_printed_raw() {
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "page.html", hostile::escape_page().as_bytes());
    let out = sgw().arg("extract").arg(&page).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{9b}'),
        "{stdout:?}"
    );
    assert!(
        !stdout.contains('\r') && !stdout.contains('\u{202e}'),
        "{stdout:?}"
    );
    assert!(
        stdout.contains("\\x1b]52"),
        "visible, not dropped: {stdout:?}"
    );

    let web = SimWeb::start_detached();
    web.route("esc.test", "/", Response::html(hostile::escape_page()));
    let policy = web_policy(dir.path(), &web);
    let out = sgw()
        .args(["fetch", "--policy"])
        .arg(&policy)
        .arg(web.url("esc.test", "/").as_str())
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
}

fn policy_error(yaml: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "p.yaml", yaml.as_bytes());
    let out = sgw().args(["policy", "check"]).arg(&file).assert().code(1);
    String::from_utf8_lossy(&out.get_output().stderr).into_owned()
}

#[test]
fn policy_values_that_would_panic_later_are_refused_with_a_line() {
    let e = policy_error(
        "version: 1\nname: t\nnetwork:\n  per_host_rate:\n    requests_per_second: 1e-12\n",
    );
    assert!(
        e.contains("p.yaml:5: network.per_host_rate.requests_per_second"),
        "{e}"
    );
    let e = policy_error(
        "version: 1\nname: t\nsuspension:\n  durations_secs:\n    SEARCH_PROVIDER_CAPTCHA: 315360000000\n",
    );
    assert!(
        e.contains("p.yaml:5: suspension.durations_secs.SEARCH_PROVIDER_CAPTCHA"),
        "{e}"
    );
    let e = policy_error("version: 1\nname: t\nexecution:\n  deadline_ms: 18446744073709551615\n");
    assert!(e.contains("p.yaml:4: execution.deadline_ms"), "{e}");
}

#[test]
fn policy_errors_name_their_key_and_line() {
    let e = policy_error("version: 1\nname: t\nnetwork:\n  per_host_concurrency: 0\n");
    assert!(e.contains("p.yaml:4: network.per_host_concurrency:"), "{e}");
    assert!(!e.contains("network.: network."), "{e}");
    let e = policy_error(
        "version: 1\nname: t\nproviders:\n  search_engine_provider:\n    - kind: searxng\n      timeout_msec: 5\n",
    );
    assert!(
        e.contains("p.yaml:6: providers.search_engine_provider[0].timeout_msec"),
        "{e}"
    );
    let e = policy_error(
        "version: 1\nname: t\nnetwork:\n  allow_private_networks: [\"10.0.0.0/33\"]\n",
    );
    assert!(
        e.contains("p.yaml:4: network.allow_private_networks"),
        "{e}"
    );
    let e =
        policy_error("version: 1\nname: t\nfallback_chain: [cached_evidence, cached_evidence]\n");
    assert!(e.contains("p.yaml:3: fallback_chain[1]"), "{e}");
    let e = policy_error("version: 1\nname: t\nstore:\n  url: ftp://x\n");
    assert!(
        e.contains("p.yaml:4: store.url: unsupported scheme `ftp`"),
        "{e}"
    );
    let e = policy_error(
        "version: 1\nname: t\nsource_priority:\n  OFFICIAL_PRIMARY:\n    confidence_bse: 0.9\n",
    );
    assert!(
        e.contains("p.yaml:5: source_priority.OFFICIAL_PRIMARY.confidence_bse"),
        "{e}"
    );
}

#[test]
fn a_store_that_refuses_writes_is_an_io_error_not_a_silent_success() {
    let world = sgw_testkit::world::World::start_detached();
    world.break_everything();
    let dir = tempfile::tempdir().unwrap();
    let policy = write(
        dir.path(),
        "world.yaml",
        world
            .policy(&sgw_testkit::world::PolicyOptions::default())
            .as_bytes(),
    );
    let db = dir.path().join("store.sqlite");
    // Create and migrate the store, then open it read-only.
    sgw()
        .args(["cache", "stats", "--store"])
        .arg(&db)
        .assert()
        .success();
    let read_only = format!("sqlite://{}?mode=ro", db.display());
    let out = sgw()
        .args([
            "search",
            sgw_testkit::world::QUESTION,
            "--json",
            "--store",
            &read_only,
        ])
        .arg("--policy")
        .arg(&policy)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "the human evidence request could not be recorded",
        ));
    // The printed result says so too, typed.
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        json["store_failures"][0]["write"], "human_request",
        "{json}"
    );
    assert_eq!(
        json["store_failures"][0]["kind"], "permission_denied",
        "{json}"
    );
}
