use sgw_provider_official_site::{discover_opensearch, opensearch_template, parse_sitemap};
use url::Url;

#[test]
fn opensearch_prefers_html_results() {
    let xml = r#"<?xml version="1.0"?><OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
      <Url type="application/rss+xml" template="http://s.test/rss?q={searchTerms}"/>
      <Url type="application/x-suggestions+json" template="http://s.test/suggest?q={searchTerms}"/>
      <Url type="text/html" method="get" template="http://s.test/html?q={searchTerms}&amp;p={startPage?}"/>
    </OpenSearchDescription>"#;
    assert_eq!(
        opensearch_template(xml).as_deref(),
        Some("http://s.test/html?q={searchTerms}&p={startPage?}")
    );
    let rss_only = r#"<OpenSearchDescription><Url type="application/rss+xml" template="http://s.test/rss?q={searchTerms}"/></OpenSearchDescription>"#;
    assert!(opensearch_template(rss_only).unwrap().contains("/rss"));
    assert_eq!(opensearch_template("<html>nope</html>"), None);
    assert_eq!(
        opensearch_template(r#"<Url type="text/html" method="post" template="http://s.test/"/>"#),
        None
    );
}

#[test]
fn discovery_reads_link_rel_search() {
    let base = Url::parse("http://s.test/a/").unwrap();
    let html = r#"<head><link rel="alternate" type="application/rss+xml" href="/feed">
      <link rel="search" type="application/opensearchdescription+xml" href="os.xml"></head>"#;
    assert_eq!(
        discover_opensearch(html, &base).unwrap().as_str(),
        "http://s.test/a/os.xml"
    );
    assert_eq!(discover_opensearch("<p>no</p>", &base), None);
}

#[test]
fn sitemaps_urlsets_indexes_and_garbage() {
    let xml = r#"<?xml version="1.0"?><urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
      <url><loc>http://s.test/a</loc><lastmod>2024-01-01</lastmod>
        <image:image><image:loc>http://s.test/a.png</image:loc></image:image></url>
      <url><loc> http://s.test/b </loc><news:news><news:publication_date>2026-02-02</news:publication_date><news:title>Big &amp; news</news:title></news:news></url>
      <url><lastmod>2024-01-01</lastmod></url>
    </urlset>"#;
    let m = parse_sitemap(xml);
    assert_eq!(m.urls.len(), 2);
    assert_eq!(m.urls[0].loc, "http://s.test/a");
    assert_eq!(m.urls[0].lastmod.as_deref(), Some("2024-01-01"));
    assert_eq!(m.urls[1].loc, "http://s.test/b");
    assert_eq!(m.urls[1].lastmod.as_deref(), Some("2026-02-02"));
    assert_eq!(m.urls[1].title.as_deref(), Some("Big & news"));
    let idx = parse_sitemap(
        "<sitemapindex><sitemap><loc>http://s.test/s1.xml</loc></sitemap></sitemapindex>",
    );
    assert_eq!(idx.sitemaps, ["http://s.test/s1.xml"]);
    for junk in [
        "",
        "<",
        "<url><loc>",
        "<urlset><url><loc>\u{0}",
        "\u{feff}<?xml?><url><loc>x</loc>",
    ] {
        let _ = parse_sitemap(junk);
        let _ = opensearch_template(junk);
    }
}

#[test]
fn huge_sitemaps_are_capped() {
    let mut xml = String::from("<urlset>");
    for i in 0..50_010 {
        xml.push_str(&format!(
            "<url><loc>http://s.test/p{i}</loc><lastmod>2024-01-01</lastmod></url>"
        ));
    }
    let m = parse_sitemap(&xml);
    assert_eq!(m.urls.len(), 50_000);
    assert_eq!(m.urls[49_999].loc, "http://s.test/p49999");
}
