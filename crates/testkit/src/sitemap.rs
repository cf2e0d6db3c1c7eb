//! sitemap.xml documents.

use crate::response::{Response, xml_escape as x};

/// A `<urlset>` sitemap (`application/xml`): `(loc, lastmod)` pairs, where
/// `lastmod` is a W3C date (`2024-01-15` or `2024-01-15T09:00:00+00:00`).
pub fn xml(urls: &[(&str, Option<&str>)]) -> Response {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (loc, lastmod) in urls {
        s.push_str("  <url>\n");
        s.push_str(&format!("    <loc>{}</loc>\n", x(loc)));
        if let Some(m) = lastmod {
            s.push_str(&format!("    <lastmod>{}</lastmod>\n", x(m)));
        }
        s.push_str("  </url>\n");
    }
    s.push_str("</urlset>\n");
    Response::bytes("application/xml", s)
}
