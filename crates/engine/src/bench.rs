//! `bench`: a fixed-depth search of fixed positions of all four games on one
//! thread. The total node count is the engine's signature: any change to
//! search or evaluation changes it, and it is the same on every machine.

use core::fmt;
use std::time::{Duration, Instant};

use rules::Variant;

use crate::{Engine, EngineOptions, Limits};

/// The default depth of `bench`.
pub const DEFAULT_DEPTH: u32 = 10;

/// The positions searched, with their game.
const POSITIONS: &[(Variant, &str)] = &[
    (Variant::Shogi, "startpos"),
    // Double Yagura-like middlegame, bishops exchanged.
    (
        Variant::Shogi,
        "ln1g3nl/1r1sgk3/p1ppppsp1/1p4p1p/7P1/2P1P4/PPSP1PP1P/2G2S1R1/LN2KG1NL b Bb 17",
    ),
    // A mating attack with pieces in hand.
    (
        Variant::Shogi,
        "ln3k1nl/1r3bg2/p1ppsgsp1/4ppp1p/1p5P1/2P1PPP2/PPSP1S2P/1BG1G2R1/LN1K3NL b - 29",
    ),
    (Variant::Minishogi, "startpos"),
    (Variant::Annan, "startpos"),
    (Variant::Xiangqi, "startpos"),
    // A central-cannon opening after a few moves.
    (
        Variant::Xiangqi,
        "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    ),
];

/// What a bench run measured.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct BenchReport {
    /// Each game's share, in the order of the first position of the game.
    pub games: Vec<GameBench>,
    /// Nodes searched in all positions: the signature.
    pub nodes: u64,
    /// Wall-clock time of the searches.
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second over all positions.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.time)
    }
}

/// The nodes and time of one game's bench positions: nodes per second
/// differ between the games (board size, drops), so they are told apart.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct GameBench {
    /// The game.
    pub variant: Variant,
    /// Nodes searched in its positions.
    pub nodes: u64,
    /// Wall-clock time of those searches.
    pub time: Duration,
}

impl GameBench {
    /// Nodes per second in this game's positions.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.time)
    }
}

/// Searches every bench position to `depth` with a fresh 16 MiB table and one thread.
pub fn bench(depth: u32) -> BenchReport {
    let mut games: Vec<GameBench> = Vec::new();
    for &(variant, position) in POSITIONS {
        let mut engine = Engine::new(EngineOptions {
            variant,
            seed: Some(0),
            ..EngineOptions::default()
        });
        engine
            .set_position(Some(position), &[])
            .expect("the bench positions are valid");
        let start = Instant::now();
        let result = engine.search(Limits::depth(depth));
        let time = start.elapsed();
        let nodes = result.info.map_or(0, |info| info.nodes);
        match games.iter_mut().find(|game| game.variant == variant) {
            Some(game) => {
                game.nodes += nodes;
                game.time += time;
            }
            None => games.push(GameBench {
                variant,
                nodes,
                time,
            }),
        }
    }
    let nodes = games.iter().map(|game| game.nodes).sum();
    let time = games.iter().map(|game| game.time).sum();
    BenchReport { games, nodes, time }
}

fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64
}

/// A line per game, then the totals as Stockfish's `bench` ends:
/// `Nodes searched`, `Time` (ms) and `Nodes/second`.
impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for game in &self.games {
            writeln!(
                f,
                "{}: {} nodes, {} ms, {} nodes/second",
                game.variant,
                game.nodes,
                game.time.as_millis(),
                game.nps()
            )?;
        }
        writeln!(f, "Nodes searched: {}", self.nodes)?;
        writeln!(f, "Time: {} ms", self.time.as_millis())?;
        write!(f, "Nodes/second: {}", self.nps())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_benched_and_the_totals_add_up() {
        let report = bench(2);
        let variants: Vec<Variant> = report.games.iter().map(|game| game.variant).collect();
        assert_eq!(variants, Variant::ALL);
        assert!(report.games.iter().all(|game| game.nodes > 0));
        let nodes: u64 = report.games.iter().map(|game| game.nodes).sum();
        assert_eq!(report.nodes, nodes);
        let text = report.to_string();
        assert!(text.starts_with("shogi: "), "{text}");
        assert!(
            text.contains(&format!("\nNodes searched: {nodes}\n")),
            "{text}"
        );
    }
}
