//! One error type for the API, mapped to a status and a `{code, message}` body
//! in one place.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rules::PlayError;
use serde::Serialize;
use store::StoreError;
use utoipa::ToSchema;

use crate::room::Refusal;

/// Why a request failed. Each names its reason for the client.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No room with that id.
    #[error("no room with id '{0}'")]
    RoomNotFound(String),
    /// No player with that id.
    #[error("no player with id '{0}'")]
    PlayerNotFound(String),
    /// No analysis with that id (or it was forgotten).
    #[error("no analysis with id '{0}'")]
    AnalysisNotFound(String),
    /// A room's game is analysed once it is over, or while it is played
    /// when both seats agreed.
    #[error(
        "the game is not over: it is analysed once finished, or now if both seats agree (POST /api/v1/rooms/{{id}}/analysis/agree)"
    )]
    GameNotOver,
    /// A move of a list cannot be played.
    #[error("move {number} ({text}): {error}")]
    BadMove {
        /// Its place in the list, from 1.
        number: usize,
        /// The move as given.
        text: String,
        /// Why.
        error: PlayError,
    },
    /// The request needs a seat token and has none.
    #[error("this needs a seat token: send 'Authorization: Bearer <token>'")]
    MissingToken,
    /// The token is not one of this room's seat tokens.
    #[error("the token holds no seat in this room")]
    WrongToken,
    /// A player is named without their credential.
    #[error(
        "naming a player needs their credential ('player_secret', or 'Authorization: Bearer <credential>' for the player's own routes); leave out the player id to be given a new one"
    )]
    MissingCredential,
    /// The credential is not the named player's.
    #[error("the credential does not prove that player")]
    WrongCredential,
    /// The room refused the command (its turn, a free seat, the rules ...).
    #[error("{0}")]
    Refused(#[from] Refusal),
    /// A malformed request (JSON, settings, variant, position ...).
    #[error("{0}")]
    BadRequest(String),
    /// A game record that cannot be read: where, and why.
    #[error("{0}")]
    BadRecord(#[from] notation::ParseRecordError),
    /// The body is larger than the server accepts.
    #[error("the request is larger than the server accepts")]
    TooLarge,
    /// A limit on rooms or messages was reached.
    #[error("{0}")]
    TooMany(String),
    /// The server is shutting down.
    #[error("the server is shutting down")]
    ShuttingDown,
    /// Another node of the cluster plays the room; it is reached at this URL.
    #[error("the room is played by the node at {0}")]
    Elsewhere(String),
    /// The room is passing from one node of the cluster to another (its
    /// owner stopped or cannot be reached): a moment later it is played again.
    #[error("the room is moving to another node: try again in a moment")]
    RoomMoving,
    /// The database failed (the message says why, so it names no `source`).
    #[error("store: {0}")]
    Store(StoreError),
    /// The database holds a room this build cannot read.
    #[error("stored room cannot be read: {0}")]
    Stored(String),
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> ApiError {
        ApiError::Store(err)
    }
}

/// The JSON body of every error response and WebSocket error frame: `code`
/// is stable, `message` is for people.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// A stable kebab-case name of the error (for an illegal move, the rule:
    /// `nifu`, `uchifuzume`, `leaves-king-in-check`, `flying-general` ...).
    #[schema(examples("room-not-found", "not-your-turn", "nifu"))]
    pub code: &'static str,
    /// A sentence for people.
    pub message: String,
}

impl ApiError {
    /// The stable kebab-case name clients match on.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::RoomNotFound(_) => "room-not-found",
            ApiError::PlayerNotFound(_) => "player-not-found",
            ApiError::AnalysisNotFound(_) => "analysis-not-found",
            ApiError::GameNotOver => "game-not-over",
            ApiError::BadMove { error, .. } => match error {
                PlayError::Parse(_) => "bad-move-text",
                PlayError::Illegal { reason, .. } => reason.code(),
            },
            ApiError::MissingToken => "missing-token",
            ApiError::WrongToken => "wrong-token",
            ApiError::MissingCredential => "missing-credential",
            ApiError::WrongCredential => "wrong-credential",
            ApiError::Refused(refusal) => match refusal {
                Refusal::NotSeated => "wrong-token",
                Refusal::NotYourTurn => "not-your-turn",
                Refusal::NoFreeSeat => "no-free-seat",
                Refusal::NotPlaying(_) | Refusal::Stale => "not-playing",
                Refusal::Move(PlayError::Parse(_)) => "bad-move-text",
                Refusal::Move(PlayError::Illegal { reason, .. }) => reason.code(),
                Refusal::Impasse(_) => "impasse-refused",
                Refusal::NoTakeback(_) => "no-takeback",
                Refusal::NoChat(_) => "chat-off",
                Refusal::ChatTooSoon => "too-many",
                Refusal::RatedGame => "rated-game",
            },
            ApiError::BadRequest(_) => "bad-request",
            ApiError::BadRecord(_) => "bad-record",
            ApiError::TooLarge => "too-large",
            ApiError::TooMany(_) => "too-many",
            ApiError::ShuttingDown => "shutting-down",
            ApiError::Elsewhere(_) | ApiError::RoomMoving | ApiError::Store(StoreError::Fenced) => {
                "room-moving"
            }
            ApiError::Store(_) | ApiError::Stored(_) => "internal",
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::RoomNotFound(_)
            | ApiError::PlayerNotFound(_)
            | ApiError::AnalysisNotFound(_) => StatusCode::NOT_FOUND,
            ApiError::GameNotOver => StatusCode::CONFLICT,
            ApiError::BadMove { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::MissingToken | ApiError::MissingCredential => StatusCode::UNAUTHORIZED,
            ApiError::WrongToken | ApiError::WrongCredential => StatusCode::FORBIDDEN,
            ApiError::Refused(refusal) => match refusal {
                Refusal::NotSeated => StatusCode::FORBIDDEN,
                Refusal::NotYourTurn
                | Refusal::NoFreeSeat
                | Refusal::NotPlaying(_)
                | Refusal::Stale
                | Refusal::NoTakeback(_)
                | Refusal::NoChat(_)
                | Refusal::RatedGame => StatusCode::CONFLICT,
                Refusal::ChatTooSoon => StatusCode::TOO_MANY_REQUESTS,
                Refusal::Move(_) | Refusal::Impasse(_) => StatusCode::UNPROCESSABLE_ENTITY,
            },
            ApiError::BadRequest(_) | ApiError::BadRecord(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::ShuttingDown
            | ApiError::Elsewhere(_)
            | ApiError::RoomMoving
            | ApiError::Store(StoreError::Fenced) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Store(_) | ApiError::Stored(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The body: the real message for client errors and for a server that
    /// stops or a room that moves (the client retries), a generic one (with
    /// the detail logged once, here) for failures.
    pub fn body(&self) -> ErrorBody {
        let message = match self {
            ApiError::Elsewhere(_) | ApiError::Store(StoreError::Fenced) => {
                ApiError::RoomMoving.to_string()
            }
            _ if self.status() == StatusCode::INTERNAL_SERVER_ERROR => {
                tracing::error!(error = %self, "request failed");
                "internal error".to_owned()
            }
            _ => self.to_string(),
        };
        ErrorBody {
            code: self.code(),
            message,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status(), Json(self.body())).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moving_room_says_so_and_a_failure_says_nothing_of_itself() {
        let fenced = ApiError::Store(StoreError::Fenced).body();
        assert_eq!(fenced.code, "room-moving");
        assert_eq!(fenced.message, ApiError::RoomMoving.to_string());
        let elsewhere = ApiError::Elsewhere("http://10.0.0.2:8080".to_owned()).body();
        assert!(
            !elsewhere.message.contains("10.0.0.2"),
            "{}",
            elsewhere.message
        );
        assert_eq!(
            ApiError::ShuttingDown.body().message,
            "the server is shutting down"
        );
        let failed = ApiError::Stored("bad row 7".to_owned()).body();
        assert_eq!(
            (failed.code, failed.message.as_str()),
            ("internal", "internal error")
        );
    }
}
