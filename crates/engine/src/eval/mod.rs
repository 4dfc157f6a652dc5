//! Static evaluation: what a position is worth to the side to move, in
//! centipawns (a pawn in shogi, an uncrossed soldier in xiangqi, is 100).
//!
//! Each game implements [`Evaluate`] from its public position API only.
//! Material on the board and in hand, placement, king safety, the
//! mobility of the long-range pieces (shogi sliders, xiangqi chariots and
//! hobbled horses) and, in annan, supported pieces are evaluated.
//!
//! Every number the evaluation adds up is a named weight of a `const`
//! table (`ShogiWeights` per shogi-family game, `XiangqiWeights`), so the
//! `tune` example can fit them to game results and print new tables.

#[macro_use]
mod weights;
mod cache;
pub(crate) mod shogi;
pub(crate) mod xiangqi;

use core::fmt;

pub(crate) use self::cache::EvalCache;

/// A game position the search can evaluate and order moves in.
pub trait Evaluate: rules::Position {
    /// The evaluation's named weights.
    type Weights: Clone + fmt::Debug + 'static;

    /// The weights the engine plays this position's game with.
    fn weights(&self) -> &'static Self::Weights;

    /// The worth of the position to the side to move under `weights`.
    fn evaluate_with(&self, weights: &Self::Weights) -> i32;

    /// The worth of the position to the side to move, in centipawns.
    #[inline]
    fn evaluate(&self) -> i32 {
        self.evaluate_with(self.weights())
    }

    /// The names of the weights, one per number of [`Evaluate::weight_values`]
    /// (`board[3]` for an entry of a table).
    fn weight_names() -> Vec<String>;

    /// The numbers of `weights`, in a fixed order.
    fn weight_values(weights: &Self::Weights) -> Vec<i32>;

    /// `weights` with its numbers replaced by `values`, given in the order of
    /// [`Evaluate::weight_values`] (missing ones are kept).
    fn with_weight_values(weights: &Self::Weights, values: &[i32]) -> Self::Weights;

    /// The value of the piece `mv` captures, or `None` if it captures nothing.
    fn captured_value(&self, mv: Self::Move) -> Option<i32>;

    /// The value of the piece that makes `mv` (the dropped piece for a drop):
    /// the "least valuable attacker" of MVV-LVA ordering.
    fn mover_value(&self, mv: Self::Move) -> i32;

    /// Whether `mv` promotes the piece it moves.
    fn is_promotion(&self, mv: Self::Move) -> bool;
}

/// Chebyshev (king-step) distance between two squares given as `(file, rank)`.
fn distance(a: (u8, u8), b: (u8, u8)) -> i32 {
    i32::from(a.0.abs_diff(b.0).max(a.1.abs_diff(b.1)))
}
