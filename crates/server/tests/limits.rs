//! The limits of a public server: rooms per address under concurrency,
//! connection timeouts and caps, WebSocket rates, and shutdown of every socket.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::json;
use server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_room_creations_from_one_address_stop_at_the_limit() {
    let server = Arc::new(
        TestServer::start_config(Config {
            rooms_per_device_per_hour: 100,
            ..Config::default()
        })
        .await,
    );
    let requests: Vec<_> = (0..150)
        .map(|_| {
            let server = server.clone();
            tokio::spawn(async move {
                server
                    .request("POST", "/api/v1/rooms", None, Some(&json!({})))
                    .await
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for request in requests {
        let (status, body) = request.await.unwrap();
        assert!(status == 201 || status == 429, "{status} {body}");
        statuses.push(status);
    }
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 100);
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 50);
    Arc::into_inner(server).unwrap().stop().await;
}

/// Reads until the server closes the connection; returns what it sent, or
/// `None` if it is still open after `within`.
async fn read_until_closed(stream: &mut TcpStream, within: Duration) -> Option<Vec<u8>> {
    let mut received = Vec::new();
    let mut buffer = [0; 4096];
    let end = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(end, stream.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(received),
            Ok(Ok(n)) => received.extend_from_slice(&buffer[..n]),
        }
    }
}

/// Reads one `/healthz` response (its body is `ok`) from a kept-alive connection.
async fn read_health(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let mut buffer = [0; 1024];
    while !received.ends_with(b"\r\n\r\nok") {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
            .await
            .expect("a response within 5 s")
            .unwrap();
        assert!(
            n > 0,
            "closed early: {}",
            String::from_utf8_lossy(&received)
        );
        received.extend_from_slice(&buffer[..n]);
    }
    String::from_utf8(received).unwrap()
}

const HEALTH: &[u8] = b"GET /healthz HTTP/1.1\r\nHost: koma\r\n\r\n";

#[tokio::test]
async fn a_request_head_not_finished_in_time_is_closed() {
    let server = TestServer::start_config(Config {
        header_read_timeout: Duration::from_millis(300),
        ..Config::default()
    })
    .await;
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: koma\r\n")
        .await
        .unwrap();
    let answer = read_until_closed(&mut slow, Duration::from_secs(5)).await;
    assert!(answer.is_some(), "a half-sent head keeps its connection");
    server.stop().await;
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_later_than_a_slow_head() {
    let server = TestServer::start_config(Config {
        header_read_timeout: Duration::from_millis(200),
        idle_connection_timeout: Duration::from_millis(1500),
        ..Config::default()
    })
    .await;
    let mut client = TcpStream::connect(server.addr).await.unwrap();
    client.write_all(HEALTH).await.unwrap();
    assert!(read_health(&mut client).await.starts_with("HTTP/1.1 200"));
    // Idle for longer than a head may take, but not idle for too long: the
    // connection serves the next request.
    tokio::time::sleep(Duration::from_millis(600)).await;
    client.write_all(HEALTH).await.unwrap();
    assert!(read_health(&mut client).await.starts_with("HTTP/1.1 200"));
    let answer = read_until_closed(&mut client, Duration::from_secs(5)).await;
    assert_eq!(answer, Some(Vec::new()), "an idle connection stays open");
    server.stop().await;
}

/// A connection to `server` from `ip` (any 127.0.0.0/8 address is this host).
async fn connect_from(ip: [u8; 4], server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((ip, 0))).unwrap();
    socket.connect(server).await.unwrap()
}

#[tokio::test]
async fn connections_beyond_the_cap_of_an_address_are_refused() {
    let server = TestServer::start_config(Config {
        max_connections_per_ip: 5,
        ..Config::default()
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..5 {
        let mut stream = connect_from([127, 0, 0, 1], server.addr).await;
        stream.write_all(HEALTH).await.unwrap();
        assert!(read_health(&mut stream).await.starts_with("HTTP/1.1 200"));
        held.push(stream);
    }
    let mut refused = connect_from([127, 0, 0, 1], server.addr).await;
    let _ = refused.write_all(HEALTH).await;
    let answer = read_until_closed(&mut refused, Duration::from_secs(5)).await;
    assert_eq!(answer, Some(Vec::new()), "the sixth connection is served");
    // Another address is not limited by this one.
    let mut other = connect_from([127, 0, 0, 2], server.addr).await;
    other.write_all(HEALTH).await.unwrap();
    assert!(read_health(&mut other).await.starts_with("HTTP/1.1 200"));
    // A connection closed gives its place back.
    drop(held.pop());
    let mut again = None;
    for _ in 0..50 {
        let mut stream = connect_from([127, 0, 0, 1], server.addr).await;
        let _ = stream.write_all(HEALTH).await;
        let mut buffer = [0; 16];
        if matches!(stream.read(&mut buffer).await, Ok(n) if n > 0) {
            again = Some(stream);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "the freed place is never given back");
    server.stop().await;
}

#[tokio::test]
async fn a_websocket_that_answers_no_ping_is_closed() {
    let server = TestServer::start_config(Config {
        websocket_ping_interval: Duration::from_millis(200),
        websocket_timeout: Duration::from_millis(1000),
        ..Config::default()
    })
    .await;
    let (id, first, _) = server.online_room("shogi", None, json!({})).await;
    let mut answering = server.ws(&id, "").await;
    let mut silent = raw_websocket(server.addr, &format!("/rooms/{id}/ws?token={first}")).await;
    let mut lobby_silent = raw_websocket(server.addr, "/lobby/ws").await;
    // Reading answers pings: this one stays open.
    let frames = answering.frames_for(Duration::from_millis(2500)).await;
    assert!(
        frames.iter().all(|frame| frame["type"] != "closed"),
        "{frames:?}"
    );
    // The silent ones got pings (0x89), then a close frame with code 1001
    // (going away), and the connection ended.
    for socket in [&mut silent, &mut lobby_silent] {
        let bytes = read_until_closed(socket, Duration::from_secs(5))
            .await
            .expect("a silent socket stays open");
        assert!(bytes.windows(2).any(|w| w == [0x89, 0]), "{bytes:?}");
        assert!(
            bytes
                .windows(4)
                .any(|w| w[0] == 0x88 && w[2..] == [0x03, 0xE9]),
            "{bytes:?}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn a_websocket_with_traffic_is_pinged_only_once_quiet() {
    let server = TestServer::start_config(Config {
        websocket_ping_interval: Duration::from_millis(300),
        websocket_timeout: Duration::from_millis(3000),
        ..Config::default()
    })
    .await;
    let (id, first, _) = server.online_room("shogi", None, json!({})).await;
    let mut socket = raw_websocket(server.addr, &format!("/rooms/{id}/ws?token={first}")).await;
    // A client frame every 100 ms (each answered by a pong frame): the
    // socket carries traffic both ways, so the server has no need to ping.
    let ping = br#"{"type":"ping"}"#;
    let mut frame = vec![0x81, 0x80 | ping.len() as u8, 0, 0, 0, 0];
    frame.extend_from_slice(ping);
    let mut received = Vec::new();
    let mut buffer = [0; 4096];
    for _ in 0..15 {
        socket.write_all(&frame).await.unwrap();
        let end = tokio::time::Instant::now() + Duration::from_millis(100);
        while let Ok(Ok(n)) = tokio::time::timeout_at(end, socket.read(&mut buffer)).await {
            assert!(n > 0, "the socket closed");
            received.extend_from_slice(&buffer[..n]);
        }
    }
    assert!(
        received.windows(6).any(|w| w == b"\"pong\""),
        "no pong frame: {received:?}"
    );
    assert!(
        !received.windows(2).any(|w| w == [0x89, 0]),
        "pinged while busy: {received:?}"
    );
    // Quiet now: a ping comes within the interval.
    let mut quiet = Vec::new();
    let end = tokio::time::Instant::now() + Duration::from_millis(1000);
    while let Ok(Ok(n)) = tokio::time::timeout_at(end, socket.read(&mut buffer)).await {
        assert!(n > 0, "the socket closed");
        quiet.extend_from_slice(&buffer[..n]);
    }
    assert!(quiet.windows(2).any(|w| w == [0x89, 0]), "{quiet:?}");
    server.stop().await;
}

/// A WebSocket on `path` (under `/api/v1`) over a bare TCP stream that
/// never answers: the handshake's response is read, nothing else.
async fn raw_websocket(server: SocketAddr, path: &str) -> TcpStream {
    let mut stream = TcpStream::connect(server).await.unwrap();
    let request = format!(
        "GET /api/v1{path} HTTP/1.1\r\nHost: koma\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0];
        stream.read_exact(&mut byte).await.unwrap();
        head.push(byte[0]);
    }
    assert!(
        head.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    stream
}

#[tokio::test]
async fn a_burst_of_binary_frames_gets_too_many() {
    let server = TestServer::start_config(Config {
        messages_per_second: 5,
        ..Config::default()
    })
    .await;
    let (id, first, _) = server.online_room("shogi", None, json!({})).await;
    let mut ws = server.ws(&id, &format!("token={first}")).await;
    let start = Instant::now();
    for _ in 0..20 {
        ws.send_binary(b"{}".to_vec()).await;
    }
    let mut codes = Vec::new();
    for _ in 0..20 {
        codes.push(
            ws.next_of("error").await["code"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    // A burst of 5, then 5 a second.
    let allowed = 5 + within_rate(5, start);
    let too_many = codes.iter().filter(|code| *code == "too-many").count();
    assert!(too_many >= 20 - allowed, "{codes:?}");
    server.stop().await;
}

/// How many frames a limit of `rate` a second lets through since `start`
/// beyond its burst (rounded up).
fn within_rate(rate: u32, start: Instant) -> usize {
    (start.elapsed().as_secs_f64() * f64::from(rate)).ceil() as usize
}

/// Sends five pings on each socket at once; returns how many were answered.
async fn pongs(sockets: &mut [common::Client]) -> usize {
    for socket in sockets.iter_mut() {
        for n in 0..5 {
            socket.send(json!({"type": "ping", "request_id": n})).await;
        }
    }
    let mut pongs = 0;
    for socket in sockets.iter_mut() {
        for n in 0..5 {
            let mut frame = socket.next().await;
            // Skip the room's events.
            while frame.get("seq").is_some() {
                frame = socket.next().await;
            }
            assert_eq!(frame["request_id"], n, "{frame}");
            match frame["type"].as_str() {
                Some("pong") => pongs += 1,
                _ => assert_eq!(frame["code"], "too-many", "{frame}"),
            }
        }
    }
    pongs
}

#[tokio::test]
async fn sockets_sharing_a_seat_token_share_its_rate() {
    let server = TestServer::start_config(Config {
        messages_per_second: 5,
        messages_per_second_per_ip: 10_000,
        ..Config::default()
    })
    .await;
    let (id, first, _) = server.online_room("shogi", None, json!({})).await;
    let mut sockets = Vec::new();
    for _ in 0..20 {
        sockets.push(server.ws(&id, &format!("token={first}")).await);
    }
    // 100 pings, but one token: a burst of 5, then 5 a second.
    let start = Instant::now();
    let answered = pongs(&mut sockets).await;
    assert!(
        (5..=5 + within_rate(5, start)).contains(&answered),
        "{answered} pongs"
    );
    server.stop().await;
}

#[tokio::test]
async fn sockets_of_one_address_share_its_rate() {
    let server = TestServer::start_config(Config {
        messages_per_second: 5,
        messages_per_second_per_ip: 10,
        ..Config::default()
    })
    .await;
    let (id, _, _) = server.online_room("shogi", None, json!({})).await;
    let mut sockets = Vec::new();
    for _ in 0..20 {
        sockets.push(server.ws(&id, "").await);
    }
    // 100 pings from one address: a burst of 10, then 10 a second.
    let start = Instant::now();
    let answered = pongs(&mut sockets).await;
    assert!(
        (10..=10 + within_rate(10, start)).contains(&answered),
        "{answered} pongs"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_open_socket_gets_1012_before_the_server_returns() {
    let server = TestServer::start_alone(Config::default()).await;
    let mut sockets = Vec::new();
    for _ in 0..5 {
        let (id, first, second) = server.online_room("shogi", None, json!({})).await;
        for _ in 0..5 {
            sockets.push(server.ws(&id, &format!("token={first}")).await);
            sockets.push(server.ws(&id, &format!("token={second}")).await);
        }
    }
    for _ in 0..10 {
        sockets.push(server.socket("/lobby/ws").await);
    }
    assert_eq!(sockets.len(), 60);
    server.stop().await;
    let mut codes = Vec::new();
    for socket in &mut sockets {
        codes.push(socket.close_code().await);
    }
    assert!(codes.iter().all(|code| *code == Some(1012)), "{codes:?}");
}

#[tokio::test]
async fn a_quiet_followed_event_stream_is_not_idle() {
    let server = TestServer::start_config(Config {
        idle_connection_timeout: Duration::from_millis(300),
        ..Config::default()
    })
    .await;
    let (id, first, _) = server.online_room("shogi", None, json!({})).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let request =
        format!("GET /api/v1/rooms/{id}/events?follow=true&since=2 HTTP/1.1\r\nHost: koma\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let (status, _) = server.play(&id, &first, "7g7f").await;
    assert_eq!(status, 200);
    let mut received = Vec::new();
    let mut buffer = [0; 4096];
    while !String::from_utf8_lossy(&received).contains("7g7f") {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
            .await
            .expect("the move within 5 s")
            .unwrap();
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&received));
        received.extend_from_slice(&buffer[..n]);
    }
    server.stop().await;
}
