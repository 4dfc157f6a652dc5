//! Memory per room and per socket: a server in a child process (this same
//! program with `--serve`) on a fresh SQLite file, and this process as its
//! client, so that the client's own buffers are not counted.
//!
//! ```text
//! cargo run --release -p server --example roommemory -- [ROOMS] [PLIES]
//! ```
//! It creates `ROOMS` rooms (default 1,000) with one seat taken (waiting),
//! takes the second seat and plays `PLIES` plies in each (default 40, playing),
//! then opens a WebSocket for each seat and plays two more plies (so that
//! every socket has sent live frames), and prints after each step the
//! server's live heap (counted by its allocator) and resident set, with the
//! difference per room or per socket; then the whole per room, from the
//! empty server, without and with its two sockets.

// The counting allocator below is the only unsafe code: it wraps the system's.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::StreamExt;
use rules::{AnyGame, Settings, Variant};
use serde_json::{Value, json};
use server::{AppState, Config, FirstLegalMove};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The system allocator, counting the bytes in use.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to the system allocator unchanged; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's pointer and layout, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's pointer, layout and size, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--serve") {
        serve();
    } else {
        measure();
    }
}

/// The child: serves on a fresh SQLite file, prints its address, then
/// answers each line on stdin with `LIVE_BYTES RSS_BYTES`.
#[tokio::main]
async fn serve() {
    let path = std::env::temp_dir().join(format!("koma-roommemory-{}.sqlite", std::process::id()));
    let store = store::open(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let config = Config {
        rooms_per_device_per_hour: u32::MAX,
        messages_per_second_per_ip: u32::MAX,
        max_connections_per_ip: usize::MAX,
        ..Config::default()
    };
    let state = AppState::start(store, Arc::new(FirstLegalMove), config)
        .await
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    println!("{}", listener.local_addr().unwrap());
    tokio::spawn(server::serve(listener, state, std::future::pending()));
    let lines = tokio::task::spawn_blocking(|| {
        for line in std::io::stdin().lock().lines() {
            if line.is_err() {
                break;
            }
            println!("{} {}", LIVE.load(Ordering::Relaxed), rss());
        }
    });
    let _ = lines.await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// This process's resident set in bytes.
fn rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|kb| {
            kb.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<usize>()
                .ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// The parent: drives the child and prints what each step costs.
#[tokio::main]
async fn measure() {
    let mut args = std::env::args().skip(1);
    let rooms: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    let plies: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(40);
    let mut child = Command::new(std::env::current_exe().unwrap())
        .arg("--serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let addr = line.trim().to_owned();
    let mut sample = move || {
        // Let the server settle (tasks finish, sockets register).
        std::thread::sleep(std::time::Duration::from_millis(500));
        writeln!(stdin, "sample").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let mut numbers = line.split_whitespace().map(|n| n.parse::<i64>().unwrap());
        (numbers.next().unwrap(), numbers.next().unwrap())
    };
    let report = |step: &str, before: (i64, i64), after: (i64, i64), count: usize| {
        let per = |a: i64, b: i64| (b - a) / i64::try_from(count).unwrap();
        println!(
            "{step}: heap {:+} bytes each, RSS {:+} bytes each (heap {} KB, RSS {} KB)",
            per(before.0, after.0),
            per(before.1, after.1),
            after.0 / 1024,
            after.1 / 1024,
        );
    };

    let start = sample();
    let mut seats = Vec::new();
    for _ in 0..rooms {
        let body = json!({"variant": "shogi", "settings": {"move_limit": 1000}});
        let created = request(&addr, "POST", "/api/v1/rooms", None, &body).await;
        let id = created["id"].as_str().unwrap().to_owned();
        seats.push((id, created["token"].as_str().unwrap().to_owned()));
    }
    let waiting = sample();
    report("waiting rooms", start, waiting, rooms);

    let mut tokens = Vec::new();
    for (id, first) in &seats {
        let path = format!("/api/v1/rooms/{id}/join");
        let joined = request(&addr, "POST", &path, None, &json!({})).await;
        let second = joined["token"].as_str().unwrap().to_owned();
        let mut game = AnyGame::new(Variant::Shogi, None, &Settings::default()).unwrap();
        play(&addr, id, [first, &second], &mut game, 0..plies).await;
        tokens.push((id.clone(), first.clone(), second, game));
    }
    let playing = sample();
    report(
        &format!("playing rooms, {plies} plies"),
        waiting,
        playing,
        rooms,
    );

    let mut sockets = Vec::new();
    for (id, first, second, _) in &tokens {
        for token in [first, second] {
            let url = format!("ws://{addr}/api/v1/rooms/{id}/ws?token={token}");
            let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
            // The welcome frame: the server has registered the socket.
            let _ = socket.next().await;
            sockets.push(socket);
        }
    }
    // Two more plies in each room: every socket sends live frames, as in a
    // game, and keeps the buffer it wrote them from.
    for (id, first, second, game) in &mut tokens {
        play(&addr, id, [first, second], game, plies..plies + 2).await;
    }
    let connected = sample();
    report("sockets", playing, connected, sockets.len());
    // The whole of a room, from the empty server: alone, and with its players' sockets.
    let whole = |at: (i64, i64)| {
        let count = i64::try_from(rooms).unwrap();
        ((at.0 - start.0) / count, (at.1 - start.1) / count)
    };
    for (what, at) in [
        ("a playing room", playing),
        ("a playing room with both players' sockets", connected),
    ] {
        let (heap, rss) = whole(at);
        println!("{what}: heap {heap} bytes, RSS {rss} bytes");
    }
    drop(sockets);
    let _ = child.kill();
    let _ = child.wait();
}

/// Plays plies `plies` of room `id` with the seats' `tokens`: varied legal
/// moves, the same in every room; a game that ends early stops.
async fn play(
    addr: &str,
    id: &str,
    tokens: [&str; 2],
    game: &mut AnyGame,
    plies: std::ops::Range<usize>,
) {
    for ply in plies {
        let moves = game.legal_moves_text();
        if game.outcome().is_some() || moves.is_empty() {
            break;
        }
        let mv = moves[(ply * 31 + 7) % moves.len()].clone();
        let path = format!("/api/v1/rooms/{id}/moves");
        let body = json!({"move": mv});
        request(addr, "POST", &path, Some(tokens[ply % 2]), &body).await;
        game.play_text(&mv).unwrap();
    }
}

/// One HTTP/1.1 request with a JSON body; returns the JSON reply.
async fn request(addr: &str, method: &str, path: &str, token: Option<&str>, body: &Value) -> Value {
    let body = body.to_string();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let auth = token.map_or_else(String::new, |token| {
        format!("Authorization: Bearer {token}\r\n")
    });
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (status, body) = response.split_once("\r\n\r\n").unwrap();
    assert!(status.contains(" 20"), "{method} {path}: {status}\n{body}");
    serde_json::from_str(body).unwrap()
}
