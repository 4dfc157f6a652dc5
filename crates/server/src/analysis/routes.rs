//! The analysis routes: `POST /analysis` (any game, as text), `GET
//! /analysis/{id}`, and `POST /rooms/{id}/analysis` (a room's finished game).

use std::net::SocketAddr;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rules::{AnyGame, Settings, Variant};
use serde::Deserialize;
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::view::AnalysisStarted;
use super::{AnalysisView, DEFAULT_MOVE_TIME, MAX_MOVE_TIME, MAX_MOVES, Request, RoomGame};
use crate::AppState;
use crate::api::{AppJson, RoomPath};
use crate::error::{ApiError, ErrorBody};
use crate::openapi::{self, status};
use crate::room::Refusal;
use crate::room_settings::{RoomSettings, SettingsChoice};

/// `POST /analysis` body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartAnalysis {
    /// The game.
    #[schema(value_type = openapi::VariantName)]
    variant: String,
    /// The start: SFEN, FEN, a shogi handicap name or `startpos` (the default).
    #[serde(default)]
    position: Option<String>,
    /// The moves from the start, USI (shogi family) or ICCS (xiangqi).
    #[serde(default)]
    #[schema(max_items = 600, examples(json!(["7g7f", "3c3d"])))]
    moves: Vec<String>,
    /// House rules, as rooms take them; missing keys keep their defaults.
    #[serde(default)]
    #[schema(value_type = Option<SettingsChoice>)]
    settings: Value,
    /// The search time per position, in milliseconds.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 3000, default = 300)]
    movetime_ms: Option<u64>,
}

/// `POST /rooms/{id}/analysis` body (optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartRoomAnalysis {
    /// The search time per position, in milliseconds.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 3000, default = 300)]
    movetime_ms: Option<u64>,
}

/// The analysis a request names.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub(crate) struct AnalysisPath {
    /// The id `POST /analysis` replied with.
    #[param(pattern = "^[0-9a-f]{32}$")]
    id: String,
}

/// The search time a request asks for, within bounds.
fn move_time(movetime_ms: Option<u64>) -> Result<Duration, ApiError> {
    let Some(ms) = movetime_ms else {
        return Ok(DEFAULT_MOVE_TIME);
    };
    let time = Duration::from_millis(ms);
    if ms == 0 || time > MAX_MOVE_TIME {
        return Err(ApiError::BadRequest(format!(
            "movetime_ms {ms} is not 1-{}",
            MAX_MOVE_TIME.as_millis()
        )));
    }
    Ok(time)
}

/// The game from `start` with `moves` checked, and the moves. An illegal
/// move is refused, whatever `illegal_move_loses` says: the game analysed
/// is the one given.
fn checked_game(
    variant: Variant,
    start: Option<&str>,
    settings: &Settings,
    moves: &[String],
) -> Result<(AnyGame, Vec<rules::AnyMove>), ApiError> {
    if moves.len() > MAX_MOVES {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_MOVES} moves per analysis, not {}",
            moves.len()
        )));
    }
    let settings = Settings {
        illegal_move_loses: false,
        ..settings.clone()
    };
    let start = AnyGame::new(variant, start, &settings)
        .map_err(|err| ApiError::BadRequest(err.to_string()))?;
    let mut game = start.clone();
    for (index, text) in moves.iter().enumerate() {
        game.play_text(text).map_err(|error| ApiError::BadMove {
            number: index + 1,
            text: text.clone(),
            error,
        })?;
    }
    Ok((start, game.moves()))
}

/// Analyse a game: every position from the start, searched by the engine.
///
/// Runs in the background, one position at a time, whenever no game waits
/// for the computer; ask `GET /analysis/{id}` how it goes.
#[utoipa::path(
    post,
    path = "/analysis",
    tag = "analysis",
    request_body = StartAnalysis,
    responses(
        (status = 202, description = "Queued: its id.", body = AnalysisStarted),
        (status = 413, description = status::TOO_LARGE, body = ErrorBody),
        (status = 422, description = "bad-request: the body, variant, setting, start position, move count or movetime_ms is refused; or the rule a move breaks (nifu, leaves-king-in-check ...) or bad-move-text, naming the move.", body = ErrorBody),
        (status = 429, description = "too-many: this address, or the server, has as many analyses queued or running as allowed.", body = ErrorBody),
    )
)]
pub(crate) async fn start_analysis(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    AppJson(body): AppJson<StartAnalysis>,
) -> Result<Response, ApiError> {
    let variant: Variant = body
        .variant
        .parse()
        .map_err(|err: rules::ParseVariantError| ApiError::BadRequest(err.to_string()))?;
    let settings = RoomSettings::from_json(&body.settings).map_err(ApiError::BadRequest)?;
    let move_time = move_time(body.movetime_ms)?;
    let (start, moves) = checked_game(
        variant,
        body.position.as_deref(),
        &settings.rules,
        &body.moves,
    )?;
    let id = state.analyses.start(Request {
        start,
        moves,
        move_time,
        address: peer.ip(),
        room: None,
    })?;
    Ok((StatusCode::ACCEPTED, Json(AnalysisStarted { id })).into_response())
}

/// An analysis as it stands: the positions analysed so far.
#[utoipa::path(
    get,
    path = "/analysis/{id}",
    tag = "analysis",
    params(AnalysisPath),
    responses(
        (status = 200, description = "The analysis.", body = AnalysisView),
        (status = 404, description = "analysis-not-found: no analysis with that id (or it ended more than an hour ago).", body = ErrorBody),
    )
)]
pub(crate) async fn analysis(
    State(state): State<AppState>,
    Path(AnalysisPath { id }): Path<AnalysisPath>,
) -> Result<Json<AnalysisView>, ApiError> {
    state
        .analyses
        .view(&id)
        .map(Json)
        .ok_or(ApiError::AnalysisNotFound(id))
}

/// Analyse the room's game; a finished game's analysis is kept with it.
///
/// The first request queues it (202, as `POST /analysis`; asking again
/// while it runs gives the same id); once done, the room replies with the
/// kept analysis at once (200). A game still being played is analysed only
/// when both seats agreed (`POST /rooms/{id}/analysis/agree`), and that
/// analysis of the moves so far is not kept: the engine must not help
/// either player unasked.
#[utoipa::path(
    post,
    path = "/rooms/{id}/analysis",
    tag = "analysis",
    params(RoomPath),
    request_body(content = Option<StartRoomAnalysis>, description = "Optional: an empty body searches each position for 300 ms."),
    responses(
        (status = 200, description = "The analysis kept with the game.", body = AnalysisView),
        (status = 202, description = "Queued (or already running): its id.", body = AnalysisStarted),
        (status = 404, description = status::ROOM_NOT_FOUND, body = ErrorBody),
        (status = 409, description = "game-not-over: the room's game is not finished and its seats did not both agree to analyse it; rated-game: it is rated and not finished.", body = ErrorBody),
        (status = 413, description = "The body is larger than the server accepts (plain text: axum's own rejection).", body = String, content_type = "text/plain"),
        (status = 422, description = "bad-request: the body is not a StartRoomAnalysis, movetime_ms is refused, or the game has more moves than an analysis takes (600).", body = ErrorBody),
        (status = 429, description = "too-many: this address, or the server, has as many analyses queued or running as allowed.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
        (status = 503, description = status::SHUTTING_DOWN, body = ErrorBody),
    )
)]
pub(crate) async fn room_analysis(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(RoomPath { id }): Path<RoomPath>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let body: StartRoomAnalysis = if body.iter().all(u8::is_ascii_whitespace) {
        StartRoomAnalysis::default()
    } else {
        serde_json::from_slice(&body).map_err(|err| ApiError::BadRequest(err.to_string()))?
    };
    let move_time = move_time(body.movetime_ms)?;
    let room = state.rooms.get(&id).await?;
    let played = room.game().await?;
    let finished = played.game.outcome().is_some();
    if !played.analysable {
        return Err(if played.rated {
            ApiError::Refused(Refusal::RatedGame)
        } else {
            ApiError::GameNotOver
        });
    }
    // Only a finished game's analysis is kept: one of a game still played
    // would not cover the moves to come.
    let game = finished.then_some(RoomGame {
        room: id,
        number: played.number,
    });
    if let Some(game) = &game
        && let Some(kept) = state.analyses.stored(game).await?
    {
        return Ok(Json(kept).into_response());
    }
    let moves = played.game.moves_text();
    let (start, moves) = checked_game(
        played.game.variant(),
        Some(&played.game.start_text()),
        played.game.settings(),
        &moves,
    )?;
    let id = state.analyses.start(Request {
        start,
        moves,
        move_time,
        address: peer.ip(),
        room: game,
    })?;
    Ok((StatusCode::ACCEPTED, Json(AnalysisStarted { id })).into_response())
}
