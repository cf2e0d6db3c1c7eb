//! The original URLs both kinds start from: the planned sources' entry URLs
//! (best-fit source first) and the request's hint URLs.

use sgw_contract::{ProviderCall, SourceTier};
use sgw_provider_common::{expand_url, parse_http_url, source_for};
use url::Url;

/// One original URL and what the registry says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Original {
    pub url: Url,
    /// The owning planned source's tier, when one owns it.
    pub tier: Option<SourceTier>,
    pub publisher: Option<String>,
}

/// Up to `max` distinct originals; unusable templates are returned as notes.
pub fn originals(
    call: &ProviderCall<'_>,
    include_hints: bool,
    max: usize,
) -> (Vec<Original>, Vec<String>) {
    let mut out: Vec<Original> = Vec::new();
    let mut notes = Vec::new();
    let push = |o: Original, out: &mut Vec<Original>| {
        if out.len() < max && !out.iter().any(|x| x.url == o.url) {
            out.push(o);
        }
    };
    for s in call.sources {
        for entry in &s.entry_urls {
            match expand_url(entry, &call.request.query) {
                Ok(url) => push(
                    Original {
                        url,
                        tier: Some(s.tier),
                        publisher: Some(s.publisher.clone()),
                    },
                    &mut out,
                ),
                Err(e) => notes.push(format!("source `{}`: {e}", s.id)),
            }
        }
    }
    if include_hints {
        for h in &call.request.hints.urls {
            match parse_http_url(h) {
                Ok(url) => {
                    let owner = source_for(&url, call.sources);
                    push(
                        Original {
                            tier: owner.map(|s| s.tier),
                            publisher: owner.map(|s| s.publisher.clone()),
                            url,
                        },
                        &mut out,
                    );
                }
                Err(e) => notes.push(format!("hint URL `{h}`: {e}")),
            }
        }
    }
    (out, notes)
}
