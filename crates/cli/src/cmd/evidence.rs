//! `sgw evidence requests | show | submit`: the human evidence loop.
//!
//! A blocked query opens a request (`hr-…`, by the `human-intake` provider);
//! a person reads the page themselves and hands it in with `submit`: pasted
//! text, a file (HTML, PDF or plain text, by content sniffing; a PNG, JPEG
//! or WebP screenshot, read by `tesseract` when it is on PATH or transcribed
//! with `--text`), or a URL fetched through the network layer with all its
//! guards. The store keeps it as USER_SUPPLIED_EVIDENCE (never upgraded),
//! resolves the request and caches it for the request's key, so the next
//! identical query answers from the cache. A bad input changes nothing.

use crate::cmd::cache::{StoreArgs, closing_store, print_json};
use crate::exit::{CliError, CliResult};
use sgw_extract::Url;
use sgw_provider_human_intake::ingest::{self, Input};
use sgw_store::{HumanRequest, RequestStatus, Store};
use std::path::PathBuf;
use std::process::ExitCode;

/// Submissions larger than this are refused.
pub const MAX_SUBMIT_BYTES: u64 = ingest::MAX_BYTES;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: StoreArgs,
    #[command(subcommand)]
    pub command: EvidenceCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum EvidenceCommand {
    /// List human evidence requests (oldest first).
    Requests {
        /// Only requests with this status.
        #[arg(long, value_parser = ["open", "resolved", "cancelled"])]
        status: Option<String>,
    },
    /// Show an evidence record (`ev-…`, with its text) or a request (`hr-…`).
    Show {
        /// `ev-…` or `hr-…`.
        id: String,
    },
    /// Answer an open request with evidence a person obtained.
    Submit {
        /// The request (`hr-…`).
        request_id: String,
        /// Pasted text (HTML is extracted); `-` reads standard input. With
        /// `--file IMAGE`, the transcription of the screenshot.
        #[arg(long)]
        text: Option<String>,
        /// A file: PDF, HTML, plain text, or a PNG/JPEG/WebP screenshot.
        #[arg(long, conflicts_with = "url")]
        file: Option<PathBuf>,
        /// A URL to fetch through the network layer (SSRF guard, robots.txt, caps).
        #[arg(long, conflicts_with = "text")]
        url: Option<String>,
        /// Where the content came from (default: the request's first blocked URL).
        #[arg(long, value_name = "URL")]
        source_url: Option<String>,
        /// A title for the evidence (default: the document's own, or the file name).
        #[arg(long)]
        title: Option<String>,
    },
}

pub async fn run(args: Args) -> CliResult {
    closing_store(async |opened| run_command(args, opened).await).await
}

async fn run_command(args: Args, opened: &mut Option<Store>) -> CliResult {
    let policy = args.common.load_policy()?;
    let json = args.common.json;
    match args.command {
        EvidenceCommand::Requests { status } => {
            let status = status
                .map(|s| s.parse::<RequestStatus>())
                .transpose()
                .map_err(|e| CliError::Usage(e.to_string()))?;
            let store = &*opened.insert(args.common.open(&policy).await?);
            let requests = store.list_requests(status).await.map_err(CliError::from)?;
            if json {
                print_json(&requests)?;
            } else if requests.is_empty() {
                println!("no human evidence requests");
            } else {
                for r in &requests {
                    println!(
                        "{}  {:<9}  {}  {:?}  {} blocked URL(s)",
                        r.id,
                        r.status.as_str(),
                        r.created_at,
                        r.query,
                        r.blocked.len()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        EvidenceCommand::Show { id } => {
            let store = &*opened.insert(args.common.open(&policy).await?);
            if id.starts_with("hr-") {
                let r = store
                    .get_request(&id)
                    .await
                    .map_err(CliError::from)?
                    .ok_or_else(|| CliError::Operational(format!("request `{id}` not found")))?;
                if json {
                    print_json(&r)?;
                } else {
                    print!("{}", render_request(&r));
                }
            } else if id.starts_with("ev-") {
                let e = store
                    .get_evidence(&id)
                    .await
                    .map_err(CliError::from)?
                    .ok_or_else(|| CliError::Operational(format!("evidence `{id}` not found")))?;
                let shots = store.screenshots(&id).await.map_err(CliError::from)?;
                if json {
                    print_json(&serde_json::json!({"evidence": e, "screenshots": shots}))?;
                } else {
                    println!("{}  {}", e.id, e.tier);
                    println!("title      {}", e.evidence.title);
                    println!("url        {}", e.evidence.url);
                    println!("key        {}", e.key);
                    println!(
                        "extracted  {} ({})",
                        e.extracted_at, e.evidence.extraction_method
                    );
                    if let Some(c) = e.confidence {
                        println!("confidence {c:.3}");
                    }
                    for s in &shots {
                        println!("screenshot {} {} ({} bytes)", s.id, s.mime, s.bytes.len());
                    }
                    println!("\n{}", e.evidence.text);
                }
            } else {
                return Err(CliError::Usage(format!(
                    "`{id}` is neither an evidence id (ev-…) nor a request id (hr-…)"
                )));
            }
            Ok(ExitCode::SUCCESS)
        }
        EvidenceCommand::Submit {
            request_id,
            text,
            file,
            url,
            source_url,
            title,
        } => {
            if text.is_none() && file.is_none() && url.is_none() {
                return Err(CliError::Usage(
                    "sgw evidence submit needs --text, --file or --url".into(),
                ));
            }
            let source_url = source_url
                .map(|u| ingest::http_url(&u, "--source-url"))
                .transpose()
                .map_err(CliError::from)?;
            let store = &*opened.insert(args.common.open(&policy).await?);
            // The request must exist and be open before anything is read.
            let request = store
                .get_request(&request_id)
                .await
                .map_err(CliError::from)?
                .ok_or_else(|| {
                    CliError::Operational(format!("request `{request_id}` not found"))
                })?;
            if request.status != RequestStatus::Open {
                return Err(CliError::Operational(format!(
                    "request `{request_id}` is {}, not open",
                    request.status
                )));
            }
            let text = match text.as_deref() {
                Some("-") => Some(read_stdin()?),
                Some(t) => Some(t.to_string()),
                None => None,
            };
            let input = match (file, url) {
                (Some(path), _) => Input::File(path),
                (None, Some(u)) => {
                    Input::Url(ingest::http_url(&u, "--url").map_err(CliError::from)?)
                }
                (None, None) => Input::Text(text.clone().unwrap_or_default()),
            };
            let mut options = ingest::Options::new(request.query.clone());
            options.title = title;
            options.placeholder_url = Url::parse(&format!("urn:sgw:submission:{}", request.id))
                .unwrap_or(options.placeholder_url);
            // A fetched URL is its own source unless --source-url says otherwise; pasted
            // text and files came from the request's first blocked URL by default.
            options.source_url = match &input {
                Input::Url(_) => source_url,
                _ => source_url.or_else(|| {
                    request
                        .blocked
                        .first()
                        .and_then(|b| Url::parse(&b.url).ok())
                }),
            };
            if matches!(input, Input::File(_)) {
                options.transcription = text;
            }
            let submission = search_gateway::evidence::ingest_evidence(&policy, &input, &options)
                .await
                .map_err(CliError::from)?;
            let evidence = submission.evidence.clone();
            let resolved = search_gateway::evidence::resolve_with_evidence(
                &policy,
                store,
                &request_id,
                submission,
                jiff::Timestamp::now(),
            )
            .await
            .map_err(CliError::from)?;
            let evidence_id = resolved.evidence_id.clone().unwrap_or_default();
            if json {
                print_json(&serde_json::json!({
                    "request_id": resolved.id,
                    "status": resolved.status,
                    "evidence_id": evidence_id,
                    "tier": "USER_SUPPLIED_EVIDENCE",
                    "extraction_method": evidence.extraction_method,
                    "url": evidence.url,
                    "title": evidence.title,
                    "text_bytes": evidence.text.len(),
                    "key": resolved.key,
                }))?;
            } else {
                println!(
                    "resolved {} with {evidence_id} (USER_SUPPLIED_EVIDENCE, {}, {} bytes of text)",
                    resolved.id,
                    evidence.extraction_method,
                    evidence.text.len()
                );
                println!(
                    "the next `sgw search {:?}` with the same topic/scope/date answers from the cache",
                    resolved.query
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn render_request(r: &HumanRequest) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{}  {}", r.id, r.status);
    let _ = writeln!(out, "query    {}", r.query);
    let _ = writeln!(out, "key      {}", r.key);
    let _ = writeln!(out, "created  {}", r.created_at);
    if let Some(t) = r.resolved_at {
        let _ = writeln!(out, "closed   {t}");
    }
    if let Some(e) = &r.evidence_id {
        let _ = writeln!(out, "evidence {e}  (sgw evidence show {e})");
    }
    if r.blocked.is_empty() {
        let _ = writeln!(
            out,
            "\nNeeded: any source that answers the query; submit it with `sgw evidence submit {}`",
            r.id
        );
    } else {
        let _ = writeln!(out, "\nBlocked URLs");
        for b in &r.blocked {
            let needed = sgw_provider_human_intake::needed_with_id(&b.needed, &r.id);
            let _ = writeln!(out, "  [{}] {}\n      {needed}", b.gate, b.url);
        }
        if r.status == RequestStatus::Open {
            let _ = writeln!(
                out,
                "\nSubmit with: sgw evidence submit {} (--file PATH | --url URL | --text TEXT)",
                r.id
            );
        }
    }
    let _ = writeln!(out, "\nWhat was tried");
    for a in &r.attempts {
        let code = a
            .failure_code
            .map(|c| c.to_string())
            .unwrap_or_else(|| format!("{:?}", a.outcome).to_lowercase());
        let _ = writeln!(
            out,
            "  {:<30} {:<22} {} → {code}",
            a.step,
            a.provider,
            a.target.as_deref().unwrap_or("-")
        );
    }
    out
}

fn read_stdin() -> Result<String, CliError> {
    let buf = ingest::read_stdin(MAX_SUBMIT_BYTES).map_err(CliError::from)?;
    String::from_utf8(buf)
        .map_err(|e| CliError::Usage(format!("standard input: not UTF-8 text: {e}")))
}
