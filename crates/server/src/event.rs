//! Room events as JSON: what the WebSocket and the events stream carry and
//! what the store keeps. The room itself works with the typed
//! [`room::Event`](crate::room::Event); this module writes it and reads it back.

use std::cell::RefCell;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;

use rules::{AnyGame, EndReason, Outcome, Side};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::openapi::SideName;
use crate::records::MoveNotation;
use crate::room::{AfterView, Event, EventKind, Phrase, Winner};

/// One event as JSON: `{"seq": 7, "at": 1700000000000, "type": "move", ...}`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, ToSchema)]
#[schema(as = Event)]
pub struct EventJson {
    /// 1, 2, 3 ... per room; a client that reconnects sends the last it saw.
    pub seq: u64,
    /// When it happened, in unix milliseconds.
    pub at: i64,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKindJson,
    /// A move as players write it: sent live with a `move` (never stored).
    #[serde(
        default,
        deserialize_with = "live_only",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = MoveNotation, required = false)]
    pub notation: Option<MoveNotation>,
    /// What the room shows after the event: sent live with every event, so
    /// that a page applies the event without fetching the room; absent from
    /// events read back from the store (never stored).
    #[serde(
        default,
        deserialize_with = "live_only",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = AfterView, required = false)]
    pub after: Option<AfterView>,
}

/// What happened, by `type`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = EventKind)]
pub enum EventKindJson {
    /// A seat was taken.
    Seated {
        /// The seat: `first` or `second`.
        #[schema(value_type = SideName)]
        seat: Side,
        /// The player's anonymous id.
        player: String,
        /// The player's display name.
        name: String,
        /// Whether the seat is the computer's.
        computer: bool,
    },
    /// A move was played (or, under `illegal_move_loses`, tried and lost).
    Move {
        /// The number of the move in the game, from 1.
        ply: usize,
        /// Who played it.
        #[schema(value_type = SideName)]
        side: Side,
        /// The move in USI (shogi family) or ICCS (xiangqi).
        #[serde(rename = "move")]
        mv: String,
        /// Whether the computer chose it (computer seat or away player).
        computer: bool,
    },
    /// A player offered a draw; the other accepts by offering too.
    DrawOffered {
        /// Who offered.
        #[schema(value_type = SideName)]
        side: Side,
    },
    /// The computer declined the draw offered to it (by its evaluation).
    DrawDeclined {
        /// The side that declined.
        #[schema(value_type = SideName)]
        side: Side,
    },
    /// The game ended.
    End {
        /// `first`, `second` or `draw`.
        #[schema(value_type = Winner)]
        result: String,
        /// The end reason's code (`checkmate`, `resignation`, `timeout` ...).
        reason: String,
        /// Who resigned, ran out of time or claimed the impasse, when someone did.
        #[schema(required = true, value_type = Option<SideName>)]
        by: Option<Side>,
    },
    /// A seat asked for another game; the other seat agrees by asking too.
    RematchOffered {
        /// The seat that asked.
        #[schema(value_type = SideName)]
        seat: Side,
    },
    /// A new game began in the room (a rematch, or the replay of a shogi
    /// repetition draw) from the room's start position.
    NewGame {
        /// Its number: 2 for the first rematch ...
        game: u32,
        /// Whether the seats play the opposite sides to their names in it.
        swapped: bool,
    },
    /// A seated player's connections are all gone: the computer takes over
    /// after `grace_ms` unless they come back.
    Away {
        /// The seat.
        #[schema(value_type = SideName)]
        seat: Side,
        /// The grace period in milliseconds.
        grace_ms: u64,
    },
    /// The computer plays for an away player from now on.
    Takeover {
        /// The seat.
        #[schema(value_type = SideName)]
        seat: Side,
    },
    /// An away player is back.
    Back {
        /// The seat.
        #[schema(value_type = SideName)]
        seat: Side,
    },
    /// A seat asked to take back its last move; the other seat accepts by
    /// asking too (`POST /rooms/{id}/takeback`), or declines.
    TakebackOffered {
        /// The seat that asked.
        #[schema(value_type = SideName)]
        seat: Side,
    },
    /// The seat asked declined the takeback.
    TakebackDeclined {
        /// The seat that declined.
        #[schema(value_type = SideName)]
        seat: Side,
    },
    /// Moves were taken back: the game goes on from its first `ply` moves,
    /// the side to move's turn starting afresh (time spent is not given back).
    TakenBack {
        /// How many moves of the game remain.
        ply: usize,
    },
    /// A seat asked to analyse the game being played; the other seat agrees
    /// by asking too (`POST /rooms/{id}/analysis/agree`).
    AnalysisOffered {
        /// The seat that asked.
        #[schema(value_type = SideName)]
        seat: Side,
    },
    /// Both seats agreed: the game being played may be analysed
    /// (`POST /rooms/{id}/analysis`) until it ends.
    AnalysisAgreed,
    /// A seated player of an online room sent a quick-chat phrase (its id:
    /// the page shows it in the reader's language).
    Chat {
        /// The seat.
        #[schema(value_type = SideName)]
        seat: Side,
        /// The phrase.
        phrase: Phrase,
    },
    /// A seated player took a new display name.
    Renamed {
        /// The seat.
        #[schema(value_type = SideName)]
        seat: Side,
        /// The new name.
        name: String,
    },
}

/// Reads past a field that only live events carry: what the store keeps is
/// the event alone.
fn live_only<'de, D: serde::Deserializer<'de>, T>(reader: D) -> Result<Option<T>, D::Error> {
    serde::de::IgnoredAny::deserialize(reader)?;
    Ok(None)
}

impl From<&Event> for EventJson {
    fn from(event: &Event) -> EventJson {
        let kind = match event.kind.clone() {
            EventKind::Seated {
                seat,
                player,
                name,
                computer,
            } => EventKindJson::Seated {
                seat,
                player,
                name,
                computer,
            },
            EventKind::Move {
                ply,
                side,
                mv,
                computer,
            } => EventKindJson::Move {
                ply,
                side,
                mv: mv.to_string(),
                computer,
            },
            EventKind::DrawOffered { side } => EventKindJson::DrawOffered { side },
            EventKind::DrawDeclined { side } => EventKindJson::DrawDeclined { side },
            EventKind::End { outcome, by } => EventKindJson::End {
                result: outcome.winner.map_or("draw", Side::name).to_owned(),
                reason: outcome.reason.code().to_owned(),
                by,
            },
            EventKind::RematchOffered { seat } => EventKindJson::RematchOffered { seat },
            EventKind::NewGame { game, swapped } => EventKindJson::NewGame { game, swapped },
            EventKind::Away { seat, grace_ms } => EventKindJson::Away { seat, grace_ms },
            EventKind::Takeover { seat } => EventKindJson::Takeover { seat },
            EventKind::Back { seat } => EventKindJson::Back { seat },
            EventKind::TakebackOffered { seat } => EventKindJson::TakebackOffered { seat },
            EventKind::TakebackDeclined { seat } => EventKindJson::TakebackDeclined { seat },
            EventKind::TakenBack { ply } => EventKindJson::TakenBack { ply },
            EventKind::AnalysisOffered { seat } => EventKindJson::AnalysisOffered { seat },
            EventKind::AnalysisAgreed => EventKindJson::AnalysisAgreed,
            EventKind::Chat { seat, phrase } => EventKindJson::Chat { seat, phrase },
            EventKind::Renamed { seat, name } => EventKindJson::Renamed { seat, name },
        };
        EventJson {
            seq: event.seq,
            at: event.at,
            kind,
            notation: None,
            after: None,
        }
    }
}

impl EventJson {
    /// The event as the store keeps it: one line of JSON, written into a
    /// string sized for a move's event (about a hundred bytes) instead of
    /// one grown from nothing.
    pub fn stored(&self) -> String {
        let mut json = Vec::with_capacity(128);
        serde_json::to_writer(&mut json, self).expect("an event's JSON has only string keys");
        String::from_utf8(json).expect("JSON is UTF-8")
    }

    /// The typed event, read in the context of the room's game as it stands
    /// before the event: a move is read on its board, and an end that moves
    /// decide must be the end the moves give.
    ///
    /// # Errors
    /// A message naming what does not fit.
    pub fn into_event(self, game: &AnyGame) -> Result<Event, String> {
        let kind = match self.kind {
            EventKindJson::Seated {
                seat,
                player,
                name,
                computer,
            } => EventKind::Seated {
                seat,
                player,
                name,
                computer,
            },
            EventKindJson::Move {
                ply,
                side,
                mv,
                computer,
            } => EventKind::Move {
                ply,
                side,
                mv: game.parse_move(&mv).map_err(|err| err.to_string())?,
                computer,
            },
            EventKindJson::DrawOffered { side } => EventKind::DrawOffered { side },
            EventKindJson::DrawDeclined { side } => EventKind::DrawDeclined { side },
            EventKindJson::End { result, reason, by } => EventKind::End {
                outcome: stored_outcome(game, &result, &reason)?,
                by,
            },
            EventKindJson::RematchOffered { seat } => EventKind::RematchOffered { seat },
            EventKindJson::NewGame { game, swapped } => EventKind::NewGame { game, swapped },
            EventKindJson::Away { seat, grace_ms } => EventKind::Away { seat, grace_ms },
            EventKindJson::Takeover { seat } => EventKind::Takeover { seat },
            EventKindJson::Back { seat } => EventKind::Back { seat },
            EventKindJson::TakebackOffered { seat } => EventKind::TakebackOffered { seat },
            EventKindJson::TakebackDeclined { seat } => EventKind::TakebackDeclined { seat },
            EventKindJson::TakenBack { ply } if ply < game.ply() => EventKind::TakenBack { ply },
            EventKindJson::TakenBack { ply } => {
                return Err(format!(
                    "a takeback to move {ply} in a game of {} moves",
                    game.ply()
                ));
            }
            EventKindJson::AnalysisOffered { seat } => EventKind::AnalysisOffered { seat },
            EventKindJson::AnalysisAgreed => EventKind::AnalysisAgreed,
            EventKindJson::Chat { seat, phrase } => EventKind::Chat { seat, phrase },
            EventKindJson::Renamed { seat, name } => EventKind::Renamed { seat, name },
        };
        Ok(Event {
            seq: self.seq,
            at: self.at,
            kind,
        })
    }
}

/// The outcome an `end` event names: a player's act or absence (resignation,
/// timeout, agreement, impasse, abandonment) as written, any other end as the
/// moves gave it.
fn stored_outcome(game: &AnyGame, result: &str, reason: &str) -> Result<Outcome, String> {
    let winner = match result {
        "draw" => None,
        side => Some(side.parse::<Side>().map_err(|err| err.to_string())?),
    };
    let by_act = [
        EndReason::Resignation,
        EndReason::Timeout,
        EndReason::Agreement,
        EndReason::Impasse,
        EndReason::Abandoned,
    ];
    if let Some(reason) = by_act.into_iter().find(|r| r.code() == reason) {
        return Ok(Outcome { winner, reason });
    }
    match game.outcome() {
        Some(outcome) if outcome.reason.code() == reason && outcome.winner == winner => Ok(outcome),
        other => Err(format!(
            "end '{result}' by '{reason}' is not what the moves give ({})",
            other.map_or_else(|| "no end".to_owned(), |outcome| outcome.to_string())
        )),
    }
}

/// An event serialised once and shared by every connection that sends it:
/// sending it to a socket copies no bytes.
#[derive(Debug)]
pub struct Frame {
    /// The event's number.
    pub seq: u64,
    /// The event as one line of JSON.
    pub json: Utf8Bytes,
}

impl Frame {
    /// The frame of a live event: `stored`, the event's JSON as the store
    /// keeps it, with what only live events carry (a move's `notation`, the
    /// room's `after`) written in before its closing brace. The same object
    /// as [`EventJson`] with both set, without serialising the event twice.
    ///
    /// Written into a buffer each thread keeps, then copied once at its
    /// length: the room keeps its last frames, and a string written by
    /// growing holds up to twice its bytes (which the frame's shared bytes
    /// would keep), after reallocating at every doubling.
    pub fn live(
        seq: u64,
        stored: &str,
        notation: Option<&MoveNotation>,
        after: &AfterView,
    ) -> Arc<Frame> {
        thread_local! {
            static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        }
        BUFFER.with_borrow_mut(|buffer| {
            buffer.clear();
            let open = stored
                .strip_suffix('}')
                .expect("an event's JSON is an object");
            buffer.extend_from_slice(open.as_bytes());
            if let Some(notation) = notation {
                buffer.extend_from_slice(b",\"notation\":");
                serde_json::to_writer(&mut *buffer, notation).expect("a notation is JSON");
            }
            buffer.extend_from_slice(b",\"after\":");
            serde_json::to_writer(&mut *buffer, after).expect("a room's view is JSON");
            buffer.push(b'}');
            let json = std::str::from_utf8(buffer).expect("JSON is UTF-8");
            Arc::new(Frame {
                seq,
                json: json.to_owned().into(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use rules::{AnyMove, Settings, Variant};

    use super::*;

    #[test]
    fn events_are_flat_json_with_a_type_and_read_back() {
        let game = AnyGame::new(Variant::Shogi, None, &Settings::default()).unwrap();
        let event = Event {
            seq: 3,
            at: 10,
            kind: EventKind::Move {
                ply: 1,
                side: Side::First,
                mv: game.parse_move("7g7f").unwrap(),
                computer: false,
            },
        };
        let json = serde_json::to_value(EventJson::from(&event)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"seq": 3, "at": 10, "type": "move", "ply": 1, "side": "first",
                "move": "7g7f", "computer": false})
        );
        let read: EventJson = serde_json::from_value(json).unwrap();
        assert_eq!(read.into_event(&game).unwrap(), event);
    }

    #[test]
    fn what_only_live_events_carry_is_dropped_when_read_back() {
        let game = AnyGame::new(Variant::Shogi, None, &Settings::default()).unwrap();
        let live = serde_json::json!({"seq": 3, "at": 10, "type": "move", "ply": 1,
            "side": "first", "move": "7g7f", "computer": false,
            "notation": {"japanese": "▲７六歩", "western": "P-7f"},
            "after": {"position": "whatever the sender says"}});
        let read: EventJson = serde_json::from_value(live).unwrap();
        assert_eq!((read.notation.clone(), read.after.clone()), (None, None));
        let stored = serde_json::to_value(&read).unwrap();
        assert!(stored.get("notation").is_none() && stored.get("after").is_none());
        assert_eq!(read.into_event(&game).unwrap().seq, 3);
    }

    #[test]
    fn a_live_frame_is_the_event_with_its_notation_and_after() {
        use crate::room::testing;
        use crate::room::{Action, Command, Connections};
        use crate::room_settings::RoomSettings;

        let connections = Connections {
            seats: [1, 0],
            spectators: 2,
        };
        let mut room = testing::playing(Variant::Shogi, RoomSettings::default());
        for (ply, (seat, mv)) in [(Side::First, "7g7f"), (Side::Second, "3c3d")]
            .into_iter()
            .enumerate()
        {
            let command = Command::Act {
                seats: vec![seat],
                action: Action::Move(mv.to_owned()),
            };
            let now = 1_000 * i64::try_from(ply).unwrap();
            for event in room.decide(&command, now).unwrap() {
                let mut json = EventJson::from(&event);
                let stored = json.stored();
                json.notation = room.notation_of(&event.kind);
                room.apply(&event);
                json.after = Some(room.after_view(&connections, now));
                let frame = Frame::live(
                    event.seq,
                    &stored,
                    json.notation.as_ref(),
                    &room.after_view(&connections, now),
                );
                let live: serde_json::Value = serde_json::from_str(&frame.json).unwrap();
                assert_eq!(live, serde_json::to_value(&json).unwrap());
                assert_eq!(frame.seq, event.seq);
                // The legal moves, written from the moves, as the rules write them.
                let legal = serde_json::to_value(room.game().legal_moves_text()).unwrap();
                assert_eq!(live["after"]["legal_moves"], legal);
            }
        }
        // Events without a notation carry none.
        let event = Event {
            seq: 9,
            at: 5,
            kind: EventKind::DrawOffered { side: Side::First },
        };
        let stored = EventJson::from(&event).stored();
        let frame = Frame::live(9, &stored, None, &room.after_view(&connections, 5));
        let live: serde_json::Value = serde_json::from_str(&frame.json).unwrap();
        assert_eq!(live["type"], "draw_offered");
        assert!(live.get("notation").is_none() && live["after"].is_object());
    }

    #[test]
    fn an_end_that_the_moves_do_not_give_is_refused() {
        let game = AnyGame::new(Variant::Xiangqi, None, &Settings::default()).unwrap();
        let err = stored_outcome(&game, "first", "checkmate").unwrap_err();
        assert!(err.contains("not what the moves give"), "{err}");
        let resigned = stored_outcome(&game, "second", "resignation").unwrap();
        assert_eq!(resigned, Outcome::win(Side::Second, EndReason::Resignation));
        assert!(stored_outcome(&game, "nobody", "resignation").is_err());
        assert!(matches!(
            game.parse_move("h2e2").unwrap(),
            AnyMove::Xiangqi(_)
        ));
    }

    #[test]
    fn a_takeback_to_a_move_the_game_has_not_reached_is_refused() {
        let mut game = AnyGame::new(Variant::Shogi, None, &Settings::default()).unwrap();
        game.play_text("7g7f").unwrap();
        let stored = |ply| EventJson {
            seq: 9,
            at: 0,
            kind: EventKindJson::TakenBack { ply },
            notation: None,
            after: None,
        };
        assert_eq!(
            stored(0).into_event(&game).unwrap().kind,
            EventKind::TakenBack { ply: 0 }
        );
        let err = stored(1).into_event(&game).unwrap_err();
        assert!(
            err.contains("a takeback to move 1 in a game of 1 moves"),
            "{err}"
        );
    }
}
