#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod analyzer;
#[cfg(feature = "human-intake")]
pub mod evidence;
mod features;

pub use features::feature_of;
use features::{FEATURE_KINDS, provider_feature};

pub use analyzer::ExtractAnalyzer;
pub use sgw_contract::{
    Answer, Attempt, AttemptOutcome, CacheKey, ConfidenceLevel, Evidence, EvidenceSource,
    FailureCode, FieldKind, FieldSpec, ProviderFactory, SearchRequest, SearchResult, SourceTier,
};
pub use sgw_contract::{DuplicateKind, Registry};
pub use sgw_fetch::{FetchConfig, Fetcher};
use sgw_orchestrator::policy::PolicyError;
pub use sgw_orchestrator::{
    BuildError, ChainStep, Gateway, GatewayBuilder, Policy, PolicyErrors, SearchError, Warning,
};
pub use sgw_store::Store;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::task::Poll;

/// The kinds a gateway of this binary can build: the linked ones plus
/// `extra`. An error names both crates of a kind registered twice.
pub fn registry(extra: &[ProviderFactory]) -> Result<Registry, DuplicateKind> {
    let mut registry = Registry::linked()?;
    for factory in extra {
        registry.add(*factory)?;
    }
    Ok(registry)
}

fn policy_error(file: &str, path: Option<String>, message: String) -> PolicyError {
    PolicyError {
        file: Some(file.to_string()),
        path,
        line: None,
        message,
    }
}

/// The registry, and every kind a policy may name in this build: the
/// registered ones and those of this crate's disabled features (refused
/// afterwards by [`refuse_unlinked`] with the feature that provides them).
fn kinds_for(
    file: &str,
    extra: &[ProviderFactory],
) -> Result<(Registry, Vec<&'static str>), PolicyErrors> {
    let registry = registry(extra).map_err(|e| {
        PolicyErrors(vec![policy_error(
            file,
            Some("providers".into()),
            e.to_string(),
        )])
    })?;
    let mut known = registry.kinds();
    known.extend(FEATURE_KINDS.iter().flat_map(|f| f.kinds.iter().copied()));
    known.sort_unstable();
    known.dedup();
    Ok((registry, known))
}

/// Provider entries whose kind this build lacks, with the Cargo feature
/// that provides it.
fn refuse_unlinked(policy: &Policy, file: &str, registry: &Registry) -> Result<(), PolicyErrors> {
    let mut errors = Vec::new();
    for (step, specs) in &policy.providers {
        for (i, spec) in specs.iter().enumerate() {
            if registry.get(&spec.kind).is_some() {
                continue;
            }
            if let Some(f) = provider_feature(&spec.kind) {
                errors.push(policy_error(
                    file,
                    Some(format!("providers.{step}[{i}].kind")),
                    format!(
                        "provider kind `{}` is not in this build: it comes with the Cargo feature `{}` of search-gateway (crate {}), which this build was compiled without",
                        spec.kind, f.feature, f.krate
                    ),
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(PolicyErrors(errors))
    }
}

/// The default policy shipped with the gateway (`policies/default.yaml`, kept in this crate so it is packaged with it).
const DEFAULT_POLICY: &str = include_str!("../policies/default.yaml");

/// How [`open`] builds the gateway.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// Evidence store location (path, `sqlite:…`, `postgres://…`): overrides the policy's `store.url`.
    pub store: Option<String>,
    /// Keep nothing: no evidence store, no cache provider data.
    pub no_store: bool,
}

/// Why a gateway could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The policy file is invalid (usage error).
    #[error("{0}")]
    Policy(#[from] PolicyErrors),
    /// The `network:` section is invalid.
    #[error("{file}: network{}: {message}", key_suffix(path))]
    Network {
        /// The policy file.
        file: String,
        /// The key at fault inside `network:` (empty when the whole section is).
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// A provider could not be built from its entry.
    #[error("{file}: {error}")]
    Provider {
        /// The policy file.
        file: String,
        /// The provider entry at fault and why.
        error: BuildError,
    },
    /// The evidence store could not be opened (I/O).
    #[error("evidence store: {0}")]
    Store(#[from] sgw_store::StoreError),
}

/// `.key` after `network`, nothing when the whole section is at fault.
fn key_suffix(path: &str) -> String {
    if path.is_empty() || path == "." {
        String::new()
    } else {
        format!(".{path}")
    }
}

impl OpenError {
    /// True when the policy (the user's input) is at fault rather than the machine.
    pub fn is_usage(&self) -> bool {
        !matches!(self, OpenError::Store(_))
    }
}

/// Loads and validates a policy against the kinds linked into this binary.
/// A kind of a disabled feature is an error naming that feature; a kind
/// registered by two crates is an error naming both.
pub fn load_policy(path: &Path) -> Result<(Policy, Vec<Warning>), PolicyErrors> {
    load_policy_with(path, &[])
}

/// [`load_policy`], knowing the `extra` provider kinds too (those handed to
/// [`open_with_providers`] or [`GatewayBuilder::register`]).
pub fn load_policy_with(
    path: &Path,
    extra: &[ProviderFactory],
) -> Result<(Policy, Vec<Warning>), PolicyErrors> {
    let file = path.display().to_string();
    let (registry, known) = kinds_for(&file, extra)?;
    let loaded = Policy::load(path, &known)?;
    refuse_unlinked(&loaded.0, &file, &registry)?;
    Ok(loaded)
}

/// Reads a policy from `yaml` (named `file` in errors), validated like
/// [`load_policy`] against the kinds linked into this binary. A relative
/// `store.url` in it resolves against the current directory.
pub fn parse_policy(yaml: &[u8], file: &str) -> Result<(Policy, Vec<Warning>), PolicyErrors> {
    let (registry, known) = kinds_for(file, &[])?;
    let loaded = Policy::from_bytes(yaml, Some(file), &known)?;
    refuse_unlinked(&loaded.0, file, &registry)?;
    Ok(loaded)
}

/// The built-in default policy (`policies/default.yaml` of this crate). In a build without some provider
/// features, the entries of their kinds are left out, so the default policy
/// binds exactly the kinds this build has.
pub fn default_policy() -> Result<(Policy, Vec<Warning>), PolicyErrors> {
    let file = "policies/default.yaml";
    let (registry, known) = kinds_for(file, &[])?;
    let (mut policy, warnings) = Policy::from_bytes(DEFAULT_POLICY.as_bytes(), Some(file), &known)?;
    for specs in policy.providers.values_mut() {
        specs.retain(|spec| registry.get(&spec.kind).is_some());
    }
    policy.providers.retain(|_, specs| !specs.is_empty());
    Ok((policy, warnings))
}

/// The policy at `path` (e.g. `--policy`), else the built-in default.
pub fn load_policy_or_default(path: Option<&Path>) -> Result<(Policy, Vec<Warning>), PolicyErrors> {
    match path {
        Some(path) => load_policy(path),
        None => default_policy(),
    }
}

/// The cache key a gateway built from `policy` gives `request` (the
/// planner's topic rules decide its topic), without building a gateway.
pub fn cache_key(policy: &Policy, request: &SearchRequest) -> CacheKey {
    CacheKey::new(
        request,
        &sgw_orchestrator::Planner::new(policy).topic(request),
    )
}

/// The network layer a gateway built from `policy` uses: the policy's
/// `network:` section (the defaults without one). Hand it to
/// [`build_with_fetcher`] to share it, or fetch with it directly.
pub fn fetcher(policy: &Policy) -> Result<Fetcher, OpenError> {
    Fetcher::new(network_config(policy)?).map_err(|e| {
        let (path, message) = match e {
            sgw_fetch::ConfigError::Invalid { field, message } => (field.to_string(), message),
            e => (String::new(), e.to_string()),
        };
        OpenError::Network {
            file: policy_file(policy),
            path,
            message,
        }
    })
}

/// The network layer for the policy file at `path` (loaded and validated
/// like [`load_policy`]; its `network:` section), else the network layer's
/// defaults. Without a policy no site rules apply: not even the default
/// policy's `network:` section (a bare `sgw fetch`).
pub fn fetcher_at(path: Option<&Path>) -> Result<Fetcher, OpenError> {
    match path {
        Some(path) => fetcher(&load_policy(path)?.0),
        None => Fetcher::new(FetchConfig::default()).map_err(|e| OpenError::Network {
            file: "the network defaults".into(),
            path: String::new(),
            message: e.to_string(),
        }),
    }
}

/// The policy's `network:` section as the network layer's config.
fn network_config(policy: &Policy) -> Result<FetchConfig, OpenError> {
    match &policy.network {
        None => Ok(FetchConfig::default()),
        Some(value) => serde_path_to_error::deserialize(value).map_err(|e| OpenError::Network {
            file: policy_file(policy),
            path: e.path().to_string(),
            message: e.into_inner().to_string(),
        }),
    }
}

/// Where the evidence store lives: `options.store`, else the policy's
/// `store.url` (a relative path is resolved against the policy file's
/// directory), else `None` for the store's default location.
fn store_location(policy: &Policy, options: &OpenOptions) -> Option<String> {
    if let Some(s) = &options.store {
        return Some(s.clone());
    }
    let url = &policy.store.as_ref()?.url;
    if url.contains("://") || url.starts_with("sqlite:") || Path::new(url).is_absolute() {
        return Some(url.clone());
    }
    let dir = policy
        .origin
        .as_ref()
        .and_then(|p| p.parent())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    Some(dir.join(url).display().to_string())
}

/// The policy's cache staleness rules (days per topic type, and the default).
fn staleness_rules(policy: &Policy) -> sgw_store::StalenessRules {
    sgw_store::StalenessRules {
        by_topic: policy.cache_policy.stale_after_days_by_topic.clone(),
        default_days: policy.cache_policy.stale_after_days("default"),
    }
}

/// Opens the evidence store the gateway built from `policy` and `options`
/// uses (`options.store`, else the policy's `store.url` resolved against
/// the policy file's directory, else the store's default location), with the policy's staleness rules applied.
/// `Ok(None)` when `options.no_store` asks for no store at all. This is the
/// one place that decides where the store lives: [`build`], `sgw cache`,
/// `sgw evidence` and the `research` backend all open it here.
pub async fn open_store(
    policy: &Policy,
    options: &OpenOptions,
) -> Result<Option<Store>, OpenError> {
    if options.no_store {
        return Ok(None);
    }
    let store = match store_location(policy, options) {
        Some(location) => Store::open(&location).await?,
        None => Store::open_default().await?,
    };
    Ok(Some(store.with_staleness(staleness_rules(policy))))
}

/// The store `options` names, when it can be opened before the policy is
/// read: an SQLite file that already exists (opening it creates nothing, so
/// nothing is left behind when the policy turns out invalid).
/// Without `options.store`, the built-in default policy (`path` `None`)
/// names the store's default location; a policy file may name another in
/// `store.url`, known only once it is read.
fn early_store_location(options: &OpenOptions, path: Option<&Path>) -> Option<String> {
    if options.no_store {
        return None;
    }
    let location = match (&options.store, path) {
        (Some(location), _) => location.clone(),
        (None, None) => Store::default_location()
            .ok()?
            .to_string_lossy()
            .into_owned(),
        (None, Some(_)) => return None,
    };
    Store::is_existing_file(&location).then_some(location)
}

/// Builds a gateway from a loaded policy: network layer, evidence store,
/// extractor and every provider bound in the policy.
///
/// Nothing is built that a request does not need: the network layer's HTTP
/// clients, TLS roots and rate limiter wait for the first fetch (a search
/// answered from the cache never builds them).
pub async fn build(policy: Policy, options: OpenOptions) -> Result<Gateway, OpenError> {
    build_with_providers(policy, options, &[]).await
}

/// [`build`] with provider kinds besides the linked ones (`ProviderFactory::of::<MyConfig>("my-crate")`);
/// load the policy with [`load_policy_with`] so it knows them.
pub async fn build_with_providers(
    policy: Policy,
    options: OpenOptions,
    providers: &[ProviderFactory],
) -> Result<Gateway, OpenError> {
    let fetcher = fetcher(&policy)?;
    let store = open_store(&policy, &options).await?;
    assemble(policy, store, fetcher, providers)
}

/// [`build`] with a network layer of the caller's (e.g. to share one
/// between gateways, or to watch it: [`Fetcher::is_idle`]). The gateway
/// reports slow hosts to it and makes it refuse the hosts that rest.
pub async fn build_with_fetcher(
    policy: Policy,
    options: OpenOptions,
    fetcher: Fetcher,
) -> Result<Gateway, OpenError> {
    let store = open_store(&policy, &options).await?;
    assemble(policy, store, fetcher, &[])
}

fn policy_file(policy: &Policy) -> String {
    policy
        .origin
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "policy".into())
}

/// The gateway of `policy` over an opened (or no) store.
fn assemble(
    policy: Policy,
    store: Option<Store>,
    fetcher: Fetcher,
    providers: &[ProviderFactory],
) -> Result<Gateway, OpenError> {
    let file = policy_file(&policy);
    let mut services = sgw_contract::Services::new().with_fetcher(Arc::new(fetcher.clone()));
    let mut builder = GatewayBuilder::new(policy.clone());
    for factory in providers {
        builder = builder.register(*factory);
    }
    if let Some(store) = store {
        let store = Arc::new(store);
        services = services.with_store(store.clone());
        // The store keeps the evidence and the suspensions (so a CAPTCHA'd
        // engine also rests across separate runs and processes).
        builder = builder.sink(store.clone()).ledger(store);
    }
    let gateway = builder
        .services(services)
        .analyzer(Arc::new(ExtractAnalyzer))
        .build()
        .map_err(|error| OpenError::Provider { file, error })?;
    fetcher.set_host_health(gateway.host_health());
    Ok(gateway)
}

/// Loads the policy at `path` and builds the gateway.
pub async fn open(path: &Path, options: OpenOptions) -> Result<Gateway, OpenError> {
    open_with_providers(path, options, &[]).await
}

/// [`open`] with provider kinds besides the linked ones: the policy may bind
/// them, and the gateway builds them.
pub async fn open_with_providers(
    path: &Path,
    options: OpenOptions,
    providers: &[ProviderFactory],
) -> Result<Gateway, OpenError> {
    let (policy, fetcher, store) = policy_and_store(Some(path), &options, providers).await?;
    assemble(policy, store, fetcher, providers)
}

/// The gateway of the built-in default policy ([`default_policy`]), like
/// [`build`] of it, with the store opening while the policy is read.
pub async fn open_default(options: OpenOptions) -> Result<Gateway, OpenError> {
    let (policy, fetcher, store) = policy_and_store(None, &options, &[]).await?;
    assemble(policy, store, fetcher, &[])
}

/// The policy at `path` (the built-in default policy for `None`), its network layer and the store it and `options`
/// name. A new store file is created only once the policy and its
/// `network:` section are known to be valid. The store opens
/// while the policy is read when `options` names an existing store file: on
/// a cache hit these are the two largest costs of a process, and they need
/// each other only for the staleness rules, applied afterwards.
async fn policy_and_store(
    path: Option<&Path>,
    options: &OpenOptions,
    providers: &[ProviderFactory],
) -> Result<(Policy, Fetcher, Option<Store>), OpenError> {
    let load = || {
        let (policy, warnings) = match path {
            Some(path) => load_policy_with(path, providers)?,
            None => default_policy()?,
        };
        if let Some(path) = path {
            log_warnings(path, warnings);
        }
        Ok::<_, PolicyErrors>(policy)
    };
    let Some(location) = early_store_location(options, path) else {
        let policy = load()?;
        let fetcher = fetcher(&policy)?;
        let store = open_store(&policy, options).await?;
        return Ok((policy, fetcher, store));
    };
    // The store's first poll starts its opening on the connection's own
    // worker thread (the file, its WAL, the schema); the policy is read on
    // this thread meanwhile. A thread of the policy's own would cost its
    // start, its malloc arena and its join at the runtime's end, more than
    // the overlap it buys (measured on a cache hit of `sgw search`).
    let mut opening = std::pin::pin!(Store::open(&location));
    let early = std::future::poll_fn(|cx| Poll::Ready(opening.as_mut().poll(cx))).await;
    let loaded = load();
    let store = match early {
        Poll::Ready(store) => store,
        Poll::Pending => opening.await,
    };
    let checked = loaded.map_err(OpenError::from).and_then(|policy| {
        let fetcher = fetcher(&policy)?;
        Ok((policy, fetcher))
    });
    let (policy, fetcher) = match checked {
        Ok(checked) => checked,
        Err(e) => {
            if let Ok(store) = store {
                store.close().await;
            }
            return Err(e);
        }
    };
    let store = store?.with_staleness(staleness_rules(&policy));
    Ok((policy, fetcher, Some(store)))
}

/// A policy file's warnings go to the log (the default policy has none worth telling).
fn log_warnings(path: &Path, warnings: Vec<Warning>) {
    for w in warnings {
        tracing::info!("{}: {w}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::{OpenOptions, open_store, store_location};

    #[tokio::test]
    async fn the_store_location_is_decided_in_one_place() {
        let dir = tempfile::tempdir().unwrap();
        let policy_path = dir.path().join("policy.yaml");
        std::fs::write(
            &policy_path,
            "version: 1\nname: store-test\nstore:\n  url: data/ev.sqlite\ncache_policy:\n  stale_after_days_by_topic:\n    news: 2\n    default: 9\n",
        )
        .unwrap();
        let (policy, _) = crate::load_policy(&policy_path).unwrap();
        // A relative `store.url` is resolved against the policy file's directory.
        let relative = store_location(&policy, &OpenOptions::default()).unwrap();
        assert_eq!(
            std::path::Path::new(&relative),
            dir.path().join("data/ev.sqlite")
        );
        // `--store` wins over the policy.
        let flag = OpenOptions {
            store: Some("sqlite::memory:".into()),
            no_store: false,
        };
        assert_eq!(
            store_location(&policy, &flag).as_deref(),
            Some("sqlite::memory:")
        );
        // `no_store` opens nothing; otherwise the store carries the policy's staleness rules.
        let none = OpenOptions {
            store: None,
            no_store: true,
        };
        assert!(open_store(&policy, &none).await.unwrap().is_none());
        let rules = crate::staleness_rules(&policy);
        assert_eq!(rules.by_topic.get("news"), Some(&2));
        assert_eq!(rules.default_days, 9);
        std::fs::create_dir_all(dir.path().join("data")).unwrap();
        let store = open_store(&policy, &OpenOptions::default())
            .await
            .unwrap()
            .expect("a store");
        assert_eq!(store.staleness(), &rules);
        store.close().await;
        assert!(dir.path().join("data/ev.sqlite").exists());
    }

    /// A directory with `policy.yaml` holding `yaml`, the path of a store
    /// file beside it (not created) and options naming that store.
    fn policy_and_store_paths(
        yaml: &str,
    ) -> (
        tempfile::TempDir,
        std::path::PathBuf,
        std::path::PathBuf,
        OpenOptions,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let policy_path = dir.path().join("policy.yaml");
        std::fs::write(&policy_path, yaml).unwrap();
        let store_path = dir.path().join("ev.sqlite");
        let options = OpenOptions {
            store: Some(store_path.display().to_string()),
            no_store: false,
        };
        (dir, policy_path, store_path, options)
    }

    #[tokio::test]
    async fn a_store_opened_beside_the_policy_gets_its_rules_and_an_invalid_policy_still_fails() {
        let (dir, policy_path, store_path, options) = policy_and_store_paths(
            "version: 1\nname: early\ncache_policy:\n  stale_after_days_by_topic:\n    default: 4\n",
        );
        // A store that does not exist yet is not opened early: it is created
        // only once the policy is known to be valid.
        assert_eq!(super::early_store_location(&options, None), None);
        let gateway = crate::open(&policy_path, options.clone()).await.unwrap();
        drop(gateway);
        assert!(store_path.is_file());
        // Now it exists, and opens while the policy is read.
        assert_eq!(
            super::early_store_location(&options, None),
            Some(store_path.display().to_string())
        );
        // Without `options.store`, a policy file may name its own store:
        // nothing is known before it is read.
        let from_policy = OpenOptions {
            store: None,
            no_store: false,
        };
        assert_eq!(
            super::early_store_location(&from_policy, Some(&policy_path)),
            None
        );
        let gateway = crate::open(&policy_path, options.clone()).await.unwrap();
        drop(gateway);
        // An invalid policy is reported as such, whatever the store.
        std::fs::write(&policy_path, "version: 1\nname: early\nbogus_key: 1\n").unwrap();
        let err = crate::open(&policy_path, options.clone())
            .await
            .unwrap_err();
        assert!(matches!(err, super::OpenError::Policy(_)), "{err}");
        assert!(err.to_string().contains("bogus_key"), "{err}");
        // `no_store` and in-memory or missing locations are never opened early.
        let memory = OpenOptions {
            store: Some("sqlite::memory:".into()),
            no_store: false,
        };
        assert_eq!(super::early_store_location(&memory, None), None);
        let off = OpenOptions {
            no_store: true,
            ..options
        };
        assert_eq!(super::early_store_location(&off, None), None);
        let url = OpenOptions {
            store: Some(format!("sqlite://{}", store_path.display())),
            no_store: false,
        };
        assert!(super::early_store_location(&url, None).is_some());
        let missing = OpenOptions {
            store: Some(dir.path().join("nope.sqlite").display().to_string()),
            no_store: false,
        };
        assert_eq!(super::early_store_location(&missing, None), None);
        let pg = OpenOptions {
            store: Some("postgres://u@127.0.0.1:1/db".into()),
            no_store: false,
        };
        assert_eq!(super::early_store_location(&pg, None), None);
    }

    #[tokio::test]
    async fn the_staleness_rules_reach_a_store_opened_early() {
        let (_dir, policy_path, store_path, options) = policy_and_store_paths(
            "version: 1\nname: early\ncache_policy:\n  stale_after_days_by_topic:\n    news: 3\n    default: 7\n",
        );
        sgw_store::Store::open(&store_path.display().to_string())
            .await
            .unwrap()
            .close()
            .await;
        assert!(super::early_store_location(&options, None).is_some());
        let (policy, _, store) = super::policy_and_store(Some(&policy_path), &options, &[])
            .await
            .unwrap();
        let store = store.expect("a store");
        assert_eq!(store.staleness().default_days, 7);
        assert_eq!(store.staleness(), &crate::staleness_rules(&policy));
        store.close().await;
    }
}
