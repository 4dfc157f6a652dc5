//! What happens in a room, as typed values: the only input of
//! [`Room::apply`](super::Room::apply). Their JSON (for the store and the
//! clients) is written and read at the edge, in [`crate::event`].

use rules::{AnyMove, Outcome, Side};

use super::Phrase;

/// One numbered event of a room.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// 1, 2, 3 ... per room, without gaps.
    pub seq: u64,
    /// When it happened, in unix milliseconds.
    pub at: i64,
    /// What happened.
    pub kind: EventKind,
}

/// What happened in a room.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// A seat was taken.
    Seated {
        /// The seat.
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
        side: Side,
        /// The move.
        mv: AnyMove,
        /// Whether the computer chose it (a computer seat or an away player's).
        computer: bool,
    },
    /// A side offered a draw; the other accepts by offering too.
    DrawOffered {
        /// Who offered.
        side: Side,
    },
    /// The computer declined the draw offered to it (by its evaluation).
    DrawDeclined {
        /// The side that declined.
        side: Side,
    },
    /// The game ended.
    End {
        /// How.
        outcome: Outcome,
        /// Who resigned, ran out of time or claimed the impasse, when someone did.
        by: Option<Side>,
    },
    /// A seat asked for another game; the other seat agrees by asking too.
    RematchOffered {
        /// The seat that asked.
        seat: Side,
    },
    /// A new game began from the room's start position (a rematch, or the
    /// replay of a shogi repetition draw).
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
        seat: Side,
        /// The grace period in milliseconds.
        grace_ms: u64,
    },
    /// The computer plays for an away player from now on.
    Takeover {
        /// The seat.
        seat: Side,
    },
    /// An away player is back.
    Back {
        /// The seat.
        seat: Side,
    },
    /// A seat asked to take back its last move (online); the other seat
    /// accepts by asking too, or declines.
    TakebackOffered {
        /// The seat that asked.
        seat: Side,
    },
    /// The seat asked declined the takeback.
    TakebackDeclined {
        /// The seat that declined.
        seat: Side,
    },
    /// Moves were taken back: the game goes on from its first `ply` moves.
    TakenBack {
        /// How many moves of the game remain.
        ply: usize,
    },
    /// A seat asked to analyse the game being played; the other seat agrees
    /// by asking too.
    AnalysisOffered {
        /// The seat that asked.
        seat: Side,
    },
    /// Both seats agreed: the game being played may be analysed.
    AnalysisAgreed,
    /// A seated player of an online room sent a quick-chat phrase.
    Chat {
        /// The seat.
        seat: Side,
        /// The phrase.
        phrase: Phrase,
    },
    /// A seated player took a new display name.
    Renamed {
        /// The seat.
        seat: Side,
        /// The new name.
        name: String,
    },
}

impl EventKind {
    /// The `type` name, as the JSON and the store's `kind` column call it.
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Seated { .. } => "seated",
            EventKind::Move { .. } => "move",
            EventKind::DrawOffered { .. } => "draw_offered",
            EventKind::DrawDeclined { .. } => "draw_declined",
            EventKind::End { .. } => "end",
            EventKind::RematchOffered { .. } => "rematch_offered",
            EventKind::NewGame { .. } => "new_game",
            EventKind::Away { .. } => "away",
            EventKind::Takeover { .. } => "takeover",
            EventKind::Back { .. } => "back",
            EventKind::TakebackOffered { .. } => "takeback_offered",
            EventKind::TakebackDeclined { .. } => "takeback_declined",
            EventKind::TakenBack { .. } => "taken_back",
            EventKind::AnalysisOffered { .. } => "analysis_offered",
            EventKind::AnalysisAgreed => "analysis_agreed",
            EventKind::Chat { .. } => "chat",
            EventKind::Renamed { .. } => "renamed",
        }
    }
}
