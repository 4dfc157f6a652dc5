//! Texel tuning of the evaluation weights on self-play games.
//!
//! ```text
//! cargo run --release -p engine --example tune -- generate VARIANT GAMES NODES FILE [FIRST]
//! cargo run --release -p engine --example tune -- fit VARIANT FILE [PASSES [LAMBDA]]
//! cargo run --release -p engine --example tune -- match VARIANT GAMES NODES ENGINE
//! ```
//!
//! `generate` plays GAMES games of the engine against itself at NODES nodes a
//! move, each after [`RANDOM_PLIES`] random quiet plies so that games differ
//! (the openings of seeds FIRST, 0 unless given, to FIRST + GAMES − 1, so that
//! a second run adds new games),
//! and writes one line per quiet position: the game's result for the side to
//! move (`1`, `0.5`, `0`), the score of the search that chose the move
//! (centipawns for the side to move, mates as ±[`MATE_LABEL`]) and the SFEN
//! (FEN in xiangqi), separated by spaces. A position is quiet when its side
//! to move is not in check and the engine's best move neither captures nor
//! promotes. Files without the score column are read too.
//!
//! `fit` reads such a file, fits the scale `K` of the sigmoid that turns an
//! evaluation into an expected result, and blends each position's result
//! with the search's expectation, `LAMBDA · sigmoid(score) + (1 − LAMBDA) ·
//! result` (LAMBDA 0 unless given: results only). The search saw a few
//! plies further than the evaluation, so its score teaches what the game's
//! result teaches only through the noise of everything played later. Then
//! `fit` moves each weight by a step as
//! long as that lowers the mean squared error over the positions (a local
//! search, steps 8, 4, 2, 1, at most PASSES passes over the weights each,
//! 2 unless given: more passes fitted the noise of self-play in shogi),
//! and prints the errors before and after and the new table as Rust source.
//! The last tenth of the file (the last games) is held out of the fit, and
//! the weights kept are those of the pass that predicts it best.
//!
//! `match` plays GAMES games between this build's evaluation (in process)
//! and ENGINE, a `koma` binary (built before the weights changed) spoken to
//! with `koma usi` or `koma uci`, both at NODES nodes a move, colours
//! alternating, each pair of games from the same random opening; it prints
//! this build's score with its ±2σ interval.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use engine::{Decision, Engine, EngineOptions, Evaluate, Limits, Score, SearchResult};
use rules::{AnyGame, AnyMove, AnyPosition, Settings, Side, Variant, shogi, xiangqi};

/// Random quiet plies that open every game.
const RANDOM_PLIES: usize = 6;
/// Plies after which a game is drawn.
const MAX_PLIES: usize = 300;
/// This fraction (one in so many) of the positions, the last ones of the
/// file, is held out of the fit to check it.
const HOLD_OUT: usize = 10;
/// The steps of the local search, largest first.
const STEPS: [i32; 4] = [8, 4, 2, 1];
/// A mate score's label, and the bound of every score label: beyond it the
/// sigmoid says the game is decided anyway.
const MATE_LABEL: i32 = 3000;

/// A small deterministic generator (splitmix64): openings differ by seed only.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays [`RANDOM_PLIES`] random moves from the start, captures avoided while
/// another move exists; `None` if the game ended on the way.
fn random_opening(variant: Variant, seed: u64) -> Option<AnyGame> {
    let mut game = AnyGame::new(variant, None, &Settings::default()).ok()?;
    let mut random = Random(seed);
    for _ in 0..RANDOM_PLIES {
        let position = game.position();
        let moves = position.legal_moves();
        let quiet: Vec<AnyMove> = moves
            .iter()
            .copied()
            .filter(|&mv| captured(&position, mv).is_none())
            .collect();
        let pool = if quiet.is_empty() { moves } else { quiet };
        if pool.is_empty() || game.outcome().is_some() {
            return None;
        }
        let mv = pool[random.below(pool.len())];
        game.play_text(&mv.to_string()).ok()?;
    }
    game.outcome().is_none().then_some(game)
}

/// The value of the piece `mv` captures in `position`, if any.
fn captured(position: &AnyPosition, mv: AnyMove) -> Option<i32> {
    match (position, mv) {
        (AnyPosition::Shogi(pos), AnyMove::Shogi(mv)) => pos.captured_value(mv),
        (AnyPosition::Xiangqi(pos), AnyMove::Xiangqi(mv)) => pos.captured_value(mv),
        _ => None,
    }
}

/// Whether the engine's choice `best` leaves `position` quiet enough to label.
fn is_quiet(position: &AnyPosition, best: AnyMove) -> bool {
    let promotes = match (position, best) {
        (AnyPosition::Shogi(pos), AnyMove::Shogi(mv)) => pos.is_promotion(mv),
        _ => false,
    };
    !position.is_check() && !promotes && captured(position, best).is_none()
}

fn new_engine(variant: Variant) -> Engine {
    Engine::new(EngineOptions {
        variant,
        seed: Some(0),
        ..EngineOptions::default()
    })
}

/// The engine's search of `game`'s current position.
fn decide(engine: &mut Engine, game: &AnyGame, nodes: u64) -> SearchResult {
    let moves = game.moves_text();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine.set_position(None, &moves).expect("legal game");
    engine.search(Limits::nodes(nodes))
}

/// A search's score as a label, for the side to move.
fn score_label(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-MATE_LABEL, MATE_LABEL),
        Score::Mate(plies) if plies > 0 => MATE_LABEL,
        Score::Mate(_) => -MATE_LABEL,
    }
}

/// The winner if `side`'s `decision` ends the game (resigning, or declaring
/// an impasse win), `None` if it is a move.
fn winner_after(decision: &Decision, side: Side) -> Option<Option<Side>> {
    match decision {
        Decision::Resign => Some(Some(side.opponent())),
        Decision::DeclareWin => Some(Some(side)),
        Decision::Move { .. } => None,
    }
}

/// `generate`: self-play games, quiet positions labelled with the result
/// and the search's score.
fn generate(
    variant: Variant,
    seeds: std::ops::Range<u64>,
    nodes: u64,
    out: &Path,
) -> std::io::Result<()> {
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = BufWriter::new(File::create(out)?);
    let mut engine = new_engine(variant);
    let (mut written, mut results) = (0, [0u64; 3]);
    let (first, games) = (seeds.start, seeds.end - seeds.start);
    for seed in seeds {
        let Some(mut game) = random_opening(variant, seed) else {
            continue;
        };
        engine.new_game();
        let mut quiet: Vec<(Side, i32, String)> = Vec::new();
        let mut winner = None;
        while game.moves_text().len() < MAX_PLIES {
            if let Some(outcome) = game.outcome() {
                winner = outcome.winner;
                break;
            }
            let side = game.side_to_move();
            let SearchResult { decision, info } = decide(&mut engine, &game, nodes);
            if let Some(end) = winner_after(&decision, side) {
                winner = end;
                break;
            }
            let Decision::Move { best, .. } = decision else {
                unreachable!("resign and win are handled above")
            };
            let position = game.position();
            if let Some(info) = info.filter(|_| is_quiet(&position, best)) {
                quiet.push((side, score_label(info.score), game.position_text()));
            }
            game.play_text(&best.to_string())
                .expect("the engine plays legal moves");
        }
        results[match winner {
            Some(Side::First) => 0,
            None => 1,
            Some(Side::Second) => 2,
        }] += 1;
        for (side, score, text) in quiet {
            let result = match winner {
                None => "0.5",
                Some(w) if w == side => "1",
                Some(_) => "0",
            };
            writeln!(file, "{result} {score} {text}")?;
            written += 1;
        }
        if (seed + 1 - first) % 20 == 0 {
            eprintln!("{} games, {written} positions", seed + 1 - first);
        }
    }
    file.flush()?;
    println!(
        "{variant}: {games} games (first +{} ={} second +{}), {written} positions in {}",
        results[0],
        results[1],
        results[2],
        out.display()
    );
    Ok(())
}

/// A labelled position: the result for the side to move, 0 to 1, and the
/// score of the search there (centipawns for the side to move), if known.
#[derive(Clone, Debug)]
struct Sample<P> {
    position: P,
    result: f64,
    score: Option<i32>,
}

/// Reads one line of a data file: `RESULT [SCORE] POSITION`.
fn parse_line<P>(
    line: &str,
    parse: &impl Fn(&str) -> Result<P, String>,
) -> Result<Sample<P>, String> {
    let (result, position) = line
        .trim()
        .split_once(' ')
        .ok_or("expected a result, a space and a position")?;
    let result = match result {
        "1" => 1.0,
        "0.5" => 0.5,
        "0" => 0.0,
        other => return Err(format!("bad result '{other}' (expected 1, 0.5 or 0)")),
    };
    let (score, position) = match position.trim().split_once(' ') {
        Some((score, rest)) => match score.parse::<i32>() {
            Ok(score) => (Some(score), rest),
            Err(_) => (None, position),
        },
        None => (None, position),
    };
    Ok(Sample {
        position: parse(position.trim())?,
        result,
        score,
    })
}

/// Reads a data file's text; an error names the first bad line (from 1).
/// Blank lines are skipped.
fn parse_data<P>(
    text: &str,
    parse: impl Fn(&str) -> Result<P, String>,
) -> Result<Vec<Sample<P>>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            parse_line(line, &parse).map_err(|error| format!("line {}: {error}", index + 1))
        })
        .collect()
}

/// The expected result of an evaluation `eval` (centipawns) with scale `k`.
fn sigmoid(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Mean squared error between results and the sigmoid of the evaluations.
fn mean_squared_error(evals: &[i32], results: &[f64], k: f64) -> f64 {
    let total: f64 = evals
        .iter()
        .zip(results)
        .map(|(&eval, &result)| (result - sigmoid(f64::from(eval), k)).powi(2))
        .sum();
    total / evals.len().max(1) as f64
}

/// The scale `k` with the lowest error: a scan, then finer scans around the best.
fn fit_k(evals: &[i32], results: &[f64]) -> f64 {
    let (mut best, mut width) = (1.0, 1.0);
    for _ in 0..4 {
        let candidates = (-10..=10).map(|i| best + width * f64::from(i) / 10.0);
        best = candidates
            .filter(|&k| k > 0.0)
            .map(|k| (k, mean_squared_error(evals, results, k)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(best, |(k, _)| k);
        width /= 10.0;
    }
    best
}

/// The error of `weights` over `samples`.
fn error_of<P: Evaluate>(samples: &[Sample<P>], weights: &P::Weights, k: f64) -> f64 {
    let evals: Vec<i32> = samples
        .iter()
        .map(|s| s.position.evaluate_with(weights))
        .collect();
    let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
    mean_squared_error(&evals, &results, k)
}

/// `fit`: Texel tuning of the weights `P` plays `samples`' game with. The
/// last [`HOLD_OUT`]th of the samples (the last games played) is held out:
/// the weights kept are those of the pass with the lowest held-out error,
/// so the search stops short of fitting the noise of the other games.
fn fit<P: Evaluate>(mut samples: Vec<Sample<P>>, passes: usize, lambda: f64) {
    let Some(first) = samples.first() else {
        println!("no positions");
        return;
    };
    let start = first.position.weights().clone();
    let test = samples.split_off(samples.len() - samples.len() / HOLD_OUT);
    let train = samples;
    let evals: Vec<i32> = train.iter().map(|s| s.position.evaluate()).collect();
    let results: Vec<f64> = train.iter().map(|s| s.result).collect();
    let k = fit_k(&evals, &results);
    let blend = |mut samples: Vec<Sample<P>>| {
        for sample in &mut samples {
            sample.result = blended(sample.result, sample.score, lambda, k);
        }
        samples
    };
    let (train, test) = (blend(train), blend(test));
    let before = (error_of(&train, &start, k), error_of(&test, &start, k));
    println!(
        "{} fitted, {} held out; K = {k:.3}; error before: fitted {:.6}, held out {:.6}",
        train.len(),
        test.len(),
        before.0,
        before.1
    );
    let names = P::weight_names();
    let mut values = P::weight_values(&start);
    let mut error = before.0;
    let (mut kept, mut kept_error) = (values.clone(), before);
    for step in STEPS {
        for pass in 0..passes {
            let mut improved = false;
            for index in 0..values.len() {
                for delta in [step, -step] {
                    values[index] += delta;
                    let tried = error_of(&train, &P::with_weight_values(&start, &values), k);
                    if tried < error {
                        error = tried;
                        improved = true;
                        break;
                    }
                    values[index] -= delta;
                }
            }
            let held_out = error_of(&test, &P::with_weight_values(&start, &values), k);
            eprintln!(
                "step {step}, pass {}: fitted {error:.6}, held out {held_out:.6}",
                pass + 1
            );
            if held_out < kept_error.1 {
                (kept, kept_error) = (values.clone(), (error, held_out));
            }
            if !improved {
                break;
            }
        }
    }
    println!(
        "error after: fitted {:.6}, held out {:.6}",
        kept_error.0, kept_error.1
    );
    for ((name, old), new) in names.iter().zip(P::weight_values(&start)).zip(&kept) {
        if old != *new {
            println!("{name}: {old} -> {new}");
        }
    }
    println!("{:#?}", P::with_weight_values(&start, &kept));
}

/// The target of the fit: `result` blended with the expectation of the
/// search's `score` at scale `k`, `lambda` of the latter.
fn blended(result: f64, score: Option<i32>, lambda: f64, k: f64) -> f64 {
    score.map_or(result, |score| {
        lambda * sigmoid(f64::from(score), k) + (1.0 - lambda) * result
    })
}

/// Reads the data file `path` of `variant`.
fn read_data<P>(
    path: &Path,
    parse: impl Fn(&str) -> Result<P, String>,
) -> Result<Vec<Sample<P>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_data(&text, parse).map_err(|e| format!("{}: {e}", path.display()))
}

/// An engine in another process, spoken to with USI (shogi family) or UCI (xiangqi).
struct External {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl External {
    fn start(program: &str, variant: Variant) -> std::io::Result<External> {
        let protocol = if variant == Variant::Xiangqi {
            "uci"
        } else {
            "usi"
        };
        let mut child = Command::new(program)
            .arg(protocol)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let mut engine = External {
            child,
            input,
            output,
        };
        engine.send(protocol)?;
        engine.wait_for(&format!("{protocol}ok"))?;
        if variant != Variant::Xiangqi {
            engine.send(&format!("setoption name USI_Variant value {variant}"))?;
        }
        engine.send("isready")?;
        engine.wait_for("readyok")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.input, "{line}")?;
        self.input.flush()
    }

    /// Reads lines up to one starting with `prefix`; returns it.
    fn wait_for(&mut self, prefix: &str) -> std::io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("the engine quit"));
            }
            if line.starts_with(prefix) {
                return Ok(line.trim().to_owned());
            }
        }
    }

    /// The engine's answer in `game`: a move, `resign`, `win` or `(none)`.
    fn best(&mut self, game: &AnyGame, nodes: u64, new_game: bool) -> std::io::Result<String> {
        if new_game {
            let new = if game.variant() == Variant::Xiangqi {
                "ucinewgame"
            } else {
                "usinewgame"
            };
            self.send(new)?;
        }
        let moves = game.moves_text();
        let position = if moves.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        self.send(&format!("go nodes {nodes}"))?;
        let line = self.wait_for("bestmove")?;
        Ok(line.split_whitespace().nth(1).unwrap_or("").to_owned())
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// Plays one game from `game`, this build as `ours`; returns the winner.
fn match_game(
    mut game: AnyGame,
    ours: Side,
    engine: &mut Engine,
    other: &mut External,
    nodes: u64,
) -> std::io::Result<Option<Side>> {
    engine.new_game();
    let mut first_move = true;
    while game.moves_text().len() < MAX_PLIES {
        if let Some(outcome) = game.outcome() {
            return Ok(outcome.winner);
        }
        let side = game.side_to_move();
        let text = if side == ours {
            let decision = decide(engine, &game, nodes).decision;
            if let Some(end) = winner_after(&decision, side) {
                return Ok(end);
            }
            let Decision::Move { best, .. } = decision else {
                unreachable!("resign and win are handled above")
            };
            best.to_string()
        } else {
            let text = other.best(&game, nodes, first_move)?;
            first_move = false;
            match text.as_str() {
                "resign" | "(none)" => return Ok(Some(side.opponent())),
                "win" => return Ok(Some(side)),
                _ => text,
            }
        };
        if let Err(error) = game.play_text(&text) {
            eprintln!("illegal move {text} by {side:?}: {error}");
            return Ok(Some(side.opponent()));
        }
    }
    Ok(game.outcome().and_then(|outcome| outcome.winner))
}

/// A score (0 to 1 per game) and its ±2σ half-width, from the games' scores.
fn score_interval(scores: &[f64]) -> (f64, f64) {
    let n = scores.len().max(1) as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let variance = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    (mean, 2.0 * (variance / n).sqrt())
}

/// `match`: this build against an older `koma` binary at equal nodes.
fn play_match(variant: Variant, games: u64, nodes: u64, program: &str) -> std::io::Result<()> {
    let mut engine = new_engine(variant);
    let mut other = External::start(program, variant)?;
    let (mut scores, mut record) = (Vec::new(), [0; 3]);
    let mut seed = 0;
    while (scores.len() as u64) < games {
        let Some(opening) = random_opening(variant, 1_000_000 + seed) else {
            seed += 1;
            continue;
        };
        for ours in [Side::First, Side::Second] {
            if scores.len() as u64 == games {
                break;
            }
            let winner = match_game(opening.clone(), ours, &mut engine, &mut other, nodes)?;
            let score = match winner {
                Some(side) if side == ours => 1.0,
                None => 0.5,
                Some(_) => 0.0,
            };
            record[(2.0 * score) as usize] += 1;
            scores.push(score);
            eprintln!("game {}: {score}", scores.len());
        }
        seed += 1;
    }
    let (mean, margin) = score_interval(&scores);
    println!(
        "{variant}: this build vs {program} at {nodes} nodes a move: {:.1}/{} (+{} ={} -{}), \
         {:.1}% ± {:.1}%",
        scores.iter().sum::<f64>(),
        scores.len(),
        record[2],
        record[1],
        record[0],
        100.0 * mean,
        100.0 * margin
    );
    Ok(())
}

fn parse_shogi(variant: Variant) -> impl Fn(&str) -> Result<shogi::Position, String> {
    move |text| {
        shogi::Position::from_sfen(text, variant, Default::default()).map_err(|e| e.to_string())
    }
}

fn parse_xiangqi(text: &str) -> Result<xiangqi::Position, String> {
    xiangqi::Position::from_fen(text).map_err(|e| e.to_string())
}

const USAGE: &str = "usage: tune generate VARIANT GAMES NODES FILE [FIRST] \
                     | fit VARIANT FILE [PASSES [LAMBDA]] \
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
            generate(variant, seeds, number(3)?, Path::new(arg(4)?)).map_err(|e| e.to_string())
        }
        "fit" => {
            let path = Path::new(arg(2)?);
            let passes = if args.len() > 3 { number(3)? } else { 2 } as usize;
            let lambda = match args.get(4) {
                None => 0.0,
                Some(text) => text
                    .parse::<f64>()
                    .ok()
                    .filter(|lambda| (0.0..=1.0).contains(lambda))
                    .ok_or_else(|| format!("LAMBDA '{text}' is not between 0 and 1\n{USAGE}"))?,
            };
            if variant == Variant::Xiangqi {
                fit(read_data(path, parse_xiangqi)?, passes, lambda);
            } else {
                fit(read_data(path, parse_shogi(variant))?, passes, lambda);
            }
            Ok(())
        }
        "match" => play_match(variant, number(2)?, number(3)?, arg(4)?).map_err(|e| e.to_string()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sigmoid_is_even_at_zero_and_saturates() {
        assert_eq!(sigmoid(0.0, 1.0), 0.5);
        // Four hundred centipawns at K = 1 are ten to one.
        assert!((sigmoid(400.0, 1.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((sigmoid(-400.0, 1.0) - 1.0 / 11.0).abs() < 1e-12);
        assert!(sigmoid(5000.0, 1.0) > 0.999);
    }

    #[test]
    fn the_error_is_the_mean_of_squared_misses() {
        // A draw at 0 cp is a perfect guess; a win at 0 cp misses by 0.5;
        // a loss at +400 cp misses by 10/11.
        let evals = [0, 0, 400];
        let results = [0.5, 1.0, 0.0];
        let expected = (0.0 + 0.25 + (10.0f64 / 11.0).powi(2)) / 3.0;
        assert!((mean_squared_error(&evals, &results, 1.0) - expected).abs() < 1e-12);
    }

    #[test]
    fn the_fitted_scale_matches_the_data() {
        // Results drawn exactly from the sigmoid with K = 0.8.
        let evals: Vec<i32> = (-20..=20).map(|i| i * 50).collect();
        let results: Vec<f64> = evals.iter().map(|&e| sigmoid(f64::from(e), 0.8)).collect();
        assert!((fit_k(&evals, &results) - 0.8).abs() < 0.01);
    }

    #[test]
    fn data_files_are_read_and_bad_lines_named() {
        let text = "1 4k4/9/9/9/9/9/9/9/4K4 b R 1\n\n0.5 4k4/9/9/9/9/9/9/9/4K4 w - 1\n";
        let samples = parse_data(text, parse_shogi(Variant::Shogi)).unwrap();
        assert_eq!(samples.len(), 2);
        assert_eq!(samples[0].result, 1.0);
        assert!(samples[0].position.evaluate() > 900);

        let bad_result = "1 4k4/9/9/9/9/9/9/9/4K4 b R 1\n2 4k4/9/9/9/9/9/9/9/4K4 b - 1\n";
        let error = parse_data(bad_result, parse_shogi(Variant::Shogi)).unwrap_err();
        assert!(error.starts_with("line 2: bad result '2'"), "{error}");

        let bad_position = "0 4k4/9/9\n";
        let error = parse_data(bad_position, parse_shogi(Variant::Shogi)).unwrap_err();
        assert!(error.starts_with("line 1: "), "{error}");

        let error = parse_data("\n\n1\n", parse_xiangqi).unwrap_err();
        assert!(error.starts_with("line 3: expected a result"), "{error}");
    }

    #[test]
    fn search_scores_are_read_when_given_and_blended_with_the_result() {
        let text = "1 -250 4k4/9/9/9/9/9/9/9/4K4 b R 1\n0 4k4/9/9/9/9/9/9/9/4K4 w - 1\n";
        let samples = parse_data(text, parse_shogi(Variant::Shogi)).unwrap();
        assert_eq!((samples[0].result, samples[0].score), (1.0, Some(-250)));
        assert_eq!((samples[1].result, samples[1].score), (0.0, None));
        assert!(samples[0].position.evaluate() > 900);
        // A won game the search scored -400 at K = 1: half of 1/11 and half of 1.
        let half = blended(1.0, Some(-400), 0.5, 1.0);
        assert!((half - (0.5 / 11.0 + 0.5)).abs() < 1e-12);
        assert_eq!(blended(1.0, Some(-400), 0.0, 1.0), 1.0);
        assert_eq!(blended(0.0, None, 0.7, 1.0), 0.0);
        assert_eq!(score_label(Score::Mate(-3)), -MATE_LABEL);
        assert_eq!(score_label(Score::Cp(99_999)), MATE_LABEL);
    }

    #[test]
    fn scores_come_with_their_interval() {
        let (mean, margin) = score_interval(&[1.0, 0.0, 1.0, 0.0]);
        assert_eq!(mean, 0.5);
        // σ of one game is 0.5, of the mean of four 0.25.
        assert!((margin - 0.5).abs() < 1e-12);
    }

    #[test]
    fn weights_round_trip_through_their_list() {
        let pos = shogi::Position::startpos(Variant::Shogi, &Settings::default());
        let weights = pos.weights();
        let values = shogi::Position::weight_values(weights);
        assert_eq!(values.len(), shogi::Position::weight_names().len());
        assert_eq!(
            &shogi::Position::with_weight_values(weights, &values),
            weights
        );
        // The tempo is the only term the start does not balance.
        let names = shogi::Position::weight_names();
        let tempo = names.iter().position(|n| n == "tempo").unwrap();
        let mut changed = values.clone();
        changed[tempo] += 7;
        let changed = shogi::Position::with_weight_values(weights, &changed);
        assert_eq!(pos.evaluate_with(&changed), pos.evaluate() + 7);
        // A table of tables is listed row by row, each number named by both indices.
        let cell = names
            .iter()
            .position(|n| n == "around_own_king[4][7]")
            .unwrap();
        assert_eq!(names[cell + 1], "around_own_king[4][8]");
        let mut changed = values.clone();
        changed[cell] += 5;
        let changed = shogi::Position::with_weight_values(weights, &changed);
        assert_eq!(
            changed.around_own_king[4][7],
            weights.around_own_king[4][7] + 5
        );
        assert_eq!(changed.around_own_king[4][8], weights.around_own_king[4][8]);
    }
}
