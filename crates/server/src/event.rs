//! The numbered events of a room: what the WebSocket and the events stream
//! carry, and what the store keeps. Replaying them from the first rebuilds the room.

use std::sync::Arc;

use rules::{Outcome, Side};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One event, as sent to clients: `{"seq": 7, "at": 1700000000000, "type": "move", ...}`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Event {
    /// 1, 2, 3 ... per room; a client that reconnects sends the last it saw.
    pub seq: i64,
    /// When it happened, in unix milliseconds.
    pub at: i64,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What happened in a room.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// A seat was taken.
    Seated {
        /// `first` or `second`.
        seat: String,
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
        /// Who played it: `first` or `second`.
        side: String,
        /// The move in USI (shogi family) or ICCS (xiangqi).
        #[serde(rename = "move")]
        mv: String,
        /// Whether the computer chose it (computer seat or away player).
        computer: bool,
    },
    /// A player offered a draw; the other accepts by offering too.
    DrawOffered {
        /// Who offered.
        side: String,
    },
    /// The game ended.
    End {
        /// `first`, `second` or `draw`.
        result: String,
        /// The end reason's code (`checkmate`, `resignation`, `timeout` ...).
        reason: String,
        /// Who resigned, ran out of time or claimed the impasse, when someone did.
        by: Option<String>,
    },
    /// A seat asked for another game; the other seat agrees by asking too.
    RematchOffered {
        /// The seat that asked.
        seat: String,
    },
    /// A new game began in the room (a rematch, or the replay of a shogi
    /// repetition draw) from the room's start position.
    NewGame {
        /// Its number: 2 for the first rematch ...
        game: i64,
        /// Whether the seats play the opposite sides to their names in it.
        swapped: bool,
    },
    /// A seated player's connections are all gone: the computer takes over
    /// after `grace_ms` unless they come back.
    Away {
        /// The seat.
        seat: String,
        /// The grace period in milliseconds.
        grace_ms: u64,
    },
    /// The computer plays for an away player from now on.
    Takeover {
        /// The seat.
        seat: String,
    },
    /// An away player is back.
    Back {
        /// The seat.
        seat: String,
    },
    /// A seated player took a new display name.
    Renamed {
        /// The seat.
        seat: String,
        /// The new name.
        name: String,
    },
}

impl EventKind {
    /// The `type` name, as stored in the events table's `kind` column.
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Seated { .. } => "seated",
            EventKind::Move { .. } => "move",
            EventKind::DrawOffered { .. } => "draw_offered",
            EventKind::End { .. } => "end",
            EventKind::RematchOffered { .. } => "rematch_offered",
            EventKind::NewGame { .. } => "new_game",
            EventKind::Away { .. } => "away",
            EventKind::Takeover { .. } => "takeover",
            EventKind::Back { .. } => "back",
            EventKind::Renamed { .. } => "renamed",
        }
    }

    /// The end event for `outcome`.
    pub fn end(outcome: Outcome, by: Option<Side>) -> EventKind {
        EventKind::End {
            result: outcome.winner.map_or("draw", Side::name).to_owned(),
            reason: outcome.reason.code().to_owned(),
            by: by.map(|side| side.name().to_owned()),
        }
    }
}

/// An event serialised once and shared by every connection that sends it.
#[derive(Debug)]
pub struct Frame {
    /// The event's number.
    pub seq: i64,
    /// The event as one line of JSON.
    pub json: String,
}

impl Frame {
    /// Serialises `event`.
    pub fn new(event: &Event) -> Arc<Frame> {
        Arc::new(Frame {
            seq: event.seq,
            json: serde_json::to_string(event).unwrap_or_else(|_| Value::Null.to_string()),
        })
    }
}

/// Reads a side's name (`first`/`second`).
pub(crate) fn side_named(name: &str) -> Option<Side> {
    match name {
        "first" => Some(Side::First),
        "second" => Some(Side::Second),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_flat_json_with_a_type() {
        let event = Event {
            seq: 3,
            at: 10,
            kind: EventKind::Move {
                ply: 1,
                side: "first".to_owned(),
                mv: "7g7f".to_owned(),
                computer: false,
            },
        };
        let json = serde_json::to_value(&event).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"seq": 3, "at": 10, "type": "move", "ply": 1, "side": "first",
                "move": "7g7f", "computer": false})
        );
        assert_eq!(serde_json::from_value::<Event>(json).unwrap(), event);
    }
}
