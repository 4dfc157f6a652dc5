//! The four games and the two sides, in game-agnostic words.

use core::fmt;
use core::str::FromStr;

/// One of the four games Koma plays.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Variant {
    /// Shogi on the 9×9 board.
    Shogi,
    /// Minishogi (5五将棋) on the 5×5 board.
    Minishogi,
    /// Annan Shogi (安南将棋): a piece moves like the friendly piece behind it.
    Annan,
    /// Xiangqi (象棋) on the 9×10 board.
    Xiangqi,
}

impl Variant {
    /// All four games, in the order the platform lists them.
    pub const ALL: [Variant; 4] = [
        Variant::Shogi,
        Variant::Minishogi,
        Variant::Annan,
        Variant::Xiangqi,
    ];

    /// The name used on the command line, in settings and in the API.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Shogi => "shogi",
            Variant::Minishogi => "minishogi",
            Variant::Annan => "annan",
            Variant::Xiangqi => "xiangqi",
        }
    }

    /// Whether the game belongs to the shogi family (hands and drops).
    pub const fn is_shogi_family(self) -> bool {
        !matches!(self, Variant::Xiangqi)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the four games.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ParseVariantError(pub String);

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected shogi, minishogi, annan or xiangqi)",
            self.0
        )
    }
}

impl core::error::Error for ParseVariantError {}

impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| ParseVariantError(s.to_owned()))
    }
}

/// A player in game-agnostic terms: `First` moves first from the usual start
/// (Sente in shogi, Red in xiangqi). Handicap games start with `Second` to move.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Side {
    /// Sente (先手, Black) in shogi; Red in xiangqi.
    First,
    /// Gote (後手, White) in shogi; Black in xiangqi.
    Second,
}

impl Side {
    /// The other side.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// `first` or `second`, as in the JSON of `koma status` and the API.
    pub const fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
