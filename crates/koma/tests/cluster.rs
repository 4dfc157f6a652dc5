//! A cluster of three `koma serve` nodes on one PostgreSQL database (the one
//! `TEST_DATABASE_URL` names; without it the test is skipped): games played
//! through different nodes, the cluster's lobby, a spectator on a third, two
//! moves for one seat at the same instant on two nodes, a node killed with
//! SIGKILL mid-game (its rooms taken over with every acknowledged move, the
//! clocks running on and the computer playing on) and a node stopped with
//! SIGTERM (its rooms handed over at once); and the sockets one node forwards
//! to another, which that node's per-address limit does not count, and an
//! analysis read through a node other than the one that runs it.

use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::process::{Child, Command};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

mod common;

use common::{free_port, must, request, request_at};
use serde_json::{Value, json};

/// A `koma serve` node, killed when dropped.
struct Node {
    child: Child,
    port: u16,
}

impl Node {
    fn start(database: &str) -> Node {
        Node::start_at(database, Ipv4Addr::LOCALHOST, &[])
    }

    /// A node serving on `ip` (and named by it in its node URL), with more
    /// `serve` arguments.
    fn start_at(database: &str, ip: Ipv4Addr, args: &[&str]) -> Node {
        let port = free_port();
        let child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .arg("serve")
            .args(args)
            .env("KOMA_BIND", format!("{ip}:{port}"))
            .env("KOMA_DATABASE_URL", database)
            .env("KOMA_NODE_URL", format!("http://{ip}:{port}"))
            .env("KOMA_LOG", "warn")
            .spawn()
            .expect("koma starts");
        let started = Instant::now();
        while request_at(SocketAddr::from((ip, port)), "GET", "/healthz", None, None).is_none() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "koma did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Node { child, port }
    }

    fn signal(&mut self, signal: &str) {
        let sent = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        self.child.wait().unwrap();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Repeats a request until it succeeds (a room changing hands answers 503
/// `room-moving`); returns the body and how long that took.
fn until_served(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (Value, Duration) {
    let started = Instant::now();
    loop {
        match request(port, method, path, token, body.clone()) {
            Some((200 | 201, body)) => return (body, started.elapsed()),
            Some((503, _)) | None => {}
            Some((status, body)) => panic!("{method} {path}: {status} {body}"),
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{method} {path} not served in 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A room created through `creator`, its second seat taken through `joiner`:
/// the id and both seat tokens.
fn room(creator: u16, joiner: u16, settings: Value) -> (String, String, String) {
    let body = json!({"variant": "shogi", "settings": settings});
    let created = must(creator, "POST", "/api/v1/rooms", None, Some(body));
    let id = created["id"].as_str().unwrap().to_owned();
    let first = created["token"].as_str().unwrap().to_owned();
    let joined = must(
        joiner,
        "POST",
        &format!("/api/v1/rooms/{id}/join"),
        None,
        None,
    );
    let second = joined["token"].as_str().unwrap().to_owned();
    (id, first, second)
}

/// Waits until the room's game has `plies` moves (the computer answered).
fn plies_reach(port: u16, id: &str, plies: usize) {
    let started = Instant::now();
    loop {
        let (view, _) = until_served(port, "GET", &format!("/api/v1/rooms/{id}"), None, None);
        if view["moves"].as_array().unwrap().len() >= plies {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(15), "{view}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The event numbers a spectator's socket receives until `last`.
fn numbered_frames(
    socket: &mut tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    last: u64,
) -> Vec<u64> {
    let mut seqs = Vec::new();
    let started = Instant::now();
    while seqs.last() != Some(&last) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "frames so far: {seqs:?}"
        );
        let frame = socket.read().expect("the socket stays open");
        if let tungstenite::Message::Text(text) = frame {
            let frame: Value = serde_json::from_str(&text).unwrap();
            if let Some(seq) = frame["seq"].as_u64() {
                seqs.push(seq);
            }
        }
    }
    seqs
}

#[test]
fn three_nodes_play_rooms_through_each_other_and_survive_sigkill_and_sigterm() {
    let Ok(database) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: the cluster test is skipped");
        return;
    };
    let mut a = Node::start(&database);
    let mut b = Node::start(&database);
    let c = Node::start(&database);

    // Created through A (so A plays it), the second seat taken through B.
    let (id, first, second) = room(a.port, b.port, json!({"time_per_move": 600}));
    // A room on A with a clock, to fail over later.
    let (clocked, clocked_first, _) = room(a.port, c.port, json!({"time_per_move": 60}));
    // A game against the computer on A, which has answered the first move.
    let computer = must(
        a.port,
        "POST",
        "/api/v1/rooms",
        None,
        Some(json!({"variant": "shogi", "mode": "computer", "level": 1})),
    );
    let computer_room = computer["id"].as_str().unwrap().to_owned();
    let computer_token = computer["token"].as_str().unwrap().to_owned();
    let computer_moves = format!("/api/v1/rooms/{computer_room}/moves");
    must(
        c.port,
        "POST",
        &computer_moves,
        Some(&computer_token),
        Some(json!({"move": "7g7f"})),
    );
    plies_reach(c.port, &computer_room, 2);
    // One whose second player's time runs out while A is down.
    let (timed, timed_first, _) = room(a.port, c.port, json!({"time_per_move": 3}));
    must(
        a.port,
        "POST",
        &format!("/api/v1/rooms/{timed}/moves"),
        Some(&timed_first),
        Some(json!({"move": "7g7f"})),
    );
    // The lobby is the cluster's: a room waiting on B is listed by C, and
    // C counts the games A plays.
    let waiting = must(
        b.port,
        "POST",
        "/api/v1/rooms",
        None,
        Some(json!({"variant": "minishogi"})),
    )["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let started = Instant::now();
    loop {
        let lobby = must(c.port, "GET", "/api/v1/lobby", None, None);
        let listed = lobby["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|room| room["id"] == waiting.as_str());
        if listed && lobby["playing"].as_u64().unwrap() >= 3 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "{lobby}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (mut spectator, _) = tungstenite::connect(format!(
        "ws://127.0.0.1:{}/api/v1/rooms/{id}/ws?since=0",
        c.port
    ))
    .expect("a socket through C");

    let moves = format!("/api/v1/rooms/{id}/moves");
    must(
        a.port,
        "POST",
        &moves,
        Some(&first),
        Some(json!({"move": "7g7f"})),
    );
    must(
        b.port,
        "POST",
        &moves,
        Some(&second),
        Some(json!({"move": "3c3d"})),
    );
    // The same move for the same seat at the same instant on two nodes:
    // exactly one is accepted.
    let start = Arc::new(Barrier::new(2));
    let racers: Vec<_> = [b.port, c.port]
        .into_iter()
        .map(|port| {
            let (start, moves, first) = (start.clone(), moves.clone(), first.clone());
            std::thread::spawn(move || {
                start.wait();
                request(
                    port,
                    "POST",
                    &moves,
                    Some(&first),
                    Some(json!({"move": "2g2f"})),
                )
                .unwrap()
            })
        })
        .collect();
    let answers: Vec<(u16, Value)> = racers.into_iter().map(|r| r.join().unwrap()).collect();
    let accepted = answers.iter().filter(|(status, _)| *status == 200).count();
    assert_eq!(accepted, 1, "{answers:?}");
    assert!(
        answers.iter().any(|(status, _)| *status == 409),
        "{answers:?}"
    );
    // The spectator on C saw every event once, numbered 1, 2, 3 ...
    let room_view = must(c.port, "GET", &format!("/api/v1/rooms/{id}"), None, None);
    assert_eq!(room_view["moves"], json!(["7g7f", "3c3d", "2g2f"]));
    let seqs = numbered_frames(&mut spectator, 5);
    assert_eq!(seqs, [1, 2, 3, 4, 5], "two seats, three moves");

    must(
        b.port,
        "POST",
        &format!("/api/v1/rooms/{clocked}/moves"),
        Some(&clocked_first),
        Some(json!({"move": "7g7f"})),
    );
    let moved_at = Instant::now();

    // A dies: B and C take its rooms over within 20 s, with every move.
    a.signal("-KILL");
    let (view, waited) = until_served(
        b.port,
        "POST",
        &moves,
        Some(&second),
        Some(json!({"move": "8c8d"})),
    );
    assert_eq!(view["ply"], 4);
    assert!(
        waited < Duration::from_secs(20),
        "taken over after {waited:?}"
    );
    let room_view = must(c.port, "GET", &format!("/api/v1/rooms/{id}"), None, None);
    assert_eq!(room_view["moves"], json!(["7g7f", "3c3d", "2g2f", "8c8d"]));
    // The spectator's socket closed with A; it reconnects through B with
    // `since` and misses nothing.
    let (mut spectator, _) = tungstenite::connect(format!(
        "ws://127.0.0.1:{}/api/v1/rooms/{id}/ws?since=5",
        b.port
    ))
    .expect("a socket through B");
    assert_eq!(numbered_frames(&mut spectator, 6), [6]);

    // The clock of the clocked room ran on while its owner was down.
    let (view, _) = until_served(
        c.port,
        "GET",
        &format!("/api/v1/rooms/{clocked}"),
        None,
        None,
    );
    let left = view["clocks"]["remaining_ms"].as_u64().unwrap();
    let elapsed = u64::try_from(moved_at.elapsed().as_millis()).unwrap();
    assert!(
        left + elapsed <= 60_500 + 1_000,
        "{left} ms left {elapsed} ms after the move"
    );
    // (A turn begun afresh at the takeover would show 60 s left: the lease
    // lapses seconds after the kill.)
    assert!(elapsed > 3_000, "the lease had to lapse: {elapsed} ms");
    // The player whose time ran out meanwhile lost on time.
    let started = Instant::now();
    loop {
        let (view, _) = until_served(c.port, "GET", &format!("/api/v1/rooms/{timed}"), None, None);
        if view["status"] == "finished" {
            assert_eq!(view["result"]["reason"], "timeout", "{view}");
            assert_eq!(view["result"]["result"], "first", "{view}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "{view}");
        std::thread::sleep(Duration::from_millis(100));
    }

    // The computer plays its seat on the room's new owner.
    until_served(
        c.port,
        "POST",
        &computer_moves,
        Some(&computer_token),
        Some(json!({"move": "2g2f"})),
    );
    plies_reach(c.port, &computer_room, 4);

    // SIGTERM hands B's rooms over at once, well before a lease lapses.
    drop(spectator);
    let (handed, first_h, second_h) = room(b.port, b.port, json!({}));
    let handed_moves = format!("/api/v1/rooms/{handed}/moves");
    must(
        b.port,
        "POST",
        &handed_moves,
        Some(&first_h),
        Some(json!({"move": "7g7f"})),
    );
    b.signal("-TERM");
    let (view, waited) = until_served(
        c.port,
        "POST",
        &handed_moves,
        Some(&second_h),
        Some(json!({"move": "3c3d"})),
    );
    assert_eq!(view["ply"], 2);
    assert!(
        waited < Duration::from_secs(5),
        "handed over after {waited:?}"
    );
}

#[test]
fn sockets_forwarded_by_a_node_are_not_limited_as_one_address() {
    let Ok(database) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: the cluster test is skipped");
        return;
    };
    // A admits three connections an address; B forwards to it from its own
    // address, 127.0.0.3, whatever address the system would pick.
    let (a_ip, b_ip) = (Ipv4Addr::new(127, 0, 0, 2), Ipv4Addr::new(127, 0, 0, 3));
    let a = Node::start_at(&database, a_ip, &["--max-connections-per-ip", "3"]);
    let b = Node::start_at(&database, b_ip, &[]);
    let (status, created) = request_at(
        SocketAddr::from((a_ip, a.port)),
        "POST",
        "/api/v1/rooms",
        None,
        Some(json!({"variant": "xiangqi"})),
    )
    .expect("A answers");
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    // A learns B's address from its heartbeat, within a second.
    std::thread::sleep(Duration::from_millis(1500));
    let spectators: Vec<_> = (0..8)
        .map(|_| {
            let (mut socket, _) =
                tungstenite::connect(format!("ws://{b_ip}:{}/api/v1/rooms/{id}/ws", b.port))
                    .expect("a socket through B");
            let first = socket.read().expect("a first frame");
            assert!(
                first.to_text().unwrap().contains(r#""type":"welcome""#),
                "{first}"
            );
            socket
        })
        .collect();
    assert_eq!(spectators.len(), 8);
}

#[test]
fn an_analysis_is_read_through_any_node() {
    let Ok(database) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: the cluster test is skipped");
        return;
    };
    let a = Node::start(&database);
    let b = Node::start(&database);
    let body = json!({"variant": "shogi", "moves": ["7g7f", "3c3d"], "movetime_ms": 20});
    let (status, started) = request(a.port, "POST", "/api/v1/analysis", None, Some(body)).unwrap();
    assert_eq!(status, 202, "{started}");
    let id = started["id"].as_str().unwrap();
    // B knows A's tag from A's heartbeat, within a second.
    std::thread::sleep(Duration::from_millis(1500));
    let through_b = must(b.port, "GET", &format!("/api/v1/analysis/{id}"), None, None);
    assert_eq!(through_b["positions"], 3, "{through_b}");
    let unknown = format!("/api/v1/analysis/{}", "0".repeat(32));
    let (status, body) = request(b.port, "GET", &unknown, None, None).unwrap();
    assert_eq!(status, 404, "{body}");
}
