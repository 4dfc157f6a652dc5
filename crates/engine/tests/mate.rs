//! The mate search (tsume) against the brute-force solver of `common`,
//! written from the rules alone: the attacker checks with every move, and a
//! mate in `n` plies means every defence is mated within `n` plies.
//!
//! The problems were composed for these tests (king in the corner, a few
//! pieces on the board and in hand; the defender has nothing in hand, so
//! there are no interpositions by drops); the checker confirms each length.

use std::sync::mpsc;
use std::time::Duration;

use engine::{Engine, EngineOptions, MateResult};
use rules::{AnyMove, IllegalMove, Position, Variant, shogi};

mod common;
use common::Solver;

fn solve(variant: Variant, sfen: &str, time: Option<Duration>) -> MateResult<AnyMove> {
    let mut engine = Engine::new(EngineOptions {
        variant,
        ..EngineOptions::default()
    });
    engine.set_position(Some(sfen), &[]).unwrap();
    let (sender, receiver) = mpsc::channel();
    engine.go_mate(time, move |result| {
        let _ = sender.send(result);
    });
    let result = receiver.recv().unwrap();
    engine.wait();
    result
}

/// The engine's mate of `sfen` has `plies` plies, which the checker confirms
/// is the shortest; the line is legal, the attacker checks with every move
/// and every defence is mated in time; the defender's moves on the line
/// resist as long as any.
fn solves(variant: Variant, sfen: &str, plies: u32) {
    let root = shogi::Position::from_sfen(sfen, variant, Default::default()).unwrap();
    let result = solve(variant, sfen, None);
    let MateResult::Mate(pv) = result else {
        panic!("{sfen}: no mate found: {result:?}");
    };
    assert_eq!(pv.len() as u32, plies, "{sfen}: {pv:?}");
    let mut solver = Solver::new(true);
    assert!(
        plies == 1 || !solver.wins_within(&root, plies - 2),
        "{sfen}: shorter mate"
    );
    let mut pos = root;
    for (index, mv) in pv.iter().enumerate() {
        let AnyMove::Shogi(mv) = *mv else {
            panic!("a shogi move");
        };
        let left = plies - index as u32;
        assert_eq!(pos.check_move(mv), Ok(()), "{sfen}: {mv}");
        if index % 2 == 0 {
            assert!(
                solver.wins_with(&pos, mv, left),
                "{sfen}: {mv} does not mate in {left}"
            );
        } else if left >= 4 {
            // The defender's reply is not mated sooner than the line says.
            let mut after = pos.clone();
            after.play_unchecked(mv);
            assert!(
                !solver.wins_within(&after, left - 3),
                "{sfen}: {mv} resists too little"
            );
        }
        pos.play_unchecked(mv);
    }
    assert!(
        pos.is_check() && pos.legal_moves().is_empty(),
        "{sfen}: no mate at the end"
    );
}

#[test]
fn mates_in_one() {
    // G*5b, guarded by the pawn.
    solves(Variant::Shogi, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1);
    // A pawn that moves (and promotes) may mate: the rook on 2b guards 1b.
    solves(Variant::Shogi, "8k/7R1/8P/9/9/9/9/9/4K4 b GN 1", 1);
    // Minishogi and annan.
    solves(Variant::Minishogi, "k4/5/P4/5/4K b G 1", 1);
    solves(Variant::Annan, "9/8k/5+B1Rn/9/9/9/9/9/4K4 b NS 1", 1);
}

#[test]
fn mates_in_three() {
    solves(Variant::Shogi, "9/8k/8l/9/6R2/9/9/9/4K4 b G 1", 3);
    solves(Variant::Shogi, "7kg/4R4/9/9/9/9/9/9/4K4 b B 1", 3);
    // Annan: the borrowed movement counts for attack and defence alike.
    solves(Variant::Annan, "9/5R1Bk/9/7gl/9/9/9/9/4K4 b GL 1", 3);
}

#[test]
fn mates_in_five() {
    solves(Variant::Shogi, "6pkl/9/9/5G3/9/9/9/9/4K4 b LRS 1", 5);
    // Starts with a pawn drop that checks without mating: legal.
    solves(Variant::Shogi, "8k/9/7+Bs/6P2/9/9/9/9/4K4 b BP 1", 5);
}

#[test]
fn mates_in_seven() {
    solves(Variant::Shogi, "9/7k1/7n1/5+R3/9/9/9/9/4K4 b BB 1", 7);
    solves(Variant::Shogi, "9/8k/9/8g/6R2/9/9/9/4K4 b BPS 1", 7);
}

#[test]
fn mates_in_nine() {
    solves(Variant::Shogi, "9/7k1/9/5S2g/6+R2/9/9/9/4K4 b B 1", 9);
    solves(Variant::Shogi, "6k2/5p3/6B2/4+R4/9/9/9/9/4K4 b BNP 1", 9);
}

#[test]
fn no_mate_is_proved() {
    // Checks run out or lead nowhere; the checker finds no mate within 7 plies.
    let sfen = "9/6Lk1/9/6n2/9/9/9/9/4K4 b GNS 1";
    assert_eq!(solve(Variant::Shogi, sfen, None), MateResult::NoMate);
    let root = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap();
    assert!(!Solver::new(true).wins_within(&root, 7));
}

#[test]
fn a_pawn_drop_mate_is_not_given() {
    // P*1b would mate (the knight on 2d guards it, the king's own lance and
    // silver block 2a and 2b): uchifuzume, illegal. Nothing else mates.
    let sfen = "7lk/7s1/9/7N1/9/9/9/9/4K4 b P 1";
    let root = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap();
    let drop = root.parse_move("P*1b").unwrap();
    assert_eq!(root.check_move(drop), Err(IllegalMove::PawnDropMate));
    assert_eq!(solve(Variant::Shogi, sfen, None), MateResult::NoMate);
}

#[test]
fn no_time_is_a_timeout() {
    // The search looks at the clock every 1024 nodes; this mate needs more.
    let sfen = "6k2/5p3/6B2/4+R4/9/9/9/9/4K4 b BNP 1";
    assert_eq!(
        solve(Variant::Shogi, sfen, Some(Duration::ZERO)),
        MateResult::Timeout
    );
}
