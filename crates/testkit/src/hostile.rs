//! Hostile inputs, generated (never committed as binaries): what an attacker
//! would serve or hand over to crash, hang or exhaust the gateway. Each
//! builder is small and deterministic; tests serve them from a [`SimWeb`]
//! host or write them to a temporary file.
//!
//! [`SimWeb`]: crate::SimWeb

use std::io::Write;

/// A robots.txt whose `Crawl-delay` is `value` verbatim (e.g.
/// `99999999999999999999999`, `18446744073709551615`, `1e19`, `NaN`).
pub fn robots_crawl_delay(value: &str) -> String {
    format!("User-agent: *\nCrawl-delay: {value}\nDisallow: /private\n")
}

/// Text that drives a terminal if printed raw: an OSC 0 window title, an OSC
/// 52 clipboard write, a screen clear, the alternate screen, a carriage
/// return that overwrites the line, a C1 CSI and a right-to-left override.
pub const TERMINAL_ESCAPES: &str = "\u{1b}]0;pwned-title\u{7}\u{1b}]52;c;cm0gLXJmIH4=\u{7}\u{1b}[2J\u{1b}[?1049h\rFAKE OK\u{9b}31m\u{202e}txt.exe";

/// An HTML page whose title, text and metadata carry [`TERMINAL_ESCAPES`].
pub fn escape_page() -> String {
    let e = TERMINAL_ESCAPES;
    format!(
        "<!doctype html><html><head><title>Title {e} end</title>\
         <meta name=\"author\" content=\"Author {e}\"></head><body><article>\
         <h1>Heading {e}</h1><p>The rate is 4.5 percent {e} and this paragraph has enough \
         words to be read as the main content of the page by the extractor.</p>\
         <p>A second paragraph {e} about the rate, again with enough words to count as text.</p>\
         </article></body></html>"
    )
}

/// `count` pseudo-random texts of up to 400 characters (xorshift, fixed
/// seed) drawn from multi-byte letters, digits, decimals, dates, sentence
/// ends, line breaks, a NUL and the words of a rate question: input for
/// sentence splitters and statement finders, which must not panic and must
/// keep their spans on char boundaries.
pub fn random_texts(count: usize) -> Vec<String> {
    let alphabet: Vec<char> = "aé日 Rate rate policy 4.5%. 2026-03-01! ?\n\t\u{0}ß€Ω is the means"
        .chars()
        .collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..count)
        .map(|_| {
            let len = (next() % 400) as usize;
            (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect()
        })
        .collect()
}

/// `len` pseudo-random bytes (xorshift, fixed seed): binary data that is not
/// any known format.
pub fn random_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// gzip of `data`.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(data).expect("gzip into memory");
    z.finish().expect("gzip into memory")
}

/// A gzip stream cut in half: a download that stopped.
pub fn truncated_gzip() -> Vec<u8> {
    let text = "A page of text. ".repeat(4096);
    let mut g = gzip(text.as_bytes());
    g.truncate(g.len() / 2);
    g
}

/// A gzip header followed by bytes that are not deflate data.
pub fn corrupt_gzip() -> Vec<u8> {
    let mut g = gzip(b"hello hello hello hello");
    for b in g.iter_mut().skip(10).take(8) {
        *b = 0xff;
    }
    g
}

/// A one-page PDF whose content stream is `ops` repeated `times` times,
/// Flate-compressed: small on disk, huge once inflated and parsed (each
/// `0 0 m ` becomes an operation object in the parser). `times` of a few
/// million gives a PDF of a few hundred KiB that inflates to tens of MiB and
/// needs gigabytes in an unbounded parser.
pub fn pdf_inflation_bomb(ops: &str, times: usize) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let chunk = ops.repeat(4096);
    let mut left = times;
    while left > 0 {
        let n = left.min(4096);
        z.write_all(&chunk.as_bytes()[..n * ops.len()])
            .expect("zlib into memory");
        left -= n;
    }
    let stream = z.finish().expect("zlib into memory");
    pdf_with_stream(b"/Filter /FlateDecode", &stream)
}

/// A PDF that makes pdf-extract 0.x panic (an `xref` entry whose generation
/// number, 80000, overflows the parser's u16): the panic must be caught and
/// reported as an error, without a backtrace on stderr.
pub fn pdf_that_panics_the_parser() -> Vec<u8> {
    let pdf =
        String::from_utf8(crate::pdf::tiny("The rate is 4.5%.")).expect("tiny PDFs are ASCII");
    pdf.replacen(" 00000 n \ntrailer", " 80000 n \ntrailer", 1)
        .into_bytes()
}

/// A valid one-page PDF (checked `xref` offsets) whose page content is the
/// stream `data` with the extra dictionary entries `dict` (e.g. a filter).
pub fn pdf_with_stream(dict: &[u8], data: &[u8]) -> Vec<u8> {
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_vec(),
    ];
    let mut content = format!("<< /Length {} ", data.len()).into_bytes();
    content.extend_from_slice(dict);
    content.extend_from_slice(b" >>\nstream\n");
    content.extend_from_slice(data);
    content.extend_from_slice(b"\nendstream");
    objects.push(content);
    objects.push(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_vec(),
    );
    crate::pdf::assemble(&objects)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_are_what_they_say() {
        assert!(robots_crawl_delay("1e19").contains("Crawl-delay: 1e19\n"));
        assert!(escape_page().contains('\u{1b}'));
        assert_eq!(random_bytes(64, 7), random_bytes(64, 7));
        assert_eq!(&truncated_gzip()[..2], b"\x1f\x8b");
        assert_eq!(&corrupt_gzip()[..2], b"\x1f\x8b");
        let bomb = pdf_inflation_bomb("0 0 m ", 100_000);
        assert!(bomb.starts_with(b"%PDF-1.4"));
        assert!(bomb.len() < 20_000, "{}", bomb.len());
    }
}
