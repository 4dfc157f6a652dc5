//! Start-up with many unfinished rooms: how long until the server answers its
//! first request, and until a room asked for at once answers.
//!
//! ```text
//! cargo run --release -p server --example lazystart -- [ROOMS]
//! ```
//! It fills a fresh SQLite file with `ROOMS` waiting rooms (default 10,000),
//! starts the server over it, and prints the time from the start until
//! `/healthz` answers, and until the last room created (the last the
//! background load reaches, so it loads on demand) answers
//! `GET /api/v1/rooms/ID`.

use std::sync::Arc;
use std::time::Instant;

use rules::{AnyGame, Settings, Variant};
use server::{AppState, Config, FirstLegalMove, RoomSettings};
use store::RoomRecord;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[tokio::main]
async fn main() {
    let rooms: usize = std::env::args()
        .nth(1)
        .map_or(10_000, |text| text.parse().expect("ROOMS is a number"));
    let path = std::env::temp_dir().join(format!("koma-lazystart-{}.sqlite", std::process::id()));
    let url = format!("sqlite://{}", path.display());
    let store = store::open(&url).await.expect("store opens");

    let filling = Instant::now();
    let start = AnyGame::new(Variant::Shogi, None, &Settings::default())
        .expect("the usual start")
        .start_text();
    let settings = RoomSettings::default().to_json().to_string();
    let mut last = String::new();
    for n in 0..rooms {
        last = format!("{n:032x}");
        let record = RoomRecord {
            id: last.clone(),
            variant: "shogi".to_owned(),
            mode: "online".to_owned(),
            level: 0,
            settings: settings.clone(),
            start: start.clone(),
            device: format!("device{n}"),
            created_at: server_now(),
        };
        store
            .create_room_within_limit(&record, 0, 1)
            .await
            .expect("room stored");
    }
    println!("{rooms} unfinished rooms stored in {:?}", filling.elapsed());

    let started = Instant::now();
    let state = AppState::start(store, Arc::new(FirstLegalMove), Config::default())
        .await
        .expect("server starts");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("its address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server::serve(listener, state, async {
        let _ = stopped.await;
    }));
    let health = get(addr, "/healthz").await;
    println!(
        "first request served after {:?}: {health}",
        started.elapsed()
    );
    let room = get(addr, &format!("/api/v1/rooms/{last}")).await;
    println!("the last room served after {:?}: {room}", started.elapsed());
    let _ = stop.send(());
    serving.await.expect("server task").expect("server stops");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// Milliseconds since the Unix epoch, as the server counts them.
fn server_now() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970");
    i64::try_from(since.as_millis()).expect("a time in range")
}

/// The status line of `GET path` on a fresh connection.
async fn get(addr: std::net::SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.expect("connects");
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("sends");
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .await
        .expect("reads the response");
    response.lines().next().unwrap_or("").to_owned()
}
