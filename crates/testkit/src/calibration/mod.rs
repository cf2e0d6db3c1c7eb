//! A **labelled calibration world**: three fictional jurisdictions (the
//! country of Norland, the country of Estmark, the city of Aldport) with
//! their official sites, newspapers, a wire agency whose story is republished
//! under several bylines, blogs and a forum, a SearXNG instance indexing all
//! of it, a web archive, an open-data mirror, and pages blocked the ways the
//! real web blocks them (CAPTCHA, CDN 403, JavaScript shell, login wall,
//! robots.txt). On top of it, [`questions`] lists more than eighty questions
//! with the answer a careful person would give, whether a conflict must be
//! flagged, and whether a person must be asked for evidence.
//!
//! The world is written as a proxy for a held-out one: the pages carry what
//! real pages carry (navigation, breadcrumbs, update lines, bylines, related
//! links, footers, comment threads) and the questions are phrased the way
//! people ask, not the way the gateway parses. The grader that runs the
//! questions through the gateway lives in `sgw-e2e` (`cargo xtask calibrate`);
//! this module only serves pages and states the truth.
//!
//! Everything here is fictional: names, figures and dates. "Today" in the
//! world is the start of December 2026; every question whose answer depends on
//! the day asked carries an `as_of`, so the labels do not drift with the clock.

mod engine;
mod questions;
mod render;
mod sites;

pub use questions::questions;
pub use sites::{SITES, pages};

use crate::wayback::{self, Snapshot};
use crate::{Fault, Response, SimWeb, opensearch, robots::Robots};
use std::collections::BTreeMap;

/// What kind of publisher a site is (decides its page template and, in the
/// policy, its tier).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteKind {
    /// A government body: `sources:` registry entry, OFFICIAL_PRIMARY.
    Official,
    /// A newspaper or wire service: AUTHORITATIVE_MEDIA by a tiering rule.
    News,
    /// A personal blog: GENERAL_WEB.
    Blog,
    /// A discussion forum: GENERAL_WEB.
    Forum,
    /// An open-data mirror of an official site (read through the `mirror` rules).
    Mirror,
}

/// One site of the world.
#[derive(Debug, Clone)]
pub struct Site {
    pub host: &'static str,
    pub name: &'static str,
    pub kind: SiteKind,
    /// The jurisdiction an official site speaks for (`norland`, `estmark`, `aldport`).
    pub scope: Option<&'static str>,
    /// Main navigation labels.
    pub nav: &'static [&'static str],
    /// Paths robots.txt disallows for every agent.
    pub disallow: &'static [&'static str],
    /// Official sites: the registry's entry page (a landing or "latest" page).
    pub entry: Option<&'static str>,
    /// Official sites: advertise OpenSearch on the home page instead of naming a `search_url`.
    pub opensearch: bool,
}

/// How a page answers a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageState {
    /// Served normally.
    Ok,
    /// Answered with this fault (CAPTCHA, CDN block, JS shell, login wall, …).
    Blocked(Fault),
}

/// One page: its content is plain text in a small markup (`## ` heading,
/// `- ` list item, `| a | b |` table row, anything else a paragraph).
#[derive(Debug, Clone)]
pub struct Page {
    pub host: &'static str,
    pub path: &'static str,
    pub title: &'static str,
    /// ISO date of publication (news, blogs) — used in metadata and by the engine.
    pub date: Option<&'static str>,
    /// A visible update line, verbatim ("Last updated: 12.11.2026").
    pub updated: Option<&'static str>,
    /// News/blog byline, verbatim ("By Anna Berg, CPA").
    pub byline: Option<&'static str>,
    /// One-line summary under the headline.
    pub standfirst: Option<&'static str>,
    pub body: &'static [&'static str],
    /// Related links `(path on the same site, title)`.
    pub related: &'static [(&'static str, &'static str)],
    pub state: PageState,
    /// Indexed by the search engine (blocked pages too: they were crawled before).
    pub indexed: bool,
}

impl Page {
    /// The page's visible text without the site chrome (what an engine
    /// indexes): standfirst, byline, body, update line.
    pub fn plain_text(&self) -> String {
        let mut out = String::new();
        for line in [self.standfirst, self.byline].into_iter().flatten() {
            out.push_str(line);
            out.push('\n');
        }
        for block in self.body {
            let line = block
                .trim_start_matches("## ")
                .trim_start_matches("- ")
                .replace('|', " ");
            out.push_str(line.trim());
            out.push('\n');
        }
        if let Some(u) = self.updated {
            out.push_str(u);
            out.push('\n');
        }
        out
    }
}

/// A snapshot the archive holds: `original` on `host` as it was at `timestamp`.
#[derive(Debug, Clone)]
pub struct Archived {
    pub page: Page,
    /// `YYYYMMDDhhmmss`.
    pub timestamp: &'static str,
}

/// The page's reading outcome, as the ground truth of citation checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Readable {
    /// A page with text a reader can read.
    Yes,
    /// A fault page (CAPTCHA, CDN, login, JS shell, error).
    Blocked,
    /// robots.txt disallows it: a polite reader never requests it.
    RobotsDisallowed,
    /// No such page in the world.
    Unknown,
}

/// The calibration world served on a [`SimWeb`].
#[derive(Debug)]
pub struct CalibrationWorld {
    pub web: SimWeb,
}

/// The SearXNG instance.
pub const ENGINE: &str = "searx.calib.test";
/// The Wayback-style archive.
pub const ARCHIVE: &str = "archive.calib.test";

impl CalibrationWorld {
    /// Starts a simulated web on the caller's runtime and serves the world.
    pub async fn start() -> CalibrationWorld {
        let world = CalibrationWorld {
            web: SimWeb::start().await,
        };
        world.serve(&[]);
        world
    }

    /// Serves every site; `overrides` replace pages of the same host and path
    /// (a question's earlier state of the web, for priming a cache).
    pub fn serve(&self, overrides: &[Page]) {
        let web = &self.web;
        let mut all: BTreeMap<(&str, &str), Page> = BTreeMap::new();
        for p in pages() {
            all.insert((p.host, p.path), p);
        }
        for p in overrides {
            all.insert((p.host, p.path), p.clone());
        }
        for site in SITES {
            let mut robots = Robots::new().agent("*");
            for d in site.disallow {
                robots = robots.disallow(d);
            }
            web.route(site.host, "/robots.txt", robots.response());
            let site_pages: Vec<&Page> = all.values().filter(|p| p.host == site.host).collect();
            if !site_pages.iter().any(|p| p.path == "/") {
                let home = render::home(site, &site_pages);
                web.route(site.host, "/", Response::html(home));
            }
            if site.opensearch {
                let template = format!("{}?q={{searchTerms}}", web.url(site.host, "/search"));
                web.route(
                    site.host,
                    "/opensearch.xml",
                    opensearch::description(site.name, &template),
                );
            }
            let index: Vec<engine::Doc> = site_pages
                .iter()
                .map(|p| engine::Doc::of(p, web.url(p.host, p.path).to_string()))
                .collect();
            let name = site.name;
            web.route_fn(site.host, "/search", move |req| {
                let q = req.query_param("q").unwrap_or_default();
                Response::html(engine::site_search(name, &q, &index)).into()
            });
        }
        for p in all.values() {
            let site = site(p.host);
            match &p.state {
                PageState::Ok => web.route(p.host, p.path, Response::html(render::page(site, p))),
                PageState::Blocked(f) => web.route(p.host, p.path, f.clone()),
            }
        }
        let index: Vec<engine::Doc> = all
            .values()
            .filter(|p| p.indexed)
            .map(|p| engine::Doc::of(p, web.url(p.host, p.path).to_string()))
            .collect();
        web.route_fn(ENGINE, "/search", move |req| {
            let q = req.query_param("q").unwrap_or_default();
            engine::searx(&q, &index).into()
        });
        let mut snapshots = Vec::new();
        for a in sites::archived() {
            let path = format!("/web/{}/{}{}", a.timestamp, a.page.host, a.page.path);
            let archived_url = web.url(ARCHIVE, &path).to_string();
            snapshots.push(Snapshot {
                original: web.url(a.page.host, a.page.path).to_string(),
                archived_url,
                timestamp: a.timestamp.into(),
            });
            let html = render::archived(site(a.page.host), &a.page, a.timestamp);
            web.route(ARCHIVE, &path, Response::html(html));
        }
        web.route(ARCHIVE, "/robots.txt", Robots::new().agent("*").response());
        web.route_fn(ARCHIVE, "/wayback/available", wayback::handler(snapshots));
        web.route(ENGINE, "/robots.txt", Robots::new().agent("*").response());
    }

    /// `http://<host>:<port><path>`.
    pub fn url(&self, host: &str, path: &str) -> String {
        self.web.url(host, path).to_string()
    }

    /// Whether `url` (one of this world's) is a readable page, a blocked one,
    /// one robots.txt disallows, or unknown.
    pub fn readable(&self, url: &str) -> Readable {
        let Ok(u) = url::Url::parse(url) else {
            return Readable::Unknown;
        };
        let host = u.host_str().unwrap_or_default().to_ascii_lowercase();
        let path = u.path();
        if host == ARCHIVE {
            return if path.starts_with("/web/") {
                Readable::Yes
            } else {
                Readable::Unknown
            };
        }
        if let Some(s) = SITES.iter().find(|s| s.host == host)
            && s.disallow.iter().any(|d| path.starts_with(d))
        {
            return Readable::RobotsDisallowed;
        }
        match pages()
            .into_iter()
            .find(|p| p.host == host && p.path == path)
        {
            Some(p) if p.state == PageState::Ok => Readable::Yes,
            Some(_) => Readable::Blocked,
            None if path == "/" && SITES.iter().any(|s| s.host == host) => Readable::Yes,
            None => Readable::Unknown,
        }
    }

    /// The gateway policy that reads this world: every official site in the
    /// `sources:` registry (scoped to its jurisdiction, entry page = its
    /// landing or "latest" page, its own site search), newspapers as
    /// AUTHORITATIVE_MEDIA, the SearXNG engine, the archive and the
    /// open-data mirror, the evidence cache and human intake (only when a
    /// gate blocked a page).
    pub fn policy(&self) -> String {
        let mut y = String::from("version: 1\nname: calibration-world\nsources:\n");
        for s in SITES.iter().filter(|s| s.kind == SiteKind::Official) {
            y.push_str(&format!(
                "  {id}:\n    publisher: \"{name}\"\n    tier: OFFICIAL_PRIMARY\n    domains: [{host}]\n",
                id = s.host.replace('.', "-"),
                name = s.name,
                host = s.host
            ));
            if let Some(scope) = s.scope {
                y.push_str(&format!("    scopes: [{scope}]\n"));
            }
            if let Some(entry) = s.entry {
                y.push_str(&format!(
                    "    entry_urls: [\"{}\"]\n",
                    self.url(s.host, entry)
                ));
            }
            if !s.opensearch {
                y.push_str(&format!(
                    "    search_url: \"{}?q={{query}}\"\n",
                    self.url(s.host, "/search")
                ));
            }
        }
        y.push_str("tiering:\n");
        for s in SITES.iter().filter(|s| s.kind == SiteKind::News) {
            y.push_str(&format!(
                "  - {{ domain: \"{}\", tier: AUTHORITATIVE_MEDIA }}\n",
                s.host
            ));
        }
        y.push_str(
            "topics:\n  - { topic: product_or_price, patterns: [\"\\\\b(price|prices|fare|fares|fee|fees|cost|costs)\\\\b\"] }\n  - { topic: policy_or_law, keywords: [\"tax\", \"vat\", \"duty\", \"allowance\", \"benefit\", \"grant\", \"subsidy\", \"minimum wage\"] }\n",
        );
        y.push_str("execution:\n  deadline_ms: 20000\n  target_confidence: 0.85\n");
        y.push_str("providers:\n");
        y.push_str("  direct_official_adapter:\n    - { kind: official-site, timeout_ms: 8000 }\n");
        y.push_str(
            "  official_site_search:\n    - { kind: official-site-search, timeout_ms: 8000 }\n",
        );
        y.push_str(&format!(
            "  search_engine_provider:\n    - {{ kind: searxng, name: searx, timeout_ms: 8000, config: {{ base_url: \"{}\" }} }}\n",
            self.url(ENGINE, "/").trim_end_matches('/')
        ));
        let mirrors: Vec<String> = SITES
            .iter()
            .filter(|s| s.kind == SiteKind::Mirror)
            .filter_map(|m| {
                let from = sites::mirror_of(m.host)?;
                Some(format!(
                    "{{ from: \"{from}\", to: [\"{}\"] }}",
                    self.web
                        .url(m.host, "/")
                        .host_str()
                        .map(|h| format!("{h}:{}", self.web.port()))
                        .unwrap_or_default()
                ))
            })
            .collect();
        y.push_str(&format!(
            "  authoritative_mirror_or_media:\n    - {{ kind: web-archive, timeout_ms: 8000, config: {{ availability_url: \"{}?url={{url}}\" }} }}\n    - {{ kind: mirror, timeout_ms: 8000, config: {{ rules: [{}] }} }}\n",
            self.url(ARCHIVE, "/wayback/available"),
            mirrors.join(", ")
        ));
        y.push_str("  cached_evidence:\n    - { kind: evidence-cache }\n");
        y.push_str(
            "  user_supplied_evidence_request:\n    - { kind: human-intake, config: { only_when_blocked: true } }\n",
        );
        y.push_str(&self.web.policy_fragment());
        y.push_str("  per_host_rate: { requests_per_second: 200.0, burst: 200 }\n");
        y.push_str("  per_host_concurrency: 8\n");
        y.push_str("  retries: { max: 0 }\n");
        y
    }
}

/// The site with this host (every page's host is one).
pub fn site(host: &str) -> &'static Site {
    SITES
        .iter()
        .find(|s| s.host == host)
        .unwrap_or_else(|| panic!("calibration world: page on unknown host {host}"))
}

/// Which family of the issue a question exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Numbers and years of the question must not become the answer.
    QuestionNumbers,
    /// Qualifiers (standard/reduced, new/previous, quarters, youth/overall,
    /// grant/budget) and units decide between candidates.
    Qualifiers,
    /// An official page that does not answer; an answer that exists nowhere.
    NoAnswerHere,
    /// `as_of` validity windows.
    AsOf,
    /// Corroboration by agreement; one wire story under several bylines;
    /// snippets of blocked pages.
    Corroboration,
    /// Ties and time: newer statements, stale caches.
    TiesAndTime,
    /// Snippets of blocked or unreadable pages must not be cited as pages.
    Snippets,
}

impl Family {
    pub const fn as_str(self) -> &'static str {
        match self {
            Family::QuestionNumbers => "question-numbers",
            Family::Qualifiers => "qualifiers-units",
            Family::NoAnswerHere => "no-answer-here",
            Family::AsOf => "as-of",
            Family::Corroboration => "corroboration",
            Family::TiesAndTime => "ties-time",
            Family::Snippets => "snippets",
        }
    }
}

/// The expected answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// The requested field's value; any of these is right (normalized
    /// forms: `25.5` for percents and numbers, `12570 EUR`, `2026-04-30`).
    Value(&'static [&'static str]),
    /// No field asked: the best passage must contain one of these strings.
    Passage(&'static [&'static str]),
    /// The answer exists nowhere in the world: no value is right.
    NoAnswer,
}

/// Whether a flag (conflict, human request) must, must not, or may be raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Must {
    Raise,
    NotRaise,
    Either,
}

/// Confidence levels, as the grader compares them (mirrors the contract's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Low,
    Medium,
    High,
}

/// A question's earlier web: served for a first run whose cache entry is
/// then aged by `age_days`, before the question is asked on the world as it is.
#[derive(Debug, Clone)]
pub struct Prime {
    pub pages: Vec<Page>,
    pub age_days: i64,
}

/// One labelled question.
#[derive(Debug, Clone)]
pub struct Question {
    pub id: &'static str,
    pub family: Family,
    pub query: &'static str,
    /// `NAME:KIND` as on the command line (`rate:percent`).
    pub field: Option<&'static str>,
    /// `YYYY-MM-DD`.
    pub as_of: Option<&'static str>,
    pub topic: Option<&'static str>,
    pub scope: Option<&'static str>,
    /// Hint URLs as `(host, path)` of this world.
    pub hint_urls: &'static [(&'static str, &'static str)],
    pub hint_domains: &'static [&'static str],
    pub expect: Expect,
    /// A missing value is also right (only snippets or blocked pages hold the answer).
    pub none_ok: bool,
    /// Above this level the answer is overconfident, hence wrong (ties, one wire story).
    pub max_level: Option<Level>,
    pub conflict: Must,
    pub human: Must,
    pub prime: Option<Prime>,
    /// What the question tests, for the verbose report.
    pub note: &'static str,
}

impl Question {
    /// A question with defaults: no hints, conflict must not be raised,
    /// human request either way.
    pub const fn new(
        id: &'static str,
        family: Family,
        query: &'static str,
        field: Option<&'static str>,
        expect: Expect,
    ) -> Question {
        Question {
            id,
            family,
            query,
            field,
            as_of: None,
            topic: None,
            scope: None,
            hint_urls: &[],
            hint_domains: &[],
            expect,
            none_ok: false,
            max_level: None,
            conflict: Must::NotRaise,
            human: Must::Either,
            prime: None,
            note: "",
        }
    }
}

/// Surface forms a page may use for a normalized expected value
/// (`12570 EUR` → `12,570`, `2026-04-30` → `30.04.2026`, `30 April 2026`, …).
pub fn surface_forms(value: &str) -> Vec<String> {
    let mut out = vec![value.to_string()];
    let amount = value.trim_end_matches(" EUR");
    if let Some((y, rest)) = amount.split_once('-')
        && let Some((m, d)) = rest.split_once('-')
    {
        let (Ok(mi), Ok(di)) = (m.parse::<usize>(), d.parse::<u32>()) else {
            return out;
        };
        out.push(format!("{d}.{m}.{y}"));
        out.push(format!(
            "{di} {} {y}",
            sgw_text::MONTHS[mi.clamp(1, 12) - 1]
        ));
        return out;
    }
    let Ok(n) = amount.parse::<f64>() else {
        return out;
    };
    out.push(amount.to_string());
    out.push(amount.replace('.', ","));
    match amount.split_once('.') {
        None => out.push(format!("{amount}.00")),
        Some((_, frac)) if frac.len() == 1 => out.push(format!("{amount}0")),
        _ => {}
    }
    for (unit, div) in [("billion", 1e9), ("million", 1e6)] {
        if n >= div {
            out.push(format!("{} {unit}", n / div));
        }
    }
    if n >= 1000.0 && n.fract() == 0.0 {
        let digits = format!("{}", n as u64);
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push('\u{1}');
            }
            grouped.push(c);
        }
        out.push(grouped.replace('\u{1}', ","));
        out.push(grouped.replace('\u{1}', " "));
    }
    if amount.contains('.') {
        out.push(
            amount
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string(),
        );
    }
    out
}

/// The world's pages whose text states one of the question's expected
/// values (or phrases): where a reader could find the answer.
pub fn answer_pages(q: &Question) -> Vec<(&'static str, &'static str)> {
    let wanted: Vec<String> = match &q.expect {
        Expect::Value(values) => values.iter().flat_map(|v| surface_forms(v)).collect(),
        Expect::Passage(phrases) => phrases.iter().map(|p| p.to_string()).collect(),
        Expect::NoAnswer => return Vec::new(),
    };
    pages()
        .into_iter()
        .filter(|p| {
            let text = p.plain_text();
            wanted.iter().any(|w| states(&text, w))
        })
        .map(|p| (p.host, p.path))
        .collect()
}

/// `text` contains `form` as a whole number or phrase (not inside a longer number).
fn states(text: &str, form: &str) -> bool {
    text.match_indices(form).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = &text[i + form.len()..];
        let mut rest = after.chars();
        let next = rest.next();
        let next2 = rest.next();
        let digitish = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        let inside_number = digitish(before)
            || matches!(before, Some('.' | ','))
            || digitish(next)
            || (matches!(next, Some('.' | ',')) && digitish(next2));
        !inside_number
    })
}
