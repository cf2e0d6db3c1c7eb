//! One line of the chain trace.

use crate::{ChainStep, FailureCode};
use serde::{Deserialize, Serialize};

/// What became of one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttemptOutcome {
    /// Evidence was obtained.
    Success,
    /// The attempt ran and found nothing usable (no failure to blame).
    Empty,
    /// The attempt ran and failed with `failure_code`.
    Failed,
    /// The attempt was not run (`skipped_reason` says why: suspended, deadline, target reached).
    Skipped,
}

/// One attempt of one provider (or of one target URL within a provider).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// The chain step (serialized as its snake_case name: `direct_official_adapter`, …).
    pub step: ChainStep,
    /// The provider instance name (defaults to its kind).
    pub provider: String,
    /// The URL or query the attempt targeted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub outcome: AttemptOutcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_code: Option<FailureCode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    pub elapsed_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped_reason: Option<String>,
    /// A human-readable detail (error message, number of hits, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl Attempt {
    /// A blank attempt for `step`/`provider`; fill in with the builder methods.
    pub fn new(step: ChainStep, provider: impl Into<String>, outcome: AttemptOutcome) -> Attempt {
        Attempt {
            step,
            provider: provider.into(),
            target: None,
            outcome,
            failure_code: None,
            http_status: None,
            elapsed_ms: 0,
            skipped_reason: None,
            detail: None,
        }
    }

    /// A failed attempt with its code.
    pub fn failed(step: ChainStep, provider: impl Into<String>, code: FailureCode) -> Attempt {
        Attempt {
            failure_code: Some(code),
            ..Attempt::new(step, provider, AttemptOutcome::Failed)
        }
    }

    /// A skipped attempt with its reason.
    pub fn skipped(
        step: ChainStep,
        provider: impl Into<String>,
        reason: impl Into<String>,
    ) -> Attempt {
        Attempt {
            skipped_reason: Some(reason.into()),
            ..Attempt::new(step, provider, AttemptOutcome::Skipped)
        }
    }

    pub fn with_target(mut self, target: impl Into<String>) -> Attempt {
        self.target = Some(target.into());
        self
    }

    pub fn with_status(mut self, status: Option<u16>) -> Attempt {
        self.http_status = status;
        self
    }

    pub fn with_elapsed_ms(mut self, ms: u64) -> Attempt {
        self.elapsed_ms = ms;
        self
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> Attempt {
        self.detail = Some(detail.into());
        self
    }
}
