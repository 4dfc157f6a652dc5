//! Times xiangqi perft from a position: `cargo run --release --example
//! xiangqi_perft -- [depth] [runs] [fen]` (defaults: 5, 5, the start).
//! Prints every run and the median.

use std::time::Instant;

use rules::perft::perft;
use rules::xiangqi::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = args.first().and_then(|d| d.parse().ok()).unwrap_or(5);
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(5).max(1);
    let pos = match args.get(2) {
        Some(fen) => match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(err) => {
                eprintln!("{err}");
                std::process::exit(2);
            }
        },
        None => Position::startpos(),
    };
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let nodes = perft(&pos, depth);
        let elapsed = start.elapsed();
        println!("perft {depth}: {nodes} nodes in {elapsed:.3?}");
        times.push(elapsed);
    }
    times.sort();
    println!("median of {runs}: {:.3?}", times[runs / 2]);
}
