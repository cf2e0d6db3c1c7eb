//! URL templates with `{query}` / OpenSearch `{searchTerms}` parameters.

use url::Url;

/// Why a URL template could not be expanded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// The template has no `{query}` / `{searchTerms}` placeholder (a search
    /// template that ignores the query is a configuration mistake).
    #[error("URL template `{template}` has no {{query}} or {{searchTerms}} placeholder")]
    NoPlaceholder { template: String },
    /// A required OpenSearch parameter this gateway cannot fill.
    #[error("URL template `{template}` has the unknown required parameter `{{{name}}}`")]
    UnknownParameter { template: String, name: String },
    /// A `{` without its `}`.
    #[error("URL template `{template}` has an unclosed `{{`")]
    Unclosed { template: String },
    /// The expansion is not an absolute http(s) URL.
    #[error(
        "URL template `{template}` expands to `{expanded}`, which is not an absolute http(s) URL: {reason}"
    )]
    BadUrl {
        template: String,
        expanded: String,
        #[source]
        reason: HttpUrlError,
    },
}

/// Why a string is not an absolute `http`/`https` URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpUrlError {
    /// Not a URL at all.
    #[error("{0}")]
    Parse(#[from] url::ParseError),
    /// An http(s) URL without a host.
    #[error("no host")]
    NoHost,
    /// Another scheme (`ftp`, `file`, …).
    #[error("scheme `{0}` is not http or https")]
    NotHttp(String),
}

/// Percent-encodes everything but RFC 3986 unreserved characters (so a space
/// is `%20`, valid in paths and query strings alike).
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Expands `template`: `{query}` and `{searchTerms}` become the URL-encoded
/// query; the other OpenSearch 1.1 parameters get neutral values
/// (`{count}` 10, `{startIndex}` / `{startPage}` 1, `{language}` `*`,
/// `{inputEncoding}` / `{outputEncoding}` `UTF-8`); an unknown optional
/// parameter (`{name?}`) becomes empty, an unknown required one is an error.
/// Text outside placeholders is kept as written.
pub fn expand_template(template: &str, query: &str) -> Result<Url, TemplateError> {
    let mut out = String::with_capacity(template.len() + query.len() * 3);
    let mut rest = template;
    let mut saw_query = false;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err(TemplateError::Unclosed {
                template: template.into(),
            });
        };
        let raw = &after[..close];
        let optional = raw.ends_with('?');
        let name = raw.trim_end_matches('?');
        // Namespaced parameters (`{geo:box?}`) are matched by local name.
        let local = name.rsplit(':').next().unwrap_or(name);
        match local {
            "query" | "searchTerms" => {
                saw_query = true;
                out.push_str(&encode_component(query));
            }
            "count" => out.push_str("10"),
            "startIndex" | "startPage" => out.push('1'),
            "language" => out.push('*'),
            "inputEncoding" | "outputEncoding" => out.push_str("UTF-8"),
            _ if optional => {}
            _ => {
                return Err(TemplateError::UnknownParameter {
                    template: template.into(),
                    name: name.into(),
                });
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    if !saw_query {
        return Err(TemplateError::NoPlaceholder {
            template: template.into(),
        });
    }
    parse_http_url(&out).map_err(|reason| TemplateError::BadUrl {
        template: template.into(),
        expanded: out.clone(),
        reason,
    })
}

/// Like [`expand_template`], but a template without a placeholder is a plain
/// URL (registry `entry_urls` may be fixed pages).
pub fn expand_url(template: &str, query: &str) -> Result<Url, TemplateError> {
    match expand_template(template, query) {
        Err(TemplateError::NoPlaceholder { .. }) => {
            parse_http_url(template).map_err(|reason| TemplateError::BadUrl {
                template: template.into(),
                expanded: template.into(),
                reason,
            })
        }
        other => other,
    }
}

/// Parses an absolute `http`/`https` URL, saying why not otherwise.
pub fn parse_http_url(s: &str) -> Result<Url, HttpUrlError> {
    let url = Url::parse(s.trim())?;
    match url.scheme() {
        "http" | "https" if url.host_str().is_some() => Ok(url),
        "http" | "https" => Err(HttpUrlError::NoHost),
        other => Err(HttpUrlError::NotHttp(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_http_url_says_why_not() {
        assert_eq!(
            parse_http_url(" https://example.org/a ").unwrap().as_str(),
            "https://example.org/a"
        );
        assert_eq!(
            parse_http_url("ftp://example.org/"),
            Err(HttpUrlError::NotHttp("ftp".into()))
        );
        assert!(matches!(
            parse_http_url("not a url"),
            Err(HttpUrlError::Parse(_))
        ));
        let err = expand_template("ftp://x/{query}", "q").unwrap_err();
        assert_eq!(
            err.to_string(),
            "URL template `ftp://x/{query}` expands to `ftp://x/q`, which is not an absolute http(s) URL: scheme `ftp` is not http or https"
        );
    }
}
