//! Pure renderers: typed values in, strings out. No I/O.

use crate::model::*;
use crate::store::{Scanned, Session};
use jiff::Timestamp;

/// Render an aligned table: a header row, then rows; columns separated by two
/// spaces, every line indented by `indent`, the last column left ragged.
pub fn table(indent: usize, headers: &[&str], rows: &[Vec<String>]) -> String {
    let cols = headers.len();
    let mut widths: Vec<usize> = headers.iter().map(|h| width(h)).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate().take(cols) {
            widths[i] = widths[i].max(width(cell));
        }
    }
    let mut out = String::new();
    let mut line = |cells: Vec<&str>| {
        let mut s = " ".repeat(indent);
        for (i, cell) in cells.iter().enumerate() {
            s.push_str(cell);
            if i + 1 < cells.len() {
                s.push_str(&" ".repeat(widths[i] - width(cell) + 2));
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(headers.to_vec());
    for row in rows {
        line(row.iter().map(String::as_str).collect());
    }
    out
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Shorten to at most `max` characters, ending with `…` when cut. Newlines become spaces.
pub fn clip(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if width(&flat) <= max {
        return flat;
    }
    let mut out: String = flat.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `2026-05-01 10:00 UTC`.
pub fn when(t: Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn heading(out: &mut String, title: &str, detail: &str) {
    out.push('\n');
    if detail.is_empty() {
        out.push_str(title);
    } else {
        out.push_str(&format!("{title}  ·  {detail}"));
    }
    out.push('\n');
}

/// The manifest block that opens `show` and `run`.
pub fn manifest(m: &Manifest) -> String {
    let mut rows: Vec<(&str, String)> = vec![
        ("Question", m.question.clone()),
        ("Intent", m.intent.clone().unwrap_or_else(|| "—".into())),
        ("Status", m.status.to_string()),
        (
            "Mode",
            format!(
                "{}  ({}, verification {})",
                m.mode,
                plural(
                    m.mode.deepening_rounds() as usize,
                    "deepening round",
                    "deepening rounds"
                ),
                m.mode.verification_tier()
            ),
        ),
        ("Gate policy", m.gate_policy.to_string()),
        ("Output", m.output.to_string()),
        (
            "Budget",
            format!(
                "{}, {} per searcher",
                plural(
                    m.budget.max_sub_questions as usize,
                    "sub-question",
                    "sub-questions"
                ),
                plural(m.budget.tool_call_cap as usize, "tool call", "tool calls")
            ),
        ),
        ("Created", when(m.created_at)),
        ("Updated", when(m.updated_at)),
    ];
    for (i, a) in m.assumptions.iter().enumerate() {
        rows.push((if i == 0 { "Assumptions" } else { "" }, format!("• {a}")));
    }
    let label_width = rows.iter().map(|(l, _)| width(l)).max().unwrap_or(0);
    let mut out = format!("Research session {}\n", m.session_id);
    for (label, value) in rows {
        out.push_str(&format!("  {label:<label_width$}  {value}\n"));
    }
    out
}

/// The plan section.
pub fn plan(p: &Plan) -> String {
    let mut out = String::new();
    heading(
        &mut out,
        "Plan",
        &format!(
            "{} · {} · verification {}",
            plural(p.sub_questions.len(), "sub-question", "sub-questions"),
            plural(
                p.deepening_rounds as usize,
                "deepening round",
                "deepening rounds"
            ),
            p.verification_tier
        ),
    );
    if p.sub_questions.is_empty() {
        out.push_str("  (no sub-questions yet — add them with `research plan <id> --add \"…\"`)\n");
        return out;
    }
    let rows: Vec<Vec<String>> = p
        .sub_questions
        .iter()
        .map(|sq| {
            let deps = if sq.depends_on.is_empty() {
                "—".to_string()
            } else {
                sq.depends_on.join(", ")
            };
            vec![sq.id.clone(), deps, clip(&sq.text, 90)]
        })
        .collect();
    out.push_str(&table(2, &["ID", "DEPENDS ON", "SUB-QUESTION"], &rows));
    out
}

/// `show`: manifest, plan, findings, sources, gates.
pub fn session(s: &Session) -> String {
    let mut out = manifest(&s.manifest);
    out.push_str(&plan(&s.plan));

    // Findings: one row per sub-question in plan order, then any orphan findings.
    let with = s.findings.len();
    heading(
        &mut out,
        "Findings",
        &format!(
            "{with} of {}",
            plural(s.plan.sub_questions.len(), "sub-question", "sub-questions")
        ),
    );
    let mut ids: Vec<&str> = s
        .plan
        .sub_questions
        .iter()
        .map(|sq| sq.id.as_str())
        .collect();
    for f in &s.findings {
        if !ids.contains(&f.sub_question_id.as_str()) {
            ids.push(&f.sub_question_id);
        }
    }
    if ids.is_empty() {
        out.push_str("  (none)\n");
    } else {
        let rows: Vec<Vec<String>> = ids
            .iter()
            .map(
                |id| match s.findings.iter().find(|f| f.sub_question_id == *id) {
                    None => {
                        let mut row = vec![id.to_string()];
                        row.extend(std::iter::repeat_n("—".to_string(), 5));
                        row.push("(no finding yet)".into());
                        row
                    }
                    Some(f) => {
                        let by = |v: Verdict| f.claims.iter().filter(|c| c.verdict == v).count();
                        let votes = |v: VoteValue| {
                            f.claims
                                .iter()
                                .flat_map(|c| &c.votes)
                                .filter(|x| x.vote == v)
                                .count()
                        };
                        vec![
                            id.to_string(),
                            f.confidence.to_string(),
                            f.claims.len().to_string(),
                            f.unsourced_claims.to_string(),
                            format!(
                                "{}/{}/{}",
                                by(Verdict::Verified),
                                by(Verdict::Refuted),
                                by(Verdict::Unverified)
                            ),
                            format!(
                                "{}/{}/{}",
                                votes(VoteValue::Supports),
                                votes(VoteValue::Refutes),
                                votes(VoteValue::Abstain)
                            ),
                            if f.is_unsourced() {
                                "UNSOURCED".into()
                            } else {
                                String::new()
                            },
                        ]
                    }
                },
            )
            .collect();
        out.push_str(&table(
            2,
            &[
                "SUB-Q",
                "CONFIDENCE",
                "CLAIMS",
                "UNSOURCED",
                "VERIFIED/REFUTED/OPEN",
                "VOTES +/-/?",
                "FLAG",
            ],
            &rows,
        ));
    }

    let primary = s
        .sources
        .iter()
        .filter(|x| x.source_quality == SourceQuality::Primary)
        .count();
    heading(
        &mut out,
        "Sources",
        &if s.sources.is_empty() {
            String::new()
        } else {
            format!("{} ({primary} primary)", s.sources.len())
        },
    );
    if s.sources.is_empty() {
        out.push_str("  (none)\n");
    } else {
        let rows: Vec<Vec<String>> = s
            .sources
            .iter()
            .map(|x| {
                vec![
                    x.source_id.clone(),
                    x.source_quality.to_string(),
                    clip(
                        if x.title.is_empty() {
                            "(untitled)"
                        } else {
                            &x.title
                        },
                        48,
                    ),
                    clip(&x.url, 70),
                ]
            })
            .collect();
        out.push_str(&table(2, &["ID", "QUALITY", "TITLE", "URL"], &rows));
    }

    heading(&mut out, "Gates", &gate_summary(&s.gates));
    if s.gates.is_empty() {
        out.push_str("  (none)\n");
    } else {
        let rows: Vec<Vec<String>> = s.gates.iter().map(|g| gate_row(None, g)).collect();
        out.push_str(&table(2, &GATE_HEADERS[1..], &rows));
    }
    out
}

fn gate_summary(gates: &[Gate]) -> String {
    if gates.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = GateStatus::ALL
        .iter()
        .filter_map(|st| {
            let n = gates.iter().filter(|g| g.status == *st).count();
            (n > 0).then(|| format!("{n} {st}"))
        })
        .collect();
    format!("{} ({})", gates.len(), parts.join(", "))
}

const GATE_HEADERS: [&str; 7] = [
    "SESSION",
    "GATE",
    "STATUS",
    "TYPE",
    "SUB-Q",
    "URL",
    "WHAT IS NEEDED",
];

fn gate_row(session: Option<&str>, g: &Gate) -> Vec<String> {
    let mut row = Vec::new();
    if let Some(s) = session {
        row.push(s.to_string());
    }
    row.extend([
        g.gate_id.clone(),
        g.status.to_string(),
        clip(&g.gate_type, 16),
        g.sub_question_id.clone().unwrap_or_else(|| "—".into()),
        clip(&g.url, 60),
        clip(&g.what_is_needed, 60),
    ]);
    row
}

/// `gates --list` / `--retry` / `--append` table.
pub fn gates(rows: &[(String, Gate)]) -> String {
    if rows.is_empty() {
        return "no gates\n".into();
    }
    let rows: Vec<Vec<String>> = rows.iter().map(|(s, g)| gate_row(Some(s), g)).collect();
    table(0, &GATE_HEADERS, &rows)
}

/// `list` table. Malformed session directories get a `MALFORMED` row.
pub fn list(entries: &[&Scanned]) -> String {
    if entries.is_empty() {
        return "no sessions\n".into();
    }
    let rows: Vec<Vec<String>> = entries
        .iter()
        .map(|e| match &e.manifest {
            Ok(m) => vec![
                m.session_id.clone(),
                m.status.to_string(),
                m.mode.to_string(),
                when(m.created_at),
                clip(&m.question, 70),
            ],
            Err(err) => {
                let why = match err {
                    crate::Error::Malformed { path, reason } => {
                        let file = path
                            .file_name()
                            .map(|f| f.to_string_lossy().into_owned())
                            .unwrap_or_default();
                        if file == e.dir_name {
                            reason.clone()
                        } else {
                            format!("{file}: {reason}")
                        }
                    }
                    other => other.to_string(),
                };
                vec![
                    e.dir_name.clone(),
                    "MALFORMED".into(),
                    "—".into(),
                    "—".into(),
                    clip(&why, 90),
                ]
            }
        })
        .collect();
    table(
        0,
        &["SESSION", "STATUS", "MODE", "CREATED", "QUESTION"],
        &rows,
    )
}
