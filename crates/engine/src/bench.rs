//! `bench`: a fixed-depth search of fixed positions of all four games on one
//! thread. The total node count is the engine's signature: any change to
//! search or evaluation changes it, and it is the same on every machine.

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
    /// Nodes searched in all positions: the signature.
    pub nodes: u64,
    /// Wall-clock time of the searches.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
}

/// Searches every bench position to `depth` with a fresh 16 MiB table and one thread.
pub fn bench(depth: u32) -> BenchReport {
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for &(variant, position) in POSITIONS {
        let mut engine = Engine::new(EngineOptions {
            variant,
            seed: Some(0),
            ..EngineOptions::default()
        });
        if engine.set_position(Some(position), &[]).is_err() {
            continue;
        }
        let start = Instant::now();
        let result = engine.search(Limits::depth(depth));
        time += start.elapsed();
        nodes += result.info.map_or(0, |info| info.nodes);
    }
    BenchReport {
        nodes,
        time,
        nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
    }
}
