//! `sgw search QUERY`: run the fallback chain and print the answer, its
//! sources and the trace.

use crate::exit::{CliError, CliResult};
use search_gateway::{AttemptOutcome, FieldSpec, SearchRequest, SearchResult};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The question or search terms.
    pub query: String,
    /// Policy file (default: the built-in `policies/default.yaml`).
    #[arg(long, env = "SGW_POLICY")]
    pub policy: Option<PathBuf>,
    /// Topic type (`news`, `policy_or_law`, `product_or_price`, `static_reference`, …);
    /// chosen by the policy's topic rules when absent.
    #[arg(long)]
    pub topic: Option<String>,
    /// Jurisdiction or scope (e.g. `eu`).
    #[arg(long)]
    pub scope: Option<String>,
    /// The date the answer must hold at (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub as_of: Option<String>,
    /// A typed field to fill: NAME:KIND with KIND date, number, money, percent or text=REGEX. Repeatable.
    /// Each field gets its own value, confidence, level, support and competing values; the
    /// answer's level is the lowest field's. Exit 2 when a requested field has no value.
    #[arg(long = "field", value_name = "NAME:KIND")]
    pub fields: Vec<String>,
    /// A domain to prefer (repeatable).
    #[arg(long = "domain")]
    pub domains: Vec<String>,
    /// A URL to read directly (repeatable).
    #[arg(long = "url")]
    pub urls: Vec<String>,
    /// Evidence store (path, sqlite:…, postgres://…); overrides the policy's `store.url`.
    #[arg(long, env = "SGW_STORE")]
    pub store: Option<String>,
    /// Keep no evidence (no store).
    #[arg(long)]
    pub no_store: bool,
    /// Print the result contract as JSON.
    #[arg(long)]
    pub json: bool,
}

impl Args {
    fn request(&self) -> Result<SearchRequest, CliError> {
        let mut request = SearchRequest::new(self.query.clone());
        request.topic = self.topic.clone();
        request.scope = self.scope.clone();
        if let Some(d) = &self.as_of {
            request.as_of = Some(d.parse().map_err(|e| {
                CliError::Usage(format!("--as-of `{d}`: {e} (expected YYYY-MM-DD)"))
            })?);
        }
        for f in &self.fields {
            let spec = f
                .parse::<FieldSpec>()
                .map_err(|e| CliError::Usage(e.to_string()))?;
            crate::cmd::check_field_pattern(&spec)?;
            request.fields.push(spec);
        }
        request.hints.domains = self.domains.clone();
        for u in &self.urls {
            url_check(u)?;
        }
        request.hints.urls = self.urls.clone();
        Ok(request)
    }
}

fn url_check(u: &str) -> Result<(), CliError> {
    match sgw_extract::Url::parse(u) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => Ok(()),
        Ok(url) => Err(CliError::Usage(format!(
            "--url `{u}`: scheme `{}` is not http or https",
            url.scheme()
        ))),
        Err(e) => Err(CliError::Usage(format!("--url `{u}`: {e}"))),
    }
}

pub async fn run(args: Args) -> CliResult {
    let request = args.request()?;
    let options = search_gateway::OpenOptions {
        store: args.store.clone(),
        no_store: args.no_store,
    };
    let gateway = match &args.policy {
        Some(path) => search_gateway::open(path, options).await,
        None => search_gateway::open_default(options).await,
    }
    .map_err(CliError::from)?;
    let spinner = crate::progress::spinner(format!("searching: {}", request.query));
    let result = gateway.search(&request).await;
    spinner.finish_and_clear();
    // Before the process ends: a store left open would leave its write-ahead
    // log for the next `sgw` to replay (and this process's exit would wait
    // for a checkpoint cut short).
    gateway.close().await;
    let result = result.map_err(|e| CliError::Usage(e.to_string()))?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&result).map_err(|e| CliError::Io(e.to_string()))?
        );
    } else {
        print!("{}", sgw_safeio::terminal_safe(&render(&result)));
    }
    if let Some(failure) = result.store_failures.first() {
        return Err(CliError::from(failure));
    }
    Ok(exit_code(&result))
}

/// `base 0.950 (2 sources) + corroboration 0.030 + official 0.030 − CODE 0.250; cap 0.640 (ambiguous)`.
fn breakdown_line(b: &sgw_contract::ScoreBreakdown) -> String {
    let mut line = format!(
        "base {:.3} ({} source{}) + corroboration {:.3} + official {:.3}",
        b.base,
        b.sources_counted.len(),
        if b.sources_counted.len() == 1 {
            ""
        } else {
            "s"
        },
        b.corroboration_bonus,
        b.official_bonus
    );
    for p in &b.penalties {
        line.push_str(&format!(" − {} {:.3}", p.code, p.amount));
    }
    for c in &b.caps {
        line.push_str(&format!("; cap {:.3} ({})", c.max, c.reason));
    }
    line.push_str(&format!(" = {:.3}", b.confidence));
    line
}

/// The exit code of a result: 0 with an answer that fills every requested
/// field, 2 without an answer or when a requested field has no value (the
/// diagnosis is printed all the same).
fn exit_code(r: &SearchResult) -> ExitCode {
    let fields_filled = r.answer.fields.values().all(|f| f.value.is_some());
    if r.has_answer() && fields_filled {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

/// The human-readable report: answer, per-field confidence with its score
/// breakdown and competing values, sources, codes, trace.
pub fn render(r: &SearchResult) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    if r.has_answer() {
        let _ = writeln!(
            out,
            "Answer  confidence {:.3} ({}){}{}",
            r.confidence,
            r.confidence_level,
            if r.fallback_used {
                ", fallback used"
            } else {
                ""
            },
            if r.from_cache { ", from cache" } else { "" }
        );
        if let Some(b) = r
            .score_breakdown
            .as_ref()
            .filter(|_| r.answer.fields.is_empty())
        {
            let _ = writeln!(out, "  score: {}", breakdown_line(b));
        }
        for (name, field) in &r.answer.fields {
            let value = field.value.as_deref().unwrap_or("(not found)");
            let _ = writeln!(
                out,
                "  {name} = {value}   {} {:.3}{}   supported by [{}]",
                field.level,
                field.confidence,
                if field.ambiguous { ", AMBIGUOUS" } else { "" },
                field.sources.join(", ")
            );
            if let Some(b) = &field.score_breakdown {
                let _ = writeln!(out, "    score: {}", breakdown_line(b));
            }
            for c in &field.competing {
                let reason = c
                    .reason
                    .and_then(|r| serde_json::to_value(r).ok())
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_else(|| "competing".into());
                let _ = writeln!(
                    out,
                    "    competing: {} ({}, {reason}) [{}]",
                    c.value,
                    c.tier,
                    c.sources.join(", ")
                );
            }
        }
        for p in &r.answer.passages {
            let text: String = p.text.split_whitespace().collect::<Vec<_>>().join(" ");
            let text = if text.chars().count() > 240 {
                format!("{}…", text.chars().take(240).collect::<String>())
            } else {
                text
            };
            let _ = writeln!(
                out,
                "  “{text}”\n      — {} [{}]",
                p.url,
                p.evidence_id.as_deref().unwrap_or("-")
            );
        }
    } else {
        let _ = writeln!(
            out,
            "No answer: no evidence could be obtained (confidence {:.3}).",
            r.confidence
        );
    }
    if !r.sources.is_empty() {
        let _ = writeln!(out, "\nSources");
        for s in &r.sources {
            // A snippet is the engine's text about a page that was not read.
            let about = s
                .metadata
                .get("about")
                .and_then(|v| v.as_str())
                .map(|a| format!("  (snippet about {a}, page not read)"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {:<22} {}  {}  {}{about}",
                s.tier.as_str(),
                s.publisher.as_deref().unwrap_or("-"),
                s.url,
                s.evidence_id.as_deref().unwrap_or("")
            );
        }
    }
    if !r.failure_codes.is_empty() {
        let _ = writeln!(
            out,
            "\nFailure codes\n  {}",
            r.failure_codes
                .iter()
                .map(|c| c.as_str())
                .collect::<Vec<_>>()
                .join("\n  ")
        );
    }
    if let Some(id) = &r.human_request_id {
        let _ = writeln!(
            out,
            "\nHuman evidence requested: {id}  (sgw evidence show {id})"
        );
    }
    let _ = writeln!(out, "\nTrace");
    for a in &r.attempts {
        let outcome = match a.outcome {
            AttemptOutcome::Success => "ok".to_string(),
            AttemptOutcome::Empty => "empty".to_string(),
            AttemptOutcome::Failed => a
                .failure_code
                .map(|c| c.to_string())
                .unwrap_or_else(|| "failed".into()),
            AttemptOutcome::Skipped => {
                format!("skipped ({})", a.skipped_reason.as_deref().unwrap_or("-"))
            }
        };
        let target = a
            .target
            .as_deref()
            .map(|t| format!(" {t}"))
            .unwrap_or_default();
        let status = a
            .http_status
            .map(|s| format!(" HTTP {s}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:<30} {:<22}{target} → {outcome}{status} {} ms",
            a.step, a.provider, a.elapsed_ms
        );
    }
    for n in &r.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}
