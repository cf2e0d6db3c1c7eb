//! Snippet clean-up: engines return snippets with highlighting markup
//! (`<strong>`, `<em>`) and HTML entities; evidence text is plain.

/// Longest snippet or title kept (in chars); longer ones are cut at a char boundary.
pub const MAX_SNIPPET_CHARS: usize = 2_000;

/// Removes tags, decodes entities (`sgw-provider-common`'s markup decoder),
/// drops control characters and U+FFFD (what a `&#0;` or broken reference
/// decodes to), collapses whitespace and bounds the length.
/// Linear in the input; never panics.
pub fn plain(s: &str) -> String {
    let mut stripped = String::with_capacity(s.len().min(MAX_SNIPPET_CHARS * 4));
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        stripped.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        // A tag only when it looks like one (`<b>`, `</em>`, `<br/>`);
        // a lone `<` in text ("a < b") is kept.
        let looks_like_tag = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
        match (looks_like_tag, after.find('>')) {
            (true, Some(end)) => {
                stripped.push(' ');
                rest = &after[end + 1..];
            }
            _ => {
                stripped.push('<');
                rest = after;
            }
        }
    }
    stripped.push_str(rest);
    let decoded = sgw_provider_common::markup::decode_entities(&stripped);
    let collapsed = decoded
        .split(|c: char| c.is_whitespace() || c.is_control() || c == '\u{fffd}')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    match collapsed.char_indices().nth(MAX_SNIPPET_CHARS) {
        Some((cut, _)) => format!("{}…", &collapsed[..cut]),
        None => collapsed,
    }
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn strips_highlighting_and_decodes_entities() {
        assert_eq!(
            plain("The <strong>rate</strong> is 4.5&#37; &amp; rising&#8230; &lt;b&gt;"),
            "The rate is 4.5% & rising… <b>"
        );
        assert_eq!(plain("a < b &unknown; c"), "a < b &unknown; c");
        assert_eq!(plain("x&#0;y&#xZZ;"), "x y&#xZZ;");
        assert_eq!(plain("  many \n\t spaces "), "many spaces");
    }

    #[test]
    fn bounds_length_and_survives_odd_input() {
        let long = "é".repeat(5_000);
        assert_eq!(plain(&long).chars().count(), super::MAX_SNIPPET_CHARS + 1);
        for s in ["<", "&", "&#", "&#x;", "<<<>>>", "&&&;;", "<a", "é&é<é"] {
            let _ = plain(s);
        }
    }
}
