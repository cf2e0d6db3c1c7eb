//! Bytes → text: charset sniffing for HTML (BOM, header, `<meta charset>`,
//! `http-equiv`, statistical detection) and gzip unwrapping.

use encoding_rs::Encoding;
use std::borrow::Cow;
use std::io::Read;

/// How many bytes of the page are scanned for a `<meta>` charset declaration
/// (the HTML standard's prescan looks at 1024; pages often put it later).
const PRESCAN: usize = 4096;

/// Decodes an HTML page. Priority: byte-order mark, then the charset from the
/// HTTP `Content-Type` header (`header_charset`, e.g. `Some("iso-8859-1")`),
/// then `<meta charset>` / `<meta http-equiv="Content-Type">` in the first
/// bytes, then: valid UTF-8 stays UTF-8, anything else is guessed with
/// chardetng. A declaration that the bytes contradict (declared UTF-8 but not
/// valid UTF-8) falls through to detection. Malformed sequences become U+FFFD;
/// the rest of the page is never lost. Text that needs no change (valid
/// UTF-8, or ASCII in an ASCII-compatible encoding) is borrowed, not copied.
pub fn decode_html<'a>(
    bytes: &'a [u8],
    header_charset: Option<&str>,
) -> (Cow<'a, str>, &'static Encoding) {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        return (text, enc);
    }
    let declared = header_charset
        .and_then(|c| Encoding::for_label(c.trim().trim_matches('"').as_bytes()))
        .or_else(|| meta_charset(&bytes[..bytes.len().min(PRESCAN)]));
    let utf8_ok = std::str::from_utf8(bytes).is_ok();
    let enc = match declared {
        // UTF-16 cannot be declared in-band; a "utf-16" meta means UTF-8.
        Some(e) if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE => encoding_rs::UTF_8,
        Some(e) if e == encoding_rs::UTF_8 && !utf8_ok && !mostly_utf8(bytes) => detect(bytes),
        Some(e) => e,
        None if utf8_ok || mostly_utf8(bytes) => encoding_rs::UTF_8,
        None => detect(bytes),
    };
    let (text, _) = enc.decode_without_bom_handling(bytes);
    (text, enc)
}

/// UTF-8 with a few broken sequences (a truncated or spliced page): many valid
/// multi-byte characters, few invalid bytes.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 20)]);
    let (mut bad, mut good) = (0usize, 0usize);
    for c in text.chars() {
        if c == '\u{fffd}' {
            bad += 1;
        } else if !c.is_ascii() {
            good += 1;
        }
    }
    good > 0 && bad <= good
}

fn detect(bytes: &[u8]) -> &'static Encoding {
    let mut det = chardetng::EncodingDetector::new();
    det.feed(&bytes[..bytes.len().min(1 << 20)], true);
    det.guess(None, true)
}

/// Finds a charset declared in `<meta charset=…>` or
/// `<meta http-equiv="content-type" content="…; charset=…">`.
pub fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let mut from = 0;
    while let Some(p) = find(&lower[from..], b"<meta") {
        let start = from + p;
        let end = lower[start..]
            .iter()
            .position(|&c| c == b'>')
            .map_or(lower.len(), |e| start + e);
        let tag = &lower[start..end];
        if let Some(c) = find(tag, b"charset") {
            let mut i = c + 7;
            while i < tag.len()
                && (tag[i].is_ascii_whitespace()
                    || tag[i] == b'='
                    || tag[i] == b'"'
                    || tag[i] == b'\'')
            {
                i += 1;
            }
            let j = tag[i..]
                .iter()
                .position(|&c| {
                    c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b';' | b'/' | b'>')
                })
                .map_or(tag.len(), |e| i + e);
            if let Some(enc) = Encoding::for_label(&tag[i..j]) {
                return Some(enc);
            }
        }
        from = end.max(start + 5);
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() > hay.len() {
        return None;
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Maximum size of a gunzipped body (bomb guard).
pub const MAX_GUNZIP: u64 = 64 << 20;

/// If `bytes` is gzip (magic `1f 8b`), the decompressed bytes: `Ok(None)`
/// when it is not gzip; `Err` when the stream is corrupt or truncated, or
/// inflates past `MAX_GUNZIP` — the same bytes the network layer refuses as
/// a `Content-Encoding: gzip` body are refused here.
pub fn gunzip(bytes: &[u8]) -> Result<Option<Vec<u8>>, GunzipError> {
    if bytes.len() < 2 || bytes[0] != 0x1f || bytes[1] != 0x8b {
        return Ok(None);
    }
    let mut out = Vec::new();
    let mut dec = flate2::read::MultiGzDecoder::new(bytes).take(MAX_GUNZIP + 1);
    match dec.read_to_end(&mut out) {
        Ok(_) if out.len() as u64 > MAX_GUNZIP => Err(GunzipError::TooLarge {
            limit_mib: MAX_GUNZIP >> 20,
        }),
        Ok(_) => Ok(Some(out)),
        Err(e) => Err(GunzipError::Corrupt(e)),
    }
}

/// Why [`gunzip`] refused a gzip stream.
#[derive(Debug, thiserror::Error)]
pub enum GunzipError {
    /// The stream inflates past `MAX_GUNZIP` (a bomb, or simply too large).
    #[error("gzip data inflates past the {limit_mib} MiB limit")]
    TooLarge { limit_mib: u64 },
    /// The stream is corrupt or truncated.
    #[error("corrupt or truncated gzip data: {0}")]
    Corrupt(#[source] std::io::Error),
}

/// [`gunzip`] for callers that treat a bad stream as "not gzip": the
/// decompressed bytes, or `None` (not gzip, corrupt, truncated or too large).
pub fn maybe_gunzip(bytes: &[u8]) -> Option<Vec<u8>> {
    gunzip(bytes).ok().flatten()
}

#[cfg(test)]
mod gunzip_tests {
    use super::*;

    #[test]
    fn gunzip_tells_not_gzip_from_corrupt_gzip() {
        assert!(matches!(gunzip(b"plain text"), Ok(None)));
        let err = gunzip(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff]).unwrap_err();
        assert!(matches!(err, GunzipError::Corrupt(_)), "{err}");
        assert!(
            err.to_string()
                .starts_with("corrupt or truncated gzip data")
        );
        assert!(maybe_gunzip(&[0x1f, 0x8b, 1]).is_none());
    }
}
