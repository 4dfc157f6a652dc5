//! A real server on 127.0.0.1 with an ephemeral port, a small HTTP/1.1 client
//! and WebSocket clients (tokio-tungstenite) to talk to it.

#![allow(
    dead_code,
    unreachable_pub,
    reason = "each test file uses part of the harness"
)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rules::{AnyGame, AnyMove};
use serde_json::{Value, json};
use server::{AppState, ComputerPlayer, Config, Evaluation, FirstLegalMove, Thinking};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A SQLite database in a directory of its own, deleted with its WAL and
/// shared memory when dropped, also when the test panics.
pub struct TempDatabase {
    url: String,
    _dir: tempfile::TempDir,
}

impl TempDatabase {
    pub fn new() -> TempDatabase {
        let dir = tempfile::Builder::new()
            .prefix("koma-server-")
            .tempdir()
            .expect("the temporary directory is writable");
        let url = format!("sqlite://{}", dir.path().join("koma.sqlite").display());
        TempDatabase { url, _dir: dir }
    }

    pub fn url(&self) -> &str {
        &self.url
    }
}

/// Plays the first legal move; evaluates each position as `FirstLegalMove`
/// does, but only once the gate opens (or after `delay` when there is none).
#[derive(Default)]
pub struct Gated {
    pub open: AtomicBool,
    delay: Option<Duration>,
}

impl Gated {
    pub fn closed() -> Gated {
        Gated::default()
    }

    pub fn slow(delay: Duration) -> Gated {
        Gated {
            open: AtomicBool::new(true),
            delay: Some(delay),
        }
    }
}

impl ComputerPlayer for Gated {
    fn choose(&self, game: &AnyGame, level: u8, thinking: Thinking) -> Option<AnyMove> {
        FirstLegalMove.choose(game, level, thinking)
    }

    fn evaluate(&self, game: &AnyGame, move_time: Duration) -> Option<Evaluation> {
        if let Some(delay) = self.delay {
            std::thread::sleep(delay);
        }
        // A failed test never opens the gate: give up in time for the runtime to stop.
        let given_up = std::time::Instant::now() + Duration::from_secs(40);
        while !self.open.load(Ordering::SeqCst) && std::time::Instant::now() < given_up {
            std::thread::sleep(Duration::from_millis(1));
        }
        FirstLegalMove.evaluate(game, move_time)
    }
}

/// A running server; dropping it does not stop it, `stop` does.
pub struct TestServer {
    pub addr: SocketAddr,
    pub url: String,
    /// The database made for this server alone, deleted with it.
    database: Option<TempDatabase>,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// A server on a fresh SQLite file, deleted when the server stops.
    pub async fn start() -> TestServer {
        TestServer::start_config(Config::default()).await
    }

    /// The same with settings.
    pub async fn start_config(config: Config) -> TestServer {
        let database = TempDatabase::new();
        let mut server = TestServer::start_with(database.url(), config).await;
        server.database = Some(database);
        server
    }

    /// The same with `computer` playing the computer's moves.
    pub async fn start_computer(config: Config, computer: Arc<dyn ComputerPlayer>) -> TestServer {
        let database = TempDatabase::new();
        let mut server = TestServer::start_full(database.url(), config, computer).await;
        server.database = Some(database);
        server
    }

    pub async fn start_with(url: &str, config: Config) -> TestServer {
        TestServer::start_full(url, config, Arc::new(FirstLegalMove)).await
    }

    pub async fn start_full(
        url: &str,
        config: Config,
        computer: Arc<dyn ComputerPlayer>,
    ) -> TestServer {
        let store = store::open(url).await.unwrap();
        TestServer::start_store(url, store, config, computer).await
    }

    /// A server over `store` (whose database is at `url`).
    pub async fn start_store(
        url: &str,
        store: Arc<dyn store::Store>,
        config: Config,
        computer: Arc<dyn ComputerPlayer>,
    ) -> TestServer {
        let state = AppState::start(store, computer, config).await.unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(server::serve(listener, state, async {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            url: url.to_owned(),
            database: None,
            stop: Some(stop),
            task,
        }
    }

    /// A server on a runtime of its own, dropped as soon as `serve` returns:
    /// as when the process exits, whatever the server left running ends
    /// there, so a test sees only what `serve` finished before returning.
    pub async fn start_alone(config: Config) -> TestServer {
        let owned = TempDatabase::new();
        let database = owned.url().to_owned();
        let (ready, listening) = oneshot::channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let (done, finished) = oneshot::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let result = runtime.block_on(async move {
                let store = store::open(&database).await.unwrap();
                let state = AppState::start(store, Arc::new(FirstLegalMove), config)
                    .await
                    .unwrap();
                let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
                ready.send(listener.local_addr().unwrap()).unwrap();
                server::serve(listener, state, async {
                    let _ = stopped.await;
                })
                .await
            });
            drop(runtime);
            let _ = done.send(result);
        });
        let addr = listening.await.unwrap();
        TestServer {
            addr,
            url: owned.url().to_owned(),
            database: Some(owned),
            stop: Some(stop),
            task: tokio::spawn(async move { finished.await.unwrap() }),
        }
    }

    /// Shuts the server down gracefully and waits until it has.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("graceful shutdown within 10 s")
            .unwrap()
            .unwrap();
    }

    /// One HTTP request; returns the status and the body (JSON if it parses, else a string).
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let (status, text) = self
            .request_text(method, path, token, body.map(Value::to_string).as_deref())
            .await;
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    pub async fn request_text(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (u16, String) {
        let mut stream = TcpStream::connect(self.addr).await.unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.addr
        );
        if let Some(token) = token {
            head.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        let body = body.unwrap_or("");
        if !body.is_empty() {
            head.push_str("Content-Type: application/json\r\n");
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(body.as_bytes()).await.unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.unwrap();
        let response = String::from_utf8(response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_owned()
        };
        (status, body)
    }

    pub async fn get(&self, path: &str) -> Value {
        let (status, body) = self.request("GET", path, None, None).await;
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    /// Creates a room; returns the creation answer.
    pub async fn create(&self, body: Value) -> Value {
        let (status, answer) = self
            .request("POST", "/api/v1/rooms", None, Some(&body))
            .await;
        assert_eq!(status, 201, "{answer}");
        answer
    }

    /// Creates an online room and takes the second seat: (id, first token, second token).
    pub async fn online_room(
        &self,
        variant: &str,
        position: Option<&str>,
        settings: Value,
    ) -> (String, String, String) {
        let mut body =
            json!({"variant": variant, "mode": "online", "settings": settings, "name": "Ann"});
        if let Some(position) = position {
            body["position"] = json!(position);
        }
        let created = self.create(body).await;
        let id = created["id"].as_str().unwrap().to_owned();
        let (status, joined) = self
            .request(
                "POST",
                &format!("/api/v1/rooms/{id}/join"),
                None,
                Some(&json!({"name": "Bo"})),
            )
            .await;
        assert_eq!(status, 200, "{joined}");
        assert_eq!(joined["seat"], "second");
        (
            id,
            created["token"].as_str().unwrap().to_owned(),
            joined["token"].as_str().unwrap().to_owned(),
        )
    }

    pub async fn play(&self, id: &str, token: &str, mv: &str) -> (u16, Value) {
        self.request(
            "POST",
            &format!("/api/v1/rooms/{id}/moves"),
            Some(token),
            Some(&json!({"move": mv})),
        )
        .await
    }

    /// A WebSocket on `path` (under `/api/v1`), nothing read yet.
    pub async fn socket(&self, path: &str) -> Client {
        let url = format!("ws://{}/api/v1{path}", self.addr);
        let (socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        Client { socket }
    }

    pub async fn ws(&self, id: &str, query: &str) -> Client {
        let mut client = self.ws_open(id, query).await;
        let welcome = client.next().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        client
    }
}

impl TestServer {
    /// A room socket as it opens, its welcome frame unread.
    pub async fn ws_open(&self, id: &str, query: &str) -> Client {
        self.socket(&format!("/rooms/{id}/ws?{query}")).await
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

/// A WebSocket client of one room.
pub struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// The next text frame as JSON (waits at most 10 s), skipping presence
    /// frames (see `next_presence`).
    pub async fn next(&mut self) -> Value {
        loop {
            let frame = self.next_any().await;
            if frame["type"] != "presence" {
                return frame;
            }
        }
    }

    /// The next presence frame, skipping others.
    pub async fn next_presence(&mut self) -> Value {
        loop {
            let frame = self.next_any().await;
            if frame["type"] == "presence" {
                return frame;
            }
        }
    }

    /// The next text frame of any type.
    pub async fn next_any(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("a frame within 10 s")
                .expect("the socket is open")
                .unwrap();
            match frame {
                Message::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
                Message::Close(frame) => {
                    return json!({
                        "type": "closed",
                        "code": frame.as_ref().map(|f| u16::from(f.code)),
                        "reason": frame.map(|f| f.reason.to_string()),
                    });
                }
                _ => {}
            }
        }
    }

    /// The next frame with a `type` of `kind`, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let frame = self.next().await;
            if frame["type"] == kind {
                return frame;
            }
        }
    }

    pub async fn send(&mut self, frame: Value) {
        self.socket
            .send(Message::text(frame.to_string()))
            .await
            .unwrap();
    }

    pub async fn send_raw(&mut self, text: String) {
        self.socket.send(Message::text(text)).await.unwrap();
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.socket.send(Message::binary(bytes)).await.unwrap();
    }

    /// The text and close frames that arrive within `duration` (reading also
    /// answers the server's pings).
    pub async fn frames_for(&mut self, duration: Duration) -> Vec<Value> {
        let mut frames = Vec::new();
        let end = tokio::time::Instant::now() + duration;
        while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(end, self.socket.next()).await {
            match frame {
                Message::Text(text) => frames.push(serde_json::from_str(text.as_str()).unwrap()),
                Message::Close(frame) => {
                    frames
                        .push(json!({"type": "closed", "code": frame.map(|f| u16::from(f.code))}));
                }
                _ => {}
            }
        }
        frames
    }

    /// The code of the close frame that ends the socket, skipping other
    /// frames; `None` if it ends without one (waits at most 10 s).
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("the socket ends within 10 s");
            match frame {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return None,
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}
