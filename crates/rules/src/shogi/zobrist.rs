//! Zobrist keys of shogi-family positions.
//!
//! Stability: the keys come from fixed seeds, so a position's key is the same
//! across builds and runs (recorded games and engine signatures rely on it).

use super::{Color, Role, Square};
use crate::zobrist::keys;

/// The most pieces of one kind one player can hold in hand (18 pawns).
const MAX_IN_HAND: usize = 18;

static PIECE_KEYS: [u64; 2 * 14 * 81] = keys(0x5348_4f47_4931);
static HAND_KEYS: [u64; 2 * 7 * (MAX_IN_HAND + 1)] = keys(0x5348_4f47_4932);

/// Toggled when Gote is to move.
pub(super) const GOTE_TO_MOVE: u64 = 0x9d3c_51e8_a6f2_4b17;

/// The key of `color`'s `role` on `sq`.
#[inline]
pub(super) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_KEYS[(color.index() * 14 + role.index()) * 81 + usize::from(sq.index())]
}

/// The key of `color` holding `count` pieces of the droppable `role`.
#[inline]
pub(super) fn hand(color: Color, role: Role, count: u8) -> u64 {
    let count = usize::from(count).min(MAX_IN_HAND);
    HAND_KEYS[(color.index() * 7 + role.index()) * (MAX_IN_HAND + 1) + count]
}
