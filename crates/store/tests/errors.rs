//! Error kinds from real databases: what a caller (and the CLI's exit code)
//! learns from a failure, by the backend's codes rather than its words.

use crate::common::*;
use sgw_contract::{StorageError, StorageErrorKind};
use sgw_store::{Store, StoreError};

#[tokio::test]
async fn a_file_that_is_not_a_database_is_corrupt_not_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite");
    std::fs::write(
        &path,
        "this is a text file, not a SQLite database\n".repeat(100),
    )
    .unwrap();
    let err = Store::open(&path.to_string_lossy()).await.unwrap_err();
    assert_eq!(err.kind(), StorageErrorKind::Corrupt, "{err}");
    assert!(!err.is_temporary(), "{err}");
}

#[tokio::test]
async fn a_location_under_a_file_is_a_configuration_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain");
    std::fs::write(&file, "x").unwrap();
    let err = Store::open(&file.join("store.sqlite").to_string_lossy())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Open { source, .. } if matches!(**source, StoreError::Io { .. })),
        "{err}"
    );
    assert!(!err.is_temporary(), "{err}");
    assert_eq!(err.kind(), StorageErrorKind::Config, "{err}");
}

#[tokio::test]
async fn a_refused_connection_is_unavailable_and_temporary() {
    // Nothing listens on port 1.
    let err = Store::open("postgres://u@127.0.0.1:1/db")
        .await
        .unwrap_err();
    assert_eq!(err.kind(), StorageErrorKind::Unavailable, "{err}");
    let storage = StorageError::from(err);
    assert!(storage.is_temporary(), "{storage}");
    assert!(storage.to_string().contains("127.0.0.1:1"), "{storage}");
}

#[tokio::test]
async fn a_closed_store_is_not_temporary() {
    let fx = Fixture::sqlite();
    let store = fx.open().await;
    store.close().await;
    let err = store
        .get_evidence(&sgw_store::new_evidence_id())
        .await
        .unwrap_err();
    assert!(!err.is_temporary(), "a closed pool does not reopen: {err}");
}

/// PostgreSQL `42501 insufficient_privilege` (a role that may use the schema
/// but not create in it) is PermissionDenied, which waiting never fixes.
#[tokio::test]
async fn postgres_insufficient_privilege_is_permission_denied() {
    let Some(fx) = Fixture::postgres("postgres_insufficient_privilege_is_permission_denied").await
    else {
        return;
    };
    let base = std::env::var(PG_ENV).unwrap();
    let schema = fx.schema().to_string();
    let role = format!("sgw_ro_{}", ulid::Ulid::new().to_string().to_lowercase());
    let admin = sqlx::PgPool::connect(&base).await.unwrap();
    for sql in [
        format!("CREATE ROLE {role} LOGIN"),
        format!("GRANT USAGE ON SCHEMA {schema} TO {role}"),
    ] {
        sqlx::query(&sql).execute(&admin).await.unwrap();
    }
    let mut as_role = url::Url::parse(&fx.url).unwrap();
    as_role.set_username(&role).unwrap();
    as_role.set_password(None).unwrap();
    let result = Store::open(as_role.as_str()).await;
    for sql in [
        format!("REVOKE USAGE ON SCHEMA {schema} FROM {role}"),
        format!("DROP ROLE {role}"),
    ] {
        sqlx::query(&sql).execute(&admin).await.unwrap();
    }
    admin.close().await;
    let err = result.unwrap_err();
    assert_eq!(err.kind(), StorageErrorKind::PermissionDenied, "{err}");
    assert!(!err.is_temporary(), "{err}");
}
