//! From accepted evidence to the answer: passages, typed fields,
//! conflicts, and the sources that count for corroboration.

use crate::plan::registrable_domain;
use sgw_contract::{
    Answer, AnswerField, AnswerPassage, Evidence, EvidenceSource, FieldCandidate, FieldKind,
    FieldSpec, FoundField, Passage, SourceTier,
};
use std::collections::{BTreeMap, BTreeSet};

/// Finds passages and typed fields in extracted text. The facade plugs in
/// `sgw-extract`'s ranker; tests plug in their own.
pub trait TextAnalyzer: Send + Sync {
    /// Up to `max` passages of `text` ranked against `query` (verbatim spans).
    fn passages(&self, text: &str, query: &str, max: usize) -> Vec<Passage>;
    /// Values of the requested fields found in `text` near the query's terms.
    fn fields(&self, text: &str, query: &str, specs: &[FieldSpec]) -> Vec<FoundField>;
}

/// A piece of evidence that passed extraction and relevance.
#[derive(Debug, Clone)]
pub(crate) struct Used {
    pub evidence: Evidence,
    pub tier: SourceTier,
    pub publisher: String,
    /// Index of the chain step that produced it.
    pub step_index: usize,
    pub extracted_at: String,
}

impl Used {
    /// The independent-publisher key: registrable domain of the final URL
    /// (user evidence: each submission is its own publisher).
    pub fn independence_key(&self) -> String {
        if self.tier == SourceTier::UserSuppliedEvidence {
            return format!("user:{}", self.evidence.content_hash);
        }
        registrable_domain(self.evidence.effective_url().host_str().unwrap_or_default())
    }

    /// The id used to cite it: the evidence id, else the URL.
    pub fn cite(&self) -> String {
        self.evidence
            .evidence_id
            .clone()
            .unwrap_or_else(|| self.evidence.effective_url().to_string())
    }

    pub fn source(&self) -> EvidenceSource {
        let e = &self.evidence;
        let mut metadata = serde_json::Map::new();
        metadata.insert("publisher_domain".into(), self.independence_key().into());
        if e.final_url.is_some() {
            metadata.insert("requested_url".into(), e.url.to_string().into());
        }
        if let Some(s) = &e.metadata.snapshot_at {
            metadata.insert("snapshot_at".into(), s.clone().into());
        }
        if e.truncated {
            metadata.insert("truncated".into(), true.into());
        }
        EvidenceSource {
            url: e.effective_url().to_string(),
            title: e.title.clone(),
            tier: self.tier,
            extracted_at: self.extracted_at.clone(),
            publisher: Some(self.publisher.clone()),
            published_at: e.published_at.clone(),
            evidence_id: e.evidence_id.clone(),
            extraction_method: Some(e.extraction_method.clone()),
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

/// One source per independent publisher (its best tier), for scoring.
pub(crate) fn scoring_sources(used: &[Used]) -> Vec<EvidenceSource> {
    let mut best: BTreeMap<String, &Used> = BTreeMap::new();
    for u in used {
        let key = u.independence_key();
        match best.get(&key) {
            Some(b) if b.tier <= u.tier => {}
            _ => {
                best.insert(key, u);
            }
        }
    }
    best.values().map(|u| u.source()).collect()
}

/// Builds the answer; the flag is true when trusted sources disagree on a field.
pub(crate) fn assemble(used: &[Used], fields: &[FieldSpec], max_passages: usize) -> (Answer, bool) {
    let mut passages: Vec<AnswerPassage> = used
        .iter()
        .flat_map(|u| {
            u.evidence
                .passages
                .iter()
                .take(3)
                .map(move |p| AnswerPassage {
                    text: p.text.clone(),
                    evidence_id: u.evidence.evidence_id.clone(),
                    url: u.evidence.effective_url().to_string(),
                    tier: u.tier,
                    start: p.start,
                    end: p.end,
                    score: p.score,
                })
        })
        .collect();
    passages.sort_by(|a, b| a.tier.cmp(&b.tier).then(b.score.total_cmp(&a.score)));
    passages.truncate(max_passages);

    let mut conflict = false;
    let mut answer_fields = BTreeMap::new();
    for spec in fields {
        // value → (citations, best tier, quote, publishers)
        let mut candidates: BTreeMap<String, (Vec<String>, SourceTier, String, BTreeSet<String>)> =
            BTreeMap::new();
        for u in used {
            let mut seen_here = BTreeSet::new();
            for f in u.evidence.fields.iter().filter(|f| f.name == spec.name) {
                if !seen_here.insert(f.value.clone()) {
                    continue;
                }
                let entry = candidates
                    .entry(f.value.clone())
                    .or_insert_with(|| (Vec::new(), u.tier, f.quote.clone(), BTreeSet::new()));
                entry.0.push(u.cite());
                if u.tier < entry.1 {
                    entry.1 = u.tier;
                    entry.2 = f.quote.clone();
                }
                entry.3.insert(u.independence_key());
            }
        }
        let mut ranked: Vec<_> = candidates.into_iter().collect();
        ranked.sort_by(|(va, a), (vb, b)| {
            a.1.cmp(&b.1)
                .then(b.3.len().cmp(&a.3.len()))
                .then(va.cmp(vb))
        });
        let mut iter = ranked.into_iter();
        let field = match iter.next() {
            None => AnswerField {
                kind: spec.kind.clone(),
                value: None,
                sources: Vec::new(),
                competing: Vec::new(),
            },
            Some((value, (cites, tier, _, _))) => {
                let competing: Vec<FieldCandidate> = iter
                    .map(|(v, (c, t, q, _))| {
                        // A competing value is a conflict when a source at least as trusted as the
                        // chosen value's, or any media-or-better source, backs it. A lone
                        // general-web outlier against an official value is listed, not a conflict.
                        if t <= SourceTier::AuthoritativeMedia || t <= tier {
                            conflict = true;
                        }
                        FieldCandidate {
                            value: v,
                            sources: c,
                            tier: t,
                            quote: q,
                        }
                    })
                    .collect();
                AnswerField {
                    kind: spec.kind.clone(),
                    value: Some(value),
                    sources: cites,
                    competing,
                }
            }
        };
        answer_fields.insert(spec.name.clone(), field);
    }
    (
        Answer {
            passages,
            fields: answer_fields,
        },
        conflict,
    )
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
