//! The chain benchmark behind `cargo xtask bench-chain`: the whole gateway,
//! in process, on the simulated web (loopback), side by side in one run.
//!
//! A hand-rolled harness (no benchmark crate is vendored): every case is
//! warmed up, then repeated, and the median (and p90 where it matters) is
//! reported with its ratio to the case it should be compared with. Figures are
//! wall-clock times on whatever machine runs it: ratios are what count. The
//! page rows also take the CPU time of the thread that runs the search (see
//! [`thread_cpu`]), which the gateway-overhead targets are judged by.
//!
//! `--repeat-search KB N [--baseline]` runs only the full search of a KB-KiB
//! page N times (with `--baseline`, its raw fetch + extraction), for a
//! profiler.
//!
//! Process-level cases (`sgw --version`, an `sgw search` cache hit, peak RSS)
//! run when `SGW_BIN` names a built `sgw` binary (xtask builds it in release).

use search_gateway::{Gateway, OpenOptions, Policy, SearchRequest, SearchResult, Store};
use sgw_fetch::FetchRequest;
use sgw_store::CacheCursor;
use sgw_testkit::world::{self, PolicyOptions, World};
use sgw_testkit::{Fault, Response, SimWeb, pages};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- harness

#[derive(Debug, Clone, Default)]
struct Sample {
    times: Vec<Duration>,
}

impl Sample {
    fn quantile(&self, q: f64) -> Duration {
        let mut t = self.times.clone();
        t.sort();
        if t.is_empty() {
            return Duration::ZERO;
        }
        let i = ((t.len() - 1) as f64 * q).round() as usize;
        t[i]
    }
    fn median(&self) -> Duration {
        self.quantile(0.5)
    }
    fn p90(&self) -> Duration {
        self.quantile(0.9)
    }
}

async fn bench<F, Fut, T>(warmup: usize, reps: usize, mut f: F) -> Sample
where
    F: FnMut() -> Fut,
    Fut: Future<Output = T>,
{
    for _ in 0..warmup {
        std::hint::black_box(f().await);
    }
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        std::hint::black_box(f().await);
        times.push(t.elapsed());
    }
    Sample { times }
}

/// `f` and `g` timed in alternating rounds (`warmup` untimed, then
/// `rounds`): a machine that gets busier or quieter meanwhile moves both
/// samples alike, so their ratio stays what it measures.
async fn alternating<F, FutF, G, FutG, T, U>(
    warmup: usize,
    rounds: usize,
    mut f: F,
    mut g: G,
) -> (Sample, Sample)
where
    F: FnMut() -> FutF,
    FutF: Future<Output = T>,
    G: FnMut() -> FutG,
    FutG: Future<Output = U>,
{
    let (mut a, mut b) = (Sample::default(), Sample::default());
    for round in 0..warmup + rounds {
        let t0 = Instant::now();
        std::hint::black_box(f().await);
        let first = t0.elapsed();
        let t0 = Instant::now();
        std::hint::black_box(g().await);
        let second = t0.elapsed();
        if round >= warmup {
            a.times.push(first);
            b.times.push(second);
        }
    }
    (a, b)
}

/// CPU time the calling thread has used so far (`CLOCK_THREAD_CPUTIME_ID`);
/// `None` where it cannot be read.
///
/// `#[tokio::main]` polls `main`'s future on the main thread and the
/// simulated web's server runs on the runtime's workers, so what a search or
/// a fetch awaited from `main` spends of this clock is the client's work —
/// the gateway's, the extraction's and the HTTP client's — and not time the
/// thread spent waiting for the server or descheduled on a busy machine.
/// (hyper's connection tasks run on the workers too, the same for a raw
/// fetch as for a search's.)
#[cfg(target_os = "linux")]
fn thread_cpu() -> Option<Duration> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Some(Duration::new(
        u64::try_from(t.tv_sec).ok()?,
        u32::try_from(t.tv_nsec).ok()?,
    ))
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu() -> Option<Duration> {
    None
}

/// Wall and calling-thread CPU time of one run of `f`.
async fn timed<Fut: Future>(f: impl FnOnce() -> Fut) -> (Fut::Output, Duration, Option<Duration>) {
    let (cpu0, t0) = (thread_cpu(), Instant::now());
    let out = f().await;
    let wall = t0.elapsed();
    let cpu = thread_cpu().zip(cpu0).map(|(b, a)| b.saturating_sub(a));
    (out, wall, cpu)
}

fn ms(d: Duration) -> String {
    let v = d.as_secs_f64() * 1e3;
    if v < 1.0 {
        format!("{v:.3}")
    } else if v < 100.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.0}")
    }
}

fn ratio(a: Duration, b: Duration) -> String {
    if b.is_zero() {
        return "-".into();
    }
    format!("{:.2}x", a.as_secs_f64() / b.as_secs_f64())
}

/// Rows of the report table.
#[derive(Default)]
struct Table {
    rows: Vec<[String; 4]>,
    targets: Vec<(String, String, bool)>,
}

impl Table {
    fn row(&mut self, case: &str, sample: &Sample, vs: &str, note: impl Into<String>) {
        self.rows.push([
            case.to_string(),
            format!("{} (p90 {})", ms(sample.median()), ms(sample.p90())),
            vs.to_string(),
            note.into(),
        ]);
        eprintln!("  {case}: {} ms", ms(sample.median()));
    }
    fn target(&mut self, what: &str, measured: String, met: bool) {
        self.targets.push((what.to_string(), measured, met));
    }
    fn print(&self) {
        println!("| case | median ms (p90) | ratio | note |");
        println!("|---|---|---|---|");
        for r in &self.rows {
            println!("| {} | {} | {} | {} |", r[0], r[1], r[2], r[3]);
        }
        println!();
        println!("| target | measured | met |");
        println!("|---|---|---|");
        for (what, measured, met) in &self.targets {
            println!(
                "| {what} | {measured} | {} |",
                if *met { "yes" } else { "**no**" }
            );
        }
    }
}

// ---------------------------------------------------------------- fixtures

/// Politeness off for the simulated web: the bench asks one host many times
/// a second, which the default per-host rate (2/s) would turn into waits.
const FAST_NET: &str =
    "  per_host_rate: { requests_per_second: 10000, burst: 10000 }\n  per_host_concurrency: 64\n";

/// An article page of about `size` bytes that answers the world's question.
fn page_of(size: usize) -> Response {
    page_from(size, "Statistics Office")
}

/// Like [`page_of`], its text distinct per `publisher` (identical texts count once).
fn page_from(size: usize, publisher: &str) -> Response {
    let mut paras: Vec<String> = vec![format!(
        "The policy interest rate is 4.50% from 1 March 2026, {publisher} reports."
    )];
    let words = [
        "inflation",
        "growth",
        "committee",
        "members",
        "decided",
        "markets",
        "outlook",
        "wages",
        "energy",
        "prices",
        "housing",
        "credit",
        "lending",
        "banks",
        "households",
        "exports",
    ];
    let mut total = 600;
    let mut i = 0usize;
    while total < size {
        let mut p = String::from("In its statement the board noted that");
        for k in 0..40 {
            p.push(' ');
            p.push_str(words[(i * 7 + k * 3) % words.len()]);
        }
        p.push_str(&format!(" (paragraph {i})."));
        total += p.len() + 8;
        paras.push(p);
        i += 1;
    }
    let refs: Vec<&str> = paras.iter().map(String::as_str).collect();
    Response::html(pages::article(
        "Policy interest rate",
        publisher,
        "2026-03-01",
        &refs,
    ))
}

fn load(yaml: &str) -> Policy {
    search_gateway::parse_policy(yaml.as_bytes(), "bench.yaml")
        .unwrap_or_else(|e| panic!("bench policy:\n{yaml}\n{e}"))
        .0
}

/// The world's policy with `extra` lines in its `execution:` section.
fn world_policy(world: &World, options: &PolicyOptions, extra: &str) -> Policy {
    let yaml = world
        .policy(options)
        .replacen("execution:\n", &format!("execution:\n{extra}"), 1);
    load(&format!("{yaml}{FAST_NET}"))
}

async fn gateway(policy: Policy, store: Option<&Path>) -> Gateway {
    let options = OpenOptions {
        store: store.map(|p| p.display().to_string()),
        no_store: store.is_none(),
    };
    search_gateway::build(policy, options)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

async fn ask(gw: &Gateway) -> SearchResult {
    gw.search(&SearchRequest::new(world::QUESTION))
        .await
        .expect("valid request")
}

fn no_cache() -> PolicyOptions {
    PolicyOptions {
        cache: false,
        human: false,
        ..PolicyOptions::default()
    }
}

// ---------------------------------------------------------------- cases

/// Medians of one page size's three timed operations.
#[derive(Debug, Clone, Copy)]
struct PageTimes {
    fetch: Duration,
    extract: Duration,
    search: Duration,
}

impl PageTimes {
    fn of(fetch: &Sample, extract: &Sample, search: &Sample) -> PageTimes {
        PageTimes {
            fetch: fetch.median(),
            extract: extract.median(),
            search: search.median(),
        }
    }

    /// The search's time beyond the fetch and the extraction, as a share of
    /// the extraction's.
    fn beyond(&self) -> (Duration, f64) {
        let beyond = self.search.saturating_sub(self.fetch + self.extract);
        (
            beyond,
            beyond.as_secs_f64() / self.extract.as_secs_f64().max(f64::MIN_POSITIVE),
        )
    }
}

/// Fetch, extraction and the full search of one page size: the medians of
/// their wall times, and of the main thread's CPU times where it can be read.
async fn page_size_case(
    t: &mut Table,
    label: &str,
    size: usize,
    reps: usize,
) -> (PageTimes, Option<PageTimes>) {
    let world = World::start().await;
    world
        .web
        .route(world::OFFICIAL, world::RATES_PATH, page_of(size));
    let policy = world_policy(&world, &no_cache(), "");
    let url = world.web.url(world::OFFICIAL, world::RATES_PATH);

    let fetcher = search_gateway::fetcher(&policy).expect("fetch config");
    let body = fetcher
        .fetch(&FetchRequest::page(url.clone()))
        .await
        .expect("page")
        .body;
    let gw = gateway(policy, None).await;
    let r = ask(&gw).await;
    assert!(r.has_answer(), "{:?}", r.attempts);
    // The three are timed in rounds (a fetch, the extraction of the page it
    // fetched, a search): the target is a small difference of the three
    // medians, which a machine getting busier between three separate series
    // would swamp, and the extraction reads a page just fetched, as the
    // search's own does.
    let once_fetched = || async {
        fetcher
            .fetch(&FetchRequest::page(url.clone()))
            .await
            .unwrap()
    };
    let extracted =
        |body: &[u8]| sgw_extract::extract(body, Some("text/html"), Some(&url)).unwrap();
    for _ in 0..2 {
        let page = once_fetched().await;
        std::hint::black_box(extracted(&page.body));
        std::hint::black_box(ask(&gw).await);
    }
    let mut wall = [Sample::default(), Sample::default(), Sample::default()];
    let mut cpu = [Sample::default(), Sample::default(), Sample::default()];
    let mut cpu_read = true;
    let mut push = |i: usize, w: Duration, c: Option<Duration>| {
        wall[i].times.push(w);
        match c {
            Some(c) => cpu[i].times.push(c),
            None => cpu_read = false,
        }
    };
    for _ in 0..reps {
        let (page, w, c) = timed(once_fetched).await;
        push(0, w, c);
        let page = std::hint::black_box(page);
        let (doc, w, c) = timed(|| async { extracted(&page.body) }).await;
        push(1, w, c);
        std::hint::black_box(doc);
        drop(page);
        let (answer, w, c) = timed(|| ask(&gw)).await;
        push(2, w, c);
        std::hint::black_box(answer);
    }
    let [fetch, extract, search] = wall;
    let kb = body.len() / 1024;
    let cpu_note = |s: &Sample| {
        if cpu_read {
            format!("; CPU {} ms (p90 {})", ms(s.median()), ms(s.p90()))
        } else {
            String::new()
        }
    };
    t.row(
        &format!("{label}: raw fetch ({kb} KB page, robots cached)"),
        &fetch,
        "1x",
        format!("the HTTP cost alone{}", cpu_note(&cpu[0])),
    );
    t.row(
        &format!("{label}: extraction alone (`sgw_extract::extract`)"),
        &extract,
        &ratio(extract.median(), fetch.median()),
        format!("vs the raw fetch{}", cpu_note(&cpu[1])),
    );
    t.row(
        &format!("{label}: full search, miss (official page answers)"),
        &search,
        &ratio(search.median(), fetch.median()),
        format!("vs the raw fetch{}", cpu_note(&cpu[2])),
    );
    let walls = PageTimes::of(&fetch, &extract, &search);
    let cpus = cpu_read.then(|| PageTimes::of(&cpu[0], &cpu[1], &cpu[2]));
    (walls, cpus)
}

/// A web of `n` official sources on hosts of their own, each with a 10 KB page.
async fn sources_case(t: &mut Table, n: usize, reps: usize, base: Option<Duration>) -> Duration {
    let web = SimWeb::start().await;
    let mut y = String::from("version: 1\nname: bench-sources\nsources:\n");
    for i in 0..n {
        let host = format!("office-{i}.test");
        web.route(
            &host,
            "/rates",
            page_from(10 * 1024, &format!("Office {i}")),
        );
        y.push_str(&format!(
            "  office-{i}:\n    publisher: Office {i}\n    tier: OFFICIAL_PRIMARY\n    domains: [{host}]\n    entry_urls: [\"{}\"]\n",
            web.url(&host, "/rates")
        ));
    }
    y.push_str("execution:\n  deadline_ms: 20000\n  max_sources: 16\n  target_confidence: 0.99\n");
    y.push_str("providers:\n  direct_official_adapter:\n    - { kind: official-site, timeout_ms: 8000, config: { concurrency: 16 } }\n");
    y.push_str(&web.policy_fragment());
    y.push_str("  retries: { max: 0 }\n");
    y.push_str(FAST_NET);
    let gw = gateway(load(&y), None).await;
    let r = ask(&gw).await;
    assert_eq!(r.sources.len(), n, "{:?}", r.attempts);
    let s = bench(1, reps, || ask(&gw)).await;
    let vs = base
        .map(|b| ratio(s.median(), b))
        .unwrap_or_else(|| "1x".into());
    t.row(
        &format!("sources: {n} official page(s) of 10 KB read and scored"),
        &s,
        &vs,
        "vs 1 source",
    );
    s.median()
}

/// A gateway whose store holds the answer to the world's question and `n`
/// other cache entries, the world it answers from, and a second handle on
/// the same store.
async fn cache_of(n: usize, dir: &Path) -> (World, Gateway, Store) {
    let world = World::start().await;
    let store_path = dir.join(format!("store-{n}.sqlite"));
    let policy = world_policy(&world, &PolicyOptions::default(), "");
    let gw = gateway(policy.clone(), Some(&store_path)).await;
    let first = ask(&gw).await;
    let store = search_gateway::open_store(
        &policy,
        &OpenOptions {
            store: Some(store_path.display().to_string()),
            no_store: false,
        },
    )
    .await
    .unwrap()
    .unwrap();
    let filled = Instant::now();
    let now = jiff::Timestamp::now();
    let mut key = first.cache_key.clone().unwrap();
    for i in 0..n {
        key.normalized_query = format!("filler question number {i}");
        store.put_cache_entry(&key, &first, now).await.unwrap();
    }
    eprintln!("  filled {n} cache entries in {:?}", filled.elapsed());
    assert!(ask(&gw).await.from_cache);
    (world, gw, store)
}

/// The official host accepts connections and never answers: the first
/// searches of `reps` fresh gateways (each on a store of its own), and the
/// last gateway, whose official host now rests, with its world.
async fn black_hole_first(
    t: &mut Table,
    label: &str,
    execution: &str,
    reps: usize,
    dir: &Path,
) -> (Sample, Gateway, World) {
    let world = World::start().await;
    world.break_official(Fault::Hang);
    let options = PolicyOptions {
        provider_timeout_ms: 2_000,
        ..no_cache()
    };
    let mut first = Sample::default();
    let mut last = None;
    for i in 0..reps {
        let store = dir.join(format!("hole-{label}-{i}.sqlite"));
        let gw = gateway(world_policy(&world, &options, execution), Some(&store)).await;
        let t0 = Instant::now();
        let r = ask(&gw).await;
        first.times.push(t0.elapsed());
        assert!(r.has_answer(), "{:?}", r.attempts);
        last = Some(gw);
    }
    t.row(
        &format!("black-holed official host, {label}: first search"),
        &first,
        "",
        "step timeout 2000 ms",
    );
    (first, last.expect("at least one first search"), world)
}

async fn concurrency_case(t: &mut Table, k: usize, base: Option<Duration>) -> Duration {
    let world = World::start().await;
    let gw = gateway(world_policy(&world, &no_cache(), ""), None).await;
    ask(&gw).await;
    let rounds = if k >= 64 { 3 } else { 5 };
    let mut wall = Vec::new();
    for _ in 0..rounds {
        let t0 = Instant::now();
        let all = futures_join(k, &gw).await;
        assert!(all.iter().all(SearchResult::has_answer));
        wall.push(t0.elapsed());
    }
    let s = Sample { times: wall };
    let per = s.median() / k as u32;
    let vs = base.map(|b| ratio(per, b)).unwrap_or_else(|| "1x".into());
    t.row(
        &format!("{k} concurrent searches (miss), wall time of the batch"),
        &s,
        &vs,
        format!("{} ms per search; ratio: per-search cost vs 1", ms(per)),
    );
    per
}

async fn futures_join(k: usize, gw: &Gateway) -> Vec<SearchResult> {
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..k {
        let gw = gw.clone();
        set.spawn(async move { ask(&gw).await });
    }
    let mut out = Vec::new();
    while let Some(r) = set.join_next().await {
        out.push(r.expect("search task"));
    }
    out
}

// ---------------------------------------------------------------- process cases

fn run(bin: &Path, args: &[&str]) -> Duration {
    let t0 = Instant::now();
    let out = std::process::Command::new(bin)
        .args(args)
        .output()
        .expect("run sgw");
    let d = t0.elapsed();
    assert!(
        out.status.success() || out.status.code() == Some(3),
        "sgw {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    d
}

/// Peak resident set (KB) of `bin args`, via `/usr/bin/time -f %M`.
fn peak_rss_kb(bin: &Path, args: &[&str]) -> Option<u64> {
    let out = std::process::Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg(bin)
        .args(args)
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines().last()?.trim().parse().ok()
}

async fn process_cases(t: &mut Table, bin: &Path, dir: &Path) {
    let world = World::start().await;
    let yaml = format!("{}{FAST_NET}", world.policy(&PolicyOptions::default()));
    let policy = dir.join("world.yaml");
    std::fs::write(&policy, yaml).unwrap();
    let store = dir.join("cli-store.sqlite");
    let p = policy.display().to_string();
    let s = store.display().to_string();
    let search = [
        "search",
        "--policy",
        p.as_str(),
        "--store",
        s.as_str(),
        world::QUESTION,
    ];
    run(bin, &["--version"]);
    run(bin, &search); // the miss that fills the cache
    // Alternating runs: a machine that gets busier or quieter meanwhile
    // moves both samples alike, and the ratio stays what it measures.
    let (mut version, mut hit) = (Sample::default(), Sample::default());
    for _ in 0..31 {
        version.times.push(run(bin, &["--version"]));
        hit.times.push(run(bin, &search));
    }
    t.row("`sgw --version` (process start)", &version, "1x", "");
    t.row(
        "`sgw search`, answered from a fresh cache entry",
        &hit,
        &ratio(hit.median(), version.median()),
        "vs `sgw --version`",
    );
    t.target(
        "`sgw search` cache hit <= 2x `sgw --version`",
        ratio(hit.median(), version.median()),
        hit.median() <= version.median() * 2,
    );

    // Peak RSS of a search that reads a 1 MB page (a miss, no store).
    world
        .web
        .route(world::OFFICIAL, world::RATES_PATH, page_of(1 << 20));
    let miss = [
        "search",
        "--policy",
        p.as_str(),
        "--no-store",
        world::QUESTION,
    ];
    let base = peak_rss_kb(bin, &["--version"]);
    let rss = peak_rss_kb(bin, &miss);
    if let (Some(base), Some(rss)) = (base, rss) {
        let limit = 2 * 1024 + 20 * 1024;
        t.target(
            "peak RSS of a search of a 1 MB page <= 2x page + 20 MB",
            format!(
                "{:.1} MB (`sgw --version`: {:.1} MB; limit {:.0} MB)",
                rss as f64 / 1024.0,
                base as f64 / 1024.0,
                limit as f64 / 1024.0
            ),
            rss <= limit,
        );
    }
}

// ---------------------------------------------------------------- main

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    if let Some(bad) = unknown_argument(&args) {
        eprintln!("bench_chain: unknown argument `{bad}`\n\n{USAGE}");
        std::process::exit(2);
    }
    let quick = args.iter().any(|a| a == "--quick");
    // `--only pages,cache,…` runs a subset of the case groups (pages, cache,
    // black-hole, sources, concurrency, processes); the default runs them all.
    let only: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|list| list.split(',').map(str::to_owned).collect());
    let wanted = |group: &str| only.as_ref().is_none_or(|o| o.iter().any(|g| g == group));
    if let Some(i) = args.iter().position(|a| a == "--repeat-search") {
        let kb = args.get(i + 1).and_then(|v| v.parse().ok());
        let n = args.get(i + 2).and_then(|v| v.parse().ok());
        let (Some(kb), Some(n)) = (kb, n) else {
            eprintln!("--repeat-search KB N: the page size in KiB and the number of searches");
            std::process::exit(2);
        };
        repeat_search(kb, n, args.iter().any(|a| a == "--baseline")).await;
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--repeat-later") {
        let Some(n) = args.get(i + 1).and_then(|v| v.parse().ok()) else {
            eprintln!("--repeat-later N: the number of later searches after the black-holed first");
            std::process::exit(2);
        };
        repeat_later(n).await;
        return;
    }
    let reps = if quick { 5 } else { 21 };
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::default();

    if wanted("pages") {
        page_size_cases(&mut t, reps).await;
    }
    if wanted("cache") {
        cache_cases(&mut t, quick, dir.path()).await;
    }
    if wanted("black-hole") {
        black_hole_cases(&mut t, reps, quick, dir.path()).await;
    }
    if wanted("sources") {
        eprintln!("sources …");
        let one = sources_case(&mut t, 1, reps, None).await;
        sources_case(&mut t, 4, reps, Some(one)).await;
        sources_case(&mut t, 16, reps.min(11), Some(one)).await;
    }
    if wanted("concurrency") {
        eprintln!("concurrency …");
        let single = concurrency_case(&mut t, 1, None).await;
        concurrency_case(&mut t, 8, Some(single)).await;
        concurrency_case(&mut t, 64, Some(single)).await;
    }
    if wanted("processes") {
        if let Some(bin) = std::env::var_os("SGW_BIN").map(PathBuf::from) {
            eprintln!("processes …");
            process_cases(&mut t, &bin, dir.path()).await;
        } else {
            eprintln!("SGW_BIN not set: process-level cases skipped");
        }
    }
    t.print();
}

const USAGE: &str = "\
Usage: bench_chain [--quick] [--only GROUP,...]
       bench_chain --repeat-search KB N [--baseline]
       bench_chain --repeat-later N

The chain benchmark of `cargo xtask bench-chain` (which builds and runs it):
every case side by side with its reference, then the issue's targets.

  --quick            fewer repetitions (the table in docs/benchmarks.md)
  --only GROUPS      a subset: pages, cache, black-hole, sources,
                     concurrency, processes (processes needs SGW_BIN)
  --repeat-search    the 10 KB search (or with --baseline its raw fetch +
                     extraction) N times, for a profiler; prints CPU per run
  --repeat-later     N later searches past a black-holed host, for a profiler";

/// The first argument that is neither a flag nor the value of one.
fn unknown_argument(args: &[String]) -> Option<&str> {
    let mut i = 0;
    while i < args.len() {
        let values = match args[i].as_str() {
            "--quick" | "--baseline" => 0,
            "--only" | "--repeat-later" => 1,
            "--repeat-search" => 2,
            other => return Some(other),
        };
        i += 1 + values;
    }
    None
}

/// `--repeat-search KB N`: the pages group's full search (official page of
/// KB KiB, no cache) N times, for a profiler; with `--baseline`, its raw
/// fetch + extraction instead, the same way the pages group times them. Prints
/// the wall and main-thread CPU time per run.
async fn repeat_search(kb: usize, n: u32, baseline: bool) {
    let world = World::start().await;
    world
        .web
        .route(world::OFFICIAL, world::RATES_PATH, page_of(kb * 1024));
    let policy = world_policy(&world, &no_cache(), "");
    let url = world.web.url(world::OFFICIAL, world::RATES_PATH);
    let fetcher = search_gateway::fetcher(&policy).expect("fetch config");
    let gw = gateway(policy, None).await;
    let (cpu0, started) = (thread_cpu(), Instant::now());
    for _ in 0..n {
        if baseline {
            let page = fetcher
                .fetch(&FetchRequest::page(url.clone()))
                .await
                .expect("page");
            let doc = sgw_extract::extract(&page.body, Some("text/html"), Some(&url));
            std::hint::black_box(doc.expect("extraction"));
        } else {
            let r = ask(&gw).await;
            assert!(r.has_answer(), "{:?}", r.attempts);
        }
    }
    let what = if baseline {
        "raw fetches + extractions"
    } else {
        "searches"
    };
    let cpu = thread_cpu()
        .zip(cpu0)
        .map(|(b, a)| {
            format!(
                ", main-thread CPU {} ms",
                ms(b.saturating_sub(a) / n.max(1))
            )
        })
        .unwrap_or_default();
    eprintln!(
        "{n} {what} of a {kb} KiB page: {} ms each{cpu}",
        ms(started.elapsed() / n.max(1))
    );
}

/// `--repeat-later N`: the black-hole group's later search (official host
/// hung and resting, no hedging) `n` times after one first search, with the
/// attempts of the second search printed, for a profiler.
async fn repeat_later(n: u32) {
    let world = World::start().await;
    world.break_official(Fault::Hang);
    let options = PolicyOptions {
        provider_timeout_ms: 2_000,
        ..no_cache()
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("later.sqlite");
    let gw = gateway(world_policy(&world, &options, ""), Some(&store)).await;
    ask(&gw).await;
    let r = ask(&gw).await;
    for a in &r.attempts {
        eprintln!(
            "  {} {} {:?} {} ms {}",
            a.step,
            a.provider,
            a.outcome,
            a.elapsed_ms,
            a.target.as_deref().unwrap_or("")
        );
    }
    let started = Instant::now();
    for _ in 0..n {
        ask(&gw).await;
    }
    eprintln!(
        "{n} later searches: {} ms each",
        ms(started.elapsed() / n.max(1))
    );
}

/// 10 KB vs 1 MB pages: fetch, extraction, full search, and the overhead targets.
async fn page_size_cases(t: &mut Table, reps: usize) {
    eprintln!("page sizes …");
    // Many rounds, `--quick` or not: the targets compare a small difference
    // of three medians, whose spread shrinks with the rounds, and a round
    // takes ~0.3 ms at 10 KB (401 rounds: ~0.2 s) and ~15 ms at 1 MB (61
    // rounds: ~1 s).
    let (w10, c10) = page_size_case(t, "10 KB", 10 * 1024, reps.max(401)).await;
    let (w1m, c1m) = page_size_case(t, "1 MB", 1 << 20, reps.max(61)).await;
    // The target is the gateway's CPU: judged on the CPU time of the
    // thread that runs the search (no waiting, no time descheduled), with the
    // wall-time difference beside it. Where CPU time cannot be read, on the
    // wall times.
    for (label, wall, cpu) in [("10 KB", w10, c10), ("1 MB", w1m, c1m)] {
        let (wall_beyond, wall_share) = wall.beyond();
        let wall_text = format!(
            "{} ms = {:.0}% of extraction ({} ms)",
            ms(wall_beyond),
            100.0 * wall_share,
            ms(wall.extract)
        );
        let (measured, share) = match cpu {
            Some(cpu) => {
                let (beyond, share) = cpu.beyond();
                (
                    format!(
                        "CPU: {} ms = {:.0}% of extraction ({} ms); wall time: {wall_text}",
                        ms(beyond),
                        100.0 * share,
                        ms(cpu.extract)
                    ),
                    share,
                )
            }
            None => (format!("wall time: {wall_text}"), wall_share),
        };
        t.target(
            &format!("gateway CPU beyond fetch + extraction <= 25% of extraction ({label})"),
            measured,
            share <= 0.25,
        );
    }
    let (s10, s1m) = (w10.search, w1m.search);
    let per_kb_small = s10.as_secs_f64() / 10.0;
    let per_kb_big = s1m.as_secs_f64() / 1024.0;
    t.target(
        "cost linear in page size (search time per KB, 1 MB vs 10 KB)",
        format!(
            "{:.3} vs {:.3} ms/KB (1 MB page costs {} the 10 KB page)",
            per_kb_big * 1e3,
            per_kb_small * 1e3,
            ratio(s1m, s10)
        ),
        per_kb_big <= per_kb_small * 1.5,
    );
}

/// Entries per page of `sgw cache list` (its `LIST_PAGE`).
const LIST_PAGE: usize = 500;

/// The cursor that starts the deepest full page of `store`'s cache list
/// (`None`: the first page) and how many entries come before it.
async fn deepest_page(store: &Store, now: jiff::Timestamp) -> (Option<CacheCursor>, usize) {
    let (mut at, mut deepest, mut depth) = (None, None, 0);
    loop {
        let page = store
            .list_page(None, now, at.as_ref(), LIST_PAGE)
            .await
            .expect("a page of the cache list");
        if page.entries.len() == LIST_PAGE {
            deepest = Some((at.clone(), depth));
        }
        depth += page.entries.len();
        match page.next {
            Some(next) => at = Some(next),
            None => break,
        }
    }
    deepest.expect("a full page")
}

/// Cached answers with 1k vs 100k (10k with `--quick`) entries in the store,
/// and the pages `sgw cache list` reads of them.
async fn cache_cases(t: &mut Table, quick: bool, dir: &Path) {
    eprintln!("cache …");
    let big = if quick { 10_000 } else { 100_000 };
    let (_small_world, small_gw, small_store) = cache_of(1_000, dir).await;
    let (_big_world, big_gw, big_store) = cache_of(big, dir).await;
    // The two stores' hits are timed in alternating rounds, as the page
    // rows are: the flatness target is a ratio of two sub-millisecond
    // medians, which a machine getting busier between two series would
    // decide. 5 rounds of warm-up, then 31, in any mode (a hit costs well
    // under a millisecond).
    let (hit_small, hit_big) = alternating(5, 31, || ask(&small_gw), || ask(&big_gw)).await;
    let now = jiff::Timestamp::now();
    // `sgw cache list` reads the list a page at a time (keyset paging): its
    // first page, and the deepest full one, reached by the cursor of the
    // page before it. The filler entries share one refresh instant, the
    // worst case for a list ordered by it. The two stores' deepest pages
    // are timed in alternating rounds, for the flatness target.
    let (small_deep_at, small_deep_from) = deepest_page(&small_store, now).await;
    let (big_deep_at, big_deep_from) = deepest_page(&big_store, now).await;
    let (deep_small, deep_big) = alternating(
        1,
        11,
        || small_store.list_page(None, now, small_deep_at.as_ref(), LIST_PAGE),
        || big_store.list_page(None, now, big_deep_at.as_ref(), LIST_PAGE),
    )
    .await;
    for (n, hit, store, deep, deep_from) in [
        (
            1_000,
            &hit_small,
            &small_store,
            &deep_small,
            small_deep_from,
        ),
        (big, &hit_big, &big_store, &deep_big, big_deep_from),
    ] {
        let list = bench(1, 5, || store.list(None, now)).await;
        let first = bench(1, 5, || store.list_page(None, now, None, LIST_PAGE)).await;
        t.row(
            &format!("cache hit, store of {n} other entries"),
            hit,
            "",
            "",
        );
        t.row(
            &format!(
                "`sgw cache list` page: the first {LIST_PAGE} of {n} entries (`Store::list_page`)"
            ),
            &first,
            "1x",
            "",
        );
        t.row(
            &format!(
                "`sgw cache list` page: entries {}..{} of {n}, after the previous page's cursor",
                deep_from + 1,
                deep_from + LIST_PAGE
            ),
            deep,
            &ratio(deep.median(), first.median()),
            "vs the first page",
        );
        t.row(
            &format!("`Store::list` of all {n} entries at once (what paging avoids)"),
            &list,
            &ratio(list.median(), first.median()),
            "vs a page",
        );
    }
    t.target(
        &format!(
            "`sgw cache list` page flat in cache size (the deepest full page, {big} vs 1000 entries, <= 1.2x)"
        ),
        ratio(deep_big.median(), deep_small.median()),
        deep_big.median().as_secs_f64() <= deep_small.median().as_secs_f64() * 1.2,
    );
    t.target(
        "in-process cached answer <= 1 ms",
        format!("{} ms", ms(hit_small.median())),
        hit_small.median() <= Duration::from_millis(1),
    );
    t.target(
        &format!("cache hit flat in cache size ({big} vs 1000 entries, <= 1.2x)"),
        ratio(hit_big.median(), hit_small.median()),
        hit_big.median().as_secs_f64() <= hit_small.median().as_secs_f64() * 1.2,
    );
}

/// A black-holed official host, first and later searches, with and without
/// hedging, against baselines with the same store and execution settings.
async fn black_hole_cases(t: &mut Table, reps: usize, quick: bool, dir: &Path) {
    eprintln!("black-holed host …");
    // A first search costs a timeout (2 s) or hedge + accept window (0.5 s).
    let hole_reps = if quick { 3 } else { 5 };
    // The one-page official answer of a world where nothing is broken: what
    // a search costs while the official host answers (a row, not the
    // baseline of the later-search targets; see below).
    let healthy = {
        let world = World::start().await;
        let options = PolicyOptions {
            provider_timeout_ms: 2_000,
            ..no_cache()
        };
        let store = dir.join("hole-healthy.sqlite");
        let gw = gateway(world_policy(&world, &options, ""), Some(&store)).await;
        bench(2, reps, || ask(&gw)).await
    };
    t.row(
        "healthy world, full search (miss, evidence stored; the official page answers)",
        &healthy,
        "1x",
        "the one-page answer",
    );
    let hedged = "  hedge_after_ms: 300\n  accept_after_ms: 200\n";
    let (_, plain_gw, _plain_world) = black_hole_first(t, "no hedging", "", hole_reps, dir).await;
    let (hedged_first, hedged_gw, _hedged_world) =
        black_hole_first(t, "hedge 300 ms + accept 200 ms", hedged, hole_reps, dir).await;
    // The path the hedged step answers by (engine + media pages, evidence
    // stored) on a fresh gateway, as the first search takes it: new
    // connections and robots.txt for hosts not seen yet.
    let cold = same_path_cold(hedged, reps.min(9), dir).await;
    t.row(
        "engine + media path alone, first search of a fresh gateway",
        &cold,
        "",
        "what the hedged step costs cold",
    );
    // Each of the two waits (hedge, accept) is a tokio timer of 1 ms
    // resolution: one tick each is allowed. The chain arms them at the
    // start of their deadline's millisecond (`chain::sleep_until_about`),
    // so each ends within a millisecond either side of its deadline (a
    // plain tokio timer ends 0-2 ms after it). docs/benchmarks.md says
    // where the rest of the time goes.
    let timer_ticks = Duration::from_millis(2);
    let window = Duration::from_millis(500) + cold.quantile(0.99) + timer_ticks;
    t.target(
        "black-holed, hedged: first search <= hedge + accept + p99 of the same path (cold) + 2 timer ticks",
        format!(
            "{} ms (bound {} ms: 500 + {} + 2)",
            ms(hedged_first.median()),
            ms(window),
            ms(cold.quantile(0.99))
        ),
        hedged_first.median() <= window,
    );
    // Later searches: the host rests, so the chain goes straight to the
    // engine + media path. "Healthy" for them is that same path in a world
    // where nothing is broken, in a chain that never had the official step
    // (the issue's own arithmetic: the first search's answer comes by that
    // path in "hedge + accept + healthy", so its healthy is the path's
    // time). Timed in alternating rounds against it: at 2–4 ms a search
    // moves by more than what the two differ by when timed as two series.
    let rounds = if quick { 31 } else { 61 };
    for (label, execution, hole_gw) in [
        ("no hedging", "", &plain_gw),
        ("hedged", hedged, &hedged_gw),
    ] {
        let world = World::start().await;
        let store = dir.join(format!("warm-path-{}.sqlite", execution.len()));
        let path_gw = gateway(same_path_policy(&world, execution), Some(&store)).await;
        let (later, path) = alternating(2, rounds, || ask(hole_gw), || ask(&path_gw)).await;
        t.row(
            &format!("black-holed official host, {label}: later searches"),
            &later,
            &ratio(later.median(), healthy.median()),
            "the host rests: not contacted; ratio vs the one-page answer",
        );
        t.row(
            &format!(
                "engine + media path alone, {label}: later searches (no official step in the chain)"
            ),
            &path,
            &ratio(path.median(), healthy.median()),
            "the path a resting host leaves, healthy; ratio vs the one-page answer",
        );
        t.target(
            &format!("black-holed, {label}: later searches <= 1.2x healthy (the same path, nothing broken)"),
            format!(
                "{} ms = {} the path alone ({} ms)",
                ms(later.median()),
                ratio(later.median(), path.median()),
                ms(path.median())
            ),
            later.median().as_secs_f64() <= 1.2 * path.median().as_secs_f64(),
        );
    }
}

/// The world's policy without the official adapter: a chain that starts at
/// the search engine, the path a search takes while the official host rests.
fn same_path_policy(world: &World, execution: &str) -> Policy {
    let options = PolicyOptions {
        provider_timeout_ms: 2_000,
        ..no_cache()
    };
    let yaml =
        world
            .policy(&options)
            .replacen("execution:\n", &format!("execution:\n{execution}"), 1);
    let official = "  direct_official_adapter:\n    - { kind: official-site, timeout_ms: 2000 }\n";
    assert!(yaml.contains(official), "the world policy changed:\n{yaml}");
    load(&format!("{}{FAST_NET}", yaml.replacen(official, "", 1)))
}

/// First searches of fresh gateways whose chain starts at the search engine
/// (the official adapter left out of the policy): the hedged step's path, cold.
async fn same_path_cold(execution: &str, reps: usize, dir: &Path) -> Sample {
    let mut times = Vec::new();
    for i in 0..reps {
        let world = World::start().await;
        let store = dir.join(format!("cold-path-{i}.sqlite"));
        let gw = gateway(same_path_policy(&world, execution), Some(&store)).await;
        let t0 = Instant::now();
        let r = ask(&gw).await;
        times.push(t0.elapsed());
        assert!(r.has_answer(), "{:?}", r.attempts);
    }
    Sample { times }
}
