//! Points of the 9×10 board.
//!
//! Names follow ICCS: files `a`–`i` from Red's left, ranks `0`–`9` from Red's
//! side, so Red's general starts on `e0` and Black's on `e9`.
//!
//! Index order is rank-major, `rank * 9 + file`: `a0` = 0, `i0` = 8, `a1` = 9,
//! `i9` = 89. Moving "forward" for Red is `+9`, for Black `-9`, and a rank is a
//! run of nine consecutive bits, which keeps ray tables and shifts simple.

use core::fmt;

/// A point of the xiangqi board. Invariant: the index is below 90.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The number of points on the board.
    pub const COUNT: usize = 90;

    /// The point on `file` (0–8, `a`–`i`) and `rank` (0–9), if on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The point with rank-major `index` (see the module documentation), if below 90.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The point with `index`, which the caller knows to be below 90.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    /// The file, 0 (`a`) to 8 (`i`), counted from Red's left.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// The rank, 0 (Red's back rank) to 9 (Black's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The rank-major index, `rank * 9 + file`.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Every point, `a0` first, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Defines the named points `A0`..`I9`.
macro_rules! named_squares {
    ($($name:ident = $file:literal, $rank:literal;)*) => {
        impl Square {
            $(
                #[doc = concat!("The point `", stringify!($name), "` (ICCS, lowercase in text).")]
                pub const $name: Square = Square($rank * 9 + $file);
            )*
        }
    };
}

named_squares! {
    A0 = 0, 0; B0 = 1, 0; C0 = 2, 0; D0 = 3, 0; E0 = 4, 0; F0 = 5, 0; G0 = 6, 0; H0 = 7, 0; I0 = 8, 0;
    A1 = 0, 1; B1 = 1, 1; C1 = 2, 1; D1 = 3, 1; E1 = 4, 1; F1 = 5, 1; G1 = 6, 1; H1 = 7, 1; I1 = 8, 1;
    A2 = 0, 2; B2 = 1, 2; C2 = 2, 2; D2 = 3, 2; E2 = 4, 2; F2 = 5, 2; G2 = 6, 2; H2 = 7, 2; I2 = 8, 2;
    A3 = 0, 3; B3 = 1, 3; C3 = 2, 3; D3 = 3, 3; E3 = 4, 3; F3 = 5, 3; G3 = 6, 3; H3 = 7, 3; I3 = 8, 3;
    A4 = 0, 4; B4 = 1, 4; C4 = 2, 4; D4 = 3, 4; E4 = 4, 4; F4 = 5, 4; G4 = 6, 4; H4 = 7, 4; I4 = 8, 4;
    A5 = 0, 5; B5 = 1, 5; C5 = 2, 5; D5 = 3, 5; E5 = 4, 5; F5 = 5, 5; G5 = 6, 5; H5 = 7, 5; I5 = 8, 5;
    A6 = 0, 6; B6 = 1, 6; C6 = 2, 6; D6 = 3, 6; E6 = 4, 6; F6 = 5, 6; G6 = 6, 6; H6 = 7, 6; I6 = 8, 6;
    A7 = 0, 7; B7 = 1, 7; C7 = 2, 7; D7 = 3, 7; E7 = 4, 7; F7 = 5, 7; G7 = 6, 7; H7 = 7, 7; I7 = 8, 7;
    A8 = 0, 8; B8 = 1, 8; C8 = 2, 8; D8 = 3, 8; E8 = 4, 8; F8 = 5, 8; G8 = 6, 8; H8 = 7, 8; I8 = 8, 8;
    A9 = 0, 9; B9 = 1, 9; C9 = 2, 9; D9 = 3, 9; E9 = 4, 9; F9 = 5, 9; G9 = 6, 9; H9 = 7, 9; I9 = 8, 9;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_indices_agree() {
        assert_eq!(Square::A0.index(), 0);
        assert_eq!(Square::I0.index(), 8);
        assert_eq!(Square::A1.index(), 9);
        assert_eq!(Square::I9.index(), 89);
        assert_eq!(Square::new(7, 2), Some(Square::H2));
        assert_eq!(Square::H2.to_string(), "h2");
        assert_eq!(Square::E9.file(), 4);
        assert_eq!(Square::E9.rank(), 9);
        assert_eq!(Square::new(9, 0), None);
        assert_eq!(Square::new(0, 10), None);
        assert_eq!(Square::from_index(90), None);
        assert_eq!(Square::all().count(), 90);
    }
}
