//! Self-play: `generate` labels the positions of the engine's games
//! against itself, `match` plays this build against an older `koma`.
//!
//! Every game starts after [`RANDOM_PLIES`] random quiet plies of its seed,
//! so that games differ. `generate` writes one line per quiet position (its
//! side to move not in check, the engine's best move neither capturing nor
//! promoting): the game's result for the side to move (`1`, `0.5`, `0`),
//! the score of the search that chose the move (centipawns for the side to
//! move, mates as ±[`MATE_LABEL`]) and the SFEN (FEN in xiangqi). `match`
//! plays each opening twice, colours swapped.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use engine::{Decision, Engine, EngineOptions, Evaluate, Limits, Score, SearchResult};
use rules::{AnyGame, AnyMove, AnyPosition, Settings, Side, Variant};

/// Random quiet plies that open every game.
const RANDOM_PLIES: usize = 6;
/// Plies after which a game is drawn.
const MAX_PLIES: usize = 300;
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
pub(crate) fn generate(
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
pub(crate) fn play_match(
    variant: Variant,
    games: u64,
    nodes: u64,
    program: &str,
) -> std::io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_come_with_their_interval() {
        let (mean, margin) = score_interval(&[1.0, 0.0, 1.0, 0.0]);
        assert_eq!(mean, 0.5);
        // σ of one game is 0.5, of the mean of four 0.25.
        assert!((margin - 0.5).abs() < 1e-12);
    }

    #[test]
    fn mates_and_huge_scores_are_labelled_at_the_bound() {
        assert_eq!(score_label(Score::Mate(-3)), -MATE_LABEL);
        assert_eq!(score_label(Score::Mate(5)), MATE_LABEL);
        assert_eq!(score_label(Score::Cp(99_999)), MATE_LABEL);
        assert_eq!(score_label(Score::Cp(-120)), -120);
    }
}
