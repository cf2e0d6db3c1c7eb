//! Knowledge-library promotion on `mark done`: the session's verbatim `answer.md`
//! becomes `operator/knowledge/research/<sessionId>-<slug>.md` with front matter.
//!
//! Rendering is pure ([`render`]); the one write goes through
//! [`Store::place_knowledge_doc`]. Promotion never fails `mark`: every problem comes
//! back as a [`Promotion`] the CLI prints as a note.

use crate::model::*;
use crate::store::{Placed, Session, Store};
use jiff::Timestamp;
use std::path::PathBuf;

/// What promotion did.
#[derive(Debug)]
pub enum Promotion {
    /// Written to this path.
    Promoted(PathBuf),
    /// The deterministic target already existed: nothing to do.
    AlreadyPromoted(PathBuf),
    /// Light sessions are never promoted (silent).
    SkippedLight,
    /// `--no-promote`.
    SkippedByFlag,
    /// The session has no `answer.md`.
    NoAnswer,
    /// Something went wrong; the status change stands.
    Failed(String),
}

/// `<slug>` of the target file: the question's words transliterated to lowercase
/// ASCII (`déjà vu` → `deja-vu`, `Straße` → `strasse`), dash-joined, ≤ 60 chars.
pub fn slug(question: &str) -> String {
    let ascii = transliterate(question);
    let mut out = String::new();
    for word in ascii
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() && out.len() + 1 + word.len() > 60 {
            break;
        }
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word[..word.len().min(60)]);
    }
    if out.is_empty() {
        "session".to_string()
    } else {
        out
    }
}

/// Lowercase ASCII for Latin letters: accents dropped (canonical decomposition
/// without its combining marks), ligatures and letters without a decomposition
/// spelled out; every other character becomes a space.
fn transliterate(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    let mut out = String::with_capacity(text.len());
    for c in text.nfd().filter(|c| !is_combining_mark(*c)) {
        let spelled = match c {
            'ß' => "ss",
            'æ' | 'Æ' => "ae",
            'œ' | 'Œ' => "oe",
            'ø' | 'Ø' => "o",
            'đ' | 'Đ' | 'ð' | 'Ð' => "d",
            'ł' | 'Ł' => "l",
            'þ' | 'Þ' => "th",
            'ı' => "i",
            c if c.is_ascii_alphanumeric() => {
                out.push(c.to_ascii_lowercase());
                continue;
            }
            _ => " ",
        };
        out.push_str(spelled);
    }
    out
}

/// The target file name for a session.
pub fn file_name(m: &Manifest) -> String {
    format!("{}-{}.md", m.session_id, slug(&m.question))
}

fn yaml_str(s: &str) -> String {
    // A JSON string is a valid YAML double-quoted scalar.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Render the promoted document (front matter, `#` H1 of the question, then the
/// answer byte for byte: nothing is added to or trimmed from `answer.md`).
pub fn render(session: &Session, answer: &str, date: Timestamp) -> String {
    let m = &session.manifest;
    let claims = session.findings.iter().flat_map(|f| &f.claims);
    let count = |v: Verdict| claims.clone().filter(|c| c.verdict == v).count();
    let description = match &m.intent {
        Some(intent) => format!("Research ({} mode): {intent}", m.mode),
        None => format!("Research ({} mode) answering: {}", m.mode, m.question),
    };
    let name = file_name(m);
    let mut out = String::new();
    out.push_str("---\n");
    out.push_str(&format!(
        "name: {}\n",
        yaml_str(name.trim_end_matches(".md"))
    ));
    out.push_str(&format!("title: {}\n", yaml_str(&m.question)));
    out.push_str(&format!("description: {}\n", yaml_str(&description)));
    out.push_str("domain: research\n");
    out.push_str("type: research-session\n");
    out.push_str(&format!("mode: {}\n", m.mode));
    out.push_str(&format!("sessionId: {}\n", m.session_id));
    out.push_str(&format!("date: {}\n", date.strftime("%Y-%m-%d")));
    out.push_str(&format!("sourceCount: {}\n", session.sources.len()));
    out.push_str(&format!("verifiedCount: {}\n", count(Verdict::Verified)));
    out.push_str(&format!("refutedCount: {}\n", count(Verdict::Refuted)));
    out.push_str(&format!(
        "unverifiedCount: {}\n",
        count(Verdict::Unverified)
    ));
    out.push_str(&format!("gatedCount: {}\n", session.gates.len()));
    out.push_str("---\n\n");
    out.push_str(&format!("# {}\n\n", m.question.replace('\n', " ")));
    out.push_str(answer);
    out
}

/// Promote session `id` (already `done` on disk). `skip` is `--no-promote`.
pub fn promote(store: &Store, id: &str, skip: bool, now: Timestamp) -> Promotion {
    let session = match store.load(id) {
        Ok(s) => s,
        Err(e) => return Promotion::Failed(e.to_string()),
    };
    if !session.manifest.mode.promotes() {
        return Promotion::SkippedLight;
    }
    if skip {
        return Promotion::SkippedByFlag;
    }
    let answer = match store.read_answer(id) {
        Ok(Some(a)) => a,
        Ok(None) => return Promotion::NoAnswer,
        Err(e) => return Promotion::Failed(e.to_string()),
    };
    let doc = render(&session, &answer, now);
    match store.place_knowledge_doc(&file_name(&session.manifest), &doc) {
        Ok(Placed::Written(p)) => Promotion::Promoted(p),
        Ok(Placed::AlreadyThere(p)) => Promotion::AlreadyPromoted(p),
        Err(e) => Promotion::Failed(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn slugs_transliterate_latin_letters() {
        assert_eq!(slug("Déjà vu?"), "deja-vu");
        assert_eq!(slug("Straße, Ærø & Łódź"), "strasse-aero-lodz");
        assert_eq!(slug("naïve café crème brûlée"), "naive-cafe-creme-brulee");
        assert_eq!(slug("日本語"), "session");
        assert_eq!(slug("Rust 1.80 vs Go"), "rust-1-80-vs-go");
    }
}
