//! Authors: one small page per rule (sources in order, cleaning, splitting,
//! and what is not an author).

use sgw_extract::{Url, extract};

const BODY: &str = "<p>The body of the page, long enough to be read as its main text, with commas, words and a full stop.</p>";

/// A page whose only byline is `<meta name="author" content="{byline}">`.
fn meta_author_page(byline: &str) -> String {
    format!(
        r#"<html><head><meta name="author" content="{byline}"></head><body>{BODY}</body></html>"#
    )
}

fn authors(page: &str, url: Option<&str>) -> Vec<String> {
    let url = url.map(|u| Url::parse(u).unwrap());
    extract(page.as_bytes(), Some("text/html"), url.as_ref())
        .unwrap()
        .metadata
        .authors
}

fn ld_page(json: &str) -> String {
    format!(
        r#"<html><head><script type="application/ld+json">{json}</script></head><body><article>{BODY}</article></body></html>"#
    )
}

#[test]
fn json_ld_person_referenced_by_id_in_a_graph() {
    let page = ld_page(
        r#"{"@context":"https://schema.org","@graph":[
        {"@type":"Article","@id":"https://ex.org/p#article","author":{"@id":"https://ex.org/#/schema/person/1"},"headline":"H"},
        {"@type":"Person","@id":"https://ex.org/#/schema/person/1","name":"Olivia Larsen"}]}"#,
    );
    assert_eq!(authors(&page, None), ["Olivia Larsen"]);
    // A reference to nothing names no one (and does not loop).
    let page = ld_page(r#"{"@graph":[{"@type":"Article","@id":"a","author":{"@id":"a"}}]}"#);
    assert!(authors(&page, None).is_empty());
}

#[test]
fn json_ld_organization_as_author_is_not_a_person() {
    let page =
        ld_page(r#"{"@type":"NewsArticle","author":{"@type":"Organization","name":"CBS News"}}"#);
    assert!(authors(&page, None).is_empty());
    // An array mixing a person, an organisation and a URL keeps the person.
    let page = ld_page(
        r#"{"@type":"NewsArticle","author":[{"@type":"Person","name":"Ann Lee"},{"@type":"NewsMediaOrganization","name":"Daily"},"https://ex.org/ann"]}"#,
    );
    assert_eq!(authors(&page, None), ["Ann Lee"]);
}

#[test]
fn json_ld_byline_string_is_cleaned_of_by_and_role() {
    let page = ld_page(
        r#"{"@type":"NewsArticle","author":[{"@type":"person","name":"By STEVE PEOPLES, AP National Political Writer"}]}"#,
    );
    assert_eq!(authors(&page, None), ["STEVE PEOPLES"]);
}

#[test]
fn site_name_as_author_falls_through_to_the_byline() {
    // JSON-LD names the site as the "Person"; the byline names two people.
    let page = format!(
        r#"<html><head><meta property="og:site_name" content="AppleInsider">
<script type="application/ld+json">{{"@type":"NewsArticle","author":{{"@type":"Person","name":"AppleInsider"}}}}</script></head>
<body><article><p class="byline">By Mike Wuerthele and Malcolm Owen Monday, November 18, 2019</p>{BODY}</article></body></html>"#
    );
    assert_eq!(authors(&page, None), ["Mike Wuerthele", "Malcolm Owen"]);
    // A one-word name that is the site's host is the site.
    let page = format!(
        r#"<html><head><meta name="author" content="Beachbody"></head><body>{BODY}</body></html>"#
    );
    assert!(authors(&page, Some("https://www.beachbodyondemand.com/blog/x")).is_empty());
    // ... but a person's name on a personal domain stays.
    let page = format!(
        r#"<html><head><meta name="author" content="Henning Lobin"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(
        authors(&page, Some("https://lobin.example/post")),
        ["Henning Lobin"]
    );
}

#[test]
fn desks_and_admin_are_not_names() {
    for name in [
        "Admin",
        "Staff Reports",
        "Redaktion",
        "Online-Redaktion",
        "Web Desk",
        "News Team",
    ] {
        let page = meta_author_page(name);
        assert!(authors(&page, None).is_empty(), "{name}");
    }
}

#[test]
fn meta_sources_in_order_and_profile_urls_skipped() {
    // `article:author` is often a profile URL: not a name, the next meta counts.
    let page = format!(
        r#"<html><head><meta property="article:author" content="https://www.facebook.com/someone">
<meta name="parsely-author" content="Ivan Penn"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(authors(&page, None), ["Ivan Penn"]);
    let page = format!(
        r#"<html><head><meta name="byl" content="By Ivan Penn and Brad Plumer"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(authors(&page, None), ["Ivan Penn", "Brad Plumer"]);
    let page = format!(
        r#"<html><head><meta name="sailthru.author" content="Ana Pérez"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(authors(&page, None), ["Ana Pérez"]);
}

#[test]
fn rel_and_itemprop_author_elements() {
    let page = format!(
        r#"<html><body><article><p>Posted <a rel="author" href="/u/jr">Jane Roe</a></p>{BODY}</article></body></html>"#
    );
    assert_eq!(authors(&page, None), ["Jane Roe"]);
    let page = format!(
        r#"<html><body><article><span itemprop="author">Julia Müller</span> 28. Dezember 2022{BODY}</article></body></html>"#
    );
    assert_eq!(authors(&page, None), ["Julia Müller"]);
}

#[test]
fn microdata_organization_author_is_the_site() {
    let page = format!(
        r#"<html><body><div itemprop="author" itemscope itemtype="http://schema.org/Organization">Sputnik</div><article>{BODY}</article></body></html>"#
    );
    assert!(authors(&page, None).is_empty());
}

#[test]
fn commenters_are_not_authors() {
    let page = format!(
        r#"<html><body><article>{BODY}</article><ol class="comment-list"><li class="comment"><div class="vcard"><span class="author">Bob Smith</span> said:</div><p>Nice post.</p></li></ol>
<p class="comment-form-author"><label>Name</label></p></body></html>"#
    );
    assert!(authors(&page, None).is_empty());
}

#[test]
fn visible_byline_lines_in_several_languages() {
    for (line, want) in [
        ("By Jane Roe and John Doe", &["Jane Roe", "John Doe"][..]),
        ("Von Gregory Lipinski", &["Gregory Lipinski"][..]),
        (
            "Par Stefan Häne, Sylvain Besson 19.11.2019",
            &["Stefan Häne", "Sylvain Besson"][..],
        ),
        (
            "Por María de la Cruz | Redacción",
            &["María de la Cruz"][..],
        ),
        (
            "By <a href='/a/jr'>Jane Roe</a> on March 3, 2021",
            &["Jane Roe"][..],
        ),
    ] {
        let page = format!(
            "<html><body><h1>A headline</h1><p>{line}</p><article>{BODY}</article></body></html>"
        );
        assert_eq!(authors(&page, None), want, "{line}");
    }
    // Headings and sentences that start with the same words are not bylines.
    for line in [
        "Von Sarajevo zum Flächenbrand",
        "Von Menschen und Mäusen",
        "Von Wiener Walzer und Mozartkugeln",
        "By choosing this plan you agree",
        "Par ici la sortie",
    ] {
        let page = format!("<html><body><h2>{line}</h2><article>{BODY}</article></body></html>");
        assert!(authors(&page, None).is_empty(), "{line}");
    }
}

#[test]
fn a_place_or_outlet_after_the_byline_is_not_an_author() {
    for (byline, want) in [
        ("By Jane Doe, Paris", &["Jane Doe"][..]),
        ("Nada Tawfik, New York", &["Nada Tawfik"][..]),
        (
            "Markus Haefliger, London, und Beat Bumbacher",
            &["Markus Haefliger", "Beat Bumbacher"][..],
        ),
        (
            "Spencer S. Hsu, The Washington Post",
            &["Spencer S. Hsu"][..],
        ),
        ("Kate Sullivan, CNN", &["Kate Sullivan"][..]),
        ("Grant Tinsley, PhD", &["Grant Tinsley"][..]),
        // Several full names stay several authors, and a one-word name
        // joined by "and" is a co-author, not a place.
        ("Jane Roe, John Doe", &["Jane Roe", "John Doe"][..]),
        ("Jane Roe and Cher", &["Jane Roe", "Cher"][..]),
    ] {
        let page = meta_author_page(byline);
        assert_eq!(authors(&page, None), want, "{byline}");
    }
}

#[test]
fn wire_agencies_are_not_authors() {
    for byline in [
        "Reuters",
        "The Associated Press",
        "AFP/Reuters",
        "PTI",
        "Agencies",
    ] {
        let page = meta_author_page(byline);
        assert!(authors(&page, None).is_empty(), "{byline}");
    }
    // A reporter of an agency is the author; the agency is not.
    let page = ld_page(
        r#"{"@type":"NewsArticle","author":[{"@type":"Person","name":"Colleen Barry"},{"@type":"Person","name":"The Associated Press"}]}"#,
    );
    assert_eq!(authors(&page, None), ["Colleen Barry"]);
}

#[test]
fn a_byline_running_into_the_papers_name_is_cut() {
    let page = format!(
        r#"<html><head><meta name="author" content="Robert Brum and Isabel KeaneJournal News"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(authors(&page, None), ["Robert Brum", "Isabel Keane"]);
    // A capital inside a name is not a join.
    let page = format!(
        r#"<html><head><meta name="author" content="Gareth McGrath and Isabella DiBiase"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(authors(&page, None), ["Gareth McGrath", "Isabella DiBiase"]);
}

#[test]
fn a_long_author_list_is_cut_at_fifty_names_in_page_order() {
    // Distinct names without digits (a digit ends a byline): "Jo Kaa", "Jo Kab", …
    let names: Vec<String> = (0..300)
        .map(|i: u32| {
            let letter = |n: u32| char::from(b'a' + (n % 26) as u8);
            format!("Jo K{}{}", letter(i / 26), letter(i))
        })
        .collect();
    let found = authors(&meta_author_page(&names.join(", ")), None);
    assert_eq!(found.len(), 50, "{found:?}");
    assert_eq!(found, names[..50]);
}
