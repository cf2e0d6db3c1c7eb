//! Relevance of a piece of evidence to the query: the query's key terms and
//! the share of them a title or text contains.
//!
//! Words and stop words are the gateway's one definition ([`sgw_text`]).
//! Linear in the text, and mostly a substring search ([`TermFinder`]): only
//! words with non-ASCII characters are normalized one by one; the search
//! stops as soon as every term has been seen.

use sgw_contract::Evidence;
use sgw_text::{TermFinder, is_stop_word};
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// The query's key terms: normalized words that are not stop words.
pub(crate) fn key_terms(query: &str) -> BTreeSet<String> {
    sgw_text::terms(query)
        .filter(|w| !is_stop_word(w))
        .map(|w| w.into_owned())
        .collect()
}

/// Share of the query's key terms present in the title or text (1 when the query has none).
///
/// The title is searched first, then the text, and the search stops as soon
/// as every term has been seen.
pub(crate) fn relevance(terms: &BTreeSet<String>, evidence: &Evidence) -> f64 {
    if terms.is_empty() {
        return 1.0;
    }
    let finder = TermFinder::new(terms);
    let mut seen = vec![false; finder.terms().len()];
    let mut found = 0;
    for part in [&evidence.title, &evidence.text] {
        finder.for_each(part, |i, _| {
            if !seen[i] {
                seen[i] = true;
                found += 1;
            }
            if found == seen.len() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if found == seen.len() {
            break;
        }
    }
    found as f64 / seen.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use url::Url;

    fn evidence(title: &str, text: &str) -> Evidence {
        Evidence::new(
            Url::parse("https://example.com/").unwrap(),
            title,
            text,
            "html",
        )
    }

    /// The definition: collect the haystack's normalized words, count the terms.
    fn reference(terms: &BTreeSet<String>, e: &Evidence) -> f64 {
        if terms.is_empty() {
            return 1.0;
        }
        let haystack = format!("{} {}", e.title, e.text);
        let words: BTreeSet<String> = sgw_text::terms(&haystack).map(|w| w.into_owned()).collect();
        let hits = terms.iter().filter(|t| words.contains(t.as_str())).count();
        hits as f64 / terms.len() as f64
    }

    #[test]
    fn share_of_terms_found_in_title_or_text() {
        let terms = key_terms("What is the VAT rate in Freedonia?");
        assert_eq!(
            terms.iter().map(String::as_str).collect::<Vec<_>>(),
            ["freedonia", "rate", "vat"]
        );
        let e = evidence("Freedonia tax office", "The standard VAT-rate is 20 %.");
        assert_eq!(relevance(&terms, &e), 1.0);
        let e = evidence("Freedonia", "Nothing about taxes.");
        assert!((relevance(&terms, &e) - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(relevance(&BTreeSet::new(), &e), 1.0);
    }

    #[test]
    fn non_ascii_words_are_normalized_like_the_query() {
        let terms = key_terms("Straße ＶＡＴ café");
        let e = evidence("", "STRASSE? no: STRAßE, ｖａｔ and CAFÉ.");
        assert_eq!(relevance(&terms, &e), reference(&terms, &e));
        assert_eq!(relevance(&terms, &e), 1.0);
        // A combining accent after a plain letter composes (NFKC) to the query's é.
        let e = evidence("", "cafe\u{301} strasse vat");
        assert_eq!(relevance(&terms, &e), reference(&terms, &e));
    }

    proptest! {
        #[test]
        fn equals_the_definition(
            query in "[a-zA-Zé ßΣς①½¨\u{301}]{0,24}",
            title in "[a-zA-Z0-9é ßΣς①½¨\u{301}\\-.]{0,24}",
            text in "[a-zA-Z0-9é ßΣς①½¨\u{301}\\-.\n]{0,200}",
        ) {
            let terms = key_terms(&query);
            let e = evidence(&title, &text);
            prop_assert_eq!(relevance(&terms, &e), reference(&terms, &e));
        }
    }
}
