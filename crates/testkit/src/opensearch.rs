//! OpenSearch description documents.

use crate::response::{Response, xml_escape as x};

/// An OpenSearch 1.1 description (`application/opensearchdescription+xml`)
/// with one `<Url type="text/html" template="…">`; `template` must contain
/// `{searchTerms}`, e.g. `http://docs.test:1234/search?q={searchTerms}`.
pub fn description(short_name: &str, template: &str) -> Response {
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <OpenSearchDescription xmlns=\"http://a9.com/-/spec/opensearch/1.1/\">\n\
         \x20 <ShortName>{n}</ShortName>\n\
         \x20 <Description>Search {n}</Description>\n\
         \x20 <InputEncoding>UTF-8</InputEncoding>\n\
         \x20 <Url type=\"text/html\" method=\"get\" template=\"{t}\"/>\n\
         </OpenSearchDescription>\n",
        n = x(short_name),
        t = x(template),
    );
    Response::bytes("application/opensearchdescription+xml", body)
}
