//! One child process's rooms, played as the browser plays them: each player
//! loads the room, takes its seat, opens the room's socket (`since=0`, the
//! seat token) and sends its moves on that socket (a `move` frame, answered
//! by an `ack` frame), its one connection while playing; spectators open the
//! socket without a token. With `http_moves`, moves go by
//! `POST /rooms/{id}/moves` on a keep-alive connection of the player's own,
//! as the page sends them while its socket is closed. With `refetch`, every
//! batch of events is followed by a room `GET`, as the page did before it
//! learned to draw from the events alone.
//!
//! The players choose random legal moves with the `rules` crate, following
//! the game from the event frames, so choosing costs the server nothing.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::Duration;

use futures_util::{FutureExt, SinkExt, StreamExt};
use rules::{AnyGame, Settings, Side, Variant};
use serde::Deserialize;
use serde_json::json;
use tokio::net::TcpStream;
use tokio::sync::{Semaphore, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::http::Http;
use crate::stats::{Results, micros};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What every room of this process shares.
pub(crate) struct Plan {
    /// The server's nodes (one, or a cluster's): each page goes to one, as a
    /// load balancer would send it.
    pub(crate) addrs: Vec<SocketAddr>,
    pub(crate) variant: Variant,
    pub(crate) think_ms: u64,
    pub(crate) refetch: bool,
    /// Moves by `POST` instead of on the socket.
    pub(crate) http_moves: bool,
}

/// The run's shared state in this process (one thread: `Rc`, `Cell`).
pub(crate) struct Run {
    pub(crate) plan: Plan,
    pub(crate) results: RefCell<Results>,
    /// Moves sent and not answered yet.
    pub(crate) in_flight: Cell<usize>,
    /// No new move once set.
    pub(crate) stop: Cell<bool>,
    /// Turns `true` when every process is ready.
    pub(crate) go: watch::Receiver<bool>,
    /// Error messages printed so far (only the first few are).
    printed: Cell<u32>,
}

impl Run {
    pub(crate) fn new(plan: Plan, go: watch::Receiver<bool>) -> Run {
        Run {
            plan,
            results: RefCell::default(),
            in_flight: Cell::new(0),
            stop: Cell::new(false),
            go,
            printed: Cell::new(0),
        }
    }

    /// Counts an error and prints the first few.
    fn error(&self, what: &str) {
        self.results.borrow_mut().errors += 1;
        if self.printed.get() < 10 {
            self.printed.set(self.printed.get() + 1);
            eprintln!("loadtest: {what}");
        }
    }
}

/// One room as the client knows it.
pub(crate) struct Room {
    pub(crate) id: String,
    /// The creator's seat token (to resign at the end).
    pub(crate) token: String,
    moves_path: String,
    /// When each ply was sent by this client (index: ply - 1).
    sent: RefCell<Vec<Option<Instant>>>,
    /// The moves acknowledged: (ply, move).
    pub(crate) acked: RefCell<Vec<(usize, String)>>,
    /// The moves sent on a socket and not answered yet, by ply.
    unanswered: RefCell<HashMap<usize, String>>,
}

/// The fields of a frame the client reads; the rest is skipped.
#[derive(Deserialize)]
struct Frame<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<&'a str>,
    ply: Option<usize>,
    #[serde(rename = "move", borrow)]
    mv: Option<&'a str>,
    computer: Option<bool>,
    /// An ack's or error's: the ply of the move it answers (the client's `request_id`).
    request_id: Option<usize>,
    /// An error's.
    code: Option<String>,
}

/// What a batch of frames held.
#[derive(Default)]
struct Read {
    /// Numbered events.
    events: usize,
    /// The replies to moves sent on the socket: (ply, refusal).
    replies: Vec<(usize, Option<String>)>,
}

impl Read {
    fn add(&mut self, other: Read) {
        self.events += other.events;
        self.replies.extend(other.replies);
    }
}

impl Plan {
    /// Whether a player keeps its HTTP connection after the setup (for its
    /// moves or its refetches); else the socket is its only connection.
    fn keeps_http(&self) -> bool {
        self.http_moves || self.refetch
    }

    /// The node of the `n`-th page (counting on from the room's number, so
    /// that in a cluster a room's pages reach different nodes).
    pub(crate) fn node(&self, n: usize) -> SocketAddr {
        self.addrs[n % self.addrs.len()]
    }
}

/// Creates room number `index` with its two players and `spectators`
/// watchers, each socket open and its task running; `None` (the error
/// counted) if a step fails.
pub(crate) async fn open_room(
    run: &Rc<Run>,
    index: usize,
    spectators: usize,
    setup: &Semaphore,
) -> Option<Rc<Room>> {
    let _permit = setup.acquire().await.ok()?;
    let plan = &run.plan;
    let mut first = Http::new(plan.node(index));
    let body = json!({"variant": plan.variant.name(), "mode": "online"}).to_string();
    let created = match first
        .request("POST", "/api/v1/rooms", None, Some(&body))
        .await
    {
        Ok(answer) if answer.ok() => answer.json(),
        Ok(answer) => return failed(run, &format!("create: {} {}", answer.status, answer.text())),
        Err(err) => return failed(run, &format!("create: {err}")),
    };
    let (Some(id), Some(token)) = (created["id"].as_str(), created["token"].as_str()) else {
        return failed(run, &format!("create: {created}"));
    };
    let room = Rc::new(Room {
        id: id.to_owned(),
        token: token.to_owned(),
        moves_path: format!("/api/v1/rooms/{id}/moves"),
        sent: RefCell::default(),
        acked: RefCell::default(),
        unanswered: RefCell::default(),
    });
    let room_path = format!("/api/v1/rooms/{id}");
    // The creator's page loads the room, then opens its socket.
    get(run, &mut first, &room_path).await?;
    let socket = connect(run, plan.node(index), &room, Some(token)).await?;
    tokio::task::spawn_local(play(
        run.clone(),
        room.clone(),
        Side::First,
        token.to_owned(),
        plan.keeps_http().then_some(first),
        socket,
    ));

    // The invited player's page: the room, the seat, the room again, the socket.
    let mut second = Http::new(plan.node(index + 1));
    get(run, &mut second, &room_path).await?;
    let join_path = format!("{room_path}/join");
    let joined = match second.request("POST", &join_path, None, Some("{}")).await {
        Ok(answer) if answer.ok() => answer.json(),
        Ok(answer) => return failed(run, &format!("join: {} {}", answer.status, answer.text())),
        Err(err) => return failed(run, &format!("join: {err}")),
    };
    let Some(token) = joined["token"].as_str() else {
        return failed(run, &format!("join: {joined}"));
    };
    get(run, &mut second, &room_path).await?;
    let socket = connect(run, plan.node(index + 1), &room, Some(token)).await?;
    for spectator in 0..spectators {
        // A spectator's page loads the room too (here on the second player's
        // connection, to keep the client's ports for the sockets).
        get(run, &mut second, &room_path).await?;
        let node = plan.node(index + 2 + spectator);
        let socket = connect(run, node, &room, None).await?;
        tokio::task::spawn_local(watch_room(run.clone(), room.clone(), socket, node));
    }
    tokio::task::spawn_local(play(
        run.clone(),
        room.clone(),
        Side::Second,
        token.to_owned(),
        plan.keeps_http().then_some(second),
        socket,
    ));
    Some(room)
}

fn failed<T>(run: &Run, what: &str) -> Option<T> {
    run.error(what);
    None
}

async fn get(run: &Run, http: &mut Http, path: &str) -> Option<()> {
    match http.request("GET", path, None, None).await {
        Ok(answer) if answer.ok() => Some(()),
        Ok(answer) => failed(run, &format!("GET {path}: {}", answer.status)),
        Err(err) => failed(run, &format!("GET {path}: {err}")),
    }
}

/// The room's socket on `node` from its first event, as the page opens it.
async fn connect(run: &Run, node: SocketAddr, room: &Room, token: Option<&str>) -> Option<Socket> {
    let mut url = format!("ws://{node}/api/v1/rooms/{}/ws?since=0", room.id);
    if let Some(token) = token {
        url.push_str("&token=");
        url.push_str(token);
    }
    let config = WebSocketConfig::default().read_buffer_size(4096);
    match tokio_tungstenite::connect_async_with_config(url, Some(config), true).await {
        Ok((socket, _)) => Some(socket),
        Err(err) => failed(run, &format!("socket: {err}")),
    }
}

/// A seated player: follows the game from its socket and, on its turn after
/// thinking, sends a random legal move (on the socket, or by `POST`).
async fn play(
    run: Rc<Run>,
    room: Rc<Room>,
    seat: Side,
    token: String,
    mut http: Option<Http>,
    mut socket: Socket,
) {
    let plan = &run.plan;
    let Ok(mut game) = AnyGame::new(plan.variant, None, &Settings::default()) else {
        return run.error("the variant's start position");
    };
    let mut ply = 0;
    let mut go = run.go.clone();
    let mut started = *go.borrow();
    let mut move_at: Option<Instant> = None;
    // The ply a move was sent for; none again once it is played.
    let mut posted: Option<usize> = None;
    let room_path = format!("/api/v1/rooms/{}", room.id);
    loop {
        if started
            && move_at.is_none()
            && posted.is_none()
            && !run.stop.get()
            && game.outcome().is_none()
            && game.side_to_move() == seat
        {
            let think = rand::random_range(0..=plan.think_ms);
            move_at = Some(Instant::now() + Duration::from_millis(think));
        }
        tokio::select! {
            frame = socket.next() => {
                let Some(Ok(frame)) = frame else {
                    if !run.stop.get() {
                        run.error(&format!("player socket of {} closed", room.id));
                    }
                    return;
                };
                let mut read = read_frame(&run, &room, &frame, Some(seat), &mut game, &mut ply);
                // The rest of the batch, as the page takes it.
                while let Some(Some(Ok(frame))) = socket.next().now_or_never() {
                    read.add(read_frame(&run, &room, &frame, Some(seat), &mut game, &mut ply));
                }
                for (number, refusal) in read.replies {
                    if !answered(&run, &room, number, refusal) && posted == Some(number - 1) {
                        // Refused: try again after a pause.
                        posted = None;
                        move_at = Some(Instant::now() + Duration::from_secs(1));
                    }
                }
                if posted.is_some_and(|at| ply > at) {
                    posted = None;
                }
                if let Some(http) = http.as_mut().filter(|_| plan.refetch && read.events > 0) {
                    get(&run, http, &room_path).await;
                }
            }
            changed = go.changed(), if !started => {
                started = changed.is_ok() && *go.borrow();
            }
            () = sleep_until(move_at), if move_at.is_some() => {
                move_at = None;
                if run.stop.get() || game.side_to_move() != seat || game.outcome().is_some() {
                    continue;
                }
                let moves = game.legal_moves_text();
                let Some(mv) = moves.get(rand::random_range(..moves.len().max(1))) else {
                    continue;
                };
                posted = Some(ply);
                let sent = match http.as_mut().filter(|_| plan.http_moves) {
                    Some(http) => post_move(&run, &room, http, &token, ply + 1, mv).await,
                    None => send_move(&run, &room, &mut socket, ply + 1, mv).await,
                };
                if !sent {
                    // Refused or unanswered: try again after a pause.
                    posted = None;
                    move_at = Some(Instant::now() + Duration::from_secs(1));
                }
            }
        }
    }
}

async fn sleep_until(at: Option<Instant>) {
    if let Some(at) = at {
        tokio::time::sleep_until(at).await;
    }
}

/// Notes when move number `ply` was sent (the start of its ack and deliveries).
fn note_sent(room: &Room, ply: usize) -> Instant {
    let sent = Instant::now();
    let mut times = room.sent.borrow_mut();
    if times.len() < ply {
        times.resize(ply, None);
    }
    times[ply - 1] = Some(sent);
    sent
}

/// Sends `mv` as move number `ply` on the socket, its `request_id` the ply
/// (the `ack` or `error` frame is read with the events, see `answered`);
/// whether it went out.
async fn send_move(run: &Run, room: &Room, socket: &mut Socket, ply: usize, mv: &str) -> bool {
    let frame = format!(r#"{{"type":"move","move":"{mv}","request_id":{ply}}}"#);
    note_sent(room, ply);
    room.unanswered.borrow_mut().insert(ply, mv.to_owned());
    run.in_flight.set(run.in_flight.get() + 1);
    if let Err(err) = socket.send(Message::text(frame)).await {
        run.in_flight.set(run.in_flight.get() - 1);
        room.unanswered.borrow_mut().remove(&ply);
        run.error(&format!("move {mv} in {}: {err}", room.id));
        return false;
    }
    true
}

/// Counts the socket's reply to move number `ply` (a refusal's code, or
/// none for an ack) and times it; whether it was acknowledged.
fn answered(run: &Run, room: &Room, ply: usize, refusal: Option<String>) -> bool {
    let Some(mv) = room.unanswered.borrow_mut().remove(&ply) else {
        run.error(&format!("a reply to no move: {ply} in {}", room.id));
        return false;
    };
    run.in_flight.set(run.in_flight.get() - 1);
    if let Some(code) = refusal {
        run.error(&format!("move {ply} in {}: {code}", room.id));
        return false;
    }
    let sent = room.sent.borrow().get(ply - 1).copied().flatten();
    let mut results = run.results.borrow_mut();
    results.acked += 1;
    if let Some(sent) = sent {
        results.ack.push(micros(sent.elapsed()));
    }
    drop(results);
    room.acked.borrow_mut().push((ply, mv));
    true
}

/// Posts `mv` as move number `ply` and times its acknowledgement; whether it was acknowledged.
async fn post_move(
    run: &Run,
    room: &Room,
    http: &mut Http,
    token: &str,
    ply: usize,
    mv: &str,
) -> bool {
    let body = format!(r#"{{"move":"{mv}"}}"#);
    let sent = note_sent(room, ply);
    run.in_flight.set(run.in_flight.get() + 1);
    let connects = http.connects;
    let answer = http
        .request("POST", &room.moves_path, Some(token), Some(&body))
        .await;
    run.in_flight.set(run.in_flight.get() - 1);
    let refused = match answer {
        Ok(answer) if answer.ok() => None,
        Ok(answer) => Some(format!("{} {}", answer.status, answer.text())),
        Err(err) => Some(err.to_string()),
    };
    let mut results = run.results.borrow_mut();
    let opened = http.connects - connects;
    results.connects += opened;
    match refused {
        None => {
            results.acked += 1;
            let ack = micros(sent.elapsed());
            results.ack.push(ack);
            if opened > 0 {
                results.ack_new_connection.push(ack);
            }
            room.acked.borrow_mut().push((ply, mv.to_owned()));
            true
        }
        Some(why) => {
            drop(results);
            run.error(&format!("move {mv} in {}: {why}", room.id));
            false
        }
    }
}

/// A spectator: reads the room's events and times the moves' delivery.
async fn watch_room(run: Rc<Run>, room: Rc<Room>, mut socket: Socket, node: SocketAddr) {
    let Ok(mut game) = AnyGame::new(run.plan.variant, None, &Settings::default()) else {
        return run.error("the variant's start position");
    };
    let mut ply = 0;
    let mut http: Option<Http> = None;
    let room_path = format!("/api/v1/rooms/{}", room.id);
    while let Some(frame) = socket.next().await {
        let Ok(frame) = frame else {
            break;
        };
        let mut read = read_frame(&run, &room, &frame, None, &mut game, &mut ply);
        while let Some(Some(Ok(frame))) = socket.next().now_or_never() {
            read.add(read_frame(&run, &room, &frame, None, &mut game, &mut ply));
        }
        if run.plan.refetch && read.events > 0 {
            let http = http.get_or_insert_with(|| Http::new(node));
            get(&run, http, &room_path).await;
        }
    }
    if !run.stop.get() {
        run.error(&format!("spectator socket of {} closed", room.id));
    }
}

/// Takes one frame into `game`: a numbered event (counted), or the reply to
/// a move sent on the socket. `seat` is the reader's (none for a spectator):
/// a move of the other side is timed from its sending as delivery to the
/// opponent, every move to a spectator.
fn read_frame(
    run: &Run,
    room: &Room,
    frame: &Message,
    seat: Option<Side>,
    game: &mut AnyGame,
    ply: &mut usize,
) -> Read {
    let Message::Text(text) = frame else {
        return Read::default();
    };
    let Ok(frame) = serde_json::from_str::<Frame<'_>>(text.as_str()) else {
        run.error(&format!("unreadable frame {text}"));
        return Read::default();
    };
    let events = match frame.kind {
        Some(kind @ ("ack" | "error")) => {
            let refusal = (kind == "error").then(|| frame.code.unwrap_or_default());
            return match frame.request_id {
                Some(number) => Read {
                    events: 0,
                    replies: vec![(number, refusal)],
                },
                None => {
                    run.error(&format!("a reply without request_id: {text}"));
                    Read::default()
                }
            };
        }
        Some("move") => {
            take_move(run, room, &frame, text.as_str(), seat, game, ply);
            1
        }
        Some("end") => {
            // Counted while playing, not the resignations that end the run.
            if seat == Some(Side::First) && !run.stop.get() {
                run.results.borrow_mut().ended += 1;
            }
            1
        }
        _ => usize::from(text.contains("\"seq\"")),
    };
    Read {
        events,
        replies: Vec::new(),
    }
}

/// Plays a move event into `game` and times its delivery.
fn take_move(
    run: &Run,
    room: &Room,
    frame: &Frame<'_>,
    text: &str,
    seat: Option<Side>,
    game: &mut AnyGame,
    ply: &mut usize,
) {
    let (Some(number), Some(mv)) = (frame.ply, frame.mv) else {
        run.error(&format!("move frame without ply or move: {text}"));
        return;
    };
    if number != *ply + 1 {
        return;
    }
    let mover = game.side_to_move();
    if let Err(err) = game.play_text(mv) {
        run.error(&format!(
            "{}: move {mv} refused by the rules: {err}",
            room.id
        ));
        return;
    }
    *ply = number;
    let sent = room.sent.borrow().get(number - 1).copied().flatten();
    let mut results = run.results.borrow_mut();
    if frame.computer == Some(true) && seat == Some(Side::First) {
        results.computer_moves += 1;
    }
    match (sent, seat) {
        (Some(sent), Some(seat)) if seat != mover => {
            results.opponent.push(micros(sent.elapsed()));
        }
        (Some(sent), None) => results.spectators.push(micros(sent.elapsed())),
        _ => {}
    }
}

/// Acknowledged moves missing from the room's stored moves (or stored
/// differently), from a `GET` of the room.
pub(crate) async fn lost_moves(run: &Run, http: &mut Http, room: &Room) -> u64 {
    let path = format!("/api/v1/rooms/{}", room.id);
    let acked = room.acked.borrow().clone();
    let stored = match http.request("GET", &path, None, None).await {
        Ok(answer) if answer.ok() => answer.json(),
        Ok(answer) => {
            run.error(&format!("GET {path}: {}", answer.status));
            return acked.len() as u64;
        }
        Err(err) => {
            run.error(&format!("GET {path}: {err}"));
            return acked.len() as u64;
        }
    };
    let moves = stored["moves"].as_array();
    acked
        .iter()
        .filter(|(ply, mv)| {
            moves
                .and_then(|moves| moves.get(ply - 1))
                .and_then(|stored| stored.as_str())
                != Some(mv.as_str())
        })
        .count() as u64
}

/// Ends the room's game (the creator resigns), so that no computer plays for
/// the players once their sockets close.
pub(crate) async fn resign(run: &Run, http: &mut Http, room: &Room) {
    let path = format!("/api/v1/rooms/{}/resign", room.id);
    match http.request("POST", &path, Some(&room.token), None).await {
        // 409: the game had ended already.
        Ok(answer) if answer.ok() || answer.status == 409 => {}
        Ok(answer) => run.error(&format!(
            "resign {}: {} {}",
            room.id,
            answer.status,
            answer.text()
        )),
        Err(err) => run.error(&format!("resign {}: {err}", room.id)),
    }
}
