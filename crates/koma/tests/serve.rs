//! `koma` alone serves; a server killed with SIGKILL loses no acknowledged
//! move; SIGTERM shuts it down cleanly.

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

mod common;

use common::{free_port, must, request};
use serde_json::json;

/// A data directory of its own, deleted when dropped.
fn data_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("koma-serve-")
        .tempdir()
        .expect("the temporary directory is writable")
}

/// Starts `koma` with `args` (and the settings as environment variables) and
/// waits until it answers `/healthz`.
fn start(args: &[&str], port: u16, data: &Path) -> Child {
    let child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .env("KOMA_BIND", format!("127.0.0.1:{port}"))
        .env("KOMA_DATA_DIR", data)
        .env("KOMA_LOG", "warn")
        .spawn()
        .expect("koma starts");
    let started = Instant::now();
    while request(port, "GET", "/healthz", None, None).is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "koma did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

#[test]
fn acknowledged_moves_survive_sigkill_and_sigterm_stops_cleanly() {
    let (port, dir) = (free_port(), data_dir());
    let data = dir.path();
    // No subcommand: `koma` is `koma serve`.
    let mut koma = start(&[], port, data);
    let created = must(
        port,
        "POST",
        "/api/v1/rooms",
        None,
        Some(json!({"variant": "shogi"})),
    );
    let id = created["id"].as_str().unwrap().to_owned();
    let first = created["token"].as_str().unwrap().to_owned();
    let joined = must(
        port,
        "POST",
        &format!("/api/v1/rooms/{id}/join"),
        None,
        None,
    );
    let second = joined["token"].as_str().unwrap().to_owned();
    let moves = format!("/api/v1/rooms/{id}/moves");
    must(
        port,
        "POST",
        &moves,
        Some(&first),
        Some(json!({"move": "7g7f"})),
    );
    must(
        port,
        "POST",
        &moves,
        Some(&second),
        Some(json!({"move": "3c3d"})),
    );
    koma.kill().unwrap();
    koma.wait().unwrap();
    assert!(data.join("koma.sqlite").exists());

    let mut koma = start(&["serve"], port, data);
    let room = must(port, "GET", &format!("/api/v1/rooms/{id}"), None, None);
    assert_eq!(room["moves"], json!(["7g7f", "3c3d"]));
    assert_eq!(room["status"], "playing");
    // The seats and their tokens are back.
    let (status, body) = request(
        port,
        "POST",
        &moves,
        Some(&second),
        Some(json!({"move": "2g2f"})),
    )
    .unwrap();
    assert_eq!(status, 409, "{body}");
    let body = must(
        port,
        "POST",
        &moves,
        Some(&first),
        Some(json!({"move": "2g2f"})),
    );
    assert_eq!(body["ply"], 3);

    let terminate = Command::new("kill")
        .args(["-TERM", &koma.id().to_string()])
        .status()
        .unwrap();
    assert!(terminate.success());
    let status = koma.wait().unwrap();
    assert!(status.success(), "{status}");
}

#[test]
fn a_bad_database_url_is_named() {
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args([
            "serve",
            "--database-url",
            "mysql://user:secret@localhost/koma",
            "--bind",
            "127.0.0.1:0",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mysql") && !err.contains("secret"), "{err}");
}

#[test]
fn the_database_url_can_come_from_a_file() {
    let dir = data_dir();
    let data = dir.path();
    let database = data.join("from-file.sqlite");
    let file = data.join("database-url");
    std::fs::write(&file, format!("sqlite://{}\n", database.display())).unwrap();
    let port = free_port();
    let mut koma = start(
        &["serve", "--database-url-file", file.to_str().unwrap()],
        port,
        &data.join("unused"),
    );
    assert!(database.exists());
    assert!(!data.join("unused").exists());
    koma.kill().unwrap();
    koma.wait().unwrap();

    // A bad URL from the file is named, its password is not.
    std::fs::write(&file, "mysql://user:secret@localhost/koma").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["serve", "--database-url-file", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mysql") && !err.contains("secret"), "{err}");
}
