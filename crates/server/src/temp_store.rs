//! A SQLite store in a directory of its own, for the unit tests.

use std::sync::Arc;

/// A fresh store and the directory that holds it: the database, its WAL and
/// shared memory go when the directory is dropped, also when a test panics.
pub(crate) async fn temp_store() -> (tempfile::TempDir, Arc<dyn store::Store>) {
    let dir = tempfile::tempdir().expect("the temporary directory is writable");
    let url = format!("sqlite://{}", dir.path().join("koma.sqlite").display());
    let store = store::open(&url).await.expect("a new SQLite store opens");
    (dir, store)
}
