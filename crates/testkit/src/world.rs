//! A ready-made small web for end-to-end scenarios and `sgw demo`: an
//! official statistics office, a finance ministry, a newspaper, a blog, a
//! SearXNG-style engine and a web archive, all answering one generic question
//! ("what is the policy interest rate?"), with switches that break each part.
//!
//! The world only serves pages; the gateway policy that reads it is written by
//! the caller (the scenario or the demo), with [`SimWeb::policy_fragment`].

use crate::searxng::{self, SearxResult};
use crate::wayback::{self, Snapshot};
use crate::{Fault, Response, SimWeb, pages};

/// The official primary source.
pub const OFFICIAL: &str = "stats-office.test";
/// A second official source (agrees unless [`World::ministry_disagrees`]).
pub const MINISTRY: &str = "finance-ministry.test";
/// An established newsroom.
pub const NEWS: &str = "daily-ledger.test";
/// A general-web blog.
pub const BLOG: &str = "rates-blog.test";
/// A SearXNG instance (`/search?q=…&format=json`).
pub const ENGINE: &str = "searx.test";
/// A Wayback-style archive (`/wayback/available?url=…`, snapshots under `/web/`).
pub const ARCHIVE: &str = "archive.test";

/// The question every site answers.
pub const QUESTION: &str = "policy interest rate";

/// Path of the official page.
pub const RATES_PATH: &str = "/rates";

/// The simulated web with its sites.
#[derive(Debug)]
pub struct World {
    pub web: SimWeb,
}

fn official_page(publisher: &str, rate: &str) -> Response {
    Response::html(pages::article(
        "Policy interest rate",
        publisher,
        "2026-03-01",
        &[
            &format!("The policy interest rate is {rate} from 1 March 2026."),
            "The rate applies to the main refinancing operations and is reviewed every six weeks.",
            "Earlier decisions are listed in the archive of monetary policy statements.",
        ],
    ))
}

impl World {
    /// Starts the simulated web and serves every site in its healthy state.
    pub async fn start() -> World {
        World::serve(SimWeb::start().await)
    }

    /// Like [`World::start`], on a runtime of its own (for synchronous callers).
    pub fn start_detached() -> World {
        World::serve(SimWeb::start_detached())
    }

    fn serve(web: SimWeb) -> World {
        let world = World { web };
        world.heal();
        world
    }

    /// Every site healthy again.
    pub fn heal(&self) {
        let web = &self.web;
        web.route(
            OFFICIAL,
            RATES_PATH,
            official_page("Statistics Office", "4.50%"),
        );
        web.route(
            OFFICIAL,
            "/",
            Response::html(pages::home(
                "Statistics Office",
                "/opensearch.xml",
                &[(RATES_PATH, "Policy interest rate")],
            )),
        );
        web.route(
            MINISTRY,
            RATES_PATH,
            official_page("Finance Ministry", "4.50%"),
        );
        web.route(
            NEWS,
            "/2026/03/rates",
            Response::html(pages::article(
                "Central bank holds the policy interest rate at 4.50%",
                "The Daily Ledger",
                "2026-03-02",
                &[
                    "The policy interest rate stays at 4.50%, the statistics office confirmed on Monday.",
                    "Analysts had expected no change before the summer.",
                ],
            )),
        );
        web.route(
            BLOG,
            "/posts/rates",
            Response::html(pages::article(
                "My take on the policy interest rate",
                "Rates Blog",
                "2026-03-05",
                &["I think the policy interest rate of 4.50% is too high for small savers."],
            )),
        );
        let news = self.url(NEWS, "/2026/03/rates");
        let blog = self.url(BLOG, "/posts/rates");
        web.route_fn(ENGINE, "/search", move |req| {
            let q = req.query_param("q").unwrap_or_default();
            searxng::results(
                &q,
                &[
                    SearxResult::new(
                        &news,
                        "Central bank holds the policy interest rate at 4.50%",
                        "The policy interest rate stays at 4.50%…",
                        "duckduckgo",
                    ),
                    SearxResult::new(
                        &blog,
                        "My take on the policy interest rate",
                        "the policy interest rate of 4.50% is too high…",
                        "bing",
                    ),
                ],
            )
            .into()
        });
        let original = self.url(OFFICIAL, RATES_PATH);
        let archived = self.url(ARCHIVE, "/web/20260301120000/rates");
        web.route_fn(
            ARCHIVE,
            "/wayback/available",
            wayback::handler(vec![Snapshot {
                original,
                archived_url: archived,
                timestamp: "20260301120000".into(),
            }]),
        );
        web.route(
            ARCHIVE,
            "/web/20260301120000/rates",
            official_page("Statistics Office", "4.50%"),
        );
    }

    /// `http://<host>:<port><path>` as a string.
    pub fn url(&self, host: &str, path: &str) -> String {
        self.web.url(host, path).to_string()
    }

    /// The official page answers with `fault` instead.
    pub fn break_official(&self, fault: Fault) {
        self.web.route(OFFICIAL, RATES_PATH, fault);
    }

    /// The ministry page answers with `fault` instead.
    pub fn break_ministry(&self, fault: Fault) {
        self.web.route(MINISTRY, RATES_PATH, fault);
    }

    /// The ministry publishes a different rate (a conflict between official sources).
    pub fn ministry_disagrees(&self) {
        self.web.route(
            MINISTRY,
            RATES_PATH,
            official_page("Finance Ministry", "4.25%"),
        );
    }

    /// The engine answers zero results because its upstream engines are CAPTCHA'd.
    pub fn engine_captcha(&self) {
        self.web.route_fn(ENGINE, "/search", |req| {
            searxng::unresponsive(
                &req.query_param("q").unwrap_or_default(),
                &[("google", "CAPTCHA"), ("bing", "CAPTCHA")],
            )
            .into()
        });
    }

    /// The engine answers with `fault`.
    pub fn break_engine(&self, fault: Fault) {
        self.web.route(ENGINE, "/search", fault);
    }

    /// Every content site answers with a fault of its own kind.
    pub fn break_everything(&self) {
        self.break_official(Fault::CdnBlock(crate::Cdn::Cloudflare));
        self.break_ministry(Fault::Captcha(crate::Captcha::Recaptcha));
        self.web.route(NEWS, "/2026/03/rates", Fault::JsShell);
        self.web.route(BLOG, "/posts/rates", Fault::NotFound);
        self.engine_captcha();
        self.web.route(
            ARCHIVE,
            "/wayback/available",
            Fault::Unavailable { retry_after: None },
        );
    }
}

/// Which parts of the gateway a [`World::policy`] binds.
#[derive(Debug, Clone)]
pub struct PolicyOptions {
    /// Bind the `evidence-cache` provider (`cached_evidence`).
    pub cache: bool,
    /// Bind the `human-intake` provider (`user_supplied_evidence_request`).
    pub human: bool,
    /// Register the ministry as a second official source.
    pub ministry: bool,
    /// Seconds an engine rests after a CAPTCHA.
    pub captcha_suspension_secs: u64,
    /// The run's deadline.
    pub deadline_ms: u64,
    /// Per-provider time limit.
    pub provider_timeout_ms: u64,
}

impl Default for PolicyOptions {
    fn default() -> Self {
        PolicyOptions {
            cache: true,
            human: true,
            ministry: false,
            captcha_suspension_secs: 3600,
            deadline_ms: 20_000,
            provider_timeout_ms: 8_000,
        }
    }
}

impl World {
    /// A gateway policy reading this world: the official office (and the
    /// ministry) in the `sources:` registry, the newspaper classified as
    /// media, SearXNG as the engine, the archive as the mirror step, the
    /// cache and human intake; the network section resolves every host here.
    pub fn policy(&self, o: &PolicyOptions) -> String {
        let mut y = String::new();
        y.push_str("version: 1\nname: simulated-world\n");
        y.push_str("sources:\n");
        y.push_str(&format!(
            "  stats-office:\n    publisher: Statistics Office\n    tier: OFFICIAL_PRIMARY\n    domains: [{OFFICIAL}]\n    entry_urls: [\"{}\"]\n",
            self.url(OFFICIAL, RATES_PATH)
        ));
        if o.ministry {
            y.push_str(&format!(
                "  finance-ministry:\n    publisher: Finance Ministry\n    tier: OFFICIAL_PRIMARY\n    domains: [{MINISTRY}]\n    entry_urls: [\"{}\"]\n",
                self.url(MINISTRY, RATES_PATH)
            ));
        }
        y.push_str(&format!("tiering:\n  - {{ domain: \"{NEWS}\", tier: AUTHORITATIVE_MEDIA }}\n  - {{ domain: \"{ARCHIVE}\", tier: OFFICIAL_SECONDARY }}\n"));
        y.push_str(&format!(
            "execution:\n  deadline_ms: {}\n  target_confidence: 0.85\nsuspension:\n  durations_secs:\n    SEARCH_PROVIDER_CAPTCHA: {}\n    SEARCH_PROVIDER_RATE_LIMITED: 180\n    SOURCE_BLOCKED_BY_CDN: 86400\n",
            o.deadline_ms, o.captcha_suspension_secs
        ));
        let t = o.provider_timeout_ms;
        y.push_str("providers:\n");
        y.push_str(&format!(
            "  direct_official_adapter:\n    - {{ kind: official-site, timeout_ms: {t} }}\n"
        ));
        y.push_str(&format!(
            "  search_engine_provider:\n    - {{ kind: searxng, name: searx, timeout_ms: {t}, config: {{ base_url: \"{}\" }} }}\n",
            self.url(ENGINE, "/").trim_end_matches('/')
        ));
        y.push_str(&format!(
            "  authoritative_mirror_or_media:\n    - {{ kind: web-archive, timeout_ms: {t}, config: {{ availability_url: \"{}?url={{url}}\" }} }}\n",
            self.url(ARCHIVE, "/wayback/available")
        ));
        if o.cache {
            y.push_str("  cached_evidence:\n    - { kind: evidence-cache }\n");
        }
        if o.human {
            y.push_str("  user_supplied_evidence_request:\n    - { kind: human-intake }\n");
        }
        let fragment = self.web.policy_fragment();
        y.push_str(&fragment);
        // Scenarios want each fault once, not retried.
        y.push_str("  retries: { max: 0 }\n");
        y
    }
}
