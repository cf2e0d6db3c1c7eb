//! `web-archive`: the closest archived snapshot of each original URL.

use crate::config::WebArchiveConfig;
use crate::originals::originals;
use crate::wayback::parse_availability;
use sgw_contract::{
    Attempt, FailureCode, Provider, ProviderCall, ProviderError, ProviderReport, SourceTier,
};
use sgw_provider_common::sgw_fetch::{FetchRequest, Fetcher};
use sgw_provider_common::{PageTarget, attempt_empty, provider_error, read_target};
use std::sync::Arc;
use std::time::Instant;

/// The `web-archive` provider.
#[derive(Debug, Clone)]
pub struct WebArchiveProvider {
    pub(crate) cfg: WebArchiveConfig,
    pub(crate) fetcher: Arc<Fetcher>,
}

/// The tier hint of an archived copy: an official primary page archived by a
/// third party is an official secondary copy; other tiers are kept.
pub fn archived_tier(original: Option<SourceTier>) -> Option<SourceTier> {
    original.map(|t| match t {
        SourceTier::OfficialPrimary => SourceTier::OfficialSecondary,
        other => other,
    })
}

#[async_trait::async_trait]
impl Provider for WebArchiveProvider {
    async fn run(&self, call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
        let mut report = ProviderReport::default();
        let (targets, notes) = originals(call, self.cfg.include_hints, self.cfg.max_urls);
        report.notes = notes;
        if targets.is_empty() {
            report.attempts.push(attempt_empty(
                call,
                "web-archive",
                "no planned source entry URL or hint URL to look up",
            ));
            return Ok(report);
        }
        for original in targets {
            let lookup = match self.cfg.lookup_url(&original.url) {
                Ok(mut u) => {
                    if let Some(d) = call.request.as_of {
                        u.query_pairs_mut()
                            .append_pair("timestamp", &d.strftime("%Y%m%d").to_string());
                    }
                    u
                }
                Err(e) => {
                    report.attempts.push(
                        Attempt::failed(
                            call.step,
                            call.provider,
                            FailureCode::SearchProviderMisconfigured,
                        )
                        .with_target(original.url.as_str())
                        .with_detail(format!("availability URL: {e}")),
                    );
                    continue;
                }
            };
            let started = Instant::now();
            let req = FetchRequest::api(lookup.clone()).with_deadline(call.deadline);
            let resp = match self.fetcher.fetch(&req).await {
                Ok(r) => r,
                Err(e) => {
                    // The archive itself failing is the provider failing:
                    // stop; suspend it unless something was already found.
                    tracing::warn!(provider = call.provider, code = %e.code, "availability API failed");
                    if report.evidence.is_empty() {
                        return Err(provider_error(call, &e, report.attempts));
                    }
                    report
                        .attempts
                        .push(sgw_provider_common::fetch_failure(call, &e));
                    break;
                }
            };
            let snapshot = match parse_availability(resp.text()) {
                Ok(s) => s,
                Err(e) => {
                    let message = format!("web-archive: the availability answer of {lookup}: {e}");
                    let attempt = Attempt::failed(
                        call.step,
                        call.provider,
                        FailureCode::SourceExtractionFailed,
                    )
                    .with_target(lookup.as_str())
                    .with_status(Some(resp.status))
                    .with_elapsed_ms(
                        u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                    )
                    .with_detail(message.clone());
                    if report.evidence.is_empty() {
                        report.attempts.push(attempt);
                        return Err(ProviderError {
                            http_status: Some(resp.status),
                            attempts: report.attempts,
                            ..ProviderError::new(FailureCode::SourceExtractionFailed, message)
                        });
                    }
                    report.attempts.push(attempt);
                    break;
                }
            };
            let Some(snapshot) = snapshot else {
                report.attempts.push(attempt_empty(
                    call,
                    original.url.as_str(),
                    "no archived snapshot",
                ));
                continue;
            };
            let target = PageTarget {
                url: snapshot.url.clone(),
                tier_hint: archived_tier(original.tier),
                publisher: original.publisher.clone(),
            };
            match read_target(&self.fetcher, &target, call).await {
                Ok((mut ev, attempt)) => {
                    ev.metadata.snapshot_at = snapshot.snapshot_at.clone();
                    // What the copy archives: the original page.
                    ev.metadata.canonical_url = Some(original.url.to_string());
                    if snapshot.snapshot_at.is_none() {
                        report.notes.push(format!(
                            "snapshot {} has an unreadable timestamp `{}`",
                            snapshot.url, snapshot.timestamp
                        ));
                    }
                    report.evidence.push(ev);
                    report.attempts.push(attempt);
                }
                Err(attempt) => report.attempts.push(attempt),
            }
            if report.evidence.len() >= call.max_sources.max(1) {
                break;
            }
        }
        Ok(report)
    }
}
