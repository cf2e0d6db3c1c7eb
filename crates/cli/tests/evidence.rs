//! `sgw evidence` and `sgw cache` as a user runs them, against the simulated
//! web: the whole human evidence loop (blocked query → request → submission →
//! answer from cache), bad submissions that change nothing, purge rules, and
//! two processes sharing one store (SQLite always, PostgreSQL when
//! `SGW_TEST_POSTGRES_URL` is set).

use assert_cmd::Command;
use serde_json::Value;
use sgw_testkit::{Captcha, Cdn, Fault, Response, SimWeb, pages, searxng};
use std::path::{Path, PathBuf};
use std::process::Output;

const QUERY: &str = "central bank interest rate";
const PG_ENV: &str = "SGW_TEST_POSTGRES_URL";

/// The simulated web, a policy pointing at it and a store location.
struct World {
    web: SimWeb,
    dir: tempfile::TempDir,
    policy: PathBuf,
    store: String,
    /// The `official-site` kind is linked: the query carries a `--url` hint.
    official_site: bool,
}

fn kinds() -> Vec<String> {
    let out = Command::cargo_bin("sgw")
        .unwrap()
        .args(["providers", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["kind"].as_str().map(str::to_string))
        .collect()
}

impl World {
    /// `official.test/rates` is `page` (an article when `None`); the search
    /// engine (`search.test`) lists it with an unrelated snippet.
    async fn new(blocked: Option<Fault>, store: Option<String>) -> World {
        let web = SimWeb::start().await;
        match blocked {
            Some(f) => web.route("official.test", "/rates", f),
            None => web.route(
                "official.test",
                "/rates",
                Response::html(pages::article(
                    "Interest rate decision",
                    "Official Bank",
                    "2026-01-15",
                    &["The central bank interest rate is 4.5% from 15 January 2026."],
                )),
            ),
        }
        let hit = web.url("official.test", "/rates").to_string();
        web.route_fn("search.test", "/search", move |req| {
            let q = req.query_param("q").unwrap_or_default();
            searxng::results(
                &q,
                &[searxng::SearxResult::new(
                    &hit,
                    "Portal",
                    "Welcome to the portal",
                    "bing",
                )],
            )
            .into()
        });
        web.route(
            "good.test",
            "/notice",
            Response::html(pages::article(
                "Notice",
                "Good Office",
                "2026-01-20",
                &["Notice: the central bank interest rate is 4.5% as published."],
            )),
        );
        web.route("cdn.test", "/notice", Fault::CdnBlock(Cdn::Cloudflare));
        let dir = tempfile::tempdir().unwrap();
        let official_site = kinds().iter().any(|k| k == "official-site");
        let direct = if official_site {
            "  direct_official_adapter:\n    - kind: official-site\n"
        } else {
            ""
        };
        let yaml = format!(
            "version: 1
name: evidence-test
tiering:
  - {{ domain: official.test, tier: OFFICIAL_PRIMARY }}
execution:
  deadline_ms: 20000
  target_confidence: 0.85
  max_sources: 4
  relevance_threshold: 0.5
providers:
{direct}  search_engine_provider:
    - kind: searxng
      config: {{ base_url: \"{}\", read_top: 1 }}
  cached_evidence:
    - kind: evidence-cache
  user_supplied_evidence_request:
    - kind: human-intake
{}",
            web.url("search.test", "/").as_str().trim_end_matches('/'),
            web.policy_fragment()
        );
        let policy = dir.path().join("policy.yaml");
        std::fs::write(&policy, yaml).unwrap();
        let store = store.unwrap_or_else(|| dir.path().join("store.sqlite").display().to_string());
        World {
            web,
            dir,
            policy,
            store,
            official_site,
        }
    }

    fn sgw(&self, args: &[&str]) -> Output {
        let mut cmd = Command::cargo_bin("sgw").unwrap();
        cmd.env_remove("SGW_STORE")
            .env_remove("SGW_POLICY")
            .env_remove("RUST_LOG")
            .args(args)
            .arg("--policy")
            .arg(&self.policy)
            .arg("--store")
            .arg(&self.store);
        tokio::task::block_in_place(|| cmd.output().unwrap())
    }

    /// `sgw` with PATH emptied (no `tesseract`).
    fn sgw_without_path(&self, args: &[&str]) -> Output {
        let empty = self.dir.path().join("empty-bin");
        std::fs::create_dir_all(&empty).unwrap();
        let mut cmd = Command::cargo_bin("sgw").unwrap();
        cmd.env("PATH", &empty)
            .env_remove("SGW_STORE")
            .env_remove("SGW_POLICY")
            .args(args)
            .arg("--policy")
            .arg(&self.policy)
            .arg("--store")
            .arg(&self.store);
        tokio::task::block_in_place(|| cmd.output().unwrap())
    }

    fn search(&self) -> Output {
        let hint = self.web.url("official.test", "/rates").to_string();
        let mut args = vec!["search", QUERY, "--json"];
        if self.official_site {
            args.extend(["--url", hint.as_str()]);
        }
        self.sgw(&args)
    }

    fn json(&self, args: &[&str]) -> Value {
        let out = self.sgw(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", show(&out));
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", show(&out)))
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs the blocked search and returns the request id it opened.
fn blocked_request(w: &World) -> String {
    let out = w.search();
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = r["failure_codes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(codes.contains(&"HUMAN_EVIDENCE_REQUIRED"), "{codes:?}");
    r["human_request_id"]
        .as_str()
        .expect("a human request id in the JSON")
        .to_string()
}

fn penalty(codes: &[Value]) -> f64 {
    codes
        .iter()
        .filter_map(Value::as_str)
        .map(|c| match c {
            "SOURCE_CONFLICT_NEEDS_REVIEW" => 0.25,
            "SEARCH_RESULT_TRUNCATED" => 0.05,
            "SOURCE_EXTRACTION_FAILED" | "OFFICIAL_SOURCE_FOUND_BUT_EXTRACTION_FAILED" => 0.08,
            "EVIDENCE_CACHE_STALE" => 0.10,
            "HUMAN_EVIDENCE_REQUIRED" => 0.15,
            _ => 0.0,
        })
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_human_evidence_loop_from_a_captcha_to_an_answer_from_cache() {
    let w = World::new(Some(Fault::Captcha(Captcha::Recaptcha)), None).await;
    let id = blocked_request(&w);
    assert!(id.starts_with("hr-"), "{id}");

    // The request names the blocked URL, its gate and what is needed.
    let requests = w.json(&["evidence", "requests", "--status", "open", "--json"]);
    let req = &requests.as_array().unwrap()[0];
    assert_eq!(req["id"], id.as_str());
    let blocked_url = w.web.url("official.test", "/rates").to_string();
    let blocked = req["blocked"].as_array().unwrap();
    assert_eq!(blocked[0]["url"], blocked_url.as_str(), "{req:#}");
    assert_eq!(blocked[0]["gate"], "captcha");
    let needed = blocked[0]["needed"].as_str().unwrap();
    assert!(
        needed.contains("pass the CAPTCHA") && needed.contains("sgw evidence submit"),
        "{needed}"
    );
    let shown = w.sgw(&["evidence", "show", &id]);
    assert_eq!(shown.status.code(), Some(0), "{}", show(&shown));
    assert!(String::from_utf8_lossy(&shown.stdout).contains("[captcha]"));
    assert!(
        String::from_utf8_lossy(&shown.stdout).contains(&format!(
            "pass the CAPTCHA, and submit the page as a PDF, a screenshot, the URL or pasted text with `sgw evidence submit {id}`"
        )),
        "{}",
        show(&shown)
    );

    // A second blocked run reuses the open request.
    assert_eq!(blocked_request(&w), id);

    // The person saves the page as a PDF; sgw-extract's pdf feature reads it.
    let pdf =
        sgw_testkit::pdf::tiny("The central bank interest rate is 4.5 percent from January 2026.");
    let doc = sgw_extract::extract(&pdf, None, None).expect("the pdf feature reads the test PDF");
    assert!(
        doc.text.contains("central bank interest rate"),
        "{:?}",
        doc.text
    );
    let file = w.write("page.pdf", &pdf);
    let submitted = w.json(&[
        "evidence",
        "submit",
        &id,
        "--file",
        path_str(&file),
        "--json",
    ]);
    assert_eq!(submitted["status"], "resolved");
    assert_eq!(submitted["extraction_method"], "user-pdf");
    let ev_id = submitted["evidence_id"].as_str().unwrap().to_string();
    assert!(ev_id.starts_with("ev-"));

    // The same query now answers from the cache, as user-supplied evidence.
    let hits_before = w.web.hits("official.test", "/rates");
    let out = w.search();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["from_cache"], true, "{r:#}");
    assert_eq!(
        w.web.hits("official.test", "/rates"),
        hits_before,
        "the chain did not run"
    );
    let sources = r["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 1);
    assert_eq!(sources[0]["tier"], "USER_SUPPLIED_EVIDENCE");
    assert_eq!(r["evidence_ids"][0], ev_id.as_str());
    let expected = 0.5 - penalty(r["failure_codes"].as_array().unwrap());
    let confidence = r["confidence"].as_f64().unwrap();
    assert!(
        (confidence - expected).abs() < 1e-9,
        "{confidence} vs {expected}"
    );
    assert_eq!(r["confidence_level"], "low");

    // The evidence, the resolved request and the cache entry are visible.
    let ev = w.json(&["evidence", "show", &ev_id, "--json"]);
    assert_eq!(ev["evidence"]["tier"], "USER_SUPPLIED_EVIDENCE");
    assert!(
        ev["evidence"]["evidence"]["text"]
            .as_str()
            .unwrap()
            .contains("4.5 percent")
    );
    let text = w.sgw(&["evidence", "show", &ev_id]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("4.5 percent"));
    let req = w.json(&["evidence", "show", &id, "--json"]);
    assert_eq!(req["status"], "resolved");
    assert_eq!(req["evidence_id"], ev_id.as_str());
    let entries = w.json(&["cache", "list", "--json"]);
    assert_eq!(entries.as_array().unwrap().len(), 1);
    let cached = w.json(&["cache", "show", QUERY, "--json"]);
    assert_eq!(cached[0]["stale"], false);
    assert_eq!(cached[0]["evidence_ids"][0], ev_id.as_str());
    let stats = w.json(&["cache", "stats", "--json"]);
    assert_eq!(stats["requests_resolved"], 1);
    assert_eq!(stats["requests_open"], 0);

    // A resolved request takes no second submission.
    let again = w.sgw(&["evidence", "submit", &id, "--text", "something else"]);
    assert_eq!(again.status.code(), Some(2), "{}", show(&again));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_submissions_exit_1_and_change_nothing() {
    let w = World::new(Some(Fault::CdnBlock(Cdn::Akamai)), None).await;
    let id = blocked_request(&w);
    let req = w.json(&["evidence", "show", &id, "--json"]);
    assert_eq!(req["blocked"][0]["gate"], "cdn");

    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let mut big = b"<html><body><p>".to_vec();
    big.resize((20 << 20) + 1, b'a');
    let cases: Vec<(PathBuf, &str)> = vec![
        (w.write("garbage.bin", &garbage), "garbage.bin"),
        (
            w.write("zip.zip", b"PK\x03\x04\x14\x00\x00\x00binary zip data here"),
            "zip.zip",
        ),
        (w.write("big.html", &big), "limit"),
        (
            w.write("corrupt.pdf", &sgw_testkit::pdf::broken()),
            "corrupt.pdf",
        ),
        (w.write("empty.txt", b"   \n\t "), "empty.txt"),
    ];
    for (path, says) in &cases {
        let out = w.sgw(&["evidence", "submit", &id, "--file", path_str(path)]);
        assert_eq!(out.status.code(), Some(1), "{path:?}: {}", show(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{path:?} error names it: {err}");
    }
    let missing = w.sgw(&["evidence", "submit", &id, "--file", "/nonexistent/page.pdf"]);
    assert_eq!(missing.status.code(), Some(1), "{}", show(&missing));

    // A screenshot with no OCR and no transcription asks for --text.
    let png = w.write(
        "shot.png",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0",
    );
    let out = w.sgw_without_path(&["evidence", "submit", &id, "--file", path_str(&png)]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--text"),
        "{}",
        show(&out)
    );

    // Nothing changed: the request is open, no evidence, no cache entry.
    let stats = w.json(&["cache", "stats", "--json"]);
    assert_eq!(stats["evidence"], 0, "{stats:#}");
    assert_eq!(stats["cache_entries"], 0);
    assert_eq!(stats["requests_open"], 1);

    // Unknown and malformed ids.
    let out = w.sgw(&[
        "evidence",
        "submit",
        "hr-01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "--text",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let out = w.sgw(&["evidence", "show", "xyz"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let out = w.sgw(&["evidence", "submit", &id]);
    assert_eq!(out.status.code(), Some(1), "no input: {}", show(&out));

    // A URL behind a CDN is refused by the network layer: exit 2 with the code.
    let cdn = w.web.url("cdn.test", "/notice").to_string();
    let out = w.sgw(&["evidence", "submit", &id, "--url", &cdn]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("SOURCE_BLOCKED_BY_CDN"),
        "{}",
        show(&out)
    );
    let stats = w.json(&["cache", "stats", "--json"]);
    assert_eq!(stats["evidence"], 0);

    // The screenshot with its transcription is accepted and kept.
    let out = w.sgw_without_path(&[
        "evidence",
        "submit",
        &id,
        "--file",
        path_str(&png),
        "--text",
        "Central bank interest rate: 4.5% from 15 January 2026",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["extraction_method"], "user-transcription");
    let stats = w.json(&["cache", "stats", "--json"]);
    assert_eq!(stats["screenshots"], 1);
    assert_eq!(stats["evidence"], 1);
    assert_eq!(stats["requests_resolved"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_submission_goes_through_the_network_layer() {
    let w = World::new(Some(Fault::JsShell), None).await;
    let id = blocked_request(&w);
    let good = w.web.url("good.test", "/notice").to_string();
    let v = w.json(&["evidence", "submit", &id, "--url", &good, "--json"]);
    assert_eq!(v["extraction_method"], "user-url-html");
    assert_eq!(v["url"], good.as_str());
    assert!(w.web.hits("good.test", "/notice") >= 1);
    let out = w.search();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        r["sources"][0]["tier"], "USER_SUPPLIED_EVIDENCE",
        "never upgraded: {r:#}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn purge_needs_a_filter_and_dry_run_deletes_nothing() {
    let w = World::new(None, None).await;
    let out = w.search();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let out = w.sgw(&["cache", "purge"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--older-than"));
    let dry = w.json(&["cache", "purge", "--older-than", "0", "--dry-run", "--json"]);
    assert_eq!(dry["cache_entries"], 1);
    assert_eq!(dry["dry_run"], true);
    let listed = dry["entries"]
        .as_array()
        .expect("the entries it would purge");
    assert_eq!(listed.len(), 1, "{dry:#}");
    assert_eq!(listed[0]["key"]["normalized_query"], QUERY, "{dry:#}");
    let text = w.sgw(&["cache", "purge", "--older-than", "0", "--dry-run"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("dry run: 1 cache entry would be purged") && text.contains("fresh"),
        "{text}"
    );
    let none = w.json(&["cache", "purge", "--stale", "--dry-run", "--json"]);
    assert_eq!(none["cache_entries"], 0);
    assert_eq!(none["entries"], serde_json::json!([]));
    assert_eq!(w.json(&["cache", "stats", "--json"])["cache_entries"], 1);
    let none = w.json(&["cache", "purge", "--stale", "--json"]);
    assert_eq!(none["cache_entries"], 0, "a fresh entry is not stale");
    let all = w.json(&["cache", "purge", "--older-than", "0", "--json"]);
    assert_eq!(all["cache_entries"], 1);
    assert!(all["evidence"].as_u64().unwrap() >= 1);
    let stats = w.json(&["cache", "stats", "--json"]);
    assert_eq!(stats["cache_entries"], 0);
    assert_eq!(stats["evidence"], 0);
    let out = w.sgw(&["cache", "show", QUERY]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
}

/// Process A searches and stores; process B (another `sgw`) answers the same
/// query from the shared store without touching the web.
async fn two_processes_share_one_store(store: Option<String>) {
    let w = World::new(None, store).await;
    let a = w.search();
    assert_eq!(a.status.code(), Some(0), "{}", show(&a));
    let a: Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(a["from_cache"], false);
    let hits = w.web.hits("official.test", "/rates");
    let b = w.search();
    assert_eq!(b.status.code(), Some(0), "{}", show(&b));
    let b: Value = serde_json::from_slice(&b.stdout).unwrap();
    assert_eq!(b["from_cache"], true, "{b:#}");
    assert_eq!(b["evidence_ids"], a["evidence_ids"]);
    assert_eq!(b["sources"][0]["tier"], "OFFICIAL_PRIMARY");
    assert_eq!(w.web.hits("official.test", "/rates"), hits);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_a_sqlite_store() {
    two_processes_share_one_store(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_a_postgres_store() {
    let Ok(base) = std::env::var(PG_ENV) else {
        println!("skipped: {PG_ENV} not set");
        return;
    };
    let schema = format!("cli_{}", std::process::id()) + &format!("_{}", rand_suffix());
    let admin = sqlx::PgPool::connect(&base)
        .await
        .unwrap_or_else(|e| panic!("{PG_ENV}={base}: {e}"));
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&admin)
        .await
        .unwrap();
    let sep = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{sep}options[search_path]={schema}");
    two_processes_share_one_store(Some(url)).await;
    sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
}

/// A per-run suffix for schema names (no extra crates).
fn rand_suffix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("{nanos:x}")
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_screenshot_is_read_by_tesseract_when_it_is_on_path() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new(Some(Fault::Captcha(Captcha::Hcaptcha)), None).await;
    let id = blocked_request(&w);
    // A stand-in `tesseract` that prints the text of the "image" (`IMAGE stdout`).
    let bin = w.dir.path().join("ocr-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("tesseract");
    std::fs::write(
        &script,
        "#!/bin/sh\n[ \"$2\" = stdout ] || exit 3\necho 'The central bank interest rate is 4.5% (read by OCR).'\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let jpeg = w.write(
        "shot.jpg",
        &[0xff, 0xd8, 0xff, 0xe0, 0, 0x10, b'J', b'F', b'I', b'F', 0],
    );
    let mut cmd = Command::cargo_bin("sgw").unwrap();
    cmd.env("PATH", &bin)
        .env_remove("SGW_STORE")
        .env_remove("SGW_POLICY")
        .args([
            "evidence",
            "submit",
            &id,
            "--file",
            path_str(&jpeg),
            "--json",
        ])
        .arg("--policy")
        .arg(&w.policy)
        .arg("--store")
        .arg(&w.store);
    let out = tokio::task::block_in_place(|| cmd.output().unwrap());
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["extraction_method"], "user-ocr");
    let ev = w.json(&[
        "evidence",
        "show",
        v["evidence_id"].as_str().unwrap(),
        "--json",
    ]);
    assert!(
        ev["evidence"]["evidence"]["text"]
            .as_str()
            .unwrap()
            .contains("read by OCR")
    );
    assert_eq!(ev["screenshots"][0]["mime"], "image/jpeg");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pasted_html_from_stdin_is_extracted() {
    let w = World::new(Some(Fault::Login(sgw_testkit::Login::FormPage)), None).await;
    let id = blocked_request(&w);
    let req = w.json(&["evidence", "show", &id, "--json"]);
    assert_eq!(req["blocked"][0]["gate"], "login", "{req:#}");
    let mut cmd = Command::cargo_bin("sgw").unwrap();
    cmd.env_remove("SGW_STORE")
        .env_remove("SGW_POLICY")
        .args(["evidence", "submit", &id, "--text", "-", "--json"])
        .arg("--policy")
        .arg(&w.policy)
        .arg("--store")
        .arg(&w.store)
        .write_stdin(
            "<html><head><title>Members: rates</title></head><body><main><p>The central bank \
             interest rate is <b>4.5%</b> for members and everyone else.</p></main></body></html>",
        );
    let out = tokio::task::block_in_place(|| cmd.output().unwrap());
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["extraction_method"], "user-html");
    assert_eq!(
        v["url"],
        w.web.url("official.test", "/rates").as_str(),
        "the blocked URL is the source"
    );
    let ev = w.json(&[
        "evidence",
        "show",
        v["evidence_id"].as_str().unwrap(),
        "--json",
    ]);
    let text = ev["evidence"]["evidence"]["text"].as_str().unwrap();
    assert!(text.contains("4.5%") && !text.contains("<b>"), "{text}");
    let out = w.search();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
}
