//! Support for the workspace end-to-end tests (see `e2e/`): a gateway built
//! from a [`World`](sgw_testkit::world::World) policy with its own store, and
//! the [`calibration`] run behind `cargo xtask calibrate`.

pub mod calibration;

use search_gateway::{Gateway, OpenOptions, SearchRequest, SearchResult};
use sgw_testkit::world::{PolicyOptions, World};

/// A gateway over a world, with an SQLite store in a temporary directory.
pub struct Rig {
    pub world: World,
    pub gateway: Gateway,
    pub store_path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Rig {
    /// Starts a world, lets `setup` break parts of it, builds the gateway.
    pub async fn new(options: PolicyOptions, setup: impl FnOnce(&World)) -> Rig {
        let world = World::start().await;
        setup(&world);
        let dir = tempfile::tempdir().expect("temp dir");
        let store_path = dir.path().join("store.sqlite");
        let gateway = Rig::gateway(&world, &options, &store_path).await;
        Rig {
            world,
            gateway,
            store_path,
            _dir: dir,
        }
    }

    /// A second gateway on the same world and store (another process, say).
    pub async fn gateway(
        world: &World,
        options: &PolicyOptions,
        store: &std::path::Path,
    ) -> Gateway {
        let yaml = world.policy(options);
        let (policy, _) = search_gateway::parse_policy(yaml.as_bytes(), "world.yaml")
            .unwrap_or_else(|e| panic!("world policy:\n{yaml}\n{e}"));
        search_gateway::build(
            policy,
            OpenOptions {
                store: Some(store.display().to_string()),
                no_store: false,
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Asks the world's question (with optional typed fields).
    pub async fn ask(&self, fields: &[&str]) -> SearchResult {
        let mut request = SearchRequest::new(sgw_testkit::world::QUESTION);
        for f in fields {
            request.fields.push(f.parse().expect("field spec"));
        }
        self.gateway.search(&request).await.expect("valid request")
    }
}
