//! Static evaluation: what a position is worth to the side to move, in
//! centipawns (a pawn in shogi, an uncrossed soldier in xiangqi, is 100).
//!
//! Each game implements [`Evaluate`] from its public position API only.
//! Material (hand pieces at a premium), placement, king safety, the
//! mobility of the long-range pieces (shogi sliders, xiangqi chariots and
//! hobbled horses) and, in annan, supported pieces are evaluated.

pub(crate) mod shogi;
pub(crate) mod xiangqi;

/// A game position the search can evaluate and order moves in.
pub trait Evaluate: rules::Position {
    /// The worth of the position to the side to move, in centipawns.
    fn evaluate(&self) -> i32;

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
