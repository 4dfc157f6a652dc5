//! The HTTP JSON API under `/api/v1`: one handler per resource and action.
//! JSON request and response shapes live here; `docs/api.md` documents them.

use std::convert::Infallible;
use std::net::SocketAddr;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json, Router};
use futures_util::stream;
use notation::Format;
use rules::{Side, Variant};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::StoreError;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::error::{ApiError, ErrorBody};
use crate::event::{EventJson, Frame};
use crate::identity::{Identity, display_name};
use crate::lobby::LobbyView;
use crate::openapi::status;
use crate::room::{ActReply, Action, Joiner, Mode, Phrase, RoomHandle, RoomView, Watch};
use crate::room_settings::{RoomSettings, SettingsChoice};
use crate::rooms::NewRoom;
use crate::{AppState, analysis, openapi, records, ws};

/// The routes under `/api/v1`, each registered with its OpenAPI description
/// (the handler's `#[utoipa::path]`), and the document they make, served at
/// `/openapi.json`.
pub(crate) fn routes() -> Router<AppState> {
    let (router, document) = OpenApiRouter::with_openapi(openapi::outline())
        .routes(routes!(create_room))
        .routes(routes!(show_room))
        .routes(routes!(join_room))
        .routes(routes!(play_move))
        .routes(routes!(resign))
        .routes(routes!(draw))
        .routes(routes!(impasse))
        .routes(routes!(rematch))
        .routes(routes!(takeback))
        .routes(routes!(decline_takeback))
        .routes(routes!(agree_analysis))
        .routes(routes!(chat))
        .routes(routes!(events))
        .routes(routes!(ws::room_socket))
        .routes(routes!(record))
        .routes(routes!(rename_seat))
        .routes(routes!(analysis::routes::room_analysis))
        .routes(routes!(analysis::routes::start_analysis))
        .routes(routes!(analysis::routes::analysis))
        .routes(routes!(records::import).layer(DefaultBodyLimit::max(records::MAX_RECORD_BYTES)))
        .routes(routes!(lobby))
        .routes(routes!(ws::lobby_socket))
        .routes(routes!(stats))
        .routes(routes!(player, rename_player))
        .routes(routes!(crate::player_games::player_games))
        .routes(routes!(openapi::document))
        .split_for_parts();
    router.layer(Extension(openapi::Document::new(&document)))
}

/// The room a request names.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub(crate) struct RoomPath {
    /// The room id from the invitation link.
    #[param(pattern = "^[0-9a-f]{32}$")]
    pub(crate) id: String,
}

/// The player a request names.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
struct PlayerPath {
    /// The player's public id.
    id: String,
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
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateRoom {
    /// The game.
    #[serde(default)]
    #[schema(value_type = Option<openapi::VariantName>, default = "shogi")]
    variant: Option<String>,
    /// How the room is played.
    #[serde(default)]
    #[schema(value_type = Option<openapi::ModeName>, default = "online")]
    mode: Option<String>,
    /// The computer's level (computer mode).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 8, default = 4)]
    level: Option<u8>,
    /// House rules; missing keys keep their defaults.
    #[serde(default)]
    #[schema(value_type = Option<SettingsChoice>)]
    settings: Value,
    /// A start position: SFEN, FEN or a shogi handicap name (for replays and studies).
    #[serde(default)]
    position: Option<String>,
    /// The creator's seat.
    #[serde(default)]
    #[schema(value_type = Option<openapi::SideName>, default = "first")]
    seat: Option<String>,
    /// The device's player id, issued by the server with its first room;
    /// leave it out to be given a new player.
    #[serde(default)]
    player: Option<String>,
    /// The player's secret credential, required with `player`.
    #[serde(default)]
    player_secret: Option<String>,
    /// The display name, trimmed to 40 characters; `Anonymous` when missing.
    #[serde(default)]
    #[schema(max_length = 40)]
    name: Option<String>,
}

/// `POST /rooms/{id}/join` body (optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct JoinRoom {
    /// The device's player id, issued by the server with its first room;
    /// leave it out to be given a new player.
    #[serde(default)]
    player: Option<String>,
    /// The player's secret credential, required with `player`.
    #[serde(default)]
    player_secret: Option<String>,
    /// The display name, trimmed to 40 characters; `Anonymous` when missing.
    #[serde(default)]
    #[schema(max_length = 40)]
    name: Option<String>,
}

/// The reply to `POST /rooms`: the room, the creator's seat and its secret token.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CreatedRoom {
    /// The room id.
    id: String,
    /// The invitation link to send the other player.
    invite_url: String,
    /// The creator's seat.
    #[schema(value_type = openapi::SideName)]
    seat: Side,
    /// Secret: send as `Authorization: Bearer`. In local mode it holds both seats.
    token: String,
    /// The player id (the one given, or a new one for the device to keep).
    player: String,
    /// Secret, only for a new player: the credential the device keeps beside
    /// the player id and sends as `player_secret` from then on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    player_secret: Option<String>,
}

/// The reply to `POST /rooms/{id}/join`: the seat taken and its secret token.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Seated {
    /// The seat taken.
    #[schema(value_type = openapi::SideName)]
    seat: Side,
    /// Secret: send as `Authorization: Bearer`.
    token: String,
    /// The player id (the one given, or a new one for the device to keep).
    player: String,
    /// Secret, only for a new player: the credential the device keeps beside
    /// the player id and sends as `player_secret` from then on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    player_secret: Option<String>,
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

/// Create a room and take a seat.
#[utoipa::path(
    post,
    path = "/rooms",
    tag = "rooms",
    request_body = CreateRoom,
    responses(
        (status = 201, description = "The room, the creator's seat and its secret token.", body = CreatedRoom),
        (status = 401, description = status::MISSING_CREDENTIAL, body = ErrorBody),
        (status = 403, description = status::WRONG_CREDENTIAL, body = ErrorBody),
        (status = 413, description = status::TOO_LARGE, body = ErrorBody),
        (status = 422, description = "bad-request: the body, a setting, the variant, mode, level, seat, player id or start position is refused.", body = ErrorBody),
        (status = 429, description = status::TOO_MANY, body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
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
    let identity = Identity::check(
        state.store.as_ref(),
        body.player,
        body.player_secret.as_deref(),
    )
    .await?;
    let player = identity.player().to_owned();
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
    identity.keep(state.store.as_ref(), &name).await?;
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
    let body = CreatedRoom {
        invite_url: invite_url(&state, &headers, &id),
        id,
        seat,
        token,
        player,
        player_secret: identity.new_secret(),
    };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// Take the free seat.
#[utoipa::path(
    post,
    path = "/rooms/{id}/join",
    tag = "rooms",
    params(RoomPath),
    request_body(content = Option<JoinRoom>, description = "Optional: an empty body joins anonymously."),
    responses(
        (status = 200, description = "The seat and its secret token.", body = Seated),
        (status = 401, description = status::MISSING_CREDENTIAL, body = ErrorBody),
        (status = 403, description = status::WRONG_CREDENTIAL, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = "no-free-seat: both seats are taken.", body = ErrorBody),
        (status = 413, description = "The body is larger than the server accepts (plain text: axum's own rejection).", body = String, content_type = "text/plain"),
        (status = 422, description = "bad-request: the body is not a JoinRoom, or the player id is refused.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn join_room(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    body: Bytes,
) -> Result<Json<Seated>, ApiError> {
    let body: JoinRoom = if body.iter().all(u8::is_ascii_whitespace) {
        JoinRoom::default()
    } else {
        serde_json::from_slice(&body).map_err(|err| ApiError::BadRequest(err.to_string()))?
    };
    let room = state.rooms.get(&id).await?;
    let identity = Identity::check(
        state.store.as_ref(),
        body.player,
        body.player_secret.as_deref(),
    )
    .await?;
    let player = identity.player().to_owned();
    let name = display_name(body.name);
    let joiner = Joiner {
        player: player.clone(),
        name: name.clone(),
        seat: None,
        computer: false,
    };
    let (seat, token) = room.join(joiner, None).await?;
    identity.keep(state.store.as_ref(), &name).await?;
    Ok(Json(Seated {
        seat,
        token,
        player,
        player_secret: identity.new_secret(),
    }))
}

/// The room: position, moves, legal moves, result, clocks, seats.
#[utoipa::path(
    get,
    path = "/rooms/{id}",
    tag = "rooms",
    params(RoomPath),
    responses(
        (status = 200, description = "The room.", body = RoomView),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn show_room(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
) -> Result<Json<RoomView>, ApiError> {
    let room = state.rooms.get(&id).await?;
    Ok(Json(room.view().await?))
}

/// `POST /rooms/{id}/moves` body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayMove {
    /// The move in USI (shogi family) or ICCS (xiangqi).
    #[serde(rename = "move")]
    #[schema(examples("7g7f", "P*5e", "h2e2"))]
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

/// Play a move for your seat.
#[utoipa::path(
    post,
    path = "/rooms/{id}/moves",
    tag = "seats",
    params(RoomPath),
    request_body = PlayMove,
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "The move is stored; ply is its number in the game.", body = ActReply),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = status::WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = status::NOT_NOW, body = ErrorBody),
        (status = 413, description = status::TOO_LARGE, body = ErrorBody),
        (status = 422, description = "Not a move (bad-move-text), or an illegal one: code names the rule (nifu, uchifuzume, leaves-king-in-check, flying-general ...); or bad-request: the body is not a PlayMove.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn play_move(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
    AppJson(body): AppJson<PlayMove>,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Move(body.mv)).await
}

/// Resign.
///
/// Either side may resign on either turn.
#[utoipa::path(
    post,
    path = "/rooms/{id}/resign",
    tag = "seats",
    params(RoomPath),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "Done: the result.", body = ActReply),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = status::WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = status::NOT_NOW, body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn resign(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Resign).await
}

/// Offer or accept a draw.
///
/// Offering when the opponent has offered accepts; a move withdraws an offer.
#[utoipa::path(
    post,
    path = "/rooms/{id}/draw",
    tag = "seats",
    params(RoomPath),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "Offered, or agreed with the result.", body = ActReply),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = status::WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = status::NOT_NOW, body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn draw(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Draw).await
}

/// Claim (24-point) or declare (27-point) an impasse.
///
/// Refused with 422 impasse-refused when the rules do not allow it now.
#[utoipa::path(
    post,
    path = "/rooms/{id}/impasse",
    tag = "seats",
    params(RoomPath),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "Done: the result.", body = ActReply),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = status::WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = status::NOT_NOW, body = ErrorBody),
        (status = 422, description = "impasse-refused: the rules do not allow the claim or declaration now.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn impasse(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Impasse).await
}

/// Ask for (or agree to) another game once this one is over.
///
/// In online rooms the game starts when both seats asked; at once in local and computer rooms. With swap_first_player the seats swap sides.
#[utoipa::path(
    post,
    path = "/rooms/{id}/rematch",
    tag = "seats",
    params(RoomPath),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "Offered or started.", body = ActReply),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = status::WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = status::NOT_NOW, body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn rematch(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Rematch).await
}

/// Take back a move.
///
/// In local rooms the last move, against the computer the player's last move and its reply (on the player's
/// turn); online this asks the opponent, and asking when the opponent asked accepts. Refused with 409
/// no-takeback in rated rooms and before the player's first move.
#[utoipa::path(
    post,
    path = "/rooms/{id}/takeback",
    tag = "seats",
    params(RoomPath),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "Offered, or agreed with the moves left.", body = ActReply),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = status::WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = "not-playing, not-your-turn (the computer is thinking) or no-takeback.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn takeback(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Takeback).await
}

/// Decline the opponent's asking to take back a move.
#[utoipa::path(
    post,
    path = "/rooms/{id}/takeback/decline",
    tag = "seats",
    params(RoomPath),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "Declined.", body = ActReply),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = status::WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = "not-playing, or no-takeback: nothing was asked of this seat.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn decline_takeback(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::DeclineTakeback).await
}

/// Ask for (or agree to) the engine's analysis of the game being played.
///
/// Online the game may be analysed (`POST /rooms/{id}/analysis`) once both seats asked; in local and
/// computer rooms at once. Asking again changes nothing. Refused with 409 rated-game in rated rooms: a
/// game that changes ratings is analysed only once it is over.
#[utoipa::path(
    post,
    path = "/rooms/{id}/analysis/agree",
    tag = "seats",
    params(RoomPath),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "Offered, or agreed.", body = ActReply),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = status::WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = "not-playing (a finished game needs no agreement), or rated-game.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn agree_analysis(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::AgreeAnalysis).await
}

/// `POST /rooms/{id}/chat` body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SendPhrase {
    /// The phrase's id; each reader's page shows it in their own language.
    phrase: Phrase,
}

/// Send a quick-chat phrase to the room.
///
/// Only seated players of online rooms with the `chat` setting on (the default), one phrase every 3 seconds
/// per seat; before, during and after the game. The phrase is a `chat` event of the room.
#[utoipa::path(
    post,
    path = "/rooms/{id}/chat",
    tag = "seats",
    params(RoomPath),
    request_body = SendPhrase,
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "Sent.", body = ActReply),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = status::WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = "chat-off: a local or computer room, or chat turned off.", body = ErrorBody),
        (status = 413, description = status::TOO_LARGE, body = ErrorBody),
        (status = 422, description = "bad-request: the body is not a SendPhrase (an unknown phrase).", body = ErrorBody),
        (status = 429, description = "too-many: a phrase sooner than 3 seconds after this seat's last.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn chat(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
    AppJson(body): AppJson<SendPhrase>,
) -> Result<Json<ActReply>, ApiError> {
    act(&state, &id, &headers, Action::Chat(body.phrase)).await
}

/// `?since=N&follow=true&token=T` of the events stream and the WebSocket.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct EventsQuery {
    /// The last event number the client saw: the stream starts after it.
    #[serde(default)]
    pub(crate) since: i64,
    /// A seat token: the connection counts as the seat's presence.
    #[serde(default)]
    pub(crate) token: Option<String>,
    /// Keep the stream open for new events (the events stream only).
    #[serde(default = "yes")]
    #[param(default = true)]
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
    /// The connection fell behind the broadcast and has not yet read the
    /// missed events back from the room. Cleared only once they are read, so
    /// a read dropped half-way (a `select!` took another branch) is made again.
    pub(crate) lagged: bool,
}

impl Connection {
    /// A watch of `room` from event `since` on.
    pub(crate) fn new(room: RoomHandle, watch: Watch, since: u64) -> Connection {
        Connection {
            room,
            watch,
            last: since,
            lagged: false,
        }
    }

    /// The next frame to send: what the backlog holds, then live events; on
    /// falling behind the broadcast, the missed events from the room itself.
    ///
    /// Cancel-safe: a `select!` may drop it at any await and call it again
    /// without a frame lost or sent twice.
    pub(crate) async fn next(&mut self) -> Option<std::sync::Arc<Frame>> {
        loop {
            if self.lagged {
                let last = self.last;
                // Boxed: rare, and the socket's future would carry its size.
                self.watch.backlog = Box::pin(self.room.since(last)).await.ok()?;
                self.lagged = false;
            }
            if !self.watch.backlog.is_empty() {
                let frame = self.watch.backlog.remove(0);
                if self.watch.backlog.is_empty() {
                    // Its buffer is the one the store's events were read
                    // into (kilobytes, for the socket's whole life otherwise).
                    self.watch.backlog = Vec::new();
                }
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
                // The receiver has skipped to the oldest event it still
                // holds: the ones between come from the room, above.
                Err(RecvError::Lagged(_)) => self.lagged = true,
                Err(RecvError::Closed) => return None,
            }
        }
    }

    /// The next live frame if one is there already, without waiting: what a
    /// socket sends in the same write as the frame it is sending (a move's
    /// event with its ack). `None` when nothing waits, or when only
    /// [`Connection::next`] can get it (the backlog, the room's missed events).
    pub(crate) fn waiting(&mut self) -> Option<std::sync::Arc<Frame>> {
        if !self.watch.backlog.is_empty() || self.lagged {
            return None;
        }
        loop {
            match self.watch.live.try_recv() {
                Ok(frame) if frame.seq <= self.last => {}
                Ok(frame) => {
                    self.last = frame.seq;
                    return Some(frame);
                }
                Err(TryRecvError::Lagged(_)) => {
                    self.lagged = true;
                    return None;
                }
                Err(TryRecvError::Empty | TryRecvError::Closed) => return None,
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

/// The room's numbered events after `since`, as NDJSON (one event per line).
///
/// The seat token may come as `Authorization: Bearer` or as `?token=`.
#[utoipa::path(
    get,
    path = "/rooms/{id}/events",
    tag = "rooms",
    params(RoomPath, EventsQuery),
    responses(
        (status = 200, description = "Events, one JSON object per line.", body = EventJson, content_type = "application/x-ndjson"),
        (status = 400, description = status::BAD_QUERY, body = String, content_type = "text/plain"),
        (status = 403, description = status::WATCH_WRONG_TOKEN, body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn events(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
    Query(query): Query<EventsQuery>,
) -> Result<Response, ApiError> {
    let room = state.rooms.get(&id).await?;
    let token = token(&headers, query.token.as_deref());
    let since = query.since();
    let watch = room.watch(since, token, false).await?;
    let connection = Connection::new(room, watch, since);
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
            let line = Bytes::from(format!("{}\n", frame.json.as_str()));
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
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct RecordQuery {
    /// The record's format; `sfen` (a position line) by default.
    #[serde(default)]
    #[param(value_type = Option<openapi::RecordFormatName>)]
    format: Option<String>,
}

/// The game record in a chosen format.
#[utoipa::path(
    get,
    path = "/rooms/{id}/record",
    tag = "rooms",
    params(RoomPath, RecordQuery),
    responses(
        (status = 200, description = "The record as UTF-8 text.", body = String, content_type = "text/plain"),
        (status = 400, description = status::BAD_QUERY, body = String, content_type = "text/plain"),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 422, description = "bad-request: an unknown format, or one that cannot hold this game.", body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn record(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
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

/// Open online rooms waiting for a player, and counts.
#[utoipa::path(
    get,
    path = "/lobby",
    tag = "lobby",
    responses((status = 200, description = "The lobby.", body = LobbyView))
)]
async fn lobby(State(state): State<AppState>) -> Json<LobbyView> {
    Json(state.rooms.context().lobby.view())
}

/// One value per variant, in the order the server names them.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PerVariant<T> {
    /// Shogi.
    shogi: T,
    /// Minishogi.
    minishogi: T,
    /// Annan Shogi.
    annan: T,
    /// Xiangqi.
    xiangqi: T,
}

impl<T> PerVariant<T> {
    /// `value` of each variant.
    fn new(mut value: impl FnMut(Variant) -> T) -> PerVariant<T> {
        PerVariant {
            shogi: value(Variant::Shogi),
            minishogi: value(Variant::Minishogi),
            annan: value(Variant::Annan),
            xiangqi: value(Variant::Xiangqi),
        }
    }
}

/// The finished games of one variant: first-player wins, second-player wins
/// and draws, counts and percentages (of `games`, to one decimal place).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct VariantStats {
    /// Finished games.
    games: i64,
    /// Won by the player who moved first.
    first_wins: i64,
    /// Won by the player who moved second.
    second_wins: i64,
    /// Drawn.
    draws: i64,
    /// `first_wins` in percent of `games` (0 without games).
    first_wins_percent: f64,
    /// `second_wins` in percent of `games`.
    second_wins_percent: f64,
    /// `draws` in percent of `games`.
    draws_percent: f64,
}

/// The reply to `GET /stats`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Stats {
    /// Each variant's statistics.
    variants: PerVariant<VariantStats>,
}

fn percent(part: i64, whole: i64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        // Rounded to one decimal place.
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

/// Finished games per variant: first-player wins, second-player wins and
/// draws, counts and percentages.
#[utoipa::path(
    get,
    path = "/stats",
    tag = "players",
    responses(
        (status = 200, description = "Statistics.", body = Stats),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
    )
)]
async fn stats(State(state): State<AppState>) -> Result<Json<Stats>, ApiError> {
    let counts = state.store.variant_counts().await?;
    let variants = PerVariant::new(|variant| {
        let (first, second, draws) = counts
            .iter()
            .find(|c| c.variant == variant.name())
            .map_or((0, 0, 0), |c| (c.first_wins, c.second_wins, c.draws));
        let games = first + second + draws;
        VariantStats {
            games,
            first_wins: first,
            second_wins: second,
            draws,
            first_wins_percent: percent(first, games),
            second_wins_percent: percent(second, games),
            draws_percent: percent(draws, games),
        }
    });
    Ok(Json(Stats { variants }))
}

/// A player's results and rating in one variant.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PlayerVariant {
    /// Finished games won.
    wins: i64,
    /// Finished games lost.
    losses: i64,
    /// Finished games drawn.
    draws: i64,
    /// The Glicko-2 rating, rounded; `null` before the first rated game.
    #[schema(required = true)]
    rating: Option<f64>,
    /// The rating's deviation, rounded; `null` before the first rated game.
    #[schema(required = true)]
    deviation: Option<f64>,
    /// Rated games played.
    rated_games: i64,
}

/// The reply to `GET /players/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Player {
    /// The player id.
    player: String,
    /// The display name.
    name: String,
    /// Results and ratings per variant.
    variants: PerVariant<PlayerVariant>,
}

/// A player's name, results and Glicko-2 ratings per variant.
#[utoipa::path(
    get,
    path = "/players/{id}",
    tag = "players",
    params(PlayerPath),
    responses(
        (status = 200, description = "The player.", body = Player),
        (status = 404, description = "player-not-found: no player with that id.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
    )
)]
async fn player(
    State(state): State<AppState>,
    Path(PlayerPath { id }): Path<PlayerPath>,
) -> Result<Json<Player>, ApiError> {
    let name = match state.store.player_name(&id).await {
        Ok(name) => name,
        Err(StoreError::NotFound) => return Err(ApiError::PlayerNotFound(id)),
        Err(err) => return Err(err.into()),
    };
    let counts = state.store.player_counts(&id).await?;
    let mut ratings = Vec::with_capacity(Variant::ALL.len());
    for variant in Variant::ALL {
        ratings.push((variant, state.store.rating(&id, variant.name()).await?));
    }
    let variants = PerVariant::new(|variant| {
        let (wins, losses, draws) = counts
            .iter()
            .find(|c| c.variant == variant.name())
            .map_or((0, 0, 0), |c| (c.wins, c.losses, c.draws));
        let rating = ratings
            .iter()
            .find(|(rated, _)| *rated == variant)
            .and_then(|(_, rating)| rating.as_ref());
        PlayerVariant {
            wins,
            losses,
            draws,
            rating: rating.map(|r| r.rating.round()),
            deviation: rating.map(|r| r.deviation.round()),
            rated_games: rating.map_or(0, |r| r.games),
        }
    });
    Ok(Json(Player {
        player: id,
        name,
        variants,
    }))
}

/// `PUT /players/{id}` body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Rename {
    /// The new display name, trimmed to 40 characters; `Anonymous` when empty.
    #[schema(max_length = 40)]
    name: String,
}

/// The reply to `PUT /players/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PlayerName {
    /// The player id.
    player: String,
    /// The name as kept (trimmed).
    name: String,
}

/// Change a player's display name: only with the player's credential.
#[utoipa::path(
    put,
    path = "/players/{id}",
    tag = "players",
    params(PlayerPath),
    request_body = Rename,
    security(("playerCredential" = [])),
    responses(
        (status = 200, description = "The new name.", body = PlayerName),
        (status = 401, description = status::MISSING_CREDENTIAL, body = ErrorBody),
        (status = 403, description = status::WRONG_CREDENTIAL, body = ErrorBody),
        (status = 413, description = status::TOO_LARGE, body = ErrorBody),
        (status = 422, description = "bad-request: the body is not a Rename.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
    )
)]
async fn rename_player(
    State(state): State<AppState>,
    Path(PlayerPath { id }): Path<PlayerPath>,
    headers: HeaderMap,
    AppJson(body): AppJson<Rename>,
) -> Result<Json<PlayerName>, ApiError> {
    let secret = token(&headers, None);
    let identity = Identity::check(state.store.as_ref(), Some(id), secret.as_deref()).await?;
    let name = display_name(Some(body.name));
    identity.keep(state.store.as_ref(), &name).await?;
    Ok(Json(PlayerName {
        player: identity.player().to_owned(),
        name,
    }))
}

/// `PUT /rooms/{id}/name` body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RenameSeat {
    /// The new display name, trimmed to 40 characters; `Anonymous` when empty.
    #[schema(max_length = 40)]
    name: String,
    /// One of the token's seats (a local room's token holds both); all of them when absent.
    #[serde(default)]
    #[schema(value_type = Option<openapi::SideName>)]
    seat: Option<String>,
}

/// The reply to `PUT /rooms/{id}/name`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SeatsRenamed {
    /// The seats renamed.
    #[schema(value_type = Vec<openapi::SideName>)]
    seats: Vec<Side>,
    /// The name as kept (trimmed).
    name: String,
}

/// Change the display name in the token's seats.
///
/// Stored as a `renamed` event (one per seat), shown in the room's seats at
/// once, and kept as the player's name. A local room's token holds both
/// seats: `seat` picks one.
#[utoipa::path(
    put,
    path = "/rooms/{id}/name",
    tag = "seats",
    params(RoomPath),
    request_body = RenameSeat,
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "The seats renamed and the name as kept (trimmed).", body = SeatsRenamed),
        (status = 401, description = status::MISSING_TOKEN, body = ErrorBody),
        (status = 403, description = "wrong-token: the token holds no seat in this room, or not the seat named.", body = ErrorBody),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 413, description = status::TOO_LARGE, body = ErrorBody),
        (status = 422, description = "bad-request: the body is not a RenameSeat, or the seat is not first or second.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
async fn rename_seat(
    State(state): State<AppState>,
    Path(RoomPath { id }): Path<RoomPath>,
    headers: HeaderMap,
    AppJson(body): AppJson<RenameSeat>,
) -> Result<Json<SeatsRenamed>, ApiError> {
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
    Ok(Json(SeatsRenamed { seats, name }))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use futures_util::FutureExt;
    use rules::Variant;

    use super::Connection;
    use crate::room::{Action, Joiner, Mode};
    use crate::room_settings::RoomSettings;
    use crate::rooms::NewRoom;
    use crate::{AppState, Config, FirstLegalMove};

    /// A socket's `select!` drops [`Connection::next`] while it reads the
    /// events it fell behind on; the next call still sends every event once.
    #[tokio::test]
    async fn a_connection_dropped_while_it_catches_up_loses_no_event() {
        let (_dir, store) = crate::temp_store::temp_store().await;
        let state = AppState::start(store, Arc::new(FirstLegalMove), Config::default())
            .await
            .unwrap();
        let new = NewRoom {
            variant: Variant::Minishogi,
            mode: Mode::Local,
            level: 0,
            settings: RoomSettings::default(),
            position: None,
            device: "test".to_owned(),
        };
        let (_, room) = state.rooms.create(new).await.unwrap();
        let ann = |seat| Joiner {
            player: "ann".to_owned(),
            name: "Ann".to_owned(),
            seat,
            computer: false,
        };
        let (seat, token) = room.join(ann(None), None).await.unwrap();
        room.join(ann(Some(seat.opponent())), Some(token.clone()))
            .await
            .unwrap();
        let seated = room.view().await.unwrap().last_seq;
        let watch = room.watch(seated, None, true).await.unwrap();
        let mut connection = Connection::new(room.clone(), watch, seated);
        // A move and its takeback, again and again: more events than the
        // live channel holds, in a game that never repeats a position.
        for _ in 0..12 {
            for action in [Action::Move("5e4d".to_owned()), Action::Takeback] {
                room.act(Some(token.clone()), action).await.unwrap();
            }
        }
        let last = room.view().await.unwrap().last_seq;
        assert!(last >= seated + 24, "{seated} then {last} events");
        // The first poll finds the channel lagged and waits for the room's
        // answer; the poll's future is dropped there.
        assert!(connection.next().now_or_never().is_none());
        let mut seqs = Vec::new();
        while seqs.last() != Some(&last) {
            let frame = tokio::time::timeout(Duration::from_secs(5), connection.next())
                .await
                .expect("the events come")
                .expect("the room stays open");
            seqs.push(frame.seq);
        }
        assert_eq!(seqs, (seated + 1..=last).collect::<Vec<_>>());
    }
}
