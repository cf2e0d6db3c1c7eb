//! The listener: one loopback socket, many virtual hosts routed by `Host`.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use futures::StreamExt;
use http_body_util::StreamBody;
use http_body_util::combinators::UnsyncBoxBody;
use hyper::body::{Frame, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::task::{JoinHandle, JoinSet};

use crate::body::{Framing, wire};
use crate::fault::Fault;
use crate::response::{Body, Reply, Request, Response};

type DynHandler = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;
type HyperBody = UnsyncBoxBody<Bytes, std::io::Error>;

#[derive(Clone)]
enum Handler {
    Reply(Reply),
    Dynamic(DynHandler),
    /// The n-th request gets the n-th reply; the last one repeats.
    Sequence(Arc<Sequence>),
}

struct Sequence {
    replies: Vec<Reply>,
    next: std::sync::atomic::AtomicUsize,
}

/// The service error that makes hyper drop the connection unanswered.
#[derive(Debug)]
struct CloseConnection;

impl std::fmt::Display for CloseConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("sgw-testkit: closing the connection without a response (fault)")
    }
}

impl std::error::Error for CloseConnection {}

/// Requests kept in the log; older ones are dropped (hit counts stay exact).
const LOG_CAP: usize = 100_000;

#[derive(Default)]
struct HostRoutes {
    /// Exact paths.
    exact: HashMap<String, Handler>,
    /// Prefix routes (`/docs/*` is stored as `/docs/`), longest match wins.
    prefix: BTreeMap<String, Handler>,
}

impl HostRoutes {
    fn find(&self, path: &str) -> Option<Handler> {
        if let Some(h) = self.exact.get(path) {
            return Some(h.clone());
        }
        self.prefix
            .iter()
            .filter(|(p, _)| path.starts_with(p.as_str()))
            .max_by_key(|(p, _)| p.len())
            .map(|(_, h)| h.clone())
    }
}

struct Shared {
    port: u16,
    hosts: Mutex<BTreeMap<String, HostRoutes>>,
    hits: Mutex<HashMap<(String, String), u64>>,
    log: Mutex<VecDeque<Request>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panicking dynamic handler must not take the whole simulated web down.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The simulated web: a loopback HTTP/1.1 server with many virtual hosts.
///
/// Dropping it stops the listener and closes every open connection
/// (including hanging ones).
pub struct SimWeb {
    shared: Arc<Shared>,
    addr: SocketAddr,
    runner: Runner,
}

/// Where the accept loop runs.
enum Runner {
    /// A task of the caller's tokio runtime.
    Task(JoinHandle<()>),
    /// A dedicated thread with its own runtime ([`SimWeb::start_detached`]).
    Thread {
        shutdown: Option<tokio::sync::oneshot::Sender<()>>,
        thread: Option<std::thread::JoinHandle<()>>,
    },
}

impl std::fmt::Debug for SimWeb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimWeb")
            .field("addr", &self.addr)
            .field("hosts", &self.hosts())
            .finish()
    }
}

impl Drop for SimWeb {
    fn drop(&mut self) {
        match &mut self.runner {
            Runner::Task(task) => task.abort(),
            Runner::Thread { shutdown, thread } => {
                if let Some(tx) = shutdown.take() {
                    let _ = tx.send(());
                }
                // The runtime drops every connection task as the thread ends;
                // joining makes "dropped ⇒ closed" hold when drop returns.
                if let Some(t) = thread.take() {
                    let _ = t.join();
                }
            }
        }
    }
}

impl SimWeb {
    /// Bind `127.0.0.1:0` and serve in a background task of the current
    /// tokio runtime.
    ///
    /// The server only makes progress while that runtime runs: in a
    /// `#[tokio::test]` (single-threaded) do not block the thread (e.g. waiting
    /// for a child process); use `#[tokio::test(flavor = "multi_thread")]` or
    /// [`SimWeb::start_detached`] then.
    ///
    /// # Panics
    /// If the loopback socket cannot be bound (use [`SimWeb::try_start`] to
    /// handle that) or when called outside a tokio runtime.
    pub async fn start() -> SimWeb {
        Self::try_start()
            .await
            .expect("sgw-testkit: cannot bind 127.0.0.1:0")
    }

    /// Like [`SimWeb::start`], returning the bind error.
    pub async fn try_start() -> std::io::Result<SimWeb> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            port: addr.port(),
            hosts: Mutex::new(BTreeMap::new()),
            hits: Mutex::new(HashMap::new()),
            log: Mutex::new(VecDeque::new()),
        });
        let task = tokio::spawn(accept_loop(listener, shared.clone()));
        tracing::debug!(%addr, "simulated web listening");
        Ok(SimWeb {
            shared,
            addr,
            runner: Runner::Task(task),
        })
    }

    /// Bind `127.0.0.1:0` and serve from a dedicated thread with its own
    /// tokio runtime: works from plain `#[test]`s and keeps serving while the
    /// caller blocks (e.g. on an `sgw` child process run by `assert_cmd`).
    /// Callable with or without a runtime around.
    ///
    /// # Panics
    /// If the socket, the runtime or the thread cannot be created (use
    /// [`SimWeb::try_start_detached`] to handle that).
    pub fn start_detached() -> SimWeb {
        Self::try_start_detached().expect("sgw-testkit: cannot start the simulated web thread")
    }

    /// Like [`SimWeb::start_detached`], returning the error.
    pub fn try_start_detached() -> std::io::Result<SimWeb> {
        let std_listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        std_listener.set_nonblocking(true)?;
        let addr = std_listener.local_addr()?;
        let shared = Arc::new(Shared {
            port: addr.port(),
            hosts: Mutex::new(BTreeMap::new()),
            hits: Mutex::new(HashMap::new()),
            log: Mutex::new(VecDeque::new()),
        });
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let serving = shared.clone();
        let thread = std::thread::Builder::new()
            .name(format!("sgw-testkit-{}", addr.port()))
            .spawn(move || {
                rt.block_on(async move {
                    let listener = match TcpListener::from_std(std_listener) {
                        Ok(l) => l,
                        Err(e) => {
                            tracing::error!(error = %e, "simulated web: cannot register listener");
                            return;
                        }
                    };
                    tokio::select! {
                        () = accept_loop(listener, serving) => {}
                        _ = rx => {}
                    }
                });
            })?;
        tracing::debug!(%addr, "simulated web listening (own thread)");
        Ok(SimWeb {
            shared,
            addr,
            runner: Runner::Thread {
                shutdown: Some(tx),
                thread: Some(thread),
            },
        })
    }

    /// Serve `reply` (a [`Response`] or a [`Fault`]) at `host` + `path`,
    /// replacing what was there. `path` excludes the query string; a path
    /// ending in `*` is a prefix route (`"/docs/*"`), the longest prefix
    /// wins and exact routes win over prefixes. Registers `host` if new.
    pub fn route(&self, host: &str, path: &str, reply: impl Into<Reply>) {
        self.insert(host, path, Handler::Reply(reply.into()));
    }

    /// Serve whatever `f` answers for each request at `host` + `path`
    /// (query-aware endpoints such as `/search?q=…&format=json`).
    pub fn route_fn<F>(&self, host: &str, path: &str, f: F)
    where
        F: Fn(&Request) -> Reply + Send + Sync + 'static,
    {
        self.insert(host, path, Handler::Dynamic(Arc::new(f)));
    }

    /// Answer the n-th request to `host` + `path` with the n-th of
    /// `replies`, and every later one with the last (e.g. two 503s then a
    /// page, for retry tests). An empty list serves 404s.
    pub fn route_sequence(&self, host: &str, path: &str, replies: Vec<Reply>) {
        self.insert(
            host,
            path,
            Handler::Sequence(Arc::new(Sequence {
                replies,
                next: std::sync::atomic::AtomicUsize::new(0),
            })),
        );
    }

    /// Remove a route; returns whether it existed. The host stays registered.
    pub fn unroute(&self, host: &str, path: &str) -> bool {
        let host = normalize_host(host);
        let mut hosts = lock(&self.shared.hosts);
        let Some(routes) = hosts.get_mut(&host) else {
            return false;
        };
        match path.strip_suffix('*') {
            Some(prefix) => routes.prefix.remove(prefix).is_some(),
            None => routes.exact.remove(route_path(path)).is_some(),
        }
    }

    /// Register `host` without routes (every path answers 404).
    pub fn add_host(&self, host: &str) {
        lock(&self.shared.hosts)
            .entry(normalize_host(host))
            .or_default();
    }

    fn insert(&self, host: &str, path: &str, handler: Handler) {
        let host = normalize_host(host);
        let mut hosts = lock(&self.shared.hosts);
        let routes = hosts.entry(host).or_default();
        match path.strip_suffix('*') {
            Some(prefix) => {
                routes.prefix.insert(prefix.to_owned(), handler);
            }
            None => {
                routes.exact.insert(route_path(path).to_owned(), handler);
            }
        }
    }

    /// `http://<host>:<port><path>` (path may carry a query).
    ///
    /// # Panics
    /// If `host` or `path` cannot form a URL.
    pub fn url(&self, host: &str, path: &str) -> url::Url {
        let path = if path.starts_with('/') {
            path.to_owned()
        } else {
            format!("/{path}")
        };
        url::Url::parse(&format!(
            "http://{}:{}{}",
            normalize_host(host),
            self.port(),
            path
        ))
        .unwrap_or_else(|e| panic!("sgw-testkit: bad URL for host {host:?} path {path:?}: {e}"))
    }

    /// The listener's address (always `127.0.0.1:<ephemeral port>`).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The listener's port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Registered host names, sorted.
    pub fn hosts(&self) -> Vec<String> {
        lock(&self.shared.hosts).keys().cloned().collect()
    }

    /// How many requests `host` + `path` (exact path, query ignored) has
    /// received, whatever was answered — including for unknown hosts/paths.
    pub fn hits(&self, host: &str, path: &str) -> u64 {
        lock(&self.shared.hits)
            .get(&(normalize_host(host), route_path(path).to_owned()))
            .copied()
            .unwrap_or(0)
    }

    /// All requests `host` received, on any path.
    pub fn host_hits(&self, host: &str) -> u64 {
        let host = normalize_host(host);
        lock(&self.shared.hits)
            .iter()
            .filter(|((h, _), _)| *h == host)
            .map(|(_, n)| n)
            .sum()
    }

    /// Every request received so far, in arrival order (the most recent
    /// 100 000 if there were more).
    pub fn requests(&self) -> Vec<Request> {
        lock(&self.shared.log).iter().cloned().collect()
    }

    /// Forget hit counts and the request log (routes stay).
    pub fn reset_counters(&self) {
        lock(&self.shared.hits).clear();
        lock(&self.shared.log).clear();
    }

    /// Host → IP overrides a client needs to reach every registered host
    /// here (all `127.0.0.1`; the port travels in the URL).
    pub fn resolve_overrides(&self) -> Vec<(String, IpAddr)> {
        self.hosts()
            .into_iter()
            .map(|h| (h, IpAddr::V4(Ipv4Addr::LOCALHOST)))
            .collect()
    }

    /// YAML for the gateway policy's `network:` section that points every
    /// registered host at this listener and lets the SSRF guard allow them.
    pub fn policy_fragment(&self) -> String {
        let hosts = self.hosts();
        let mut y = String::from("network:\n  resolve:\n");
        if hosts.is_empty() {
            y = String::from("network:\n  resolve: {}\n");
        }
        for h in &hosts {
            y.push_str(&format!("    {}: 127.0.0.1\n", yaml_scalar(h)));
        }
        let list: Vec<String> = hosts.iter().map(|h| yaml_scalar(h)).collect();
        y.push_str(&format!("  allow_hosts: [{}]\n", list.join(", ")));
        y
    }
}

/// A host name as a YAML plain scalar when safe, else double-quoted.
fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_')
        && !matches!(
            s,
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~"
        )
        && s.parse::<f64>().is_err();
    if plain {
        s.to_owned()
    } else {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

fn route_path(path: &str) -> &str {
    path.split('?').next().unwrap_or(path)
}

/// Lower-case, strip port and trailing dot; keeps IPv6 brackets.
fn normalize_host(raw: &str) -> String {
    let raw = raw.trim();
    let host = if raw.starts_with('[') {
        match raw.find(']') {
            Some(i) => &raw[..=i],
            None => raw,
        }
    } else {
        match raw.rsplit_once(':') {
            Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) => h,
            _ => raw,
        }
    };
    host.trim_end_matches('.').to_ascii_lowercase()
}

async fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    let mut conns = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(x) => x,
                    Err(e) => {
                        tracing::warn!(error = %e, "simulated web: accept failed");
                        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                        continue;
                    }
                };
                let shared = shared.clone();
                conns.spawn(async move {
                    let svc = service_fn(move |req| handle(shared.clone(), req));
                    if let Err(e) = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), svc)
                        .await
                    {
                        tracing::debug!(%peer, error = %e, "simulated web: connection ended with error");
                    }
                });
            }
            Some(_) = conns.join_next(), if !conns.is_empty() => {}
        }
    }
}

async fn handle(
    shared: Arc<Shared>,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<HyperBody>, CloseConnection> {
    let raw_host = req
        .headers()
        .get(http::header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| req.uri().authority().map(|a| a.to_string()))
        .unwrap_or_default();
    let request = Request {
        method: req.method().clone(),
        host: normalize_host(&raw_host),
        path: req.uri().path().to_owned(),
        query: req.uri().query().map(str::to_owned),
        headers: req.headers().clone(),
    };
    drop(req);
    *lock(&shared.hits)
        .entry((request.host.clone(), request.path.clone()))
        .or_default() += 1;
    {
        let mut log = lock(&shared.log);
        if log.len() >= LOG_CAP {
            log.pop_front();
        }
        log.push_back(request.clone());
    }

    let handler = {
        let hosts = lock(&shared.hosts);
        hosts.get(&request.host).map(|r| r.find(&request.path))
    };
    let reply = match handler {
        None => Reply::Response(misdirected(&request.host)),
        Some(None) => Reply::Fault(Fault::NotFound),
        Some(Some(Handler::Reply(r))) => r,
        Some(Some(Handler::Sequence(seq))) => {
            let n = seq.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            match seq.replies.get(n).or(seq.replies.last()) {
                Some(r) => r.clone(),
                None => Reply::Fault(Fault::NotFound),
            }
        }
        Some(Some(Handler::Dynamic(f))) => {
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&request))) {
                Ok(r) => r,
                Err(_) => Reply::Response(
                    Response::text("sgw-testkit: dynamic handler panicked").status(500),
                ),
            }
        }
    };
    let response = match reply {
        Reply::Response(r) => r,
        Reply::Fault(f) => f.response(&request, shared.port),
    };
    tracing::trace!(host = %request.host, path = %request.path, status = %response.status, "simulated web answered");
    match response.body {
        Body::Hang => std::future::pending::<()>().await,
        Body::Close => return Err(CloseConnection),
        _ => {}
    }
    Ok(to_hyper(response))
}

fn misdirected(host: &str) -> Response {
    Response::text(format!(
        "421 Misdirected Request: sgw-testkit serves no host named {host:?}\n"
    ))
    .status(421)
}

fn to_hyper(r: Response) -> hyper::Response<HyperBody> {
    let user_sets_length = r
        .headers
        .iter()
        .any(|(n, _)| n == "content-length" || n == "transfer-encoding");
    let wire = wire(r.body);
    let mut builder = hyper::Response::builder().status(r.status);
    for (name, value) in &r.headers {
        match (
            http::HeaderName::from_bytes(name.as_bytes()),
            http::HeaderValue::from_str(value),
        ) {
            (Ok(n), Ok(v)) => builder = builder.header(n, v),
            _ => tracing::warn!(%name, %value, "simulated web: skipping invalid header"),
        }
    }
    if let (false, Framing::Length(n)) = (user_sets_length, &wire.framing) {
        builder = builder.header(http::header::CONTENT_LENGTH, *n);
    }
    let body = UnsyncBoxBody::new(StreamBody::new(wire.stream.map(|r| r.map(Frame::data))));
    builder.body(body).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "simulated web: cannot build response");
        let mut resp = hyper::Response::new(UnsyncBoxBody::new(StreamBody::new(
            futures::stream::empty::<Result<Frame<Bytes>, std::io::Error>>(),
        )));
        *resp.status_mut() = http::StatusCode::INTERNAL_SERVER_ERROR;
        resp
    })
}
