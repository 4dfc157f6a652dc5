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

/// A name that is not `first` or `second`.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ParseSideError(pub String);

impl fmt::Display for ParseSideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown side '{}' (expected first or second)", self.0)
    }
}

impl core::error::Error for ParseSideError {}

impl FromStr for Side {
    type Err = ParseSideError;

    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        [Side::First, Side::Second]
            .into_iter()
            .find(|side| side.name() == s)
            .ok_or_else(|| ParseSideError(s.to_owned()))
    }
}

/// With the `serde` feature, sides and variants are their API names.
#[cfg(feature = "serde")]
mod serde_names {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Side, Variant};

    macro_rules! by_name {
        ($type:ty) => {
            impl Serialize for $type {
                fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    serializer.serialize_str(self.name())
                }
            }

            impl<'de> Deserialize<'de> for $type {
                fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$type, D::Error> {
                    let name = String::deserialize(deserializer)?;
                    name.parse().map_err(D::Error::custom)
                }
            }
        };
    }

    by_name!(Side);
    by_name!(Variant);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_and_variants_read_back_their_names() {
        for side in [Side::First, Side::Second] {
            assert_eq!(side.name().parse::<Side>(), Ok(side));
        }
        for variant in Variant::ALL {
            assert_eq!(variant.name().parse::<Variant>(), Ok(variant));
        }
        let err = "black".parse::<Side>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown side 'black' (expected first or second)"
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn with_serde_they_are_their_names_in_json() {
        let json = serde_json::to_string(&(Side::Second, Variant::Annan)).unwrap();
        assert_eq!(json, r#"["second","annan"]"#);
        let back: (Side, Variant) = serde_json::from_str(&json).unwrap();
        assert_eq!(back, (Side::Second, Variant::Annan));
        assert!(serde_json::from_str::<Side>(r#""red""#).is_err());
    }
}
