//! Release timing of shogi and minishogi perft 5, median of 5 runs. Not an
//! assertion, a measurement:
//! `cargo test --release -p rules --test shogi_timing -- --ignored --nocapture`.

use std::time::{Duration, Instant};

use rules::perft::perft;
use rules::shogi::Position;
use rules::{Settings, Variant};

fn median_of_five(variant: Variant, depth: u32, expected: u64) -> Duration {
    let pos = Position::startpos(variant, &Settings::default());
    let mut times: Vec<Duration> = (0..5)
        .map(|_| {
            let start = Instant::now();
            assert_eq!(perft(&pos, depth), expected);
            start.elapsed()
        })
        .collect();
    times.sort();
    times[2]
}

#[test]
#[ignore = "timing, run in release with --ignored --nocapture"]
fn perft_timing() {
    for (variant, depth, expected) in [
        (Variant::Shogi, 5, 19_861_490),
        (Variant::Minishogi, 5, 533_203),
        (Variant::Annan, 4, 1_002_013),
    ] {
        let median = median_of_five(variant, depth, expected);
        println!("{variant} perft {depth}: {expected} nodes, median of 5: {median:.3?}");
    }
}
