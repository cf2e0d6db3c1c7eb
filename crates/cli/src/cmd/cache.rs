//! `sgw cache list | show | stats | purge`: look into and trim the evidence
//! cache of the store.
//!
//! The store comes from `--store` (env `SGW_STORE`), else the policy's
//! `store.url`, else the default location; staleness rules come from the
//! policy (`--policy`, default the built-in one).

use crate::exit::{CliError, CliResult};
use search_gateway::{CacheKey, Policy};
use sgw_store::{CacheEntrySummary, CacheFilter, CacheLookup, Store};
use std::path::PathBuf;
use std::process::ExitCode;

/// Where the store is and which policy rules apply (shared by `sgw cache` and `sgw evidence`).
#[derive(Debug, Clone, clap::Args)]
pub struct StoreArgs {
    /// Policy file: staleness rules, network config and `store.url`
    /// (default: the built-in `policies/default.yaml`).
    #[arg(long, env = "SGW_POLICY", global = true)]
    pub policy: Option<PathBuf>,
    /// Evidence store (path, sqlite:…, postgres://…); overrides the policy's `store.url`.
    #[arg(long, env = "SGW_STORE", global = true)]
    pub store: Option<String>,
    /// Print JSON.
    #[arg(long, global = true)]
    pub json: bool,
}

impl StoreArgs {
    /// The policy named by `--policy`, or the built-in default.
    pub fn load_policy(&self) -> Result<Policy, CliError> {
        search_gateway::load_policy_or_default(self.policy.as_deref())
            .map(|(p, _)| p)
            .map_err(|e| CliError::Usage(e.to_string()))
    }

    /// Opens the store with the policy's staleness rules (where it lives is
    /// decided by [`search_gateway::open_store`]).
    pub async fn open(&self, policy: &Policy) -> Result<Store, CliError> {
        let options = search_gateway::OpenOptions {
            store: self.store.clone(),
            no_store: false,
        };
        search_gateway::open_store(policy, &options)
            .await?
            .ok_or_else(|| CliError::Usage("no evidence store configured".into()))
    }
}

/// Runs `command`, which opens the store into the slot it is given when it
/// needs one, then closes that store if the command wrote to it, whatever
/// the command returned ([`Store::close_after_writes`]): the process ends
/// next, and a store left open after writes would leave its write-ahead log
/// for the next `sgw` to replay.
pub async fn closing_store(
    command: impl AsyncFnOnce(&mut Option<Store>) -> CliResult,
) -> CliResult {
    let mut opened = None;
    let result = command(&mut opened).await;
    if let Some(store) = opened {
        store.close_after_writes().await;
    }
    result
}

/// Prints `value` as pretty JSON.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let s = serde_json::to_string_pretty(value).map_err(|e| CliError::Io(e.to_string()))?;
    println!("{s}");
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: StoreArgs,
    #[command(subcommand)]
    pub command: CacheCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum CacheCommand {
    /// List cache entries (most recently refreshed first) with their staleness.
    List {
        /// Only entries of this topic type.
        #[arg(long)]
        topic: Option<String>,
        /// Only stale entries.
        #[arg(long)]
        stale: bool,
    },
    /// Show the cached result(s) of a query (any topic/scope/date, unless narrowed)
    /// or of a key as `sgw cache list` prints it.
    Show {
        /// A query, or a key as printed by `sgw cache list`.
        key_or_query: String,
        /// Only the entry of this topic type.
        #[arg(long)]
        topic: Option<String>,
    },
    /// Counts: evidence, entries (fresh/stale, by topic), requests, screenshots.
    Stats,
    /// Delete cache entries (and the evidence only they cite). A filter is required.
    Purge {
        /// Entries last refreshed more than DAYS days ago (0: all).
        #[arg(long, value_name = "DAYS")]
        older_than: Option<u32>,
        /// Entries of this topic type.
        #[arg(long, value_name = "TOPIC")]
        topic: Option<String>,
        /// Stale entries.
        #[arg(long)]
        stale: bool,
        /// Show what would be deleted, delete nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Builds a filter from the purge/list flags; `None` when no flag is given.
fn filter(older_than: Option<u32>, topic: Option<String>, stale: bool) -> Option<CacheFilter> {
    let mut f: Option<CacheFilter> = None;
    if let Some(days) = older_than {
        f = Some(CacheFilter::older_than_days(days));
    }
    if let Some(t) = topic {
        f = Some(match f {
            Some(f) => f.and_topic(t),
            None => CacheFilter::topic(t),
        });
    }
    if stale {
        f = Some(match f {
            Some(f) => f.and_stale(),
            None => CacheFilter::stale(),
        });
    }
    f
}

/// Entries read per page by `sgw cache list`.
const LIST_PAGE: usize = 500;

/// One page of a JSON array printed as `print_json` would print the whole
/// array, its entries indented under `indent`: `[` before the first page,
/// the closing `]` and then `after` once the last is written.
fn print_json_page(
    entries: &[CacheEntrySummary],
    (first, last): (bool, bool),
    indent: &str,
    after: &str,
) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| CliError::Io(e.to_string());
    if first && last && entries.is_empty() {
        return write!(out, "[]{after}").map_err(io);
    }
    if first {
        write!(out, "[").map_err(io)?;
    }
    let inner = format!("\n{indent}  ");
    for (i, e) in entries.iter().enumerate() {
        let s = serde_json::to_string_pretty(e).map_err(|e| CliError::Io(e.to_string()))?;
        let sep = if first && i == 0 { "" } else { "," };
        write!(out, "{sep}{inner}{}", s.replace('\n', &inner)).map_err(io)?;
    }
    if last {
        write!(out, "\n{indent}]{after}").map_err(io)?;
    }
    Ok(())
}

/// Walks the entries `filter` selects, in list order, [`LIST_PAGE`] at a
/// time (a store of any size in bounded memory): `each` gets every page with
/// whether it is the first and the last. Returns how many entries there were.
async fn walk_pages(
    store: &Store,
    filter: Option<&CacheFilter>,
    now: jiff::Timestamp,
    mut each: impl FnMut(&[CacheEntrySummary], (bool, bool)) -> Result<(), CliError>,
) -> Result<usize, CliError> {
    let (mut after, mut first, mut total) = (None, true, 0);
    loop {
        let page = store
            .list_page(filter, now, after.as_ref(), LIST_PAGE)
            .await
            .map_err(CliError::from)?;
        total += page.entries.len();
        each(&page.entries, (first, page.next.is_none()))?;
        first = false;
        match page.next {
            Some(next) => after = Some(next),
            None => return Ok(total),
        }
    }
}

/// One page of a listing: as JSON ([`print_json_page`]: entries indented
/// under `indent`, `after` written after the last page), or as text lines
/// (every page but an empty last one; the first says "no cache entries"
/// when there are none).
fn print_page(
    entries: &[CacheEntrySummary],
    (first, last): (bool, bool),
    json: bool,
    (indent, after): (&str, &str),
) -> Result<(), CliError> {
    if json {
        return print_json_page(entries, (first, last), indent, after);
    }
    if first || !entries.is_empty() {
        print!("{}", render_list(entries));
    }
    Ok(())
}

fn key_line(key: &CacheKey) -> String {
    key.to_string()
}

fn render_list(entries: &[CacheEntrySummary]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    if entries.is_empty() {
        out.push_str("no cache entries\n");
        return out;
    }
    for e in entries {
        let _ = writeln!(
            out,
            "{:<5}  conf {:<5}  refreshed {}  stale after {}  {} evidence  {}",
            if e.stale { "STALE" } else { "fresh" },
            e.confidence
                .map(|c| format!("{c:.3}"))
                .unwrap_or_else(|| "-".into()),
            e.refreshed_at,
            e.stale_after,
            e.evidence_ids.len(),
            key_line(&e.key)
        );
    }
    out
}

/// A key as `CacheKey`'s `Display` prints it (`"query" topic=T scope=S date=D`),
/// or `None` for a plain query.
fn parse_key_line(s: &str) -> Option<CacheKey> {
    s.parse().ok()
}

pub async fn run(args: Args) -> CliResult {
    closing_store(async |opened| run_command(args, opened).await).await
}

async fn run_command(args: Args, opened: &mut Option<Store>) -> CliResult {
    let policy = args.common.load_policy()?;
    // A purge without a filter is a usage error before anything is opened.
    if let CacheCommand::Purge {
        older_than: None,
        topic: None,
        stale: false,
        ..
    } = &args.command
    {
        return Err(CliError::Usage(
            "sgw cache purge needs a filter: --older-than DAYS, --topic TOPIC or --stale \
             (--older-than 0 purges everything)"
                .into(),
        ));
    }
    let store = &*opened.insert(args.common.open(&policy).await?);
    let json = args.common.json;
    let now = jiff::Timestamp::now();
    match args.command {
        CacheCommand::List { topic, stale } => {
            let f = filter(None, topic, stale);
            walk_pages(store, f.as_ref(), now, |entries, at| {
                print_page(entries, at, json, ("", "\n"))
            })
            .await?;
            Ok(ExitCode::SUCCESS)
        }
        CacheCommand::Show {
            key_or_query,
            topic,
        } => {
            let keys: Vec<CacheKey> = match parse_key_line(&key_or_query) {
                Some(k) => vec![k],
                None => {
                    let wanted =
                        CacheFilter::question(sgw_contract::normalize_query(&key_or_query));
                    let wanted = match &topic {
                        Some(t) => wanted.and_topic(t.clone()),
                        None => wanted,
                    };
                    store
                        .list(Some(&wanted), now)
                        .await
                        .map_err(CliError::from)?
                        .into_iter()
                        .map(|e| e.key)
                        .collect()
                }
            };
            let mut shown = Vec::new();
            for key in keys {
                match store.lookup(&key, now).await.map_err(CliError::from)? {
                    CacheLookup::Fresh(e) => shown.push((e, false)),
                    CacheLookup::Stale(e) => shown.push((e, true)),
                    CacheLookup::Miss => {}
                }
            }
            if shown.is_empty() {
                return Err(CliError::Operational(format!(
                    "no cache entry for `{key_or_query}` (see `sgw cache list`)"
                )));
            }
            if json {
                let v: Vec<_> = shown
                    .iter()
                    .map(|(e, stale)| {
                        serde_json::json!({
                            "key": e.key,
                            "stale": stale,
                            "created_at": e.created_at,
                            "refreshed_at": e.refreshed_at,
                            "stale_after": e.stale_after,
                            "evidence_ids": e.evidence_ids,
                            "result": e.result,
                        })
                    })
                    .collect();
                print_json(&v)?;
            } else {
                for (e, stale) in &shown {
                    println!(
                        "{}\n  {}; created {}, refreshed {}, stale after {}\n",
                        key_line(&e.key),
                        if *stale { "STALE" } else { "fresh" },
                        e.created_at,
                        e.refreshed_at,
                        e.stale_after
                    );
                    print!("{}", crate::cmd::search::render(&e.result));
                    println!();
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        CacheCommand::Stats => {
            let stats = store.stats(now).await.map_err(CliError::from)?;
            if json {
                print_json(&stats)?;
            } else {
                println!("store          {} ({})", store.location(), stats.backend);
                println!(
                    "evidence       {} records, {} compressed text bytes",
                    stats.evidence, stats.evidence_text_bytes
                );
                println!(
                    "cache entries  {} ({} fresh, {} stale)",
                    stats.cache_entries, stats.fresh, stats.stale
                );
                for (topic, t) in &stats.by_topic {
                    println!("  {topic:<20} {} ({} stale)", t.entries, t.stale);
                }
                println!(
                    "requests       {} open, {} resolved, {} cancelled",
                    stats.requests_open, stats.requests_resolved, stats.requests_cancelled
                );
                println!("screenshots    {}", stats.screenshots);
            }
            Ok(ExitCode::SUCCESS)
        }
        CacheCommand::Purge {
            older_than,
            topic,
            stale,
            dry_run,
        } => {
            let Some(f) = filter(older_than, topic, stale) else {
                return Err(CliError::Usage("a purge needs a filter".into()));
            };
            if dry_run {
                // Streamed like `sgw cache list`: the count comes last.
                if json {
                    print!("{{\n  \"dry_run\": true,\n  \"entries\": ");
                }
                let n = walk_pages(store, Some(&f), now, |entries, at| {
                    print_page(entries, at, json, ("  ", ""))
                })
                .await?;
                if json {
                    println!(",\n  \"cache_entries\": {n}\n}}");
                } else {
                    println!(
                        "dry run: {n} cache entr{} would be purged",
                        if n == 1 { "y" } else { "ies" }
                    );
                }
                return Ok(ExitCode::SUCCESS);
            }
            let report = store.purge(&f, now).await.map_err(CliError::from)?;
            if json {
                print_json(&report)?;
            } else {
                println!(
                    "purged {} cache entr{} and {} evidence record(s)",
                    report.cache_entries,
                    if report.cache_entries == 1 {
                        "y"
                    } else {
                        "ies"
                    },
                    report.evidence
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printed_key_parses_back() {
        let key = CacheKey {
            normalized_query: "what is \"x\" rate".into(),
            topic_type: "news".into(),
            jurisdiction_or_scope: String::new(),
            effective_date: "latest".into(),
        };
        assert_eq!(parse_key_line(&key.to_string()), Some(key.clone()));
        let scoped = CacheKey {
            jurisdiction_or_scope: "eu".into(),
            ..key.clone()
        };
        assert_eq!(parse_key_line(&scoped.to_string()), Some(scoped));
        assert_eq!(parse_key_line("central bank rate"), None);
        let multi_word = CacheKey {
            jurisdiction_or_scope: "new york".into(),
            ..key
        };
        assert_eq!(parse_key_line(&multi_word.to_string()), Some(multi_word));
        assert_eq!(parse_key_line("\"unterminated"), None);
    }

    #[test]
    fn filters_need_a_flag() {
        assert!(filter(None, None, false).is_none());
        assert!(filter(Some(0), None, false).is_some());
        assert!(filter(None, Some("news".into()), true).is_some());
    }
}
