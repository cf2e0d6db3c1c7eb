//! The facade's provider features: which Cargo feature links which provider
//! crate and the kinds it registers. Policy loading uses it to name the
//! feature a refused kind needs; `sgw providers` shows it per kind
//! ([`feature_of`]).

/// The one list of provider features. Each line names a Cargo feature of
/// this crate, the provider crate it links (force-linked with `use … as _;`
/// so its `register_provider!` registrations are present) and the kinds that
/// crate registers; the tests below check those kinds against the
/// registrations of every enabled feature.
macro_rules! provider_features {
    ($($feature:literal => $krate:ident ($name:literal) [$($kind:literal),+];)+) => {
        $(
            #[cfg(feature = $feature)]
            use $krate as _;
        )+

        /// Every provider feature this crate knows (enabled or not).
        pub(crate) const FEATURE_KINDS: &[ProviderFeature] = &[$(
            ProviderFeature {
                feature: $feature,
                krate: $name,
                kinds: &[$($kind),+],
                enabled: cfg!(feature = $feature),
            },
        )+];
    };
}

provider_features! {
    "cache" => sgw_provider_cache ("sgw-provider-cache") ["evidence-cache"];
    "human-intake" => sgw_provider_human_intake ("sgw-provider-human-intake") ["human-intake"];
    "search-engine" => sgw_provider_search_engine ("sgw-provider-search-engine") ["searxng", "brave", "json-search"];
    "mirror" => sgw_provider_mirror ("sgw-provider-mirror") ["web-archive", "mirror"];
    "official-site" => sgw_provider_official_site ("sgw-provider-official-site") ["official-site", "official-site-search"];
    "feed" => sgw_provider_feed ("sgw-provider-feed") ["feed", "json-api"];
}

/// A provider feature of this crate.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProviderFeature {
    /// The Cargo feature name.
    pub feature: &'static str,
    /// The crate it links.
    pub krate: &'static str,
    /// The kinds that crate registers.
    pub kinds: &'static [&'static str],
    /// Whether this build has the feature on.
    #[cfg_attr(not(test), allow(dead_code))]
    pub enabled: bool,
}

/// The provider feature that provides `kind`, if this crate knows one.
pub(crate) fn provider_feature(kind: &str) -> Option<&'static ProviderFeature> {
    FEATURE_KINDS.iter().find(|f| f.kinds.contains(&kind))
}

/// The Cargo feature of this crate that provides the provider `kind`
/// (enabled in this build or not); `None` for a kind from another crate.
pub fn feature_of(kind: &str) -> Option<&'static str> {
    provider_feature(kind).map(|f| f.feature)
}

#[cfg(test)]
mod tests {
    use super::FEATURE_KINDS;

    fn registered_kinds() -> Vec<&'static str> {
        crate::registry(&[]).expect("no kind twice").kinds()
    }

    #[test]
    fn every_enabled_feature_registers_its_kinds() {
        let kinds = registered_kinds();
        for f in FEATURE_KINDS {
            for k in f.kinds {
                assert_eq!(
                    kinds.contains(k),
                    f.enabled,
                    "feature `{}` ({}) on: {}, kind `{k}` registered: {}",
                    f.feature,
                    f.krate,
                    f.enabled,
                    kinds.contains(k)
                );
            }
        }
        let mut sorted = kinds.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(kinds, sorted, "kinds are listed sorted and once");
    }

    #[test]
    fn the_shipped_policies_load() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../policies");
        let path = root.join("search-gateway-resilience.yaml");
        if let Err(e) = crate::load_policy(&path) {
            panic!("{}: {e}", path.display());
        }
        // The default policy loads in every build, binding only the linked kinds.
        let (policy, _) = crate::default_policy().unwrap_or_else(|e| panic!("{e}"));
        let kinds = registered_kinds();
        let bound: Vec<&str> = policy
            .providers
            .values()
            .flatten()
            .map(|p| p.kind.as_str())
            .collect();
        assert!(bound.iter().all(|k| kinds.contains(k)), "{bound:?}");
        for f in FEATURE_KINDS.iter().filter(|f| f.enabled) {
            if f.feature != "search-engine" {
                // The default binds a kind of every family but search engines
                // other than `brave`: enabled features keep their entries.
                assert!(
                    f.kinds.iter().any(|k| bound.contains(k)),
                    "{}: {bound:?}",
                    f.feature
                );
            }
        }
    }

    /// A policy binding the first kind of every provider feature.
    fn policy_binding_every_feature(dir: &std::path::Path) -> std::path::PathBuf {
        let mut yaml = String::from(
            "version: 1\nname: every-feature\nfallback_chain: [direct_official_adapter]\nproviders:\n  direct_official_adapter:\n",
        );
        for f in FEATURE_KINDS {
            yaml.push_str(&format!(
                "    - kind: {}\n      enabled: false\n",
                f.kinds[0]
            ));
        }
        let path = dir.join("every.yaml");
        std::fs::write(&path, yaml).unwrap();
        path
    }

    #[test]
    fn a_kind_of_a_feature_this_build_lacks_names_the_feature() {
        let dir = tempfile::tempdir().unwrap();
        let path = policy_binding_every_feature(dir.path());
        let disabled: Vec<_> = FEATURE_KINDS.iter().filter(|f| !f.enabled).collect();
        match crate::load_policy(&path) {
            Ok(_) => assert!(disabled.is_empty(), "{disabled:?} should be refused"),
            Err(e) => {
                assert_eq!(e.0.len(), disabled.len(), "{e}");
                for f in disabled {
                    let message = e.to_string();
                    assert!(
                        message.contains(&format!("Cargo feature `{}`", f.feature))
                            && message.contains(f.krate),
                        "{message}"
                    );
                }
            }
        }
    }
}
