//! From accepted evidence to the answer: the evidence as cited and the
//! ranked passages. Field values and scores are `confidence`'s.

use crate::plan::{Planner, registrable_domain};
pub use sgw_contract::TextAnalyzer;
use sgw_contract::{AnswerPassage, Evidence, EvidenceSource, FieldKind, SourceTier};

/// A piece of evidence that passed extraction and relevance.
#[derive(Debug, Clone)]
pub(crate) struct Used {
    pub evidence: Evidence,
    pub tier: SourceTier,
    pub publisher: String,
    /// Index of the chain step that produced it.
    pub step_index: usize,
    pub extracted_at: String,
    /// Served from a cache entry past its staleness limit.
    pub stale: bool,
    /// The independent-publisher key (see [`credit`]).
    pub independence: String,
    /// The scopes its registry source is authoritative for (empty: any, or
    /// not a registry source).
    pub scopes: Vec<String>,
    /// What assessments read of it that depends on it and the run's request
    /// alone: computed by the first assessment that needs it.
    pub memo: crate::confidence::Memo,
}

/// Who a piece of evidence is credited to, its independent-publisher key and
/// the scopes of its registry source.
///
/// A snippet is its engine's (never the publisher of the page it is about); a
/// page is its registry source's, else the provider's claim, else its domain.
/// Independence: a registry source is one publisher whatever its domains
/// (two agencies under one government domain are two); anything else is its
/// registrable domain (a page's claimed name is not trusted for counting).
pub(crate) fn credit(planner: &Planner, evidence: &Evidence) -> (String, String, Vec<String>) {
    let url = evidence.effective_url();
    let host = url.host_str().unwrap_or_default();
    let registry = planner.source_for_host(host);
    let independence = match registry {
        Some(s) => format!("source:{}", s.id),
        None => registrable_domain(host),
    };
    let scopes = registry.map(|s| s.scopes.clone()).unwrap_or_default();
    let publisher = if evidence.snippet_only {
        evidence
            .publisher
            .clone()
            .filter(|p| !p.trim().is_empty())
            .unwrap_or_else(|| "search engine".to_string())
    } else {
        planner.publisher(url, evidence.publisher.as_deref())
    };
    (publisher, independence, scopes)
}

impl Used {
    /// The independent-publisher key: the registry source, else the
    /// registrable domain of the final URL (user evidence: each submission is
    /// its own publisher).
    pub fn independence_key(&self) -> String {
        if self.tier == SourceTier::UserSuppliedEvidence {
            return format!("user:{}", self.evidence.content_hash);
        }
        self.independence.clone()
    }

    /// The id used to cite it: the evidence id, else the URL.
    pub fn cite(&self) -> String {
        self.evidence
            .evidence_id
            .clone()
            .filter(|id| !id.is_empty())
            .unwrap_or_else(|| self.evidence.effective_url().to_string())
    }

    pub fn source(&self) -> EvidenceSource {
        let e = &self.evidence;
        let mut metadata = serde_json::Map::new();
        metadata.insert(
            "publisher_domain".into(),
            registrable_domain(e.effective_url().host_str().unwrap_or_default()).into(),
        );
        if e.final_url.is_some() {
            metadata.insert("requested_url".into(), e.url.to_string().into());
        }
        if let Some(s) = &e.metadata.snapshot_at {
            metadata.insert("snapshot_at".into(), s.clone().into());
        }
        if e.truncated {
            metadata.insert("truncated".into(), true.into());
        }
        if self.stale {
            metadata.insert("stale".into(), true.into());
        }
        if e.snippet_only {
            // The engine's text about a page: the page itself was not read.
            let about = e.about.as_ref().unwrap_or(&e.url);
            metadata.insert("about".into(), about.to_string().into());
        }
        EvidenceSource {
            url: e.effective_url().to_string(),
            title: e.title.clone(),
            tier: self.tier,
            extracted_at: self.extracted_at.clone(),
            publisher: Some(self.publisher.clone()),
            published_at: e.published_at.clone(),
            evidence_id: e.evidence_id.clone().filter(|id| !id.is_empty()),
            extraction_method: Some(if e.snippet_only {
                "snippet".to_string()
            } else {
                e.extraction_method.clone()
            }),
            metadata,
        }
    }
}

/// Makes field values comparable: amounts (number, money, percent) lose the
/// trailing zeros of their decimal part (`4.50` and `4.5` are one value;
/// `USD 1200.00` → `USD 1200`), so that equal values never look like a conflict.
pub(crate) fn canonical_field_value(kind: &FieldKind, value: &str) -> String {
    let value = value.trim();
    if !matches!(
        kind,
        FieldKind::Number | FieldKind::Money | FieldKind::Percent
    ) {
        return value.to_string();
    }
    let (head, amount) = match value.rsplit_once(' ') {
        Some((h, a)) => (Some(h), a),
        None => (None, value),
    };
    let amount = if amount.contains('.')
        && amount
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
    {
        amount.trim_end_matches('0').trim_end_matches('.')
    } else {
        amount
    };
    match head {
        Some(h) => format!("{h} {amount}"),
        None => amount.to_string(),
    }
}

/// The answer's ranked passages: the best few of each piece of evidence;
/// more trusted tiers first, then those covering more of the question's
/// content terms (the passage that answers before one that only matches
/// words), then the ranker's score.
pub(crate) fn passages(used: &[Used], max_passages: usize, query: &str) -> Vec<AnswerPassage> {
    let terms = crate::confidence::content_terms(query);
    let question = &crate::confidence::Question::new(&terms);
    // Ranked by reference; only the kept passages copy their text.
    let mut ranked: Vec<(usize, &Used, &sgw_contract::Passage)> = used
        .iter()
        .flat_map(|u| {
            u.evidence.passages.iter().take(3).map(move |p| {
                let covered = crate::confidence::coverage(question, "", &p.text, None).covered;
                (covered, u, p)
            })
        })
        .collect();
    ranked.sort_by(|(ca, ua, a), (cb, ub, b)| {
        ua.tier
            .cmp(&ub.tier)
            .then(cb.cmp(ca))
            .then(b.score.total_cmp(&a.score))
    });
    ranked.truncate(max_passages);
    ranked
        .into_iter()
        .map(|(_, u, p)| AnswerPassage {
            text: p.text.clone(),
            evidence_id: u.evidence.evidence_id.clone(),
            url: u.evidence.effective_url().to_string(),
            tier: u.tier,
            start: p.start,
            end: p.end,
            score: p.score,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::canonical_field_value as c;
    use sgw_contract::FieldKind;

    #[test]
    fn amounts_are_canonical() {
        assert_eq!(c(&FieldKind::Percent, "4.50"), "4.5");
        assert_eq!(c(&FieldKind::Number, "4.0"), "4");
        assert_eq!(c(&FieldKind::Number, "400"), "400");
        assert_eq!(c(&FieldKind::Money, "USD 1200.00"), "USD 1200");
        assert_eq!(c(&FieldKind::Number, "-0.250"), "-0.25");
        assert_eq!(c(&FieldKind::Date, "2026-03-10"), "2026-03-10");
        assert_eq!(c(&FieldKind::Text("x".into()), " 4.50 "), "4.50");
    }
}
