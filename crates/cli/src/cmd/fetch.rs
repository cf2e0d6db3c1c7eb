//! `sgw fetch URL`: one fetch through the network layer (`sgw-fetch`), with
//! its diagnosis: status, classification (failure code or OK), timing,
//! charset, final URL, redirects and the first lines of text.
//!
//! With `--policy FILE` the policy is loaded and validated like every other
//! command and its `network:` section is the fetcher's configuration; without
//! it the defaults apply (`search_gateway::fetcher_at`).

use crate::exit::{CliError, CliResult};
use sgw_contract::HttpValidators;
use sgw_fetch::Url;
use sgw_fetch::{FetchError, FetchRequest, FetchResponse};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The URL to fetch (http or https).
    pub url: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Policy file whose `network:` section configures the fetch (user agent,
    /// limits, allow lists, `resolve:` overrides).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Fetch as an API the operator configured (robots.txt not consulted, no
    /// page rules such as login-wall or JS-shell detection).
    #[arg(long)]
    pub api: bool,
    /// Conditional request: `If-None-Match` value (an ETag).
    #[arg(long, value_name = "ETAG")]
    pub if_none_match: Option<String>,
    /// Conditional request: `If-Modified-Since` value (an HTTP date).
    #[arg(long, value_name = "DATE")]
    pub if_modified_since: Option<String>,
    /// How many non-empty lines of text to print.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub lines: usize,
}

fn head_lines(text: &str, n: usize) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(n)
        .map(|l| {
            let mut s: String = l.chars().take(200).collect();
            if l.chars().count() > 200 {
                s.push('…');
            }
            s
        })
        .collect()
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

pub async fn run(args: Args) -> CliResult {
    let url = Url::parse(&args.url)
        .map_err(|e| CliError::Usage(format!("`{}` is not a URL: {e}", args.url)))?;
    let fetcher = search_gateway::fetcher_at(args.policy.as_deref())?;
    let validators = HttpValidators {
        etag: args.if_none_match.clone(),
        last_modified: args.if_modified_since.clone(),
    };
    let mut req = if args.api {
        FetchRequest::api(url)
    } else {
        FetchRequest::page(url)
    };
    if !validators.is_empty() {
        req = req.with_validators(validators);
    }
    match fetcher.fetch(&req).await {
        Ok(resp) => {
            if args.json {
                println!("{}", ok_json(&resp, args.lines));
            } else {
                print_ok(&resp, args.lines);
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            if args.json {
                println!("{}", err_json(&err));
            } else {
                print_err(&err);
            }
            Ok(ExitCode::from(2))
        }
    }
}

fn ok_json(r: &FetchResponse, lines: usize) -> serde_json::Value {
    serde_json::json!({
        "url": r.url.as_str(),
        "ok": true,
        "classification": "OK",
        "status": r.status,
        "not_modified": r.not_modified,
        "elapsed_ms": ms(r.elapsed),
        "attempts": r.attempts,
        "content_type": r.content_type,
        "content_type_sniffed": r.content_type_sniffed,
        "charset": r.charset,
        "bytes": r.body.len(),
        "final_url": r.final_url.as_str(),
        "redirects": r.redirects.iter().map(Url::as_str).collect::<Vec<_>>(),
        "validators": r.validators,
        "headers": r.headers_of_interest,
        "text_head": head_lines(r.text(), lines),
    })
}

fn err_json(e: &FetchError) -> serde_json::Value {
    serde_json::json!({
        "url": e.url.as_str(),
        "ok": false,
        "classification": e.code.as_str(),
        "temporary": e.is_temporary(),
        "status": e.http_status,
        "message": e.message,
        "retry_after_secs": e.retry_after.map(|d| d.as_secs()),
        "elapsed_ms": ms(e.elapsed),
        "attempts": e.attempts,
        "headers": e.headers_of_interest,
    })
}

/// `println!` for human output: terminal-safe, since the URL, headers,
/// message and text all come from the website.
macro_rules! say {
    ($($t:tt)*) => {
        println!("{}", sgw_safeio::terminal_safe(&format!($($t)*)))
    };
}

fn print_ok(r: &FetchResponse, lines: usize) {
    say!("URL            {}", r.url);
    say!("Classification OK");
    say!(
        "Status         {}{}",
        r.status,
        if r.not_modified {
            " (not modified)"
        } else {
            ""
        }
    );
    say!(
        "Time           {} ms ({} attempt{})",
        ms(r.elapsed),
        r.attempts,
        if r.attempts == 1 { "" } else { "s" }
    );
    say!(
        "Content-Type   {}{}",
        r.content_type,
        if r.content_type_sniffed {
            " (sniffed)"
        } else {
            ""
        }
    );
    say!("Charset        {}", r.charset.as_deref().unwrap_or("-"));
    say!("Bytes          {}", r.body.len());
    say!("Final URL      {}", r.final_url);
    if r.redirects.is_empty() {
        say!("Redirects      none");
    } else {
        say!("Redirects      {}", r.redirects.len());
        for u in &r.redirects {
            say!("  → {u}");
        }
    }
    if let Some(etag) = &r.validators.etag {
        say!("ETag           {etag}");
    }
    if let Some(lm) = &r.validators.last_modified {
        say!("Last-Modified  {lm}");
    }
    let head = head_lines(r.text(), lines);
    if !head.is_empty() {
        say!("--- text (first {} lines) ---", head.len());
        for l in head {
            say!("{l}");
        }
    }
}

fn print_err(e: &FetchError) {
    say!("URL            {}", e.url);
    say!("Classification {}", e.code);
    say!(
        "Status         {}",
        e.http_status
            .map_or_else(|| "-".to_string(), |s| s.to_string())
    );
    say!("Message        {}", e.message);
    say!(
        "Time           {} ms ({} attempt{})",
        ms(e.elapsed),
        e.attempts,
        if e.attempts == 1 { "" } else { "s" }
    );
    say!(
        "Temporary      {}",
        if e.is_temporary() {
            "yes (retrying later may help)"
        } else {
            "no"
        }
    );
    if let Some(ra) = e.retry_after {
        say!("Retry-After    {} s", ra.as_secs());
    }
    for (k, v) in &e.headers_of_interest {
        say!("  {k}: {v}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_lines_skips_blanks_and_shortens() {
        let long = "x".repeat(300);
        let text = format!("\n  first  \n\n{long}\nthird\nfourth");
        let h = head_lines(&text, 3);
        assert_eq!(h.len(), 3);
        assert_eq!(h[0], "first");
        assert_eq!(h[1].chars().count(), 201);
        assert_eq!(h[2], "third");
    }
}
