//! The scenarios of `sgw demo`: the simulated world of [`crate::world`]
//! with one set of faults each (healthy, official site blocked, engine
//! CAPTCHA'd, official sources in conflict, everything blocked).

use crate::world::{PolicyOptions, World};
use crate::{Captcha, Cdn, Fault};

/// One demo scenario: a fault set on the simulated world and what it shows.
pub struct Scenario {
    /// Its name (`sgw demo --scenario NAME`).
    pub name: &'static str,
    /// What the chain does in it, for the reader.
    pub what: &'static str,
    /// The policy options of the world.
    pub options: fn() -> PolicyOptions,
    /// The faults it switches on.
    pub setup: fn(&World),
    /// The answer fields the question asks for.
    pub fields: &'static [&'static str],
}

/// The scenarios, in the order `sgw demo` runs them.
pub fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "healthy",
            what: "The official site answers: step 1, OFFICIAL_PRIMARY, high confidence, nothing else runs.",
            options: PolicyOptions::default,
            setup: |_| {},
            fields: &["rate:percent"],
        },
        Scenario {
            name: "official-blocked",
            what: "The official page is behind a Cloudflare block (error 1020): the chain falls back to the \
                   search engine (media + blog) and then the web archive's copy of the official page.",
            options: PolicyOptions::default,
            setup: |w| w.break_official(Fault::CdnBlock(Cdn::Cloudflare)),
            fields: &["rate:percent"],
        },
        Scenario {
            name: "engine-captcha",
            what: "The official page needs JavaScript and the engine's upstreams are CAPTCHA'd: the engine is \
                   suspended, the archive answers.",
            options: PolicyOptions::default,
            setup: |w| {
                w.break_official(Fault::JsShell);
                w.engine_captcha();
            },
            fields: &[],
        },
        Scenario {
            name: "conflict",
            what: "Two official sources disagree on the rate: SOURCE_CONFLICT_NEEDS_REVIEW lowers the confidence.",
            options: || PolicyOptions {
                ministry: true,
                ..PolicyOptions::default()
            },
            setup: World::ministry_disagrees,
            fields: &["rate:percent"],
        },
        Scenario {
            name: "all-blocked",
            what: "Everything is blocked (CDN, CAPTCHA, JS shell, 404, engine CAPTCHA, archive 503): no answer, \
                   the codes say why, and a person is asked for the evidence.",
            options: PolicyOptions::default,
            setup: |w| {
                w.break_everything();
                w.break_official(Fault::Captcha(Captcha::Hcaptcha));
            },
            fields: &[],
        },
    ]
}

impl Scenario {
    /// Starts its world with its faults on; returns the world (keep it
    /// alive while searching) and the policy YAML that points at it.
    pub async fn start(&self) -> (World, String) {
        let world = World::start().await;
        (self.setup)(&world);
        let yaml = world.policy(&(self.options)());
        (world, yaml)
    }
}
