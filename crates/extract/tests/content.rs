use sgw_extract::{DocumentKind, extract, looks_like_js_shell, visible_text_len};

const ARTICLE: &str = r#"<!doctype html><html lang="en"><head><title>Rivers rise | Daily News</title></head>
<body>
<header class="site-header"><nav><a href="/">Home</a> <a href="/world">World</a> <a href="/sport">Sport</a></nav></header>
<div class="layout">
  <aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Celebrity does thing</a></li><li><a href="/b">Another story</a></li></ul></aside>
  <article class="story">
    <h1>Rivers rise</h1>
    <p>The river rose by three metres overnight, flooding the lower town and forcing hundreds of residents to leave their homes, officials said on Tuesday.</p>
    <h2>Evacuations</h2>
    <p>Emergency services, which had prepared for days, moved families to schools and sports halls, where volunteers served hot meals.</p>
    <ul><li>Schools are closed until Friday.</li><li>Trains are suspended between the two stations.</li></ul>
    <div class="ad-slot">ADVERTISEMENT</div>
    <p>Forecasters expect the water to recede slowly, but warned that more rain, possibly heavy, could fall at the weekend.</p>
    <div class="share-tools"><a href="/s/fb">Share on Facebook</a> <a href="/s/tw">Tweet</a></div>
  </article>
  <section class="related-stories"><h2>Related</h2><ul><li><a href="/c">Floods last year</a></li><li><a href="/d">Dams explained</a></li></ul></section>
</div>
<div id="comments"><p>First comment, I think this is terrible, truly, and somebody should act.</p></div>
<footer><p>Copyright Daily News. All rights reserved, everywhere, forever.</p></footer>
<script>var tracking = "The river rose by three metres";</script>
</body></html>"#;

/// The main text of an article of `prose`, `block`, `prose`.
fn article_text(prose: &str, block: &str) -> String {
    let page = format!("<html><body><article>{prose}{block}{prose}</article></body></html>");
    extract(page.as_bytes(), Some("text/html"), None)
        .unwrap()
        .text
}

#[test]
fn keeps_article_drops_boilerplate() {
    let doc = extract(ARTICLE.as_bytes(), Some("text/html; charset=utf-8"), None).unwrap();
    assert_eq!(doc.kind, DocumentKind::Html);
    let t = &doc.text;
    assert!(
        t.contains("The river rose by three metres overnight"),
        "{t}"
    );
    assert!(t.contains("Emergency services"), "{t}");
    assert!(t.contains("Forecasters expect"), "{t}");
    assert!(
        t.contains("- Schools are closed until Friday."),
        "lists readable: {t}"
    );
    assert!(t.contains("Evacuations"), "headings kept: {t}");
    for junk in [
        "Home",
        "Most read",
        "ADVERTISEMENT",
        "Share on Facebook",
        "Floods last year",
        "First comment",
        "Copyright",
        "tracking",
    ] {
        assert!(!t.contains(junk), "{junk:?} leaked into: {t}");
    }
    // Paragraph structure survives as blank lines.
    assert!(
        t.contains("officials said on Tuesday.\n\nEvacuations\n\nEmergency services"),
        "{t}"
    );
}

#[test]
fn js_shell_detection() {
    let shell = r#"<html><head><script src="/app.js"></script></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>"#;
    assert!(looks_like_js_shell(shell));
    let bare =
        r#"<html><body><div id="__next"></div><script src="/main.js"></script></body></html>"#;
    assert!(looks_like_js_shell(bare));
    assert!(!looks_like_js_shell(ARTICLE));
    assert!(visible_text_len(ARTICLE) > 500);
    assert!(visible_text_len(shell) < 10);
}

#[test]
fn js_shell_messages_in_any_case_and_place() {
    for msg in [
        "JavaScript must be enabled",
        "ENABLE JAVASCRIPT",
        "Turn on JavaScript.",
        "This site requires JavaScript",
        "javascript is disabled in your browser",
    ] {
        // No <script> at all: only the message makes it a shell.
        let page = format!("<html><body><p>{msg}</p></body></html>");
        assert!(looks_like_js_shell(&page), "{page}");
        assert!(looks_like_js_shell(msg), "{msg}");
    }
    assert!(!looks_like_js_shell(
        "<html><body><p>JavaScript tips</p></body></html>"
    ));
    assert!(!looks_like_js_shell("enable java script"));
}

#[test]
fn js_shell_detection_on_long_pages() {
    // Past the 4 and 32 KiB first looks: a shell behind a long head is still
    // a shell, and an article whose text starts late is still not one.
    let filler = format!("<script>var x = '{}';</script>", "a".repeat(40 * 1024));
    let shell = format!(
        "<html><head>{filler}<style>{}</style></head><body><noscript>Please enable JavaScript.</noscript><div id=\"root\"></div></body></html>",
        "p{color:red}".repeat(4000)
    );
    assert!(looks_like_js_shell(&shell));
    let late = ARTICLE.replacen("<head>", &format!("<head>{filler}"), 1);
    assert!(!looks_like_js_shell(&late));
    let long = ARTICLE.replacen("</article>", &"<p>More words here.</p>".repeat(3000), 1);
    assert!(!looks_like_js_shell(&long));
}

mod prefix_parse {
    use proptest::prelude::*;
    use sgw_extract::html::{content::visible_text, dom};

    const PIECES: &[&str] = &[
        "<p>",
        "</p>",
        "<div hidden>",
        "<div style=\"display: none\">",
        "</div>",
        "<head>",
        "</head>",
        "<body>",
        "<noscript>",
        "</noscript>",
        "<script>var a = '<p>x</p>';</script>",
        "<style>p{}</style>",
        "<!-- c -->",
        "<li>",
        "<br>",
        "<table><tr><td>",
        "&amp;",
        "&eacute",
        " a < b ",
        "Words here",
        "\n\n",
        "<h2>Title</h2>",
        "<a href=\"/x\">link",
        "<",
        "é",
    ];

    proptest! {
        /// The tree of the first bytes is part of the whole tree: its visible
        /// text is a prefix of the whole page's (what the JS-shell check's
        /// first looks rely on).
        #[test]
        fn visible_text_of_a_prefix_is_a_prefix(
            picks in proptest::collection::vec(0..PIECES.len(), 0..40),
            cut in 0usize..400,
        ) {
            let html: String = picks.iter().map(|&i| PIECES[i]).collect();
            let whole = visible_text(&dom::parse(&html));
            let part = visible_text(&dom::parse_upto(&html, cut));
            prop_assert!(whole.starts_with(part.trim_end()), "{html:?} at {cut}: {part:?} vs {whole:?}");
            if cut >= html.len() {
                prop_assert_eq!(part, whole);
            }
        }
    }
}

#[test]
fn text_markdown_json_pass_through() {
    let doc = extract(b"plain words\nsecond line", Some("text/plain"), None).unwrap();
    assert_eq!(doc.kind, DocumentKind::Text);
    assert_eq!(doc.text, "plain words\nsecond line");
    let doc = extract(b"# Title\n\nBody text.", Some("text/markdown"), None).unwrap();
    assert_eq!(doc.kind, DocumentKind::Markdown);
    assert_eq!(doc.metadata.title.as_deref(), Some("Title"));
    let doc = extract(br#"{"a": 1}"#, None, None).unwrap();
    assert_eq!(doc.kind, DocumentKind::Json);
    assert_eq!(doc.text, r#"{"a": 1}"#);
}

#[test]
fn gzip_is_unwrapped() {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(ARTICLE.as_bytes()).unwrap();
    let gz = enc.finish().unwrap();
    let doc = extract(&gz, None, None).unwrap();
    assert!(doc.text.contains("Forecasters expect"));
}

#[test]
fn empty_and_binary_are_errors_naming_the_url() {
    let url = sgw_extract::Url::parse("https://example.org/x").unwrap();
    let err = extract(b"  \n", None, Some(&url)).unwrap_err();
    assert!(err.to_string().contains("https://example.org/x"), "{err}");
    let err = extract(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", None, Some(&url)).unwrap_err();
    assert!(err.to_string().contains("binary"), "{err}");
}

#[cfg(not(feature = "pdf"))]
#[test]
fn pdf_without_feature_is_unsupported() {
    let err = extract(b"%PDF-1.4\n...", None, None).unwrap_err();
    assert!(err.to_string().contains("pdf"), "{err}");
}

#[cfg(feature = "pdf")]
#[test]
fn broken_pdf_is_an_error_not_a_panic() {
    let err = extract(&sgw_testkit::pdf::broken(), None, None).unwrap_err();
    assert!(err.to_string().contains("PDF"), "{err}");
}

#[cfg(feature = "pdf")]
#[test]
fn pdf_text_with_feature() {
    let doc = extract(&sgw_testkit::pdf::tiny("Hello PDF world"), None, None).unwrap();
    assert_eq!(doc.kind, DocumentKind::Pdf);
    assert!(doc.text.contains("Hello PDF world"), "{:?}", doc.text);
}

#[cfg(feature = "pdf")]
#[test]
fn truncated_and_corrupted_pdfs_are_errors_or_text_never_panics() {
    let pdf = sgw_testkit::pdf::tiny("Hello PDF world");
    for cut in (9..pdf.len()).step_by(37) {
        let _ = extract(&pdf[..cut], Some("application/pdf"), None);
    }
    let mut flipped = pdf.clone();
    for i in (20..flipped.len()).step_by(13) {
        flipped[i] ^= 0x5a;
    }
    let _ = extract(&flipped, Some("application/pdf"), None);
}

#[test]
fn wrapper_with_ad_like_class_keeps_the_article() {
    // A page-wide wrapper whose class looks like an ad slot must not take the
    // article with it; a small block with the same class goes.
    let para = "<p>Paragraph of the story with enough words, commas, and sentences to count as content.</p>";
    let page = format!(
        "<html><body><div class='page-ad-margins'><div class='story-body'>{}</div></div><div class='page-ad-margins'>Buy now</div></body></html>",
        para.repeat(6)
    );
    let doc = extract(page.as_bytes(), None, None).unwrap();
    assert_eq!(
        doc.text.matches("Paragraph of the story").count(),
        6,
        "{}",
        doc.text
    );
    assert!(!doc.text.contains("Buy now"));
}

#[test]
fn article_split_over_sibling_cards_is_kept_whole() {
    let card = |n: usize| {
        format!(
            "<div class='card'><div class='card-text'><p>Part {n} of the article goes on with many words, clauses, and details for the reader.</p></div></div>"
        )
    };
    let cards: String = (1..=5).map(card).collect();
    let page = format!(
        "<html><body><nav><a href='/'>Home</a></nav><div class='cards'>{cards}</div><div class='promo'><a href='/x'>Other story</a></div></body></html>"
    );
    let doc = extract(page.as_bytes(), None, None).unwrap();
    for n in 1..=5 {
        assert!(
            doc.text.contains(&format!("Part {n} of the article")),
            "{}",
            doc.text
        );
    }
    assert!(!doc.text.contains("Other story"));
}

/// A paragraph of prose with enough words and commas to score as content.
fn para(tag: &str, n: usize) -> String {
    format!(
        "<p>{tag} paragraph {n} goes on with words, clauses, and details, so that a reader learns something from it.</p>"
    )
}

fn text_of(page: &str) -> String {
    extract(page.as_bytes(), Some("text/html"), None)
        .unwrap()
        .text
}

#[test]
fn content_inside_an_unclosed_head_or_header_is_found() {
    // No </head>, no <body>: the first content element starts the body.
    let page = format!(
        "<html><head><title>T</title><meta charset=utf-8><div class='content'>{}</div></html>",
        para("Headless", 1).repeat(3)
    );
    assert!(text_of(&page).contains("Headless paragraph 1"), "{page}");
    // An unclosed <header> swallowing the page still yields the article.
    let page = format!(
        "<html><body><header id='branding'><a href='/'>Site</a><article>{}</article></body></html>",
        (1..=4).map(|n| para("Swallowed", n)).collect::<String>()
    );
    let t = text_of(&page);
    assert!(t.contains("Swallowed paragraph 4"), "{t}");
}

#[test]
fn noscript_text_is_content_and_svg_title_does_not_swallow_the_page() {
    let page = format!(
        "<html><body><div class='post-body'><script type='text/template'>x</script><noscript>{}</noscript></div></body></html>",
        para("Noscript", 1).repeat(3)
    );
    assert!(text_of(&page).contains("Noscript paragraph 1"));
    let page = format!(
        "<html><body><svg><title/><path d='M0'/></svg><article>{}</article></body></html>",
        para("Svg", 1).repeat(3)
    );
    assert!(text_of(&page).contains("Svg paragraph 1"));
}

#[test]
fn teaser_listing_does_not_beat_the_article() {
    let teaser = |n: usize| {
        format!(
            "<article class='teaser-{n} post'><h3><a href='/t{n}'>Other headline {n}</a></h3><p>Teaser {n} text with words, commas, and a promise of more.</p></article>"
        )
    };
    let page = format!(
        "<html><body><main><div class='layout'><div class='col'><div class='story'>{}</div></div></div></main><section class='more'>{}</section></body></html>",
        (1..=6).map(|n| para("Story", n)).collect::<String>(),
        (1..=6).map(teaser).collect::<String>()
    );
    let t = text_of(&page);
    assert!(
        t.contains("Story paragraph 1") && t.contains("Story paragraph 6"),
        "{t}"
    );
    assert!(!t.contains("Teaser 3 text"), "{t}");
}

#[test]
fn lede_in_the_article_header_is_kept_bylines_and_datelines_are_not() {
    let page = format!(
        "<html><body><article><header class='entry-header'><h1>Headline</h1>\
         <p class='lede'>The lede sums the story up in one sentence, with a clause, for the busy reader.</p>\
         <p>By Jane Roe</p><p>Published 12 March 2021, 10:48</p></header>\
         <div class='entry-content'>{}</div></article></body></html>",
        (1..=4).map(|n| para("Body", n)).collect::<String>()
    );
    let t = text_of(&page);
    assert!(t.contains("The lede sums the story up"), "{t}");
    assert!(t.contains("Body paragraph 4"), "{t}");
    assert!(!t.contains("Jane Roe"), "{t}");
    assert!(!t.contains("12 March 2021"), "{t}");
}

#[test]
fn consent_banner_and_author_box_go_even_when_long() {
    let page = format!(
        "<html><body><article class='post'>{}<div class='author-bio'><p>Jane Roe writes about rivers, floods, and the people who live beside them, and has done so for years.</p></div></article>\
         <div id='cookie-banner'>{}</div></body></html>",
        (1..=3).map(|n| para("Short", n)).collect::<String>(),
        (1..=6).map(|n| para("Cookie", n)).collect::<String>()
    );
    let t = text_of(&page);
    assert!(t.contains("Short paragraph 3"), "{t}");
    assert!(!t.contains("Cookie paragraph"), "{t}");
    assert!(!t.contains("writes about rivers"), "{t}");
}

#[test]
fn forum_thread_keeps_its_posts_article_comments_still_go() {
    let post = |n: usize| {
        format!(
            "<div class='comment-body'><div class='user'><a href='/u{n}'>user{n}</a></div><div class='comment-text'>Post {n} of the thread explains, with some detail and a comma or two, what happened to the cat.</div></div>"
        )
    };
    let thread = format!(
        "<html><body><div id='comments'>{}</div></body></html>",
        (1..=5).map(post).collect::<String>()
    );
    let t = text_of(&thread);
    assert!(
        t.contains("Post 1 of the thread") && t.contains("Post 5 of the thread"),
        "{t}"
    );
    // Beside a real article, the same markup is a comment section.
    let article = format!(
        "<html><body><article>{}</article><div id='comments'>{}</div></body></html>",
        (1..=8).map(|n| para("Article", n)).collect::<String>(),
        (1..=5).map(post).collect::<String>()
    );
    let t = text_of(&article);
    assert!(t.contains("Article paragraph 8"), "{t}");
    assert!(!t.contains("Post 1 of the thread"), "{t}");
}

#[test]
fn content_split_across_containers_is_joined() {
    // A product page: description in one tab, details in another, prices and
    // buttons between them.
    let page = format!(
        "<html><body><main><div class='tab-description'>{}</div><div class='buy'><button>Add to cart</button><span>19.90</span></div>\
         <div class='tab-details'><p>Details of the product, which come in a second container of the page, matter to the buyer as much as the first ones do.</p></div></main>\
         <aside><ul><li><a href='/a'>Other product</a></li></ul></aside></body></html>",
        (1..=3).map(|n| para("Description", n)).collect::<String>()
    );
    let t = text_of(&page);
    assert!(t.contains("Description paragraph 3"), "{t}");
    assert!(t.contains("Details of the product"), "{t}");
    assert!(!t.contains("Other product"), "{t}");
}

#[test]
fn trailing_related_heading_and_ui_labels_are_dropped() {
    let page = format!(
        "<html><body><div class='entry-content'>{}<p>Teilen</p><div id='jp-relatedposts' class='jp-relatedposts'><h3>Ähnliche Beiträge</h3></div></div></body></html>",
        (1..=3).map(|n| para("Blog", n)).collect::<String>()
    );
    let t = text_of(&page);
    assert!(t.ends_with("something from it."), "{t}");
    assert!(!t.contains("Ähnliche") && !t.contains("Teilen"), "{t}");
}

#[test]
fn picture_credits_counters_and_see_also_lines_go() {
    let page = format!(
        "<html lang='de'><body><article><h1>Headline</h1>{}\
         <p>Titelbild: Geyres Christophe/ABACA/picture-alliance</p>\
         <p>(Credit: Clayton Aldern / Grist)</p>\
         <div>Aufrufe: 1120 | Hinzugefügt von: Posh</div>\
         <p>Read more: Looted colonial art: Germany to set up new contact office</p>\
         <p>Lesen Sie auch die folgenden Beiträge:</p>\
         <p>PUEDES VER: ¿Qué es la Sunedu?</p>\
         <p>Weiterlesen...</p>\
         <h3>Inhaltsverzeichnis</h3>\
         <p>Kontakt:</p>\
         {}</article></body></html>",
        (1..=3).map(|n| para("Body", n)).collect::<String>(),
        (4..=5).map(|n| para("Body", n)).collect::<String>()
    );
    let t = text_of(&page);
    assert!(t.contains("Body paragraph 1"), "{t}");
    assert!(t.contains("Body paragraph 5"), "{t}");
    for gone in [
        "Titelbild",
        "Clayton Aldern",
        "Aufrufe",
        "Read more",
        "folgenden Beiträge",
        "PUEDES VER",
        "Weiterlesen",
        "Inhaltsverzeichnis",
        "Kontakt",
    ] {
        assert!(!t.contains(gone), "{gone} in {t}");
    }
    // Sentences that only start with such words stay.
    let page = format!(
        "<html lang='de'><body><article><h1>Headline</h1>{}\
         <p>Bilder sagen mehr als Worte, sagte sie, und zeigte auf die Wand.</p>\
         <p>Weiterlesen lohnt sich, denn das Ende überrascht alle Leser.</p></article></body></html>",
        (1..=3).map(|n| para("Body", n)).collect::<String>()
    );
    let t = text_of(&page);
    assert!(t.contains("Bilder sagen mehr als Worte"), "{t}");
    assert!(t.contains("Weiterlesen lohnt sich"), "{t}");
}

#[test]
fn appeals_to_the_reader_on_their_own_line_go() {
    let prose = "<p>The council voted on Tuesday to rebuild the old bridge, after months of debate about its cost, its design and the traffic it will carry.</p>";
    for appeal in [
        "Never miss the latest news by signing up to our newsletter today!",
        "Subscribe to email updates",
        "If you enjoyed reading this post, would you consider supporting our work?",
        "Sie lesen gern Example.com?",
        "Folgen Sie uns auf Twitter",
        "Möchten Sie den Artikel teilen?",
        "Suivez-nous sur les réseaux sociaux",
    ] {
        let text = article_text(prose, &format!("<p>{appeal}</p>"));
        assert!(text.contains("rebuild the old bridge"), "{appeal}");
        assert!(!text.contains(appeal), "{appeal}");
    }
    // The same words inside a sentence of the article stay.
    let line = "Residents who sign up for the consultation can follow us through each stage, the mayor said.";
    let text = article_text(prose, &format!("<p>{line}</p>"));
    assert!(text.contains(line));
}

#[test]
fn leftover_headings_of_author_boxes_and_toggles_go() {
    let prose = "<p>The council voted on Tuesday to rebuild the old bridge, after months of debate about its cost, its design and the traffic it will carry.</p>";
    for label in [
        "Über den Autor",
        "About the author",
        "Quellen ausblenden",
        "Empfohlener redaktioneller Inhalt",
    ] {
        let text = article_text(prose, &format!("<h3>{label}</h3>"));
        assert!(text.contains("rebuild the old bridge"), "{label}");
        assert!(!text.contains(label), "{label}");
    }
}

#[test]
fn more_see_also_and_channel_plugs_go() {
    let prose = "<p>The orchestra announced on Monday that its winter season will open with a new symphony, written for the hall and its old organ.</p>";
    for line in [
        "VEA TAMBIÉN: Un concierto gratuito en la plaza mayor",
        "Lea también: El alcalde inaugura el nuevo puente",
        "Le puede interesar: Las mejores rutas para el verano",
        "Voir aussi : la programmation complète",
        "Zie ook: het programma van dit seizoen",
        "¿Sabías que tenemos canal de Telegram? Únete desde tu celular",
        "¡Mira lo que tiene nuestro canal de YouTube!",
        "Follow The Morning Post on Twitter and Instagram @morningpost",
        "To view the full story, please subscribe to The Weekly Example.",
        "Subscribe now to our digital edition for the full story.",
        "Submit your letter to the editor via this form",
    ] {
        let text = article_text(prose, &format!("<p>{line}</p>"));
        assert!(text.contains("winter season will open"), "{line}");
        assert!(!text.contains(line), "{line}");
    }
    // A sentence that mentions a channel or a follower stays.
    let line = "The conductor, who has a large following on Twitter, said the programme was his favourite.";
    let text = article_text(prose, &format!("<p>{line}</p>"));
    assert!(text.contains(line));
}

#[test]
fn publisher_notices_on_their_own_line_go() {
    let prose = "<p>The orchestra announced on Monday that its winter season will open with a new symphony, written for the hall and its old organ.</p>";
    for line in [
        "*Werbung. Dieser Beitrag enthält Werbung für eine Marke.",
        "ANZEIGE - Heute schon an das Wochenende gedacht?",
        "This post contains references to products from one or more of our advertisers.",
        "This article is the copyrighted property of Example News.",
        "Example Radio is not responsible for the opinions, statements or media content presented by contributors.",
        "Les articles publiés n'engagent que leurs auteurs.",
        "If you’re seeing this message but you’re already a subscriber, you can log in for access.",
    ] {
        let text = article_text(prose, &format!("<p>{line}</p>"));
        assert!(text.contains("winter season will open"), "{line}");
        assert!(!text.contains(line), "{line}");
    }
    // Advertising as a subject of the article stays.
    let line = "Die Werbung der Stadt für das Festival, sagte die Sprecherin, habe viele Besucher angelockt.";
    let text = article_text(prose, &format!("<p>{line}</p>"));
    assert!(text.contains(line));
}
