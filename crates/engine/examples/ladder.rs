//! Self-play between neighbouring levels: does each level beat the one below?
//!
//! `cargo run --release -p engine --example ladder -- [GAMES] [CLOCK] [VARIANT] [WEAK STRONG]`
//! plays levels n against n+1 (or WEAK against STRONG) in every variant (or
//! VARIANT), colours alternating, and prints the stronger level's score.
//!
//! CLOCK is `budget` (the default): each level searches its own node budget
//! with no clock, so the result is the same on every machine; level 8, which
//! has no budget of its own, gets [`LEVEL_8_NODES`]. Or CLOCK is a number of
//! milliseconds per move for every level.
//!
//! Each pair of games opens with the same [`OPENING_PLIES`] plies, chosen by
//! level 2 with the pair's seed, then swaps colours: without this, two levels
//! without noise would replay one game. Games longer than [`MAX_PLIES`] plies
//! are drawn. `LADDER_VERBOSE=1` prints each game.

use std::time::{Duration, Instant};

use engine::{Decision, Engine, EngineOptions, Level, Limits};
use rules::{AnyGame, Settings, Side, Variant};

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
    levels: [Level; 2],
    opening_seed: u64,
    seed: u64,
    clock: Clock,
) -> (Option<Side>, usize) {
    let mut game = AnyGame::new(variant, None, &Settings::default()).expect("start position");
    let (winner, end) = finish(&mut game, variant, levels, opening_seed, seed, clock);
    let plies = game.moves_text().len();
    if std::env::var_os("LADDER_VERBOSE").is_some() {
        eprintln!(
            "{variant} {levels:?}: {end} after {plies} plies: {}",
            game.moves_text().join(" ")
        );
    }
    (winner, plies)
}

/// Plays `game` to its end or to [`MAX_PLIES`]; returns the winner and how the game ended.
fn finish(
    game: &mut AnyGame,
    variant: Variant,
    levels: [Level; 2],
    opening_seed: u64,
    seed: u64,
    clock: Clock,
) -> (Option<Side>, String) {
    let mut opener = engine(variant, Level::new(2).expect("level 2"), opening_seed);
    let mut engines = levels.map(|level| engine(variant, level, seed ^ u64::from(level.get())));
    for ply in 0..MAX_PLIES {
        if let Some(outcome) = game.outcome() {
            return (outcome.winner, outcome.to_string());
        }
        let side = game.side_to_move();
        let decision = if ply < OPENING_PLIES {
            decide(&mut opener, game, Limits::depth(2))
        } else {
            decide(
                &mut engines[side.index()],
                game,
                clock.limits(levels[side.index()]),
            )
        };
        match decision {
            Decision::Move { best, .. } => {
                game.play_text(&best.to_string())
                    .expect("the engine plays legal moves");
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(10);
    let clock = match args.get(1).map(String::as_str) {
        None | Some("budget") => Clock::Budget,
        Some(ms) => Clock::MoveTime(Duration::from_millis(ms.parse().unwrap_or(200))),
    };
    let variants = match args.get(2).and_then(|a| a.parse::<Variant>().ok()) {
        Some(variant) => vec![variant],
        None => vec![
            Variant::Shogi,
            Variant::Minishogi,
            Variant::Annan,
            Variant::Xiangqi,
        ],
    };
    let level = |arg: Option<&String>| arg.and_then(|a| a.parse::<Level>().ok());
    let pairs: Vec<(Level, Level)> = match (level(args.get(3)), level(args.get(4))) {
        (Some(weak), Some(strong)) => vec![(weak, strong)],
        _ => (1..8)
            .filter_map(|weak| Some((Level::new(weak)?, Level::new(weak + 1)?)))
            .collect(),
    };
    for variant in variants {
        for &(weak, strong) in &pairs {
            let start = Instant::now();
            let (mut wins, mut draws, mut losses, mut plies) = (0, 0, 0, 0);
            for game in 0..games {
                // Alternate colours: the stronger level moves first in even games.
                let (levels, strong_side) = if game % 2 == 0 {
                    ([strong, weak], Side::First)
                } else {
                    ([weak, strong], Side::Second)
                };
                let (winner, length) = play(variant, levels, 500 + game / 2, 1000 + game, clock);
                plies += length;
                match winner {
                    Some(side) if side == strong_side => wins += 1,
                    Some(_) => losses += 1,
                    None => draws += 1,
                }
            }
            let score = f64::from(wins) + f64::from(draws) / 2.0;
            println!(
                "{variant}: level {strong} vs {weak}: {score}/{games} (+{wins} ={draws} -{losses}), \
                 {:.0} plies a game, {:.0} s",
                plies as f64 / games.max(1) as f64,
                start.elapsed().as_secs_f64()
            );
        }
    }
}
