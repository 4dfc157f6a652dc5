//! Move generation speed: perft on published positions, timed.
//!
//! `cargo bench -p rules --bench perft` prints, per case, the median of five
//! runs and the leaves per second. Every run checks its node count, so a wrong
//! generator cannot look fast. `cargo bench -p rules --bench perft -- xiangqi`
//! runs only the cases whose name contains `xiangqi`.

use std::time::{Duration, Instant};

use rules::{AnyPosition, Settings, Variant, perft::perft};

/// (name, variant, position, depth, published leaf count)
const CASES: &[(&str, Variant, &str, u32, u64)] = &[
    ("shogi-startpos", Variant::Shogi, "startpos", 5, 19_861_490),
    (
        "shogi-matsuri",
        Variant::Shogi,
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        3,
        4_809_015,
    ),
    (
        "minishogi-startpos",
        Variant::Minishogi,
        "startpos",
        5,
        533_203,
    ),
    ("annan-startpos", Variant::Annan, "startpos", 4, 1_002_013),
    (
        "xiangqi-startpos",
        Variant::Xiangqi,
        "startpos",
        5,
        133_312_995,
    ),
];

const RUNS: usize = 5;

fn main() {
    let filter = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    for &(name, variant, position, depth, expected) in CASES {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let position = AnyPosition::new(variant, Some(position), &Settings::default())
            .expect("benchmark positions are valid");
        let mut times: Vec<Duration> = (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                let nodes = match &position {
                    AnyPosition::Shogi(pos) => perft(pos, depth),
                    AnyPosition::Xiangqi(pos) => perft(pos, depth),
                };
                let elapsed = start.elapsed();
                assert_eq!(nodes, expected, "{name} perft {depth}");
                elapsed
            })
            .collect();
        times.sort_unstable();
        let median = times[RUNS / 2];
        println!(
            "{name:<20} perft {depth}  {expected:>12} nodes  median {:>8.3} s  {:>6.1} Mnps",
            median.as_secs_f64(),
            expected as f64 / median.as_secs_f64() / 1e6
        );
    }
}
