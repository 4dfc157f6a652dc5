//! Load generator: N rooms, 2N WebSocket players making random legal moves
//! against a real server on 127.0.0.1 (started in this process on a fresh
//! SQLite file). Reports moves per second, the latency from sending a move to
//! its acknowledgement (the move is stored by then), and checks that every
//! acknowledged move is in the room.
//!
//! ```text
//! cargo run --release -p server --example loadtest -- ROOMS [PLIES] [THINK_MS] [VARIANT]
//! ```
//! With `THINK_MS`, each player waits a random time up to twice that before
//! each move (as people do); without it, players move at once (a throughput test).
//! Client and server share the machine's cores, so the numbers are a lower bound.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use rules::{AnyGame, Settings, Side, Variant};
use serde_json::{Value, json};
use server::{AppState, Config, FirstLegalMove};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let rooms: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    let plies: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(60);
    let think_ms: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let variant: Variant = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(Variant::Shogi);

    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let path = std::env::temp_dir().join(format!("koma-loadtest-{nanos}.sqlite"));
    let store = store::open(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    // Every player comes from 127.0.0.1: no per-address limit applies.
    let config = Config {
        rooms_per_device_per_hour: u32::MAX,
        messages_per_second: 1000,
        messages_per_second_per_ip: u32::MAX,
        max_connections_per_ip: usize::MAX,
        ..Config::default()
    };
    let state = AppState::start(store, Arc::new(FirstLegalMove), config)
        .await
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(server::serve(listener, state, std::future::pending()));

    let settings = json!({"move_limit": plies});
    let mut seats = Vec::new();
    for _ in 0..rooms {
        let body = json!({"variant": variant.name(), "settings": settings});
        let created = post(&addr, "/api/v1/rooms", &body).await;
        let id = created["id"].as_str().unwrap().to_owned();
        let joined = post(&addr, &format!("/api/v1/rooms/{id}/join"), &json!({})).await;
        seats.push((
            id.clone(),
            created["token"].as_str().unwrap().to_owned(),
            Side::First,
        ));
        seats.push((
            id,
            joined["token"].as_str().unwrap().to_owned(),
            Side::Second,
        ));
    }
    let started = Instant::now();
    let players: Vec<_> = seats
        .into_iter()
        .map(|(id, token, side)| {
            tokio::spawn(play(
                addr.clone(),
                id,
                token,
                side,
                variant,
                plies,
                think_ms,
            ))
        })
        .collect();
    let mut latencies = Vec::new();
    let mut acked = std::collections::HashMap::<String, usize>::new();
    for player in players {
        let (id, times) = player.await.unwrap();
        *acked.entry(id).or_default() += times.len();
        latencies.extend(times);
    }
    let elapsed = started.elapsed();
    let mut lost = 0;
    for (id, count) in &acked {
        let room = get(&addr, &format!("/api/v1/rooms/{id}")).await;
        let stored = room["moves"].as_array().map_or(0, Vec::len);
        lost += count.saturating_sub(stored);
    }
    latencies.sort_unstable();
    let percentile = |p: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * p) as usize)
            .copied()
            .unwrap_or_default()
    };
    println!(
        "{rooms} rooms, {} players, {variant}, think {think_ms} ms: {} moves in {:.1} s = {:.0} moves/s; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; acknowledged moves missing from their rooms: {lost}",
        rooms * 2,
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        percentile(0.5).as_secs_f64() * 1e3,
        percentile(0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// One player: follows the room's events and, on its turn, sends a random
/// legal move and times its acknowledgement. Returns the room and the times.
async fn play(
    addr: String,
    id: String,
    token: String,
    side: Side,
    variant: Variant,
    plies: u32,
    think_ms: u64,
) -> (String, Vec<Duration>) {
    let url = format!("ws://{addr}/api/v1/rooms/{id}/ws?token={token}");
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    // The room's rules, so that this player knows when the game ends as the server does.
    let settings = Settings {
        move_limit: plies,
        ..Settings::default()
    };
    let mut game = AnyGame::new(variant, None, &settings).unwrap();
    let mut times = Vec::new();
    let mut sent: Option<(usize, Instant)> = None;
    while let Some(Ok(frame)) = socket.next().await {
        let Message::Text(text) = frame else { continue };
        let frame: Value = serde_json::from_str(text.as_str()).unwrap();
        match frame["type"].as_str() {
            Some("move") => {
                let _ = game.play_text(frame["move"].as_str().unwrap());
            }
            Some("ack") => {
                if let Some((_, at)) = sent {
                    times.push(at.elapsed());
                }
            }
            Some("end") => break,
            Some("error") => panic!("refused: {frame}"),
            _ => {}
        }
        let ply = game.moves_text().len();
        let my_turn = game.outcome().is_none() && game.side_to_move() == side;
        if my_turn && sent.is_none_or(|(at_ply, _)| at_ply != ply) {
            if think_ms > 0 {
                tokio::time::sleep(Duration::from_millis(rand::random_range(0..2 * think_ms)))
                    .await;
            }
            let moves = game.legal_moves_text();
            let mv = &moves[rand::random_range(..moves.len())];
            sent = Some((ply, Instant::now()));
            socket
                .send(Message::text(
                    json!({"type": "move", "move": mv}).to_string(),
                ))
                .await
                .unwrap();
        }
    }
    (id, times)
}

async fn request(addr: &str, method: &str, path: &str, body: &str) -> Value {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (_, body) = response.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap()
}

async fn post(addr: &str, path: &str, body: &Value) -> Value {
    request(addr, "POST", path, &body.to_string()).await
}

async fn get(addr: &str, path: &str) -> Value {
    request(addr, "GET", path, "").await
}
