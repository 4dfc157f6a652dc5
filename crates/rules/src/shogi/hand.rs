//! Pieces in hand (持ち駒).

use super::Role;

/// The pieces one player holds in hand: a count per droppable kind.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct Hand {
    // Indexed by `Role::index()` of pawn … rook (0–6).
    counts: [u8; 7],
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; 7] };

    /// How many pieces of `role` (taken unpromoted) are in hand.
    #[inline]
    pub const fn get(&self, role: Role) -> u8 {
        let role = role.unpromoted();
        if role.is_droppable() {
            self.counts[role.index()]
        } else {
            0
        }
    }

    /// Sets the count of `role`, which must be droppable (pawn … rook).
    #[inline]
    pub fn set(&mut self, role: Role, count: u8) {
        debug_assert!(role.is_droppable());
        self.counts[role.index()] = count;
    }

    /// Whether the hand holds nothing.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&n| n == 0)
    }

    /// `(role, count)` for every kind held, in SFEN order (rook first).
    pub fn iter(&self) -> impl Iterator<Item = (Role, u8)> + '_ {
        Role::HAND
            .into_iter()
            .map(|role| (role, self.get(role)))
            .filter(|&(_, n)| n > 0)
    }

    /// The number of pieces in hand.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&n| u32::from(n)).sum()
    }

    /// Impasse points of the hand: rook and bishop 5, others 1.
    pub fn impasse_points(&self) -> u32 {
        self.iter()
            .map(|(role, n)| role.impasse_points() * u32::from(n))
            .sum()
    }
}
