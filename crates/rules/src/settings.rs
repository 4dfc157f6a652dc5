//! House rules: one key and one set of values everywhere (command line,
//! engine options, the HTTP API), as docs/rules.md lists them.

use core::fmt;
use core::str::FromStr;

/// Defines a settings enum with its canonical value names.
macro_rules! setting_enum {
    ($(#[$meta:meta])* $name:ident, $key:literal { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every value, default first.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The setting's key.
            pub const KEY: &'static str = $key;

            /// The value's name.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = SettingError;

            fn from_str(s: &str) -> Result<Self, SettingError> {
                $name::ALL
                    .iter()
                    .copied()
                    .find(|v| v.name() == s)
                    .ok_or_else(|| SettingError::BadValue {
                        key: $key,
                        value: s.to_owned(),
                        expected: concat!($($text, ", "),+).trim_end_matches(", "),
                    })
            }
        }
    };
}

setting_enum!(
    /// `impasse`: how 持将棋 (jishogi) is decided in shogi and annan.
    Impasse, "impasse" {
        /// Both kings in the enemy camp: either player may claim; 24 points each to draw.
        #[default]
        TwentyFourPoint = "24-point",
        /// 入玉宣言法: the side to move may declare; 28 (Sente) / 27 (Gote) points win.
        TwentySevenPoint = "27-point",
        /// No impasse rule.
        Off = "off",
    }
);

setting_enum!(
    /// `annan_setup`: the start position of Annan Shogi.
    AnnanSetup, "annan_setup" {
        /// The shogi start position.
        #[default]
        Standard = "standard",
        /// Pawns before rook and bishop one square further forward.
        Traditional = "traditional",
    }
);

setting_enum!(
    /// `annan_dead_piece`: when an unpromoted pawn, lance or knight may stand
    /// where its own movement has no square to go.
    AnnanDeadPiece, "annan_dead_piece" {
        /// Allowed when its current borrowed movement has a target on the board.
        #[default]
        AllowedIfSupported = "allowed-if-supported",
        /// The plain shogi rule: forced promotion, no such drops.
        ByOriginalType = "by-original-type",
        /// No dead-piece rule at all.
        AlwaysAllowed = "always-allowed",
    }
);

setting_enum!(
    /// `handicap`: the pieces the stronger player (Gote, moving first) removes.
    Handicap, "handicap" {
        /// No handicap: the normal start.
        #[default]
        Even = "even",
        /// 香落ち: the lance on 1a.
        Lance = "lance",
        /// 角落ち: the bishop.
        Bishop = "bishop",
        /// 飛車落ち: the rook.
        Rook = "rook",
        /// 飛香落ち: the rook and the lance on 1a.
        RookLance = "rook-lance",
        /// 二枚落ち: rook and bishop.
        Two = "two",
        /// 四枚落ち: rook, bishop and both lances.
        Four = "four",
        /// 六枚落ち: rook, bishop, both lances and both knights.
        Six = "six",
        /// 八枚落ち: the six and both silvers.
        Eight = "eight",
        /// 十枚落ち: everything but the king and pawns (the eight and both golds).
        Ten = "ten",
    }
);

impl Handicap {
    /// The start position, as SFEN, for this handicap in shogi.
    pub const fn sfen(self) -> &'static str {
        match self {
            Handicap::Even => "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            Handicap::Lance => "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Bishop => "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Rook => "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RookLance => "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Two => "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Four => "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Six => "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Eight => "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Ten => "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        }
    }
}

/// Every house rule (docs/rules.md). `Default` is the documented defaults.
#[derive(Clone, Debug, Default, Eq, PartialEq, Hash)]
pub struct Settings {
    /// `impasse` (shogi, annan).
    pub impasse: Impasse,
    /// `annan_setup` (annan).
    pub annan_setup: AnnanSetup,
    /// `annan_dead_piece` (annan).
    pub annan_dead_piece: AnnanDeadPiece,
    /// `move_limit`: 0 for none, else the number of plies after which the game is drawn.
    pub move_limit: u32,
    /// `illegal_move_loses`: an illegal move loses instead of being refused.
    pub illegal_move_loses: bool,
    /// `handicap` (shogi).
    pub handicap: Handicap,
}

impl Settings {
    /// The keys [`Settings::set`] accepts.
    pub const KEYS: [&'static str; 6] = [
        Impasse::KEY,
        AnnanSetup::KEY,
        AnnanDeadPiece::KEY,
        "move_limit",
        "illegal_move_loses",
        Handicap::KEY,
    ];

    /// Sets `key` to `value`, both as docs/rules.md writes them.
    ///
    /// # Errors
    /// An unknown key, or a value the key does not take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        match key {
            Impasse::KEY => self.impasse = value.parse()?,
            AnnanSetup::KEY => self.annan_setup = value.parse()?,
            AnnanDeadPiece::KEY => self.annan_dead_piece = value.parse()?,
            Handicap::KEY => self.handicap = value.parse()?,
            "move_limit" => {
                self.move_limit = value.parse().map_err(|_| SettingError::BadValue {
                    key: "move_limit",
                    value: value.to_owned(),
                    expected: "0 (no limit) or a number of plies",
                })?;
            }
            "illegal_move_loses" => {
                self.illegal_move_loses = match value {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(SettingError::BadValue {
                            key: "illegal_move_loses",
                            value: value.to_owned(),
                            expected: "true, false",
                        });
                    }
                }
            }
            _ => return Err(SettingError::UnknownKey(key.to_owned())),
        }
        Ok(())
    }

    /// Applies one `KEY=VALUE` pair, as given to `--rule`.
    ///
    /// # Errors
    /// Text without `=`, an unknown key, or a bad value.
    pub fn apply(&mut self, pair: &str) -> Result<(), SettingError> {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| SettingError::NotAPair(pair.to_owned()))?;
        self.set(key.trim(), value.trim())
    }

    /// Every setting as `(key, value)` text, in the documented order.
    pub fn pairs(&self) -> [(&'static str, String); 6] {
        [
            (Impasse::KEY, self.impasse.to_string()),
            (AnnanSetup::KEY, self.annan_setup.to_string()),
            (AnnanDeadPiece::KEY, self.annan_dead_piece.to_string()),
            ("move_limit", self.move_limit.to_string()),
            ("illegal_move_loses", self.illegal_move_loses.to_string()),
            (Handicap::KEY, self.handicap.to_string()),
        ]
    }
}

/// A setting that could not be applied.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum SettingError {
    /// The key is not one of [`Settings::KEYS`].
    UnknownKey(String),
    /// The value is not one the key takes.
    BadValue {
        /// The key.
        key: &'static str,
        /// The value as given.
        value: String,
        /// What the key takes, for people: its values, comma-separated, or a phrase.
        expected: &'static str,
    },
    /// `--rule` text without `=`.
    NotAPair(String),
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::UnknownKey(key) => write!(
                f,
                "unknown setting '{key}' (known: {})",
                Settings::KEYS.join(", ")
            ),
            SettingError::BadValue {
                key,
                value,
                expected,
            } => write!(
                f,
                "bad value '{value}' for setting '{key}' (expected: {})",
                expected
            ),
            SettingError::NotAPair(text) => {
                write!(f, "setting '{text}' is not of the form KEY=VALUE")
            }
        }
    }
}

impl core::error::Error for SettingError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_every_key_and_round_trips() {
        let mut settings = Settings::default();
        for pair in [
            "impasse=27-point",
            "annan_setup=traditional",
            "annan_dead_piece=always-allowed",
            "move_limit=200",
            "illegal_move_loses=true",
            "handicap=two",
        ] {
            settings.apply(pair).unwrap();
        }
        let mut again = Settings::default();
        for (key, value) in settings.pairs() {
            again.set(key, &value).unwrap();
        }
        assert_eq!(again, settings);
        assert_eq!(settings.move_limit, 200);
        assert_eq!(settings.handicap, Handicap::Two);
    }

    #[test]
    fn errors_name_the_problem() {
        let mut settings = Settings::default();
        let err = settings.apply("impasse=25-point").unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad value '25-point' for setting 'impasse' (expected: 24-point, 27-point, off)"
        );
        assert!(matches!(
            settings.apply("colour=red"),
            Err(SettingError::UnknownKey(_))
        ));
        assert!(matches!(
            settings.apply("impasse"),
            Err(SettingError::NotAPair(_))
        ));
        assert_eq!(
            settings.apply("move_limit=-3").unwrap_err().to_string(),
            "bad value '-3' for setting 'move_limit' (expected: 0 (no limit) or a number of plies)"
        );
        assert_eq!(
            settings
                .apply("illegal_move_loses=maybe")
                .unwrap_err()
                .to_string(),
            "bad value 'maybe' for setting 'illegal_move_loses' (expected: true, false)"
        );
        assert_eq!(settings, Settings::default());
    }
}
