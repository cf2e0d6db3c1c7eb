use sgw_extract::{DocumentKind, extract};

#[test]
fn rss_entries() {
    let rss = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>https://example.org/</link>
<item><title>First &amp; best</title><link>https://example.org/1</link><description>&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;&lt;/p&gt;</description><pubDate>Tue, 05 Nov 2019 10:00:00 GMT</pubDate></item>
<item><title>Second</title><link>https://example.org/2</link><description>Plain text</description></item>
</channel></rss>"#;
    let doc = extract(rss.as_bytes(), None, None).unwrap();
    assert_eq!(doc.kind, DocumentKind::Feed);
    assert_eq!(doc.metadata.title.as_deref(), Some("News"));
    assert_eq!(doc.entries.len(), 2);
    let e = &doc.entries[0];
    assert_eq!(e.title.as_deref(), Some("First & best"));
    assert_eq!(e.url.as_deref(), Some("https://example.org/1"));
    assert_eq!(e.text, "Hello world");
    assert_eq!(e.published_at.as_deref(), Some("2019-11-05T10:00:00Z"));
    assert!(doc.text.contains("Plain text"));
}

#[test]
fn atom_and_json_feed() {
    let atom = r#"<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><id>urn:x</id><updated>2024-01-02T00:00:00Z</updated>
<entry><title>E1</title><id>urn:e1</id><link href="https://example.org/e1"/><updated>2024-01-02T00:00:00Z</updated><content type="html">&lt;p&gt;Body one&lt;/p&gt;</content></entry></feed>"#;
    let doc = extract(atom.as_bytes(), Some("application/atom+xml"), None).unwrap();
    assert_eq!(doc.entries[0].text, "Body one");
    assert_eq!(
        doc.entries[0].updated_at.as_deref(),
        Some("2024-01-02T00:00:00Z")
    );
    let jf = r#"{"version":"https://jsonfeed.org/version/1.1","title":"J","items":[{"id":"1","url":"https://example.org/j1","content_text":"Json body","date_published":"2024-02-03T04:05:06Z"}]}"#;
    let doc = extract(jf.as_bytes(), None, None).unwrap();
    assert_eq!(doc.kind, DocumentKind::Feed);
    assert_eq!(doc.entries[0].text, "Json body");
    assert_eq!(
        doc.entries[0].published_at.as_deref(),
        Some("2024-02-03T04:05:06Z")
    );
}

#[test]
fn broken_feed_is_an_error() {
    let err = extract(b"<rss><channel><item><title>x", None, None);
    if let Err(e) = err {
        assert!(e.to_string().contains("feed"), "{e}");
    }
}
