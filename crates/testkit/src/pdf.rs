//! Tiny PDF documents for tests: a valid one-page PDF with one line of text
//! (correct `xref` offsets, so strict readers accept it), and broken variants.
//!
//! Not a PDF writer: one page, one line, Helvetica, ASCII text.

/// A minimal valid one-page PDF showing `text` in one line of 18 pt
/// Helvetica. `(`, `)` and `\` are escaped; characters outside printable
/// ASCII become `?`.
pub fn tiny(text: &str) -> Vec<u8> {
    let escaped: String = text
        .chars()
        .map(|c| match c {
            '(' | ')' | '\\' => format!("\\{c}"),
            ' '..='~' => c.to_string(),
            _ => "?".to_string(),
        })
        .collect();
    let stream = format!("BT /F1 18 Tf 72 720 Td ({escaped}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_string(),
    ];
    let objects: Vec<Vec<u8>> = objects.into_iter().map(String::into_bytes).collect();
    assemble(&objects)
}

/// A PDF 1.4 file of `objects` (numbered from 1; object 1 is the catalog)
/// with a cross-reference table whose offsets are exact.
pub fn assemble(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        pdf.extend_from_slice(o);
        pdf.extend_from_slice(b"\nendobj\n");
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for off in offsets {
        pdf.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

/// A file that starts like a PDF but is not one: a catalog object and no
/// pages, cross-reference table or trailer. Readers must refuse it.
pub fn broken() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ngarbage\n%%EOF".to_vec()
}

/// The first `len` bytes of [`tiny`]`(text)`: a download cut short.
pub fn truncated(text: &str, len: usize) -> Vec<u8> {
    let mut pdf = tiny(text);
    pdf.truncate(len);
    pdf
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `xref` entry points at the start of its object, and `startxref`
    /// at the table.
    #[test]
    fn xref_offsets_are_right() {
        let pdf = tiny("Rate (new) is 4.5% \\ é");
        let s = String::from_utf8(pdf.clone()).unwrap();
        assert!(s.contains("(Rate \\(new\\) is 4.5% \\\\ ?)"), "{s}");
        let xref = s.find("\nxref\n").unwrap() + 1;
        let start: usize = s[s.find("startxref\n").unwrap() + 10..]
            .lines()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(start, xref);
        let entries: Vec<usize> = s[xref..]
            .lines()
            .skip(3)
            .take(5)
            .map(|l| l[..10].parse().unwrap())
            .collect();
        for (i, off) in entries.iter().enumerate() {
            assert!(
                s[*off..].starts_with(&format!("{} 0 obj\n", i + 1)),
                "object {}",
                i + 1
            );
        }
        assert!(s.ends_with("%%EOF\n"));
        assert_eq!(truncated("x", 20).len(), 20);
        assert!(broken().starts_with(b"%PDF-1."));
    }
}
