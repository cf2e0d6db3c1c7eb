//! `sgw extract PATH|-`: run the extractor on a local file and print what it
//! found. Reading, extracting and the JSON view are `sgw_extract::extract_input`'s.

use crate::exit::{CliError, CliResult};
use sgw_extract::{Extracted, Input, InputOptions};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Extract main text, metadata and (with `--query`) ranked passages from a local
/// HTML page, feed, PDF or text file (gzip accepted).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// File to read, or `-` for standard input.
    pub path: PathBuf,
    /// URL the document came from (resolves relative canonical links).
    #[arg(long)]
    pub url: Option<String>,
    /// Content type, if known (e.g. `text/html; charset=iso-8859-1`); sniffed otherwise.
    #[arg(long)]
    pub content_type: Option<String>,
    /// Rank passages against this query.
    #[arg(long, short)]
    pub query: Option<String>,
    /// How many passages to print.
    #[arg(long, default_value_t = 5)]
    pub max_passages: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub async fn run(args: Args) -> CliResult {
    let url = match &args.url {
        Some(u) => Some(
            sgw_extract::Url::parse(u)
                .map_err(|e| CliError::Usage(format!("--url {u:?} is not a URL: {e}")))?,
        ),
        None => None,
    };
    let input = if args.path.as_os_str() == "-" {
        Input::Reader(Box::new(std::io::stdin()))
    } else {
        Input::File(args.path.clone())
    };
    let options = InputOptions {
        content_type: args.content_type.clone(),
        url,
        query: args.query.clone(),
        max_passages: args.max_passages,
    };
    let extracted =
        tokio::task::spawn_blocking(move || sgw_extract::extract_input(input, &options))
            .await
            .map_err(|e| CliError::Io(format!("extractor task failed: {e}")))??;
    if args.json {
        let mut out = serde_json::to_string_pretty(&extracted)
            .map_err(|e| CliError::Io(format!("cannot encode JSON: {e}")))?;
        out.push('\n');
        return emit(&out, false);
    }
    let Extracted {
        document: doc,
        passages,
    } = extracted;
    let m = &doc.metadata;
    let mut out = String::new();
    let mut show = |k: &str, v: Option<&str>| {
        if let Some(v) = v {
            let _ = writeln!(out, "{k:<14}{v}");
        }
    };
    show("kind:", Some(&format!("{:?}", doc.kind).to_lowercase()));
    show("title:", m.title.as_deref());
    show("publisher:", m.publisher.as_deref());
    if !m.authors.is_empty() {
        show("authors:", Some(&m.authors.join("; ")));
    }
    show("published:", m.published_at.as_deref());
    show("modified:", m.modified_at.as_deref());
    show("language:", m.language.as_deref());
    show("canonical:", m.canonical_url.as_deref());
    show("encoding:", Some(&doc.encoding));
    if !doc.entries.is_empty() {
        show("entries:", Some(&doc.entries.len().to_string()));
    }
    let _ = writeln!(out, "\n{}", doc.text);
    if !passages.is_empty() {
        let q = args.query.as_deref().unwrap_or("");
        let _ = writeln!(out, "\n--- passages for {q:?} ---");
        for p in &passages {
            let _ = writeln!(
                out,
                "[{}] score {:.3} bytes {}..{}\n{}\n",
                p.index, p.score, p.start, p.end, p.text
            );
        }
    }
    emit(&out, true)
}

/// Writes to stdout; a closed pipe (`| head`) is not an error. Human text is
/// made terminal-safe first (JSON already escapes control characters).
fn emit(out: &str, human: bool) -> CliResult {
    let out = if human {
        sgw_safeio::terminal_safe(out)
    } else {
        out.into()
    };
    match std::io::stdout().lock().write_all(out.as_bytes()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(CliError::Io(format!(
            "cannot write to standard output: {e}"
        ))),
    }
}
