//! Realistic HTML pages: articles, home pages, site search results, and the
//! bodies of the block/challenge/error pages the [`Fault`](crate::Fault)s send.

use crate::fault::Captcha;
use crate::response::{Response, html_escape as esc};

/// A news/official article page with the metadata real publishers emit:
/// `<title>`, `og:*`, `article:published_time`, `<time datetime>`, a
/// JSON-LD `NewsArticle`, site chrome (nav, footer) around an `<article>`.
/// `date` is written as given (use `YYYY-MM-DD` or RFC 3339).
pub fn article(title: &str, publisher: &str, date: &str, paragraphs: &[&str]) -> String {
    let body: String = paragraphs
        .iter()
        .map(|p| format!("      <p>{}</p>\n", esc(p)))
        .collect();
    let ld = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": title,
        "datePublished": date,
        "publisher": {"@type": "Organization", "name": publisher},
    });
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{t} | {p}</title>
  <meta name="description" content="{d}">
  <meta property="og:type" content="article">
  <meta property="og:title" content="{t}">
  <meta property="og:site_name" content="{p}">
  <meta property="article:published_time" content="{date}">
  <script type="application/ld+json">{ld}</script>
</head>
<body>
  <header class="site-header"><a href="/" class="logo">{p}</a>
    <nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav>
  </header>
  <main>
    <article>
      <h1>{t}</h1>
      <p class="byline">Published by {p} on <time datetime="{date}">{date}</time></p>
{body}    </article>
  </main>
  <footer><p>&copy; {p}. All rights reserved.</p> <a href="/privacy">Privacy</a> <a href="/cookies">Cookie settings</a></footer>
</body>
</html>
"#,
        t = esc(title),
        p = esc(publisher),
        d = esc(paragraphs.first().copied().unwrap_or("")),
        date = esc(date),
    )
}

/// A site home page that advertises its OpenSearch description at
/// `opensearch_href` (`<link rel="search" type="application/opensearchdescription+xml">`)
/// and has a plain GET search form to `/search?q=`. `links` are
/// `(href, text)` pairs listed on the page.
pub fn home(site_name: &str, opensearch_href: &str, links: &[(&str, &str)]) -> String {
    let items: String = links
        .iter()
        .map(|(h, t)| format!("      <li><a href=\"{}\">{}</a></li>\n", esc(h), esc(t)))
        .collect();
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{n}</title>
  <link rel="search" type="application/opensearchdescription+xml" title="{n}" href="{o}">
</head>
<body>
  <header><h1>{n}</h1>
    <form action="/search" method="get" role="search"><input type="search" name="q" aria-label="Search"><button type="submit">Search</button></form>
  </header>
  <main>
    <ul>
{items}    </ul>
  </main>
</body>
</html>
"#,
        n = esc(site_name),
        o = esc(opensearch_href),
    )
}

/// A site's own search results page (`/search?q=…`): each hit is
/// `(href, title, snippet)` inside `<ol class="search-results">`; no hits
/// gives the usual "No results found" message.
pub fn site_search_results(site_name: &str, query: &str, hits: &[(&str, &str, &str)]) -> String {
    let list = if hits.is_empty() {
        format!(
            "    <p class=\"no-results\">No results found for <strong>{}</strong>.</p>\n",
            esc(query)
        )
    } else {
        let items: String = hits
            .iter()
            .map(|(h, t, s)| {
                format!(
                    "      <li class=\"search-result\"><h3><a href=\"{}\">{}</a></h3><p class=\"snippet\">{}</p></li>\n",
                    esc(h),
                    esc(t),
                    esc(s)
                )
            })
            .collect();
        format!(
            "    <p class=\"result-count\">{} results for <strong>{}</strong></p>\n    <ol class=\"search-results\">\n{items}    </ol>\n",
            hits.len(),
            esc(query)
        )
    };
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Search: {q} | {n}</title><meta name="robots" content="noindex"></head>
<body>
  <header><a href="/">{n}</a>
    <form action="/search" method="get"><input type="search" name="q" value="{q}"><button>Search</button></form>
  </header>
  <main>
{list}  </main>
</body>
</html>
"#,
        q = esc(query),
        n = esc(site_name),
    )
}

/// A page whose `<meta>` (and only that) declares `encoding`, with its
/// bytes really encoded so; `Content-Type: text/html` names no charset.
/// For Windows-1252 try text with `é`, `€`, `“”`; for Shift_JIS, Japanese.
pub fn legacy_charset(
    encoding: &'static encoding_rs::Encoding,
    title: &str,
    paragraphs: &[&str],
) -> Response {
    let body: String = paragraphs
        .iter()
        .map(|p| format!("<p>{}</p>\n", esc(p)))
        .collect();
    let html = format!(
        "<!DOCTYPE html>\n<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset={enc}\">\n\
         <title>{t}</title>\n</head>\n<body>\n<h1>{t}</h1>\n{body}</body>\n</html>\n",
        enc = encoding.name(),
        t = esc(title),
    );
    Response::html_encoded(&html, encoding)
}

/// The "page not found" page (404 body).
pub fn not_found(path: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Page not found</title></head>\n\
         <body><h1>Page not found</h1><p>Sorry, the page <code>{}</code> does not exist or has been moved.</p>\
         <p><a href=\"/\">Return to the home page</a></p></body></html>\n",
        esc(path)
    )
}

/// The "gone" page (410 body).
pub fn gone(path: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>410 Gone</title></head>\n\
         <body><h1>Gone</h1><p>The requested resource <code>{}</code> is no longer available on this server \
         and there is no forwarding address. Please remove all references to this resource.</p></body></html>\n",
        esc(path)
    )
}

/// A sign-in page (served with 200 in place of the content).
pub fn login_form(next: &str) -> String {
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in</title><meta name="robots" content="noindex, nofollow"></head>
<body>
  <main class="login">
    <h1>Sign in to continue</h1>
    <p>You must be logged in to view this page.</p>
    <form action="/login" method="post" id="login-form">
      <input type="hidden" name="next" value="{n}">
      <input type="hidden" name="csrf_token" value="3f9a1c0d7e2b4a6f">
      <label>Email <input type="email" name="username" autocomplete="username" required></label>
      <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
      <button type="submit">Log in</button>
    </form>
    <p><a href="/forgot-password">Forgot your password?</a> &middot; <a href="/register">Create an account</a></p>
  </main>
</body>
</html>
"#,
        n = esc(next)
    )
}

/// A create-react-app style JavaScript-only shell.
pub fn js_shell(site_name: &str) -> String {
    format!(
        r##"<!doctype html><html lang="en"><head><meta charset="utf-8"/><link rel="icon" href="/favicon.ico"/><meta name="viewport" content="width=device-width,initial-scale=1"/><meta name="theme-color" content="#000000"/><title>{}</title><script defer="defer" src="/static/js/main.8f3c2a1b.js"></script><link href="/static/css/main.4e7d9c21.css" rel="stylesheet"></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>"##,
        esc(site_name)
    )
}

/// HTML filler of exactly `len` bytes that starts like a real page.
pub fn filler_html(len: usize) -> Vec<u8> {
    const HEAD: &[u8] = b"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Annual report</title></head><body><main><article>\n";
    let mut v: Vec<u8> = HEAD.iter().copied().take(len).collect();
    if v.len() < len {
        v.extend(crate::body::filler(len - v.len()));
    }
    v
}

/// Cloudflare "Just a moment..." challenge page body; `ray` is the ray id
/// without the colo suffix (16 hex digits), as in the `cf-ray` header.
pub fn cloudflare_challenge(host: &str, ray: &str) -> String {
    format!(
        r#"<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta http-equiv="X-UA-Compatible" content="IE=Edge"><meta name="robots" content="noindex,nofollow"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="preconnect" href="https://challenges.cloudflare.com"><style>*{{box-sizing:border-box;margin:0;padding:0}}html{{line-height:1.15}}</style><meta http-equiv="refresh" content="390"></head><body class="no-js"><div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">{h}</h1><h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2><noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript><div id="challenge-body-text" class="core-msg spacer">{h} needs to review the security of your connection before proceeding.</div></div></div><script>(function(){{window._cf_chl_opt={{cvId: '3',cZone: "{h}",cType: 'managed',cNounce: '48213',cRay: '{r}',cHash: 'a1b2c3d4e5f60718',cUPMDTk: "\/?__cf_chl_tk=Qm9ndXNUb2tlbg-1704067200-0-gaNycGzNCWU",cFPWv: 'g',cTTimeMs: '1000',cMTimeMs: '390000',cTplV: 5,cTplB: 'cf',cK: "",fa: "\/?__cf_chl_f_tk=Qm9ndXNUb2tlbg-1704067200-0-gaNycGzNCWU",md: "bogus",cRq: {{ru: 'aHR0cDovL2V4YW1wbGUudGVzdC8=',ra: 'Y3VybA==',rm: 'R0VU',d: 'bogus',t: 'MTcwNDA2NzIwMC4wMDAwMDA=',cT: Math.floor(Date.now() / 1000),m: 'bogus',i1: 'bogus',i2: 'bogus',zh: 'bogus',uh: 'bogus',hh: 'bogus',}}}};var cpo = document.createElement('script');cpo.src = '/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray={r}';window._cf_chl_opt.cOgUHash = location.hash === '' && location.href.indexOf('#') !== -1 ? '#' : location.hash;if (window.history && window.history.replaceState) {{var ogU = location.pathname + window._cf_chl_opt.cOgUQuery + window._cf_chl_opt.cOgUHash;history.replaceState(null, null, "\/?__cf_chl_rt_tk=Qm9ndXNUb2tlbg-1704067200-0-gaNycGzNCWU" + window._cf_chl_opt.cOgUHash);cpo.onload = function() {{history.replaceState(null, null, ogU);}};}}document.getElementsByTagName('head')[0].appendChild(cpo);}}());</script><div class="footer" role="contentinfo"><div class="footer-inner"><div class="clearfix diagnostic-wrapper"><div class="ray-id">Ray ID: <code>{r}</code></div></div><div class="text-center" id="footer-text">Performance &amp; security by <a rel="noopener noreferrer" href="https://www.cloudflare.com?utm_source=challenge&amp;utm_campaign=m" target="_blank">Cloudflare</a></div></div></div></body></html>"#,
        h = esc(host),
        r = esc(ray),
    )
}

/// Cloudflare "Error 1020 Access denied" page body; `ray` as in
/// [`cloudflare_challenge`].
pub fn cloudflare_1020(host: &str, ray: &str) -> String {
    format!(
        r#"<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<!--[if gt IE 8]><!--> <html class="no-js" lang="en-US"> <!--<![endif]-->
<head>
<title>Access denied | {h} used Cloudflare to restrict access</title>
<meta charset="UTF-8" />
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<meta name="robots" content="noindex, nofollow" />
<link rel="stylesheet" id="cf_styles-css" href="/cdn-cgi/styles/main.css" />
</head>
<body>
<div id="cf-wrapper">
  <div id="cf-error-details" class="p-0">
    <header class="mx-auto pt-10 lg:pt-6 lg:px-8 w-240 lg:w-full mb-8">
      <h1 class="inline-block sm:block sm:mb-2 font-light text-60 lg:text-4xl text-black-dark leading-tight mr-2">
        <span data-translate="error">Error</span>
        <span>1020</span>
      </h1>
      <span class="inline-block sm:block font-mono text-15 lg:text-sm lg:leading-relaxed">Ray ID: {r} &bull;</span>
      <span class="inline-block sm:block font-mono text-15 lg:text-sm lg:leading-relaxed">2024-01-01 00:00:00 UTC</span>
      <h2 class="text-gray-600 leading-1.3 text-3xl lg:text-2xl font-light">Access denied</h2>
    </header>
    <section class="w-240 lg:w-full mx-auto mb-8 lg:px-8">
      <div id="what-happened-section" class="w-1/2 md:w-full">
        <h2 class="text-3xl leading-tight font-normal mb-4 text-black-dark antialiased" data-translate="what_happened">What happened?</h2>
        <p>This website is using a security service to protect itself from online attacks.</p>
      </div>
    </section>
    <div class="cf-error-footer cf-wrapper w-240 lg:w-full py-10 sm:py-4 sm:px-8 mx-auto text-center sm:text-left border-solid border-0 border-t border-gray-300">
      <p class="text-13">
        <span class="cf-footer-item sm:block sm:mb-1">Cloudflare Ray ID: <strong class="font-semibold">{r}</strong></span>
        <span class="cf-footer-separator sm:hidden">&bull;</span>
        <span class="cf-footer-item sm:block sm:mb-1">Performance &amp; security by <a rel="noopener noreferrer" href="https://www.cloudflare.com/5xx-error-landing" id="brand_link" target="_blank">Cloudflare</a></span>
      </p>
    </div>
  </div>
</div>
</body>
</html>
"#,
        h = esc(host),
        r = esc(ray),
    )
}

/// Akamai "Access Denied" body, punctuation entity-encoded as Akamai does.
pub fn akamai_denied(host: &str, path: &str) -> String {
    let url = format!("http://{host}{path}");
    let enc = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                ':' => "&#58;".to_owned(),
                '/' => "&#47;".to_owned(),
                '.' => "&#46;".to_owned(),
                ' ' => "&#32;".to_owned(),
                '#' => "&#35;".to_owned(),
                '<' => "&lt;".to_owned(),
                '>' => "&gt;".to_owned(),
                '&' => "&amp;".to_owned(),
                '"' => "&quot;".to_owned(),
                c => c.to_string(),
            })
            .collect()
    };
    format!(
        "<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \n\
         You don't have permission to access \"{}\" on this server.<P>\n{}\n\
         <P>{}</P>\n</BODY>\n</HTML>\n",
        enc(&url),
        enc("Reference #18.4f1d3e17.1704067200.1a2b3c4d"),
        enc("https://errors.edgesuite.net/18.4f1d3e17.1704067200.1a2b3c4d"),
    )
}

/// Fastly/Varnish "Error 403 Forbidden" guru-meditation body.
pub fn fastly_forbidden() -> String {
    r#"<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"
 "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html>
  <head>
    <title>403 Forbidden</title>
  </head>
  <body>
    <h1>Error 403 Forbidden</h1>
    <p>Forbidden</p>
    <h3>Guru Mediation:</h3>
    <p>Details: cache-fra-etou8220050-FRA 1704067200 2718281828</p>
    <hr>
    <p>Varnish cache server</p>
  </body>
</html>
"#
    .to_owned()
}

/// A CAPTCHA page body of the given kind.
pub fn captcha(kind: Captcha, host: &str, path: &str) -> String {
    let (script, widget) = match kind {
        Captcha::Recaptcha => (
            r#"<script src="https://www.google.com/recaptcha/api.js" async defer></script>"#,
            r#"<div class="g-recaptcha" data-sitekey="6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI" data-callback="onSolved"></div>"#,
        ),
        Captcha::Hcaptcha => (
            r#"<script src="https://js.hcaptcha.com/1/api.js" async defer></script>"#,
            r#"<div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001"></div>"#,
        ),
        Captcha::Turnstile => (
            r#"<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>"#,
            r#"<div class="cf-turnstile" data-sitekey="1x00000000000000000000AA" data-theme="light"></div>"#,
        ),
    };
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Verify you are human - {h}</title>
  <meta name="robots" content="noindex">
  {script}
</head>
<body>
  <main>
    <h1>Please verify you are a human</h1>
    <p>We have detected unusual traffic from your network. Complete the check below to continue to {h}.</p>
    <form action="/captcha/verify" method="post">
      <input type="hidden" name="return_to" value="{p}">
      {widget}
      <button type="submit">Continue</button>
    </form>
  </main>
</body>
</html>
"#,
        h = esc(host),
        p = esc(path),
    )
}
