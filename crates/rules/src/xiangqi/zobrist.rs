//! Zobrist keys of xiangqi positions.
//!
//! Stability: the keys come from a fixed seed, so a position's key is the
//! same across builds and runs (recorded games and engine signatures rely on it).

use super::{Piece, Square};
use crate::zobrist::keys;

const SEED: u64 = 0x7869_616e_6771_6921;

/// One key per colour, role and point, then the one for Black to move.
static KEYS: [u64; 14 * 90 + 1] = keys(SEED);

/// Toggled when Black is to move.
pub(super) const BLACK_TO_MOVE: u64 = keys::<{ 14 * 90 + 1 }>(SEED)[14 * 90];

/// The key of `piece` on `sq`.
#[inline]
pub(super) fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS[(piece.color.index() * 7 + piece.role.index()) * 90 + usize::from(sq.index())]
}
