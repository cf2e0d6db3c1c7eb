use sgw_provider_common::markup::{decode_entities, links, start_tags, text_until_close};
use url::Url;

#[test]
fn links_resolve_and_carry_text() {
    let base = Url::parse("http://site.test/dir/page").unwrap();
    let html = r#"<html><head><link rel="search" type="application/opensearchdescription+xml" href="/os.xml">
      <script>var s = "<a href='/not-a-link'>x</a>";</script></head>
      <body><!-- <a href="/commented">no</a> -->
      <a href="rel#frag">Relative <b>link</b> &amp; more</a>
      <A HREF='http://other.test/x'>Other</A><a href="mailto:x@y">mail</a><a>no href</a>
      <a href=unquoted>U</a></body></html>"#;
    let l = links(html, &base);
    let urls: Vec<_> = l.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "http://site.test/os.xml",
            "http://site.test/dir/rel",
            "http://other.test/x",
            "http://site.test/dir/unquoted"
        ]
    );
    assert_eq!(l[0].rel.as_deref(), Some("search"));
    assert_eq!(
        l[0].media_type.as_deref(),
        Some("application/opensearchdescription+xml")
    );
    assert_eq!(l[1].text, "Relative link & more");
}

#[test]
fn xml_text_and_entities() {
    let xml = "<urlset><url><loc><![CDATA[http://a.test/x?a=1&b=2]]></loc><lastmod> 2024-01-02 </lastmod></url></urlset>";
    let tags = start_tags(xml);
    let loc = tags.iter().find(|t| t.name == "loc").unwrap();
    assert_eq!(
        text_until_close(xml, loc.end, "loc", 100),
        "http://a.test/x?a=1&b=2"
    );
    let m = tags.iter().find(|t| t.name == "lastmod").unwrap();
    assert_eq!(text_until_close(xml, m.end, "lastmod", 100), "2024-01-02");
    assert_eq!(decode_entities("a&#38;b&#x41;&bogus;&"), "a&bA&bogus;&");
}

#[test]
fn arbitrary_input_never_panics() {
    // A deterministic pseudo-random byte soup biased towards markup characters.
    let alphabet: Vec<char> = "<>/=\"' &;#xa-!?[]CDATAhref élink\u{0}\u{10FFFF}"
        .chars()
        .collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let base = Url::parse("http://site.test/").unwrap();
    for _ in 0..300 {
        let len = (seed % 200) as usize;
        let mut s = String::new();
        for _ in 0..len {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s.push(alphabet[(seed % alphabet.len() as u64) as usize]);
        }
        for t in start_tags(&s) {
            assert!(t.end <= s.len());
            let _ = text_until_close(&s, t.end, &t.name, 50);
        }
        let _ = links(&s, &base);
        let _ = decode_entities(&s);
    }
}

#[test]
fn many_unclosed_elements_stay_linear() {
    // Quadratic scanning would make this test take minutes, not milliseconds.
    let html = "<a href=\"/x\">word ".repeat(100_000) + "<script>" + &"<a href=/y>".repeat(10_000);
    let base = Url::parse("http://site.test/").unwrap();
    let l = links(&html, &base);
    assert_eq!(
        l.len(),
        100_000,
        "anchors inside the unclosed script are skipped"
    );
    assert_eq!(l[0].text, "word");
}
