//! The faults of the real web, with the header and body shapes the real
//! thing sends. Each [`Fault`] is rendered into a [`Response`] per request.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::pages;
use crate::response::{Body, Request, Response};

/// A `Retry-After` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetryAfter {
    /// `Retry-After: <seconds>`.
    Seconds(u64),
    /// `Retry-After: <HTTP-date>`, sent verbatim (e.g. `Wed, 21 Oct 2026 07:28:00 GMT`).
    Date(String),
}

impl RetryAfter {
    fn header_value(&self) -> String {
        match self {
            RetryAfter::Seconds(s) => s.to_string(),
            RetryAfter::Date(d) => d.clone(),
        }
    }
}

/// Interstitial bot challenges (a JavaScript check, not a CAPTCHA widget).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Challenge {
    /// Cloudflare managed challenge: **403**, `cf-mitigated: challenge`,
    /// `server: cloudflare`, `cf-ray`, "Just a moment...", scripts from
    /// `/cdn-cgi/challenge-platform/` and `challenges.cloudflare.com`.
    CloudflareManaged,
    /// Cloudflare "I'm Under Attack" mode: the same page shape with **503**.
    CloudflareUnderAttack,
}

/// CAPTCHA pages: **200** HTML whose form needs a human.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Captcha {
    /// Google reCAPTCHA v2: `www.google.com/recaptcha/api.js`, `class="g-recaptcha"`.
    Recaptcha,
    /// hCaptcha: `js.hcaptcha.com/1/api.js`, `class="h-captcha"`.
    Hcaptcha,
    /// Cloudflare Turnstile: `challenges.cloudflare.com/turnstile/v0/api.js`, `class="cf-turnstile"`.
    Turnstile,
}

/// CDN / WAF block pages (**403**).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cdn {
    /// Cloudflare firewall rule, "Error 1020 Access denied", `server: cloudflare`, `cf-ray`.
    Cloudflare,
    /// Akamai "Access Denied" with `server: AkamaiGHost` and a
    /// `Reference #18.xxxx` line. As Akamai does, the body writes the
    /// punctuation as HTML entities (`Reference&#32;&#35;18&#46;…`): decode
    /// entities before matching text.
    Akamai,
    /// Fastly/Varnish "Error 403 Forbidden" with `x-served-by: cache-…`,
    /// `via: 1.1 varnish`, `x-cache`, `x-timer`.
    Fastly,
}

/// Login walls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Login {
    /// **401** with `WWW-Authenticate: Basic realm="Members area", charset="UTF-8"`.
    Basic,
    /// **401** with `WWW-Authenticate: Bearer realm="api", error="invalid_token"` and a JSON body.
    Bearer,
    /// **200** page that is only a sign-in form (`<form action="/login">` with
    /// a password field), as many paywalled/member sites serve.
    FormPage,
    /// **302** to `/login?next=<path>`.
    RedirectToLogin,
}

/// Private / internal redirect targets for SSRF-guard tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Private {
    /// `http://169.254.169.254/latest/meta-data/` (cloud metadata).
    Metadata,
    /// `http://10.0.0.1/` (RFC 1918).
    Rfc1918,
    /// `http://127.0.0.1:<port>/` — this very listener, so a client that
    /// follows it really gets an answer (421, unknown host).
    Loopback,
    /// `http://localhost:<port>/`.
    Localhost,
    /// `http://[::1]:<port>/`.
    Ipv6Loopback,
    /// `http://2130706433:<port>/` — 127.0.0.1 written as one decimal number.
    DecimalLoopback,
}

impl Private {
    /// The `Location` this target produces for a listener on `port`.
    pub fn location(self, port: u16) -> String {
        match self {
            Private::Metadata => "http://169.254.169.254/latest/meta-data/".to_owned(),
            Private::Rfc1918 => "http://10.0.0.1/".to_owned(),
            Private::Loopback => format!("http://127.0.0.1:{port}/"),
            Private::Localhost => format!("http://localhost:{port}/"),
            Private::Ipv6Loopback => format!("http://[::1]:{port}/"),
            Private::DecimalLoopback => format!("http://2130706433:{port}/"),
        }
    }
}

/// A fault of the real web. Route it like a [`Response`]:
/// `web.route("x.test", "/", Fault::Hang)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Accept the request and never answer (no status line).
    Hang,
    /// 200 headers with `Content-Length: 65536`, then silence: tests a
    /// total/body timeout as opposed to a first-byte one.
    HangAfterHeaders,
    /// Read the request, then close the connection without a byte.
    CloseWithoutResponse,
    /// 200 HTML trickling `chunk` bytes every `every` up to `total`
    /// (truthful `Content-Length`).
    SlowDrip {
        /// Bytes per write.
        chunk: usize,
        /// Pause between writes.
        every: Duration,
        /// Body length.
        total: u64,
    },
    /// 429 Too Many Requests, with `Retry-After` if given.
    RateLimited {
        /// `Retry-After` header, if any.
        retry_after: Option<RetryAfter>,
    },
    /// 503 Service Unavailable, with `Retry-After` if given.
    Unavailable {
        /// `Retry-After` header, if any.
        retry_after: Option<RetryAfter>,
    },
    /// 500 Internal Server Error (nginx-style page).
    ServerError,
    /// A JavaScript bot challenge interstitial.
    Challenge(Challenge),
    /// A CAPTCHA page.
    Captcha(Captcha),
    /// A CDN/WAF 403 block page.
    CdnBlock(Cdn),
    /// 404 Not Found (HTML page).
    NotFound,
    /// 410 Gone (HTML page).
    Gone,
    /// A login wall.
    Login(Login),
    /// 200 JavaScript-only app shell: `<div id="root"></div>` and
    /// "You need to enable JavaScript to run this app.".
    JsShell,
    /// 200 HTML with `Content-Length: declared` but only `sent` bytes are
    /// written before the connection is closed. `sent` is clamped to
    /// `declared - 1` so the body is always short (use `declared ≥ 1`).
    Truncated {
        /// The declared length.
        declared: u64,
        /// How many bytes are really sent.
        sent: u64,
    },
    /// 200 HTML body of `total` bytes, streamed; `declare_length` chooses
    /// `Content-Length` vs chunked encoding.
    Oversized {
        /// Body length.
        total: u64,
        /// Declare the length up front.
        declare_length: bool,
    },
    /// 200 `text/html` with `Content-Encoding: gzip` whose body inflates to
    /// `uncompressed` zeros (rounded up to MiB); ~1 KiB on the wire per MiB.
    GzipBomb {
        /// Inflated size.
        uncompressed: u64,
    },
    /// 200 `text/html` with `Content-Encoding: br` whose body inflates to
    /// `uncompressed` zeros (compressed on the fly, chunked).
    BrotliBomb {
        /// Inflated size.
        uncompressed: u64,
    },
    /// 302 loop between `<path>` and `<path>?sgw_loop=1`, forever.
    RedirectLoop,
    /// 302 to a private/internal address.
    RedirectToPrivate(Private),
}

/// A Cloudflare-style ray id: 16 hex digits (the header adds a colo code).
fn ray_id() -> String {
    static N: AtomicU64 = AtomicU64::new(0x8a1f_3c2e_0b4d_0000);
    let n = N.fetch_add(0x9e37_79b9, Ordering::Relaxed);
    format!("{n:016x}")
}

fn cloudflare_common(r: Response, ray: &str) -> Response {
    r.header("server", "cloudflare")
        .header("cf-ray", format!("{ray}-AMS"))
        .header("x-frame-options", "SAMEORIGIN")
        .header("referrer-policy", "same-origin")
        .header(
            "cache-control",
            "private, max-age=0, no-store, no-cache, must-revalidate, post-check=0, pre-check=0",
        )
        .header("expires", "Thu, 01 Jan 1970 00:00:01 GMT")
}

impl Fault {
    /// Render this fault for `req` on a listener at `port`.
    pub fn response(&self, req: &Request, port: u16) -> Response {
        match self {
            Fault::Hang => Response::new(200).with_body(Body::Hang),
            Fault::HangAfterHeaders => Response::new(200)
                .header("content-type", "text/html; charset=utf-8")
                .with_body(Body::Stall { declared: 65_536 }),
            Fault::CloseWithoutResponse => Response::new(200).with_body(Body::Close),
            Fault::SlowDrip {
                chunk,
                every,
                total,
            } => Response::new(200)
                .header("content-type", "text/html; charset=utf-8")
                .with_body(Body::Drip {
                    chunk: (*chunk).max(1),
                    every: *every,
                    total: *total,
                }),
            Fault::RateLimited { retry_after } => {
                let mut r = Response::new(429)
                    .header("content-type", "text/html; charset=utf-8")
                    .header("server", "nginx");
                if let Some(ra) = retry_after {
                    r = r.header("retry-after", ra.header_value());
                }
                r.body(
                    "<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body>\r\n\
                     <center><h1>429 Too Many Requests</h1></center>\r\n<hr><center>nginx</center>\r\n\
                     </body>\r\n</html>\r\n",
                )
            }
            Fault::Unavailable { retry_after } => {
                let mut r = Response::new(503)
                    .header("content-type", "text/html; charset=utf-8")
                    .header("server", "nginx");
                if let Some(ra) = retry_after {
                    r = r.header("retry-after", ra.header_value());
                }
                r.body(
                    "<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n\
                     <center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n\
                     </body>\r\n</html>\r\n",
                )
            }
            Fault::ServerError => Response::new(500)
                .header("content-type", "text/html; charset=utf-8")
                .header("server", "nginx")
                .body(
                    "<html>\r\n<head><title>500 Internal Server Error</title></head>\r\n<body>\r\n\
                     <center><h1>500 Internal Server Error</h1></center>\r\n<hr><center>nginx</center>\r\n\
                     </body>\r\n</html>\r\n",
                ),
            Fault::Challenge(c) => {
                let status = match c {
                    Challenge::CloudflareManaged => 403,
                    Challenge::CloudflareUnderAttack => 503,
                };
                let ray = ray_id();
                cloudflare_common(Response::new(status), &ray)
                    .header("content-type", "text/html; charset=UTF-8")
                    .header("cf-mitigated", "challenge")
                    .header("cross-origin-embedder-policy", "require-corp")
                    .header("cross-origin-opener-policy", "same-origin")
                    .header("cross-origin-resource-policy", "same-origin")
                    .header("permissions-policy", "accelerometer=(),autoplay=(),browsing-topics=(),camera=(),clipboard-read=(),clipboard-write=(),geolocation=(),gyroscope=(),hid=(),interest-cohort=(),magnetometer=(),microphone=(),payment=(),publickey-credentials-get=(),screen-wake-lock=(),serial=(),sync-xhr=(),usb=()")
                    .header("vary", "Accept-Encoding")
                    .body(pages::cloudflare_challenge(&req.host, &ray))
            }
            Fault::Captcha(c) => Response::html(pages::captcha(*c, &req.host, &req.path)),
            Fault::CdnBlock(Cdn::Cloudflare) => {
                let ray = ray_id();
                cloudflare_common(Response::new(403), &ray)
                    .header("content-type", "text/html; charset=UTF-8")
                    .body(pages::cloudflare_1020(&req.host, &ray))
            }
            Fault::CdnBlock(Cdn::Akamai) => Response::new(403)
                .header("server", "AkamaiGHost")
                .header("mime-version", "1.0")
                .header("content-type", "text/html")
                .header("expires", "Mon, 01 Jan 2024 00:00:00 GMT")
                .header("cache-control", "max-age=0, no-cache, no-store")
                .header("pragma", "no-cache")
                .header("connection", "close")
                .body(pages::akamai_denied(&req.host, &req.path)),
            Fault::CdnBlock(Cdn::Fastly) => Response::new(403)
                .header("content-type", "text/html; charset=utf-8")
                .header("accept-ranges", "bytes")
                .header("via", "1.1 varnish")
                .header("x-served-by", "cache-fra-etou8220050-FRA")
                .header("x-cache", "MISS")
                .header("x-cache-hits", "0")
                .header("x-timer", "S1704067200.123456,VS0,VE1")
                .body(pages::fastly_forbidden()),
            Fault::NotFound => Response::html(pages::not_found(&req.path)).status(404),
            Fault::Gone => Response::html(pages::gone(&req.path)).status(410),
            Fault::Login(Login::Basic) => Response::new(401)
                .header("www-authenticate", "Basic realm=\"Members area\", charset=\"UTF-8\"")
                .header("content-type", "text/html; charset=utf-8")
                .body(
                    "<!DOCTYPE html><html><head><title>401 Unauthorized</title></head><body>\
                     <h1>Unauthorized</h1><p>This server could not verify that you are authorized \
                     to access the document requested.</p></body></html>",
                ),
            Fault::Login(Login::Bearer) => Response::new(401)
                .header(
                    "www-authenticate",
                    "Bearer realm=\"api\", error=\"invalid_token\", error_description=\"The access token is missing\"",
                )
                .header("content-type", "application/json")
                .body(r#"{"error":"unauthorized","message":"Authentication required"}"#),
            Fault::Login(Login::FormPage) => Response::html(pages::login_form(&req.path))
                .header("set-cookie", "session=; Path=/; HttpOnly; SameSite=Lax"),
            Fault::Login(Login::RedirectToLogin) => {
                let next: String =
                    url::form_urlencoded::byte_serialize(req.path.as_bytes()).collect();
                Response::redirect(302, &format!("/login?next={next}"))
                    .header("cache-control", "no-store")
            }
            Fault::JsShell => Response::html(pages::js_shell(&req.host)),
            Fault::Truncated { declared, sent } => {
                let sent = (*sent).min(declared.saturating_sub(1));
                let page = pages::filler_html(usize::try_from(sent).unwrap_or(usize::MAX));
                Response::new(200)
                    .header("content-type", "text/html; charset=utf-8")
                    .with_body(Body::Truncated {
                        declared: *declared,
                        bytes: page.into(),
                    })
            }
            Fault::Oversized {
                total,
                declare_length,
            } => Response::new(200)
                .header("content-type", "text/html; charset=utf-8")
                .with_body(Body::Filler {
                    total: *total,
                    declare_length: *declare_length,
                }),
            Fault::GzipBomb { uncompressed } => Response::new(200)
                .header("content-type", "text/html; charset=utf-8")
                .header("content-encoding", "gzip")
                .header("vary", "Accept-Encoding")
                .with_body(Body::GzipZeros {
                    uncompressed: *uncompressed,
                }),
            Fault::BrotliBomb { uncompressed } => Response::new(200)
                .header("content-type", "text/html; charset=utf-8")
                .header("content-encoding", "br")
                .header("vary", "Accept-Encoding")
                .with_body(Body::BrotliZeros {
                    uncompressed: *uncompressed,
                }),
            Fault::RedirectLoop => {
                let looped = req
                    .query_pairs()
                    .iter()
                    .any(|(k, v)| k == "sgw_loop" && v == "1");
                let location = if looped {
                    req.path.clone()
                } else {
                    format!("{}?sgw_loop=1", req.path)
                };
                Response::redirect(302, &location)
            }
            Fault::RedirectToPrivate(p) => {
                Response::redirect(302, &p.location(port))
            }
        }
    }
}
