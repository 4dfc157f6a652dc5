//! Playing strength for the server: levels 1 (beatable by a beginner) to 8
//! (the full engine).
//!
//! A level is a node budget per move, not a time: it plays the same moves on
//! a fast or a slow machine, and each level searches about 3.3 times as many
//! nodes as the one below. The budget is a cap: a clock given with the
//! search can still stop it earlier. The two lowest levels also stop at a
//! shallow depth, and the lower levels add evaluation noise. The noise is a
//! hash of the position and the engine's seed, so it is the same every time
//! a position is met (the transposition table stays consistent), and a low
//! level picks at random among the moves whose scores lie within the noise
//! of the best one: reasonable moves, not random ones, but it overlooks
//! losing a piece whose value the noise hides.
//!
//! | Level | Depth | Nodes per move | Noise (cp) | Quiescence |
//! |------:|------:|---------------:|-----------:|:----------:|
//! | 1     | 1     | 300            | ±250       | no         |
//! | 2     | 2     | 1,000          | ±150       | yes        |
//! | 3     | -     | 3,000          | ±90        | yes        |
//! | 4     | -     | 10,000         | ±50        | yes        |
//! | 5     | -     | 30,000         | ±25        | yes        |
//! | 6     | -     | 100,000        | ±10        | yes        |
//! | 7     | -     | 300,000        | 0          | yes        |
//! | 8     | -     | the clock's    | 0          | yes        |
//!
//! Level 1 sees its own move and nothing after it: each position its moves
//! reach is judged by its static evaluation (plus noise), or as lost for
//! the side to move when that side has no legal move. So it mates in one
//! and takes what its move captures, but never sees the reply: it takes a
//! defended piece with a bigger one and leaves pieces where they can be
//! taken, and a beginner who only avoids hanging pieces beats it (the
//! `ladder` example's hang-avoider wins 62% to 99% of its games against it,
//! docs/strength.md); with the captures after its move (quiescence), level 1
//! won most of them even with ±1,000 cp of noise. The first iteration
//! always completes, so depth, not nodes, is its limit.
//!
//! Each level also names the transposition table it needs
//! ([`Level::hash_mb`]): a node stores at most one 16-byte entry, so a
//! table of twice the node budget in entries never runs short, and a
//! level-1 move needs 1 MiB, not the 16 MiB of a search by the clock.
//!
//! | Level | 1-5 | 6 | 7  | 8  |
//! |-------|----:|--:|---:|---:|
//! | MiB   | 1   | 4 | 10 | 16 |

use core::fmt;
use core::str::FromStr;

use crate::tt::ENTRY_BYTES;

/// The table of a search by the clock (level 8), in MiB: the engine's default.
const LEVEL_8_HASH_MB: usize = 16;

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
    /// Whether the search looks at the captures after its last ply
    /// (quiescence); without it, a leaf is its static evaluation.
    pub(crate) quiescence: bool,
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

    /// The most nodes the level searches per move; `None` for level 8,
    /// which searches as long as its clock allows.
    pub const fn node_budget(self) -> Option<u64> {
        self.strength().nodes
    }

    /// The transposition table a search at this level needs, in MiB: room
    /// for twice its node budget (each node stores at most one entry), so
    /// that the table never limits the level; for level 8, which searches
    /// by the clock, the engine's default of 16 MiB.
    pub const fn hash_mb(self) -> usize {
        const MIB: usize = 1 << 20;
        match self.node_budget() {
            Some(nodes) => (nodes as usize * 2 * ENTRY_BYTES).div_ceil(MIB),
            None => LEVEL_8_HASH_MB,
        }
    }

    pub(crate) const fn strength(self) -> Strength {
        let (depth, nodes, noise) = match self.0 {
            1 => (Some(1), 300, 250),
            2 => (Some(2), 1_000, 150),
            3 => (None, 3_000, 90),
            4 => (None, 10_000, 50),
            5 => (None, 30_000, 25),
            6 => (None, 100_000, 10),
            7 => (None, 300_000, 0),
            _ => {
                return Strength {
                    depth: None,
                    nodes: None,
                    noise: 0,
                    quiescence: true,
                };
            }
        };
        Strength {
            depth,
            nodes: Some(nodes),
            noise,
            quiescence: self.0 > 1,
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
    fn each_level_searches_at_least_three_times_as_much_with_less_noise() {
        let strengths: Vec<Strength> = (1..=8).map(|n| Level::new(n).unwrap().strength()).collect();
        for pair in strengths.windows(2) {
            let [weaker, stronger] = pair else {
                unreachable!()
            };
            assert!(stronger.noise < weaker.noise || stronger.noise == 0);
            assert!(stronger.quiescence >= weaker.quiescence);
            assert!(stronger.depth.unwrap_or(u32::MAX) > weaker.depth.unwrap_or(u32::MAX) - 1);
            let (weak_nodes, strong_nodes) = (weaker.nodes.unwrap(), stronger.nodes);
            assert!(strong_nodes.is_none_or(|nodes| nodes >= 3 * weak_nodes));
        }
        assert_eq!(Level::MAX.node_budget(), None);
        assert!(!Level::MIN.strength().quiescence && Level::new(2).unwrap().strength().quiescence);
        assert_eq!("8".parse(), Ok(Level::MAX));
        assert!("0".parse::<Level>().is_err() && "9".parse::<Level>().is_err());
    }

    #[test]
    fn each_level_has_a_table_for_twice_its_node_budget() {
        let sizes: Vec<usize> = (1..=8).map(|n| Level::new(n).unwrap().hash_mb()).collect();
        assert_eq!(sizes, [1, 1, 1, 1, 1, 4, 10, 16]);
        assert_eq!(
            Level::MAX.hash_mb(),
            crate::EngineOptions::default().hash_mb
        );
        for level in (1..=7).map(|n| Level::new(n).unwrap()) {
            let entries = (level.hash_mb() << 20) / ENTRY_BYTES;
            assert!(
                entries as u64 >= 2 * level.node_budget().unwrap(),
                "level {level}"
            );
        }
    }
}
