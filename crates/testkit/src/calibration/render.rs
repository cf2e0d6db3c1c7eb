//! Page templates of the calibration world: the chrome each kind of site
//! wraps around its content (skip links, navigation, breadcrumbs, update
//! lines, bylines, share bars, "most read" boxes, comment threads, footers).

use super::{Page, PageState, Site, SiteKind};
use crate::response::html_escape as esc;

fn body_html(blocks: &[&str]) -> String {
    let mut out = String::new();
    let mut list = false;
    let mut table = false;
    for b in blocks {
        let is_item = b.starts_with("- ");
        let is_row = b.starts_with('|');
        if list && !is_item {
            out.push_str("</ul>\n");
            list = false;
        }
        if table && !is_row {
            out.push_str("</tbody></table>\n");
            table = false;
        }
        if let Some(h) = b.strip_prefix("## ") {
            out.push_str(&format!("<h2>{}</h2>\n", esc(h)));
        } else if let Some(item) = b.strip_prefix("- ") {
            if !list {
                out.push_str("<ul>\n");
                list = true;
            }
            out.push_str(&format!("  <li>{}</li>\n", esc(item)));
        } else if is_row {
            let cells: Vec<&str> = b
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            if !table {
                out.push_str("<table class=\"data\"><thead><tr>");
                for c in &cells {
                    out.push_str(&format!("<th scope=\"col\">{}</th>", esc(c)));
                }
                out.push_str("</tr></thead><tbody>\n");
                table = true;
            } else {
                out.push_str("  <tr>");
                for c in &cells {
                    out.push_str(&format!("<td>{}</td>", esc(c)));
                }
                out.push_str("</tr>\n");
            }
        } else {
            out.push_str(&format!("<p>{}</p>\n", esc(b)));
        }
    }
    if list {
        out.push_str("</ul>\n");
    }
    if table {
        out.push_str("</tbody></table>\n");
    }
    out
}

fn nav(site: &Site) -> String {
    site.nav
        .iter()
        .map(|n| {
            let slug: String = n
                .to_lowercase()
                .chars()
                .map(|c| if c.is_alphanumeric() { c } else { '-' })
                .collect();
            format!("<li><a href=\"/{slug}\">{}</a></li>", esc(n))
        })
        .collect()
}

fn related(page: &Page) -> String {
    if page.related.is_empty() {
        return String::new();
    }
    let items: String = page
        .related
        .iter()
        .map(|(h, t)| format!("<li><a href=\"{}\">{}</a></li>", esc(h), esc(t)))
        .collect();
    format!(
        "<aside class=\"related\" aria-label=\"Related pages\"><h2>Related</h2><ul>{items}</ul></aside>\n"
    )
}

fn head(site: &Site, page: &Page, article: bool) -> String {
    let description = page
        .standfirst
        .or_else(|| {
            page.body
                .iter()
                .find(|b| !b.starts_with("## ") && !b.starts_with('|'))
                .copied()
        })
        .unwrap_or("");
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{t} | {n}</title>\n<meta name=\"description\" content=\"{d}\">\n<link rel=\"canonical\" href=\"{p}\">\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n",
        t = esc(page.title),
        n = esc(site.name),
        d = esc(description),
        p = esc(page.path),
    );
    if site.opensearch {
        h.push_str(&format!(
            "<link rel=\"search\" type=\"application/opensearchdescription+xml\" title=\"{}\" href=\"/opensearch.xml\">\n",
            esc(site.name)
        ));
    }
    if article {
        h.push_str(&format!(
            "<meta property=\"og:type\" content=\"article\">\n<meta property=\"og:title\" content=\"{}\">\n<meta property=\"og:site_name\" content=\"{}\">\n",
            esc(page.title),
            esc(site.name)
        ));
        if let Some(d) = page.date {
            h.push_str(&format!(
                "<meta property=\"article:published_time\" content=\"{d}T08:00:00+01:00\">\n"
            ));
            let ld = serde_json::json!({
                "@context": "https://schema.org",
                "@type": if site.kind == SiteKind::News { "NewsArticle" } else { "BlogPosting" },
                "headline": page.title,
                "datePublished": format!("{d}T08:00:00+01:00"),
                "author": page.byline.map(|b| b.trim_start_matches("By ").to_string()),
                "publisher": {"@type": "Organization", "name": site.name},
            });
            h.push_str(&format!(
                "<script type=\"application/ld+json\">{ld}</script>\n"
            ));
        }
    }
    h.push_str("<script src=\"/assets/analytics.js\" async></script>\n</head>\n");
    h
}

fn cookie_banner() -> &'static str {
    "<div class=\"cookie-banner\" role=\"dialog\"><p>We use cookies to make this site work and to understand how you use it.</p><button>Accept all</button> <button>Reject non-essential</button> <a href=\"/cookies\">Cookie settings</a></div>\n"
}

fn official(site: &Site, page: &Page) -> String {
    let section = page
        .path
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or("");
    let section_title = {
        let mut c = section.chars();
        match c.next() {
            Some(f) => f.to_uppercase().collect::<String>() + &c.as_str().replace('-', " "),
            None => String::new(),
        }
    };
    let mut html = head(site, page, false);
    html.push_str(&format!(
        "<body>\n<a class=\"skip-link\" href=\"#main\">Skip to main content</a>\n{cookie}<header class=\"gov-header\"><div class=\"crest\"><a href=\"/\">{n}</a></div>\n<nav aria-label=\"Main menu\"><ul>{nav}</ul></nav>\n<form role=\"search\" action=\"/search\" method=\"get\"><label for=\"q\">Search this site</label><input id=\"q\" name=\"q\" type=\"search\"><button>Search</button></form>\n<div class=\"lang\"><a href=\"?lang=en\">English</a> | <a href=\"?lang=local\">Local language</a></div></header>\n",
        cookie = cookie_banner(),
        n = esc(site.name),
        nav = nav(site),
    ));
    if !section.is_empty() {
        html.push_str(&format!(
            "<nav class=\"breadcrumb\" aria-label=\"Breadcrumb\"><ol><li><a href=\"/\">Home</a></li><li><a href=\"/{s}\">{st}</a></li><li aria-current=\"page\">{t}</li></ol></nav>\n",
            s = esc(section),
            st = esc(&section_title),
            t = esc(page.title),
        ));
    }
    html.push_str(&format!(
        "<main id=\"main\">\n<h1>{}</h1>\n",
        esc(page.title)
    ));
    if let Some(s) = page.standfirst {
        html.push_str(&format!("<p class=\"lead\">{}</p>\n", esc(s)));
    }
    html.push_str(&body_html(page.body));
    if let Some(u) = page.updated {
        html.push_str(&format!("<p class=\"page-meta\">{}</p>\n", esc(u)));
    }
    html.push_str("<div class=\"feedback\"><p>Was this page useful?</p><button>Yes</button> <button>No</button> <a href=\"/feedback\">Report a problem with this page</a></div>\n");
    html.push_str(&related(page));
    html.push_str(&format!(
        "</main>\n<footer class=\"gov-footer\"><ul><li><a href=\"/contact\">Contact us</a></li><li><a href=\"/accessibility\">Accessibility statement</a></li><li><a href=\"/privacy\">Privacy notice</a></li><li><a href=\"/cookies\">Cookies</a></li><li><a href=\"/open-data\">Open data</a></li></ul><p>Telephone service Monday to Friday 8:00–16:00.</p><p>&copy; {n} 2026</p></footer>\n</body>\n</html>\n",
        n = esc(site.name)
    ));
    html
}

fn news(site: &Site, page: &Page) -> String {
    let mut html = head(site, page, true);
    let date_human = page.date.map(human_date).unwrap_or_default();
    html.push_str(&format!(
        "<body>\n{cookie}<div class=\"topbar\"><a href=\"/subscribe\">Subscribe</a> <a href=\"/login\">Sign in</a></div>\n<header class=\"masthead\"><a class=\"logo\" href=\"/\">{n}</a>\n<nav><ul>{nav}</ul></nav></header>\n<main>\n<article>\n<p class=\"kicker\">{kicker}</p>\n<h1>{t}</h1>\n",
        cookie = cookie_banner(),
        n = esc(site.name),
        nav = nav(site),
        kicker = esc(page.path.trim_start_matches('/').split('/').next().unwrap_or("")),
        t = esc(page.title),
    ));
    if let Some(s) = page.standfirst {
        html.push_str(&format!("<p class=\"standfirst\">{}</p>\n", esc(s)));
    }
    html.push_str("<div class=\"byline\">");
    if let Some(b) = page.byline {
        html.push_str(&format!("<span class=\"author\">{}</span> ", esc(b)));
    }
    if let Some(d) = page.date {
        html.push_str(&format!(
            "<time datetime=\"{d}T08:00:00+01:00\">{}</time>",
            esc(&date_human)
        ));
    }
    if let Some(u) = page.updated {
        html.push_str(&format!(" <span class=\"updated\">{}</span>", esc(u)));
    }
    html.push_str("</div>\n<div class=\"share\">Share this article: <a href=\"#\">Email</a> <a href=\"#\">Copy link</a></div>\n");
    html.push_str(&body_html(page.body));
    html.push_str("<p class=\"corrections\">Spotted an error? <a href=\"/corrections\">Tell our corrections desk</a>.</p>\n</article>\n");
    html.push_str(&related(page));
    html.push_str("<aside class=\"most-read\"><h2>Most read</h2><ol><li><a href=\"/sport/derby-report\">Late equaliser settles the harbour derby</a></li><li><a href=\"/life/winter-recipes\">Five warming soups for the dark months</a></li><li><a href=\"/weather/storm-warning\">Storm warning for the west coast on Friday</a></li></ol></aside>\n");
    html.push_str(&format!(
        "</main>\n<footer><p>&copy; {n} 2026. All rights reserved.</p><a href=\"/about\">About us</a> <a href=\"/ethics\">Editorial code</a> <a href=\"/advertise\">Advertise</a> <a href=\"/privacy\">Privacy</a></footer>\n</body>\n</html>\n",
        n = esc(site.name)
    ));
    html
}

fn blog(site: &Site, page: &Page) -> String {
    let mut html = head(site, page, true);
    html.push_str(&format!(
        "<body class=\"post-template\">\n<header class=\"blog-header\"><a href=\"/\">{n}</a><nav><ul>{nav}</ul></nav></header>\n<div class=\"wrap\"><main>\n<article class=\"post\">\n<h1 class=\"entry-title\">{t}</h1>\n",
        n = esc(site.name),
        nav = nav(site),
        t = esc(page.title),
    ));
    let who = page.byline.unwrap_or("admin");
    if let Some(d) = page.date {
        html.push_str(&format!(
            "<p class=\"entry-meta\">Posted on <time datetime=\"{d}\">{}</time> by {}</p>\n",
            esc(&human_date(d)),
            esc(who)
        ));
    }
    html.push_str("<div class=\"entry-content\">\n");
    html.push_str(&body_html(page.body));
    html.push_str("</div>\n");
    if let Some(u) = page.updated {
        html.push_str(&format!("<p class=\"edit-note\">{}</p>\n", esc(u)));
    }
    html.push_str("</article>\n");
    if site.kind == SiteKind::Forum {
        html.push_str("<section class=\"replies\"><h2>2 replies</h2><div class=\"reply\"><p class=\"who\">taxpayer_88</p><p>Thanks, that matches what I was told on the phone.</p></div><div class=\"reply\"><p class=\"who\">moderator</p><p>Please check the official page before filing; figures change every year.</p></div></section>\n");
    } else {
        html.push_str("<section class=\"comments\"><h2>3 comments</h2><div class=\"comment\"><p class=\"who\">Mia</p><p>Great summary, thank you!</p></div><div class=\"comment\"><p class=\"who\">Tom K.</p><p>Does this apply to pensioners too?</p></div><div class=\"comment\"><p class=\"who\">Lena</p><p>Bookmarked for next year.</p></div></section>\n");
    }
    html.push_str(&related(page));
    html.push_str(&format!(
        "</main>\n<aside class=\"sidebar\"><h2>Archives</h2><ul><li><a href=\"/2026/11\">November 2026</a></li><li><a href=\"/2026/10\">October 2026</a></li><li><a href=\"/2026/09\">September 2026</a></li></ul><h2>Newsletter</h2><p>Get new posts by email.</p></aside></div>\n<footer><p>{n} — opinions are my own. Powered by a static site generator.</p></footer>\n</body>\n</html>\n",
        n = esc(site.name)
    ));
    html
}

/// `2026-11-14` → `14 November 2026`.
pub fn human_date(iso: &str) -> String {
    let parts: Vec<&str> = iso.split('-').collect();
    match parts.as_slice() {
        [y, m, d] => {
            let m: usize = m.parse().unwrap_or(1);
            let d: u32 = d.parse().unwrap_or(1);
            format!("{d} {} {y}", sgw_text::MONTHS[m.clamp(1, 12) - 1])
        }
        _ => iso.to_string(),
    }
}

/// A page in its site's template.
pub fn page(site: &Site, page: &Page) -> String {
    match site.kind {
        SiteKind::Official | SiteKind::Mirror => official(site, page),
        SiteKind::News => news(site, page),
        SiteKind::Blog | SiteKind::Forum => blog(site, page),
    }
}

/// A site's home page when the world gives none: its latest pages as links.
pub fn home(site: &Site, pages: &[&Page]) -> String {
    let links: Vec<&str> = pages
        .iter()
        .filter(|p| p.state == PageState::Ok)
        .map(|p| p.path)
        .collect();
    let items: String = pages
        .iter()
        .filter(|p| links.contains(&p.path))
        .map(|p| format!("<li><a href=\"{}\">{}</a></li>", esc(p.path), esc(p.title)))
        .collect();
    let home = Page {
        host: site.host,
        path: "/",
        title: site.name,
        date: None,
        updated: None,
        byline: None,
        standfirst: None,
        body: &[],
        related: &[],
        state: PageState::Ok,
        indexed: false,
    };
    let mut html = head(site, &home, false);
    html.push_str(&format!(
        "<body>\n<header><a href=\"/\">{n}</a><nav><ul>{nav}</ul></nav><form role=\"search\" action=\"/search\"><input name=\"q\" type=\"search\"><button>Search</button></form></header>\n<main><h1>{n}</h1><h2>Latest</h2><ul>{items}</ul></main>\n<footer><p>&copy; {n} 2026</p></footer>\n</body>\n</html>\n",
        n = esc(site.name),
        nav = nav(site),
    ));
    html
}

/// An archived copy: the archive's toolbar above the page as it was.
pub fn archived(site: &Site, p: &Page, timestamp: &str) -> String {
    let original = page(site, p);
    let day = format!(
        "{}-{}-{}",
        &timestamp[0..4],
        &timestamp[4..6],
        &timestamp[6..8]
    );
    let bar = format!(
        "<div id=\"wm-toolbar\" class=\"wb-header\"><p>The Web Archive captured this page on {} ({} captures). <a href=\"/web/*/{}{}\">See all captures</a></p></div>\n",
        esc(&human_date(&day)),
        3,
        esc(site.host),
        esc(p.path)
    );
    original.replacen("<body>\n", &format!("<body>\n{bar}"), 1)
}
