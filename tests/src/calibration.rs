//! The calibration run: every question of the testkit's labelled world
//! ([`sgw_testkit::calibration`]) through the real facade, graded.
//!
//! Each question gets a fresh simulated web (so the request log of one
//! question is not mixed with another's) and a fresh store in a temporary
//! directory. Grading:
//!
//! - **right**: the requested field's value equals an expected value
//!   (numbers within 0.25 %, money with its currency, dates exactly); for
//!   "no answer exists", no value; for questions without a field, the best
//!   passage contains an expected phrase. Wrong whatever the value: a level
//!   above the question's `max_level` (a tie, one wire story, a snippet) and
//!   `high` with an empty requested field.
//! - **conflict**: raised = `SOURCE_CONFLICT_NEEDS_REVIEW` among the codes.
//! - **human request**: raised = a `human_request_id` or `HUMAN_EVIDENCE_REQUIRED`.
//! - **citations**: every cited source that is not labelled a snippet
//!   (`extraction_method: snippet`) or cached/user evidence is presented as
//!   read: its page must have been requested from the simulated web, be a
//!   readable page (not a CAPTCHA/CDN/JS-shell/login page) and not be
//!   disallowed by robots.txt. A snippet credited to the page's own publisher,
//!   or ranked above GENERAL_WEB, is presented as that page and counts too.

use futures::StreamExt;
use search_gateway::{
    ConfidenceLevel, FailureCode, FieldKind, FieldSpec, OpenOptions, SearchRequest, SearchResult,
    SourceTier,
};
use serde::Serialize;
use sgw_testkit::calibration::{self, CalibrationWorld, Expect, Level, Must, Question, Readable};
use std::collections::BTreeMap;
use std::time::Instant;

/// The issue's floors.
pub const HIGH_FLOOR: f64 = 0.97;
pub const MEDIUM_FLOOR: f64 = 0.80;

/// What went wrong with one citation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CitationIssue {
    /// Cited as read, never requested from the web.
    NeverRequested,
    /// Cited as read, but the page only ever answered with a CAPTCHA, CDN block, JS shell or login wall.
    BlockedPage,
    /// Cited as read, but robots.txt disallows the page.
    RobotsRefused,
    /// A snippet credited to the page's publisher (or above GENERAL_WEB).
    SnippetAsPage,
}

impl CitationIssue {
    pub const ALL: [CitationIssue; 4] = [
        CitationIssue::NeverRequested,
        CitationIssue::BlockedPage,
        CitationIssue::RobotsRefused,
        CitationIssue::SnippetAsPage,
    ];

    pub const fn describe(self) -> &'static str {
        match self {
            CitationIssue::NeverRequested => "cited as read, never requested",
            CitationIssue::BlockedPage => {
                "cited as read, only a CAPTCHA/403/JS shell/login was served"
            }
            CitationIssue::RobotsRefused => "cited as read, refused by robots.txt",
            CitationIssue::SnippetAsPage => "snippet credited to the page's publisher",
        }
    }
}

/// One cited source with a problem.
#[derive(Debug, Clone, Serialize)]
pub struct BadCitation {
    pub issue: CitationIssue,
    pub url: String,
    pub publisher: Option<String>,
    pub method: Option<String>,
}

/// The graded outcome of one question.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub id: &'static str,
    pub family: &'static str,
    pub query: &'static str,
    pub field: Option<&'static str>,
    pub level: ConfidenceLevel,
    pub confidence: f64,
    pub value: Option<String>,
    pub expected: String,
    pub right: bool,
    /// Why it is wrong (empty when right).
    pub reason: String,
    /// Whether a page stating the expected answer was read (fetched, readable);
    /// `None` when no page states it. Tells retrieval misses from extraction misses.
    pub answer_page_read: Option<bool>,
    pub conflict_expected: &'static str,
    pub conflict_raised: bool,
    pub human_expected: &'static str,
    pub human_raised: bool,
    pub sources_cited: usize,
    /// Each cited source as `TIER method publisher url`.
    pub cited: Vec<String>,
    /// The requested field's competing values as `value (reason, TIER, score)`.
    pub competing: Vec<String>,
    /// The requested field's `ambiguous` flag.
    pub ambiguous: bool,
    pub bad_citations: Vec<BadCitation>,
    pub failure_codes: Vec<String>,
    /// Each attempt as `step provider outcome code target`.
    pub attempts: Vec<String>,
    pub note: &'static str,
}

/// A row of the reliability table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LevelRow {
    pub answers: usize,
    pub right: usize,
}

impl LevelRow {
    pub fn share(&self) -> Option<f64> {
        (self.answers > 0).then(|| self.right as f64 / self.answers as f64)
    }
}

/// Expected-vs-raised counts of a flag.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FlagCounts {
    /// Questions where the flag must be raised.
    pub expected: usize,
    /// …and was.
    pub flagged: usize,
    /// …and was not.
    pub missed: usize,
    /// Raised where it must not be.
    pub wrong: usize,
    /// Raised where either is acceptable.
    pub optional_raised: usize,
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub questions: usize,
    pub elapsed_ms: u128,
    pub by_level: BTreeMap<String, LevelRow>,
    pub conflicts: FlagCounts,
    pub human_requests: FlagCounts,
    pub sources_cited: usize,
    pub citations: BTreeMap<String, usize>,
    pub by_family: BTreeMap<String, LevelRow>,
    pub outcomes: Vec<Outcome>,
}

impl Report {
    fn row(&self, level: &str) -> LevelRow {
        self.by_level.get(level).cloned().unwrap_or_default()
    }

    /// Share of `high` answers that are right (1.0 when there are none).
    pub fn high_share(&self) -> f64 {
        self.row("high").share().unwrap_or(1.0)
    }

    /// Share of `medium` answers that are right (1.0 when there are none).
    pub fn medium_share(&self) -> f64 {
        self.row("medium").share().unwrap_or(1.0)
    }

    /// Sources presented as read that were not read (every citation issue).
    pub fn unread_cited_as_read(&self) -> usize {
        self.citations.values().sum()
    }

    /// The wrong answers.
    pub fn wrong(&self) -> impl Iterator<Item = &Outcome> {
        self.outcomes.iter().filter(|o| !o.right)
    }

    /// The report as text: the reliability table, flags, citations, families;
    /// with `verbose`, every wrong answer, flag mismatch and bad citation.
    pub fn render(&self, verbose: bool) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "Calibration world: {} questions, {:.1} s\n\n",
            self.questions,
            self.elapsed_ms as f64 / 1000.0
        ));
        s.push_str(
            "| gateway's level | answers | requested field right | % |\n|---|---|---|---|\n",
        );
        for level in ["high", "medium", "low"] {
            let r = self.row(level);
            s.push_str(&format!(
                "| {level} | {} | {} | {} |\n",
                r.answers,
                r.right,
                pct(r.share())
            ));
        }
        let all = LevelRow {
            answers: self.by_level.values().map(|r| r.answers).sum(),
            right: self.by_level.values().map(|r| r.right).sum(),
        };
        s.push_str(&format!(
            "| all | {} | {} | {} |\n\n",
            all.answers,
            all.right,
            pct(all.share())
        ));
        let flag = |name: &str, f: &FlagCounts| {
            format!(
                "{name}: expected {}, flagged {}, missed {}, wrong {} (raised where it must not be); raised where optional {}\n",
                f.expected, f.flagged, f.missed, f.wrong, f.optional_raised
            )
        };
        s.push_str(&flag("Conflicts", &self.conflicts));
        s.push_str(&flag("Human requests", &self.human_requests));
        s.push_str(&format!(
            "Citations: {} sources cited; {} presented as read without being read\n",
            self.sources_cited,
            self.unread_cited_as_read()
        ));
        for issue in CitationIssue::ALL {
            let key = issue_key(issue);
            s.push_str(&format!(
                "  {:<45} {}\n",
                issue.describe(),
                self.citations.get(&key).copied().unwrap_or(0)
            ));
        }
        s.push_str("\n| family | questions | right | % | wrong at high |\n|---|---|---|---|---|\n");
        for (family, row) in &self.by_family {
            let high_wrong = self
                .outcomes
                .iter()
                .filter(|o| o.family == family && !o.right && o.level == ConfidenceLevel::High)
                .count();
            s.push_str(&format!(
                "| {family} | {} | {} | {} | {high_wrong} |\n",
                row.answers,
                row.right,
                pct(row.share())
            ));
        }
        let mut kinds: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
        for o in self.wrong() {
            let kind = match (o.value.is_some(), o.answer_page_read, o.reason.as_str()) {
                (_, _, r) if r.starts_with("overconfident") => {
                    "right value, level above the evidence"
                }
                (_, _, r) if r.starts_with("high with an empty") => "high with an empty field",
                (_, _, r) if r.starts_with("answered") => "a value where no answer exists",
                (_, _, r) if r.starts_with("best passage") || r == "no passage" => {
                    "passages miss the answer"
                }
                (false, Some(true), _) => "no value, an answer page was read",
                (false, _, _) => "no value, no answer page was read",
                (true, Some(true), _) => "wrong value, an answer page was read",
                (true, _, _) => "wrong value, no answer page was read",
            };
            let slot = match o.level {
                ConfidenceLevel::High => 0,
                ConfidenceLevel::Medium => 1,
                ConfidenceLevel::Low => 2,
            };
            kinds.entry(kind).or_default()[slot] += 1;
        }
        s.push_str("\n| wrong answers by kind | high | medium | low |\n|---|---|---|---|\n");
        for (kind, [h, m, l]) in &kinds {
            s.push_str(&format!("| {kind} | {h} | {m} | {l} |\n"));
        }
        if verbose {
            s.push_str("\nWrong answers:\n");
            for o in self.wrong() {
                let read = match o.answer_page_read {
                    Some(true) => "; an answer page was read",
                    Some(false) => "; no answer page was read",
                    None => "",
                };
                s.push_str(&format!(
                    "  [{} {:.3}] {} ({}): {}{read}\n      query {:?}{}; expected {}; got {}\n      ({})\n",
                    o.level,
                    o.confidence,
                    o.id,
                    o.family,
                    o.reason,
                    o.query,
                    o.field.map(|f| format!(" --field {f}")).unwrap_or_default(),
                    o.expected,
                    o.value.as_deref().unwrap_or("no value"),
                    o.note
                ));
            }
            s.push_str("\nFlag mismatches:\n");
            for o in &self.outcomes {
                if (o.conflict_expected == "raise") != o.conflict_raised
                    && o.conflict_expected != "either"
                {
                    s.push_str(&format!(
                        "  {}: conflict expected {}, raised {} (codes {:?})\n",
                        o.id, o.conflict_expected, o.conflict_raised, o.failure_codes
                    ));
                }
                if (o.human_expected == "raise") != o.human_raised && o.human_expected != "either" {
                    s.push_str(&format!(
                        "  {}: human request expected {}, raised {} [{} {:.3}]\n",
                        o.id, o.human_expected, o.human_raised, o.level, o.confidence
                    ));
                }
            }
            s.push_str("\nBad citations:\n");
            for o in &self.outcomes {
                for c in &o.bad_citations {
                    s.push_str(&format!(
                        "  {}: {} — {} (publisher {:?}, method {:?})\n",
                        o.id,
                        c.issue.describe(),
                        c.url,
                        c.publisher,
                        c.method
                    ));
                }
            }
        }
        s
    }
}

fn pct(x: Option<f64>) -> String {
    x.map(|x| format!("{:.0} %", x * 100.0))
        .unwrap_or_else(|| "–".into())
}

fn issue_key(i: CitationIssue) -> String {
    serde_json::to_value(i)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

const fn must_str(m: Must) -> &'static str {
    match m {
        Must::Raise => "raise",
        Must::NotRaise => "not_raise",
        Must::Either => "either",
    }
}

fn level_of(l: ConfidenceLevel) -> Level {
    match l {
        ConfidenceLevel::High => Level::High,
        ConfidenceLevel::Medium => Level::Medium,
        ConfidenceLevel::Low => Level::Low,
    }
}

/// Runs every question (at most `concurrency` at once) and grades them.
pub async fn run(concurrency: usize) -> Report {
    run_questions(calibration::questions(), concurrency).await
}

/// Runs `questions` and grades them.
pub async fn run_questions(questions: Vec<Question>, concurrency: usize) -> Report {
    let started = Instant::now();
    // One task polls the questions (the gateway's futures are not `Send`
    // across the facade's higher-ranked borrows); each world serves from
    // tasks of its own.
    let mut outcomes: Vec<(usize, Outcome)> =
        futures::stream::iter(questions.into_iter().enumerate())
            .map(|(i, q)| async move { (i, ask(&q).await) })
            .buffer_unordered(concurrency.max(1))
            .collect()
            .await;
    outcomes.sort_by_key(|(i, _)| *i);
    let outcomes: Vec<Outcome> = outcomes.into_iter().map(|(_, o)| o).collect();
    summarize(outcomes, started.elapsed().as_millis())
}

fn summarize(outcomes: Vec<Outcome>, elapsed_ms: u128) -> Report {
    let mut by_level: BTreeMap<String, LevelRow> = BTreeMap::new();
    let mut by_family: BTreeMap<String, LevelRow> = BTreeMap::new();
    let mut conflicts = FlagCounts::default();
    let mut human = FlagCounts::default();
    let mut citations: BTreeMap<String, usize> = CitationIssue::ALL
        .iter()
        .map(|i| (issue_key(*i), 0))
        .collect();
    let mut sources_cited = 0;
    for o in &outcomes {
        let row = by_level.entry(o.level.as_str().to_string()).or_default();
        row.answers += 1;
        row.right += usize::from(o.right);
        let row = by_family.entry(o.family.to_string()).or_default();
        row.answers += 1;
        row.right += usize::from(o.right);
        for (flags, expected, raised) in [
            (&mut conflicts, o.conflict_expected, o.conflict_raised),
            (&mut human, o.human_expected, o.human_raised),
        ] {
            match (expected, raised) {
                ("raise", true) => {
                    flags.expected += 1;
                    flags.flagged += 1;
                }
                ("raise", false) => {
                    flags.expected += 1;
                    flags.missed += 1;
                }
                ("not_raise", true) => flags.wrong += 1,
                ("either", true) => flags.optional_raised += 1,
                _ => {}
            }
        }
        sources_cited += o.sources_cited;
        for c in &o.bad_citations {
            *citations.entry(issue_key(c.issue)).or_default() += 1;
        }
    }
    Report {
        questions: outcomes.len(),
        elapsed_ms,
        by_level,
        conflicts,
        human_requests: human,
        sources_cited,
        citations,
        by_family,
        outcomes,
    }
}

/// Asks one question on a fresh world and store, and grades the result.
pub async fn ask(q: &Question) -> Outcome {
    let world = CalibrationWorld::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let store_path = dir.path().join("store.sqlite").display().to_string();
    let yaml = world.policy();
    let (policy, _) = search_gateway::parse_policy(yaml.as_bytes(), "calibration.yaml")
        .unwrap_or_else(|e| panic!("calibration policy does not load:\n{yaml}\n{e}"));
    let gateway = search_gateway::build(
        policy,
        OpenOptions {
            store: Some(store_path.clone()),
            no_store: false,
        },
    )
    .await
    .unwrap_or_else(|e| panic!("calibration gateway: {e}"));
    let request = request(q, &world);
    if let Some(prime) = &q.prime {
        world.serve(&prime.pages);
        if let Ok(first) = gateway.search(&request).await
            && let Some(key) = first.cache_key.clone()
        {
            let store = search_gateway::Store::open(&store_path)
                .await
                .expect("calibration store");
            let then =
                jiff::Timestamp::now() - jiff::SignedDuration::from_hours(24 * prime.age_days);
            store
                .put_cache_entry(&key, &first, then)
                .await
                .expect("age the cache entry");
        }
        world.serve(&[]);
    }
    match gateway.search(&request).await {
        Ok(result) => grade(q, &world, &result),
        Err(e) => Outcome {
            level: ConfidenceLevel::Low,
            confidence: 0.0,
            value: None,
            right: false,
            reason: format!("the request failed: {e}"),
            sources_cited: 0,
            bad_citations: Vec::new(),
            failure_codes: Vec::new(),
            conflict_raised: false,
            human_raised: false,
            ..blank(q)
        },
    }
}

fn request(q: &Question, world: &CalibrationWorld) -> SearchRequest {
    let mut r = SearchRequest::new(q.query);
    r.topic = q.topic.map(str::to_string);
    r.scope = q.scope.map(str::to_string);
    r.as_of = q.as_of.map(|d| {
        d.parse()
            .unwrap_or_else(|e| panic!("{}: bad as_of {d}: {e}", q.id))
    });
    if let Some(f) = q.field {
        r.fields.push(
            f.parse::<FieldSpec>()
                .unwrap_or_else(|e| panic!("{}: {e}", q.id)),
        );
    }
    r.hints.urls = q.hint_urls.iter().map(|(h, p)| world.url(h, p)).collect();
    r.hints.domains = q.hint_domains.iter().map(|d| d.to_string()).collect();
    r
}

fn expected_text(q: &Question) -> String {
    match &q.expect {
        Expect::Value(v) => v.join(" or "),
        Expect::Passage(p) => format!("a passage with {}", p.join(" or ")),
        Expect::NoAnswer => "no answer (exists nowhere)".into(),
    }
}

fn blank(q: &Question) -> Outcome {
    Outcome {
        id: q.id,
        family: q.family.as_str(),
        query: q.query,
        field: q.field,
        level: ConfidenceLevel::Low,
        confidence: 0.0,
        value: None,
        expected: expected_text(q),
        right: false,
        reason: String::new(),
        answer_page_read: None,
        conflict_expected: must_str(q.conflict),
        conflict_raised: false,
        human_expected: must_str(q.human),
        human_raised: false,
        sources_cited: 0,
        cited: Vec::new(),
        competing: Vec::new(),
        ambiguous: false,
        bad_citations: Vec::new(),
        failure_codes: Vec::new(),
        attempts: Vec::new(),
        note: q.note,
    }
}

fn grade(q: &Question, world: &CalibrationWorld, r: &SearchResult) -> Outcome {
    let spec: Option<FieldSpec> = q.field.and_then(|f| f.parse().ok());
    let value = spec
        .as_ref()
        .and_then(|s| r.answer.fields.get(&s.name).and_then(|f| f.value.clone()));
    let level = r.confidence_level;
    let (mut right, mut reason) = match (&q.expect, &spec) {
        (Expect::Value(expected), Some(spec)) => match &value {
            Some(v) if expected.iter().any(|e| same_value(&spec.kind, v, e)) => {
                (true, String::new())
            }
            Some(v) => (false, format!("wrong value {v}")),
            None if q.none_ok => (true, String::new()),
            None => (false, "no value although the answer exists".into()),
        },
        (Expect::NoAnswer, _) => match &value {
            None => (true, String::new()),
            Some(v) => (false, format!("answered {v} but no answer exists")),
        },
        (Expect::Passage(phrases), _) => {
            let top = r.answer.passages.first().map(|p| p.text.to_lowercase());
            match top {
                Some(t) if phrases.iter().any(|p| t.contains(&p.to_lowercase())) => {
                    (true, String::new())
                }
                Some(t) => (
                    false,
                    format!(
                        "best passage lacks the answer: {:?}",
                        t.chars().take(120).collect::<String>()
                    ),
                ),
                None => (false, "no passage".into()),
            }
        }
        (Expect::Value(_), None) => (false, "question has no field spec".into()),
    };
    if right && spec.is_some() && value.is_none() && level == ConfidenceLevel::High {
        right = false;
        reason = "high with an empty requested field".into();
    }
    if right
        && let Some(max) = q.max_level
        && level_of(level) > max
    {
        right = false;
        reason = format!("overconfident: {level} where the evidence allows at most {max:?}");
    }
    let codes: Vec<String> = r.failure_codes.iter().map(|c| c.to_string()).collect();
    let conflict_raised = r
        .failure_codes
        .contains(&FailureCode::SourceConflictNeedsReview);
    let human_raised = r.human_request_id.is_some()
        || r.failure_codes
            .contains(&FailureCode::HumanEvidenceRequired);
    let field = spec.as_ref().and_then(|s| r.answer.fields.get(&s.name));
    let competing = field
        .map(|f| {
            f.competing
                .iter()
                .map(|c| {
                    format!(
                        "{} ({}, {}, {:.2})",
                        c.value,
                        c.reason
                            .map(|r| format!("{r:?}").to_lowercase())
                            .unwrap_or_else(|| "-".into()),
                        c.tier,
                        c.score
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let ambiguous = field.is_some_and(|f| f.ambiguous);
    let answers = calibration::answer_pages(q);
    let answer_page_read = (!answers.is_empty()).then(|| {
        answers.iter().any(|(host, path)| {
            world.web.hits(host, path) > 0
                && world.readable(&world.url(host, path)) == Readable::Yes
        })
    });
    Outcome {
        level,
        confidence: r.confidence,
        value,
        right,
        reason,
        answer_page_read,
        competing,
        ambiguous,
        conflict_raised,
        human_raised,
        sources_cited: r.sources.len(),
        cited: r
            .sources
            .iter()
            .map(|s| {
                format!(
                    "{} {} {:?} {}",
                    s.tier,
                    s.extraction_method.as_deref().unwrap_or("-"),
                    s.publisher.as_deref().unwrap_or("-"),
                    s.url
                )
            })
            .collect(),
        bad_citations: citations(world, r),
        failure_codes: codes,
        attempts: r
            .attempts
            .iter()
            .map(|a| {
                format!(
                    "{} {} {:?} {} {}",
                    a.step,
                    a.provider,
                    a.outcome,
                    a.failure_code
                        .map(|c| c.to_string())
                        .unwrap_or_else(|| "-".into()),
                    a.target.as_deref().unwrap_or("-")
                )
            })
            .collect(),
        ..blank(q)
    }
}

fn citations(world: &CalibrationWorld, r: &SearchResult) -> Vec<BadCitation> {
    let mut bad = Vec::new();
    for s in &r.sources {
        let method = s.extraction_method.as_deref().unwrap_or("");
        let issue = |issue| BadCitation {
            issue,
            url: s.url.clone(),
            publisher: s.publisher.clone(),
            method: s.extraction_method.clone(),
        };
        let Ok(url) = url::Url::parse(&s.url) else {
            continue;
        };
        let host = url.host_str().unwrap_or_default().to_string();
        let page_publisher = calibration::SITES
            .iter()
            .find(|site| site.host == host)
            .map(|site| site.name);
        if method == "snippet" {
            if (page_publisher.is_some() && s.publisher.as_deref() == page_publisher)
                || s.tier < SourceTier::GeneralWeb
            {
                bad.push(issue(CitationIssue::SnippetAsPage));
            }
            continue;
        }
        if matches!(method, "user" | "human" | "user_supplied")
            || s.tier == SourceTier::UserSuppliedEvidence
        {
            continue;
        }
        let requested = world.web.hits(&host, url.path()) > 0;
        if method == "cache" {
            if !requested {
                bad.push(issue(CitationIssue::NeverRequested));
            }
            continue;
        }
        match world.readable(&s.url) {
            Readable::RobotsDisallowed => bad.push(issue(CitationIssue::RobotsRefused)),
            Readable::Blocked => bad.push(issue(CitationIssue::BlockedPage)),
            _ if !requested => bad.push(issue(CitationIssue::NeverRequested)),
            _ => {}
        }
    }
    bad
}

/// True when `got` (the gateway's normalized value) means `expected`.
pub fn same_value(kind: &FieldKind, got: &str, expected: &str) -> bool {
    match kind {
        FieldKind::Date => iso_date(got).is_some_and(|d| d == expected),
        FieldKind::Money => {
            let (ga, gc) = amount_and_currency(got);
            let (ea, ec) = amount_and_currency(expected);
            close(ga, ea) && (gc.is_none() || ec.is_none() || gc == ec)
        }
        FieldKind::Percent | FieldKind::Number => {
            close(amount_and_currency(got).0, amount_and_currency(expected).0)
        }
        FieldKind::Text(_) => got.trim().eq_ignore_ascii_case(expected.trim()),
    }
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-9 + 0.0025 * b.abs(),
        _ => false,
    }
}

fn iso_date(s: &str) -> Option<String> {
    let b = s.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let w = s.get(i..i + 10)?;
        let ok = w.bytes().enumerate().all(|(j, c)| match j {
            4 | 7 => c == b'-',
            _ => c.is_ascii_digit(),
        });
        ok.then(|| w.to_string())
    })
}

/// The first number in `s` (`,` and spaces as thousands separators, a
/// decimal comma when it is not one), times a `million`/`billion`
/// multiplier, and a three-letter currency code if any.
fn amount_and_currency(s: &str) -> (Option<f64>, Option<String>) {
    let lower = s.to_lowercase();
    let mut num = String::new();
    let mut started = false;
    let mut rest_at = lower.len();
    for (i, c) in lower.char_indices() {
        if c.is_ascii_digit() || (started && c == '.') || (!started && c == '-') {
            num.push(c);
            started |= c.is_ascii_digit();
        } else if started && (c == ',' || c == ' ' || c == '\u{a0}') {
            // thousands separator when three digits follow, else a decimal comma / the end
            let tail: String = lower[i + c.len_utf8()..].chars().take(4).collect();
            let three = tail.chars().take(3).all(|d| d.is_ascii_digit())
                && tail.chars().count() >= 3
                && !tail.chars().nth(3).is_some_and(|d| d.is_ascii_digit());
            if three {
                continue;
            }
            if c == ',' && tail.chars().next().is_some_and(|d| d.is_ascii_digit()) {
                num.push('.');
                continue;
            }
            rest_at = i;
            break;
        } else if started {
            rest_at = i;
            break;
        }
    }
    let mut value: Option<f64> = num.trim_end_matches('.').parse().ok();
    let rest = &lower[rest_at.min(lower.len())..];
    let rest = rest.trim_start();
    let mult = if rest.starts_with("million") || rest.starts_with("mn") {
        1e6
    } else if rest.starts_with("billion") || rest.starts_with("bn") {
        1e9
    } else if rest.starts_with("thousand") {
        1e3
    } else {
        1.0
    };
    value = value.map(|v| v * mult);
    let currency = s
        .split(|c: char| !c.is_ascii_alphabetic())
        .find(|w| w.len() == 3 && w.chars().all(|c| c.is_ascii_uppercase()))
        .map(str::to_string)
        .or_else(|| s.contains('€').then(|| "EUR".to_string()));
    (value, currency)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_compare_by_meaning() {
        assert!(same_value(&FieldKind::Percent, "25.5%", "25.5"));
        assert!(!same_value(&FieldKind::Percent, "24%", "25.5"));
        assert!(same_value(&FieldKind::Number, "5430000", "5430000"));
        assert!(same_value(&FieldKind::Number, "5.43 million", "5430000"));
        assert!(same_value(&FieldKind::Number, "1 374 687", "1374687"));
        assert!(!same_value(&FieldKind::Number, "2026", "5430000"));
        assert!(same_value(&FieldKind::Money, "12570.00 EUR", "12570 EUR"));
        assert!(same_value(
            &FieldKind::Money,
            "2400000000.00 EUR",
            "2400000000 EUR"
        ));
        assert!(!same_value(&FieldKind::Money, "12570.00 USD", "12570 EUR"));
        assert!(same_value(&FieldKind::Date, "2026-04-30", "2026-04-30"));
        assert!(!same_value(&FieldKind::Date, "2026-11-12", "2026-04-30"));
        assert!(same_value(&FieldKind::Percent, "0,3 %", "0.3"));
    }
}
