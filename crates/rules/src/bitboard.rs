//! A set of board squares as one 128-bit word.
//!
//! Both geometries fit: shogi's 81 squares (minishogi uses 25 of them) and
//! xiangqi's 90 points. Each game numbers its squares and documents its order
//! in its own `square` module; this type only knows bit indices.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of square indices below 128.
#[derive(Copy, Clone, Default, Eq, PartialEq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `index`.
    #[inline]
    pub const fn from_index(index: u8) -> Bitboard {
        Bitboard(1 << index)
    }

    /// Whether `index` is in the set.
    #[inline]
    pub const fn has(self, index: u8) -> bool {
        self.0 >> index & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn is_any(self) -> bool {
        self.0 != 0
    }

    /// Whether the set holds two or more squares.
    #[inline]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest index in the set, if any.
    #[inline]
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// The highest index in the set, if any.
    #[inline]
    pub const fn last(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(127 - self.0.leading_zeros() as u8)
        }
    }

    /// The set with `index` added.
    #[inline]
    #[must_use]
    pub const fn with(self, index: u8) -> Bitboard {
        Bitboard(self.0 | 1 << index)
    }

    /// The set with `index` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, index: u8) -> Bitboard {
        Bitboard(self.0 & !(1 << index))
    }

    /// Squares in `self` and not in `other`.
    #[inline]
    #[must_use]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Iterates the indices in ascending order.
    #[inline]
    pub const fn iter(self) -> Indices {
        Indices(self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

/// The indices of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct Indices(u128);

impl Iterator for Indices {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(index)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Indices {}

impl IntoIterator for Bitboard {
    type Item = u8;
    type IntoIter = Indices;

    #[inline]
    fn into_iter(self) -> Indices {
        self.iter()
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_order_and_counts() {
        let bb = Bitboard::EMPTY.with(3).with(89).with(0).with(127);
        assert_eq!(bb.iter().collect::<Vec<_>>(), vec![0, 3, 89, 127]);
        assert_eq!(bb.count(), 4);
        assert_eq!(bb.first(), Some(0));
        assert_eq!(bb.last(), Some(127));
        assert!(bb.has_more_than_one());
        assert!(!Bitboard::from_index(5).has_more_than_one());
        assert_eq!(
            bb.without(3).without(0).without(127),
            Bitboard::from_index(89)
        );
    }

    #[test]
    fn empty_set() {
        assert_eq!(Bitboard::EMPTY.first(), None);
        assert_eq!(Bitboard::EMPTY.last(), None);
        assert!(Bitboard::EMPTY.is_empty());
        assert_eq!(Bitboard::EMPTY.iter().count(), 0);
    }
}
