//! Self-play between neighbouring levels: does each level beat the one below?
//!
//! `cargo run --release -p engine --example ladder -- [GAMES] [CLOCK] [VARIANT] [WEAK STRONG]`
//! plays levels n against n+1 (or WEAK against STRONG) in every variant (or
//! VARIANT), colours alternating, and prints the stronger player's score
//! with its ±2σ interval.
//!
//! CLOCK is `budget` (the default): each level searches its own node budget
//! with no clock, so the result is the same on every machine; level 8, which
//! has no budget of its own, gets [`LEVEL_8_NODES`]. Or CLOCK is a number of
//! milliseconds per move for every level.
//!
//! WEAK and STRONG are players: a level (`3`), a level with its own
//! milliseconds per move whatever CLOCK says (`8@300`), or `hang`, the
//! hang-avoider of [`hang`], the simple player level 1 should lose to.
//!
//! Each pair of games opens with the same [`OPENING_PLIES`] plies, chosen by
//! level 2 with the pair's seed, then swaps colours: without this, two levels
//! without noise would replay one game. Games longer than [`MAX_PLIES`] plies
//! are drawn. `LADDER_VERBOSE=1` prints each game.

use std::time::{Duration, Instant};

use engine::{Decision, Engine, EngineOptions, Level, Limits};
use rules::{AnyGame, Settings, Side, Variant};

mod hang;

/// Plies after which a game is drawn.
const MAX_PLIES: usize = 200;
/// Plies of the shared, varied opening of each pair of games.
const OPENING_PLIES: usize = 2;
/// Level 8's nodes per move in `budget` mode: about 3.3 times level 7's.
const LEVEL_8_NODES: u64 = 1_000_000;

/// How long each move is searched.
#[derive(Copy, Clone)]
enum Clock {
    /// Each level's node budget, no clock.
    Budget,
    /// This long per move, any level.
    MoveTime(Duration),
}

impl std::str::FromStr for Clock {
    type Err = String;

    /// Reads `budget` or milliseconds per move.
    fn from_str(text: &str) -> Result<Clock, String> {
        if text == "budget" {
            return Ok(Clock::Budget);
        }
        text.parse()
            .map(|ms| Clock::MoveTime(Duration::from_millis(ms)))
            .map_err(|_| format!("'{text}' is neither `budget` nor milliseconds per move"))
    }
}

impl Clock {
    fn limits(self, level: Level) -> Limits {
        match self {
            Clock::Budget => Limits::nodes(level.node_budget().unwrap_or(LEVEL_8_NODES)),
            Clock::MoveTime(time) => Limits {
                move_time: Some(time),
                ..Limits::default()
            },
        }
    }
}

/// One side of a match.
#[derive(Copy, Clone, Debug)]
enum Player {
    /// The engine at a level, at the match's clock or at its own time per move.
    Engine(Level, Option<Duration>),
    /// The [`hang`] player.
    HangAvoider,
}

impl std::str::FromStr for Player {
    type Err = String;

    /// Reads `3`, `8@300` (milliseconds per move) or `hang`.
    fn from_str(text: &str) -> Result<Player, String> {
        if text == "hang" {
            return Ok(Player::HangAvoider);
        }
        let (level, time) = match text.split_once('@') {
            Some((level, ms)) => {
                let ms = ms
                    .parse()
                    .map_err(|_| format!("'{ms}' is not a number of milliseconds"))?;
                (level, Some(Duration::from_millis(ms)))
            }
            None => (text, None),
        };
        let level = level
            .parse()
            .map_err(|_| format!("'{level}' is not a level (1 to 8) nor `hang`"))?;
        Ok(Player::Engine(level, time))
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Engine(level, None) => write!(f, "level {level}"),
            Player::Engine(level, Some(time)) => {
                write!(f, "level {level} at {} ms", time.as_millis())
            }
            Player::HangAvoider => f.write_str("the hang-avoider"),
        }
    }
}

/// A player ready to play one game.
enum Seat {
    Engine(Box<Engine>, Limits),
    HangAvoider(u64),
}

impl Seat {
    fn new(player: Player, variant: Variant, seed: u64, clock: Clock) -> Seat {
        match player {
            Player::Engine(level, time) => {
                let limits = match time {
                    Some(time) => Clock::MoveTime(time).limits(level),
                    None => clock.limits(level),
                };
                Seat::Engine(
                    Box::new(engine(variant, level, seed ^ u64::from(level.get()))),
                    limits,
                )
            }
            Player::HangAvoider => Seat::HangAvoider(seed),
        }
    }

    fn decide(&mut self, game: &AnyGame) -> Decision {
        match self {
            Seat::Engine(engine, limits) => decide(engine, game, limits.clone()),
            Seat::HangAvoider(random) => {
                *random = splitmix(*random);
                match hang::hang_avoider_move(&game.position(), *random) {
                    Some(best) => Decision::Move { best, ponder: None },
                    None => Decision::Resign,
                }
            }
        }
    }
}

/// SplitMix64: the hang-avoider's random numbers, the same for every run.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn engine(variant: Variant, level: Level, seed: u64) -> Engine {
    Engine::new(EngineOptions {
        variant,
        level,
        seed: Some(seed),
        hash_mb: 8,
        ..EngineOptions::default()
    })
}

/// Sets `engine` to the game's position and searches it.
fn decide(engine: &mut Engine, game: &AnyGame, limits: Limits) -> Decision {
    let moves = game.moves_text();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine.set_position(None, &moves).expect("legal game");
    engine.search(limits).decision
}

/// Plays one game; returns the winner, `None` for a draw, and the plies played.
fn play(
    variant: Variant,
    players: [Player; 2],
    opening_seed: u64,
    seed: u64,
    clock: Clock,
) -> (Option<Side>, usize) {
    let mut game = AnyGame::new(variant, None, &Settings::default()).expect("start position");
    let (winner, end) = finish(&mut game, variant, players, opening_seed, seed, clock);
    let plies = game.moves_text().len();
    if std::env::var_os("LADDER_VERBOSE").is_some() {
        eprintln!(
            "{variant} {} v {}: {end} after {plies} plies: {}",
            players[0],
            players[1],
            game.moves_text().join(" ")
        );
    }
    (winner, plies)
}

/// Plays `game` to its end or to [`MAX_PLIES`]; returns the winner and how the game ended.
fn finish(
    game: &mut AnyGame,
    variant: Variant,
    players: [Player; 2],
    opening_seed: u64,
    seed: u64,
    clock: Clock,
) -> (Option<Side>, String) {
    let mut opener = engine(variant, Level::new(2).expect("level 2"), opening_seed);
    let mut seats = players.map(|player| Seat::new(player, variant, seed, clock));
    for ply in 0..MAX_PLIES {
        if let Some(outcome) = game.outcome() {
            return (outcome.winner, outcome.to_string());
        }
        let side = game.side_to_move();
        let decision = if ply < OPENING_PLIES {
            decide(&mut opener, game, Limits::depth(2))
        } else {
            seats[side.index()].decide(game)
        };
        match decision {
            Decision::Move { best, .. } => {
                game.play(best).expect("players play legal moves");
            }
            Decision::Resign => return (Some(side.opponent()), format!("{side:?} resigns")),
            Decision::DeclareWin => return (Some(side), format!("{side:?} declares a win")),
        }
    }
    match game.outcome() {
        Some(outcome) => (outcome.winner, outcome.to_string()),
        None => (None, "draw by the ladder's ply limit".to_owned()),
    }
}

/// A score (0 to 1 per game) and its ±2σ half-width, from the games' scores.
fn score_interval(scores: &[f64]) -> (f64, f64) {
    let n = scores.len().max(1) as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let variance = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    (mean, 2.0 * (variance / n).sqrt())
}

/// The ladder's arguments, positional as in the module's documentation.
#[derive(clap::Parser)]
#[command(about = "Self-play between neighbouring levels, or between two players")]
struct Args {
    /// Games per pairing (colours alternate).
    #[arg(default_value_t = 10)]
    games: u64,
    /// `budget` (each level's node budget) or milliseconds per move.
    #[arg(default_value = "budget")]
    clock: Clock,
    /// A variant, or `all`.
    #[arg(default_value = "all")]
    variant: String,
    /// The weaker player: a level (`3`), a level at its own time (`8@300`) or `hang`.
    #[arg(requires = "strong")]
    weak: Option<Player>,
    /// The stronger player, written as WEAK is.
    strong: Option<Player>,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let (games, clock) = (args.games, args.clock);
    let variants = if args.variant == "all" {
        Variant::ALL.to_vec()
    } else {
        match args.variant.parse::<Variant>() {
            Ok(variant) => vec![variant],
            Err(err) => {
                eprintln!("ladder: {err}");
                std::process::exit(2);
            }
        }
    };
    let pairs: Vec<(Player, Player)> = match (args.weak, args.strong) {
        (Some(weak), Some(strong)) => vec![(weak, strong)],
        _ => (1..8)
            .filter_map(|weak| {
                let level = |n| Some(Player::Engine(Level::new(n)?, None));
                Some((level(weak)?, level(weak + 1)?))
            })
            .collect(),
    };
    for variant in variants {
        for &(weak, strong) in &pairs {
            let start = Instant::now();
            let (mut wins, mut draws, mut losses, mut plies) = (0, 0, 0, 0);
            let mut scores = Vec::new();
            for game in 0..games {
                // Alternate colours: the stronger player moves first in even games.
                let (players, strong_side) = if game % 2 == 0 {
                    ([strong, weak], Side::First)
                } else {
                    ([weak, strong], Side::Second)
                };
                let (winner, length) = play(variant, players, 500 + game / 2, 1000 + game, clock);
                plies += length;
                scores.push(match winner {
                    Some(side) if side == strong_side => {
                        wins += 1;
                        1.0
                    }
                    Some(_) => {
                        losses += 1;
                        0.0
                    }
                    None => {
                        draws += 1;
                        0.5
                    }
                });
            }
            let (mean, error) = score_interval(&scores);
            println!(
                "{variant}: {strong} vs {weak}: {}/{games} (+{wins} ={draws} -{losses}), \
                 {:.1}% ± {:.1}%, {:.0} plies a game, {:.0} s",
                scores.iter().sum::<f64>(),
                100.0 * mean,
                100.0 * error,
                plies as f64 / games.max(1) as f64,
                start.elapsed().as_secs_f64()
            );
        }
    }
}
