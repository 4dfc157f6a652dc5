//! Self-play from the start position of every game, refereed by the rules
//! library: every move the engine chooses must be legal in the game so far
//! (repetitions and house rules included), the engine may resign or declare
//! only when the rules agree, and every game ends by a rule of the game.
//!
//! The suite plays short games at tiny node budgets; varied levels (their
//! evaluation noise), seeds and budgets make the games differ.
//! `cargo test --release -p engine --test selfplay -- --ignored --nocapture`
//! plays many more, longer games and prints the results.

use std::collections::BTreeMap;

use engine::{Decision, Engine, EngineOptions, Level, Limits};
use rules::{AnyGame, EndReason, Impasse, Settings, Side, Variant};

const VARIANTS: [Variant; 4] = [
    Variant::Shogi,
    Variant::Minishogi,
    Variant::Annan,
    Variant::Xiangqi,
];

/// The results of a series of games.
#[derive(Default, Debug)]
struct Tally {
    games: u32,
    plies: u64,
    first: u32,
    second: u32,
    draws: u32,
    reasons: BTreeMap<&'static str, u32>,
}

/// Plays game number `index` of `variant`: both sides at levels picked from
/// `index`, each side with its budget of `nodes` (plus up to 150% picked
/// from `index`; the second side's is the larger, so it wins more often),
/// drawn after `move_limit` plies.
fn play(variant: Variant, index: u64, move_limit: u32, nodes: [u64; 2], tally: &mut Tally) {
    let mut settings = Settings {
        move_limit,
        ..Settings::default()
    };
    // Every other shogi and annan game under the 27-point declaration rule.
    if variant != Variant::Xiangqi && variant != Variant::Minishogi && index % 2 == 1 {
        settings.impasse = Impasse::TwentySevenPoint;
    }
    let mut game = AnyGame::new(variant, None, &settings).unwrap();
    let mut engines = [0, 1].map(|side| {
        let level = Level::new(1 + ((index * 3 + side * 5) % 7) as u8).unwrap();
        Engine::new(EngineOptions {
            variant,
            settings: settings.clone(),
            level,
            hash_mb: 1,
            seed: Some(index * 2 + side),
            ..EngineOptions::default()
        })
    });
    while game.outcome().is_none() {
        let side = game.side_to_move();
        let moves = game.moves_text();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let engine = &mut engines[side.index()];
        engine.set_position(None, &moves).unwrap();
        let budget = nodes[side.index()] + index % 7 * nodes[side.index()] / 4;
        match engine.search(Limits::nodes(budget)).decision {
            Decision::Move { best, .. } => {
                let text = best.to_string();
                assert!(
                    game.legal_moves_text().contains(&text),
                    "{variant} game {index}: {text} is not legal after {moves:?}"
                );
                game.play_text(&text).unwrap();
            }
            Decision::Resign => {
                panic!("{variant} game {index}: resigns with legal moves after {moves:?}")
            }
            Decision::DeclareWin => {
                let outcome = game.claim_impasse(side).unwrap();
                assert_eq!(
                    outcome.winner,
                    Some(side),
                    "{variant} game {index}: {moves:?}"
                );
            }
        }
    }
    let outcome = game.outcome().unwrap();
    assert_ne!(outcome.reason, EndReason::Resignation);
    tally.games += 1;
    tally.plies += game.moves_text().len() as u64;
    match outcome.winner {
        Some(Side::First) => tally.first += 1,
        Some(Side::Second) => tally.second += 1,
        None => tally.draws += 1,
    }
    *tally.reasons.entry(outcome.reason.code()).or_default() += 1;
}

#[test]
fn short_games_at_tiny_budgets_stay_legal() {
    for variant in VARIANTS {
        let mut tally = Tally::default();
        for index in 0..50 {
            play(variant, index, 60, [60, 120], &mut tally);
        }
        assert_eq!(tally.games, 50);
        // Every game ended by a rule; the move limit ends the rest.
        assert_eq!(tally.first + tally.second + tally.draws, 50);
    }
}

#[test]
#[ignore = "many longer games: run in release with --ignored --nocapture"]
fn hundreds_of_games_stay_legal() {
    for variant in VARIANTS {
        let mut tally = Tally::default();
        for index in 0..200 {
            play(variant, 1000 + index, 300, [300, 1000], &mut tally);
        }
        println!(
            "{variant}: {} games, {:.0} plies a game, first {} second {} draws {}, {:?}",
            tally.games,
            tally.plies as f64 / f64::from(tally.games),
            tally.first,
            tally.second,
            tally.draws,
            tally.reasons
        );
    }
}
