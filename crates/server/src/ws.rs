//! The WebSockets: one per room (events out, actions in) and one for the lobby.
//!
//! A socket task relays the room's events (and its unnumbered presence
//! frames) to the client and the client's frames to the room as commands; a bad frame gets an error frame naming
//! the reason, and the connection goes on.

use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::SinkExt;
use rules::Side;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::time::{Instant, Sleep};
use utoipa::openapi::schema::{OneOfBuilder, Schema};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::api::{Connection, EventsQuery, RoomPath, token};
use crate::connections::LiveGuard;
use crate::error::{ApiError, ErrorBody};
use crate::openapi::{self, status};
use crate::room::{ActReply, Action, Phrase};
use crate::{AppState, Config};

/// The hard cap on a frame, four times the configured limit: larger ones
/// close the socket, and frames between the two get an error frame instead.
/// A socket's read buffer grows to the largest frame it received and stays
/// so, so this is also what one socket may make the server hold.
fn hard_frame_limit(config: &Config) -> usize {
    config.max_message_bytes.saturating_mul(4)
}

/// The size of a socket's read buffer, kept for the socket's life. Clients
/// send frames of a few dozen bytes; a larger frame still arrives whole, over
/// several reads. The default, 128 KiB, was nine tenths of a playing room's
/// memory, and 4 KiB still a quarter of a socket's.
const READ_BUFFER: usize = 512;

/// A frame from a client: an action of the socket's seat (as the seat's HTTP
/// routes do), or a ping. The reply (ack, error or pong) carries the frame's
/// `request_id` back.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ClientFrame {
    /// Play a move (`POST /rooms/{id}/moves`).
    Move {
        /// The move in USI (shogi family) or ICCS (xiangqi).
        #[serde(rename = "move")]
        mv: String,
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
    /// Resign (`POST /rooms/{id}/resign`).
    Resign {
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
    /// Offer or accept a draw (`POST /rooms/{id}/draw`).
    Draw {
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
    /// Claim or declare an impasse (`POST /rooms/{id}/impasse`).
    Impasse {
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
    /// Ask for another game (`POST /rooms/{id}/rematch`).
    Rematch {
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
    /// Take back a move, ask to, or accept the asking (`POST /rooms/{id}/takeback`).
    Takeback {
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
    /// Decline the opponent's takeback (`POST /rooms/{id}/takeback/decline`).
    DeclineTakeback {
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
    /// Ask for (or agree to) analysing the game being played (`POST /rooms/{id}/analysis/agree`).
    AgreeAnalysis {
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
    /// Send a quick-chat phrase (`POST /rooms/{id}/chat`).
    Chat {
        /// The phrase's id.
        phrase: Phrase,
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
    /// Ask for a pong.
    Ping {
        /// Any JSON value, returned in the reply.
        #[serde(default)]
        request_id: Option<Value>,
    },
}

/// A frame the room's socket sends of its own (besides events, presence
/// frames and acks).
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum SocketFrame {
    /// The first frame: the seats the token holds and the event number the
    /// socket starts after.
    Welcome {
        /// The seats the socket's token holds (none for a spectator).
        #[schema(value_type = Vec<openapi::SideName>)]
        seats: Vec<Side>,
        /// The `since` the socket started after.
        since: u64,
    },
    /// The reply to a ping.
    Pong {
        /// The ping's `request_id`, or `null`.
        #[schema(required = true)]
        request_id: Option<Value>,
    },
    /// A frame was refused: the error, as the HTTP routes name it.
    Error {
        /// The frame's `request_id`, or `null` (always for a frame that is not JSON).
        #[schema(required = true)]
        request_id: Option<Value>,
        /// See ErrorBody.
        code: &'static str,
        /// See ErrorBody.
        message: String,
    },
}

/// Every frame the room's socket sends, told apart by `type`.
pub(crate) enum RoomFrame {}

impl PartialSchema for RoomFrame {
    fn schema() -> RefOr<Schema> {
        let mut frames = OneOfBuilder::new().description(Some(
            "A frame of the room's WebSocket: welcome, pong or error (SocketFrame), a numbered \
             event (Event), a presence frame (Presence), or the ack of an action (Ack).",
        ));
        for name in ["SocketFrame", "Event", "Presence", "Ack"] {
            frames = frames.item(Ref::from_schema_name(name));
        }
        frames.into()
    }
}

impl ToSchema for RoomFrame {}

/// The room's WebSocket: events and presence frames out, actions in.
///
/// Frames out: `welcome` first, then the numbered events after `since` (as
/// on the events stream), presence frames, and the replies to the client's
/// frames (`ack` with the action's reply, `error`, `pong`); schema RoomFrame.
/// Frames in: schema ClientFrame. The seat token may come as
/// `Authorization: Bearer` or as `?token=`.
#[utoipa::path(
    get,
    path = "/rooms/{id}/ws",
    tag = "rooms",
    params(
        RoomPath,
        ("since" = Option<i64>, Query, description = "The last event number the client saw."),
        ("token" = Option<String>, Query, description = "A seat token: the socket acts for the seat and counts as its presence."),
    ),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol."),
        (status = 400, description = "Not a WebSocket handshake, or the query string cannot be read (plain text: axum's own rejection).", body = String, content_type = "text/plain"),
        (status = 403, description = status::WATCH_WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
pub(crate) async fn room_socket(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Query(query): Query<EventsQuery>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let room = state.rooms.get(&id).await?;
    let token = token(&headers, query.token.as_deref());
    let since = query.since();
    let watch = room.watch(since, token.clone(), true).await?;
    let connection = Connection::new(room, watch, since);
    let open = state.sockets.enter();
    Ok(upgrade
        .max_message_size(hard_frame_limit(&state.config))
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| relay(socket, connection, token, peer.ip(), state, open)))
}

fn error_frame(request_id: Option<Value>, error: &ApiError) -> Message {
    let ErrorBody { code, message } = error.body();
    text(&SocketFrame::Error {
        request_id,
        code,
        message,
    })
}

/// The `request_id` of a client's frame, to echo in an error about the frame
/// as a whole (too many, too large, not JSON of a known type).
fn request_id_of(body: &[u8]) -> Option<Value> {
    #[derive(Deserialize)]
    struct Envelope {
        #[serde(default)]
        request_id: Option<Value>,
    }
    serde_json::from_slice::<Envelope>(body).ok()?.request_id
}

/// The close frame every socket gets when the server stops: code 1012 (restart).
fn shutting_down() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::RESTART,
        reason: Utf8Bytes::from_static("server shutting down"),
    }))
}

/// The close frame of a socket whose client has not been heard from.
fn silent() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::AWAY,
        reason: Utf8Bytes::from_static("no answer to pings"),
    }))
}

fn text(value: &impl Serialize) -> Message {
    let json = serde_json::to_string(value).unwrap_or_else(|_| Value::Null.to_string());
    Message::Text(Utf8Bytes::from(json))
}

/// Sends `message`, giving up on a client that does not read for `within`.
/// Returns whether it was sent.
async fn send<S>(sink: &mut S, message: Message, within: Duration) -> bool
where
    S: futures_util::Sink<Message> + Unpin,
{
    matches!(
        tokio::time::timeout(within, sink.send(message)).await,
        Ok(Ok(()))
    )
}

/// When a socket is pinged and when it is given up, from when it last
/// carried traffic. A ping is sent only after `every` without a frame from
/// the client or without one to it (a player's own moves and the events sent
/// to them keep the socket alive, so only quiet sockets are pinged), and no
/// sooner than `every` after the previous ping; a client silent for
/// `timeout` (pongs count) is closed.
///
/// One timer serves both deadlines and is moved only when it fires, not on
/// every frame: the frames only note the time.
struct Heartbeat {
    every: Duration,
    timeout: Duration,
    last_heard: Instant,
    last_sent: Instant,
    last_pinged: Instant,
    alarm: Pin<Box<Sleep>>,
}

/// What interrupts a socket's relay, besides its frames.
enum Interruption {
    /// The socket has been quiet: ping it.
    Ping,
    /// The socket ends (its client is silent, or the server shuts down):
    /// send this close frame.
    End(Message),
}

impl Heartbeat {
    fn new(config: &Config) -> Heartbeat {
        let now = Instant::now();
        let every = config.websocket_ping_interval;
        Heartbeat {
            every,
            timeout: config.websocket_timeout,
            last_heard: now,
            last_sent: now,
            last_pinged: now,
            alarm: Box::pin(tokio::time::sleep_until(now + every)),
        }
    }

    fn heard(&mut self) {
        self.last_heard = Instant::now();
    }

    fn sent(&mut self) {
        self.last_sent = Instant::now();
    }

    fn ping_at(&self) -> Instant {
        self.last_heard.min(self.last_sent).max(self.last_pinged) + self.every
    }

    fn silent_at(&self) -> Instant {
        self.last_heard + self.timeout
    }

    /// Waits until the socket must be pinged or closed, or `stopped` (the
    /// server's shutdown) is done. Cancel-safe: a `select!` may drop it.
    async fn interruption(&mut self, stopped: Pin<&mut impl Future<Output = ()>>) -> Interruption {
        tokio::select! {
            due = self.due() => due,
            () = stopped => Interruption::End(shutting_down()),
        }
    }

    /// Waits until a deadline is due, moving the timer to the next one each
    /// time it fires.
    async fn due(&mut self) -> Interruption {
        loop {
            (&mut self.alarm).await;
            let now = Instant::now();
            let due = if now >= self.silent_at() {
                Some(Interruption::End(silent()))
            } else if now >= self.ping_at() {
                self.last_pinged = now;
                Some(Interruption::Ping)
            } else {
                None
            };
            let next = self.ping_at().min(self.silent_at());
            self.alarm.as_mut().reset(next);
            if let Some(due) = due {
                return due;
            }
        }
    }
}

/// The answer to an action sent on the socket: the action's reply (as the
/// HTTP route gives it) with the client's `request_id`.
#[derive(Serialize, ToSchema)]
pub(crate) struct Ack {
    #[serde(flatten)]
    reply: ActReply,
    /// Always `ack`.
    #[serde(rename = "type")]
    kind: AckType,
    /// The action frame's `request_id`, or `null`.
    #[schema(required = true)]
    request_id: Option<Value>,
}

/// The `type` of an ack.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum AckType {
    /// `ack`.
    Ack,
}

/// Relays a room's socket until it closes; `open` counts it meanwhile.
///
/// Not an `async fn`: its future keeps its arguments twice (as passed and as
/// moved into the body), and this future lives as long as the socket. The
/// socket is not split into a sink and a stream (a shared allocation of its
/// own): as the lobby's, it is read only in the select and written after it.
#[allow(
    clippy::manual_async_fn,
    reason = "an async fn keeps its arguments twice"
)]
fn relay(
    mut socket: WebSocket,
    mut connection: Connection,
    token: Option<String>,
    ip: IpAddr,
    state: AppState,
    open: LiveGuard,
) -> impl Future<Output = ()> + Send {
    async move {
        let _open = open;
        let shutdown = state.shutdown_signal();
        let within = state.config.websocket_timeout;
        let welcome = SocketFrame::Welcome {
            seats: connection.watch.seats.clone(),
            since: connection.last,
        };
        if !send(&mut socket, text(&welcome), within).await {
            return;
        }
        let limits = &state.frame_limits;
        let mut bucket = limits.socket();
        let mut heartbeat = Heartbeat::new(&state.config);
        let max_bytes = state.config.max_message_bytes;
        let mut presence = connection.watch.presence.clone();
        let stopped = crate::stopped(shutdown);
        tokio::pin!(stopped);
        loop {
            let outgoing = tokio::select! {
                frame = connection.next() => match frame {
                    Some(frame) => Message::Text(frame.json.clone()),
                    // The room's task has stopped: only a shutdown does that.
                    None => {
                        send(&mut socket, shutting_down(), within).await;
                        break;
                    }
                },
                changed = presence.changed() => match changed {
                    Ok(()) => text(&*presence.borrow_and_update()),
                    // The room's task has stopped, as above.
                    Err(_) => {
                        send(&mut socket, shutting_down(), within).await;
                        break;
                    }
                },
                incoming = socket.recv() => {
                    heartbeat.heard();
                    let frame = match incoming {
                        Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                        Some(Ok(frame)) => frame,
                    };
                    if let Err(limit) = limits.frame(&mut bucket, token.as_deref(), ip) {
                        error_frame(request_id_of(&frame.into_data()), &limit)
                    } else {
                        match frame {
                            Message::Text(body) if body.len() > max_bytes => {
                                error_frame(request_id_of(body.as_bytes()), &ApiError::TooLarge)
                            }
                            // Boxed: the socket's future lives as long as the socket.
                            Message::Text(body) => {
                                Box::pin(answer(&connection, token.clone(), body.as_str())).await
                            }
                            Message::Binary(body) => {
                                let error = ApiError::BadRequest("frames are JSON text".to_owned());
                                error_frame(request_id_of(&body), &error)
                            }
                            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => continue,
                        }
                    }
                },
                interruption = heartbeat.interruption(stopped.as_mut()) => match interruption {
                    Interruption::Ping => Message::Ping(Bytes::new()),
                    Interruption::End(close) => {
                        send(&mut socket, close, within).await;
                        break;
                    }
                },
            };
            if !send_with_waiting(&mut socket, outgoing, &mut connection, within).await {
                break;
            }
            heartbeat.sent();
        }
    }
}

/// Sends `message` and, in the same write, the room's frames already waiting
/// for the socket, giving up as [`send`] does. A move's event is broadcast
/// before its ack is answered, so the mover's socket sends both at once: one
/// `sendto` and one wake-up of the client instead of two.
async fn send_with_waiting(
    socket: &mut WebSocket,
    message: Message,
    connection: &mut Connection,
    within: Duration,
) -> bool {
    let sent = async {
        socket.feed(message).await?;
        while let Some(frame) = connection.waiting() {
            socket.feed(Message::Text(frame.json.clone())).await?;
        }
        socket.flush().await
    };
    matches!(tokio::time::timeout(within, sent).await, Ok(Ok(())))
}

/// Runs a client's frame against the room and returns the reply frame.
async fn answer(connection: &Connection, token: Option<String>, body: &str) -> Message {
    let frame: ClientFrame = match serde_json::from_str(body) {
        Ok(frame) => frame,
        Err(err) => {
            let hint = "expected {\"type\": \"move\"|\"resign\"|\"draw\"|\"impasse\"|\"rematch\"|\"takeback\"|\"decline_takeback\"|\"agree_analysis\"|\"chat\"|\"ping\", ...}";
            let error = ApiError::BadRequest(format!("{err}; {hint}"));
            return error_frame(request_id_of(body.as_bytes()), &error);
        }
    };
    let (action, request_id) = match frame {
        ClientFrame::Move { mv, request_id } => (Action::Move(mv), request_id),
        ClientFrame::Resign { request_id } => (Action::Resign, request_id),
        ClientFrame::Draw { request_id } => (Action::Draw, request_id),
        ClientFrame::Impasse { request_id } => (Action::Impasse, request_id),
        ClientFrame::Rematch { request_id } => (Action::Rematch, request_id),
        ClientFrame::Takeback { request_id } => (Action::Takeback, request_id),
        ClientFrame::DeclineTakeback { request_id } => (Action::DeclineTakeback, request_id),
        ClientFrame::AgreeAnalysis { request_id } => (Action::AgreeAnalysis, request_id),
        ClientFrame::Chat { phrase, request_id } => (Action::Chat(phrase), request_id),
        ClientFrame::Ping { request_id } => {
            return text(&SocketFrame::Pong { request_id });
        }
    };
    match connection.room.act(token, action).await {
        Ok(reply) => text(&Ack {
            reply,
            kind: AckType::Ack,
            request_id,
        }),
        Err(error) => error_frame(request_id, &error),
    }
}

/// The lobby JSON over a WebSocket, sent again after every change (at most
/// twice a second).
#[utoipa::path(
    get,
    path = "/lobby/ws",
    tag = "lobby",
    responses(
        (status = 101, description = "Switching to the WebSocket protocol. Every frame is a Lobby."),
        (status = 400, description = "Not a WebSocket handshake (plain text: axum's own rejection).", body = String, content_type = "text/plain"),
    )
)]
pub(crate) async fn lobby_socket(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let open = state.sockets.enter();
    upgrade
        .max_message_size(hard_frame_limit(&state.config))
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| async move {
            lobby_relay(socket, peer.ip(), state).await;
            drop(open);
        })
}

/// The least time between two lobby frames.
const LOBBY_EVERY: Duration = Duration::from_millis(500);

async fn lobby_relay(mut socket: WebSocket, ip: IpAddr, state: AppState) {
    let lobby = state.rooms.context().lobby.clone();
    let mut changes = lobby.subscribe();
    let shutdown = state.shutdown_signal();
    let within = state.config.websocket_timeout;
    let limits = &state.frame_limits;
    let mut bucket = limits.socket();
    let mut heartbeat = Heartbeat::new(&state.config);
    let stopped = crate::stopped(shutdown);
    tokio::pin!(stopped);
    loop {
        changes.borrow_and_update();
        if !send(&mut socket, text(&lobby.view()), within).await {
            return;
        }
        heartbeat.sent();
        let earliest = Instant::now() + LOBBY_EVERY;
        let mut changed = false;
        loop {
            let outgoing = tokio::select! {
                result = changes.changed(), if !changed => match result {
                    Ok(()) => {
                        changed = true;
                        continue;
                    }
                    Err(_) => return,
                },
                () = tokio::time::sleep_until(earliest), if changed => break,
                incoming = socket.recv() => {
                    heartbeat.heard();
                    match incoming {
                        Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                        // The lobby reads nothing, but every frame counts.
                        Some(Ok(frame)) => match limits.frame(&mut bucket, None, ip) {
                            Ok(()) => continue,
                            Err(limit) => error_frame(request_id_of(&frame.into_data()), &limit),
                        },
                    }
                },
                interruption = heartbeat.interruption(stopped.as_mut()) => match interruption {
                    Interruption::Ping => Message::Ping(Bytes::new()),
                    Interruption::End(close) => {
                        send(&mut socket, close, within).await;
                        return;
                    }
                },
            };
            if !send(&mut socket, outgoing, within).await {
                return;
            }
            heartbeat.sent();
        }
    }
}
