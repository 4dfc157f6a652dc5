//! The WebSockets: one per room (events out, actions in) and one for the lobby.
//!
//! A socket task relays the room's events (and its unnumbered presence
//! frames) to the client and the client's frames to the room as commands; a bad frame gets an error frame naming
//! the reason, and the connection goes on.

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::AppState;
use crate::api::{Connection, EventsQuery, token};
use crate::error::ApiError;
use crate::room::{ActReply, Action};

/// The hard cap on a frame: larger ones close the socket. Frames between the
/// configured limit and this get an error frame instead.
const HARD_FRAME_LIMIT: usize = 1 << 20;

/// A frame from a client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientFrame {
    Move {
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        request_id: Option<Value>,
    },
    Resign {
        #[serde(default)]
        request_id: Option<Value>,
    },
    Draw {
        #[serde(default)]
        request_id: Option<Value>,
    },
    Impasse {
        #[serde(default)]
        request_id: Option<Value>,
    },
    Rematch {
        #[serde(default)]
        request_id: Option<Value>,
    },
    Ping {
        #[serde(default)]
        request_id: Option<Value>,
    },
}

/// `GET /rooms/{id}/ws?since=N&token=T`.
pub(crate) async fn room_socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<EventsQuery>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let room = state.rooms.get(&id).await?;
    let token = token(&headers, query.token.as_deref());
    let since = query.since();
    let watch = room.watch(since, token.clone(), true).await?;
    let connection = Connection {
        room,
        watch,
        last: since,
    };
    Ok(upgrade
        .max_message_size(HARD_FRAME_LIMIT)
        .on_upgrade(move |socket| relay(socket, connection, token, state)))
}

/// Messages a socket may still send this second.
struct RateLimit {
    per_second: u32,
    left: u32,
    window: Instant,
}

impl RateLimit {
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        if now.duration_since(self.window) >= Duration::from_secs(1) {
            self.window = now;
            self.left = self.per_second;
        }
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        true
    }
}

fn error_frame(request_id: Option<Value>, error: &ApiError) -> Message {
    let body = error.body();
    text(
        &json!({"type": "error", "request_id": request_id, "code": body.code, "message": body.message}),
    )
}

/// The close frame every socket gets when the server stops: code 1012 (restart).
fn shutting_down() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::RESTART,
        reason: Utf8Bytes::from_static("server shutting down"),
    }))
}

fn text(value: &impl Serialize) -> Message {
    let json = serde_json::to_string(value).unwrap_or_else(|_| Value::Null.to_string());
    Message::Text(Utf8Bytes::from(json))
}

/// The answer to an action sent on the socket: the action's reply with the
/// client's `request_id`.
#[derive(Serialize)]
struct Ack {
    #[serde(flatten)]
    reply: ActReply,
    #[serde(rename = "type")]
    kind: &'static str,
    request_id: Option<Value>,
}

async fn relay(
    socket: WebSocket,
    mut connection: Connection,
    token: Option<String>,
    state: AppState,
) {
    let (mut sink, mut stream) = socket.split();
    let shutdown = state.shutdown_signal();
    let welcome = json!({
        "type": "welcome",
        "seats": connection.watch.seats.iter().map(|side| side.name()).collect::<Vec<_>>(),
        "since": connection.last,
    });
    if sink.send(text(&welcome)).await.is_err() {
        return;
    }
    let mut limit = RateLimit {
        per_second: state.config.messages_per_second,
        left: state.config.messages_per_second,
        window: Instant::now(),
    };
    let max_bytes = state.config.max_message_bytes;
    let mut presence = connection.watch.presence.clone();
    loop {
        let outgoing = tokio::select! {
            frame = connection.next() => match frame {
                Some(frame) => Message::Text(Utf8Bytes::from(frame.json.clone())),
                // The room's task has stopped: only a shutdown does that.
                None => {
                    let _ = sink.send(shutting_down()).await;
                    break;
                }
            },
            changed = presence.changed() => match changed {
                Ok(()) => text(&*presence.borrow_and_update()),
                // The room's task has stopped, as above.
                Err(_) => {
                    let _ = sink.send(shutting_down()).await;
                    break;
                }
            },
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(body))) => {
                    if !limit.allow() {
                        let limit = ApiError::TooMany(format!("at most {} messages per second", limit.per_second));
                        error_frame(None, &limit)
                    } else if body.len() > max_bytes {
                        error_frame(None, &ApiError::TooLarge)
                    } else {
                        answer(&connection, token.clone(), body.as_str()).await
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    error_frame(None, &ApiError::BadRequest("frames are JSON text".to_owned()))
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            () = crate::stopped(shutdown.clone()) => {
                let _ = sink.send(shutting_down()).await;
                break;
            }
        };
        if sink.send(outgoing).await.is_err() {
            break;
        }
    }
}

/// Runs a client's frame against the room and returns the reply frame.
async fn answer(connection: &Connection, token: Option<String>, body: &str) -> Message {
    let frame: ClientFrame = match serde_json::from_str(body) {
        Ok(frame) => frame,
        Err(err) => {
            let hint = "expected {\"type\": \"move\"|\"resign\"|\"draw\"|\"impasse\"|\"rematch\"|\"ping\", ...}";
            return error_frame(None, &ApiError::BadRequest(format!("{err}; {hint}")));
        }
    };
    let (action, request_id) = match frame {
        ClientFrame::Move { mv, request_id } => (Action::Move(mv), request_id),
        ClientFrame::Resign { request_id } => (Action::Resign, request_id),
        ClientFrame::Draw { request_id } => (Action::Draw, request_id),
        ClientFrame::Impasse { request_id } => (Action::Impasse, request_id),
        ClientFrame::Rematch { request_id } => (Action::Rematch, request_id),
        ClientFrame::Ping { request_id } => {
            return text(&json!({"type": "pong", "request_id": request_id}));
        }
    };
    match connection.room.act(token, action).await {
        Ok(reply) => text(&Ack {
            reply,
            kind: "ack",
            request_id,
        }),
        Err(error) => error_frame(request_id, &error),
    }
}

/// `GET /lobby/ws`: the lobby JSON now, and again after every change (at most
/// twice a second).
pub(crate) async fn lobby_socket(
    State(state): State<AppState>,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade
        .max_message_size(HARD_FRAME_LIMIT)
        .on_upgrade(move |socket| lobby_relay(socket, state))
}

async fn lobby_relay(mut socket: WebSocket, state: AppState) {
    let lobby = state.rooms.context().lobby.clone();
    let mut changes = lobby.subscribe();
    let shutdown = state.shutdown_signal();
    loop {
        changes.borrow_and_update();
        if socket.send(text(&lobby.json())).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        tokio::select! {
            changed = changes.changed() => if changed.is_err() { return },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => {}
            },
            () = crate::stopped(shutdown.clone()) => {
                let _ = socket.send(shutting_down()).await;
                return;
            }
        }
    }
}
