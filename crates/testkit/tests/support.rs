//! Test clients: reqwest pointed at the simulated web, and a raw socket
//! reader for byte-level checks.

use std::time::Duration;

use sgw_testkit::SimWeb;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A reqwest client that resolves every registered host to the listener,
/// follows no redirects, decompresses nothing and ignores proxy env vars.
pub fn client(web: &SimWeb) -> reqwest::Client {
    client_with_timeout(web, Duration::from_secs(20))
}

pub fn client_with_timeout(web: &SimWeb, timeout: Duration) -> reqwest::Client {
    let mut b = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout);
    for h in web.hosts() {
        b = b.resolve(&h, web.addr());
    }
    b.build().unwrap()
}

/// What a raw HTTP/1.1 exchange produced.
#[derive(Debug)]
pub struct Raw {
    pub head: String,
    pub body: Vec<u8>,
    /// The server closed the connection (EOF) rather than us timing out.
    pub eof: bool,
}

impl Raw {
    pub fn status(&self) -> u16 {
        self.head.split(' ').nth(1).unwrap().parse().unwrap()
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().skip(1).find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_owned())
        })
    }
}

/// Send `GET path` with `Host: host` and read until EOF, until `limit` body
/// bytes, or until nothing arrives for `idle`.
pub async fn raw_get(web: &SimWeb, host: &str, path: &str, idle: Duration, limit: usize) -> Raw {
    let mut s = TcpStream::connect(web.addr()).await.unwrap();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {host}:{}\r\nConnection: close\r\n\r\n",
        web.port()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut eof = false;
    loop {
        match tokio::time::timeout(idle, s.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => {
                eof = true;
                break;
            }
            Ok(Ok(n)) => buf.extend_from_slice(&chunk[..n]),
            Err(_) => break,
        }
        if find(&buf, b"\r\n\r\n").is_some_and(|i| buf.len() - (i + 4) >= limit) {
            break;
        }
    }
    let i = find(&buf, b"\r\n\r\n").unwrap_or(buf.len());
    let head = String::from_utf8_lossy(&buf[..i]).into_owned();
    let body = buf.get(i + 4..).map(<[u8]>::to_vec).unwrap_or_default();
    Raw { head, body, eof }
}

pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

pub fn contains(hay: &[u8], needle: &str) -> bool {
    find(hay, needle.as_bytes()).is_some()
}
