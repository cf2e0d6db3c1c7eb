#![doc = include_str!("../README.md")]

mod analyzer;

pub use analyzer::ExtractAnalyzer;
pub use sgw_contract::{
    Answer, Attempt, AttemptOutcome, CacheKey, ConfidenceLevel, Evidence, EvidenceSource,
    FailureCode, FieldKind, FieldSpec, ProviderFactory, SearchRequest, SearchResult, SourceTier,
};
pub use sgw_fetch::{FetchConfig, Fetcher};
pub use sgw_orchestrator::{ChainStep, Gateway, GatewayBuilder, Policy, PolicyErrors, Warning};
pub use sgw_store::Store;
pub use {
    sgw_contract as contract, sgw_extract as extract, sgw_fetch as fetch,
    sgw_orchestrator as orchestrator, sgw_store as store,
};

use std::path::{Path, PathBuf};
use std::sync::Arc;

// ---- linked providers: one line per provider feature (keeps their `inventory` registrations) ----
#[cfg(feature = "cache")]
use sgw_provider_cache as _;
#[cfg(feature = "feed")]
use sgw_provider_feed as _;
#[cfg(feature = "human-intake")]
use sgw_provider_human_intake as _;
#[cfg(feature = "mirror")]
use sgw_provider_mirror as _;
#[cfg(feature = "official-site")]
use sgw_provider_official_site as _;
#[cfg(feature = "search-engine")]
use sgw_provider_search_engine as _;
// ---- end of linked providers ----

/// A provider feature of this crate.
#[derive(Debug, Clone, Copy)]
pub struct ProviderFeature {
    /// The Cargo feature name.
    pub feature: &'static str,
    /// The crate it links.
    pub krate: &'static str,
    /// The kinds that crate registers.
    pub kinds: &'static [&'static str],
    /// Whether this build has the feature on.
    pub enabled: bool,
}

/// Every provider feature this crate knows, e.g.
/// `ProviderFeature { feature: "feed", krate: "sgw-provider-feed", kinds: &["feed", "json-api"], enabled: cfg!(feature = "feed") },`
pub const FEATURE_KINDS: &[ProviderFeature] = &[
    // ---- provider features ----
    ProviderFeature {
        feature: "cache",
        krate: "sgw-provider-cache",
        kinds: &["evidence-cache"],
        enabled: cfg!(feature = "cache"),
    },
    ProviderFeature {
        feature: "human-intake",
        krate: "sgw-provider-human-intake",
        kinds: &["human-intake"],
        enabled: cfg!(feature = "human-intake"),
    },
    ProviderFeature {
        feature: "search-engine",
        krate: "sgw-provider-search-engine",
        kinds: &["searxng", "brave", "json-search"],
        enabled: cfg!(feature = "search-engine"),
    },
    ProviderFeature {
        feature: "mirror",
        krate: "sgw-provider-mirror",
        kinds: &["web-archive", "mirror"],
        enabled: cfg!(feature = "mirror"),
    },
    ProviderFeature {
        feature: "official-site",
        krate: "sgw-provider-official-site",
        kinds: &["official-site", "official-site-search"],
        enabled: cfg!(feature = "official-site"),
    },
    ProviderFeature {
        feature: "feed",
        krate: "sgw-provider-feed",
        kinds: &["feed", "json-api"],
        enabled: cfg!(feature = "feed"),
    },
];

/// The provider features compiled into this build.
pub fn enabled_features() -> Vec<&'static ProviderFeature> {
    FEATURE_KINDS.iter().filter(|f| f.enabled).collect()
}

/// The feature and crate that provide `kind`, if known.
pub fn feature_of(kind: &str) -> Option<&'static ProviderFeature> {
    FEATURE_KINDS.iter().find(|f| f.kinds.contains(&kind))
}

/// Every provider kind registered in this binary, sorted.
pub fn registered_kinds() -> Vec<&'static str> {
    sgw_contract::factories().iter().map(|f| f.kind).collect()
}

/// The default policy shipped with the gateway (`policies/default.yaml`).
pub const DEFAULT_POLICY: &str = include_str!("../../../policies/default.yaml");

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
    #[error("{file}: network.{path}: {message}")]
    Network {
        file: String,
        path: String,
        message: String,
    },
    /// A provider could not be built from its entry.
    #[error("{file}: {error}")]
    Provider {
        file: String,
        error: sgw_orchestrator::BuildError,
    },
    /// The evidence store could not be opened (I/O).
    #[error("evidence store: {0}")]
    Store(#[from] sgw_store::StoreError),
}

impl OpenError {
    /// True when the policy (the user's input) is at fault rather than the machine.
    pub fn is_usage(&self) -> bool {
        !matches!(self, OpenError::Store(_))
    }
}

/// Loads and validates a policy against the kinds linked into this binary.
pub fn load_policy(path: &Path) -> Result<(Policy, Vec<Warning>), PolicyErrors> {
    Policy::load(path, &registered_kinds())
}

/// The built-in [`DEFAULT_POLICY`], validated against the linked kinds.
pub fn default_policy() -> Result<(Policy, Vec<Warning>), PolicyErrors> {
    Policy::from_bytes(
        DEFAULT_POLICY.as_bytes(),
        Some("policies/default.yaml"),
        &registered_kinds(),
    )
}

/// The policy at `path` (e.g. `--policy`), else the built-in default.
pub fn load_policy_or_default(path: Option<&Path>) -> Result<(Policy, Vec<Warning>), PolicyErrors> {
    match path {
        Some(path) => load_policy(path),
        None => default_policy(),
    }
}

/// The policy's `network:` section as the network layer's config.
pub fn network_config(policy: &Policy) -> Result<FetchConfig, OpenError> {
    let file = policy
        .origin
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "policy".into());
    match &policy.network {
        None => Ok(FetchConfig::default()),
        Some(value) => serde_path_to_error::deserialize(value).map_err(|e| OpenError::Network {
            file,
            path: e.path().to_string(),
            message: e.into_inner().to_string(),
        }),
    }
}

/// Where the evidence store lives: `options.store`, else the policy's
/// `store.url` (a relative path is resolved against the policy file's
/// directory), else `None` for the store's default location.
pub fn store_location(policy: &Policy, options: &OpenOptions) -> Option<String> {
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
pub fn staleness_rules(policy: &Policy) -> sgw_store::StalenessRules {
    sgw_store::StalenessRules {
        by_topic: policy.cache_policy.stale_after_days_by_topic.clone(),
        default_days: policy.cache_policy.stale_after_days("default"),
    }
}

/// Opens the evidence store the gateway built from `policy` and `options`
/// uses (see [`store_location`]), with the policy's staleness rules applied.
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

/// Builds a gateway from a loaded policy: network layer, evidence store,
/// extractor and every provider bound in the policy.
///
/// Nothing is built that a request does not need: the network layer's HTTP
/// clients, TLS roots and rate limiter wait for the first fetch (a search
/// answered from the cache never builds them).
pub async fn build(policy: Policy, options: OpenOptions) -> Result<Gateway, OpenError> {
    let file = policy
        .origin
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "policy".into());
    let fetch_config = network_config(&policy)?;
    let fetcher = Fetcher::new(fetch_config).map_err(|e| OpenError::Network {
        file,
        path: String::new(),
        message: e.to_string(),
    })?;
    build_with_fetcher(policy, options, fetcher).await
}

/// [`build`] with a network layer of the caller's (e.g. to share one
/// between gateways, or to watch it: [`Fetcher::is_idle`]). The gateway
/// reports slow hosts to it and makes it refuse the hosts that rest.
pub async fn build_with_fetcher(
    policy: Policy,
    options: OpenOptions,
    fetcher: Fetcher,
) -> Result<Gateway, OpenError> {
    let file = policy
        .origin
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "policy".into());
    let mut services = sgw_contract::Services::new().with_fetcher(Arc::new(fetcher.clone()));
    let mut builder = GatewayBuilder::new(policy.clone());
    if let Some(store) = open_store(&policy, &options).await? {
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
    let (policy, warnings) = load_policy(path)?;
    for w in warnings {
        tracing::info!("{}: {w}", path.display());
    }
    build(policy, options).await
}
