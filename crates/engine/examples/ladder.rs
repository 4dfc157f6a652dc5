//! Self-play between neighbouring levels: does each level beat the one below?
//!
//! `cargo run --release -p engine --example ladder -- [GAMES] [MOVETIME_MS] [VARIANT] [WEAK STRONG]`
//! plays levels n against n+1 (or WEAK against STRONG) in every variant (or
//! VARIANT), colours alternating, and prints the stronger level's score.
//! Games longer than 200 plies are drawn.

use std::time::Duration;

use engine::{Decision, Engine, EngineOptions, Level, Limits};
use rules::{AnyGame, Settings, Side, Variant};

const MAX_PLIES: usize = 200;

/// Plays one game; returns the winner, `None` for a draw.
fn play(variant: Variant, levels: [u8; 2], seed: u64, move_time: Duration) -> Option<Side> {
    let mut game = AnyGame::new(variant, None, &Settings::default()).expect("start position");
    let mut engines = levels.map(|level| {
        Engine::new(EngineOptions {
            variant,
            level: Level::new(level).expect("level 1-8"),
            seed: Some(seed ^ u64::from(level)),
            hash_mb: 8,
            ..EngineOptions::default()
        })
    });
    for _ in 0..MAX_PLIES {
        if let Some(outcome) = game.outcome() {
            if std::env::var_os("LADDER_VERBOSE").is_some() {
                eprintln!(
                    "{variant} {levels:?}: {outcome} after {} plies: {}",
                    game.moves_text().len(),
                    game.moves_text().join(" ")
                );
            }
            return outcome.winner;
        }
        let side = game.side_to_move();
        let engine = &mut engines[side.index()];
        let moves = game.moves_text();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        engine.set_position(None, &moves).expect("legal game");
        let limits = Limits {
            move_time: Some(move_time),
            ..Limits::default()
        };
        match engine.search(limits).decision {
            Decision::Move { best, .. } => {
                game.play_text(&best.to_string())
                    .expect("the engine plays legal moves");
            }
            Decision::Resign => return Some(side.opponent()),
            Decision::DeclareWin => return Some(side),
        }
    }
    game.outcome().and_then(|outcome| outcome.winner)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(4);
    let move_time = Duration::from_millis(args.get(1).and_then(|a| a.parse().ok()).unwrap_or(30));
    let variants = match args.get(2).and_then(|a| a.parse::<Variant>().ok()) {
        Some(variant) => vec![variant],
        None => vec![
            Variant::Shogi,
            Variant::Minishogi,
            Variant::Annan,
            Variant::Xiangqi,
        ],
    };
    let pairs: Vec<(u8, u8)> = match (
        args.get(3).and_then(|a| a.parse().ok()),
        args.get(4).and_then(|a| a.parse().ok()),
    ) {
        (Some(weak), Some(strong)) => vec![(weak, strong)],
        _ => (1..8).map(|weak| (weak, weak + 1)).collect(),
    };
    for variant in variants {
        for &(weak, strong) in &pairs {
            let mut score = 0.0;
            for game in 0..games {
                // Alternate colours: the stronger level moves first in even games.
                let levels = if game % 2 == 0 {
                    [strong, weak]
                } else {
                    [weak, strong]
                };
                let strong_side = if game % 2 == 0 {
                    Side::First
                } else {
                    Side::Second
                };
                score += match play(variant, levels, 1000 + game, move_time) {
                    Some(side) if side == strong_side => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
            }
            println!("{variant}: level {strong} vs {weak}: {score}/{games}");
        }
    }
}
