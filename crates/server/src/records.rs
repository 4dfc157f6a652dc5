//! Game records for people: the moves as players write them (also the room
//! JSON's `notation`), and `POST /records`, which reads a record in any format
//! `koma convert` reads so the browser can replay it.

use axum::Json;
use axum::body::Bytes;
use axum::extract::Query;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use notation::{Headers, Record, Termination, chinese, japanese, western, wxf};
use rules::{AnyGame, AnyMove, AnyPosition, Settings, Side, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::openapi::{self, status};
use crate::room::Room;

/// The largest record `POST /records` reads: long games with comments and
/// times outgrow the limit on other requests.
pub(crate) const MAX_RECORD_BYTES: usize = 1 << 20;

/// The moves of a game as players write them, one entry per move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Notation {
    /// The shogi family: Japanese (`▲７六歩`, `△同　銀`) and Western
    /// (`P-7f`, `Bx2b+`, `S*5e`).
    Shogi {
        /// Japanese move text.
        japanese: Vec<String>,
        /// Western (Hodges) move text.
        western: Vec<String>,
    },
    /// Xiangqi: WXF (`C2.5`, `H2+3`) and Chinese (`炮二平五`, `马8进7`).
    Xiangqi {
        /// WXF move text.
        wxf: Vec<String>,
        /// Chinese move text.
        chinese: Vec<String>,
    },
}

impl Notation {
    /// The same without its first `count` moves.
    fn after(self, count: usize) -> Notation {
        let rest = |moves: Vec<String>| moves.into_iter().skip(count).collect();
        match self {
            Notation::Shogi { japanese, western } => Notation::Shogi {
                japanese: rest(japanese),
                western: rest(western),
            },
            Notation::Xiangqi { wxf, chinese } => Notation::Xiangqi {
                wxf: rest(wxf),
                chinese: rest(chinese),
            },
        }
    }
}

/// `line`, moves played from `game`'s position, as players write them. The
/// move that led to the position, with the position before it (`previous`),
/// is written first and dropped, so that Japanese text can say 同 (the same
/// square) after it as it does in the game.
pub(crate) fn line_notation(
    game: &AnyGame,
    previous: Option<&(AnyPosition, AnyMove)>,
    line: &[AnyMove],
) -> Option<Notation> {
    let (start, lead) = match previous {
        Some((before, mv)) => (before.clone(), Some(*mv)),
        None => (game.position(), None),
    };
    let mut played = AnyGame::from_position(start, game.settings().clone());
    for &mv in lead.iter().chain(line) {
        played.play(mv).ok()?;
    }
    Some(notation_of(&Record::from_game(&played)).after(usize::from(lead.is_some())))
}

/// One move as players write it: the entry it adds to each list of a
/// [`Notation`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum MoveNotation {
    /// The shogi family.
    Shogi {
        /// Japanese move text.
        japanese: String,
        /// Western (Hodges) move text.
        western: String,
    },
    /// Xiangqi.
    Xiangqi {
        /// WXF move text.
        wxf: String,
        /// Chinese move text.
        chinese: String,
    },
}

/// `mv` as players write it, played from `before` after `previous` (the
/// Japanese `同` names the square the previous move went to).
pub(crate) fn move_notation(
    before: &AnyPosition,
    mv: AnyMove,
    previous: Option<AnyMove>,
) -> Option<MoveNotation> {
    match (before, mv) {
        (AnyPosition::Shogi(pos), AnyMove::Shogi(mv)) => {
            let previous = match previous {
                Some(AnyMove::Shogi(last)) => Some(last.to()),
                _ => None,
            };
            Some(MoveNotation::Shogi {
                japanese: japanese::move_text(pos, mv, previous),
                western: western::move_text(pos, mv),
            })
        }
        (AnyPosition::Xiangqi(pos), AnyMove::Xiangqi(mv)) => Some(MoveNotation::Xiangqi {
            wxf: wxf::move_text(pos, mv),
            chinese: chinese::move_text(pos, mv),
        }),
        // A move of the other kind of game has no notation here.
        _ => None,
    }
}

/// The moves of `record` as players write them: Japanese and Western for the
/// shogi family, WXF and Chinese for xiangqi.
pub(crate) fn notation_of(record: &Record) -> Notation {
    let mut notation = match record.start() {
        AnyPosition::Shogi(_) => Notation::Shogi {
            japanese: Vec::new(),
            western: Vec::new(),
        },
        AnyPosition::Xiangqi(_) => Notation::Xiangqi {
            wxf: Vec::new(),
            chinese: Vec::new(),
        },
    };
    let mut previous = None;
    for (before, record_move) in record.plies() {
        let mv = record_move.mv();
        if let Some(text) = move_notation(&before, mv, previous) {
            notation.push(text);
        }
        previous = Some(mv);
    }
    notation
}

impl Notation {
    /// Adds one move's text to the lists of the same game.
    fn push(&mut self, text: MoveNotation) {
        match (self, text) {
            (
                Notation::Shogi { japanese, western },
                MoveNotation::Shogi {
                    japanese: ja,
                    western: we,
                },
            ) => {
                japanese.push(ja);
                western.push(we);
            }
            (
                Notation::Xiangqi { wxf, chinese },
                MoveNotation::Xiangqi {
                    wxf: w,
                    chinese: zh,
                },
            ) => {
                wxf.push(w);
                chinese.push(zh);
            }
            // A record holds moves of its own game only.
            _ => {}
        }
    }
}

/// The record a room's download is written from: the current game's start,
/// moves and result, the names of the seats that play each side, and the
/// date the game began (UTC).
pub(crate) fn room_record(room: &Room) -> Record {
    let mut record = Record::from_game(room.game());
    let name = |side| room.seat(room.seat_of(side)).map(|seat| seat.name.clone());
    record.headers.first = name(Side::First);
    record.headers.second = name(Side::Second);
    record.headers.start_time = record_date(room.game_began_at(), record.variant());
    record
}

/// Unix milliseconds as the records of `variant` write a date: KIF's 開始日時
/// and CSA's `$START_TIME` as `2026/12/03 23:40:18`, PGN's `Date` as `2026.12.03`.
fn record_date(unix_ms: i64, variant: Variant) -> Option<String> {
    let at = time::OffsetDateTime::from_unix_timestamp(unix_ms.div_euclid(1000)).ok()?;
    let (year, month, day) = (at.year(), u8::from(at.month()), at.day());
    Some(if variant.is_shogi_family() {
        let (hour, minute, second) = (at.hour(), at.minute(), at.second());
        format!("{year:04}/{month:02}/{day:02} {hour:02}:{minute:02}:{second:02}")
    } else {
        format!("{year:04}.{month:02}.{day:02}")
    })
}

/// How a recorded game ended, with the room JSON's codes.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RecordResult {
    /// The winner, `draw`, or `null` (no result, or an aborted game).
    #[schema(required = true, value_type = Option<crate::room::Winner>)]
    result: Option<&'static str>,
    /// The end reason's code (`checkmate`, `resignation`, `timeout` ...), or `null`.
    #[schema(required = true)]
    reason: Option<&'static str>,
}

/// How the recorded game ended: what the record says, else what the rules
/// say of the last position, else nulls.
fn result(record: &Record, settings: &Settings) -> RecordResult {
    if let Some(result) = record.result {
        let winner = match (result.winner, result.termination) {
            (Some(side), _) => Some(side.name()),
            (None, Termination::Abort) => None,
            (None, _) => Some("draw"),
        };
        let reason = result
            .outcome()
            .map_or(result.termination.code(), |outcome| outcome.reason.code());
        return RecordResult {
            result: winner,
            reason: Some(reason),
        };
    }
    let mut game = AnyGame::from_position(record.start().clone(), settings.clone());
    for mv in record.moves_text() {
        if game.play_text(&mv).is_err() {
            break;
        }
    }
    RecordResult {
        result: game
            .outcome()
            .map(|outcome| outcome.winner.map_or("draw", Side::name)),
        reason: game.outcome().map(|outcome| outcome.reason.code()),
    }
}

/// A record's headers, each `null` when the record has none.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RecordHeaders {
    /// The first player's name (Sente, Red).
    #[schema(required = true)]
    first: Option<String>,
    /// The second player's name (Gote, Black).
    #[schema(required = true)]
    second: Option<String>,
    /// The event (tournament, match).
    #[schema(required = true)]
    event: Option<String>,
    /// Where it was played.
    #[schema(required = true)]
    site: Option<String>,
    /// When it started, as the record writes it.
    #[schema(required = true)]
    start_time: Option<String>,
    /// When it ended, as the record writes it.
    #[schema(required = true)]
    end_time: Option<String>,
    /// The time control, as the record writes it.
    #[schema(required = true)]
    time_control: Option<String>,
    /// The opening's name.
    #[schema(required = true)]
    opening: Option<String>,
    /// Every other header as a `[key, value]` pair, in the record's order.
    #[schema(value_type = Vec<Vec<String>>)]
    other: Vec<(String, String)>,
}

impl RecordHeaders {
    fn new(headers: &Headers) -> RecordHeaders {
        RecordHeaders {
            first: headers.first.clone(),
            second: headers.second.clone(),
            event: headers.event.clone(),
            site: headers.site.clone(),
            start_time: headers.start_time.clone(),
            end_time: headers.end_time.clone(),
            time_control: headers.time_control.clone(),
            opening: headers.opening.clone(),
            other: headers.other.clone(),
        }
    }
}

/// The reply to `POST /records`: the game for replaying.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ImportedRecord {
    /// The game.
    #[schema(value_type = openapi::VariantName)]
    variant: Variant,
    /// The start position, SFEN or FEN.
    start: String,
    /// The moves in USI or ICCS.
    moves: Vec<String>,
    /// The moves as players write them.
    notation: Notation,
    /// What the record says (else what the rules say of the last position).
    result: RecordResult,
    /// The record's headers.
    headers: RecordHeaders,
    /// The comments before the first move (KIF `*` lines, CSA `'` lines), one per line.
    start_comments: Vec<String>,
    /// The comments after each move, one list of lines per move (empty when none).
    comments: Vec<Vec<String>>,
}

/// Read a game record for replaying.
///
/// The body is the record's text or bytes: KIF (UTF-8 or Shift_JIS), KI2,
/// CSA V2.2, a position line (startpos/sfen/fen ... moves ...) or a xiangqi
/// PGN, detected as `koma convert` does. At most 1 MiB.
#[utoipa::path(
    post,
    path = "/records",
    tag = "records",
    params(
        ("variant" = Option<openapi::VariantName>, Query, description = "The game, when the record cannot name it."),
        ("rules" = Option<HashMap<String, String>>, Query, style = Form, explode, description = "House rules the record does not state, as KEY=VALUE query parameters (annan_setup, annan_dead_piece ...)."),
    ),
    request_body(content = String, content_type = "text/plain", description = "The record."),
    responses(
        (status = 200, description = "The game.", body = ImportedRecord),
        (status = 413, description = status::TOO_LARGE, body = ErrorBody),
        (status = 422, description = "bad-record (the message names line and column), or bad-request for an empty body, a bad variant or rule.", body = ErrorBody),
    )
)]
pub(crate) async fn import(
    Query(query): Query<Vec<(String, String)>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<ImportedRecord>, ApiError> {
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
    Ok(Json(ImportedRecord {
        variant: record.variant(),
        start: record.start().to_string(),
        moves: record.moves_text(),
        notation: notation_of(&record),
        result: result(&record, &settings),
        headers: RecordHeaders::new(&record.headers),
        start_comments: record.comments.clone(),
        comments: record.moves().iter().map(|m| m.comments.clone()).collect(),
    }))
}

#[cfg(test)]
mod tests {
    use rules::Variant;

    use super::record_date;

    #[test]
    fn record_dates_are_utc_in_each_records_form() {
        let date = |ms, variant| record_date(ms, variant).unwrap();
        assert_eq!(date(0, Variant::Shogi), "1970/01/01 00:00:00");
        let later = 1_796_341_218_999;
        assert_eq!(date(later, Variant::Minishogi), "2026/12/03 23:40:18");
        assert_eq!(date(later, Variant::Xiangqi), "2026.12.03");
    }
}
