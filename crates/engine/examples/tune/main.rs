//! Tuning of the evaluation weights on self-play games.
//!
//! ```text
//! cargo run --release -p engine --example tune -- generate VARIANT GAMES NODES FILE [FIRST]
//! cargo run --release -p engine --example tune -- fit VARIANT FILE [LAMBDA] [--free NAME,...]
//! cargo run --release -p engine --example tune -- match VARIANT GAMES NODES ENGINE
//! cargo run --release -p engine --example tune -- eval VARIANT FILE
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
//! `scripts/tuning/apply.py` (`fit`). With `--free`, only the weights and
//! tables named are fitted and every other weight stays as it is: a new
//! term can be fitted to data without refitting the whole table around it.
//!
//! `match` plays GAMES games between this build's evaluation (in process)
//! and ENGINE, a `koma` binary built before the weights changed, both at
//! NODES nodes a move, and prints this build's score with its ±2σ
//! interval (`play`).
//!
//! `eval` prints the hand-made evaluation of each position of a data file
//! (without a network's share), a line each: the base that minishogi's
//! network is trained to add to (`scripts/tuning/network.py`).

use std::io::Write as _;
use std::path::Path;

use engine::Evaluate;

use rules::Variant;

mod data;
mod fit;
mod play;

const USAGE: &str = "usage: tune generate VARIANT GAMES NODES FILE [FIRST] \
                     | fit VARIANT FILE [LAMBDA] [--free NAME,...] \
                     | match VARIANT GAMES NODES ENGINE \
                     | eval VARIANT FILE";

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
            // `--free NAME,...` may stand anywhere after FILE.
            let mut rest: Vec<&str> = args[3..].iter().map(String::as_str).collect();
            let mut free = Vec::new();
            if let Some(at) = rest.iter().position(|&text| text == "--free") {
                let names = rest.get(at + 1).ok_or(USAGE)?;
                free = names.split(',').map(str::to_owned).collect();
                rest.drain(at..at + 2);
            }
            let lambda = match rest.first() {
                None => 1.0,
                Some(text) => text
                    .parse::<f64>()
                    .ok()
                    .filter(|lambda| (0.0..=1.0).contains(lambda))
                    .ok_or_else(|| format!("LAMBDA '{text}' is not between 0 and 1\n{USAGE}"))?,
            };
            if variant == Variant::Xiangqi {
                fit::fit(data::read_data(path, data::parse_xiangqi)?, lambda, &free);
            } else {
                fit::fit(
                    data::read_data(path, data::parse_shogi(variant))?,
                    lambda,
                    &free,
                );
            }
            Ok(())
        }
        "eval" => {
            let path = Path::new(arg(2)?);
            if variant == Variant::Xiangqi {
                print_evals(&data::read_data(path, data::parse_xiangqi)?);
            } else {
                print_evals(&data::read_data(path, data::parse_shogi(variant))?);
            }
            Ok(())
        }
        "match" => {
            play::play_match(variant, number(2)?, number(3)?, arg(4)?).map_err(|e| e.to_string())
        }
        _ => Err(USAGE.to_owned()),
    }
}

/// `eval`: the evaluation of every sample without a network's share (the
/// weight `network`, where the game has one), a line each.
fn print_evals<P: Evaluate>(samples: &[data::Sample<P>]) {
    let Some(first) = samples.first() else {
        return;
    };
    let weights = first.position.weights();
    let mut values = P::weight_values(weights);
    if let Some(share) = P::weight_names().iter().position(|name| name == "network") {
        values[share] = 0;
    }
    let hand_made = P::with_weight_values(weights, &values);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for sample in samples {
        // A closed pipe ends the listing.
        if writeln!(out, "{}", sample.position.evaluate_with(&hand_made)).is_err() {
            return;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(error) = run(&args) {
        eprintln!("tune: {error}");
        std::process::exit(2);
    }
}
