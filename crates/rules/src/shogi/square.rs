//! Squares of the shogi board and their bit order.
//!
//! Index order is file-major: `(file - 1) * 9 + (rank - 1)`, so 1a = 0, 1i = 8,
//! 2a = 9, …, 9i = 80. A file is nine consecutive bits, which keeps lance rays
//! and "the square directly behind" (one bit up or down) contiguous.
//! Minishogi uses files 1–5 and ranks a–e of the same numbering.

use core::fmt;

/// A square of the 9×9 board.
///
/// Files count 1–9 from Sente's right, ranks 1–9 (`a`–`i`) from Gote's side, as in USI (`7g`).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, PartialOrd, Ord)]
pub struct Square(u8); // Invariant: value < 81.

impl Square {
    /// The square on `file` and `rank`, both 1-based as in USI; `None` off the 9×9 board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// The square with bit index `index` (see the module docs); `None` if `index >= 81`.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with bit index `index`, which must be below 81.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    /// The file, 1–9, counted from Sente's right.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// The rank, 1–9 (`a`–`i`), counted from Gote's side.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The bit index (see the module docs).
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The rank letter, `a`–`i`.
    const fn rank_char(self) -> char {
        (b'a' + self.0 % 9) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank_char())
    }
}

/// Defines `SQ_<file><RANK>` constants for one file.
macro_rules! square_consts {
    ($file:literal: $($name:ident = $rank:literal),+) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square(($file - 1) * 9 + ($rank - 1));
            )+
        }
    };
}

square_consts!(1: SQ_1A = 1, SQ_1B = 2, SQ_1C = 3, SQ_1D = 4, SQ_1E = 5, SQ_1F = 6, SQ_1G = 7, SQ_1H = 8, SQ_1I = 9);
square_consts!(2: SQ_2A = 1, SQ_2B = 2, SQ_2C = 3, SQ_2D = 4, SQ_2E = 5, SQ_2F = 6, SQ_2G = 7, SQ_2H = 8, SQ_2I = 9);
square_consts!(3: SQ_3A = 1, SQ_3B = 2, SQ_3C = 3, SQ_3D = 4, SQ_3E = 5, SQ_3F = 6, SQ_3G = 7, SQ_3H = 8, SQ_3I = 9);
square_consts!(4: SQ_4A = 1, SQ_4B = 2, SQ_4C = 3, SQ_4D = 4, SQ_4E = 5, SQ_4F = 6, SQ_4G = 7, SQ_4H = 8, SQ_4I = 9);
square_consts!(5: SQ_5A = 1, SQ_5B = 2, SQ_5C = 3, SQ_5D = 4, SQ_5E = 5, SQ_5F = 6, SQ_5G = 7, SQ_5H = 8, SQ_5I = 9);
square_consts!(6: SQ_6A = 1, SQ_6B = 2, SQ_6C = 3, SQ_6D = 4, SQ_6E = 5, SQ_6F = 6, SQ_6G = 7, SQ_6H = 8, SQ_6I = 9);
square_consts!(7: SQ_7A = 1, SQ_7B = 2, SQ_7C = 3, SQ_7D = 4, SQ_7E = 5, SQ_7F = 6, SQ_7G = 7, SQ_7H = 8, SQ_7I = 9);
square_consts!(8: SQ_8A = 1, SQ_8B = 2, SQ_8C = 3, SQ_8D = 4, SQ_8E = 5, SQ_8F = 6, SQ_8G = 7, SQ_8H = 8, SQ_8I = 9);
square_consts!(9: SQ_9A = 1, SQ_9B = 2, SQ_9C = 3, SQ_9D = 4, SQ_9E = 5, SQ_9F = 6, SQ_9G = 7, SQ_9H = 8, SQ_9I = 9);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_order() {
        assert_eq!(Square::SQ_7G.to_string(), "7g");
        assert_eq!(Square::new(7, 7), Some(Square::SQ_7G));
        assert_eq!(Square::SQ_1A.index(), 0);
        assert_eq!(Square::SQ_1I.index(), 8);
        assert_eq!(Square::SQ_2A.index(), 9);
        assert_eq!(Square::SQ_9I.index(), 80);
        assert_eq!(Square::new(0, 1), None);
        assert_eq!(Square::new(1, 10), None);
        assert_eq!((Square::SQ_5E.file(), Square::SQ_5E.rank()), (5, 5));
    }
}
