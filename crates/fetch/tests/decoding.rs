//! Charsets, content types and text.

use crate::common::{fetcher, page};
use sgw_testkit::{Response, SimWeb, pages};

#[tokio::test]
async fn legacy_charsets_are_decoded() {
    let web = SimWeb::start().await;
    web.route(
        "w.test",
        "/1252",
        pages::legacy_charset(
            encoding_rs::WINDOWS_1252,
            "Café prices",
            &["Le café coûte 3 € — “très” cher, selon l’étude publiée hier par l’institut."],
        ),
    );
    web.route(
        "w.test",
        "/sjis",
        pages::legacy_charset(
            encoding_rs::SHIFT_JIS,
            "東京の天気",
            &["今日の東京は晴れです。気温は二十度まで上がる見込みです。"],
        ),
    );
    web.route("w.test", "/header", Response::bytes("text/html; charset=iso-8859-1", b"<html><body><p>Gr\xfc\xdfe aus M\xfcnchen, eine lange Seite mit Text.</p></body></html>".to_vec()));
    let f = fetcher(&web);
    let r = page(&f, &web, "w.test", "/1252").await.unwrap();
    assert_eq!(r.charset.as_deref(), Some("windows-1252"));
    assert!(r.text().contains("café coûte 3 €"), "{}", r.text());
    let r = page(&f, &web, "w.test", "/sjis").await.unwrap();
    assert_eq!(r.charset.as_deref(), Some("Shift_JIS"));
    assert!(r.text().contains("東京の天気"));
    let r = page(&f, &web, "w.test", "/header").await.unwrap();
    assert!(r.text().contains("Grüße aus München"), "{}", r.text());
    assert_eq!(r.content_type, "text/html");
}

#[tokio::test]
async fn content_type_is_sniffed_when_missing() {
    let web = SimWeb::start().await;
    web.route(
        "s.test",
        "/doc",
        Response::bytes(
            "application/octet-stream",
            b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n".to_vec(),
        ),
    );
    web.route("s.test", "/feed", Response::bytes("application/octet-stream", b"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>x</title></channel></rss>".to_vec()));
    let f = fetcher(&web);
    let r = page(&f, &web, "s.test", "/doc").await.unwrap();
    assert_eq!(r.content_type, "application/pdf");
    assert!(r.content_type_sniffed);
    assert!(!r.is_text());
    let r = page(&f, &web, "s.test", "/feed").await.unwrap();
    assert_eq!(r.content_type, "application/rss+xml");
    assert!(r.text().contains("<channel>"));
}

#[tokio::test]
async fn compressed_bodies_are_decoded() {
    use std::io::Write;
    let html =
        "<html><body><p>Compressed content that is long enough to be real text.</p></body></html>";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(html.as_bytes()).unwrap();
    let web = SimWeb::start().await;
    web.route(
        "z.test",
        "/gz",
        Response::bytes("text/html; charset=utf-8", gz.finish().unwrap())
            .header("content-encoding", "gzip"),
    );
    let f = fetcher(&web);
    let r = page(&f, &web, "z.test", "/gz").await.unwrap();
    assert_eq!(r.text(), html);
    assert_eq!(
        r.headers_of_interest
            .get("content-encoding")
            .map(String::as_str),
        Some("gzip")
    );
    // We asked for the encodings we can decode.
    let req = web
        .requests()
        .into_iter()
        .find(|q| q.path == "/gz")
        .unwrap();
    assert_eq!(req.header("accept-encoding"), Some("gzip, deflate, br"));
    assert!(
        req.header("user-agent")
            .unwrap()
            .starts_with("SearchGatewayBot/")
    );
}

#[tokio::test]
async fn a_large_page_gives_its_whole_text_in_its_charset() {
    // A large text is not kept with the response but decoded again on first
    // use: the same text, in the charset the header named.
    let web = SimWeb::start().await;
    let mut body = b"<html><body>".to_vec();
    while body.len() < 600 * 1024 {
        body.extend_from_slice(b"<p>Gr\xfc\xdfe aus M\xfcnchen.</p>\n");
    }
    body.extend_from_slice(b"<p>Ende.</p></body></html>");
    web.route(
        "w.test",
        "/big",
        Response::bytes("text/html; charset=iso-8859-1", body.clone()),
    );
    let f = fetcher(&web);
    let r = page(&f, &web, "w.test", "/big").await.unwrap();
    assert!(r.is_text());
    assert_eq!(r.body.len(), body.len());
    let (expected, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&body);
    assert_eq!(r.text(), expected);
    assert!(r.text().ends_with("<p>Ende.</p></body></html>"));
}
