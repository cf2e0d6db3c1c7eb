//! The orchestrator's passage ranker and question-aware field finder, backed by `sgw-extract`.

use sgw_contract::{FieldKind, FieldSpec, FoundField, Passage};
use sgw_orchestrator::TextAnalyzer;

/// BM25 passages and typed fields from `sgw-extract`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExtractAnalyzer;

impl TextAnalyzer for ExtractAnalyzer {
    fn passages(&self, text: &str, query: &str, max: usize) -> Vec<Passage> {
        // Ranked in place: the page text is not copied into a Document.
        sgw_extract::rank_passages(text, query, max)
            .into_iter()
            .filter_map(|p| Passage::from_span(text, p.start, p.end, f64::from(p.score)))
            .collect()
    }

    /// Question-aware candidates from [`sgw_extract::field_candidates`], best
    /// first per field, each with its evidence span and its fit score.
    fn fields(
        &self,
        text: &str,
        query: &str,
        specs: &[FieldSpec],
        as_of: Option<jiff::civil::Date>,
    ) -> Vec<FoundField> {
        let specs: Vec<sgw_extract::FieldSpec> = specs
            .iter()
            .map(|s| sgw_extract::FieldSpec {
                name: s.name.clone(),
                kind: match &s.kind {
                    FieldKind::Date => sgw_extract::FieldKind::Date,
                    FieldKind::Number => sgw_extract::FieldKind::Number,
                    FieldKind::Money => sgw_extract::FieldKind::Money,
                    FieldKind::Percent => sgw_extract::FieldKind::Percent,
                    FieldKind::Text(p) => sgw_extract::FieldKind::Pattern(p.clone()),
                },
            })
            .collect();
        sgw_extract::field_candidates(text, query, &specs, as_of)
            .into_iter()
            .filter(|f| text.get(f.start..f.end) == Some(f.raw.as_str()))
            .map(|f| FoundField {
                name: f.name,
                value: f.value,
                quote: f.raw,
                start: f.start,
                end: f.end,
                score: f.score,
            })
            .collect()
    }
}
