//! The fuzz targets: every parser and decoder fed with hostile input, each
//! with its seeds (the test fixtures' documents), its tokens, its input size
//! and its time budget per input. A target returns normally or panics; a
//! panic, a run over the time budget or a peak RSS over the memory budget is
//! a failure (the supervisor in `main.rs` watches for the last two).

use sgw_testkit::{brave, feeds, hostile, pages, pdf, searxng};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One target.
pub struct Target {
    pub name: &'static str,
    /// What a clean run guarantees.
    pub guarantee: &'static str,
    /// Largest input generated.
    pub max_len: usize,
    /// Longest one input may take.
    pub time_budget: Duration,
    pub tokens: &'static [&'static str],
    pub seeds: fn() -> Vec<Vec<u8>>,
    pub run: fn(&mut State, &[u8]),
}

/// Per-worker state (a research root with one valid session, the provider kinds).
pub struct State {
    pub kinds: Vec<&'static str>,
    pub root: PathBuf,
    pub session: String,
}

impl State {
    pub fn new(scratch: &Path) -> State {
        let root = scratch.to_path_buf();
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("fuzz scratch directory");
        let out = research(
            &root,
            &["run", "--mode", "light", "--question", "What is a ULID?"],
            b"",
        );
        let session = out
            .lines()
            .next()
            .and_then(|l| l.rsplit(' ').next())
            .unwrap_or_default()
            .to_string();
        State {
            kinds: search_gateway::registry(&[])
                .map(|r| r.kinds())
                .unwrap_or_default(),
            root,
            session,
        }
    }
}

pub const TARGETS: &[Target] = &[
    Target {
        name: "policy",
        guarantee: "policy YAML: an error naming path and line, or a policy; never a panic, a hang or unbounded memory (size cap, YAML budget, value ranges)",
        max_len: 64 << 10,
        time_budget: Duration::from_secs(5),
        tokens: &[
            ": ",
            "- ",
            "&a ",
            "*a",
            "<<: *a",
            "{",
            "}",
            "[",
            "]",
            "network:\n  ",
            "providers:\n  search_engine_provider:\n    - kind: searxng\n",
            "suspension:\n  durations_secs:\n    SEARCH_PROVIDER_CAPTCHA: ",
            "requests_per_second: ",
            "deadline_ms: ",
            "timeout_ms: ",
            "store:\n  url: ",
            "allow_private_networks: [",
            "resolve: {",
            "patterns: [",
            "!!binary ",
            "? ",
        ],
        seeds: policy_seeds,
        run: |s, d| {
            let _ = sgw_orchestrator::Policy::from_bytes(d, Some("fuzz.yaml"), &s.kinds);
        },
    },
    Target {
        name: "robots",
        guarantee: "robots.txt: a decision and a Crawl-delay within the configured maximum, never a panic or overflow",
        max_len: 64 << 10,
        time_budget: Duration::from_secs(5),
        tokens: &[
            "User-agent: ",
            "Disallow: ",
            "Allow: ",
            "Crawl-delay: ",
            "Sitemap: ",
            "*",
            "$",
            "\n",
            "#",
        ],
        seeds: || {
            vec![
                sgw_testkit::robots::Robots::new()
                    .agent("*")
                    .disallow("/private")
                    .allow("/private/press")
                    .crawl_delay(2)
                    .text()
                    .into_bytes(),
                hostile::robots_crawl_delay("18446744073709551615").into_bytes(),
                b"User-agent: SearchGatewayBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n".to_vec(),
            ]
        },
        run: |_, d| {
            let max = Duration::from_secs(30);
            let (_, delay) =
                sgw_fetch::evaluate_robots("SearchGatewayBot", d, "/private/x?q=1", max);
            assert!(
                delay.is_none_or(|d| d <= max),
                "crawl delay {delay:?} over the clamp"
            );
        },
    },
    Target {
        name: "html",
        guarantee: "HTML extraction (charset sniffing, DOM, main text, metadata, passages, fields): never a panic or a hang",
        max_len: 256 << 10,
        time_budget: Duration::from_secs(10),
        tokens: &[
            "<p>",
            "</p>",
            "<div>",
            "<script>",
            "</script>",
            "<!--",
            "-->",
            "<meta charset=\"",
            "<title>",
            "<article>",
            "&amp;",
            "&#x",
            "<![CDATA[",
            "<table><tr><td>",
            "<html>",
            "<body>",
            "<a href=\"",
            "\">",
        ],
        seeds: html_seeds,
        run: |_, d| {
            let url = url::Url::parse("https://fuzz.example/page").ok();
            if let Ok(doc) = sgw_extract::extract(d, Some("text/html"), url.as_ref()) {
                let _ = doc.passages("what is the rate date", 5);
                let specs = [
                    sgw_extract::FieldSpec {
                        name: "rate".into(),
                        kind: sgw_extract::FieldKind::Percent,
                    },
                    sgw_extract::FieldSpec {
                        name: "date".into(),
                        kind: sgw_extract::FieldKind::Date,
                    },
                    sgw_extract::FieldSpec {
                        name: "amount".into(),
                        kind: sgw_extract::FieldKind::Money,
                    },
                ];
                let _ = doc.fields("what is the rate and since when", &specs);
            }
        },
    },
    Target {
        name: "feed",
        guarantee: "RSS, Atom and JSON Feed parsing: never a panic or a hang",
        max_len: 256 << 10,
        time_budget: Duration::from_secs(10),
        tokens: &[
            "<item>",
            "</item>",
            "<entry>",
            "<title>",
            "<link>",
            "<pubDate>",
            "<![CDATA[",
            "\"items\": [",
            "\"date_published\": \"",
            "&lt;",
            "<?xml version=\"1.0\"?>",
        ],
        seeds: feed_seeds,
        run: |_, d| {
            for ct in [
                "application/rss+xml",
                "application/atom+xml",
                "application/feed+json",
            ] {
                let _ = sgw_extract::extract(d, Some(ct), None);
            }
        },
    },
    Target {
        name: "pdf",
        guarantee: "PDF text: an error or text, within the worker's time and memory budget; never a panic, a backtrace or a runaway worker",
        max_len: 512 << 10,
        time_budget: sgw_extract::PDF_TIMEOUT.saturating_add(Duration::from_secs(10)),
        tokens: &[
            "stream\n",
            "endstream",
            " 0 obj",
            "endobj",
            "/FlateDecode",
            "/Length ",
            "xref",
            "trailer",
            "<< ",
            " >>",
            "BT ",
            " Tj ET",
            "/Type /Page",
            "/Kids [",
            " R ",
            "0 0 m ",
        ],
        seeds: || {
            vec![
                pdf::tiny("The rate is 4.5% since 1 May 2026."),
                pdf::broken(),
                pdf::truncated("truncated", 200),
                hostile::pdf_inflation_bomb("0 0 m ", 2000),
            ]
        },
        run: |_, d| {
            let _ = sgw_extract::extract(d, Some("application/pdf"), None);
        },
    },
    Target {
        name: "document",
        guarantee: "any bytes under any Content-Type (first line): sniffing, gzip, charsets and binary detection end in a document or an error, never a panic",
        max_len: 128 << 10,
        time_budget: Duration::from_secs(10),
        tokens: &[
            "text/html; charset=",
            "application/json",
            "text/plain",
            "utf-16",
            "iso-2022-jp",
            "\u{1f}\u{8b}",
            "%PDF-1.4",
            "{\"",
            "<?xml",
            "charset=\"",
            ";;;",
        ],
        seeds: || {
            vec![
                [
                    &b"text/html; charset=windows-1252\n"[..],
                    &pages::legacy_charset(
                        encoding_rs::WINDOWS_1252,
                        "Caf\u{e9}",
                        &["Le taux est de 4,5 %"],
                    )
                    .full_body()
                    .map(|b| b.to_vec())
                    .unwrap_or_default(),
                ]
                .concat(),
                [&b"\n"[..], &hostile::gzip(b"<p>gzipped page text</p>")].concat(),
                [
                    &b"application/octet-stream\n"[..],
                    &hostile::random_bytes(512, 3),
                ]
                .concat(),
                [&b"\n"[..], &hostile::truncated_gzip()].concat(),
                b"text/plain\nplain text line\n".to_vec(),
            ]
        },
        run: |_, d| {
            let (ct, body) = split_line(d);
            let ct = String::from_utf8_lossy(ct);
            let _ = sgw_extract::extract(body, (!ct.is_empty()).then_some(ct.as_ref()), None);
            let _ = sgw_extract::gunzip(body);
            let _ = sgw_extract::sniff_kind(body, Some(&ct));
        },
    },
    Target {
        name: "search_json",
        guarantee: "search API and archive answers (SearXNG, Brave, generic JSON pointers, Wayback availability, sitemaps): hits or an error, never a panic",
        max_len: 128 << 10,
        time_budget: Duration::from_secs(5),
        tokens: &[
            "{",
            "}",
            "[",
            "]",
            "\"results\": [",
            "\"url\": \"",
            "\"title\": ",
            "null",
            "true",
            "1e999",
            "\"web\": {",
            "<url><loc>",
            "\"archived_snapshots\": {",
        ],
        seeds: || {
            vec![
                searxng::value("q", &[searxng::SearxResult::new("https://a.example/x", "T", "snippet", "e")], &[("brave", "timeout")]).to_string().into_bytes(),
                brave::value("q", &[brave::BraveResult::new("T", "https://b.example/", "d")]).to_string().into_bytes(),
                br#"{"archived_snapshots":{"closest":{"available":true,"url":"http://web.archive.org/web/2026/https://x.example/","timestamp":"20260101000000","status":"200"}}}"#.to_vec(),
                b"<?xml version=\"1.0\"?><urlset><url><loc>https://s.example/a</loc><lastmod>2026-01-01</lastmod></url></urlset>".to_vec(),
            ]
        },
        run: |_, d| {
            let s = String::from_utf8_lossy(d);
            let _ = sgw_provider_search_engine::hits::parse_searxng(&s);
            let _ = sgw_provider_search_engine::hits::parse_brave(&s);
            let pointers = sgw_provider_search_engine::hits::Pointers {
                items: "/results".into(),
                url: "/url".into(),
                title: Some("/title".into()),
                snippet: Some("/content".into()),
                date: Some("/publishedDate".into()),
            };
            let _ = sgw_provider_search_engine::hits::parse_pointers(&s, &pointers);
            let _ = sgw_provider_mirror::wayback::parse_availability(&s);
            let _ = sgw_provider_official_site::parse_sitemap(&s);
        },
    },
    Target {
        name: "headers",
        guarantee: "HTTP header values (Retry-After, Content-Type and its charset): a bounded duration or nothing, never a panic or overflow",
        max_len: 4 << 10,
        time_budget: Duration::from_secs(2),
        tokens: &[
            "Wed, 21 Oct 2026 07:28:00 GMT",
            "; charset=",
            "text/html",
            "\"",
            "=",
            ";",
        ],
        seeds: || {
            vec![
                b"120".to_vec(),
                b"Wed, 21 Oct 2026 07:28:00 GMT".to_vec(),
                b"text/html; charset=\"utf-8\"".to_vec(),
            ]
        },
        run: |_, d| {
            if let Ok(v) = http::HeaderValue::from_bytes(d) {
                let mut h = http::HeaderMap::new();
                h.insert(http::header::RETRY_AFTER, v.clone());
                h.insert(http::header::CONTENT_TYPE, v);
                for now in [0, 1_800_000_000, i64::MAX, i64::MIN] {
                    let ra = sgw_fetch::diagnose::retry_after(&h, now);
                    assert!(
                        ra.is_none_or(|d| d <= Duration::from_secs(86_400)),
                        "{ra:?}"
                    );
                }
            }
            let ct = String::from_utf8_lossy(d);
            let _ = sgw_extract::sniff_kind(b"<p>x</p>", Some(&ct));
            let _ = sgw_extract::extract(b"<p>some text here</p>", Some(&ct), None);
        },
    },
    Target {
        name: "session",
        guarantee: "research session files (manifest, plan, sources, gates, findings, answer): MALFORMED or read, never a panic, a hang or an unbounded read; nothing is appended to a malformed session",
        max_len: 64 << 10,
        time_budget: Duration::from_secs(10),
        tokens: &[
            "{",
            "}",
            "\"sessionId\": \"",
            "\"status\": \"",
            "\"gates\": [",
            "\"subQuestions\": [",
            "null",
            "\"createdAt\": \"",
            "2026-05-01T10:00:00Z",
            "sq-1",
            "\"url\": \"",
        ],
        seeds: session_seeds,
        run: |s, d| {
            if d.is_empty() || s.session.is_empty() {
                return;
            }
            let files = [
                "manifest.json",
                "plan.json",
                "sources.json",
                "gates.json",
                "findings/sq-1.json",
                "answer.md",
            ];
            let dir = s.root.join(".cache/research/sessions").join(&s.session);
            let file = dir.join(files[d[0] as usize % files.len()]);
            let _ = std::fs::create_dir_all(dir.join("findings"));
            let saved = std::fs::read(&file).ok();
            let _ = std::fs::write(&file, &d[1..]);
            let id = s.session.clone();
            for args in [
                vec!["show", id.as_str()],
                vec!["list"],
                vec!["gates", "--list"],
                vec!["show", id.as_str(), "--json"],
            ] {
                research(&s.root, &args, b"");
            }
            let before = std::fs::read(dir.join("gates.json")).ok();
            let code = research_code(
                &s.root,
                &[
                    "gates",
                    "--append",
                    &id,
                    "--record",
                    r#"{"url":"https://x.example","gateType":"login","whatIsNeeded":"n"}"#,
                ],
                b"",
            );
            let manifest_ok = sgw_research::validate::manifest_bytes(
                &std::fs::read(dir.join("manifest.json")).unwrap_or_default(),
            )
            .is_ok();
            if !manifest_ok {
                assert_ne!(code, 0, "appended to a session with a malformed manifest");
                assert_eq!(
                    before,
                    std::fs::read(dir.join("gates.json")).ok(),
                    "a malformed session was written"
                );
            }
            match saved {
                Some(b) => {
                    let _ = std::fs::write(&file, b);
                }
                None => {
                    let _ = std::fs::remove_file(&file);
                }
            }
            // keep the gate queue small
            let _ = std::fs::write(dir.join("gates.json"), before.unwrap_or_default());
        },
    },
    Target {
        name: "records",
        guarantee: "research records (gate records on stdin, manifests, plans, findings, source registries): validated or refused, never a panic",
        max_len: 64 << 10,
        time_budget: Duration::from_secs(5),
        tokens: &[
            "[",
            "]",
            "{",
            "}",
            "\"url\": \"",
            "\"gateType\": \"",
            "\"whatIsNeeded\": \"",
            "\"subQuestionId\": \"",
            "null",
            ",",
        ],
        seeds: session_seeds,
        run: |s, d| {
            let body = d.get(1..).unwrap_or_default();
            let _ = sgw_research::validate::manifest_bytes(body);
            let _ = sgw_research::validate::plan_bytes(body);
            let _ = sgw_research::validate::sources_bytes(body);
            let _ = sgw_research::validate::gates_bytes(body);
            let _ = sgw_research::validate::finding_bytes(body);
            if !s.session.is_empty() {
                let dir = s.root.join(".cache/research/sessions").join(&s.session);
                let before = std::fs::read(dir.join("gates.json")).ok();
                research(&s.root, &["gates", "--append", &s.session.clone()], body);
                let _ = std::fs::write(dir.join("gates.json"), before.unwrap_or_default());
            }
        },
    },
    Target {
        name: "cli_args",
        guarantee: "CLI argument values (--field specs and regexes, dates, URLs, session ids, research verbs): a value or a usage error, never a panic",
        max_len: 4 << 10,
        time_budget: Duration::from_secs(5),
        tokens: &[
            "name:text=",
            ":date",
            ":money",
            ":percent",
            "(",
            "[",
            "*",
            "{1000}{1000}",
            "2026-02-30",
            "http://",
            "https://[::1]/",
            "01J00000000000000000000000",
            "sq-",
        ],
        seeds: || {
            vec![
                b"rate:percent".to_vec(),
                b"x:text=([0-9]+)%".to_vec(),
                b"https://a.example/x?y=1".to_vec(),
                b"2026-05-01".to_vec(),
                b"01KQHFP680HQAJ7GRVY0CZQF83".to_vec(),
            ]
        },
        run: |s, d| {
            let v = String::from_utf8_lossy(d).into_owned();
            if let Ok(spec) = v.parse::<sgw_contract::FieldSpec>()
                && let sgw_contract::FieldKind::Text(p) = &spec.kind
            {
                // what `sgw search --field` does with the pattern
                let _ = regex::Regex::new(p);
            }
            let _ = v.parse::<jiff::civil::Date>();
            if let Ok(u) = url::Url::parse(&v) {
                let _ = sgw_fetch::human_may_open(&u);
            }
            let _ = sgw_research::validate::session_id(&v);
            let _ = sgw_orchestrator::ChainStep::parse(&v);
            for args in [
                vec!["show", v.as_str()],
                vec!["list", "--status", v.as_str()],
                vec!["gates", "--list", v.as_str()],
                vec!["plan", v.as_str(), "--add", v.as_str()],
            ] {
                research(&s.root, &args, b"");
            }
        },
    },
];

fn split_line(d: &[u8]) -> (&[u8], &[u8]) {
    match d.iter().position(|&b| b == b'\n') {
        Some(i) => (&d[..i], &d[i + 1..]),
        None => (&[], d),
    }
}

/// `research ARGS` in-process at `root` with `stdin`; returns stdout.
pub fn research(root: &Path, args: &[&str], stdin: &[u8]) -> String {
    research_io(root, args, stdin).1
}

fn research_code(root: &Path, args: &[&str], stdin: &[u8]) -> u8 {
    research_io(root, args, stdin).0
}

fn research_io(root: &Path, args: &[&str], stdin: &[u8]) -> (u8, String) {
    let mut input = stdin;
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut io = sgw_cli::research::Io {
        stdin: &mut input,
        stdout: &mut out,
        stderr: &mut err,
    };
    let now: jiff::Timestamp = "2026-05-01T10:00:00Z".parse().expect("fixed time");
    let env = sgw_cli::research::Env::fixed(root, now);
    let argv = std::iter::once("research").chain(args.iter().copied());
    let code = sgw_cli::research::run(argv, &env, &mut io);
    (code, String::from_utf8_lossy(&out).into_owned())
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fuzz/ is in the workspace")
        .to_path_buf()
}

fn policy_seeds() -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(workspace().join("policies"))
        .map(|d| {
            d.flatten()
                .filter_map(|e| std::fs::read(e.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    seeds.push(include_bytes!("../../crates/search-gateway/policies/default.yaml").to_vec());
    // A fuzz find (a timeout): a flow mapping's key made of ~11,700 `pr.` lines, whose error
    // path has as many dots; locating it walked every line once per dot.
    seeds.push(include_bytes!("../seeds/policy-key-of-many-dots.yaml").to_vec());
    seeds.push(b"version: 1\nname: t\nnetwork:\n  per_host_rate: { requests_per_second: 2.0, burst: 4 }\n  resolve: { a.test: 127.0.0.1 }\nexecution:\n  deadline_ms: 3000\n".to_vec());
    seeds
}

fn html_seeds() -> Vec<Vec<u8>> {
    vec![
        pages::article(
            "Rate decision",
            "Central Bank",
            "2026-05-01",
            &[
                "The policy rate is 4.5 percent since 1 May 2026.",
                "It was 4.25 percent before.",
            ],
        )
        .into_bytes(),
        pages::js_shell("Shell").into_bytes(),
        pages::login_form("/next").into_bytes(),
        pages::cloudflare_challenge("x.example", "abc").into_bytes(),
        hostile::escape_page().into_bytes(),
        pages::filler_html(4096),
    ]
}

fn feed_seeds() -> Vec<Vec<u8>> {
    let items = [feeds::FeedItem::new(
        "Rate raised",
        "https://f.example/1",
        "2026-05-01",
        "The rate is 4.5%.",
    )];
    [
        feeds::rss("News", "https://f.example", &items),
        feeds::atom("News", "https://f.example", &items),
        feeds::json_feed("News", "https://f.example", &items),
        feeds::rss_malformed("News", "https://f.example", &items),
    ]
    .iter()
    .filter_map(|r| r.full_body().map(|b| b.to_vec()))
    .collect()
}

fn session_seeds() -> Vec<Vec<u8>> {
    vec![
        br#"0{"schemaVersion":1,"sessionId":"01KQHFP680HQAJ7GRVY0CZQF83","status":"active"}"#.to_vec(),
        br#"3{"gates":[{"id":"g-1","url":"https://y.example","gateType":"login","whatIsNeeded":"sign in","status":"pending"}]}"#.to_vec(),
        br#"1[{"url":"https://y.example","gateType":"login","whatIsNeeded":"sign in","subQuestionId":"sq-1"}]"#.to_vec(),
        b"5# Answer\n\nText.\n".to_vec(),
    ]
}
