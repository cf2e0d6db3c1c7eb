//! `sgw-testkit` is the **simulated web** of Search Gateway: one loopback
//! HTTP/1.1 listener serving many virtual hosts (routed by `Host`), whose
//! pages and faults can be switched while it runs, plus builders for the
//! documents real sites and search APIs return.
//!
//! It is **not** a general mock-server framework (no request matching on
//! bodies or headers — write a [`SimWeb::route_fn`] handler for that), not
//! TLS (plain `http://` only), not HTTP/2, and not part of any production
//! path: it exists for tests and `sgw demo`. With feature `provider` it also
//! holds a provider author's test fixtures ([`provider`]).
#![doc = include_str!("../README.md")]

mod body;
mod fault;
mod response;
mod server;

pub mod brave;
pub mod calibration;
pub mod feeds;
pub mod hostile;
pub mod opensearch;
pub mod pages;
pub mod pdf;
#[cfg(feature = "provider")]
pub mod provider;
pub mod robots;
pub mod searxng;
pub mod sitemap;
pub mod wayback;
pub mod world;

pub use fault::{Captcha, Cdn, Challenge, Fault, Login, Private, RetryAfter};
pub use response::{Body, Reply, Request, Response, html_escape};
pub use server::SimWeb;
