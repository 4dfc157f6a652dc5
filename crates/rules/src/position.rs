//! What every game's position offers: the trait the game-agnostic code
//! ([`Game`](crate::Game), [`perft`](crate::perft), the engine) is written against.

use core::fmt;
use core::hash::Hash;

use crate::{IllegalMove, Impasse, Outcome, ParseMoveError, Side, Variant};

/// The most legal moves any position of the four games has.
///
/// Shogi's record is 593 (`R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1`);
/// Annan Shogi, where pieces borrow stronger moves, has 634 in that same position,
/// so the bound leaves room above it; xiangqi positions stay far below that.
pub const MAX_LEGAL_MOVES: usize = 1024;

/// A list of moves on the stack: move generation never allocates.
pub type MoveList<M> = arrayvec::ArrayVec<M, MAX_LEGAL_MOVES>;

/// Which legal moves a generator produces.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum MoveSet {
    /// Every legal move.
    All,
    /// The legal moves that change material: captures, and in the shogi
    /// games promotions (a capture that may promote comes both ways; a
    /// quiet move that may promote only promoting). What a quiescence
    /// search tries, generated without the quiet moves and drops.
    Tactical,
}

/// A legal position of one of the games, with the side to move.
///
/// Implementations validate on construction: a `Position` always has both
/// kings (generals), no side-not-to-move in check, and no piece where the
/// rules forbid it.
pub trait Position: Clone + fmt::Debug + fmt::Display {
    /// A move of this game. `Display` gives its engine text (USI or ICCS).
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display;

    /// Which game this is.
    fn variant(&self) -> Variant;

    /// The side to move.
    fn side_to_move(&self) -> Side;

    /// Every legal move, each once (a move that may promote or not counts twice).
    fn legal_moves(&self) -> MoveList<Self::Move> {
        let mut moves = MoveList::new();
        self.generate_moves(MoveSet::All, &mut moves);
        moves
    }

    /// Appends the legal moves of `set` to `out`, in the same order as
    /// [`legal_moves`](Self::legal_moves) lists them: the form for callers
    /// that keep their own list.
    fn generate_moves(&self, set: MoveSet, out: &mut MoveList<Self::Move>);

    /// The number of legal moves; perft's leaf count.
    fn count_legal_moves(&self) -> usize {
        self.legal_moves().len()
    }

    /// `Ok` if `mv` is legal, else the rule it breaks.
    ///
    /// # Errors
    /// The first reason found why `mv` may not be played here.
    fn check_move(&self, mv: Self::Move) -> Result<(), IllegalMove>;

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Plays `mv`, which must be legal.
    ///
    /// # Panics
    /// May panic, or leave `self` invalid, if `mv` is not legal.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool;

    /// A Zobrist key of everything repetition compares: board, hands, side to move.
    fn key(&self) -> u64;

    /// Reads a move in the game's engine notation (USI or ICCS), without
    /// checking legality.
    ///
    /// # Errors
    /// The text is not a move of this game's board.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// The game ends that this position alone decides: checkmate, no legal
    /// move, and for xiangqi insufficient material and the sixty-move rule.
    fn end(&self) -> Option<Outcome>;

    /// Xiangqi: whether `mv`, played from `self` to reach `after`, chases an
    /// enemy piece (docs/rules.md, xiangqi). Other games never chase.
    fn is_chase(&self, _mv: Self::Move, _after: &Self) -> bool {
        false
    }

    /// Judges an impasse claim (`24-point`) or declaration (`27-point`) by `claimant`.
    ///
    /// # Errors
    /// The game or the rule has no impasse, or a `24-point` claim is made
    /// before both kings stand in their enemy camps, or a declaration is made
    /// by the side not to move.
    fn judge_impasse(&self, _rule: Impasse, _claimant: Side) -> Result<Outcome, ImpasseError> {
        Err(ImpasseError::NotInThisGame)
    }
}

/// An impasse claim that cannot be judged at all.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum ImpasseError {
    /// The game, or the `impasse=off` setting, has no impasse rule.
    NotInThisGame,
    /// `24-point`: both kings must stand in their enemy camps before a claim.
    KingsNotInCamps,
    /// `27-point`: only the side to move may declare.
    NotYourTurn,
    /// The game has already ended.
    GameOver,
}

impl fmt::Display for ImpasseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ImpasseError::NotInThisGame => "this game has no impasse rule",
            ImpasseError::KingsNotInCamps => {
                "an impasse may be claimed only when both kings stand in their enemy camps"
            }
            ImpasseError::NotYourTurn => "only the side to move may declare an impasse",
            ImpasseError::GameOver => "the game is over",
        })
    }
}

impl core::error::Error for ImpasseError {}
