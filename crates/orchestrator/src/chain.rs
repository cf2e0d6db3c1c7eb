//! The fallback chain: building it from a policy and running requests through it.

use crate::answer::{self, TextAnalyzer, Used};
use crate::confidence;
use crate::plan::Planner;
use crate::policy::{ChainStep, Policy};
use crate::relevance;
use crate::suspend::Suspensions;
use futures::FutureExt;
use futures::future::BoxFuture;
use futures::stream::{FuturesUnordered, StreamExt};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use sgw_contract::{
    Attempt, AttemptOutcome, BuildContext, CacheKey, ConfidenceLevel, EvidenceSink, FailureCode,
    PlannedSource, Provider, ProviderCall, ProviderError, ProviderFactory, ProviderReport,
    Registry, Scoring, SearchRequest, SearchResult, Services, SourceTier, StoreWrite,
    StoreWriteFailure, SuspensionLedger, SuspensionRecord,
};
use std::fmt;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// A provider could not be built from its policy entry.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{path}: {message}")]
pub struct BuildError {
    /// `providers.<step>[i]` or `providers.<step>[i].config…`.
    pub path: String,
    pub message: String,
}

/// The request itself is unusable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("the query is empty")]
    EmptyQuery,
    #[error("the query is {0} bytes; at most 2048 are accepted")]
    QueryTooLong(usize),
    #[error("field `{0}` is requested twice")]
    DuplicateField(String),
}

struct Bound {
    step: ChainStep,
    name: String,
    provider: Arc<dyn Provider>,
    timeout: Duration,
    limiter: Option<DefaultDirectRateLimiter>,
}

struct Inner {
    policy: Policy,
    planner: Planner,
    scoring: Scoring,
    chain: Vec<(ChainStep, Vec<Arc<Bound>>)>,
    cache_providers: Vec<Arc<Bound>>,
    suspensions: Arc<Suspensions>,
    sink: Option<Arc<dyn EvidenceSink>>,
    analyzer: Option<Arc<dyn TextAnalyzer>>,
    ledger: Option<Arc<dyn SuspensionLedger>>,
}

/// A built gateway: cheap to clone, safe to share between tasks.
#[derive(Clone)]
pub struct Gateway {
    inner: Arc<Inner>,
}

impl fmt::Debug for Gateway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gateway")
            .field("policy", &self.inner.policy.name)
            .finish()
    }
}

/// Builds a [`Gateway`] from a validated policy.
pub struct GatewayBuilder {
    policy: Policy,
    services: Services,
    sink: Option<Arc<dyn EvidenceSink>>,
    analyzer: Option<Arc<dyn TextAnalyzer>>,
    ledger: Option<Arc<dyn SuspensionLedger>>,
    extra: Vec<ProviderFactory>,
}

impl fmt::Debug for GatewayBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GatewayBuilder")
            .field("policy", &self.policy.name)
            .finish()
    }
}

impl GatewayBuilder {
    pub fn new(policy: Policy) -> GatewayBuilder {
        GatewayBuilder {
            policy,
            services: Services::new(),
            sink: None,
            analyzer: None,
            ledger: None,
            extra: Vec::new(),
        }
    }

    /// Shared services handed to provider factories (the network layer, the
    /// store; the analyzer given to [`GatewayBuilder::analyzer`] is added).
    pub fn services(mut self, services: Services) -> Self {
        self.services = services;
        self
    }

    /// Where used evidence and cache entries are kept.
    pub fn sink(mut self, sink: Arc<dyn EvidenceSink>) -> Self {
        self.sink = Some(sink);
        self
    }

    /// The passage ranker and field finder.
    pub fn analyzer(mut self, analyzer: Arc<dyn TextAnalyzer>) -> Self {
        self.analyzer = Some(analyzer);
        self
    }

    /// Where suspensions are kept beyond this process (the evidence store), so
    /// separate runs and processes sharing the store respect them.
    pub fn ledger(mut self, ledger: Arc<dyn SuspensionLedger>) -> Self {
        self.ledger = Some(ledger);
        self
    }

    /// Adds a provider kind besides those linked into the binary (e.g. one
    /// built in a test, or `ProviderFactory::of::<MyConfig>("my-crate")`).
    /// The policy must have been validated with its kind known (see
    /// [`GatewayBuilder::registry`]). A kind another crate registers too is a
    /// build error naming both crates.
    pub fn register(mut self, factory: ProviderFactory) -> Self {
        self.extra.push(factory);
        self
    }

    /// The kinds this builder can build: the linked ones and the registered
    /// extras (what policy validation must know). An error names both crates
    /// of a kind registered twice.
    pub fn registry(&self) -> Result<Registry, sgw_contract::DuplicateKind> {
        let mut registry = Registry::linked()?;
        for factory in &self.extra {
            registry.add(*factory)?;
        }
        Ok(registry)
    }

    /// Builds every enabled provider of every chain step.
    pub fn build(self) -> Result<Gateway, BuildError> {
        let registry = self.registry().map_err(|e| BuildError {
            path: "providers".into(),
            message: e.to_string(),
        })?;
        let policy_dir = self
            .policy
            .origin
            .as_ref()
            .and_then(|p| p.parent().map(|d| d.to_path_buf()));
        let services = match &self.analyzer {
            Some(analyzer) if !self.services.has_analyzer() => {
                self.services.clone().with_analyzer(analyzer.clone())
            }
            _ => self.services.clone(),
        };
        let mut chain = Vec::new();
        let mut cache_providers = Vec::new();
        for step in &self.policy.fallback_chain {
            let mut bound = Vec::new();
            for (i, spec) in self.policy.providers_for(*step) {
                let path = format!("providers.{step}[{i}]");
                let factory = registry.get(&spec.kind).ok_or_else(|| BuildError {
                    path: format!("{path}.kind"),
                    message: format!("unknown provider kind `{}`", spec.kind),
                })?;
                let ctx = BuildContext {
                    name: spec.instance_name().to_string(),
                    step: *step,
                    policy_dir: policy_dir.clone(),
                    services: services.clone(),
                };
                let provider = factory.build(&spec.config, &ctx).map_err(|e| BuildError {
                    path: match &e {
                        sgw_contract::FactoryError::Config { field: Some(f), .. } => {
                            format!("{path}.config.{f}")
                        }
                        sgw_contract::FactoryError::Config { field: None, .. } => {
                            format!("{path}.config")
                        }
                        _ => path.clone(),
                    },
                    message: match e {
                        sgw_contract::FactoryError::Config { message, .. } => message,
                        other => other.to_string(),
                    },
                })?;
                let limiter = spec.rate_limit.map(|rl| {
                    let per = NonZeroU32::new(rl.per_minute).unwrap_or(NonZeroU32::MIN);
                    let burst = NonZeroU32::new(rl.burst).unwrap_or(NonZeroU32::MIN);
                    RateLimiter::direct(Quota::per_minute(per).allow_burst(burst))
                });
                let b = Arc::new(Bound {
                    step: *step,
                    name: spec.instance_name().to_string(),
                    provider,
                    timeout: Duration::from_millis(spec.timeout_ms),
                    limiter,
                });
                if *step == ChainStep::CachedEvidence {
                    cache_providers.push(b.clone());
                }
                bound.push(b);
            }
            chain.push((*step, bound));
        }
        let inner = Inner {
            planner: Planner::new(&self.policy),
            scoring: self.policy.scoring(),
            suspensions: Arc::new(Suspensions::new(self.policy.suspension.clone())),
            policy: self.policy,
            chain,
            cache_providers,
            sink: self.sink,
            analyzer: self.analyzer,
            ledger: self.ledger,
        };
        Ok(Gateway {
            inner: Arc::new(inner),
        })
    }
}

/// What one provider run produced.
struct ProviderRun {
    step_index: usize,
    attempts: Vec<Attempt>,
    report: Option<ProviderReport>,
    /// A store write the provider could not make ([`ProviderError::store_failure`]).
    store_failure: Option<StoreWriteFailure>,
}

/// Owned inputs of one run, shared by the step futures.
struct RunInput {
    request: SearchRequest,
    key: CacheKey,
    planned: Arc<[PlannedSource]>,
    deadline: Instant,
}

/// Today's date in the system time zone.
fn today() -> jiff::civil::Date {
    jiff::Zoned::now().date()
}

/// Sleeps until about `at`: within a millisecond either side of it, where
/// `tokio::time::sleep_until(at)` ends 0–2 ms after it.
///
/// tokio's timer counts whole milliseconds: it rounds a deadline up to the
/// end of its millisecond, then its driver sleeps from a `now` truncated to
/// the start of one, so each plain wait ends a mean 1.1 ms late here (40
/// sleeps of 30 ms). Armed one nanosecond into the millisecond before, the
/// deadline rounds to the start of its own millisecond instead, and the
/// driver's truncation is then the only error: 0–1 ms late from there. A
/// deadline on a millisecond boundary (any instant of the paused test clock)
/// is not moved at all. For the policy's waits (hedge, accept window), which
/// add straight to an answer's time: "accept after 200 ms" then costs 200
/// ms, not 201.6.
async fn sleep_until_about(at: Instant) {
    let armed = at.checked_sub(Duration::from_nanos(999_999)).unwrap_or(at);
    tokio::time::sleep_until(armed).await;
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Gateway {
    pub fn policy(&self) -> &Policy {
        &self.inner.policy
    }

    /// Where the network layer reports slow hosts and learns which rest
    /// (`sgw_fetch::Fetcher::set_host_health`): a host that sent no response
    /// in time rests on the policy's timeout back-off, in this gateway and,
    /// through the ledger, in every run sharing the store.
    pub fn host_health(&self) -> Arc<dyn sgw_contract::HostHealth> {
        self.inner.suspensions.clone()
    }

    /// Whether the evidence sink is also the suspension ledger (one store
    /// for both, as the facade builds it): then a search's host rests are
    /// written in the evidence's own commit.
    fn sink_is_ledger(&self) -> bool {
        match (&self.inner.sink, &self.inner.ledger) {
            (Some(sink), Some(ledger)) => std::ptr::addr_eq(Arc::as_ptr(sink), Arc::as_ptr(ledger)),
            _ => false,
        }
    }

    /// Writes host rests (taken from the suspensions as not yet saved) to the ledger.
    async fn record_host_rests(&self, records: Vec<SuspensionRecord>) {
        let Some(ledger) = &self.inner.ledger else {
            return;
        };
        for record in records {
            if let Err(e) = ledger.record_suspension(&record).await {
                tracing::warn!(host = %record.provider, "could not keep the host's rest in the store: {e}");
            }
        }
    }

    /// The chain as built: each step with its provider instance names.
    pub fn chain(&self) -> Vec<(ChainStep, Vec<String>)> {
        self.inner
            .chain
            .iter()
            .map(|(s, b)| (*s, b.iter().map(|b| b.name.clone()).collect()))
            .collect()
    }

    /// The topic type and cache key the gateway would use for `request`.
    pub fn cache_key(&self, request: &SearchRequest) -> CacheKey {
        CacheKey::new(request, &self.inner.planner.topic(request))
    }

    /// Closes the evidence sink ([`sgw_contract::EvidenceSink::close`]),
    /// waiting until it is done: what a process calls after its last search.
    /// An SQLite store that was written to checkpoints its write-ahead log,
    /// so the next process opening it replays nothing. Searches after it
    /// cannot store evidence.
    pub async fn close(&self) {
        if let Some(sink) = &self.inner.sink {
            sink.close().await;
        }
    }

    /// Runs `request` down the chain. A result always comes back for a valid
    /// request; [`SearchResult::has_answer`] says whether evidence was found.
    pub async fn search(&self, request: &SearchRequest) -> Result<SearchResult, SearchError> {
        let query = request.query.trim();
        if query.is_empty() {
            return Err(SearchError::EmptyQuery);
        }
        if query.len() > 2048 {
            return Err(SearchError::QueryTooLong(query.len()));
        }
        let mut names = std::collections::BTreeSet::new();
        for f in &request.fields {
            if !names.insert(&f.name) {
                return Err(SearchError::DuplicateField(f.name.clone()));
            }
        }
        let inner = &self.inner;
        let topic = inner.planner.topic(request);
        let key = CacheKey::new(request, &topic);
        let planned = inner.planner.plan(request, &topic);
        let deadline = Instant::now() + Duration::from_millis(inner.policy.execution.deadline_ms);
        tracing::info!(%key, planned = planned.len(), "search");
        let input = Arc::new(RunInput {
            request: request.clone(),
            key,
            planned,
            deadline,
        });
        let mut run = Run::new(self.clone(), input.clone());

        // A fresh cache entry answers before the chain.
        let cache_enabled = inner.policy.cache_policy.evidence_cache_enabled;
        if cache_enabled
            && inner.policy.cache_policy.answer_from_fresh_cache
            && !inner.cache_providers.is_empty()
        {
            let step_index = inner
                .chain
                .iter()
                .position(|(s, _)| *s == ChainStep::CachedEvidence)
                .unwrap_or(0);
            let runs = futures::future::join_all(inner.cache_providers.iter().map(|b| {
                run_provider(
                    self.clone(),
                    input.clone(),
                    b.clone(),
                    step_index,
                    Vec::new(),
                    true,
                )
            }))
            .await;
            for r in runs {
                run.absorb(r);
            }
            if !run.used.is_empty() {
                run.from_cache = true;
                return Ok(run.finish().await);
            }
        }
        // What other runs and processes suspended matters to the providers
        // that go out; an answer from the cache does without reading it.
        self.adopt_ledger().await;

        let steps: Vec<usize> = inner
            .chain
            .iter()
            .enumerate()
            .filter(|(_, (step, b))| {
                !b.is_empty() && (cache_enabled || *step != ChainStep::CachedEvidence)
            })
            .map(|(i, _)| i)
            .collect();
        run.first_step = steps.first().copied();
        let hedge = inner
            .policy
            .execution
            .hedge_after_ms
            .map(Duration::from_millis);
        let mut next = 0usize;
        let mut running: FuturesUnordered<BoxFuture<'static, Vec<ProviderRun>>> =
            FuturesUnordered::new();
        let mut running_steps: Vec<usize> = Vec::new();
        // Hedging (`execution.hedge_after_ms`): the next step starts at
        // `hedge_at`, `hedge` after the latest step started (at once when no
        // step runs). Each deadline is set once, when its step starts: answers
        // coming in meanwhile do not move it.
        let mut hedge_at: Option<Instant> = None;
        // Patience (`execution.accept_after_ms`): once the answer so far is good
        // enough, a better one is waited for until `accept_at` only. It is set
        // once, when the answer first reaches the level.
        let accept_after = inner
            .policy
            .execution
            .accept_after_ms
            .map(Duration::from_millis);
        let accept_level = inner.policy.execution.accept_level;
        let mut accept_at: Option<Instant> = None;
        let mut accepted = false;
        loop {
            if run.reached_target() {
                break;
            }
            if accept_at.is_none()
                && let Some(after) = accept_after
                && run.level().is_some_and(|l| l >= accept_level)
            {
                accept_at = Some(Instant::now() + after);
            }
            if accept_at.is_some_and(|at| at <= Instant::now()) {
                accepted = true;
                break;
            }
            if running.is_empty() {
                let Some(&i) = steps.get(next) else { break };
                next += 1;
                hedge_at = hedge.map(|d| Instant::now() + d);
                running_steps.push(i);
                running.push(self.step_future(input.clone(), i, run.attempts.clone()));
                continue;
            }
            // The human step never starts early: it needs to know what failed.
            let can_hedge = steps
                .get(next)
                .is_some_and(|&i| inner.chain[i].0 != ChainStep::UserSuppliedEvidenceRequest);
            let hedge_timer = async {
                match hedge_at {
                    Some(at) if can_hedge => sleep_until_about(at).await,
                    _ => futures::future::pending::<()>().await,
                }
            };
            let accept_timer = async {
                match accept_at {
                    Some(at) => sleep_until_about(at).await,
                    None => futures::future::pending::<()>().await,
                }
            };
            tokio::select! {
                Some(runs) = running.next() => {
                    for r in runs {
                        running_steps.retain(|s| *s != r.step_index);
                        run.absorb(r);
                    }
                }
                _ = accept_timer => {
                    accepted = true;
                    break;
                }
                _ = hedge_timer => {
                    let i = steps[next];
                    next += 1;
                    tracing::debug!(step = %inner.chain[i].0, "hedging: starting the next step early");
                    hedge_at = hedge.map(|d| Instant::now() + d);
                    running_steps.push(i);
                    running.push(self.step_future(input.clone(), i, run.attempts.clone()));
                }
                _ = tokio::time::sleep_until(deadline) => {
                    run.notes.push("the overall deadline was reached".into());
                    for &i in &running_steps {
                        for b in &inner.chain[i].1 {
                            run.attempts.push(
                                Attempt::failed(b.step, &b.name, FailureCode::SearchProviderTimeout)
                                    .with_detail("cut off by the overall deadline")
                                    .with_elapsed_ms(inner.policy.execution.deadline_ms),
                            );
                        }
                    }
                    running_steps.clear();
                    break;
                }
            }
        }
        drop(running);
        let reason = if run.reached_target() {
            "target confidence reached".to_string()
        } else if accepted {
            let after = ms(accept_after.unwrap_or_default());
            let level = run.level().unwrap_or(accept_level);
            run.notes.push(format!(
                "answered with a {level} answer after waiting {after} ms for a better one (execution.accept_after_ms)"
            ));
            format!(
                "skipped by deadline: execution.accept_after_ms ({after} ms) after a {accept_level} or better answer"
            )
        } else {
            "the overall deadline was reached".to_string()
        };
        for (i, (step, bound)) in inner.chain.iter().enumerate() {
            let pending = running_steps.contains(&i) || steps[next.min(steps.len())..].contains(&i);
            if pending {
                for b in bound {
                    run.attempts
                        .push(Attempt::skipped(*step, &b.name, reason.as_str()));
                }
            }
        }
        Ok(run.finish().await)
    }

    /// The key of a provider instance in the suspension ledger.
    fn ledger_key(&self, provider: &str) -> String {
        format!("{}/{provider}", self.inner.policy.name)
    }

    /// Suspends `provider` after `error` (per the policy) and keeps the
    /// suspension in the ledger, if there is one. Returns its duration.
    async fn suspend(&self, provider: &str, error: &ProviderError) -> Option<Duration> {
        let (duration, consecutive_timeouts) = self.inner.suspensions.failed(provider, error)?;
        if let Some(ledger) = &self.inner.ledger {
            let record = SuspensionRecord {
                provider: self.ledger_key(provider),
                until: jiff::Timestamp::now() + duration,
                reason: error.code,
                consecutive_timeouts,
            };
            if let Err(e) = ledger.record_suspension(&record).await {
                tracing::warn!(provider, "could not keep the suspension in the store: {e}");
            }
        }
        Some(duration)
    }

    /// Takes over the suspensions other runs and processes recorded.
    async fn adopt_ledger(&self) {
        let Some(ledger) = &self.inner.ledger else {
            return;
        };
        let now = jiff::Timestamp::now();
        match ledger.active_suspensions(now).await {
            Ok(records) => {
                for r in records {
                    if let Some(host) = r.provider.strip_prefix(&sgw_contract::host_ledger_key(""))
                    {
                        let remaining =
                            Duration::try_from(r.until.duration_since(now)).unwrap_or_default();
                        self.inner.suspensions.adopt_host(
                            host,
                            remaining,
                            r.reason,
                            r.consecutive_timeouts,
                        );
                        continue;
                    }
                    let Some(name) = r.provider.strip_prefix(&self.ledger_key("")) else {
                        continue;
                    };
                    let remaining =
                        Duration::try_from(r.until.duration_since(now)).unwrap_or_default();
                    self.inner
                        .suspensions
                        .adopt(name, remaining, r.reason, r.consecutive_timeouts);
                }
            }
            Err(e) => tracing::warn!("could not read suspensions from the store: {e}"),
        }
    }

    fn step_future(
        &self,
        input: Arc<RunInput>,
        step_index: usize,
        prior: Vec<Attempt>,
    ) -> BoxFuture<'static, Vec<ProviderRun>> {
        let gw = self.clone();
        async move {
            let bound = gw.inner.chain[step_index].1.clone();
            let prior = Arc::new(prior);
            futures::future::join_all(bound.into_iter().map(|b| {
                run_provider(
                    gw.clone(),
                    input.clone(),
                    b,
                    step_index,
                    prior.to_vec(),
                    false,
                )
            }))
            .await
        }
        .boxed()
    }
}

/// Runs one provider with suspension, rate limit, timeout and deadline around it.
async fn run_provider(
    gw: Gateway,
    input: Arc<RunInput>,
    bound: Arc<Bound>,
    step_index: usize,
    prior: Vec<Attempt>,
    fresh_only: bool,
) -> ProviderRun {
    let inner = &gw.inner;
    let step = bound.step;
    let started = Instant::now();
    let done = |attempts: Vec<Attempt>, report: Option<ProviderReport>| ProviderRun {
        step_index,
        attempts,
        report,
        store_failure: None,
    };
    if let Some(rest) = inner.suspensions.resting(&bound.name) {
        let mut a = Attempt::skipped(
            step,
            &bound.name,
            format!(
                "suspended for {} s more after {}",
                rest.remaining.as_secs().max(1),
                rest.reason
            ),
        );
        a.failure_code = Some(rest.reason);
        return done(vec![a], None);
    }
    let remaining = input.deadline.saturating_duration_since(Instant::now());
    if let Some(limiter) = &bound.limiter
        && tokio::time::timeout(remaining, limiter.until_ready())
            .await
            .is_err()
    {
        return done(
            vec![Attempt::skipped(
                step,
                &bound.name,
                "local rate limit: no slot before the deadline",
            )],
            None,
        );
    }
    let remaining = input.deadline.saturating_duration_since(Instant::now());
    let limit = bound.timeout.min(remaining);
    let call = ProviderCall {
        step,
        provider: &bound.name,
        request: &input.request,
        key: &input.key,
        sources: &input.planned,
        deadline: std::time::Instant::now() + limit,
        prior_attempts: &prior,
        max_sources: inner.policy.execution.max_sources,
        fresh_only,
    };
    let outcome = tokio::time::timeout(limit, bound.provider.run(&call)).await;
    let elapsed = ms(started.elapsed());
    let Ok(outcome) = outcome else {
        if limit < bound.timeout {
            // Not the provider's fault: the run as a whole ran out of time. No suspension.
            let a = Attempt::failed(step, &bound.name, FailureCode::SearchProviderTimeout)
                .with_elapsed_ms(elapsed)
                .with_detail("cut off by the overall deadline");
            return done(vec![a], None);
        }
        let error = ProviderError::new(
            FailureCode::SearchProviderTimeout,
            format!("no answer within {} ms", ms(limit)),
        );
        let suspended = gw.suspend(&bound.name, &error).await;
        let detail = match suspended {
            Some(d) => format!("{}; suspended for {} s", error.message, d.as_secs()),
            None => error.message,
        };
        let a = Attempt::failed(step, &bound.name, FailureCode::SearchProviderTimeout)
            .with_elapsed_ms(elapsed)
            .with_detail(detail);
        return done(vec![a], None);
    };
    match outcome {
        Err(error) => {
            let suspended = gw.suspend(&bound.name, &error).await;
            let mut attempts = error.attempts.clone();
            let mut detail = error.message.clone();
            if let Some(d) = suspended {
                detail.push_str(&format!("; suspended for {} s", d.as_secs()));
            }
            tracing::warn!(provider = %bound.name, code = %error.code, "{detail}");
            attempts.push(
                Attempt::failed(step, &bound.name, error.code)
                    .with_status(error.http_status)
                    .with_elapsed_ms(elapsed)
                    .with_detail(detail),
            );
            ProviderRun {
                store_failure: error.store_failure,
                ..done(attempts, None)
            }
        }
        Ok(report) => {
            inner.suspensions.succeeded(&bound.name);
            let mut attempts = report.attempts.clone();
            let first_failure = attempts
                .iter()
                .find(|a| a.outcome == AttemptOutcome::Failed);
            let summary = if !report.evidence.is_empty() {
                Attempt::new(step, &bound.name, AttemptOutcome::Success)
                    .with_detail(format!("{} source(s)", report.evidence.len()))
            } else if let Some(f) = first_failure {
                let mut a = Attempt::new(step, &bound.name, AttemptOutcome::Failed)
                    .with_detail("no usable source");
                a.failure_code = f.failure_code;
                a.http_status = f.http_status;
                a
            } else {
                Attempt::new(step, &bound.name, AttemptOutcome::Empty).with_detail("nothing found")
            };
            attempts.push(summary.with_elapsed_ms(elapsed));
            done(attempts, Some(report))
        }
    }
}

/// The state of one search while it runs.
struct Run {
    gw: Gateway,
    input: Arc<RunInput>,
    attempts: Vec<Attempt>,
    used: Vec<Used>,
    codes: Vec<FailureCode>,
    notes: Vec<String>,
    rejected_irrelevant: usize,
    from_cache: bool,
    human_request_id: Option<String>,
    store_failures: Vec<StoreWriteFailure>,
    first_step: Option<usize>,
    /// How many provider runs [`Run::absorb`] took in: what the used
    /// evidence can have changed by.
    absorbed: usize,
    /// The last assessment, with what it was made of: the loop asks for the
    /// score after every step and `finish` for the whole again, mostly with
    /// nothing changed in between.
    assessed: Option<Assessed>,
}

/// An assessment and the state of the run it holds for.
struct Assessed {
    absorbed: usize,
    codes: Vec<FailureCode>,
    assessment: confidence::Assessment,
}

impl Run {
    fn new(gw: Gateway, input: Arc<RunInput>) -> Run {
        Run {
            gw,
            input,
            attempts: Vec::new(),
            used: Vec::new(),
            codes: Vec::new(),
            notes: Vec::new(),
            rejected_irrelevant: 0,
            from_cache: false,
            human_request_id: None,
            store_failures: Vec::new(),
            first_step: None,
            absorbed: 0,
            assessed: None,
        }
    }

    /// Classifies, checks and keeps the evidence of one provider run.
    fn absorb(&mut self, run: ProviderRun) {
        self.absorbed += 1;
        self.attempts.extend(run.attempts);
        self.store_failures.extend(run.store_failure);
        let Some(report) = run.report else { return };
        let inner = &self.gw.inner;
        let stale = report.from_cache && report.codes.contains(&FailureCode::EvidenceCacheStale);
        self.codes.extend(report.codes);
        self.notes.extend(report.notes);
        if report.human_request_id.is_some() {
            self.human_request_id = report.human_request_id;
        }
        let terms = relevance::key_terms(&self.input.request.query);
        let now = jiff::Timestamp::now().to_string();
        for mut evidence in report.evidence {
            let url = evidence.effective_url().clone();
            let tier = inner
                .planner
                .classify(&url, evidence.tier_hint, evidence.snippet_only);
            if evidence.text.trim().is_empty() {
                self.codes.push(if tier.is_official() {
                    FailureCode::OfficialSourceFoundButExtractionFailed
                } else {
                    FailureCode::SourceExtractionFailed
                });
                self.notes
                    .push(format!("no text could be extracted from {url}"));
                continue;
            }
            // A person handed this evidence in for this very request: it is not filtered by terms.
            if tier != SourceTier::UserSuppliedEvidence
                && relevance::relevance(&terms, &evidence)
                    < inner.policy.execution.relevance_threshold
            {
                self.rejected_irrelevant += 1;
                tracing::debug!(%url, "below the relevance threshold");
                continue;
            }
            if self
                .used
                .iter()
                .any(|u| u.evidence.content_hash == evidence.content_hash)
            {
                continue; // identical content counts once (the first, earlier step, is kept)
            }
            if let Some(analyzer) = &inner.analyzer {
                let query = &self.input.request.query;
                if evidence.passages.is_empty() {
                    evidence.passages = analyzer.passages(&evidence.text, query, 3);
                }
                if !self.input.request.fields.is_empty() && evidence.fields.is_empty() {
                    evidence.fields = analyzer.fields(
                        &evidence.text,
                        query,
                        &self.input.request.fields,
                        // Without --as-of the answer must hold today: validity
                        // windows ("from 1 July", "until 30 June") need a date.
                        Some(self.input.request.as_of.unwrap_or_else(today)),
                    );
                }
            }
            for f in &mut evidence.fields {
                if let Some(spec) = self.input.request.fields.iter().find(|s| s.name == f.name) {
                    f.value = answer::canonical_field_value(&spec.kind, &f.value);
                }
            }
            if evidence.truncated {
                self.codes.push(FailureCode::SearchResultTruncated);
            }
            let (publisher, independence, scopes) = answer::credit(&inner.planner, &evidence);
            self.used.push(Used {
                evidence,
                tier,
                publisher,
                step_index: run.step_index,
                extracted_at: now.clone(),
                stale,
                independence,
                scopes,
                memo: Default::default(),
            });
        }
        // Keep the best sources when there are too many.
        self.used.sort_by_key(|u| (u.tier, u.step_index));
        self.used.truncate(inner.policy.execution.max_sources);
    }

    fn failure_codes(&self, conflict: bool) -> Vec<FailureCode> {
        let mut codes: Vec<FailureCode> = self
            .attempts
            .iter()
            .filter_map(|a| a.failure_code)
            .collect();
        codes.extend(self.codes.iter().copied());
        if self.used.is_empty() && self.rejected_irrelevant > 0 {
            codes.push(FailureCode::SearchResultLowRelevance);
        }
        if conflict {
            codes.push(FailureCode::SourceConflictNeedsReview);
        }
        let mut seen = std::collections::BTreeSet::new();
        codes.retain(|c| seen.insert(*c));
        codes
    }

    /// Fields, conflicts and the score of the evidence used so far: the
    /// last assessment when neither the evidence nor the failure codes
    /// changed since (it depends on nothing else of the run).
    fn assess(&mut self) -> &confidence::Assessment {
        let codes = self.failure_codes(false);
        let fresh = self
            .assessed
            .as_ref()
            .is_some_and(|a| a.absorbed == self.absorbed && a.codes == codes);
        if !fresh {
            let inner = &self.gw.inner;
            let t = inner.policy.confidence_thresholds;
            let model = confidence::Model {
                scoring: &inner.scoring,
                high: t.high,
                medium: t.medium,
            };
            let assessment = confidence::assess(&self.used, &self.input.request, &model, &codes);
            self.assessed = Some(Assessed {
                absorbed: self.absorbed,
                codes,
                assessment,
            });
        }
        &self
            .assessed
            .as_ref()
            .expect("assessed just above")
            .assessment
    }

    /// The answer's confidence so far: every requested field's (the weakest
    /// decides), or the passages' when no field is asked.
    fn score(&mut self) -> f64 {
        self.assess().confidence
    }

    /// True when the chain went past its first step for the answer: evidence
    /// of a later step is used, or the first step gave none and later steps
    /// ran. A failed sibling provider of a first step that answered is not a
    /// fallback.
    fn fell_back(&self) -> bool {
        let Some(first) = self.first_step else {
            return false;
        };
        if self.used.iter().any(|u| u.step_index != first) {
            return true;
        }
        let first_answered = self.used.iter().any(|u| u.step_index == first);
        let first_step = self.gw.inner.chain[first].0;
        !first_answered
            && self
                .attempts
                .iter()
                .any(|a| a.step != first_step && a.outcome != AttemptOutcome::Skipped)
    }

    /// The level of the answer so far (`None` before any evidence is used).
    fn level(&mut self) -> Option<ConfidenceLevel> {
        if self.used.is_empty() {
            return None;
        }
        let t = self.gw.inner.policy.confidence_thresholds;
        Some(ConfidenceLevel::from_score(self.score(), t.high, t.medium))
    }

    fn reached_target(&mut self) -> bool {
        !self.used.is_empty() && self.score() >= self.gw.inner.policy.execution.target_confidence
    }

    async fn finish(mut self) -> SearchResult {
        let inner = self.gw.inner.clone();
        // Host rests decided in this search: written with the evidence when
        // the sink is also the ledger, else on their own.
        let rests = inner.suspensions.take_unsaved_hosts();
        for u in &mut self.used {
            if u.evidence.evidence_id.as_deref().is_none_or(str::is_empty) {
                u.evidence.evidence_id = Some(format!("ev-{}", ulid::Ulid::new()));
            }
        }
        self.assess();
        let assessment = self
            .assessed
            .take()
            .expect("assessed just above")
            .assessment;
        let answer = sgw_contract::Answer {
            passages: answer::passages(
                &self.used,
                inner.policy.execution.max_passages,
                &self.input.request.query,
            ),
            fields: assessment.fields,
        };
        let codes = self.failure_codes(assessment.conflict);
        let confidence = assessment.confidence;
        let level = assessment.level;
        let fallback_used = !self.from_cache && self.fell_back();
        let sources: Vec<_> = self.used.iter().map(Used::source).collect();
        let evidence_ids = sources
            .iter()
            .filter_map(|s| s.evidence_id.clone())
            .filter(|id| !id.is_empty())
            .collect();
        if self.rejected_irrelevant > 0 {
            self.notes.push(format!(
                "{} source(s) fell below the relevance threshold",
                self.rejected_irrelevant
            ));
        }
        let result = SearchResult {
            answer,
            confidence,
            confidence_level: level,
            sources,
            fallback_used,
            failure_codes: codes,
            verified_at: jiff::Timestamp::now(),
            evidence_ids,
            attempts: self.attempts,
            cache_key: Some(self.input.key.clone()),
            from_cache: self.from_cache,
            human_request_id: self.human_request_id,
            notes: self.notes,
            score_breakdown: Some(assessment.breakdown),
            store_failures: self.store_failures,
        };
        let keeps_evidence = !self.from_cache && inner.policy.cache_policy.evidence_cache_enabled;
        // The used evidence is not needed past this point: moved, not copied.
        let fresh: Vec<_> = std::mem::take(&mut self.used)
            .into_iter()
            .filter(|u| keeps_evidence && !u.evidence.stored)
            .map(|u| {
                let mut e = u.evidence;
                e.tier_hint = Some(u.tier);
                e.publisher = Some(u.publisher);
                e
            })
            .collect();
        let Some(sink) = inner.sink.as_ref().filter(|_| !fresh.is_empty()) else {
            self.gw.record_host_rests(rests).await;
            return result;
        };
        let written = if !rests.is_empty() && self.gw.sink_is_ledger() {
            sink.persist_with_rests(&self.input.key, &result, &fresh, &rests)
                .await
        } else {
            sink.persist(&self.input.key, &result, &fresh)
                .await
                .map(|()| false)
        };
        let result = match written {
            Ok(true) => return result,
            Ok(false) => result,
            Err(e) => {
                tracing::warn!("could not store the evidence: {e}");
                let failure = StoreWriteFailure::new(StoreWrite::Evidence, e.kind(), &e);
                let mut result = result;
                result.notes.push(failure.to_string());
                result.store_failures.push(failure);
                result
            }
        };
        self.gw.record_host_rests(rests).await;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::sleep_until_about;
    use std::time::Duration;
    use tokio::time::Instant;

    /// The paused clock moves as the real driver sleeps, by whole
    /// milliseconds from a `now` truncated to its millisecond: a wait armed
    /// 200 ms ahead ends 200 ms later, where tokio's own ends 201 ms later.
    #[tokio::test(start_paused = true)]
    async fn a_wait_ends_within_the_millisecond_of_its_deadline_not_after_it() {
        // Off a millisecond boundary, as every real-clock instant is.
        tokio::time::advance(Duration::from_micros(400)).await;
        let started = Instant::now();
        let at = started + Duration::from_millis(200);
        sleep_until_about(at).await;
        let about = started.elapsed();
        let started = Instant::now();
        tokio::time::sleep_until(started + Duration::from_millis(200)).await;
        let plain = started.elapsed();
        assert_eq!(about, Duration::from_millis(200));
        // What it is compared with: tokio's own rounding, up to the next tick.
        assert_eq!(plain, Duration::from_millis(201));
    }

    #[tokio::test(start_paused = true)]
    async fn a_deadline_on_a_millisecond_boundary_is_kept_exactly() {
        let started = Instant::now();
        sleep_until_about(started + Duration::from_millis(300)).await;
        assert_eq!(started.elapsed(), Duration::from_millis(300));
    }
}
