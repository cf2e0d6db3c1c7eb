//! Snippet clean-up: engines return snippets with highlighting markup
//! (`<strong>`, `<em>`) and HTML entities; evidence text is plain.

/// Longest snippet or title kept (in chars); longer ones are cut at a char boundary.
pub const MAX_SNIPPET_CHARS: usize = 2_000;

/// Removes tags, decodes the common entities, collapses whitespace and
/// bounds the length. Linear in the input; never panics.
pub fn plain(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(MAX_SNIPPET_CHARS * 4));
    let mut rest = s;
    while let Some(i) = rest.find(['<', '&']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix('<') {
            // A tag only when it looks like one (`<b>`, `</em>`, `<br/>`);
            // a lone `<` in text ("a < b") is kept.
            let looks_like_tag = after
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
            match (looks_like_tag, tail.find('>')) {
                (true, Some(end)) => {
                    out.push(' ');
                    rest = &tail[end + 1..];
                }
                _ => {
                    out.push('<');
                    rest = after;
                }
            }
        } else {
            let (len, ch) = entity(tail);
            match ch {
                Some(c) => out.push(c),
                None => out.push('&'),
            }
            rest = &tail[len.max(1)..];
        }
    }
    out.push_str(rest);
    let collapsed = out.split_whitespace().collect::<Vec<_>>().join(" ");
    match collapsed.char_indices().nth(MAX_SNIPPET_CHARS) {
        Some((cut, _)) => format!("{}…", &collapsed[..cut]),
        None => collapsed,
    }
}

/// Decodes the entity at the start of `s` (which starts with `&`):
/// (bytes consumed, char) or (1, None) when it is not an entity.
fn entity(s: &str) -> (usize, Option<char>) {
    let Some(semi) = s[..s.len().min(12)].find(';') else {
        return (1, None);
    };
    let name = &s[1..semi];
    let ch = match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some(' '),
        "hellip" => Some('…'),
        "mdash" => Some('—'),
        "ndash" => Some('–'),
        _ => {
            let num = name.strip_prefix('#');
            num.and_then(|n| match n.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => n.parse::<u32>().ok(),
            })
            .and_then(char::from_u32)
            .filter(|c| *c != '\0')
        }
    };
    match ch {
        Some(c) => (semi + 1, Some(c)),
        None => (1, None),
    }
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn strips_highlighting_and_decodes_entities() {
        assert_eq!(
            plain("The <strong>rate</strong> is 4.5&#37; &amp; rising&hellip;"),
            "The rate is 4.5% & rising…"
        );
        assert_eq!(plain("a < b &unknown; c"), "a < b &unknown; c");
        assert_eq!(plain("x&#0;y&#xZZ;"), "x&#0;y&#xZZ;");
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
