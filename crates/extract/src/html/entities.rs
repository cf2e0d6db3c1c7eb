//! HTML character references: numeric ones and the named ones that matter for text.

use std::borrow::Cow;

/// Named references (without `&` and `;`) that commonly appear in page text.
/// Unknown names are kept verbatim, which is what browsers do for most of them.
const NAMED: &[(&str, char)] = &[
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", '\u{a0}'),
    ("ensp", '\u{2002}'),
    ("emsp", '\u{2003}'),
    ("thinsp", '\u{2009}'),
    ("zwnj", '\u{200c}'),
    ("zwj", '\u{200d}'),
    ("shy", '\u{ad}'),
    ("ndash", '–'),
    ("mdash", '—'),
    ("minus", '−'),
    ("hellip", '…'),
    ("lsquo", '‘'),
    ("rsquo", '’'),
    ("sbquo", '‚'),
    ("ldquo", '“'),
    ("rdquo", '”'),
    ("bdquo", '„'),
    ("laquo", '«'),
    ("raquo", '»'),
    ("lsaquo", '‹'),
    ("rsaquo", '›'),
    ("bull", '•'),
    ("middot", '·'),
    ("copy", '©'),
    ("reg", '®'),
    ("trade", '™'),
    ("deg", '°'),
    ("plusmn", '±'),
    ("times", '×'),
    ("divide", '÷'),
    ("frac12", '½'),
    ("frac14", '¼'),
    ("frac34", '¾'),
    ("sup2", '²'),
    ("sup3", '³'),
    ("micro", 'µ'),
    ("para", '¶'),
    ("sect", '§'),
    ("euro", '€'),
    ("pound", '£'),
    ("yen", '¥'),
    ("cent", '¢'),
    ("dollar", '$'),
    ("percnt", '%'),
    ("num", '#'),
    ("excl", '!'),
    ("quest", '?'),
    ("comma", ','),
    ("period", '.'),
    ("colon", ':'),
    ("semi", ';'),
    ("lpar", '('),
    ("rpar", ')'),
    ("sol", '/'),
    ("dagger", '†'),
    ("Dagger", '‡'),
    ("prime", '′'),
    ("Prime", '″'),
    ("larr", '←'),
    ("rarr", '→'),
    ("uarr", '↑'),
    ("darr", '↓'),
    ("iexcl", '¡'),
    ("iquest", '¿'),
    ("ordf", 'ª'),
    ("ordm", 'º'),
    ("szlig", 'ß'),
    ("agrave", 'à'),
    ("aacute", 'á'),
    ("acirc", 'â'),
    ("atilde", 'ã'),
    ("auml", 'ä'),
    ("aring", 'å'),
    ("aelig", 'æ'),
    ("ccedil", 'ç'),
    ("egrave", 'è'),
    ("eacute", 'é'),
    ("ecirc", 'ê'),
    ("euml", 'ë'),
    ("igrave", 'ì'),
    ("iacute", 'í'),
    ("icirc", 'î'),
    ("iuml", 'ï'),
    ("ntilde", 'ñ'),
    ("ograve", 'ò'),
    ("oacute", 'ó'),
    ("ocirc", 'ô'),
    ("otilde", 'õ'),
    ("ouml", 'ö'),
    ("oslash", 'ø'),
    ("ugrave", 'ù'),
    ("uacute", 'ú'),
    ("ucirc", 'û'),
    ("uuml", 'ü'),
    ("yacute", 'ý'),
    ("yuml", 'ÿ'),
    ("Agrave", 'À'),
    ("Aacute", 'Á'),
    ("Acirc", 'Â'),
    ("Atilde", 'Ã'),
    ("Auml", 'Ä'),
    ("Aring", 'Å'),
    ("AElig", 'Æ'),
    ("Ccedil", 'Ç'),
    ("Egrave", 'È'),
    ("Eacute", 'É'),
    ("Ecirc", 'Ê'),
    ("Euml", 'Ë'),
    ("Igrave", 'Ì'),
    ("Iacute", 'Í'),
    ("Icirc", 'Î'),
    ("Iuml", 'Ï'),
    ("Ntilde", 'Ñ'),
    ("Ograve", 'Ò'),
    ("Oacute", 'Ó'),
    ("Ocirc", 'Ô'),
    ("Otilde", 'Õ'),
    ("Ouml", 'Ö'),
    ("Oslash", 'Ø'),
    ("Ugrave", 'Ù'),
    ("Uacute", 'Ú'),
    ("Ucirc", 'Û'),
    ("Uuml", 'Ü'),
    ("Yacute", 'Ý'),
    ("oelig", 'œ'),
    ("OElig", 'Œ'),
    ("scaron", 'š'),
    ("Scaron", 'Š'),
    ("alpha", 'α'),
    ("beta", 'β'),
    ("gamma", 'γ'),
    ("delta", 'δ'),
    ("pi", 'π'),
    ("mu", 'μ'),
    ("sigma", 'σ'),
    ("omega", 'ω'),
];

fn named(name: &str) -> Option<char> {
    NAMED.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// Decodes the character references of `s` (text content): numeric ones
/// (`&#38;`, `&#x41;`; NUL, surrogates and out-of-range values become
/// U+FFFD, `&#128;`–`&#159;` are read as Windows-1252 as browsers do) and the
/// common named ones (Latin-1 letters, punctuation, symbols), with or without the closing `;`. Unknown
/// names and a lone `&` are kept verbatim. Linear in `s`; never panics;
/// borrows when there is nothing to decode.
pub fn decode_entities(s: &str) -> Cow<'_, str> {
    if !s.contains('&') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    decode_into(s, &mut out);
    Cow::Owned(out)
}

/// Like [`decode_entities`], for an attribute value: a named reference
/// without its `;` that is followed by `=` or an alphanumeric is kept
/// verbatim (the HTML rule that keeps `?a=1&copy=2` or `&num=10` in URLs intact).
pub fn decode_attr_entities(s: &str) -> Cow<'_, str> {
    if !s.contains('&') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    decode_attr_into(s, &mut out);
    Cow::Owned(out)
}

/// Appends `s` to `out`, decoding character references (text content).
pub fn decode_into(s: &str, out: &mut String) {
    decode_with(s, out, false);
}

/// Appends `s` to `out`, decoding character references (attribute value).
pub fn decode_attr_into(s: &str, out: &mut String) {
    decode_with(s, out, true);
}

fn decode_with(s: &str, out: &mut String, in_attr: bool) {
    let bytes = s.as_bytes();
    let mut last = 0;
    let mut i = 0;
    while let Some(off) = memchr_amp(&bytes[i..]) {
        let amp = i + off;
        out.push_str(&s[last..amp]);
        let (consumed, ch) = reference_at(&s[amp + 1..], in_attr);
        match ch {
            Some(c) => {
                out.push(c);
                last = amp + 1 + consumed;
            }
            None => {
                out.push('&');
                last = amp + 1;
            }
        }
        i = last;
    }
    out.push_str(&s[last..]);
}

fn memchr_amp(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'&')
}

/// Parses a reference after `&`; returns (bytes consumed, char).
fn reference_at(s: &str, in_attr: bool) -> (usize, Option<char>) {
    let b = s.as_bytes();
    if b.first() == Some(&b'#') {
        let (hex, start) = match b.get(1) {
            Some(b'x' | b'X') => (true, 2),
            _ => (false, 1),
        };
        let mut end = start;
        while end < b.len()
            && end - start < 8
            && (if hex {
                b[end].is_ascii_hexdigit()
            } else {
                b[end].is_ascii_digit()
            })
        {
            end += 1;
        }
        if end == start {
            return (0, None);
        }
        let n = u32::from_str_radix(&s[start..end], if hex { 16 } else { 10 }).unwrap_or(0xfffd);
        let c = match n {
            0 => '\u{fffd}',
            // Windows-1252 range that pages often use by mistake.
            0x80..=0x9f => encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(&[n as u8])
                .0
                .chars()
                .next()
                .unwrap_or('\u{fffd}'),
            _ => char::from_u32(n).unwrap_or('\u{fffd}'),
        };
        let consumed = if b.get(end) == Some(&b';') {
            end + 1
        } else {
            end
        };
        return (consumed, Some(c));
    }
    let mut end = 0;
    while end < b.len() && end < 10 && b[end].is_ascii_alphanumeric() {
        end += 1;
    }
    if end == 0 {
        return (0, None);
    }
    match named(&s[..end]) {
        Some(_)
            if in_attr
                && b.get(end) != Some(&b';')
                && b.get(end)
                    .is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric()) =>
        {
            (0, None)
        }
        Some(c) => {
            let consumed = if b.get(end) == Some(&b';') {
                end + 1
            } else {
                end
            };
            (consumed, Some(c))
        }
        None => (0, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes() {
        let mut out = String::new();
        decode_into("a &amp; b &#8212; &#x41;&nbsp;&bogus; &", &mut out);
        assert_eq!(out, "a & b — A\u{a0}&bogus; &");
    }

    #[test]
    fn attribute_rule_keeps_query_parameters() {
        assert_eq!(
            decode_attr_entities("?a=1&copy=2&num=3"),
            "?a=1&copy=2&num=3"
        );
        assert_eq!(decode_attr_entities("?a=1&amp;copy=2"), "?a=1&copy=2");
        assert_eq!(decode_attr_entities("x &copy y"), "x © y");
        assert_eq!(decode_entities("?a=1&copy=2"), "?a=1©=2");
        assert!(matches!(decode_entities("plain"), Cow::Borrowed("plain")));
    }
}
