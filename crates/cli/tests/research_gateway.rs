//! The `research` binary with the search gateway behind it, against the simulated
//! web: search → sources.json / gates.json, extract → findings with verbatim quotes,
//! gates --resolve → the gateway's human intake, mark done → promotion. Plus the usage
//! and not-found exit codes of the gateway verbs.

use assert_cmd::Command;
use serde_json::Value;
use sgw_testkit::{Captcha, Cdn, Fault, Response, SimWeb, pages};
use std::path::{Path, PathBuf};

const OFFICE: &str = "office.test";
const RATE_SENTENCE: &str = "The policy interest rate is 4.50% from 1 March 2026.";

fn research(root: &Path) -> Command {
    let mut cmd = Command::cargo_bin("research").unwrap();
    cmd.env("PA_REPO_ROOT", root)
        .env_remove("DAVE_REPO_ROOT")
        .env_remove("SGW_POLICY")
        .env_remove("SGW_STORE");
    cmd
}

/// Runs `research args…`, asserts the exit code, returns stdout.
fn ok(root: &Path, args: &[&str]) -> String {
    let out = research(root).args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "research {args:?}\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(root: &Path, args: &[&str]) -> Value {
    let text = ok(root, args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn code(root: &Path, args: &[&str]) -> i32 {
    research(root)
        .args(args)
        .output()
        .unwrap()
        .status
        .code()
        .unwrap()
}

fn new_session(root: &Path, question: &str) -> String {
    let out = ok(root, &["run", "--mode", "normal", "--question", question]);
    out.lines()
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string()
}

/// The office's knowledge base answers `/kb?q=…`: a fee question meets a CAPTCHA,
/// anything else the rate page.
fn serve(web: &SimWeb) {
    let port = web.addr().port();
    web.route_fn(OFFICE, "/kb", move |req| {
        let q = req.query_param("q").unwrap_or_default().to_lowercase();
        if q.contains("fee") {
            Fault::Captcha(Captcha::Recaptcha).response(req, port).into()
        } else if q.contains("permit") {
            Fault::CdnBlock(Cdn::Cloudflare).response(req, port).into()
        } else {
            Response::html(pages::article(
                "Policy interest rate",
                "Test Statistics Office",
                "2026-03-01",
                &[
                    RATE_SENTENCE,
                    "The rate applies to the main refinancing operations and is reviewed every six weeks.",
                    "Earlier decisions are listed in the archive of monetary policy statements.",
                ],
            ))
            .into()
        }
    });
    web.route(
        OFFICE,
        "/permits",
        Response::html(pages::article(
            "Permits",
            "Test Statistics Office",
            "2026-02-01",
            &["A building permit takes 30 days to process since 2025."],
        )),
    );
}

/// A policy binding `official-site` (the office in the `sources:` registry) and
/// human intake, with the simulated web's network section.
fn policy(web: &SimWeb, dir: &Path) -> PathBuf {
    let entry = format!("{}?q={{query}}", web.url(OFFICE, "/kb"));
    let mut y = String::from("version: 1\nname: research-gateway-test\n");
    y.push_str(&format!(
        "sources:\n  office:\n    publisher: Test Statistics Office\n    tier: OFFICIAL_PRIMARY\n    domains: [{OFFICE}]\n    entry_urls: [\"{entry}\"]\n"
    ));
    y.push_str("execution:\n  deadline_ms: 20000\n  target_confidence: 0.85\n");
    y.push_str("providers:\n");
    y.push_str("  direct_official_adapter:\n    - { kind: official-site, timeout_ms: 8000 }\n");
    y.push_str("  user_supplied_evidence_request:\n    - { kind: human-intake }\n");
    y.push_str(&web.policy_fragment());
    y.push_str("  retries: { max: 0 }\n");
    let path = dir.join("policy.yaml");
    std::fs::write(&path, y).unwrap();
    path
}

#[test]
fn a_session_researched_through_the_gateway() {
    let web = SimWeb::start_detached();
    serve(&web);
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    let gw = tempfile::tempdir().unwrap();
    let policy = policy(&web, gw.path());
    let policy = policy.to_str().unwrap();
    let store = gw.path().join("evidence.sqlite");
    let store = store.to_str().unwrap();
    let gwargs = ["--policy", policy, "--store", store];

    let question = "What does the statistics office publish about rates and fees?";
    let id = new_session(r, question);
    ok(
        r,
        &["plan", &id, "--add", "What is the policy interest rate?"],
    );
    ok(
        r,
        &[
            "plan",
            &id,
            "--add",
            "What fee does the office charge for certificates?",
        ],
    );

    // sq-1: answered by the official page.
    let mut args = vec!["search", id.as_str(), "--sub-question", "sq-1", "--json"];
    args.extend(gwargs);
    let s1 = json(r, &args);
    let sources = s1["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 1, "{s1:#}");
    assert_eq!(sources[0]["sourceId"], "s1-1");
    assert_eq!(sources[0]["sourceQuality"], "primary");
    assert_eq!(sources[0]["tier"], "OFFICIAL_PRIMARY");
    assert!(sources[0]["url"].as_str().unwrap().contains("/kb?q="));
    assert!(
        sources[0]["evidenceId"]
            .as_str()
            .unwrap()
            .starts_with("ev-"),
        "{s1:#}"
    );
    assert_eq!(s1["gates"].as_array().unwrap().len(), 0, "{s1:#}");

    // sq-2: the page is behind a CAPTCHA → a gate, nothing kept.
    let mut args = vec!["search", id.as_str(), "--sub-question", "sq-2", "--json"];
    args.extend(gwargs);
    let s2 = json(r, &args);
    assert_eq!(s2["sources"].as_array().unwrap().len(), 0, "{s2:#}");
    let gates = s2["gates"].as_array().unwrap();
    assert_eq!(gates.len(), 1, "{s2:#}");
    assert_eq!(gates[0]["gateId"], "g-1");
    assert_eq!(gates[0]["gateType"], "captcha");
    assert_eq!(gates[0]["subQuestionId"], "sq-2");
    assert_eq!(gates[0]["status"], "pending");
    assert!(gates[0]["url"].as_str().unwrap().contains("/kb?q="));
    assert!(
        gates[0]["whatIsNeeded"]
            .as_str()
            .unwrap()
            .contains("CAPTCHA")
    );
    assert!(
        s2["failureCodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "SEARCH_PROVIDER_CAPTCHA"),
        "{s2:#}"
    );
    // The session files say the same.
    let shown = json(r, &["show", &id, "--json"]);
    assert_eq!(shown["manifest"]["status"], "in-progress");
    assert_eq!(shown["sources"].as_array().unwrap().len(), 1);
    assert_eq!(shown["gates"].as_array().unwrap().len(), 1);
    // Searching again keeps the source id and does not queue the gate twice.
    let mut args = vec!["search", id.as_str(), "--sub-question", "sq-2", "--json"];
    args.extend(gwargs);
    let again = json(r, &args);
    assert_eq!(again["gates"].as_array().unwrap().len(), 0);
    assert_eq!(again["duplicateGates"], 1);

    // extract sq-1: claims quoted verbatim from the stored evidence.
    let mut args = vec!["extract", id.as_str(), "--sub-question", "sq-1", "--json"];
    args.extend(gwargs);
    let e1 = json(r, &args);
    let finding = &e1["findings"][0];
    assert_eq!(finding["subQuestionId"], "sq-1");
    assert_eq!(finding["confidence"], "high", "{e1:#}");
    assert_eq!(finding["unsourcedClaims"], 0);
    let claims = finding["claims"].as_array().unwrap();
    assert!(!claims.is_empty(), "{e1:#}");
    assert_eq!(claims[0]["quote"], RATE_SENTENCE, "{e1:#}");
    assert_eq!(claims[0]["importance"], "central");
    assert_eq!(claims[0]["sourceId"], "s1-1");
    assert_eq!(claims[0]["sourceQuality"], "primary");
    assert_eq!(e1["aborted"], false);

    // The wrong evidence store: refused, the finding is not overwritten with nothing.
    let other_store = gw.path().join("other.sqlite");
    let e_wrong = research(r)
        .args(["extract", &id, "--sub-question", "sq-1", "--policy", policy])
        .args(["--store", other_store.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(e_wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e_wrong.stderr).contains("evidence store"));
    let shown = json(r, &["show", &id, "--json"]);
    assert_eq!(shown["findings"][0]["claims"][0]["quote"], RATE_SENTENCE);

    // extract sq-2 before the gate is cleared: nothing to read.
    let mut args = vec!["extract", id.as_str(), "--sub-question", "sq-2"];
    args.extend(gwargs);
    assert_eq!(code(r, &args), 2);

    // gates --resolve: the person pastes the page text.
    let pasted = "Certificates\n\nThe fee for a certificate is 25 EUR since 1 January 2026.";
    let mut args = vec![
        "gates",
        "--resolve",
        id.as_str(),
        "g-1",
        "--text",
        pasted,
        "--json",
    ];
    args.extend(gwargs);
    let resolved = json(r, &args);
    assert_eq!(resolved["gate"]["status"], "resolved");
    let ev = resolved["gate"]["evidenceId"].as_str().unwrap().to_string();
    assert!(ev.starts_with("ev-"), "{resolved:#}");
    assert_eq!(resolved["evidence"]["evidenceId"], ev.as_str());
    assert!(
        resolved["evidence"]["requestId"]
            .as_str()
            .unwrap()
            .starts_with("hr-")
    );
    assert_eq!(resolved["sourceId"], "s2-1");
    // The gateway's own request for the blocked URL is the one resolved.
    assert!(
        s2["humanRequestId"].as_str().unwrap().starts_with("hr-"),
        "{s2:#}"
    );
    assert_eq!(resolved["evidence"]["requestId"], s2["humanRequestId"]);
    // Resolving twice is refused.
    let mut args = vec!["gates", "--resolve", id.as_str(), "g-1", "--text", "again"];
    args.extend(gwargs);
    assert_eq!(code(r, &args), 2);

    // The supplied evidence now grounds sq-2's finding.
    let mut args = vec!["extract", id.as_str(), "--sub-question", "sq-2", "--json"];
    args.extend(gwargs);
    let e2 = json(r, &args);
    let claims = e2["findings"][0]["claims"].as_array().unwrap();
    assert_eq!(
        claims[0]["quote"], "The fee for a certificate is 25 EUR since 1 January 2026.",
        "{e2:#}"
    );
    assert_eq!(claims[0]["sourceQuality"], "userSupplied");

    // An extractor's own return, recorded as-is; a paraphrased quote is refused.
    let from = serde_json::json!({
        "subQuestionId": "sq-1",
        "claims": [{
            "claimId": "c-1",
            "text": "Rate reviews happen every six weeks",
            "quote": "is reviewed every six weeks",
            "sourceId": "s1-1",
            "importance": "supporting",
            "sourceQuality": "primary"
        }],
        "unsourcedClaims": 0,
        "notes": "from a worker"
    });
    let mut args = vec![
        "extract",
        id.as_str(),
        "--sub-question",
        "sq-1",
        "--from",
        "-",
        "--json",
    ];
    args.extend(gwargs);
    let out = research(r)
        .args(&args)
        .write_stdin(from.to_string())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bad = from
        .to_string()
        .replace("is reviewed every", "gets reviewed every");
    let out = research(r).args(&args).write_stdin(bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("verbatim"));

    // The synthesis writes answer.md (workflow-side); mark done promotes it.
    let session_dir = r.join(".cache/research/sessions").join(&id);
    std::fs::write(
        session_dir.join("answer.md"),
        "The policy interest rate is 4.50%; a certificate costs 25 EUR.\n",
    )
    .unwrap();
    let marked = ok(r, &["mark", "done", &id]);
    assert!(marked.contains("promoted to"), "{marked}");
    let knowledge = r.join("operator/knowledge/research");
    let docs: Vec<_> = std::fs::read_dir(&knowledge)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(docs.len(), 1);
    let doc = std::fs::read_to_string(&docs[0]).unwrap();
    assert!(doc.contains(&format!("# {question}")), "{doc}");
    assert!(doc.contains("sourceCount: 2"), "{doc}");
    assert!(doc.contains("gatedCount"), "{doc}");
}

#[test]
fn gates_resolved_with_a_file_and_a_url() {
    let web = SimWeb::start_detached();
    serve(&web);
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    let gw = tempfile::tempdir().unwrap();
    let policy = policy(&web, gw.path());
    let store = gw.path().join("evidence.sqlite");
    let gwargs = [
        "--policy",
        policy.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
    ];
    let id = new_session(r, "What do certificates and permits cost?");
    ok(
        r,
        &[
            "plan",
            &id,
            "--add",
            "What fee is charged for a certificate?",
        ],
    );
    ok(r, &["plan", &id, "--add", "How long does a permit take?"]);
    for sq in ["sq-1", "sq-2"] {
        let mut args = vec!["search", id.as_str(), "--sub-question", sq];
        args.extend(gwargs);
        let text = ok(r, &args);
        assert!(
            text.contains("kept 0 sources") && text.contains("queued 1 gate"),
            "{text}"
        );
    }
    let gates = json(r, &["gates", "--list", &id, "--json"]);
    let types: Vec<&str> = gates
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["gateType"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["captcha", "cloudflare"], "{gates:#}");

    // A file that is not evidence (binary) is refused and changes nothing.
    let png = r.join("x.png");
    std::fs::write(&png, [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]).unwrap();
    let mut args = vec!["gates", "--resolve", id.as_str(), "g-1", "--file"];
    args.push(png.to_str().unwrap());
    args.extend(gwargs);
    assert_eq!(code(r, &args), 1);
    let gates = json(r, &["gates", "--list", &id, "--json"]);
    assert_eq!(gates[0]["status"], "pending");
    // A saved HTML page for the CAPTCHA gate.
    let page = r.join("saved.html");
    std::fs::write(
        &page,
        pages::article(
            "Certificate fees",
            "Test Statistics Office",
            "2026-01-01",
            &["The fee for a certificate is 25 EUR since 1 January 2026."],
        ),
    )
    .unwrap();
    let mut args = vec!["gates", "--resolve", id.as_str(), "g-1", "--file"];
    args.push(page.to_str().unwrap());
    args.push("--json");
    args.extend(gwargs);
    let g1 = json(r, &args);
    assert_eq!(g1["gate"]["status"], "resolved");
    assert_eq!(g1["evidence"]["title"], "Certificate fees");
    // A readable copy of the blocked page, fetched through the network layer.
    let copy = web.url(OFFICE, "/permits").to_string();
    let mut args = vec![
        "gates",
        "--resolve",
        id.as_str(),
        "g-2",
        "--url",
        copy.as_str(),
    ];
    args.push("--note");
    args.push("the office's own permit page");
    args.push("--json");
    args.extend(gwargs);
    let g2 = json(r, &args);
    assert_eq!(g2["gate"]["status"], "resolved");
    assert_eq!(g2["gate"]["resolutionNote"], "the office's own permit page");
    assert_eq!(g2["sourceId"], "s2-1");
    // Both pieces of evidence ground claims.
    for (sq, fact) in [("sq-1", "25 EUR"), ("sq-2", "30 days")] {
        let mut args = vec!["extract", id.as_str(), "--sub-question", sq, "--json"];
        args.extend(gwargs);
        let e = json(r, &args);
        let claim = &e["findings"][0]["claims"][0];
        assert!(claim["quote"].as_str().unwrap().contains(fact), "{e:#}");
        assert_eq!(claim["sourceQuality"], "userSupplied");
    }
}

#[test]
fn gateway_verbs_usage_and_not_found() {
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    let id = new_session(r, "What is a ULID?");
    ok(r, &["plan", &id, "--add", "How is a ULID laid out?"]);
    let missing = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    // Bad sub-question id → 1; unknown sub-question → 2; unknown session → 2.
    assert_eq!(code(r, &["search", &id, "--sub-question", "q1"]), 1);
    assert_eq!(code(r, &["search", &id, "--sub-question", "sq-x"]), 1);
    assert_eq!(code(r, &["search", &id, "--sub-question", "sq-9"]), 2);
    assert_eq!(code(r, &["search", missing, "--sub-question", "sq-1"]), 2);
    assert_eq!(
        code(r, &["search", "not-an-id", "--sub-question", "sq-1"]),
        1
    );
    assert_eq!(code(r, &["search", &id]), 1);
    assert_eq!(code(r, &["extract", &id, "--sub-question", "sq-0"]), 1);
    assert_eq!(code(r, &["extract", missing, "--sub-question", "sq-1"]), 2);
    // No sources recorded yet: nothing to extract from.
    assert_eq!(code(r, &["extract", &id, "--sub-question", "sq-1"]), 2);
    // --from: garbage and a return for another sub-question are usage errors.
    let out = research(r)
        .args(["extract", &id, "--sub-question", "sq-1", "--from", "-"])
        .write_stdin(vec![0xff, 0x00, 0x7b])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let other = r#"{"subQuestionId":"sq-2","claims":[],"unsourcedClaims":0}"#;
    let out = research(r)
        .args(["extract", &id, "--sub-question", "sq-1", "--from", "-"])
        .write_stdin(other)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        code(
            r,
            &[
                "extract",
                &id,
                "--sub-question",
                "sq-1",
                "--from",
                "/nonexistent/x.json"
            ]
        ),
        1
    );
    // gates --resolve: exactly one evidence flag; unknown gate → 2; bad gate id → 1.
    assert_eq!(code(r, &["gates", "--resolve", &id, "g-1"]), 1);
    assert_eq!(
        code(
            r,
            &[
                "gates",
                "--resolve",
                &id,
                "g-1",
                "--text",
                "a",
                "--url",
                "http://x.test/"
            ]
        ),
        1
    );
    assert_eq!(
        code(r, &["gates", "--resolve", &id, "g-1", "--text", "a"]),
        2
    );
    assert_eq!(
        code(r, &["gates", "--resolve", &id, "gate-1", "--text", "a"]),
        1
    );
    assert_eq!(
        code(r, &["gates", "--resolve", missing, "g-1", "--text", "a"]),
        2
    );
    assert_eq!(code(r, &["gates", "--text", "a"]), 1);
    // A policy that is not a policy → 1, naming the file.
    let bad = r.join("bad-policy.yaml");
    std::fs::write(&bad, "providers: [").unwrap();
    let out = research(r)
        .args(["search", &id, "--sub-question", "sq-1", "--policy"])
        .arg(&bad)
        .args(["--store", r.join("s.sqlite").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad-policy.yaml"));
}

#[test]
fn without_a_gateway_the_verbs_say_so() {
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    let id = new_session(r, "What is a ULID?");
    ok(r, &["plan", &id, "--add", "How is a ULID laid out?"]);
    let env = sgw_cli::research::Env::fixed(r, sgw_cli::research::Env::from_process().now);
    for args in [
        vec!["research", "search", id.as_str(), "--sub-question", "sq-1"],
        vec!["research", "extract", id.as_str(), "--sub-question", "sq-1"],
    ] {
        let (mut stdin, mut stdout, mut stderr) = (std::io::empty(), Vec::new(), Vec::new());
        let mut io = sgw_cli::research::Io {
            stdin: &mut stdin,
            stdout: &mut stdout,
            stderr: &mut stderr,
        };
        assert_eq!(sgw_cli::research::run(&args, &env, &mut io), 2, "{args:?}");
        let err = String::from_utf8(stderr).unwrap();
        assert!(err.contains("this build has no gateway"), "{err}");
    }
}
