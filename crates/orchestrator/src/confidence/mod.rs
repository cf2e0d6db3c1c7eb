//! Per-field confidence: which value a field takes, who supports it, what
//! competes with it, and how sure the answer may be (`docs/confidence.md`).
//!
//! Each piece of evidence *votes* for the best-fitting candidate it holds for a
//! field (the field finder's [`sgw_contract::FoundField::score`]); a page whose
//! runner-up is within [`AMBIGUITY_MARGIN`] of its best does not separate them.
//! Values are ranked: backed by a read page before snippet-only, fresh
//! before stale cache, by a page covering the question before off-topic
//! ones, stated as a strong fit before weak ones, more trusted tier first; within the best tier a newer dated
//! statement beats older ones, then more independent supporters win; what is
//! still tied is a conflict, never settled by string order.
//!
//! A field is scored with the seed's formula over the sources that **support
//! its value** (one per independent publisher, near-duplicate texts once,
//! snippets never), minus the penalties of the codes bearing on that evidence,
//! then capped by the rules that bound what such evidence can claim
//! (ambiguity, coverage of the question, weak candidates, snippets only). The
//! result's confidence is its weakest field's, or the passages' when no field
//! is asked.

mod coverage;
mod similar;

use crate::answer::Used;
pub(crate) use coverage::{Band, Question, content_terms, coverage};
use sgw_contract::{
    AnswerField, CompetingReason, ConfidenceLevel, FailureCode, FieldCandidate, FieldKind,
    FieldSpec, ScoreBreakdown, Scoring, SearchRequest, SourceTier, normalize_query,
};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::OnceLock;

/// A candidate fitting the question less than this never supports a value
/// (the finder's non-answers: a page about another subject, year or place).
pub(crate) const MIN_FIT: f64 = 0.5;
/// A page's runner-up within this of its best candidate: the page does not separate them.
pub(crate) const AMBIGUITY_MARGIN: f64 = 0.1;
/// `high` needs a page that states the value this far ahead of any other
/// value of the field it holds (an unresolved rival keeps it at `medium`).
pub(crate) const CLEAR_MARGIN: f64 = 0.2;
/// A value whose best supporting candidate fits less than this is at most
/// `low` (the finder's weak fits: a term of the question missing from the
/// sentence, a qualifier or year against it, outside the `as_of` window).
pub(crate) const STRONG_FIT: f64 = 0.65;

/// Passages per piece of evidence that must carry a passage answer (the
/// answer shows at most three per source).
const PASSAGES_READ: usize = 3;

/// The scoring model and the level thresholds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Model<'a> {
    pub scoring: &'a Scoring,
    pub high: f64,
    pub medium: f64,
}

impl Model<'_> {
    fn level(&self, confidence: f64) -> ConfidenceLevel {
        ConfidenceLevel::from_score(confidence, self.high, self.medium)
    }
    /// The highest score that is still `low`.
    fn low_cap(&self) -> f64 {
        self.medium - 0.01
    }
    /// The highest score that is still `medium`.
    fn medium_cap(&self) -> f64 {
        self.high - 0.01
    }
    fn band_cap(&self, band: Band) -> Option<(f64, &'static str)> {
        let reason = band.cap_reason()?;
        Some(if band == Band::Answers {
            (self.medium_cap(), reason)
        } else {
            (self.low_cap(), reason)
        })
    }
}

/// The answer's fields and the result's score.
#[derive(Debug, Clone)]
pub(crate) struct Assessment {
    pub fields: BTreeMap<String, AnswerField>,
    /// True when sources of comparable tier disagree on a field.
    pub conflict: bool,
    pub confidence: f64,
    pub level: ConfidenceLevel,
    pub breakdown: ScoreBreakdown,
}

/// What an assessment reads of one piece of used evidence that depends on
/// it and the run's request alone (both fixed once it is used): worked out by
/// the first assessment that needs it, read by the later ones. The chain
/// assesses after every step and again for the result; a long page's text is
/// read once for its coverage and its shingles, not each time.
#[derive(Debug, Clone, Default)]
pub(crate) struct Memo {
    /// (`band`, `passage_band`) of [`Facts`].
    bands: OnceLock<(Band, Band)>,
    /// Its shingles (`None` for a snippet), see [`similar`].
    shingles: OnceLock<Option<HashSet<u64>>>,
}

/// What is known of each piece of used evidence, computed once per assessment.
struct Facts {
    /// Coverage of the question by the title and text (for field values).
    band: Vec<Band>,
    /// Coverage by the title and the ranked passages (for passage answers):
    /// a page that names every term somewhere but answers nowhere is not an answer.
    passage_band: Vec<Band>,
    /// Independence cluster per evidence: same publisher or near-duplicate text.
    cluster: Vec<usize>,
}

impl Facts {
    fn new(used: &[Used], request: &SearchRequest) -> Facts {
        let terms = question_terms(request);
        let question = Question::new(&terms);
        let scope = request.scope.as_deref().map(normalize_query);
        let band_of = |u: &Used, text: &str| {
            if u.tier == SourceTier::UserSuppliedEvidence {
                // A person handed it in for this very question.
                return Band::Full;
            }
            // A registry source authoritative for other scopes only speaks
            // of another jurisdiction than the one asked about.
            if let Some(scope) = &scope
                && !u.scopes.is_empty()
                && !u.scopes.iter().any(|s| normalize_query(s) == *scope)
            {
                return Band::Partial;
            }
            // The publisher's name is context of every sentence of its page
            // ("Statistics Norland" names the country its pages leave implicit).
            let context = format!("{} {}", u.evidence.title, u.publisher);
            let published = u.evidence.published_at.as_deref();
            coverage(&question, &context, text, published).band
        };
        let bands: Vec<(Band, Band)> = used
            .iter()
            .map(|u| {
                *u.memo.bands.get_or_init(|| {
                    let band = band_of(u, &u.evidence.text);
                    if u.evidence.passages.is_empty() {
                        return (band, band);
                    }
                    let passages: Vec<&str> = u
                        .evidence
                        .passages
                        .iter()
                        .take(PASSAGES_READ)
                        .map(|p| p.text.as_str())
                        .collect();
                    (band, band_of(u, &passages.join(" \n ")))
                })
            })
            .collect();
        Facts {
            band: bands.iter().map(|b| b.0).collect(),
            passage_band: bands.iter().map(|b| b.1).collect(),
            cluster: clusters(used),
        }
    }
}

/// The terms a text must cover to answer `request`: the query's content
/// terms without the words of the request's scope (judged by the sources'
/// declared scopes instead: a national paper rarely names its own country)
/// and without the words that only name the kind of a requested field (a
/// page gives a date without saying "date").
fn question_terms(request: &SearchRequest) -> BTreeSet<String> {
    let mut terms = content_terms(&request.query);
    if let Some(scope) = &request.scope {
        for w in content_terms(scope) {
            terms.remove(&w);
        }
    }
    for f in &request.fields {
        let kind_words: &[&str] = match f.kind {
            FieldKind::Date => &["date", "day"],
            FieldKind::Money => &["amount", "cost"],
            FieldKind::Number => &["number", "count"],
            FieldKind::Percent => &["percentage"],
            FieldKind::Text(_) => &[],
        };
        for w in kind_words {
            terms.remove(*w);
        }
    }
    terms
}

/// Union of "same independent publisher" and "near-duplicate text".
fn clusters(used: &[Used]) -> Vec<usize> {
    let n = used.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let keys: Vec<String> = used.iter().map(Used::independence_key).collect();
    // Only read when two keys differ (never for a single piece of evidence).
    fn shingles(u: &Used) -> Option<&HashSet<u64>> {
        u.memo
            .shingles
            .get_or_init(|| (!u.evidence.snippet_only).then(|| similar::shingles(&u.evidence.text)))
            .as_ref()
    }
    for i in 0..n {
        for j in 0..i {
            let same = keys[i] == keys[j]
                || matches!((shingles(&used[i]), shingles(&used[j])),
                    (Some(a), Some(b)) if similar::near_duplicate(a, b));
            if same {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    (0..n).map(|i| find(&mut parent, i)).collect()
}

/// One representative per independence cluster (its best tier, then the earliest).
fn representatives(used: &[Used], facts: &Facts, indices: &[usize]) -> Vec<usize> {
    let mut best: BTreeMap<usize, usize> = BTreeMap::new();
    for &i in indices {
        let c = facts.cluster[i];
        match best.get(&c) {
            Some(&b) if used[b].tier <= used[i].tier => {}
            _ => {
                best.insert(c, i);
            }
        }
    }
    let mut reps: Vec<usize> = best.into_values().collect();
    reps.sort_unstable();
    reps
}

/// Scores the counted evidence with the codes that bear on it.
fn score(
    used: &[Used],
    counted: &[usize],
    conflict: bool,
    run_codes: &[FailureCode],
    model: &Model<'_>,
) -> ScoreBreakdown {
    let mut codes = Vec::new();
    if conflict {
        codes.push(FailureCode::SourceConflictNeedsReview);
    }
    if counted.iter().any(|&i| used[i].evidence.truncated) {
        codes.push(FailureCode::SearchResultTruncated);
    }
    if counted.iter().any(|&i| used[i].stale) {
        codes.push(FailureCode::EvidenceCacheStale);
    }
    if run_codes.contains(&FailureCode::HumanEvidenceRequired) {
        codes.push(FailureCode::HumanEvidenceRequired);
    }
    let counted = counted
        .iter()
        .map(|&i| {
            let u = &used[i];
            let id = u.evidence.evidence_id.as_deref();
            model.scoring.counted(id, Some(&u.publisher), u.tier)
        })
        .collect();
    model.scoring.breakdown_counted(counted, &codes)
}

/// Assesses the answer of `used` for `request`. `run_codes` are the run's
/// failure codes so far (without the conflict this assessment finds).
pub(crate) fn assess(
    used: &[Used],
    request: &SearchRequest,
    model: &Model<'_>,
    run_codes: &[FailureCode],
) -> Assessment {
    let facts = Facts::new(used, request);
    let mut fields = BTreeMap::new();
    let mut conflict = false;
    for spec in &request.fields {
        let (field, c) = assess_field(spec, used, &facts, model, run_codes);
        conflict |= c;
        fields.insert(spec.name.clone(), field);
    }
    let mut all_codes = run_codes.to_vec();
    if conflict {
        all_codes.push(FailureCode::SourceConflictNeedsReview);
    }
    for f in fields.values_mut() {
        if let Some(b) = &mut f.score_breakdown {
            set_diagnosis(b, &all_codes);
        }
    }
    let mut breakdown = match fields
        .values()
        .filter_map(|f| f.score_breakdown.as_ref())
        .min_by(|a, b| a.confidence.total_cmp(&b.confidence))
    {
        Some(weakest) => weakest.clone(),
        None => assess_passages(used, &facts, model, run_codes),
    };
    set_diagnosis(&mut breakdown, &all_codes);
    let confidence = breakdown.confidence;
    Assessment {
        fields,
        conflict,
        confidence,
        level: model.level(confidence),
        breakdown,
    }
}

fn set_diagnosis(b: &mut ScoreBreakdown, all_codes: &[FailureCode]) {
    let penalised: BTreeSet<FailureCode> = b.penalties.iter().map(|p| p.code).collect();
    let mut seen = BTreeSet::new();
    b.diagnosis_only = all_codes
        .iter()
        .copied()
        .filter(|c| !penalised.contains(c) && seen.insert(*c))
        .collect();
}

/// Without fields: the sources whose text really answers the question count.
fn assess_passages(
    used: &[Used],
    facts: &Facts,
    model: &Model<'_>,
    run_codes: &[FailureCode],
) -> ScoreBreakdown {
    let read: Vec<usize> = (0..used.len())
        .filter(|&i| !used[i].evidence.snippet_only)
        .collect();
    let answering: Vec<usize> = read
        .iter()
        .copied()
        .filter(|&i| facts.passage_band[i].answers())
        .collect();
    let (pool, snippet_only) = if !answering.is_empty() {
        (answering, false)
    } else if !read.is_empty() {
        (read, false)
    } else {
        ((0..used.len()).take(1).collect(), true)
    };
    if pool.is_empty() {
        return ScoreBreakdown::default();
    }
    let counted = representatives(used, facts, &pool);
    let mut b = score(used, &counted, false, run_codes, model);
    if snippet_only {
        b.cap(model.low_cap(), "snippet_only");
    }
    let best_band = counted.iter().map(|&i| facts.passage_band[i]).min();
    if let Some((max, reason)) = best_band.and_then(|band| model.band_cap(band)) {
        b.cap(max, reason);
    }
    b
}

/// One page's vote for a field.
#[derive(Debug, Clone)]
struct Vote {
    used: usize,
    value: String,
    quote: String,
    score: f64,
    /// A runner-up the page does not separate from the vote: (value, quote, score).
    runner_up: Option<(String, String, f64)>,
    /// The page's best other value scores within [`CLEAR_MARGIN`] of the vote.
    close_rival: bool,
}

/// An amount whose integer part has a leading zero (`000`, `015`) is a piece
/// of a number cut at a thousands separator the finder did not read, not a value.
fn is_fragment(kind: &FieldKind, value: &str) -> bool {
    if !matches!(
        kind,
        FieldKind::Number | FieldKind::Money | FieldKind::Percent
    ) {
        return false;
    }
    let amount = value.rsplit(' ').next().unwrap_or(value);
    let amount = amount.trim_start_matches(['-', '+']);
    let int: &str = amount.split(['.', '%']).next().unwrap_or("");
    int.len() > 1 && int.starts_with('0') && int.chars().all(|c| c.is_ascii_digit())
}

fn votes(spec: &FieldSpec, used: &[Used]) -> Vec<Vote> {
    let mut votes = Vec::new();
    for (i, u) in used.iter().enumerate() {
        // value → (best score, its quote), in the finder's order
        let mut best: Vec<(String, f64, String)> = Vec::new();
        for f in u.evidence.fields.iter().filter(|f| {
            f.name == spec.name && !f.value.trim().is_empty() && !is_fragment(&spec.kind, &f.value)
        }) {
            let s = if f.score.is_finite() {
                f.score.clamp(0.0, 1.0)
            } else {
                0.0
            };
            match best.iter_mut().find(|b| b.0 == f.value) {
                Some(b) if s > b.1 => {
                    b.1 = s;
                    b.2 = f.quote.clone();
                }
                Some(_) => {}
                None => best.push((f.value.clone(), s, f.quote.clone())),
            }
        }
        best.sort_by(|a, b| b.1.total_cmp(&a.1));
        let Some(top) = best.first() else { continue };
        if top.1 < MIN_FIT {
            continue;
        }
        let runner_up = best
            .get(1)
            .filter(|r| r.1 >= MIN_FIT && top.1 - r.1 < AMBIGUITY_MARGIN)
            .map(|r| (r.0.clone(), r.2.clone(), r.1));
        let close_rival = best
            .get(1)
            .is_some_and(|r| r.1 >= MIN_FIT && top.1 - r.1 < CLEAR_MARGIN);
        votes.push(Vote {
            used: i,
            value: top.0.clone(),
            quote: top.2.clone(),
            score: top.1,
            runner_up,
            close_rival,
        });
    }
    votes
}

/// Everything one value has going for it.
#[derive(Debug, Clone)]
struct Group {
    value: String,
    votes: Vec<Vote>,
    /// Evidence read as a page (not snippets) voting for it.
    read: Vec<usize>,
    /// Some page voting for it covers the question (band `Full` or `Answers`).
    on_topic: bool,
    /// Some read page states it as a strong fit (score ≥ [`STRONG_FIT`]).
    strong: bool,
    fresh: bool,
    tier: SourceTier,
    /// The newest date of its statements at its best tier (when all are dated).
    newest: Option<jiff::civil::Date>,
    support: usize,
    first: usize,
}

fn date_of(u: &Used) -> Option<jiff::civil::Date> {
    let p = u.evidence.published_at.as_deref()?;
    p.get(..10)?.parse().ok()
}

fn groups(votes: &[Vote], used: &[Used], facts: &Facts) -> Vec<Group> {
    let mut by_value: Vec<(String, Vec<Vote>)> = Vec::new();
    for v in votes {
        match by_value.iter_mut().find(|(value, _)| *value == v.value) {
            Some((_, vs)) => vs.push(v.clone()),
            None => by_value.push((v.value.clone(), vec![v.clone()])),
        }
    }
    by_value
        .into_iter()
        .map(|(value, votes)| {
            let read: Vec<usize> = votes
                .iter()
                .map(|v| v.used)
                .filter(|&i| !used[i].evidence.snippet_only)
                .collect();
            let pool: Vec<usize> = if read.is_empty() {
                votes.iter().map(|v| v.used).collect()
            } else {
                read.clone()
            };
            let tier = pool
                .iter()
                .map(|&i| used[i].tier)
                .min()
                .unwrap_or(SourceTier::GeneralWeb);
            let at_tier: Vec<usize> = pool
                .iter()
                .copied()
                .filter(|&i| used[i].tier == tier)
                .collect();
            let dates: Vec<Option<jiff::civil::Date>> =
                at_tier.iter().map(|&i| date_of(&used[i])).collect();
            let newest = if dates.iter().all(Option::is_some) {
                dates.into_iter().flatten().max()
            } else {
                None
            };
            let support = pool
                .iter()
                .map(|&i| facts.cluster[i])
                .collect::<BTreeSet<_>>()
                .len();
            Group {
                on_topic: read.iter().any(|&i| facts.band[i].answers()),
                strong: votes
                    .iter()
                    .any(|v| !used[v.used].evidence.snippet_only && v.score >= STRONG_FIT),
                fresh: read.iter().any(|&i| !used[i].stale),
                first: pool.iter().copied().min().unwrap_or(usize::MAX),
                value,
                votes,
                read,
                tier,
                newest,
                support,
            }
        })
        .collect()
}

/// How the winner was told apart from the rest of its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decided {
    /// Alone in its class (read/fresh/tier).
    Class,
    /// The newest dated statement.
    Date,
    /// More independent supporters.
    Support,
    /// Not separated: a tie.
    Tie,
}

/// Orders the groups best first and says how the first was chosen.
fn rank(mut groups: Vec<Group>) -> (Vec<Group>, Decided) {
    let class = |g: &Group| (g.read.is_empty(), !g.fresh, !g.on_topic, !g.strong, g.tier);
    groups.sort_by(|a, b| class(a).cmp(&class(b)).then(a.first.cmp(&b.first)));
    let Some(top) = groups.first() else {
        return (groups, Decided::Class);
    };
    let top_class = class(top);
    let n = groups.iter().take_while(|g| class(g) == top_class).count();
    if n == 1 {
        return (groups, Decided::Class);
    }
    let head = &mut groups[..n];
    if head.iter().all(|g| g.newest.is_some()) {
        head.sort_by(|a, b| b.newest.cmp(&a.newest).then(a.first.cmp(&b.first)));
        if head[0].newest != head[1].newest {
            return (groups, Decided::Date);
        }
    }
    head.sort_by(|a, b| b.support.cmp(&a.support).then(a.first.cmp(&b.first)));
    let decided = if head[0].support > head[1].support {
        Decided::Support
    } else {
        Decided::Tie
    };
    (groups, decided)
}

fn reason(winner: &Group, loser: &Group, decided: Decided, used: &[Used]) -> CompetingReason {
    // An older statement is superseded by its own publisher's newer one; two
    // publishers that disagree stay a conflict, whatever their dates.
    let publishers = |g: &Group| -> BTreeSet<String> {
        g.read.iter().map(|&i| used[i].independence_key()).collect()
    };
    if loser.read.is_empty() {
        CompetingReason::Snippet
    } else if winner.fresh && !loser.fresh {
        CompetingReason::Stale
    } else if winner.on_topic && !loser.on_topic {
        CompetingReason::OffTopic
    } else if !loser.strong {
        // A weak candidate of another page is not a statement against the value.
        CompetingReason::Outranked
    } else if loser.tier == winner.tier
        && decided == Decided::Date
        && loser.newest.is_some()
        && loser.newest < winner.newest
        && publishers(loser).is_subset(&publishers(winner))
    {
        CompetingReason::Superseded
    } else if loser.tier <= SourceTier::AuthoritativeMedia || loser.tier <= winner.tier {
        // A source at least as trusted as the chosen value's, or any
        // media-or-better source, backs it. A lone general-web outlier
        // against an official value is listed, not a conflict.
        CompetingReason::Conflict
    } else {
        CompetingReason::Outranked
    }
}

fn candidate(group: &Group, used: &[Used], reason: CompetingReason) -> FieldCandidate {
    let best = group.votes.iter().min_by_key(|v| {
        (
            used[v.used].evidence.snippet_only,
            used[v.used].tier,
            v.used,
        )
    });
    FieldCandidate {
        value: group.value.clone(),
        sources: cites(used, group.votes.iter().map(|v| v.used)),
        tier: group.tier,
        quote: best.map(|v| v.quote.clone()).unwrap_or_default(),
        score: group.votes.iter().map(|v| v.score).fold(0.0, f64::max),
        reason: Some(reason),
    }
}

fn cites(used: &[Used], indices: impl Iterator<Item = usize>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in indices {
        let c = used[i].cite();
        if !c.is_empty() && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// One field: its value, support, competition and confidence; true on conflict.
fn assess_field(
    spec: &FieldSpec,
    used: &[Used],
    facts: &Facts,
    model: &Model<'_>,
    run_codes: &[FailureCode],
) -> (AnswerField, bool) {
    let votes = votes(spec, used);
    let (ranked, decided) = rank(groups(&votes, used, facts));
    let mut iter = ranked.into_iter();
    let Some(winner) = iter.next() else {
        let mut b = ScoreBreakdown::default();
        b.cap(0.0, "no_value");
        let field = AnswerField {
            kind: spec.kind.clone(),
            value: None,
            sources: Vec::new(),
            competing: Vec::new(),
            confidence: 0.0,
            level: ConfidenceLevel::Low,
            ambiguous: false,
            score_breakdown: Some(b),
        };
        return (field, false);
    };
    let tie = decided == Decided::Tie;
    let mut competing: Vec<FieldCandidate> = iter
        .map(|g| {
            let r = if tie && g.strong && g.tier == winner.tier && g.support == winner.support {
                CompetingReason::Conflict
            } else {
                reason(&winner, &g, decided, used)
            };
            candidate(&g, used, r)
        })
        .collect();
    let conflict = competing
        .iter()
        .any(|c| c.reason == Some(CompetingReason::Conflict));

    // The votes that count: pages read (snippets only when nothing else).
    let counting: Vec<&Vote> = if winner.read.is_empty() {
        winner.votes.iter().take(1).collect()
    } else {
        winner
            .votes
            .iter()
            .filter(|v| !used[v.used].evidence.snippet_only)
            .collect()
    };
    let page_ambiguous = counting.iter().all(|v| v.runner_up.is_some());
    for v in &counting {
        if let Some((value, quote, score)) = &v.runner_up
            && *value != winner.value
            && !competing.iter().any(|c| c.value == *value)
        {
            competing.push(FieldCandidate {
                value: value.clone(),
                sources: cites(used, std::iter::once(v.used)),
                tier: used[v.used].tier,
                quote: quote.clone(),
                score: *score,
                reason: Some(CompetingReason::Ambiguous),
            });
        }
    }
    let ambiguous = tie || page_ambiguous;

    let indices: Vec<usize> = counting.iter().map(|v| v.used).collect();
    let counted = representatives(used, facts, &indices);
    let mut b = score(used, &counted, conflict, run_codes, model);
    if winner.read.is_empty() {
        b.cap(model.low_cap(), "snippet_only");
    }
    if ambiguous {
        b.cap(model.low_cap(), "ambiguous");
    }
    let best_band = counted.iter().map(|&i| facts.band[i]).min();
    if let Some((max, reason)) = best_band.and_then(|band| model.band_cap(band)) {
        b.cap(max, reason);
    }
    let fit = counting.iter().map(|v| v.score).fold(0.0, f64::max);
    if fit < STRONG_FIT {
        b.cap(model.low_cap(), "weak_candidate");
    }
    if counting.iter().all(|v| v.close_rival) {
        b.cap(model.medium_cap(), "close_rival");
    }
    let confidence = b.confidence;
    let field = AnswerField {
        kind: spec.kind.clone(),
        value: Some(winner.value.clone()),
        sources: cites(used, winner.votes.iter().map(|v| v.used)),
        competing,
        confidence,
        level: model.level(confidence),
        ambiguous,
        score_breakdown: Some(b),
    };
    (field, conflict)
}

#[cfg(test)]
mod tests {
    use super::is_fragment;
    use sgw_contract::FieldKind;

    #[test]
    fn number_fragments_are_not_values() {
        assert!(is_fragment(&FieldKind::Money, "EUR 000"));
        assert!(is_fragment(&FieldKind::Number, "015"));
        assert!(!is_fragment(&FieldKind::Number, "0"));
        assert!(!is_fragment(&FieldKind::Percent, "0.25"));
        assert!(!is_fragment(&FieldKind::Money, "EUR 50000"));
        assert!(!is_fragment(&FieldKind::Date, "2027-09-05"));
    }
}
