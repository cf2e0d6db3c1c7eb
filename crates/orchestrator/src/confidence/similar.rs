//! Near-duplicate texts: one wire story under several bylines counts once.
//!
//! Texts are compared by their sets of word 5-shingles (hashed): two texts are
//! near-duplicates when at least half of the smaller set is in the other
//! (overlap coefficient ≥ 0.5), so a story republished with a different
//! headline, byline or footer still matches. Texts with fewer than
//! [`MIN_SHINGLES`] shingles are too short to judge and never match.

use std::borrow::Cow;
use std::collections::HashSet;

/// Words per shingle.
const K: usize = 5;
/// Shorter texts are never called duplicates.
pub(crate) const MIN_SHINGLES: usize = 8;
/// Words read per text at most (bounded work on huge pages).
const MAX_WORDS: usize = 20_000;
/// Overlap coefficient from which two texts are one.
const THRESHOLD: f64 = 0.5;

/// The hashed shingles of a text.
pub(crate) fn shingles(text: &str) -> HashSet<u64> {
    let words: Vec<Cow<'_, str>> = sgw_text::terms(text).take(MAX_WORDS).collect();
    words.windows(K).map(fnv1a).collect()
}

fn fnv1a(words: &[Cow<'_, str>]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.bytes().chain(std::iter::once(b' ')) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// True when two shingle sets are near-duplicates.
pub(crate) fn near_duplicate(a: &HashSet<u64>, b: &HashSet<u64>) -> bool {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if small.len() < MIN_SHINGLES {
        return false;
    }
    let common = small.iter().filter(|s| large.contains(s)).count();
    common as f64 / small.len() as f64 >= THRESHOLD
}

#[cfg(test)]
mod tests {
    use super::*;

    const STORY: &str = "The central bank kept its policy interest rate at 4.5 percent on Thursday, \
        citing easing inflation and a stable labour market, and said it would review the rate \
        again at its next meeting in six weeks.";

    #[test]
    fn a_republished_story_is_a_near_duplicate() {
        let a = shingles(&format!(
            "Daily Courier. By Ann Lee. {STORY} Subscribe now."
        ));
        let b = shingles(&format!(
            "Evening Post — Business. Reuters staff. {STORY} Related: markets today."
        ));
        assert!(near_duplicate(&a, &b));
    }

    #[test]
    fn different_reports_of_one_fact_are_not() {
        let a = shingles(STORY);
        let b = shingles(
            "Rates unchanged: policymakers voted to hold the benchmark at 4.5 percent, a decision \
             most economists polled last week had expected given slowing price growth.",
        );
        assert!(!near_duplicate(&a, &b));
        assert!(
            !near_duplicate(&shingles("rate 4.5"), &shingles("rate 4.5")),
            "too short"
        );
    }
}
