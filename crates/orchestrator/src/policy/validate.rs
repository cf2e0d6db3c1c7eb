//! Semantic checks that serde cannot express.

use super::{CACHE_KEY_FIELDS, Policy};
use std::collections::BTreeSet;
use std::fmt;

/// Something legal but probably not intended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub path: String,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// The longest suspension a policy may set (30 days): longer values would
/// overflow the clock arithmetic of the suspension ledger, and no engine needs
/// more.
pub const MAX_SUSPENSION_SECS: u64 = 30 * 86_400;
/// The longest deadline or timeout a policy may set (one day).
pub const MAX_DEADLINE_MS: u64 = 86_400_000;

/// `network:` checked by the network layer itself: its schema (unknown keys,
/// types, CIDR and IP syntax) and its value ranges, with `network.` paths.
fn network(policy: &Policy, err: &mut impl FnMut(String, String)) {
    let Some(value) = &policy.network else {
        return;
    };
    match serde_path_to_error::deserialize::<_, sgw_fetch::FetchConfig>(value) {
        Err(e) => {
            let path = e.path().to_string();
            let path = if path == "." {
                "network".to_string()
            } else {
                format!("network.{path}")
            };
            err(path, e.into_inner().to_string());
        }
        Ok(cfg) => {
            if let Err(sgw_fetch::ConfigError::Invalid { field, message }) = cfg.validate() {
                err(format!("network.{field}"), message);
            }
        }
    }
}

/// `store.url`: a file path, `sqlite:…`, `postgres://…` or `postgresql://…`
/// (what the evidence store opens), checked here so `sgw policy check`
/// refuses what would fail at run time.
fn store_url(url: &str, err: &mut impl FnMut(String, String)) {
    const SUPPORTED: &str = "a file path, sqlite:PATH, postgres://… or postgresql://…";
    if url.trim().is_empty() {
        err(
            "store.url".into(),
            format!("must not be empty (use {SUPPORTED})"),
        );
        return;
    }
    if let Some((scheme, _)) = url.split_once("://")
        && !["sqlite", "postgres", "postgresql"].contains(&scheme.to_ascii_lowercase().as_str())
    {
        err(
            "store.url".into(),
            format!("unsupported scheme `{scheme}` (supported: {SUPPORTED})"),
        );
    }
}

fn unit(x: f64) -> bool {
    x.is_finite() && (0.0..=1.0).contains(&x)
}

pub(super) fn validate(
    policy: &Policy,
    kinds: &[&str],
) -> Result<Vec<Warning>, Vec<(String, String)>> {
    let mut errors: Vec<(String, String)> = Vec::new();
    let mut warnings = Vec::new();
    let mut err = |path: String, message: String| errors.push((path, message));

    if policy.version != 1 {
        err(
            "version".into(),
            format!(
                "unsupported version {} (this gateway reads version 1)",
                policy.version
            ),
        );
    }
    for (tier, p) in &policy.source_priority {
        if !unit(p.confidence_base) {
            err(
                format!("source_priority.{tier}.confidence_base"),
                format!("{} is outside 0..1", p.confidence_base),
            );
        }
    }
    let mut seen = BTreeSet::new();
    for (i, step) in policy.fallback_chain.iter().enumerate() {
        if !seen.insert(*step) {
            err(
                format!("fallback_chain[{i}]"),
                format!("`{step}` appears twice"),
            );
        }
    }
    if let Some(contract) = &policy.result_contract {
        for (i, f) in contract.required_fields.iter().enumerate() {
            if !sgw_contract::SearchResult::CONTRACT_FIELDS.contains(&f.as_str()) {
                err(
                    format!("result_contract.required_fields[{i}]"),
                    format!(
                        "unknown result field `{f}` (known: {})",
                        sgw_contract::SearchResult::CONTRACT_FIELDS.join(", ")
                    ),
                );
            }
        }
        for level in contract.confidence_levels.keys() {
            if !["high", "medium", "low"].contains(&level.as_str()) {
                err(
                    format!("result_contract.confidence_levels.{level}"),
                    "levels are high, medium and low".into(),
                );
            }
        }
    }
    let t = policy.confidence_thresholds;
    if !unit(t.high) || !unit(t.medium) {
        err(
            "confidence_thresholds".into(),
            "thresholds must be within 0..1".into(),
        );
    } else if t.medium >= t.high {
        err(
            "confidence_thresholds.medium".into(),
            format!(
                "levels are not monotonic: medium ({}) must be below high ({})",
                t.medium, t.high
            ),
        );
    }
    let keys: BTreeSet<&str> = policy
        .cache_policy
        .cache_key_fields
        .iter()
        .map(String::as_str)
        .collect();
    if keys != CACHE_KEY_FIELDS.into_iter().collect() {
        err(
            "cache_policy.cache_key_fields".into(),
            format!("the cache key is exactly {}", CACHE_KEY_FIELDS.join(", ")),
        );
    }
    for (topic, days) in &policy.cache_policy.stale_after_days_by_topic {
        if *days == 0 {
            err(
                format!("cache_policy.stale_after_days_by_topic.{topic}"),
                "must be at least 1 day".into(),
            );
        }
    }

    let mut names = BTreeSet::new();
    for (step, specs) in &policy.providers {
        if !policy.fallback_chain.contains(step) {
            err(
                format!("providers.{step}"),
                format!("`{step}` is not in fallback_chain, so these providers would never run"),
            );
        }
        for (i, spec) in specs.iter().enumerate() {
            let path = format!("providers.{step}[{i}]");
            if !kinds.contains(&spec.kind.as_str()) {
                let known = if kinds.is_empty() {
                    "none are linked into this build".to_string()
                } else {
                    kinds.join(", ")
                };
                err(
                    format!("{path}.kind"),
                    format!(
                        "unknown provider kind `{}` (registered kinds: {known})",
                        spec.kind
                    ),
                );
            }
            if !names.insert(spec.instance_name().to_string()) {
                err(
                    format!("{path}.name"),
                    format!(
                        "provider name `{}` is used twice; give each a distinct `name`",
                        spec.instance_name()
                    ),
                );
            }
            if spec.timeout_ms == 0 {
                err(format!("{path}.timeout_ms"), "must be above 0".into());
            }
            if spec.timeout_ms > MAX_DEADLINE_MS {
                err(
                    format!("{path}.timeout_ms"),
                    format!(
                        "{} is over the {MAX_DEADLINE_MS} ms (one day) limit",
                        spec.timeout_ms
                    ),
                );
            }
            if let Some(rl) = spec.rate_limit
                && (rl.per_minute == 0 || rl.burst == 0)
            {
                err(
                    format!("{path}.rate_limit"),
                    "per_minute and burst must be above 0".into(),
                );
            }
        }
    }
    for step in &policy.fallback_chain {
        if policy.providers_for(*step).next().is_none() {
            warnings.push(Warning {
                path: format!("providers.{step}"),
                message: format!(
                    "no provider is bound to chain step `{step}`; the step will be skipped"
                ),
            });
        }
    }

    for (id, source) in &policy.sources {
        let path = format!("sources.{id}");
        if source.publisher.trim().is_empty() {
            err(format!("{path}.publisher"), "must not be empty".into());
        }
        for (i, d) in source.domains.iter().enumerate() {
            if d.is_empty() || d.contains('/') || d.contains(':') || d.contains(' ') {
                err(
                    format!("{path}.domains[{i}]"),
                    format!("`{d}` is not a bare domain name"),
                );
            }
        }
        let urls = source
            .entry_urls
            .iter()
            .chain(&source.feed_urls)
            .chain(&source.search_url)
            .chain(&source.opensearch_url)
            .chain(&source.sitemap_url);
        for u in urls {
            if url::Url::parse(&u.replace("{query}", "q")).is_err() {
                err(path.clone(), format!("`{u}` is not an absolute URL"));
            }
        }
    }
    for (i, rule) in policy.tiering.iter().enumerate() {
        match (&rule.domain, &rule.suffix) {
            (Some(_), None) | (None, Some(_)) => {}
            _ => err(
                format!("tiering[{i}]"),
                "give exactly one of `domain` or `suffix`".into(),
            ),
        }
    }
    for (i, rule) in policy.topics.iter().enumerate() {
        if rule.keywords.is_empty() && rule.patterns.is_empty() {
            err(
                format!("topics[{i}]"),
                "a topic rule needs `keywords` or `patterns`".into(),
            );
        }
        for (j, p) in rule.patterns.iter().enumerate() {
            if let Err(e) = regex::RegexBuilder::new(p).size_limit(1 << 20).build() {
                err(
                    format!("topics[{i}].patterns[{j}]"),
                    format!("bad regular expression: {e}"),
                );
            }
        }
    }
    let b = policy.suspension.timeout_backoff;
    if b.initial_secs == 0 || b.max_secs < b.initial_secs {
        err(
            "suspension.timeout_backoff".into(),
            "need 0 < initial_secs <= max_secs".into(),
        );
    }
    if b.max_secs > MAX_SUSPENSION_SECS {
        err(
            "suspension.timeout_backoff.max_secs".into(),
            format!(
                "{} is over the {MAX_SUSPENSION_SECS} s (30 days) limit",
                b.max_secs
            ),
        );
    }
    for (code, secs) in &policy.suspension.durations_secs {
        if *secs > MAX_SUSPENSION_SECS {
            err(
                format!("suspension.durations_secs.{code}"),
                format!("{secs} is over the {MAX_SUSPENSION_SECS} s (30 days) limit"),
            );
        }
    }
    let e = &policy.execution;
    if e.deadline_ms == 0 {
        err("execution.deadline_ms".into(), "must be above 0".into());
    }
    if e.deadline_ms > MAX_DEADLINE_MS {
        err(
            "execution.deadline_ms".into(),
            format!(
                "{} is over the {MAX_DEADLINE_MS} ms (one day) limit",
                e.deadline_ms
            ),
        );
    }
    if e.hedge_after_ms.is_some_and(|h| h > MAX_DEADLINE_MS) {
        err(
            "execution.hedge_after_ms".into(),
            format!("is over the {MAX_DEADLINE_MS} ms (one day) limit"),
        );
    }
    if !unit(e.target_confidence) {
        err(
            "execution.target_confidence".into(),
            format!("{} is outside 0..1", e.target_confidence),
        );
    }
    if !unit(e.relevance_threshold) {
        err(
            "execution.relevance_threshold".into(),
            format!("{} is outside 0..1", e.relevance_threshold),
        );
    }
    if e.max_sources == 0 {
        err("execution.max_sources".into(), "must be above 0".into());
    }
    if e.accept_after_ms.is_some_and(|a| a > MAX_DEADLINE_MS) {
        err(
            "execution.accept_after_ms".into(),
            format!("is over the {MAX_DEADLINE_MS} ms (one day) limit"),
        );
    }
    if e.hedge_after_ms == Some(0) {
        err(
            "execution.hedge_after_ms".into(),
            "must be above 0 (leave it out to turn hedging off)".into(),
        );
    }
    network(policy, &mut err);
    if let Some(store) = &policy.store {
        store_url(&store.url, &mut err);
    }
    if errors.is_empty() {
        Ok(warnings)
    } else {
        Err(errors)
    }
}
