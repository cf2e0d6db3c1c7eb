use sgw_extract::{decode_html, extract};

#[test]
fn windows_1252_declared_only_in_meta() {
    let mut page =
        b"<html><head><meta charset=\"windows-1252\"><title>Caf\xe9</title></head><body><p>"
            .to_vec();
    page.extend_from_slice(b"Le caf\xe9 co\xfbte 2\x80 \x96 tr\xe8s cher, disait-on \x93partout\x94 dans la ville enti\xe8re.");
    page.extend_from_slice(b"</p></body></html>");
    let (text, enc) = decode_html(&page, None);
    assert_eq!(enc, encoding_rs::WINDOWS_1252);
    assert!(text.contains("Le café coûte 2€ – très cher"));
    let doc = extract(&page, Some("text/html"), None).unwrap();
    assert_eq!(doc.metadata.title.as_deref(), Some("Café"));
    assert!(doc.text.contains("“partout”"), "{}", doc.text);
}

#[test]
fn shift_jis_declared_only_in_http_equiv_meta() {
    let body = "日本語のテキストです。これは記事の本文であり、十分な長さがあります。";
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(body);
    let mut page = b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\"></head><body><article><p>".to_vec();
    page.extend_from_slice(&sjis);
    page.extend_from_slice(b"</p></article></body></html>");
    let (text, enc) = decode_html(&page, None);
    assert_eq!(enc, encoding_rs::SHIFT_JIS);
    assert!(text.contains(body));
    let doc = extract(&page, None, None).unwrap();
    assert!(doc.text.contains(body), "{}", doc.text);
}

#[test]
fn wrong_declared_utf8_is_detected_and_invalid_bytes_do_not_lose_the_page() {
    // Declared UTF-8 but actually Latin-1: detection takes over.
    let page = b"<meta charset=utf-8><p>Gr\xfc\xdfe aus M\xfcnchen und \xfcberall in der sch\xf6nen Stadt.</p>";
    let (text, _) = decode_html(page, None);
    assert!(text.contains("Grüße aus München"), "{text}");
    // Mostly UTF-8 with one broken byte: the rest survives.
    let mut mixed = "<p>Début ".as_bytes().to_vec();
    mixed.push(0xff);
    mixed.extend_from_slice("fin de la phrase très longue.</p>".as_bytes());
    let (text, _) = decode_html(&mixed, Some("utf-8"));
    assert!(text.contains("fin de la phrase très longue"), "{text}");
}

#[test]
fn header_charset_and_bom() {
    let (text, enc) = decode_html(b"<p>\xe9t\xe9</p>", Some("iso-8859-1"));
    assert_eq!(enc, encoding_rs::WINDOWS_1252);
    assert_eq!(text, "<p>été</p>");
    let (text, enc) = decode_html(b"\xef\xbb\xbf<p>\xc3\xa9</p>", Some("iso-8859-1"));
    assert_eq!(enc, encoding_rs::UTF_8);
    assert_eq!(text, "<p>é</p>");
}
