//! Playing strength for the server: levels 1 (beatable by a beginner) to 8
//! (the full engine).
//!
//! A level caps the search depth and nodes and adds evaluation noise. The
//! noise is a hash of the position and the engine's seed, so it is the same
//! every time a position is met (the transposition table stays consistent)
//! and a low level picks at random among the moves whose scores lie within
//! the noise of the best one: reasonable moves, not random ones.

use core::fmt;
use core::str::FromStr;

/// A playing level, 1 to 8.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, PartialOrd, Ord)]
pub struct Level(u8); // Invariant: 1 <= value <= 8.

/// What a level allows the search.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) struct Strength {
    /// Deepest iteration.
    pub(crate) depth: Option<u32>,
    /// Most nodes per move.
    pub(crate) nodes: Option<u64>,
    /// Half-width of the evaluation noise, in centipawns.
    pub(crate) noise: i32,
}

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The full engine.
    pub const MAX: Level = Level(8);

    /// Level `n`, if `1 <= n <= 8`.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 8 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The level's number.
    pub const fn get(self) -> u8 {
        self.0
    }

    pub(crate) const fn strength(self) -> Strength {
        let (depth, nodes, noise) = match self.0 {
            1 => (1, 2_000, 250),
            2 => (2, 5_000, 160),
            3 => (3, 15_000, 100),
            4 => (4, 40_000, 60),
            5 => (5, 100_000, 35),
            6 => (7, 300_000, 15),
            7 => (10, 1_000_000, 0),
            _ => {
                return Strength {
                    depth: None,
                    nodes: None,
                    noise: 0,
                };
            }
        };
        Strength {
            depth: Some(depth),
            nodes: Some(nodes),
            noise,
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::MAX
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A level that is not a number from 1 to 8.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ParseLevelError(pub String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad level '{}' (expected 1 to 8)", self.0)
    }
}

impl core::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| ParseLevelError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_searches_at_least_as_much_with_less_noise() {
        let strengths: Vec<Strength> = (1..=8).map(|n| Level::new(n).unwrap().strength()).collect();
        for pair in strengths.windows(2) {
            let [weaker, stronger] = pair else {
                unreachable!()
            };
            assert!(stronger.noise < weaker.noise || stronger.noise == 0);
            assert!(stronger.depth.unwrap_or(u32::MAX) > weaker.depth.unwrap_or(u32::MAX) - 1);
            assert!(stronger.nodes.unwrap_or(u64::MAX) > weaker.nodes.unwrap_or(u64::MAX) - 1);
        }
        assert_eq!("8".parse(), Ok(Level::MAX));
        assert!("0".parse::<Level>().is_err() && "9".parse::<Level>().is_err());
    }
}
