//! The two colours, the seven kinds of piece, and a piece of one colour.

use core::fmt;

use crate::Side;

/// A player: Red moves first from the usual start.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Color {
    /// Red (uppercase in FEN, `w` or `r` as the side to move), the first player.
    Red = 0,
    /// Black (lowercase in FEN, `b` as the side to move), the second player.
    Black = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// The colour in game-agnostic words: Red is [`Side::First`].
    #[inline]
    pub const fn side(self) -> Side {
        match self {
            Color::Red => Side::First,
            Color::Black => Side::Second,
        }
    }

    /// 0 for Red, 1 for Black: an index into per-colour tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::First => Color::Red,
            Side::Second => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        color.side()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// A kind of piece. FEN letters: `k a b n r c p`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Role {
    /// General 帥/將 (`k`): one point orthogonally inside the palace.
    General = 0,
    /// Advisor 仕/士 (`a`): one point diagonally inside the palace.
    Advisor = 1,
    /// Elephant 相/象 (`b`, alias `e`): two points diagonally, never across the river.
    Elephant = 2,
    /// Horse 傌/馬 (`n`, alias `h`): one point orthogonally then one diagonally outward.
    Horse = 3,
    /// Chariot 俥/車 (`r`): any distance orthogonally.
    Chariot = 4,
    /// Cannon 炮/砲 (`c`): moves like a chariot, captures over exactly one screen.
    Cannon = 5,
    /// Soldier 兵/卒 (`p`): forward, and sideways once across the river.
    Soldier = 6,
}

impl Role {
    /// All seven roles, in index order.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

    /// 0 to 6: an index into per-role tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase FEN letter.
    pub const fn char(self) -> char {
        match self {
            Role::General => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Chariot => 'r',
            Role::Cannon => 'c',
            Role::Soldier => 'p',
        }
    }

    /// The role of a FEN letter in either case, accepting the aliases `e`
    /// (elephant) and `h` (horse) that some programs write.
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'k' => Role::General,
            'a' => Role::Advisor,
            'b' | 'e' => Role::Elephant,
            'n' | 'h' => Role::Horse,
            'r' => Role::Chariot,
            'c' => Role::Cannon,
            'p' => Role::Soldier,
            _ => return None,
        })
    }

    /// How many of this piece one side starts with (and may have at most).
    pub const fn max_count(self) -> u32 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }
}

/// A piece of one colour.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: uppercase for Red, lowercase for Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::Red => self.role.char().to_ascii_uppercase(),
            Color::Black => self.role.char(),
        }
    }

    /// The piece of a FEN letter (uppercase Red), with the aliases of [`Role::from_char`].
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
