//! Publication/modification dates and authors: one small page per rule.

use sgw_extract::{Metadata, Url, extract};

const BODY: &str = "<p>The body of the page, long enough to be read as its main text, with commas, words and a full stop.</p>";

fn meta_of(page: &str, url: Option<&str>) -> Metadata {
    let url = url.map(|u| Url::parse(u).unwrap());
    extract(page.as_bytes(), Some("text/html"), url.as_ref())
        .unwrap()
        .metadata
}

fn day(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(|d| &d[..10])
}

#[test]
fn url_dates_in_several_forms() {
    let page = format!("<html><body><article>{BODY}</article></body></html>");
    for (url, want) in [
        ("https://news.example/2021/03/12/some-story", "2021-03-12"),
        ("https://blog.example/2017/7/4/a-post", "2017-07-04"),
        ("https://site.example/p/20190815/title", "2019-08-15"),
        ("https://verein.example/meldungen/29-10-2021", "2021-10-29"),
    ] {
        let m = meta_of(&page, Some(url));
        assert_eq!(day(&m.published_at), Some(want), "{url}");
    }
    // A year and month alone, or a number that is an id, is no date.
    let m = meta_of(&page, Some("https://shop.example/item/2021/03/"));
    assert_eq!(m.published_at, None);
}

#[test]
fn offsets_are_kept_so_the_day_is_the_publishers() {
    let page = format!(
        r#"<html><head><meta property="article:published_time" content="2023-11-08T22:28:35-05:00">
<meta property="article:modified_time" content="2023-11-09T07:00:00-05:00"></head><body>{BODY}</body></html>"#
    );
    let m = meta_of(&page, None);
    assert_eq!(m.published_at.as_deref(), Some("2023-11-08T22:28:35-05:00"));
    assert_eq!(day(&m.modified_at), Some("2023-11-09"));
}

#[test]
fn json_ld_graph_keeps_original_and_update_apart() {
    let page = format!(
        r#"<html><head><script type="application/ld+json">{{"@context":"https://schema.org","@graph":[
{{"@type":"WebSite","name":"Example"}},
{{"@type":"BlogPosting","headline":"H","datePublished":"2020-05-01","dateModified":"2022-01-02T10:00:00Z"}}]}}</script>
</head><body>{BODY}</body></html>"#
    );
    let m = meta_of(&page, None);
    assert_eq!(m.published_at.as_deref(), Some("2020-05-01"));
    assert_eq!(m.modified_at.as_deref(), Some("2022-01-02T10:00:00Z"));

    // JSON-LD that does not parse (a trailing comma) still gives its date.
    let page = format!(
        r#"<html><head><script type="application/ld+json">{{"@type":"NewsArticle","datePublished":"2019-02-03T08:00:00+01:00",}}</script>
</head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2019-02-03"));
}

#[test]
fn meta_names_and_microdata() {
    for (head, want) in [
        (
            r#"<meta name="DC.date.issued" content="2018-06-30">"#,
            "2018-06-30",
        ),
        (
            r#"<meta name="sailthru.date" content="2016-04-05 10:20:00">"#,
            "2016-04-05",
        ),
        (
            r#"<meta name="parsely-pub-date" content="2015-01-31T23:59:00Z">"#,
            "2015-01-31",
        ),
        (
            r#"<meta itemprop="datePublished" content="2014-12-24">"#,
            "2014-12-24",
        ),
    ] {
        let page = format!("<html><head>{head}</head><body>{BODY}</body></html>");
        assert_eq!(
            day(&meta_of(&page, None).published_at),
            Some(want),
            "{head}"
        );
    }
    let page = format!(
        r#"<html><body><article><time datetime="2021-09-01T12:00:00Z" pubdate>1 Sep</time>{BODY}</article></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2021-09-01"));
}

#[test]
fn visible_dates_in_many_languages() {
    for (lang, line, want) in [
        (
            "de",
            "Veröffentlicht am 12. März 2021, 10:00 Uhr",
            "2021-03-12",
        ),
        ("fr", "Publié le 5 mars 2021", "2021-03-05"),
        ("es", "12 de marzo de 2021", "2021-03-12"),
        ("it", "3 aprile 2020", "2020-04-03"),
        ("pt", "7 de setembro de 2019", "2019-09-07"),
        ("nl", "14 mei 2018", "2018-05-14"),
        ("pl", "3 października 2022", "2022-10-03"),
        ("ru", "12 марта 2021 г.", "2021-03-12"),
        ("zh", "2021年3月12日 10:00", "2021-03-12"),
        ("ko", "2021년 3월 12일", "2021-03-12"),
        ("hu", "2021. március 12.", "2021-03-12"),
        ("en", "March 5th, 2021", "2021-03-05"),
        ("en-GB", "Friday, 5 March 2021", "2021-03-05"),
    ] {
        let page = format!(
            r#"<html lang="{lang}"><body><article><h1>Title</h1><div class="post-date">{line}</div>{BODY}</article></body></html>"#
        );
        assert_eq!(
            day(&meta_of(&page, None).published_at),
            Some(want),
            "{lang}: {line}"
        );
    }
}

#[test]
fn numeric_dates_follow_the_page_locale() {
    let page = |lang: &str| {
        format!(
            r#"<html lang="{lang}"><body><article><span class="date">03/04/2021</span>{BODY}</article></body></html>"#
        )
    };
    assert_eq!(
        day(&meta_of(&page("en-US"), None).published_at),
        Some("2021-03-04")
    );
    assert_eq!(
        day(&meta_of(&page("fr"), None).published_at),
        Some("2021-04-03")
    );
    // A day above 12 decides whatever the locale.
    let page = format!(
        r#"<html lang="en-US"><body><article><span class="date">25.12.2020</span>{BODY}</article></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2020-12-25"));
    // A two-digit year is read only in an element that says "date".
    let page = format!(
        r#"<html lang="de"><body><article><span class="datum">12.03.21</span>{BODY}</article></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2021-03-12"));
}

#[test]
fn updated_is_not_published() {
    let page = format!(
        r#"<html lang="en"><body><article><h1>T</h1>
<p class="entry-meta">Updated: 14 March 2021</p><p class="date">Published 12 March 2021</p>{BODY}</article></body></html>"#
    );
    let m = meta_of(&page, None);
    assert_eq!(day(&m.published_at), Some("2021-03-12"));
    assert_eq!(day(&m.modified_at), Some("2021-03-14"));
    let page = format!(
        r#"<html lang="de"><body><article><div class="article-aktualisiert-date">Aktualisiert am 2. Mai 2022</div>{BODY}</article></body></html>"#
    );
    let m = meta_of(&page, None);
    assert_eq!(m.published_at, None);
    assert_eq!(day(&m.modified_at), Some("2022-05-02"));
}

#[test]
fn comments_sidebars_and_copyright_give_no_date() {
    let page = format!(
        r#"<html lang="en"><body><article><h1>T</h1>{BODY}{BODY}{BODY}</article>
<div id="comments"><div class="comment"><span class="date">May 3, 2021</span> Great post!</div></div>
<div class="sidebar"><h3>Recent posts</h3><span class="date">April 1, 2021</span></div>
<footer>Copyright 12 March 2021 Example Inc.</footer>
<p>© 1 January 2020 Example</p></body></html>"#
    );
    assert_eq!(meta_of(&page, None).published_at, None);
    // The date of the article itself, after a sidebar of teasers, is found.
    let page = format!(
        r#"<html lang="en"><body><div class="sidebar-recent"><span class="date">April 1, 2021</span></div>
<article><h1>T</h1><p class="byline">By Jane Roe, April 20, 2021</p>{BODY}{BODY}{BODY}</article></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2021-04-20"));
}

#[test]
fn plausibility_bounds() {
    // After the reference time (now): not a publication date.
    let page = format!(
        r#"<html><head><meta property="article:published_time" content="2999-01-01"></head><body><article><span class="date">1 May 2020</span>{BODY}</article></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2020-05-01"));
    // Before 1995 only when the page declares it in its metadata.
    let page = format!(
        r#"<html><body><article><span class="date">1 May 1990</span>{BODY}</article></body></html>"#
    );
    assert_eq!(meta_of(&page, None).published_at, None);
    let page = format!(
        r#"<html><head><meta name="citation_publication_date" content="1987-05-01"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("1987-05-01"));
    // Version numbers and times are not dates.
    let page = format!(
        "<html><body><article><p>Release 1.12.2021.4 at 10.11.12</p>{BODY}</article></body></html>"
    );
    assert_eq!(meta_of(&page, None).published_at, None);
}

#[test]
fn text_date_near_the_title_as_last_resort() {
    let page = format!(
        "<html lang=\"en\"><body><article><h1>T</h1><p>Posted on January 5, 2021 by staff.</p>{BODY}</article></body></html>"
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2021-01-05"));
}

#[test]
fn authors_are_cleaned_and_split() {
    let cases: &[(&str, &[&str])] = &[
        (
            r#"<meta name="author" content="Von Max Mustermann und Erika Musterfrau">"#,
            &["Max Mustermann", "Erika Musterfrau"],
        ),
        (
            r#"<meta name="author" content="By Jane Doe, Staff Writer jane@example.com">"#,
            &["Jane Doe"],
        ),
        (
            r#"<meta name="author" content="Autor: Jean Dupont et Marie Curie">"#,
            &["Jean Dupont", "Marie Curie"],
        ),
        (
            r#"<meta name="author" content="Ana Pérez y Luis García | Diario Ejemplo">"#,
            &["Ana Pérez", "Luis García"],
        ),
        (
            r#"<meta name="author" content="Tom Stafford">"#,
            &["Tom Stafford"],
        ),
        (
            r#"<meta name="author" content="Von der Heide">"#,
            &["Von der Heide"],
        ),
    ];
    for (head, want) in cases {
        let page = format!("<html><head>{head}</head><body>{BODY}</body></html>");
        assert_eq!(meta_of(&page, None).authors, *want, "{head}");
    }
    // JSON-LD authors: names of Person objects, URLs dropped, no duplicates.
    let page = format!(
        r#"<html><head><script type="application/ld+json">{{"@type":"NewsArticle","author":[{{"@type":"Person","name":"Ann Lee"}},"https://example.org/staff/ann",{{"@type":"Person","name":"ANN LEE"}},{{"@type":"Person","name":"Bo Chen"}}]}}</script></head><body>{BODY}</body></html>"#
    );
    assert_eq!(meta_of(&page, None).authors, ["Ann Lee", "Bo Chen"]);
    // A byline element when nothing declares the author.
    let page = format!(
        r#"<html><body><article><div class="byline">Par Claire Martin, le 3 mars 2021</div>{BODY}</article></body></html>"#
    );
    assert_eq!(meta_of(&page, None).authors, ["Claire Martin"]);
}

#[test]
fn dateline_next_to_the_headline() {
    // The first date after the `<h1>` (a dateline), not a teaser's date
    // before it nor a date quoted in the body.
    let page = format!(
        r#"<html lang="de"><head><title>Marode Brücken – Verband</title></head><body>
<ul class="list"><li><span class="t-ca-author">09.10.2021</span> Anderer Artikel</li></ul>
<p>Startseite: Service, Presse, Pressemitteilungen, Verkehr, Mobilität, Naturschutz, Landwirtschaft, Klimaschutz</p>
<h1>Marode Brücken</h1><p>21. Januar 2022 | Mobilität</p>
<p>Laut einer Analyse vom 12.1.2022 müssen 400 Brücken pro Jahr erneuert werden.</p>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2022-01-21"));
    // A date-like element just above the headline beats a date in the lede.
    let page = format!(
        r#"<html lang="es"><body><p class="published-date">martes 17 de marzo de 2020</p>
<h1>Precio del petróleo</h1><p>Su cotización más baja desde el 6 de marzo de 2002.</p>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2020-03-17"));
    // An element marked "updated" beside the headline is the modification.
    let page = format!(
        r#"<html lang="de"><body><span class="posted-on"><time class="entry-date published" datetime="2019-02-10T09:30:10+01:00">10. Februar 2019</time><time class="updated" datetime="2019-02-11T23:00:55+01:00">11. Februar 2019</time></span>
<h1>Laufen im Winter</h1>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2019-02-10"));
    // A `pubdate` time in a forum reply does not beat the article's dateline.
    let page = format!(
        r#"<html lang="fr"><body><h1>Chronique</h1><p class="publication">Le <time datetime="2019-06-28T13:49:45Z">28 juin 2019</time></p>{BODY}
<div class="forum-list"><p>Réponse</p><time datetime="2019-09-22T07:30:29Z" pubdate>22 septembre</time></div></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2019-06-28"));
}

#[test]
fn the_publishers_local_day_wins_over_utc() {
    // The same instant in UTC (meta) and with the local offset (JSON-LD).
    let page = format!(
        r#"<html><head><meta property="article:published_time" content="2020-12-24T23:59:50+00:00">
<script type="application/ld+json">{{"@type":"NewsArticle","datePublished":"2020-12-25T01:59:50+02:00"}}</script></head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2020-12-25"));
    // A local time without an offset, whole hours away from the UTC one.
    let page = format!(
        r#"<html><head><meta property="article:published_time" content="2023-11-09T06:35:29+00:00">
<meta name="sailthru.date" content="2023-11-08 22:35:29"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2023-11-08"));
    // Different instants: the first declaration stands.
    let page = format!(
        r#"<html><head><meta property="article:published_time" content="2019-12-12T21:17:43Z">
<meta name="sailthru.date" content="2019-12-09 22:25:10"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2019-12-12"));
}

#[test]
fn microdata_on_any_element_and_dotted_dates() {
    let page = format!(
        r#"<html lang="en"><body><article><h1>T</h1><span itemprop="datePublished" content="2019-05-04">May 4</span>
<p class="date">June 1, 2020</p>{BODY}</article></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2019-05-04"));
    // Dots mean day first, even on a US-English page.
    let page = format!(
        r#"<html lang="en-US"><body><article><span class="date">02.03.2021</span>{BODY}</article></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2021-03-02"));
}

#[test]
fn the_headline_is_never_in_an_excluded_region() {
    // The headline and its dateline sit in blocks whose classes name regions
    // of other pages' dates (a teaser, a breadcrumb bar, a preview).
    for wrapper in [
        "figure class=\"teaser\"",
        "div class=\"m-intro__breadcrumbnavigation\"",
        "div class=\"preview_top\"",
    ] {
        let tag = wrapper.split(' ').next().unwrap();
        let page = format!(
            r#"<html lang="de"><head><title>Erneuter Verzicht auf den Lehrgang</title></head><body>
<{wrapper}><span class="date">02.02.2022</span><h1>Erneuter Verzicht auf den Lehrgang</h1></{tag}>
{BODY}</body></html>"#
        );
        assert_eq!(
            day(&meta_of(&page, None).published_at),
            Some("2022-02-02"),
            "{wrapper}"
        );
    }
    // A teaser elsewhere on the page still gives no date.
    let page = format!(
        r#"<html lang="de"><head><title>Ein Artikel ohne sichtbares Datum</title></head><body>
<h1>Ein Artikel ohne sichtbares Datum</h1>{BODY}
<figure class="teaser"><span class="date">02.02.2022</span><a href="/x">Anderer Artikel</a></figure></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), None);
}

#[test]
fn the_masthead_logo_date_is_the_edition_not_the_page() {
    let page = format!(
        r#"<html lang="fr"><head><title>Violences policières: bombe médiatique</title></head><body>
<a class="logo" href="/"><span class="date-edition">lun. 5 août 2019</span></a>
<h1>Violences policières: bombe médiatique</h1><ul class="info"><li>27 juin 2019</li></ul>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2019-06-27"));
}

#[test]
fn disagreeing_declarations_are_settled_by_the_visible_dateline() {
    // Meta tags name two days; the dateline under the headline confirms one.
    let page = format!(
        r#"<html lang="de"><head><title>Warum sich das Warten lohnt</title>
<meta name="pubdate" content="2021-12-14T15:41:07+01:00"><meta name="DC.date.issued" content="2022-02-04T15:33:00+01:00"></head>
<body><h1>Warum sich das Warten lohnt</h1><p class="author">04.02.2022 | 15:33 Uhr</p>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2022-02-04"));
    // No dateline: the first declaration stands.
    let page = format!(
        r#"<html lang="de"><head><title>Warum sich das Warten lohnt</title>
<meta name="pubdate" content="2021-12-14T15:41:07+01:00"><meta name="DC.date.issued" content="2022-02-04T15:33:00+01:00"></head>
<body><h1>Warum sich das Warten lohnt</h1>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2021-12-14"));
}

#[test]
fn dates_only_in_scripts_and_data() {
    // An application's state object, with `\"` and `&quot;` quoting.
    let page = format!(
        r#"<html><body>{BODY}<script>window.state = {{"product": {{"title": "Kaffee", "published_at":"2019-03-02T06:22:28+01:00"}}}};</script></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2019-03-02"));
    let page = format!(
        r#"<html><body><div data-json="{{&quot;publishedDate&quot;:&quot;2016-11-04T20:37:27Z&quot;}}"></div>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2016-11-04"));
    // Publication keys before creation keys, wherever they are.
    let page = format!(
        r#"<html><body><script>var a = {{createdAt: "2015-01-01T00:00:00Z"}}; var b = {{publishDate: '2016-02-03'}};</script>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2016-02-03"));
    // A longer key that only starts like one is not read; nor a future date.
    let page = format!(
        r#"<html><body><script>var a = {{"publishedDateLabel": "2016-02-03", "pubDate": "2999-01-01"}};</script>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), None);
}

#[test]
fn structured_dates_with_a_broken_time_keep_their_day() {
    let page = format!(
        r#"<html><head><script type="application/ld+json">{{"@type":"HowTo","datePublished":"2022-01-10T22:06:08:684Z"}}</script></head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2022-01-10"));
}

#[test]
fn the_preview_image_path_as_a_last_resort() {
    let page = format!(
        r#"<html><head><meta property="og:image" content="https://example.org/files/2016/05/04/report.png"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2016-05-04"));
    // A date written on the page comes first.
    let page = format!(
        r#"<html><head><meta property="og:image" content="https://example.org/files/2016/05/04/report.png"></head><body><p class="date">7 June 2016</p>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2016-06-07"));
}

#[test]
fn the_pages_own_time_element_gives_the_local_day_of_utc_metadata() {
    // Metadata in UTC, the page's `<time>` names the same instant in local time.
    let page = format!(
        r#"<html lang="en"><head><meta property="article:published_time" content="2023-11-09T02:11:03+00:00"></head>
<body><h1>A headline of the page</h1><time datetime="2023-11-08T21:11:03-05:00">Yesterday evening</time>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2023-11-08"));
    // A `<time>` naming another instant (a teaser) does not move the day.
    let page = format!(
        r#"<html lang="en"><head><meta property="article:published_time" content="2023-11-09T02:11:03+00:00"></head>
<body><h1>A headline of the page</h1>{BODY}<time datetime="2023-11-08T20:00:00-05:00">Other story</time></body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2023-11-09"));
}

#[test]
fn times_in_comment_sections_are_not_the_pages() {
    let page = format!(
        r#"<html lang="de"><body><article><h1>Titel der Seite</h1>{BODY}{BODY}
<ol class="comment-list"><li class="comment"><footer class="comment-metadata"><time datetime="2019-08-24T03:36:11+02:00">24. August 2019 um 03:36 Uhr</time></footer><p>Danke!</p></li></ol>
</article></body></html>"#
    );
    assert_eq!(meta_of(&page, None).published_at, None);
}

#[test]
fn the_canonical_address_dates_a_page_fetched_elsewhere() {
    let page = |canonical: &str| {
        format!(
            r#"<html lang="en"><head><link rel="canonical" href="{canonical}"></head><body><article>{BODY}</article></body></html>"#
        )
    };
    // Fetched at a short link (or without an address): the canonical path says the day.
    let p = page("https://news.example.com/2020/04/21/story-slug/");
    assert_eq!(
        day(&meta_of(&p, Some("https://t.example/abc123")).published_at),
        Some("2020-04-21")
    );
    assert_eq!(day(&meta_of(&p, None).published_at), Some("2020-04-21"));
    // A relative canonical resolves against the page's address.
    let p = page("/2019/12/09/story/");
    assert_eq!(
        day(&meta_of(&p, Some("https://news.example.com/s?id=7")).published_at),
        Some("2019-12-09")
    );
    // `og:url` when there is no canonical link.
    let p = format!(
        r#"<html lang="en"><head><meta property="og:url" content="https://news.example.com/20210312/story.html"></head><body><article>{BODY}</article></body></html>"#
    );
    assert_eq!(day(&meta_of(&p, None).published_at), Some("2021-03-12"));
    // A canonical address without a date gives none.
    let p = page("https://news.example.com/story-slug/");
    assert_eq!(meta_of(&p, None).published_at, None);
}

#[test]
fn a_generic_date_meta_yields_to_the_visible_dateline() {
    // `<meta name="date">` holds the last edit; the dateline under the headline the day.
    let page = format!(
        r#"<html lang="de"><head><title>Mieten steigen weiter</title><meta name="date" content="2020-04-30"></head>
<body><h1>Mieten steigen weiter</h1><ul class="infoline"><li class="date"><time>29.04.2020, 12:01 Uhr</time></li></ul>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2020-04-29"));
    // Alone, it still dates the page.
    let page = format!(
        r#"<html lang="de"><head><meta name="DCTERMS.date" content="2021-12-20T11:02:44+01:00"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2021-12-20"));
    // Beside a specific declaration of another day, it counts when the dateline confirms it.
    let page = format!(
        r#"<html lang="en-gb"><head><title>Goats left the island</title>
<meta name="date" content="2020-01-06T09:22:36Z"><meta property="article:published_time" content="2020-01-03T09:48:24Z"></head>
<body><h1>Goats left the island</h1><p class="byline">Monday, 6 January 2020</p>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2020-01-06"));
}

#[test]
fn the_dateline_may_show_the_revision_as_the_pages_date() {
    let head = r#"<meta property="article:published_time" content="2021-11-29T14:13:37+00:00">
<meta property="article:modified_time" content="2022-01-12T14:27:30+00:00">"#;
    let page = format!(
        r#"<html lang="de"><head><title>Haben Fische Schmerzen?</title>{head}</head>
<body><h1>Haben Fische Schmerzen?</h1><div class="meta"><span class="icon-calendar"></span> 12.01.2022</div>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2022-01-12"));
    // No dateline, or one of another day: the declared publication stays.
    let page = format!(r#"<html lang="de"><head>{head}</head><body>{BODY}</body></html>"#);
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2021-11-29"));
    let page = format!(
        r#"<html lang="de"><head><title>Haben Fische Schmerzen?</title>{head}</head>
<body><h1>Haben Fische Schmerzen?</h1><div class="meta">03.05.2021</div>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2021-11-29"));
}

#[test]
fn a_local_dateline_gives_the_day_of_a_utc_declaration() {
    let page = |dateline: &str| {
        format!(
            r#"<html lang="de"><head><title>Was bringen Therapien?</title><script type="application/ld+json">{{"@type":"NewsArticle","datePublished":"2019-10-18T22:04:00Z"}}</script></head>
<body><h1>Was bringen Therapien?</h1><p class="infoline"><span class="datum">{dateline}</span></p>{BODY}</body></html>"#
        )
    };
    // 22:04 UTC is past midnight in the publisher's zone.
    assert_eq!(
        day(&meta_of(&page("19. Oktober 2019 00:04 Uhr"), None).published_at),
        Some("2019-10-19")
    );
    // Two days apart is not a time zone.
    assert_eq!(
        day(&meta_of(&page("20. Oktober 2019"), None).published_at),
        Some("2019-10-18")
    );
}

#[test]
fn a_number_starting_the_slug_is_no_day_of_the_url() {
    let page = format!("<html><body><article>{BODY}</article></body></html>");
    let m = meta_of(
        &page,
        Some("https://blog.example/2023/10/3-questions-for-the-team/"),
    );
    assert_eq!(m.published_at, None);
    let m = meta_of(&page, Some("https://blog.example/2023/10/03/questions/"));
    assert_eq!(day(&m.published_at), Some("2023-10-03"));
}

#[test]
fn upload_names_with_a_time_date_the_preview_image_only() {
    let page = format!(
        r#"<html><head><meta name="twitter:image:src" content="https://img.example/images/large/20201007120909561.jpg"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2020-10-07"));
    // An archive's copy time in the page's own address is not its date.
    let page = format!("<html><body>{BODY}</body></html>");
    let m = meta_of(
        &page,
        Some("https://archive.example/web/20110106023242/http://club.example/news.php?id=111"),
    );
    assert_eq!(m.published_at, None);
}

#[test]
fn site_navigation_bars_do_not_date_the_page() {
    // Today's date in the site's top bar is not the page's.
    let page = format!(
        r#"<html lang="de"><body><div class="navtop"><span class="mod_datetime"><time datetime="2023-11-01T13:56:20+01:00">Mittwoch, 01. November 2023</time></span></div>
<h1>Kolumne</h1><p><span class="text_datum">31. Oktober 2023.</span> Der Text beginnt hier.</p>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2023-10-31"));
    // Bootstrap's `nav` class on a meta line under the headline is no navigation.
    let page = format!(
        r#"<html lang="en"><head><title>Envoy says talks resume | Example</title></head><body><h1>Envoy says talks resume</h1>
<ul class="nav meta"><li><a href="/time/2020-10-13">13 Oct 2020 18:29</a></li></ul>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2020-10-13"));
}

#[test]
fn a_date_in_the_summary_is_a_last_resort() {
    let page = format!(
        r#"<html lang="it"><head><meta name="description" content="Orso: un anno da record (Notizia del 14 Gennaio 2020)"></head><body>{BODY}</body></html>"#
    );
    assert_eq!(day(&meta_of(&page, None).published_at), Some("2020-01-14"));
    // A modification date is still never the publication date.
    let page = format!(
        r#"<html lang="en"><head><meta property="article:modified_time" content="2019-06-13T10:00:00Z"></head><body>{BODY}</body></html>"#
    );
    let m = meta_of(&page, None);
    assert_eq!(m.published_at, None);
    assert_eq!(day(&m.modified_at), Some("2019-06-13"));
}
