//! Game records for people: the moves as players write them (also the room
//! JSON's `notation`), and `POST /records`, which reads a record in any format
//! `koma convert` reads so the browser can replay it.

use axum::Json;
use axum::body::Bytes;
use axum::extract::Query;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use notation::{Headers, Record, Termination, japanese, western, wxf};
use rules::{AnyGame, AnyMove, AnyPosition, Settings, Side, Variant};
use serde_json::{Value, json};

use crate::error::ApiError;

/// The largest record `POST /records` reads: long games with comments and
/// times outgrow the limit on other requests.
pub(crate) const MAX_RECORD_BYTES: usize = 1 << 20;

/// The moves of a game as players write them, one entry per move.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Notation {
    /// The shogi family: Japanese (`▲７六歩`) and Western (`P-7f`).
    Shogi {
        /// Japanese move text.
        japanese: Vec<String>,
        /// Western (Hodges) move text.
        western: Vec<String>,
    },
    /// Xiangqi: WXF (`C2.5`).
    Xiangqi {
        /// WXF move text.
        wxf: Vec<String>,
    },
}

/// The moves of `record` as players write them: Japanese and Western for the
/// shogi family, WXF for xiangqi.
pub(crate) fn notation_of(record: &Record) -> Notation {
    let mut japanese_moves = Vec::new();
    let mut western_moves = Vec::new();
    let mut wxf_moves = Vec::new();
    let mut previous = None;
    for (before, record_move) in record.plies() {
        match (before, record_move.mv()) {
            (AnyPosition::Shogi(pos), AnyMove::Shogi(mv)) => {
                japanese_moves.push(japanese::move_text(&pos, mv, previous));
                western_moves.push(western::move_text(&pos, mv));
                previous = Some(mv.to());
            }
            (AnyPosition::Xiangqi(pos), AnyMove::Xiangqi(mv)) => {
                wxf_moves.push(wxf::move_text(&pos, mv));
            }
            // A record holds moves of its own game only.
            _ => {}
        }
    }
    match record.start() {
        AnyPosition::Shogi(_) => Notation::Shogi {
            japanese: japanese_moves,
            western: western_moves,
        },
        AnyPosition::Xiangqi(_) => Notation::Xiangqi { wxf: wxf_moves },
    }
}

/// How the recorded game ended, with the room JSON's codes: what the record
/// says, else what the rules say of the last position, else nulls.
fn result_json(record: &Record, settings: &Settings) -> Value {
    if let Some(result) = record.result {
        let winner = match (result.winner, result.termination) {
            (Some(side), _) => Some(side.name()),
            (None, Termination::Abort) => None,
            (None, _) => Some("draw"),
        };
        let reason = result
            .outcome()
            .map_or(result.termination.code(), |outcome| outcome.reason.code());
        return json!({"result": winner, "reason": reason});
    }
    let mut game = AnyGame::from_position(record.start().clone(), settings.clone());
    for mv in record.moves_text() {
        if game.play_text(&mv).is_err() {
            break;
        }
    }
    match game.outcome() {
        Some(outcome) => json!({
            "result": outcome.winner.map_or("draw", Side::name),
            "reason": outcome.reason.code(),
        }),
        None => json!({"result": null, "reason": null}),
    }
}

fn headers_json(headers: &Headers) -> Value {
    json!({
        "first": headers.first,
        "second": headers.second,
        "event": headers.event,
        "site": headers.site,
        "start_time": headers.start_time,
        "end_time": headers.end_time,
        "time_control": headers.time_control,
        "opening": headers.opening,
        "other": headers.other,
    })
}

/// `POST /records?variant=V&KEY=VALUE...` with a record as the body (KIF in
/// UTF-8 or Shift_JIS, KI2, CSA, a position line, a xiangqi PGN) → the game
/// for replaying: `{variant, start, moves, notation, result, headers}`.
pub(crate) async fn import(
    Query(query): Query<Vec<(String, String)>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge
        } else {
            ApiError::BadRequest(rejection.body_text())
        }
    })?;
    let mut variant = None;
    let mut settings = Settings::default();
    for (key, value) in &query {
        if key == "variant" {
            let parsed: Variant = value
                .parse()
                .map_err(|err: rules::ParseVariantError| ApiError::BadRequest(err.to_string()))?;
            variant = Some(parsed);
        } else {
            settings
                .set(key, value)
                .map_err(|err| ApiError::BadRequest(err.to_string()))?;
        }
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::BadRequest(
            "the body is empty: send the record's text".to_owned(),
        ));
    }
    let record = Record::parse_with(&body, variant, &settings)?;
    Ok(Json(json!({
        "variant": record.variant().name(),
        "start": record.start().to_string(),
        "moves": record.moves_text(),
        "notation": notation_of(&record),
        "result": result_json(&record, &settings),
        "headers": headers_json(&record.headers),
    })))
}
