//! Opening: backend choice by scheme, defaults, migrations, SQLite settings.

use crate::common::*;
use sgw_store::{Backend, Store, StoreError};

#[tokio::test]
async fn unknown_scheme_lists_the_supported_ones() {
    for loc in ["mysql://localhost/db", "redis://x", "ftp://h/f.sqlite"] {
        let err = Store::open(loc).await.unwrap_err();
        assert!(
            matches!(err, StoreError::UnsupportedScheme { .. }),
            "{loc}: {err}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains("sqlite:") && msg.contains("postgres://"),
            "{msg}"
        );
        assert!(!err.is_temporary());
    }
    assert!(Store::open("").await.is_err());
}

#[tokio::test]
async fn sqlite_urls_paths_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a").join("b").join("s.sqlite");
    let k = key("q", "news");
    let rec = stored(&k, "x");
    {
        let store = Store::open(&path.to_string_lossy()).await.unwrap();
        assert_eq!(store.backend(), Backend::Sqlite);
        store.put_evidence(&rec).await.unwrap();
        store.close().await;
    }
    // The same file through a sqlite: URL.
    let url = format!("sqlite://{}", path.display());
    let store = Store::open(&url).await.unwrap();
    assert_eq!(
        store.get_evidence(&rec.id).await.unwrap().unwrap(),
        read_back(&rec)
    );
    assert!(store.check_integrity().await.unwrap().is_empty());
    store.close().await;

    let raw = sqlx::SqlitePool::connect(&url).await.unwrap();
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&raw)
        .await
        .unwrap();
    assert_eq!(mode, "wal");
    raw.close().await;

    let mem = Store::open("sqlite::memory:").await.unwrap();
    mem.put_evidence(&rec).await.unwrap();
    assert!(mem.get_evidence(&rec.id).await.unwrap().is_some());
}

#[tokio::test]
async fn a_newer_schema_is_refused() {
    let fx = Fixture::sqlite();
    fx.open().await.close().await;
    let raw = sqlx::SqlitePool::connect(&format!("sqlite://{}", fx.url))
        .await
        .unwrap();
    sqlx::query("INSERT INTO sgw_schema_migrations (version, name, applied_at_ms) VALUES (999, 'future', 0)")
        .execute(&raw)
        .await
        .unwrap();
    raw.close().await;
    let err = Store::open(&fx.url).await.unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(&err, StoreError::Open { source, .. } if matches!(**source, StoreError::Schema(_))),
        "{msg}"
    );
    assert!(
        msg.contains("999") && msg.contains(&fx.url),
        "names version and file: {msg}"
    );
}

#[tokio::test]
async fn reopening_does_not_reapply_migrations() {
    let fx = Fixture::sqlite();
    for _ in 0..3 {
        fx.open().await.close().await;
    }
    let raw = sqlx::SqlitePool::connect(&format!("sqlite://{}", fx.url))
        .await
        .unwrap();
    let versions: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM sgw_schema_migrations ORDER BY version")
            .fetch_all(&raw)
            .await
            .unwrap();
    assert_eq!(versions, [1, 2, 3], "each migration recorded once");
    raw.close().await;
}

#[tokio::test]
async fn an_up_to_date_store_opens_without_the_write_lock() {
    // Every open after the first only reads the schema version: it neither
    // waits for nor takes the write lock another process holds.
    use sqlx::Connection;
    let fx = Fixture::sqlite();
    fx.open().await.close().await;
    let mut writer = sqlx::SqliteConnection::connect(&format!("sqlite://{}", fx.url))
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut writer)
        .await
        .unwrap();
    let store = Store::open(&fx.url).await.unwrap();
    assert!(store.check_integrity().await.unwrap().is_empty());
    store.close().await;
    sqlx::query("ROLLBACK").execute(&mut writer).await.unwrap();
    writer.close().await.unwrap();
}

#[test]
fn default_location_is_under_the_data_directory() {
    if std::env::var_os("HOME").is_none() && std::env::var_os("XDG_DATA_HOME").is_none() {
        println!("skipped: neither HOME nor XDG_DATA_HOME is set");
        return;
    }
    let p = Store::default_location().unwrap();
    assert!(
        p.ends_with("search-gateway/store.sqlite"),
        "{}",
        p.display()
    );
    assert!(p.is_absolute());
}

#[tokio::test]
async fn postgres_password_is_redacted_and_bad_servers_fail_cleanly() {
    // Nothing listens on port 1: the error names the operation, hides the password.
    let err = Store::open("postgres://u:hunter2@127.0.0.1:1/db")
        .await
        .unwrap_err();
    let msg = err.to_string();
    assert!(!msg.contains("hunter2"), "{msg}");
    assert!(msg.contains("127.0.0.1:1"), "names the server: {msg}");
    assert!(
        err.is_temporary(),
        "connection refused is worth retrying: {msg}"
    );
}

#[tokio::test]
async fn postgres_missing_schema_is_explained() {
    let Ok(base) = std::env::var(PG_ENV) else {
        println!("skipped: {PG_ENV} not set (postgres_missing_schema_is_explained)");
        return;
    };
    let sep = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{sep}options[search_path]=no_such_schema_sgw");
    let err = Store::open(&url).await.unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("CREATE SCHEMA") && msg.contains("no_such_schema_sgw"),
        "{msg}"
    );
}

#[tokio::test]
async fn is_existing_file_says_no_to_garbage_and_yes_only_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    let shown = path.display().to_string();
    // Garbage, other schemes, directories and files not there yet: no (and no panic).
    for loc in [
        "",
        "   ",
        "sqlite:",
        "sqlite://",
        "sqlite::memory:",
        "sqlite://x.sqlite?mode=memory",
        "sqlite:\0bad",
        "\0",
        "postgres://u@127.0.0.1:1/db",
        "mysql://h/db",
        "%%%:::///",
        dir.path().to_str().unwrap(),
        &shown,
        &format!("sqlite://{shown}"),
    ] {
        assert!(!Store::is_existing_file(loc), "{loc:?}");
    }
    assert!(!path.exists(), "asking created the file");
    Store::open(&shown).await.unwrap().close().await;
    assert!(Store::is_existing_file(&shown));
    assert!(Store::is_existing_file(&format!("sqlite://{shown}")));
    assert!(Store::is_existing_file(&format!("sqlite:{shown}?mode=rwc")));
}

/// The size of an SQLite file's write-ahead log (0 when there is none).
fn wal_len(path: &std::path::Path) -> u64 {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).map_or(0, |m| m.len())
}

#[tokio::test]
async fn closing_after_writes_checkpoints_and_a_reader_is_left_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    let location = path.to_string_lossy().to_string();
    let k = key("q", "news");
    let rec = stored(&k, "x");
    let writer = Store::open(&location).await.unwrap();
    writer.put_evidence(&rec).await.unwrap();
    assert!(
        wal_len(&path) > 0,
        "a commit goes to the write-ahead log first"
    );
    writer.close_after_writes().await;
    assert_eq!(wal_len(&path), 0, "closed: the log is in the database file");

    // A store that only read is not closed: it still answers.
    let reader = Store::open(&location).await.unwrap();
    assert!(reader.get_evidence(&rec.id).await.unwrap().is_some());
    reader.close_after_writes().await;
    assert!(reader.get_evidence(&rec.id).await.unwrap().is_some());
}
