//! robots.txt files.

use crate::response::Response;

/// A robots.txt builder: [`Robots::agent`] opens a group, rules go into the
/// last opened group.
///
/// ```
/// let r = sgw_testkit::robots::Robots::new()
///     .agent("*").disallow("/private").allow("/private/press").crawl_delay(2)
///     .agent("BadBot").disallow("/");
/// assert!(r.text().contains("Crawl-delay: 2"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Robots {
    lines: Vec<String>,
    sitemaps: Vec<String>,
}

impl Robots {
    /// An empty robots.txt (everything allowed).
    pub fn new() -> Self {
        Self::default()
    }

    /// Start a group for `user_agent`.
    #[must_use]
    pub fn agent(mut self, user_agent: &str) -> Self {
        if !self.lines.is_empty() {
            self.lines.push(String::new());
        }
        self.lines.push(format!("User-agent: {user_agent}"));
        self
    }

    /// `Disallow: <path>`.
    #[must_use]
    pub fn disallow(mut self, path: &str) -> Self {
        self.lines.push(format!("Disallow: {path}"));
        self
    }

    /// `Allow: <path>`.
    #[must_use]
    pub fn allow(mut self, path: &str) -> Self {
        self.lines.push(format!("Allow: {path}"));
        self
    }

    /// `Crawl-delay: <seconds>`.
    #[must_use]
    pub fn crawl_delay(mut self, seconds: u32) -> Self {
        self.lines.push(format!("Crawl-delay: {seconds}"));
        self
    }

    /// `Sitemap: <url>` (written at the end).
    #[must_use]
    pub fn sitemap(mut self, url: &str) -> Self {
        self.sitemaps.push(url.to_owned());
        self
    }

    /// The file text.
    pub fn text(&self) -> String {
        let mut s = String::from("# robots.txt\n");
        for l in &self.lines {
            s.push_str(l);
            s.push('\n');
        }
        if !self.sitemaps.is_empty() {
            s.push('\n');
            for m in &self.sitemaps {
                s.push_str(&format!("Sitemap: {m}\n"));
            }
        }
        s
    }

    /// 200 `text/plain` response.
    pub fn response(&self) -> Response {
        Response::text(self.text())
    }
}

impl From<Robots> for crate::Reply {
    fn from(r: Robots) -> Self {
        r.response().into()
    }
}
