//! "My games": the rooms a player holds a seat in, newest first, for that
//! player alone. A room id is its invitation, so the list is private: it asks
//! for the player's credential, as renaming the player does.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::api::token;
use crate::error::{ApiError, ErrorBody};
use crate::identity::Identity;
use crate::openapi::{self, status};

/// The most games one page holds.
const MAX_LIMIT: i64 = 50;
/// The furthest a page may start from the newest game.
const MAX_OFFSET: i64 = 10_000;

/// `/players/{id}/games` path.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub(crate) struct GamesPath {
    /// The player's public id.
    id: String,
}

/// `?limit=20&offset=0`: a page of the list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct GamesQuery {
    /// How many games, 1 to 50.
    #[serde(default = "default_limit")]
    #[param(minimum = 1, maximum = 50, default = 20)]
    limit: i64,
    /// How many of the newest to skip, at most 10000.
    #[serde(default)]
    #[param(minimum = 0, maximum = 10000, default = 0)]
    offset: i64,
}

fn default_limit() -> i64 {
    20
}

/// The player's result in a room's last recorded game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PlayerResult {
    /// The player won.
    Win,
    /// The player lost.
    Loss,
    /// A draw.
    Draw,
}

/// Who sits in the other seat.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Opponent {
    /// Their public id (the player's own in a local room).
    player: String,
    /// Their display name, `null` for the computer (the page names it in the reader's language).
    #[schema(required = true)]
    name: Option<String>,
    /// Whether the computer holds the seat.
    computer: bool,
}

/// One room of the list.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PlayerGameView {
    /// The room id: the room page is `/rooms/{room}`, its replay `/replay?room={room}`.
    room: String,
    /// The game.
    #[schema(value_type = openapi::VariantName)]
    variant: String,
    /// How it is played.
    #[schema(value_type = openapi::ModeName)]
    mode: String,
    /// When the room was made, in unix milliseconds.
    created_at: i64,
    /// Whether the room's current game is over.
    finished: bool,
    /// The seat the player holds.
    #[schema(value_type = openapi::SideName)]
    seat: String,
    /// The other seat's player, `null` while it is free.
    #[schema(required = true)]
    opponent: Option<Opponent>,
    /// The player's result in the room's last recorded game; `null` before one.
    #[schema(required = true)]
    result: Option<PlayerResult>,
    /// That game's end reason (`checkmate`, `resignation` ...).
    #[schema(required = true)]
    reason: Option<String>,
}

/// The reply to `GET /players/{id}/games`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PlayerGames {
    /// The games, newest first.
    games: Vec<PlayerGameView>,
    /// Whether older games follow (ask again with `offset` + `limit`).
    more: bool,
}

/// The rooms a player holds a seat in, newest first (finished and running).
///
/// Only with the player's own credential: room ids are invitations.
#[utoipa::path(
    get,
    path = "/players/{id}/games",
    tag = "players",
    params(GamesPath, GamesQuery),
    security(("playerCredential" = [])),
    responses(
        (status = 200, description = "A page of the list.", body = PlayerGames),
        (status = 400, description = status::BAD_QUERY, body = String, content_type = "text/plain"),
        (status = 401, description = status::MISSING_CREDENTIAL, body = ErrorBody),
        (status = 403, description = status::WRONG_CREDENTIAL, body = ErrorBody),
        (status = 422, description = "bad-request: limit outside 1-50 or offset outside 0-10000.", body = ErrorBody),
        (status = 500, description = status::INTERNAL, body = ErrorBody),
    )
)]
pub(crate) async fn player_games(
    State(state): State<AppState>,
    Path(GamesPath { id }): Path<GamesPath>,
    Query(page): Query<GamesQuery>,
    headers: HeaderMap,
) -> Result<Json<PlayerGames>, ApiError> {
    if !(1..=MAX_LIMIT).contains(&page.limit) || !(0..=MAX_OFFSET).contains(&page.offset) {
        return Err(ApiError::BadRequest(format!(
            "limit must be 1 to {MAX_LIMIT} and offset 0 to {MAX_OFFSET}"
        )));
    }
    let secret = token(&headers, None);
    let identity = Identity::check(state.store.as_ref(), Some(id), secret.as_deref()).await?;
    // One more than asked says whether more follow.
    let mut rows = state
        .store
        .player_games(identity.player(), page.limit + 1, page.offset)
        .await?;
    let more = rows.len() > usize::try_from(page.limit).unwrap_or(usize::MAX);
    rows.truncate(usize::try_from(page.limit).unwrap_or(usize::MAX));
    let games = rows
        .into_iter()
        .map(|row| PlayerGameView {
            room: row.room_id,
            variant: row.variant,
            mode: row.mode,
            created_at: row.created_at,
            finished: row.finished != 0,
            seat: row.seat,
            opponent: row.opponent.map(|player| Opponent {
                computer: player == "computer",
                name: row.opponent_name,
                player,
            }),
            result: row.result.as_deref().and_then(|result| match result {
                "win" => Some(PlayerResult::Win),
                "loss" => Some(PlayerResult::Loss),
                "draw" => Some(PlayerResult::Draw),
                _ => None,
            }),
            reason: row.reason,
        })
        .collect();
    Ok(Json(PlayerGames { games, more }))
}
