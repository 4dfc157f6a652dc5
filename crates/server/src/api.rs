//! The HTTP JSON API under `/api/v1`: one handler per resource and action.
//! JSON request and response shapes live here; `docs/api.md` documents them.

use std::convert::Infallible;
use std::net::SocketAddr;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream;
use notation::Format;
use rules::{Side, Variant};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use store::StoreError;
use tokio::sync::broadcast::error::RecvError;

use crate::error::ApiError;
use crate::event::Frame;
use crate::room::{ActReply, Action, Joiner, Mode, RoomHandle, RoomView, Watch};
use crate::room_settings::RoomSettings;
use crate::rooms::NewRoom;
use crate::{AppState, ids, openapi, records, ws};

/// The routes under `/api/v1`.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/rooms", post(create_room))
        .route("/rooms/{id}", get(show_room))
        .route("/rooms/{id}/join", post(join_room))
        .route("/rooms/{id}/moves", post(play_move))
        .route("/rooms/{id}/resign", post(resign))
        .route("/rooms/{id}/draw", post(draw))
        .route("/rooms/{id}/impasse", post(impasse))
        .route("/rooms/{id}/rematch", post(rematch))
        .route("/rooms/{id}/events", get(events))
        .route("/rooms/{id}/ws", get(ws::room_socket))
        .route("/rooms/{id}/record", get(record))
        .route("/rooms/{id}/name", axum::routing::put(rename_seat))
        .route(
            "/records",
            post(records::import).layer(DefaultBodyLimit::max(records::MAX_RECORD_BYTES)),
        )
        .route("/lobby", get(lobby))
        .route("/lobby/ws", get(ws::lobby_socket))
        .route("/stats", get(stats))
        .route("/players/{id}", get(player).put(rename_player))
        .route("/openapi.json", get(openapi::document))
}

/// `Json` whose rejections are [`ApiError`]s, so every error has one shape.
pub(crate) struct AppJson<T>(pub(crate) T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for AppJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<AppJson<T>, ApiError> {
        // Through a `Value`: serde's derived structs also accept an array of
        // their fields, and a body is an object.
        match Json::<Value>::from_request(req, state).await {
            Ok(Json(value)) if value.is_object() => {
                serde_json::from_value(value).map(AppJson).map_err(|err| {
                    ApiError::BadRequest(format!(
                        "Failed to deserialize the JSON body into the target type: {err}"
                    ))
                })
            }
            Ok(Json(_)) => Err(ApiError::BadRequest(
                "the body must be a JSON object".to_owned(),
            )),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError::TooLarge)
            }
            Err(rejection) => Err(ApiError::BadRequest(rejection.body_text())),
        }
    }
}

/// The seat token of a request: `Authorization: Bearer <token>`, else `?token=`.
pub(crate) fn token(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(|token| token.trim().to_owned())
        .or_else(|| query.map(str::to_owned))
        .filter(|token| !token.is_empty())
}

/// `POST /rooms` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRoom {
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    settings: Value,
    /// A start position (SFEN/FEN or a handicap name), for replays and studies.
    #[serde(default)]
    position: Option<String>,
    /// The creator's seat: `first` (default) or `second`.
    #[serde(default)]
    seat: Option<String>,
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /rooms/{id}/join` body (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRoom {
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

/// A player id the client keeps, or a new one.
fn player_id(given: Option<String>) -> Result<String, ApiError> {
    match given {
        Some(id)
            if id.len() <= 64
                && !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            Ok(id)
        }
        Some(_) => Err(ApiError::BadRequest(
            "player must be 1-64 letters, digits, '-' or '_'".to_owned(),
        )),
        None => Ok(ids::secret()),
    }
}

/// A display name: trimmed, at most 40 characters, never empty.
fn display_name(given: Option<String>) -> String {
    let name: String = given
        .unwrap_or_default()
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(40)
        .collect();
    if name.is_empty() {
        "Anonymous".to_owned()
    } else {
        name
    }
}

fn invite_url(state: &AppState, headers: &HeaderMap, id: &str) -> String {
    let base = state.config.public_url.clone().unwrap_or_else(|| {
        let host = headers
            .get(header::HOST)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("localhost");
        format!("http://{host}")
    });
    format!("{}/rooms/{id}", base.trim_end_matches('/'))
}

async fn create_room(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    AppJson(body): AppJson<CreateRoom>,
) -> Result<Response, ApiError> {
    let variant: Variant = body
        .variant
        .as_deref()
        .unwrap_or("shogi")
        .parse()
        .map_err(|err: rules::ParseVariantError| ApiError::BadRequest(err.to_string()))?;
    let mode: Mode = body
        .mode
        .as_deref()
        .unwrap_or("online")
        .parse()
        .map_err(ApiError::BadRequest)?;
    let level = match (mode, body.level) {
        (Mode::Computer, Some(level @ 1..=8)) => level,
        (Mode::Computer, None) => 4,
        (Mode::Computer, Some(level)) => {
            return Err(ApiError::BadRequest(format!("level {level} is not 1-8")));
        }
        _ => 0,
    };
    let seat = match body.seat.as_deref() {
        None => Side::First,
        Some(name) => name
            .parse::<Side>()
            .map_err(|err| ApiError::BadRequest(err.to_string()))?,
    };
    let settings = RoomSettings::from_json(&body.settings).map_err(ApiError::BadRequest)?;
    let player = player_id(body.player)?;
    let name = display_name(body.name);
    let (id, room) = state
        .rooms
        .create(NewRoom {
            variant,
            mode,
            level,
            settings,
            position: body.position,
            device: peer.ip().to_string(),
        })
        .await?;
    state.store.set_player_name(&player, &name).await?;
    let creator = Joiner {
        player: player.clone(),
        name: name.clone(),
        seat: Some(seat),
        computer: false,
    };
    let (seat, token) = room.join(creator.clone(), None).await?;
    match mode {
        Mode::Online => {}
        Mode::Local => {
            let other = Joiner {
                seat: Some(seat.opponent()),
                ..creator
            };
            room.join(other, Some(token.clone())).await?;
        }
        Mode::Computer => {
            let computer = Joiner {
                player: "computer".to_owned(),
                name: format!("Computer (level {level})"),
                seat: Some(seat.opponent()),
                computer: true,
            };
            room.join(computer, None).await?;
        }
    }
    let body = json!({
        "id": id,
        "invite_url": invite_url(&state, &headers, &id),
        "seat": seat.name(),
        "token": token,
        "player": player,
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

async fn join_room(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let body: JoinRoom = if body.iter().all(u8::is_ascii_whitespace) {
        JoinRoom::default()
    } else {
        serde_json::from_slice(&body).map_err(|err| ApiError::BadRequest(err.to_string()))?
    };
    let room = state.rooms.get(&id).await?;
    let player = player_id(body.player)?;
    let name = display_name(body.name);
    let joiner = Joiner {
        player: player.clone(),
        name: name.clone(),
        seat: None,
        computer: false,
    };
    let (seat, token) = room.join(joiner, None).await?;
    state.store.set_player_name(&player, &name).await?;
    Ok(Json(
        json!({ "seat": seat.name(), "token": token, "player": player }),
    ))
}

async fn show_room(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<RoomView>, ApiError> {
    let room = state.rooms.get(&id).await?;
    Ok(Json(room.view().await?))
}

/// `POST /rooms/{id}/moves` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayMove {
    #[serde(rename = "move")]
    mv: String,
}

async fn act(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    action: Action,
) -> Result<Json<ActReply>, ApiError> {
    let room = state.rooms.get(id).await?;
    let token = token(headers, None);
    Ok(Json(room.act(token, action).await?))
}

async fn play_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    AppJson(body): AppJson<PlayMove>,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Move(body.mv)).await
}

async fn resign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Resign).await
}

async fn draw(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Draw).await
}

async fn impasse(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Impasse).await
}

async fn rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Rematch).await
}

/// `?since=N&follow=true&token=T` of the events stream and the WebSocket.
#[derive(Debug, Deserialize)]
pub(crate) struct EventsQuery {
    #[serde(default)]
    pub(crate) since: i64,
    #[serde(default)]
    pub(crate) token: Option<String>,
    #[serde(default = "yes")]
    pub(crate) follow: bool,
}

fn yes() -> bool {
    true
}

impl EventsQuery {
    /// The last event the client saw (a negative number means none).
    pub(crate) fn since(&self) -> u64 {
        u64::try_from(self.since).unwrap_or(0)
    }
}

/// A connection's watch of a room; tells the room when the connection goes.
pub(crate) struct Connection {
    pub(crate) room: RoomHandle,
    pub(crate) watch: Watch,
    pub(crate) last: u64,
}

impl Connection {
    /// The next frame to send: what the backlog holds, then live events; on
    /// falling behind the broadcast, the missed events from the room itself.
    pub(crate) async fn next(&mut self) -> Option<std::sync::Arc<Frame>> {
        loop {
            if let Some(frame) = self.watch.backlog.first().cloned() {
                self.watch.backlog.remove(0);
                if frame.seq > self.last {
                    self.last = frame.seq;
                    return Some(frame);
                }
                continue;
            }
            match self.watch.live.recv().await {
                Ok(frame) if frame.seq <= self.last => {}
                Ok(frame) => {
                    self.last = frame.seq;
                    return Some(frame);
                }
                Err(RecvError::Lagged(_)) => {
                    let last = self.last;
                    self.watch.backlog = self.room.since(last).await.ok()?;
                }
                Err(RecvError::Closed) => return None,
            }
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.room
            .unwatch(std::mem::take(&mut self.watch.seats), self.watch.spectator);
    }
}

async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<EventsQuery>,
) -> Result<Response, ApiError> {
    let room = state.rooms.get(&id).await?;
    let token = token(&headers, query.token.as_deref());
    let since = query.since();
    let watch = room.watch(since, token, false).await?;
    let connection = Connection {
        room,
        watch,
        last: since,
    };
    let follow = query.follow;
    let shutdown = state.shutdown_signal();
    let lines = stream::unfold(Some(connection), move |connection| {
        let shutdown = shutdown.clone();
        async move {
            let mut connection = connection?;
            if !follow && connection.watch.backlog.is_empty() {
                return None;
            }
            let frame = tokio::select! {
                frame = connection.next() => frame?,
                () = crate::stopped(shutdown.clone()) => return None,
            };
            let line = Bytes::from(format!("{}\n", frame.json));
            Some((Ok::<_, Infallible>(line), Some(connection)))
        }
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(lines),
    )
        .into_response())
}

/// `?format=` of the record.
#[derive(Debug, Deserialize)]
struct RecordQuery {
    #[serde(default)]
    format: Option<String>,
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<RecordQuery>,
) -> Result<Response, ApiError> {
    let room = state.rooms.get(&id).await?;
    let record = room.record().await?;
    let format = match query.format.as_deref() {
        None => Format::Position,
        Some(name) => name.parse::<Format>().map_err(ApiError::BadRequest)?,
    };
    let text = record
        .write(format)
        .map_err(|err| ApiError::BadRequest(err.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn lobby(State(state): State<AppState>) -> Json<Value> {
    Json(state.rooms.context().lobby.json())
}

fn percent(part: i64, whole: i64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        // Rounded to one decimal place.
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

async fn stats(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let counts = state.store.variant_counts().await?;
    let mut variants = serde_json::Map::new();
    for variant in Variant::ALL {
        let (first, second, draws) = counts
            .iter()
            .find(|c| c.variant == variant.name())
            .map_or((0, 0, 0), |c| (c.first_wins, c.second_wins, c.draws));
        let games = first + second + draws;
        variants.insert(
            variant.name().to_owned(),
            json!({
                "games": games,
                "first_wins": first,
                "second_wins": second,
                "draws": draws,
                "first_wins_percent": percent(first, games),
                "second_wins_percent": percent(second, games),
                "draws_percent": percent(draws, games),
            }),
        );
    }
    Ok(Json(json!({ "variants": variants })))
}

async fn player(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let name = match state.store.player_name(&id).await {
        Ok(name) => name,
        Err(StoreError::NotFound) => return Err(ApiError::PlayerNotFound(id)),
        Err(err) => return Err(err.into()),
    };
    let counts = state.store.player_counts(&id).await?;
    let mut variants = serde_json::Map::new();
    for variant in Variant::ALL {
        let (wins, losses, draws) = counts
            .iter()
            .find(|c| c.variant == variant.name())
            .map_or((0, 0, 0), |c| (c.wins, c.losses, c.draws));
        let rating = state.store.rating(&id, variant.name()).await?;
        variants.insert(
            variant.name().to_owned(),
            json!({
                "wins": wins,
                "losses": losses,
                "draws": draws,
                "rating": rating.as_ref().map(|r| r.rating.round()),
                "deviation": rating.as_ref().map(|r| r.deviation.round()),
                "rated_games": rating.as_ref().map_or(0, |r| r.games),
            }),
        );
    }
    Ok(Json(
        json!({ "player": id, "name": name, "variants": variants }),
    ))
}

/// `PUT /players/{id}` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Rename {
    name: String,
}

async fn rename_player(
    State(state): State<AppState>,
    Path(id): Path<String>,
    AppJson(body): AppJson<Rename>,
) -> Result<Json<Value>, ApiError> {
    let id = player_id(Some(id))?;
    let name = display_name(Some(body.name));
    state.store.set_player_name(&id, &name).await?;
    Ok(Json(json!({ "player": id, "name": name })))
}

/// `PUT /rooms/{id}/name` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RenameSeat {
    name: String,
    /// One of the token's seats (a local room's token holds both); all of them when absent.
    #[serde(default)]
    seat: Option<String>,
}

/// A seated player's new display name: shown in the room's seats at once (a
/// `renamed` event) and kept as the player's name.
async fn rename_seat(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    AppJson(body): AppJson<RenameSeat>,
) -> Result<Json<Value>, ApiError> {
    let seat = match body.seat.as_deref() {
        None => None,
        Some(name) => Some(
            name.parse::<Side>()
                .map_err(|err| ApiError::BadRequest(err.to_string()))?,
        ),
    };
    let name = display_name(Some(body.name));
    let room = state.rooms.get(&id).await?;
    let token = token(&headers, None);
    let (seats, player) = room.rename(token, seat, name.clone()).await?;
    state.store.set_player_name(&player, &name).await?;
    Ok(Json(json!({
        "seats": seats.iter().map(|side| side.name()).collect::<Vec<_>>(),
        "name": name,
    })))
}
