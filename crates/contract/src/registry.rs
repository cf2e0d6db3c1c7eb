//! The provider SDK's registry: a provider kind is one typed config
//! ([`ProviderConfig`]) registered with one line ([`register_provider!`](crate::register_provider!));
//! the registry parses a policy's `config:` block into it (errors name the
//! field) and hands it the services it needs through [`BuildContext`].

use crate::{ChainStep, FieldSpec, FoundField, Passage, Provider};
use serde::de::DeserializeOwned;
use std::any::{Any, type_name};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Finds passages and typed fields in extracted text. The facade plugs in
/// `sgw-extract`'s ranker; tests plug in their own. Providers reach it
/// through [`BuildContext::analyzer`].
pub trait TextAnalyzer: Send + Sync {
    /// Up to `max` passages of `text` ranked against `query` (verbatim spans).
    fn passages(&self, text: &str, query: &str, max: usize) -> Vec<Passage>;
    /// Candidate values of the requested fields in `text`, best first per field,
    /// scored against the question (`as_of`: the date the answer must hold at).
    fn fields(
        &self,
        text: &str,
        query: &str,
        specs: &[FieldSpec],
        as_of: Option<jiff::civil::Date>,
    ) -> Vec<FoundField>;
}

/// One service slot: the contract cannot name the network layer's or the
/// store's types, so the slot keeps the value type-erased and the typed
/// accessor of [`BuildContext`] checks the type the provider asks for.
#[derive(Clone)]
struct Slot {
    value: Arc<dyn Any + Send + Sync>,
    type_name: &'static str,
}

impl Slot {
    fn new<T: Any + Send + Sync>(value: Arc<T>) -> Slot {
        Slot {
            value,
            type_name: type_name::<T>(),
        }
    }
}

/// The shared services a gateway hands to every provider it builds: the
/// network layer (`sgw_fetch::Fetcher`), the evidence store
/// (`sgw_store::Store`) and the text analyzer. Each is optional: a gateway
/// built with `--no-store` has no store.
#[derive(Clone, Default)]
pub struct Services {
    fetcher: Option<Slot>,
    store: Option<Slot>,
    analyzer: Option<Arc<dyn TextAnalyzer>>,
}

impl fmt::Debug for Services {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Services")
            .field("fetcher", &self.fetcher.as_ref().map(|s| s.type_name))
            .field("store", &self.store.as_ref().map(|s| s.type_name))
            .field("analyzer", &self.analyzer.is_some())
            .finish()
    }
}

impl Services {
    /// No services at all.
    pub fn new() -> Services {
        Services::default()
    }

    /// With the network layer every fetching provider uses (`sgw_fetch::Fetcher`).
    pub fn with_fetcher<T: Any + Send + Sync>(mut self, fetcher: Arc<T>) -> Services {
        self.fetcher = Some(Slot::new(fetcher));
        self
    }

    /// With the evidence store (`sgw_store::Store`).
    pub fn with_store<T: Any + Send + Sync>(mut self, store: Arc<T>) -> Services {
        self.store = Some(Slot::new(store));
        self
    }

    /// With the passage ranker and field finder.
    pub fn with_analyzer(mut self, analyzer: Arc<dyn TextAnalyzer>) -> Services {
        self.analyzer = Some(analyzer);
        self
    }

    /// Whether an analyzer was supplied.
    pub fn has_analyzer(&self) -> bool {
        self.analyzer.is_some()
    }
}

fn typed<T: Any + Send + Sync>(
    slot: Option<&Slot>,
    service: &'static str,
) -> Result<Arc<T>, FactoryError> {
    let slot = slot.ok_or(FactoryError::MissingService(service))?;
    slot.value
        .clone()
        .downcast::<T>()
        .map_err(|_| FactoryError::ServiceType {
            service,
            expected: type_name::<T>(),
            found: slot.type_name,
        })
}

/// What a provider's build is given besides its own config.
#[derive(Debug, Clone)]
pub struct BuildContext {
    /// The provider instance's name.
    pub name: String,
    /// The chain step it is bound to.
    pub step: ChainStep,
    /// The directory of the policy file (relative paths in configs resolve against it).
    pub policy_dir: Option<PathBuf>,
    /// The shared services; read them with [`BuildContext::fetcher`],
    /// [`BuildContext::store`] and [`BuildContext::analyzer`].
    pub services: Services,
}

impl BuildContext {
    /// A context for instance `name` at `step`, without services or policy directory.
    pub fn new(name: impl Into<String>, step: ChainStep) -> BuildContext {
        BuildContext {
            name: name.into(),
            step,
            policy_dir: None,
            services: Services::new(),
        }
    }

    /// The same context with `services`.
    pub fn with_services(mut self, services: Services) -> BuildContext {
        self.services = services;
        self
    }

    /// The network layer: `let fetcher: Arc<sgw_fetch::Fetcher> = ctx.fetcher()?;`.
    /// [`FactoryError::MissingService`] when the gateway was built without one.
    pub fn fetcher<T: Any + Send + Sync>(&self) -> Result<Arc<T>, FactoryError> {
        typed(self.services.fetcher.as_ref(), "fetcher")
    }

    /// The evidence store: `let store: Arc<sgw_store::Store> = ctx.store()?;`
    /// (`ctx.store().ok()` when the provider works without one, as with `--no-store`).
    pub fn store<T: Any + Send + Sync>(&self) -> Result<Arc<T>, FactoryError> {
        typed(self.services.store.as_ref(), "store")
    }

    /// The passage ranker and field finder.
    pub fn analyzer(&self) -> Result<Arc<dyn TextAnalyzer>, FactoryError> {
        self.services
            .analyzer
            .clone()
            .ok_or(FactoryError::MissingService("analyzer"))
    }
}

/// Why a provider could not be built.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FactoryError {
    /// The `config:` block is wrong; `field` is a path inside it when known.
    #[error("{}{message}", field.as_ref().map(|f| format!("{f}: ")).unwrap_or_default())]
    Config {
        field: Option<String>,
        message: String,
    },
    /// A service the provider needs was not supplied.
    #[error("the provider needs the service `{0}`, which the gateway was built without")]
    MissingService(&'static str),
    /// The service was supplied, but as another type than the provider asks for.
    #[error(
        "the provider needs the service `{service}` as `{expected}`, but the gateway holds a `{found}`"
    )]
    ServiceType {
        service: &'static str,
        expected: &'static str,
        found: &'static str,
    },
}

impl FactoryError {
    /// A config error not tied to one field.
    pub fn config(message: impl Into<String>) -> FactoryError {
        FactoryError::Config {
            field: None,
            message: message.into(),
        }
    }

    /// A config error naming the `field` at fault (`urls[2]`, `pointers.title`).
    pub fn config_field(field: impl Into<String>, message: impl Into<String>) -> FactoryError {
        FactoryError::Config {
            field: Some(field.into()),
            message: message.into(),
        }
    }
}

/// A provider kind: its `config:` block as a typed struct, and how to build
/// the provider from it. Register it with [`register_provider!`](crate::register_provider!):
///
/// ```
/// use serde::Deserialize;
/// use sgw_contract::{
///     BuildContext, ChainStep, FactoryError, Provider, ProviderCall, ProviderConfig,
///     ProviderError, ProviderReport,
/// };
/// use std::sync::Arc;
///
/// #[derive(Deserialize)]
/// #[serde(deny_unknown_fields)]
/// pub struct EchoConfig {
///     #[serde(default)]
///     greeting: String,
/// }
///
/// struct Echo(String);
///
/// #[async_trait::async_trait]
/// impl Provider for Echo {
///     async fn run(&self, _call: &ProviderCall<'_>) -> Result<ProviderReport, ProviderError> {
///         Ok(ProviderReport { notes: vec![self.0.clone()], ..Default::default() })
///     }
/// }
///
/// impl ProviderConfig for EchoConfig {
///     const KIND: &'static str = "echo";
///     const STEP: ChainStep = ChainStep::StructuredApiOrFeed;
///     const DESCRIPTION: &'static str = "says its greeting";
///     fn build(self, _ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError> {
///         Ok(Arc::new(Echo(self.greeting)))
///     }
/// }
///
/// sgw_contract::register_provider!(EchoConfig);
/// # fn main() { assert!(sgw_contract::factory("echo").is_some()); }
/// ```
pub trait ProviderConfig: DeserializeOwned + 'static {
    /// The `kind:` value a policy uses.
    const KIND: &'static str;
    /// The chain step this kind is designed for.
    const STEP: ChainStep;
    /// One line for `sgw providers`.
    const DESCRIPTION: &'static str;
    /// Builds the provider from its parsed config. Checks that serde cannot
    /// express (a URL template that must expand, a count of at least 1)
    /// belong here, as [`FactoryError::Config`] naming the field.
    fn build(self, ctx: &BuildContext) -> Result<Arc<dyn Provider>, FactoryError>;
}

/// Parses a provider's `config:` value into its config struct; an error names
/// the field at fault (`FactoryError::Config { field, message }`). `null`
/// means an empty config. The registry does this for every
/// [`ProviderConfig`]; it is public for tests of a config's parsing.
pub fn parse_config<T: DeserializeOwned>(config: &serde_json::Value) -> Result<T, FactoryError> {
    let empty = serde_json::Value::Object(serde_json::Map::new());
    let value = if config.is_null() { &empty } else { config };
    serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
        let path = e.path().to_string();
        FactoryError::Config {
            field: (path != ".").then_some(path),
            message: e.into_inner().to_string(),
        }
    })
}

/// Builds a provider from its `config:` (as JSON) and the build context.
pub type BuildFn = fn(&serde_json::Value, &BuildContext) -> Result<Arc<dyn Provider>, FactoryError>;

fn build_from_config<C: ProviderConfig>(
    config: &serde_json::Value,
    ctx: &BuildContext,
) -> Result<Arc<dyn Provider>, FactoryError> {
    parse_config::<C>(config)?.build(ctx)
}

/// A registered provider kind. Made from a [`ProviderConfig`] by
/// [`ProviderFactory::of`] (which [`register_provider!`](crate::register_provider!) calls).
#[derive(Clone, Copy)]
pub struct ProviderFactory {
    /// The `kind:` value a policy uses.
    pub kind: &'static str,
    /// The chain step this kind is designed for.
    pub step: ChainStep,
    /// The crate it comes from.
    pub crate_name: &'static str,
    /// One line for `sgw providers`.
    pub description: &'static str,
    build: BuildFn,
}

impl fmt::Debug for ProviderFactory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderFactory")
            .field("kind", &self.kind)
            .field("step", &self.step)
            .field("crate_name", &self.crate_name)
            .finish()
    }
}

impl ProviderFactory {
    /// The factory of config type `C`, registered by crate `crate_name`.
    pub const fn of<C: ProviderConfig>(crate_name: &'static str) -> ProviderFactory {
        ProviderFactory {
            kind: C::KIND,
            step: C::STEP,
            crate_name,
            description: C::DESCRIPTION,
            build: build_from_config::<C>,
        }
    }

    /// Parses `config` (a policy entry's `config:` block; `null` is an empty
    /// one) into the kind's config type and builds the provider.
    pub fn build(
        &self,
        config: &serde_json::Value,
        ctx: &BuildContext,
    ) -> Result<Arc<dyn Provider>, FactoryError> {
        (self.build)(config, ctx)
    }
}

inventory::collect!(ProviderFactory);

/// Registers a [`ProviderConfig`] type as a provider kind of the calling crate:
/// `sgw_contract::register_provider!(FeedConfig);`. A binary sees the kind
/// once it links the crate (`use my_provider as _;`).
#[macro_export]
macro_rules! register_provider {
    ($config:ty) => {
        $crate::inventory::submit! {
            $crate::ProviderFactory::of::<$config>(env!("CARGO_PKG_NAME"))
        }
    };
}

/// Every factory linked into this binary, sorted by kind (a kind registered
/// twice is listed twice: [`Registry::linked`] refuses that).
pub fn factories() -> Vec<&'static ProviderFactory> {
    let mut all: Vec<_> = inventory::iter::<ProviderFactory>.into_iter().collect();
    all.sort_by_key(|f| (f.kind, f.crate_name));
    all
}

/// The linked factory for `kind` (the first found if it is registered twice).
pub fn factory(kind: &str) -> Option<&'static ProviderFactory> {
    inventory::iter::<ProviderFactory>
        .into_iter()
        .find(|f| f.kind == kind)
}

/// Two crates register the same provider kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "provider kind `{kind}` is registered twice, by `{first}` and by `{second}`; a kind must be unique"
)]
pub struct DuplicateKind {
    pub kind: &'static str,
    /// The crate registered first (alphabetically, for linked factories).
    pub first: &'static str,
    pub second: &'static str,
}

/// The provider kinds a gateway can build: the factories linked into the
/// binary plus any added explicitly, each kind once.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    by_kind: BTreeMap<&'static str, ProviderFactory>,
}

impl Registry {
    /// No kinds.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Every factory linked into this binary; an error names both crates
    /// when two register one kind.
    pub fn linked() -> Result<Registry, DuplicateKind> {
        let mut registry = Registry::new();
        for factory in factories() {
            registry.add(*factory)?;
        }
        Ok(registry)
    }

    /// Adds `factory`. The same factory added twice (one crate, one kind) is
    /// kept once; a kind from two crates is an error naming both.
    pub fn add(&mut self, factory: ProviderFactory) -> Result<(), DuplicateKind> {
        match self.by_kind.get(factory.kind) {
            Some(known) if known.crate_name != factory.crate_name => Err(DuplicateKind {
                kind: factory.kind,
                first: known.crate_name,
                second: factory.crate_name,
            }),
            Some(_) => Ok(()),
            None => {
                self.by_kind.insert(factory.kind, factory);
                Ok(())
            }
        }
    }

    /// The factory of `kind`.
    pub fn get(&self, kind: &str) -> Option<&ProviderFactory> {
        self.by_kind.get(kind)
    }

    /// Every kind, sorted.
    pub fn kinds(&self) -> Vec<&'static str> {
        self.by_kind.keys().copied().collect()
    }

    /// Every factory, sorted by kind.
    pub fn iter(&self) -> impl Iterator<Item = &ProviderFactory> {
        self.by_kind.values()
    }
}
