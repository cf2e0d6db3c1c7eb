#![doc = include_str!("../README.md")]

mod body;
mod fault;
mod response;
mod server;

pub mod brave;
pub mod calibration;
pub mod demo;
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
