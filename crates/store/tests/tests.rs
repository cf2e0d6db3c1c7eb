//! sgw-store integration tests: one binary, one module per topic. Every
//! topic runs on SQLite, and on PostgreSQL when `SGW_TEST_POSTGRES_URL`
//! names a database (each test in its own schema).

mod common;

mod cache;
mod errors;
mod evidence;
mod open;
mod processes;
mod requests;
mod shared_postgres;
mod suspensions;
