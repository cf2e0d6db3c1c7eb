//! The five session artifacts as Rust types (camelCase on disk) and their enums,
//! spelled exactly as the seed spells them.
//!
//! These types carry no behaviour beyond (de)serialisation; the rules live in
//! [`crate::validate`], and only [`crate::store`] writes them.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// The schema version written into every artifact.
pub const SCHEMA_VERSION: u32 = 1;

macro_rules! spelled_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),+
        }
        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The on-disk spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl std::str::FromStr for $name {
            type Err = UnknownSpelling;
            /// The value spelled `text` exactly as on disk.
            fn from_str(text: &str) -> Result<$name, UnknownSpelling> {
                $name::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str() == text)
                    .ok_or_else(|| UnknownSpelling {
                        what: stringify!($name),
                        text: text.to_string(),
                    })
            }
        }
    };
}

/// A text that spells none of an enum's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a {what}")]
pub struct UnknownSpelling {
    /// The enum's name (`Mode`, `Status`, …).
    pub what: &'static str,
    /// The text given.
    pub text: String,
}

spelled_enum! {
    /// Research depth: drives deepening rounds, verification tier and budget.
    Mode { Light = "light", Normal = "normal", Deep = "deep" }
}
spelled_enum! {
    /// Human-gate posture recorded on the manifest (build-spec §6).
    GatePolicy { OperatorPresent = "operatorPresent", Background = "background", Worker = "worker" }
}
spelled_enum! {
    /// Synthesis render target.
    OutputKind { ShortAnswer = "shortAnswer", Article = "article", Structured = "structured" }
}
spelled_enum! {
    /// Session lifecycle. `done` and `aborted` are terminal.
    Status { Draft = "draft", InProgress = "in-progress", Done = "done", Aborted = "aborted" }
}
spelled_enum! {
    /// Which claims get verified, and how.
    VerificationTier { None = "none", Central3Vote = "central-3vote", DiverseLens3Vote = "diverse-lens-3vote" }
}
spelled_enum! {
    /// Where a source came from.
    SourceKind { Web = "web", Playwright = "playwright", Kb = "kb", Codebase = "codebase", PriorSession = "prior-session" }
}
spelled_enum! {
    /// Source rating. `userSupplied` (evidence a person handed in) is kept distinct from the web ratings.
    SourceQuality { Primary = "primary", Secondary = "secondary", Low = "low", UserSupplied = "userSupplied" }
}
spelled_enum! {
    /// How load-bearing a claim is; only `central` claims get 3-vote verification.
    Importance { Central = "central", Supporting = "supporting", Incidental = "incidental" }
}
spelled_enum! {
    /// Outcome of verification for one claim.
    Verdict { Verified = "verified", Refuted = "refuted", Unverified = "unverified" }
}
spelled_enum! {
    /// One verifier's vote on a claim.
    VoteValue { Supports = "supports", Refutes = "refutes", Abstain = "abstain" }
}
spelled_enum! {
    /// Confidence of a finding.
    Confidence { High = "high", Medium = "medium", Low = "low" }
}
spelled_enum! {
    /// Human-gate queue state.
    GateStatus { Pending = "pending", Retrying = "retrying", Resolved = "resolved", Failed = "failed" }
}

impl Status {
    /// `done` and `aborted` are one-way.
    pub fn is_terminal(self) -> bool {
        matches!(self, Status::Done | Status::Aborted)
    }
}

impl Mode {
    /// Deepening rounds derived from the mode: light 0, normal 1, deep 3.
    pub fn deepening_rounds(self) -> u32 {
        match self {
            Mode::Light => 0,
            Mode::Normal => 1,
            Mode::Deep => 3,
        }
    }
    /// Verification tier derived from the mode.
    pub fn verification_tier(self) -> VerificationTier {
        match self {
            Mode::Light => VerificationTier::None,
            Mode::Normal => VerificationTier::Central3Vote,
            Mode::Deep => VerificationTier::DiverseLens3Vote,
        }
    }
    /// Default budget for the mode.
    pub fn budget(self) -> Budget {
        match self {
            Mode::Light => Budget {
                max_sub_questions: 3,
                tool_call_cap: 5,
            },
            Mode::Normal => Budget {
                max_sub_questions: 6,
                tool_call_cap: 8,
            },
            Mode::Deep => Budget {
                max_sub_questions: 10,
                tool_call_cap: 12,
            },
        }
    }
    /// Whether `mark done` promotes the answer into the knowledge library.
    pub fn promotes(self) -> bool {
        !matches!(self, Mode::Light)
    }
}

/// `manifest.json`: session identity, mode, gate policy, status, budget, assumptions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Manifest {
    pub schema_version: u32,
    pub session_id: String,
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intent: Option<String>,
    pub mode: Mode,
    pub gate_policy: GatePolicy,
    pub output: OutputKind,
    pub status: Status,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub budget: Budget,
    #[serde(default)]
    pub assumptions: Vec<String>,
}

/// Per-session limits, derived from the mode at `run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Budget {
    /// Most sub-questions the plan may hold.
    pub max_sub_questions: u32,
    /// Tool calls (searches + fetches) one searcher may spend.
    pub tool_call_cap: u32,
}

/// `plan.json`: the dependency-classified decomposition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Plan {
    pub schema_version: u32,
    pub session_id: String,
    pub deepening_rounds: u32,
    pub verification_tier: VerificationTier,
    pub sub_questions: Vec<SubQuestion>,
}

/// One sub-question. Empty `dependsOn` = independent (can run in parallel).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubQuestion {
    /// `sq-N`.
    pub id: String,
    pub text: String,
    #[serde(default)]
    pub depends_on: Vec<String>,
}

/// `sources.json`: the session's source registry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SourcesFile {
    pub schema_version: u32,
    pub sources: Vec<Source>,
}

/// One kept source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Source {
    /// `s<N>-<k>`: N is the sub-question number, k counts kept sources for it.
    pub source_id: String,
    pub sub_question_id: String,
    pub url: String,
    pub title: String,
    pub kind: SourceKind,
    pub source_quality: SourceQuality,
    /// The gateway's trust tier (`OFFICIAL_PRIMARY`, …) when the gateway found it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<String>,
    pub snippet: String,
    /// The gateway's evidence record id (`ev-…`), whose text grounds quotes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    pub retrieved_at: Timestamp,
}

/// `gates.json`: the human-gate retry queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GatesFile {
    pub schema_version: u32,
    pub gates: Vec<Gate>,
}

/// One gated URL waiting for a person.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Gate {
    /// `g-N`, continuing from the last id.
    pub gate_id: String,
    pub url: String,
    /// `cloudflare`, `login`, `captcha`, … (free text, non-empty).
    pub gate_type: String,
    pub what_is_needed: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sub_question_id: Option<String>,
    pub status: GateStatus,
    pub blocked_at: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_at: Option<Timestamp>,
    /// Evidence a person supplied to clear the gate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution_note: Option<String>,
}

/// `findings/sq-N.json`: one finding per sub-question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Finding {
    pub schema_version: u32,
    pub sub_question_id: String,
    #[serde(default)]
    pub summary: String,
    pub confidence: Confidence,
    pub claims: Vec<Claim>,
    /// Answer-relevant assertions that could not be grounded in a quote.
    pub unsourced_claims: u32,
    #[serde(default)]
    pub notes: String,
    pub written_at: Timestamp,
}

/// One quote-grounded claim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Claim {
    /// `c-N`.
    pub claim_id: String,
    pub text: String,
    /// Verbatim span of the source's evidence text.
    pub quote: String,
    pub source_id: String,
    pub importance: Importance,
    pub source_quality: SourceQuality,
    #[serde(default = "unverified")]
    pub verdict: Verdict,
    #[serde(default)]
    pub votes: Vec<Vote>,
}

fn unverified() -> Verdict {
    Verdict::Unverified
}

/// One verifier vote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Vote {
    pub vote: VoteValue,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lens: Option<String>,
}

impl Finding {
    /// Unsourced share of this finding's answer-relevant assertions.
    pub fn unsourced_ratio(&self) -> f64 {
        ratio(self.unsourced_claims as u64, self.claims.len() as u64)
    }
    /// `UNSOURCED` flag: no grounded claim, or more than 10% unsourced.
    pub fn is_unsourced(&self) -> bool {
        self.claims.is_empty() || self.unsourced_ratio() > UNSOURCED_LIMIT
    }
}

/// A run (or finding) above this unsourced share fails (build-spec §8).
pub const UNSOURCED_LIMIT: f64 = 0.10;

pub(crate) fn ratio(unsourced: u64, sourced: u64) -> f64 {
    let total = unsourced + sourced;
    if total == 0 {
        0.0
    } else {
        unsourced as f64 / total as f64
    }
}
