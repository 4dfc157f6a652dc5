//! Tuning of the evaluation weights on self-play games.
//!
//! ```text
//! cargo run --release -p engine --example tune -- generate VARIANT GAMES NODES FILE [FIRST]
//! cargo run --release -p engine --example tune -- fit VARIANT FILE [LAMBDA]
//! cargo run --release -p engine --example tune -- match VARIANT GAMES NODES ENGINE
//! ```
//!
//! `generate` plays GAMES games of the engine against itself at NODES nodes
//! a move, from the random openings of seeds FIRST (0 unless given) to
//! FIRST + GAMES − 1, so that a second run adds new games, and writes its
//! quiet positions labelled with the game's result and the search's score
//! (`play`, and `data` for the file).
//!
//! `fit` fits every weight of VARIANT's table to such a file, each
//! position's target LAMBDA (1 unless given) of the search's score and the
//! rest of the game's result, and prints the new table as Rust source for
//! `scripts/tuning/apply.py` (`fit`).
//!
//! `match` plays GAMES games between this build's evaluation (in process)
//! and ENGINE, a `koma` binary built before the weights changed, both at
//! NODES nodes a move, and prints this build's score with its ±2σ
//! interval (`play`).

use std::path::Path;

use rules::Variant;

mod data;
mod fit;
mod play;

const USAGE: &str = "usage: tune generate VARIANT GAMES NODES FILE [FIRST] \
                     | fit VARIANT FILE [LAMBDA] \
                     | match VARIANT GAMES NODES ENGINE";

fn run(args: &[String]) -> Result<(), String> {
    let arg = |index: usize| args.get(index).map(String::as_str).ok_or(USAGE);
    let number = |index: usize| -> Result<u64, String> {
        let text = arg(index)?;
        text.parse()
            .map_err(|_| format!("'{text}' is not a number\n{USAGE}"))
    };
    let variant: Variant = arg(1)?.parse().map_err(|e| format!("{e}"))?;
    match arg(0)? {
        "generate" => {
            let first = if args.len() > 5 { number(5)? } else { 0 };
            let seeds = first..first + number(2)?;
            play::generate(variant, seeds, number(3)?, Path::new(arg(4)?))
                .map_err(|e| e.to_string())
        }
        "fit" => {
            let path = Path::new(arg(2)?);
            let lambda = match args.get(3) {
                None => 1.0,
                Some(text) => text
                    .parse::<f64>()
                    .ok()
                    .filter(|lambda| (0.0..=1.0).contains(lambda))
                    .ok_or_else(|| format!("LAMBDA '{text}' is not between 0 and 1\n{USAGE}"))?,
            };
            if variant == Variant::Xiangqi {
                fit::fit(data::read_data(path, data::parse_xiangqi)?, lambda);
            } else {
                fit::fit(data::read_data(path, data::parse_shogi(variant))?, lambda);
            }
            Ok(())
        }
        "match" => {
            play::play_match(variant, number(2)?, number(3)?, arg(4)?).map_err(|e| e.to_string())
        }
        _ => Err(USAGE.to_owned()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(error) = run(&args) {
        eprintln!("tune: {error}");
        std::process::exit(2);
    }
}
