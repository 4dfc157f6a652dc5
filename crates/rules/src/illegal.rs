//! Why a move is refused. Players see these, so each names a rule.

use core::fmt;

/// Why a move was refused.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The from-square holds no piece of the side to move.
    NoPieceToMove,
    /// The piece does not move that way (from here, with this board).
    CannotReach,
    /// The target square holds a piece of the mover's own side.
    OwnPieceOnTarget,
    /// A drop onto an occupied square.
    SquareOccupied,
    /// A drop of a piece the mover does not have in hand.
    NotInHand,
    /// A promotion that this piece or this move may not make.
    CannotPromote,
    /// 二歩 (nifu): a second unpromoted pawn of one player on a file.
    DoublePawn,
    /// 打ち歩詰め (uchifuzume): a pawn drop that gives checkmate.
    PawnDropMate,
    /// 行き所のない駒: the piece could never move again from its square.
    DeadPiece,
    /// The move leaves (or puts) the mover's own king or general in check.
    LeavesKingInCheck,
    /// 将帅对面 (flying general): the generals would face each other on an open file.
    FacingGenerals,
    /// The game has already ended.
    GameOver,
}

impl IllegalMove {
    /// A stable kebab-case name for JSON and the command line.
    pub const fn code(self) -> &'static str {
        match self {
            IllegalMove::NoPieceToMove => "no-piece-to-move",
            IllegalMove::CannotReach => "cannot-reach",
            IllegalMove::OwnPieceOnTarget => "own-piece-on-target",
            IllegalMove::SquareOccupied => "square-occupied",
            IllegalMove::NotInHand => "not-in-hand",
            IllegalMove::CannotPromote => "cannot-promote",
            IllegalMove::DoublePawn => "nifu",
            IllegalMove::PawnDropMate => "uchifuzume",
            IllegalMove::DeadPiece => "dead-piece",
            IllegalMove::LeavesKingInCheck => "leaves-king-in-check",
            IllegalMove::FacingGenerals => "flying-general",
            IllegalMove::GameOver => "game-over",
        }
    }

    /// Whether a player broke a rule of the game (as opposed to naming a move
    /// that does not exist at all). Under `illegal_move_loses` such a move
    /// loses instead of being refused.
    pub const fn is_rule_violation(self) -> bool {
        matches!(
            self,
            IllegalMove::DoublePawn
                | IllegalMove::PawnDropMate
                | IllegalMove::DeadPiece
                | IllegalMove::LeavesKingInCheck
                | IllegalMove::FacingGenerals
        )
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::NoPieceToMove => "no piece of the side to move on the from-square",
            IllegalMove::CannotReach => "the piece does not move that way",
            IllegalMove::OwnPieceOnTarget => "the target square holds one of the mover's pieces",
            IllegalMove::SquareOccupied => "a piece can only be dropped on an empty square",
            IllegalMove::NotInHand => "that piece is not in hand",
            IllegalMove::CannotPromote => "this move cannot promote",
            IllegalMove::DoublePawn => "nifu: two unpromoted pawns of one player on a file",
            IllegalMove::PawnDropMate => "uchifuzume: a pawn drop may not give checkmate",
            IllegalMove::DeadPiece => "dead piece: the piece could never move again there",
            IllegalMove::LeavesKingInCheck => "the move leaves the mover's king in check",
            IllegalMove::FacingGenerals => "flying general: the generals would face each other",
            IllegalMove::GameOver => "the game is over",
        })
    }
}

impl core::error::Error for IllegalMove {}

/// Move text that could not be read (USI or ICCS syntax, before any rule applies).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ParseMoveError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl ParseMoveError {
    pub(crate) fn new(text: &str, reason: &'static str) -> ParseMoveError {
        ParseMoveError {
            text: text.to_owned(),
            reason,
        }
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read move '{}': {}", self.text, self.reason)
    }
}

impl core::error::Error for ParseMoveError {}
