use sgw_extract::{Url, extract, normalize_date};

#[test]
fn json_ld_wins_then_opengraph_then_meta() {
    let page = r#"<html lang="en-GB"><head>
<title>Page title - Site</title>
<link rel="canonical" href="/news/42">
<meta property="og:title" content="OG title">
<meta property="og:site_name" content="The Example Times">
<meta name="author" content="Jane Roe">
<meta property="article:modified_time" content="2024-03-02T08:00:00+01:00">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
 {"@type":"WebSite","name":"Example"},
 {"@type":"NewsArticle","headline":"LD headline","datePublished":"2024-03-01T12:30:00Z",
  "author":[{"@type":"Person","name":"John Doe"},{"@type":"Person","name":"Ann Lee"}],
  "publisher":{"@type":"Organization","name":"Example Media"}}]}</script>
</head><body><article><p>Some body text that is long enough to count as a paragraph, with commas, really.</p></article></body></html>"#;
    let url = Url::parse("https://example.org/a/b?x=1").unwrap();
    let doc = extract(page.as_bytes(), Some("text/html"), Some(&url)).unwrap();
    let m = &doc.metadata;
    assert_eq!(m.title.as_deref(), Some("LD headline"));
    assert_eq!(m.publisher.as_deref(), Some("Example Media"));
    assert_eq!(m.authors, vec!["John Doe", "Ann Lee"]);
    assert_eq!(m.published_at.as_deref(), Some("2024-03-01T12:30:00Z"));
    assert_eq!(m.modified_at.as_deref(), Some("2024-03-02T08:00:00+01:00"));
    assert_eq!(m.language.as_deref(), Some("en-GB"));
    assert_eq!(
        m.canonical_url.as_deref(),
        Some("https://example.org/news/42")
    );
}

#[test]
fn fallbacks_opengraph_time_and_text() {
    let page = r#"<html><head><meta property="og:title" content="OG title"><meta property="og:site_name" content="Site">
<meta property="og:locale" content="fr_FR"></head><body><article>
<p class="byline">By <span itemprop="author">Marie Curie</span></p>
<time datetime="2023-07-14">14 juillet</time>
<p>Texte principal de l'article, assez long pour être retenu, avec des virgules, bien sûr.</p></article></body></html>"#;
    let doc = extract(page.as_bytes(), None, None).unwrap();
    let m = &doc.metadata;
    assert_eq!(m.title.as_deref(), Some("OG title"));
    assert_eq!(m.publisher.as_deref(), Some("Site"));
    assert_eq!(m.authors, vec!["Marie Curie"]);
    assert_eq!(m.published_at.as_deref(), Some("2023-07-14"));
    assert_eq!(m.language.as_deref(), Some("fr-FR"));

    let page = "<html><head><title>T</title></head><body><p>Posted on January 5, 2021 by staff. The text of the article is here, with enough words to be a paragraph.</p></body></html>";
    let doc = extract(page.as_bytes(), None, None).unwrap();
    assert_eq!(doc.metadata.published_at.as_deref(), Some("2021-01-05"));
    assert_eq!(doc.metadata.title.as_deref(), Some("T"));
}

#[test]
fn date_normalisation() {
    assert_eq!(
        normalize_date("2024-03-01T12:30:00+02:00").as_deref(),
        Some("2024-03-01T10:30:00Z")
    );
    assert_eq!(
        normalize_date("Tue, 05 Nov 2019 10:00:00 GMT").as_deref(),
        Some("2019-11-05T10:00:00Z")
    );
    assert_eq!(normalize_date("2019-11-05").as_deref(), Some("2019-11-05"));
    assert_eq!(
        normalize_date("11 November 2019").as_deref(),
        Some("2019-11-11")
    );
    assert_eq!(normalize_date("yesterday"), None);
}

#[test]
fn bylines_are_cleaned() {
    let page = r#"<html><body><article><div class="byline">By JANE ROE and John Doe, Staff Writer Nov. 18, 2019 at 9:24 pm ET</div>
<p>Body text of the article, long enough to be a paragraph, with commas, of course.</p></article></body></html>"#;
    let doc = extract(page.as_bytes(), None, None).unwrap();
    assert_eq!(doc.metadata.authors, vec!["JANE ROE", "John Doe"]);
}
