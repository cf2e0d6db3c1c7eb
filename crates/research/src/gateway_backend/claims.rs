//! Claims for the extractor brief, done mechanically over stored evidence texts:
//! each source's checkable statements ([`sgw_extract::checkable_statements`]:
//! sentences of its best passages for the sub-question that state a number, a
//! date, a percentage or a definition) are picked per source, best source first,
//! and classed central / supporting / incidental. Every quote is a verbatim span
//! of its source's text.

use crate::backend::ExtractRequest;
use crate::gateway::{EvidenceTexts, ExtractedClaim, Extraction};
use crate::model::{Importance, SourceQuality};
use sgw_extract::{Statement, checkable_statements};
use std::collections::{HashMap, HashSet};

/// Claims one automatic extraction emits at most.
pub const MAX_CLAIMS: usize = 8;
/// Claims taken from one source at most.
const MAX_CLAIMS_PER_SOURCE: usize = 3;
/// Central claims (from the best source) at most.
const MAX_CENTRAL: usize = 2;
/// Passages of one evidence text considered.
const PASSAGES_PER_SOURCE: usize = 4;

/// A statement of one source (by index into the request's sources).
struct Candidate {
    source: usize,
    statement: Statement,
}

fn quality_rank(q: SourceQuality) -> u8 {
    match q {
        SourceQuality::Primary => 3,
        SourceQuality::Secondary => 2,
        SourceQuality::Low | SourceQuality::UserSupplied => 1,
    }
}

/// `text` on one line (whitespace runs become one space), cut at `max_chars`.
pub(crate) fn one_line(text: &str, max_chars: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > max_chars {
        format!("{}…", flat.chars().take(max_chars).collect::<String>())
    } else {
        flat
    }
}

/// The extractor brief, done mechanically over the stored evidence texts (see the
/// module doc). Every quote is a verbatim span of its source's text.
pub fn extract_claims(request: &ExtractRequest<'_>, texts: &dyn EvidenceTexts) -> Extraction {
    let mut notes = Vec::new();
    let mut loaded: Vec<(usize, String)> = Vec::new();
    for (i, s) in request.sources.iter().enumerate() {
        match s.evidence_id.as_deref().and_then(|e| texts.text(e)) {
            Some(t) if !t.trim().is_empty() => loaded.push((i, t)),
            _ => notes.push(format!(
                "{} ({}) skipped: no stored evidence text",
                s.source_id, s.url
            )),
        }
    }
    // Candidates per source, best first.
    let mut per_source: Vec<(usize, Vec<Candidate>)> = loaded
        .iter()
        .map(|(i, text)| {
            let statements =
                checkable_statements(text, request.sub_question_text, PASSAGES_PER_SOURCE);
            let candidates = statements
                .into_iter()
                .map(|statement| Candidate {
                    source: *i,
                    statement,
                })
                .collect();
            (*i, candidates)
        })
        .collect();
    // Best source first: quality, then its best sentence.
    per_source.sort_by(|a, b| {
        let qa = quality_rank(request.sources[a.0].source_quality);
        let qb = quality_rank(request.sources[b.0].source_quality);
        let sa = a.1.first().map(|c| c.statement.score).unwrap_or(0.0);
        let sb = b.1.first().map(|c| c.statement.score).unwrap_or(0.0);
        qb.cmp(&qa).then(sb.total_cmp(&sa)).then(a.0.cmp(&b.0))
    });
    let text_of: HashMap<usize, &str> = loaded.iter().map(|(i, t)| (*i, t.as_str())).collect();
    let mut chosen: Vec<(Candidate, Importance)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (rank, (_, cands)) in per_source.into_iter().enumerate() {
        let mut taken = 0;
        for c in cands {
            if taken == MAX_CLAIMS_PER_SOURCE || chosen.len() == MAX_CLAIMS {
                break;
            }
            let flat = one_line(
                &text_of[&c.source][c.statement.start..c.statement.end],
                usize::MAX,
            )
            .to_lowercase();
            if !seen.insert(flat) {
                continue; // the same statement from a weaker source: one claim is enough
            }
            let importance = if rank == 0 && taken < MAX_CENTRAL {
                Importance::Central
            } else if chosen.iter().any(|(central, imp)| {
                *imp == Importance::Central
                    && c.source != central.source
                    && c.statement.corroborates(&central.statement)
            }) {
                Importance::Supporting
            } else {
                Importance::Incidental
            };
            chosen.push((c, importance));
            taken += 1;
        }
    }
    let claims: Vec<ExtractedClaim> = chosen
        .iter()
        .enumerate()
        .map(|(n, (c, importance))| {
            let src = &request.sources[c.source];
            let quote = &text_of[&c.source][c.statement.start..c.statement.end];
            ExtractedClaim {
                claim_id: format!("c-{}", n + 1),
                text: one_line(quote, usize::MAX),
                quote: quote.to_string(),
                source_id: src.source_id.clone(),
                importance: *importance,
                source_quality: Some(src.source_quality),
            }
        })
        .collect();
    let summary = claims
        .iter()
        .filter(|c| c.importance == Importance::Central)
        .map(|c| c.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let mut all_notes = vec![format!(
        "Extracted by the search gateway from {} of {} source(s): BM25 passages ranked against the sub-question, sentences stating a number, date, percentage or definition; quotes verbatim.",
        loaded.len(),
        request.sources.len()
    )];
    if claims.is_empty() {
        all_notes.push(
            "No sentence of the sources states a checkable fact matching the sub-question (off-topic, too thin, or all gated).".into(),
        );
    }
    all_notes.extend(notes);
    Extraction {
        sub_question_id: request.sub_question_id.to_string(),
        claims,
        unsourced_claims: 0,
        notes: all_notes.join(" "),
        summary: one_line(&summary, 600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;

    fn source(id: &str, ev: &str, quality: SourceQuality) -> Source {
        serde_json::from_value(serde_json::json!({
            "sourceId": id,
            "subQuestionId": "sq-1",
            "url": format!("https://{id}.example/page"),
            "title": id,
            "kind": "web",
            "sourceQuality": quality,
            "snippet": "",
            "evidenceId": ev,
            "retrievedAt": "2026-03-02T10:00:00Z",
        }))
        .unwrap()
    }

    #[test]
    fn claims_are_verbatim_ranked_and_classified() {
        let official = "Policy interest rate\n\nThe policy interest rate is 4.50% from 1 March 2026. \
            The committee meets in the capital.\n\nEarlier decisions are archived.";
        let news = "Markets moved.\n\nThe central bank set the policy interest rate at 4.50% on Friday. \
            Analysts had expected a hold on the interest rate for another quarter of 2026.";
        let off_topic = "Gardening tips: water 2 times a week.";
        let texts = HashMap::from([
            ("ev-a".to_string(), news.to_string()),
            ("ev-b".to_string(), official.to_string()),
            ("ev-c".to_string(), off_topic.to_string()),
        ]);
        let sources = [
            source("s1-1", "ev-a", SourceQuality::Secondary),
            source("s1-2", "ev-b", SourceQuality::Primary),
            source("s1-3", "ev-c", SourceQuality::Low),
            source("s1-4", "ev-missing", SourceQuality::Low),
        ];
        let req = ExtractRequest {
            sub_question_id: "sq-1",
            sub_question_text: "What is the policy interest rate?",
            sources: &sources,
        };
        let ex = extract_claims(&req, &texts);
        assert_eq!(ex.sub_question_id, "sq-1");
        assert_eq!(ex.unsourced_claims, 0);
        assert!(!ex.claims.is_empty());
        for c in &ex.claims {
            let src = sources.iter().find(|s| s.source_id == c.source_id).unwrap();
            let text = &texts[src.evidence_id.as_deref().unwrap()];
            assert!(text.contains(&c.quote), "{c:?}");
        }
        // The primary source wins the central claim, with the number in it.
        let first = &ex.claims[0];
        assert_eq!(first.source_id, "s1-2");
        assert_eq!(first.importance, Importance::Central);
        assert_eq!(first.source_quality, Some(SourceQuality::Primary));
        assert!(first.quote.contains("4.50%"));
        // The newspaper states the same value: supporting.
        let news_claim = ex.claims.iter().find(|c| c.source_id == "s1-1").unwrap();
        assert_eq!(news_claim.importance, Importance::Supporting);
        // No checkable fact or off-topic: not a claim; the missing text is a note.
        assert!(
            ex.claims
                .iter()
                .all(|c| !c.quote.contains("committee meets"))
        );
        assert!(ex.claims.iter().all(|c| c.source_id != "s1-3"));
        assert!(ex.notes.contains("s1-4"), "{}", ex.notes);
        assert!(ex.summary.contains("4.50%"));
    }

    #[test]
    fn nothing_checkable_is_an_empty_honest_return() {
        let texts = HashMap::from([(
            "ev-a".to_string(),
            "The rate question is discussed at length here without any figures.".to_string(),
        )]);
        let sources = [source("s1-1", "ev-a", SourceQuality::Primary)];
        let req = ExtractRequest {
            sub_question_id: "sq-1",
            sub_question_text: "policy rate",
            sources: &sources,
        };
        let ex = extract_claims(&req, &texts);
        assert!(ex.claims.is_empty());
        assert!(ex.notes.contains("No sentence"), "{}", ex.notes);
    }

    /// Random texts (multi-byte letters, digits, sentence ends, line breaks): no panic,
    /// every quote a verbatim span of its source, ids and counts within bounds.
    #[test]
    fn arbitrary_texts_never_panic_and_quotes_stay_verbatim() {
        for (round, text) in sgw_testkit::hostile::random_texts(300)
            .into_iter()
            .enumerate()
        {
            let texts = HashMap::from([("ev-a".to_string(), text.clone())]);
            let sources = [source("s1-1", "ev-a", SourceQuality::Low)];
            let req = ExtractRequest {
                sub_question_id: "sq-1",
                sub_question_text: "what is the policy rate 2026",
                sources: &sources,
            };
            let ex = extract_claims(&req, &texts);
            assert!(ex.claims.len() <= MAX_CLAIMS, "round {round}");
            for c in &ex.claims {
                assert!(text.contains(&c.quote), "round {round}: {c:?}");
                assert!(!c.quote.trim().is_empty());
            }
        }
    }
}
