//! Reference files shipped with the tool and compiled into it: the JSON Schemas of the
//! five artifacts and the worker briefs. `research paths` writes them out (through the
//! store) under `<root>/.cache/research/{schema,briefs}/`, so the paths it reports are
//! true wherever the binary runs.

/// `(file name, contents)` of every documentation-grade JSON Schema.
pub const SCHEMAS: &[(&str, &str)] = &[
    (
        "manifest.schema.json",
        include_str!("../schema/manifest.schema.json"),
    ),
    (
        "plan.schema.json",
        include_str!("../schema/plan.schema.json"),
    ),
    (
        "finding.schema.json",
        include_str!("../schema/finding.schema.json"),
    ),
    (
        "sources.schema.json",
        include_str!("../schema/sources.schema.json"),
    ),
    (
        "gates.schema.json",
        include_str!("../schema/gates.schema.json"),
    ),
];

/// `(file name, contents)` of the worker dispatch briefs.
pub const BRIEFS: &[(&str, &str)] = &[
    ("searcher.md", include_str!("../briefs/searcher.md")),
    ("extractor.md", include_str!("../briefs/extractor.md")),
];

/// The workflows directory holds no scripts yet; this note says why.
pub const WORKFLOWS: &[(&str, &str)] = &[(
    "README.md",
    "# research workflows\n\nNo workflow scripts ship yet. The search/extract pipeline runs through the CLI:\n`research search`, `research extract` and `research gates --resolve` (the search\ngateway behind the `sgw_research::Backend` trait, over the `sgw_research::gateway`\nseams); see docs/research.md.\n",
)];
