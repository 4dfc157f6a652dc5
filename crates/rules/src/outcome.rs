//! How a game ended.

use core::fmt;

use crate::{IllegalMove, Side};

/// The result of a finished game: who won (none for a draw) and why.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// `side` wins for `reason`.
    pub const fn win(side: Side, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(side),
            reason,
        }
    }

    /// `side` loses for `reason`.
    pub const fn loss(side: Side, reason: EndReason) -> Outcome {
        Outcome::win(side.opponent(), reason)
    }

    /// A draw for `reason`.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins by {}", self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}

/// Why a game ended. The [`code`](EndReason::code) is what programs read.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check (a loss in all four games).
    NoLegalMoves,
    /// Fourfold (shogi family) or threefold (xiangqi) repetition.
    Repetition,
    /// A repetition in which one side checked with every move: that side loses.
    PerpetualCheck,
    /// Xiangqi: a repetition in which one side chased with every move: that side loses.
    PerpetualChase,
    /// 持将棋 / 入玉宣言: an impasse claim or declaration was judged.
    Impasse,
    /// The room's move limit was reached.
    MoveLimit,
    /// Xiangqi: 60 moves by each side (120 plies) without a capture.
    SixtyMoveRule,
    /// Xiangqi: neither side has a piece that can cross the river.
    InsufficientMaterial,
    /// `illegal_move_loses`: the loser played a move that breaks this rule.
    IllegalMove(IllegalMove),
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Timeout,
    /// The players agreed to a draw.
    Agreement,
    /// The players left (or nobody ever came): the game ends without a winner
    /// and counts nowhere.
    Abandoned,
}

impl EndReason {
    /// A stable kebab-case name for JSON and the command line.
    pub const fn code(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalMoves => "no-legal-moves",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::PerpetualChase => "perpetual-chase",
            EndReason::Impasse => "impasse",
            EndReason::MoveLimit => "move-limit",
            EndReason::SixtyMoveRule => "sixty-move-rule",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::IllegalMove(_) => "illegal-move",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "timeout",
            EndReason::Agreement => "agreement",
            EndReason::Abandoned => "abandoned",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::IllegalMove(why) => write!(f, "illegal move ({why})"),
            other => f.write_str(&other.code().replace('-', " ")),
        }
    }
}
