//! Reading a policy file: bytes → YAML (under a budget) → typed policy → checks.

use super::Policy;
use std::fmt;
use std::path::Path;

/// Policies larger than this are refused before parsing.
pub const MAX_POLICY_BYTES: usize = 1 << 20;

/// At most this many problems of one policy are reported (with their lines);
/// the rest are counted in one last entry.
pub const MAX_REPORTED_ERRORS: usize = 50;

/// One problem in a policy file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyError {
    /// The file, when loaded from one.
    pub file: Option<String>,
    /// Where in the document (`providers.search_engine_provider[1].kind`), when known.
    pub path: Option<String>,
    /// 1-based line, when it could be found.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}")?;
            if let Some(line) = self.line {
                write!(f, ":{line}")?;
            }
            write!(f, ": ")?;
        } else if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        if let Some(path) = &self.path {
            write!(f, "{}: ", elided(path, MAX_SHOWN_PATH))?;
        }
        f.write_str(&elided(&self.message, MAX_SHOWN_MESSAGE))
    }
}

/// Characters of a problem's path shown in its report; a longer path (a key
/// made of a long scalar) keeps its head and tail.
const MAX_SHOWN_PATH: usize = 160;
/// Characters of a problem's message shown in its report (a message may
/// quote the offending key or value).
const MAX_SHOWN_MESSAGE: usize = 400;

/// `s` itself when it has at most `max` characters; otherwise its first and
/// last characters around a note of how many were left out, within `max`
/// plus that note.
fn elided(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let Some((head_end, _)) = s.char_indices().nth(max) else {
        return s.into();
    };
    let keep = max / 2;
    let head_end = s.char_indices().nth(keep).map_or(head_end, |(i, _)| i);
    let tail_start = s
        .char_indices()
        .rev()
        .nth(keep.saturating_sub(1))
        .map_or(s.len(), |(i, _)| i)
        .max(head_end);
    let left_out = s[head_end..tail_start].chars().count();
    format!(
        "{} […{left_out} characters left out…] {}",
        &s[..head_end],
        &s[tail_start..]
    )
    .into()
}

/// Every problem found in one policy (never empty).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct PolicyErrors(pub Vec<PolicyError>);

impl fmt::Display for PolicyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl PolicyErrors {
    fn one(
        file: Option<&str>,
        path: Option<String>,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> PolicyErrors {
        PolicyErrors(vec![PolicyError {
            file: file.map(str::to_string),
            path,
            line,
            message: message.into(),
        }])
    }
}

impl Policy {
    /// Reads and validates a policy file. `kinds` are the registered provider
    /// kinds (an unknown `kind:` is an error listing them).
    pub fn load(
        path: &Path,
        kinds: &[&str],
    ) -> Result<(Policy, Vec<super::Warning>), PolicyErrors> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| {
            PolicyErrors::one(
                Some(&name),
                None,
                None,
                format!("cannot read the file: {e}"),
            )
        })?;
        let mut loaded = Policy::from_bytes(&bytes, Some(&name), kinds)?;
        loaded.0.origin = Some(path.to_path_buf());
        Ok(loaded)
    }

    /// Parses and validates policy text (`file` only labels errors).
    pub fn from_bytes(
        bytes: &[u8],
        file: Option<&str>,
        kinds: &[&str],
    ) -> Result<(Policy, Vec<super::Warning>), PolicyErrors> {
        if bytes.len() > MAX_POLICY_BYTES {
            return Err(PolicyErrors::one(
                file,
                None,
                None,
                format!(
                    "the policy is {} bytes; the limit is {MAX_POLICY_BYTES}",
                    bytes.len()
                ),
            ));
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
                + 1;
            PolicyErrors::one(
                file,
                None,
                Some(line),
                format!(
                    "not UTF-8 text (invalid byte at offset {})",
                    e.valid_up_to()
                ),
            )
        })?;
        if text.contains('\0') {
            return Err(PolicyErrors::one(
                file,
                None,
                None,
                "binary data (NUL byte) is not a policy",
            ));
        }
        let value = parse_yaml(text)
            .map_err(|(line, message)| PolicyErrors::one(file, None, line, message))?;
        if !value.is_object() {
            return Err(PolicyErrors::one(
                file,
                None,
                Some(1),
                "a policy is a YAML mapping (key: value lines)",
            ));
        }
        let policy: Policy = serde_path_to_error::deserialize(&value).map_err(|e| {
            let message = e.inner().to_string();
            let path = name_unknown_keys(&value, &e.path().to_string(), &message);
            let path = if path == "." { None } else { Some(path) };
            let line = path.as_deref().and_then(|p| Outline::new(text).locate(p));
            PolicyErrors::one(file, path, line, message)
        })?;
        let warnings = super::validate::validate(&policy, kinds).map_err(|errors| {
            let total = errors.len();
            // Each line lookup reads the file: report (and locate) the first
            // ones only, so a policy with thousands of bad entries fails fast.
            let outline = Outline::new(text);
            let mut reported: Vec<PolicyError> = errors
                .into_iter()
                .take(MAX_REPORTED_ERRORS)
                .map(|(path, message)| PolicyError {
                    file: file.map(str::to_string),
                    line: outline.locate(&path),
                    path: Some(path),
                    message,
                })
                .collect();
            if total > MAX_REPORTED_ERRORS {
                reported.push(PolicyError {
                    file: file.map(str::to_string),
                    path: None,
                    line: None,
                    message: format!(
                        "{} more problems not shown (fix the ones above first)",
                        total - MAX_REPORTED_ERRORS
                    ),
                });
            }
            PolicyErrors(reported)
        })?;
        Ok((policy, warnings))
    }
}

/// YAML → JSON value under a budget (depth, events, aliases), so bombs and
/// deep nesting fail fast.
fn parse_yaml(text: &str) -> Result<serde_json::Value, (Option<usize>, String)> {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = 64;
    budget.max_events = 200_000;
    budget.max_aliases = 1_000;
    budget.max_anchors = 1_000;
    budget.max_documents = 1;
    let mut aliases = serde_saphyr::options::AliasLimits::default();
    aliases.max_total_replayed_events = 100_000;
    aliases.max_replay_stack_depth = 16;
    aliases.max_alias_expansions_per_anchor = 100;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.alias_limits = aliases;
    serde_saphyr::from_str_with_options::<serde_json::Value>(text, options).map_err(|e| {
        let message = e.to_string();
        (
            line_in_message(&message),
            format!("not valid YAML: {message}"),
        )
    })
}

fn line_in_message(message: &str) -> Option<usize> {
    let at = message.find("line ")?;
    message[at + 5..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .ok()
}

/// serde_path_to_error writes `?` for a map key it could not capture (keys
/// that are enums: chain steps, tiers, failure codes). Puts the key back by
/// walking the parsed document: the key whose subtree holds the rest of the
/// path (or, for the last segment, the key the message names).
fn name_unknown_keys(value: &serde_json::Value, path: &str, message: &str) -> String {
    if !path.contains('?') {
        return path.to_string();
    }
    let segments = split_path(path);
    let mut out = String::new();
    let mut node = Some(value);
    for (i, segment) in segments.iter().enumerate() {
        let key = match segment {
            Segment::Index(n) => {
                out.push_str(&format!("[{n}]"));
                node = node.and_then(|v| v.get(n));
                continue;
            }
            Segment::Key(k) if k != "?" => k.clone(),
            Segment::Key(_) => {
                let map = node.and_then(serde_json::Value::as_object);
                let rest = &segments[i + 1..];
                map.and_then(|m| {
                    m.keys()
                        .find(|k| {
                            if rest.is_empty() {
                                message.contains(&format!("`{k}`"))
                            } else {
                                holds(&m[k.as_str()], rest)
                            }
                        })
                        // an unknown field: the last key of the path is the typo itself,
                        // present in the document; a missing one: its parent is.
                        .or_else(|| {
                            m.keys().find(|k| {
                                !rest.is_empty() && holds(&m[k.as_str()], &rest[..rest.len() - 1])
                            })
                        })
                        .or_else(|| (m.len() == 1).then(|| m.keys().next()).flatten())
                        .cloned()
                })
                .unwrap_or_else(|| "?".into())
            }
        };
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(&key);
        node = node.and_then(|v| v.get(&key));
    }
    out
}

/// Whether `value` has the path `rest` (a `?` matches any key).
fn holds(value: &serde_json::Value, rest: &[Segment]) -> bool {
    let Some((first, tail)) = rest.split_first() else {
        return true;
    };
    match first {
        Segment::Key(k) if k == "?" => value
            .as_object()
            .is_some_and(|m| m.values().any(|v| holds(v, tail))),
        Segment::Key(k) => value.get(k).is_some_and(|v| holds(v, tail)),
        Segment::Index(n) => value.get(n).is_some_and(|v| holds(v, tail)),
    }
}

/// Best-effort line of a `a.b[2].c` path in block-style YAML (see
/// [`Outline::locate`]), for one path; [`Outline`] locates many in one text.
#[cfg(test)]
pub(crate) fn locate(text: &str, path: &str) -> Option<usize> {
    Outline::new(text).locate(path)
}

/// A YAML text's lines, each trimmed once: what [`Outline::locate`] reads.
/// Locating the report's errors (up to [`MAX_REPORTED_ERRORS`]) walks these
/// lines once per key; trimming each line anew on every walk made a 50 KB
/// policy of many short lines and many errors take seconds.
pub(crate) struct Outline<'a> {
    lines: Vec<OutlineLine<'a>>,
    /// The longest `keyed` text: no longer key can be on any line.
    longest: usize,
}

struct OutlineLine<'a> {
    /// The line after its leading whitespace.
    stripped: &'a str,
    /// The column of `stripped`.
    indent: usize,
    /// `stripped` after any list dashes (`- `): where a key would start.
    keyed: &'a str,
    /// The column of `keyed`.
    key_indent: usize,
}

impl<'a> Outline<'a> {
    pub(crate) fn new(text: &'a str) -> Outline<'a> {
        let lines = text
            .lines()
            .map(|line| {
                let stripped = line.trim_start();
                let keyed = stripped.trim_start_matches("- ");
                OutlineLine {
                    stripped,
                    indent: line.len() - stripped.len(),
                    keyed,
                    key_indent: line.len() - keyed.len(),
                }
            })
            .collect::<Vec<_>>();
        let longest = lines.iter().map(|l| l.keyed.len()).max().unwrap_or(0);
        Outline { lines, longest }
    }

    /// Best-effort line of a `a.b[2].c` path in block-style YAML: walks the
    /// keys at increasing indentation. A key containing dots
    /// (`sources.irs.gov`) is matched whole; quoted keys are recognised. When
    /// a segment cannot be found (flow style `[a, b]`, a missing key), the
    /// line of the deepest segment found is returned, so every error under a
    /// key that is in the file gets a line.
    pub(crate) fn locate(&self, path: &str) -> Option<usize> {
        let lines = &self.lines;
        let segments = split_path(path);
        let mut from = 0usize;
        let mut min_indent = 0usize;
        let mut found = None;
        let mut s = 0;
        while s < segments.len() {
            match &segments[s] {
                Segment::Key(_) => {
                    // Try the key alone, then joined with the following keys (a key with dots),
                    // as long as the joined key fits on a line: a path of thousands of dots
                    // (a key made of a long multi-line scalar) is not walked once per dot.
                    let mut hit = None;
                    let mut key = String::new();
                    for (j, seg) in segments.iter().enumerate().skip(s) {
                        let Segment::Key(k) = seg else { break };
                        if j > s {
                            key.push('.');
                        }
                        key.push_str(k);
                        if key.len() > self.longest {
                            break;
                        }
                        if let Some(h) = self.find_key(from, min_indent, &key) {
                            hit = Some((h, j));
                            break;
                        }
                    }
                    let Some(((i, indent), last)) = hit else {
                        return found;
                    };
                    found = Some(i + 1);
                    from = i + 1;
                    min_indent = indent + 1;
                    s = last + 1;
                }
                Segment::Index(n) => {
                    let mut seen = 0;
                    let hit = (from..lines.len())
                        .take_while(|i| {
                            // stay inside the parent: stop at a sibling key of it
                            let line = &lines[*i];
                            line.stripped.is_empty()
                                || line.stripped.starts_with('#')
                                || line.indent >= min_indent
                                || (line.stripped.starts_with('-') && line.indent + 1 >= min_indent)
                        })
                        .find_map(|i| {
                            let line = &lines[i];
                            if line.indent + 1 >= min_indent && line.stripped.starts_with('-') {
                                if seen == *n {
                                    return Some((i, line.indent));
                                }
                                seen += 1;
                            }
                            None
                        });
                    let Some((i, indent)) = hit else {
                        return found;
                    };
                    found = Some(i + 1);
                    from = i;
                    min_indent = indent + 2;
                    s += 1;
                }
            }
        }
        found
    }

    /// The line index and key column of `key:` at or below `min_indent`, from line `from`.
    fn find_key(&self, from: usize, min_indent: usize, key: &str) -> Option<(usize, usize)> {
        let double_quoted = format!("\"{key}\"");
        let single_quoted = format!("'{key}'");
        let colon_after = |r: &str| r.trim_start().starts_with(':');
        self.lines
            .get(from..)?
            .iter()
            .enumerate()
            .find_map(|(i, line)| {
                let keyed = line.keyed;
                let key_matches = line.key_indent >= min_indent
                    && (keyed.strip_prefix(key).is_some_and(colon_after)
                        || keyed
                            .strip_prefix(double_quoted.as_str())
                            .is_some_and(colon_after)
                        || keyed
                            .strip_prefix(single_quoted.as_str())
                            .is_some_and(colon_after));
                key_matches.then_some((from + i, line.key_indent))
            })
    }
}

enum Segment {
    Key(String),
    Index(usize),
}

fn split_path(path: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let mut rest = part;
        if let Some(b) = rest.find('[') {
            if b > 0 {
                out.push(Segment::Key(rest[..b].to_string()));
            }
            rest = &rest[b..];
            while let Some(stripped) = rest.strip_prefix('[') {
                let close = stripped.find(']').unwrap_or(stripped.len());
                if let Ok(n) = stripped[..close].parse() {
                    out.push(Segment::Index(n));
                }
                rest = stripped.get(close + 1..).unwrap_or("");
            }
        } else if !rest.is_empty() {
            out.push(Segment::Key(rest.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{MAX_REPORTED_ERRORS, Policy, elided, locate};

    #[test]
    fn thousands_of_bad_entries_report_the_first_ones_and_count_the_rest() {
        // Each reported problem is located by reading the file, so reporting
        // all of them made a 55 KB policy of 2 000 bad entries take seconds
        // (a fuzz timeout): the report stops at MAX_REPORTED_ERRORS.
        let mut yaml = String::from(
            "version: 1\nname: many\nfallback_chain: [search_engine_provider]\nproviders:\n  search_engine_provider:\n",
        );
        for _ in 0..2_000 {
            yaml.push_str("    - kind: no-such-kind\n");
        }
        let errors = Policy::from_bytes(yaml.as_bytes(), Some("many.yaml"), &["searxng"])
            .expect_err("unknown kinds are errors")
            .0;
        assert_eq!(errors.len(), MAX_REPORTED_ERRORS + 1);
        assert_eq!(errors[0].line, Some(6), "{}", errors[0]);
        let last = errors.last().unwrap();
        assert!(last.path.is_none() && last.line.is_none(), "{last}");
        assert!(last.message.contains("more problems not shown"), "{last}");
        let shown_and_counted: usize = last
            .message
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("the count of the rest");
        assert!(shown_and_counted + MAX_REPORTED_ERRORS >= 2_000, "{last}");
    }

    #[test]
    fn a_path_of_many_dots_is_located_without_a_walk_per_dot() {
        // A flow mapping whose key is a multi-line plain scalar of thousands
        // of `x.` lines: its error path has thousands of segments. Joining
        // them one by one, each join a walk over every line, took seconds
        // (a fuzz timeout); a joined key longer than any line is not tried.
        let mut yaml = String::from("version: 1\ntiering:\n  - { domain:.\n");
        for _ in 0..20_000 {
            yaml.push_str("x.\n");
        }
        let path = format!("tiering[0].domain:{}", ". x".repeat(20_000));
        assert_eq!(locate(&yaml, &path), Some(3));
        assert_eq!(locate(&yaml, "tiering[0]"), Some(3));
    }

    #[test]
    fn a_report_shows_a_key_of_thousands_of_lines_by_its_head_and_tail() {
        // The fuzz find above: the path and serde's message both quote the
        // key, and the report printed 94 KB. It names the field all the same.
        let yaml = include_str!("../../../../fuzz/seeds/policy-key-of-many-dots.yaml");
        let errors = Policy::from_bytes(yaml.as_bytes(), Some("dots.yaml"), &[])
            .expect_err("an unknown key")
            .0;
        let shown = errors[0].to_string();
        assert!(shown.len() < 1_000, "{} bytes: {shown}", shown.len());
        assert!(
            shown.starts_with("dots.yaml:47: tiering[6].domain:. pr. pr."),
            "{shown}"
        );
        assert!(shown.contains("characters left out"), "{shown}");
        // The full path stays in the error for a program to read.
        assert!(errors[0].path.as_ref().is_some_and(|p| p.len() > 10_000));
    }

    #[test]
    fn eliding_keeps_short_texts_and_cuts_long_ones_on_characters() {
        assert_eq!(elided("tiering[0].domain", 160), "tiering[0].domain");
        assert_eq!(elided(&"é".repeat(10), 10), "é".repeat(10));
        let long = format!("{}{}", "ü".repeat(300), "ß".repeat(300));
        let cut = elided(&long, 100);
        assert!(cut.starts_with(&"ü".repeat(50)), "{cut}");
        assert!(cut.ends_with(&"ß".repeat(50)), "{cut}");
        assert!(cut.contains("[…500 characters left out…]"), "{cut}");
    }

    #[test]
    fn locate_finds_nested_keys_and_list_items() {
        let yaml = "version: 1\nproviders:\n  search_engine_provider:\n    - kind: a\n    - kind: b\n      timeout_ms: 5\nexecution:\n  deadline_ms: 3\n";
        assert_eq!(
            locate(yaml, "providers.search_engine_provider[1].kind"),
            Some(5)
        );
        assert_eq!(
            locate(yaml, "providers.search_engine_provider[1].timeout_ms"),
            Some(6)
        );
        assert_eq!(locate(yaml, "execution.deadline_ms"), Some(8));
        assert_eq!(locate(yaml, "nothing.here"), None);
    }
}
