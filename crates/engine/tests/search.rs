//! The search against positions whose answers the brute-force solver of
//! `common` (written from the rules alone) or plain counting of material confirms.

use engine::{Decision, Engine, EngineOptions, Level, Limits, Score, SearchResult};
use rules::{AnyMove, AnyPosition, Position, Settings, Variant};

mod common;
use common::Solver;

fn engine(variant: Variant, level: Level) -> Engine {
    Engine::new(EngineOptions {
        variant,
        level,
        seed: Some(7),
        ..EngineOptions::default()
    })
}

fn best(result: &SearchResult) -> AnyMove {
    match result.decision {
        Decision::Move { best, .. } => best,
        ref other => panic!("expected a move, got {other:?}"),
    }
}

/// The engine finds the mate in `plies` of `text` at depth 5, which the
/// solver confirms is the shortest, and its move is one that mates that fast.
fn finds_mate(variant: Variant, text: &str, plies: u32) {
    finds_mate_at(variant, text, plies, 5);
}

/// [`finds_mate`] by a search to `depth`.
fn finds_mate_at(variant: Variant, text: &str, plies: u32, depth: u32) {
    let mut engine = engine(variant, Level::MAX);
    engine.set_position(Some(text), &[]).unwrap();
    let result = engine.search(Limits::depth(depth));
    let info = result.info.clone().unwrap();
    assert_eq!(info.score, Score::Mate(plies as i32), "{variant} {text}");
    let mv = best(&result);
    match (engine.position(), mv) {
        (AnyPosition::Shogi(pos), AnyMove::Shogi(mv)) => {
            assert!(plies == 1 || !Solver::new(false).wins_within(&pos, plies - 2));
            assert!(
                Solver::new(false).wins_with(&pos, mv, plies),
                "{variant} {text}: {mv}"
            );
        }
        (AnyPosition::Xiangqi(pos), AnyMove::Xiangqi(mv)) => {
            assert!(plies == 1 || !Solver::new(false).wins_within(&pos, plies - 2));
            assert!(
                Solver::new(false).wins_with(&pos, mv, plies),
                "{text}: {mv}"
            );
        }
        _ => panic!("a move of another game"),
    }
}

#[test]
fn mate_in_one_in_every_game() {
    // Shogi and minishogi: G*5b (G*5b on the small board), guarded by the pawn.
    finds_mate(Variant::Shogi, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1);
    finds_mate(Variant::Minishogi, "k4/5/P4/5/4K b G 1", 1);
    // Annan: G*3b leaves the cornered king no move (2a, 2b under the gold,
    // 1b under the pawn): no legal move loses. (G*1b, backed by the pawn,
    // would move like a pawn and not cover 2a or 2b.)
    finds_mate(Variant::Annan, "8k/9/8P/9/9/9/9/9/4K4 b G 1", 1);
    // Xiangqi: a7a9, the chariot on i8 covering e8, the facing generals d9.
    finds_mate(Variant::Xiangqi, "4k4/8R/R8/9/9/9/9/9/9/3K5 w - - 0 1", 1);
}

#[test]
fn mate_in_three_in_every_game() {
    finds_mate(Variant::Shogi, "4k4/9/9/4P4/9/9/9/9/4K4 b G 1", 3);
    // Minishogi's network learned from positions of real games: it rates
    // the lines of this bare board so high that reverse futility returns
    // their evaluation before the mate is searched until depth 8 (depth 2
    // was enough before the network).
    finds_mate_at(Variant::Minishogi, "k4/5/5/P4/4K b GS 1", 3, 8);
    finds_mate(Variant::Annan, "4k4/9/9/4P4/9/9/9/9/4K4 b G 1", 3);
    // Xiangqi: a2a8 (rank 8 closed, d9 faces the general), e9f9, i1i9.
    finds_mate(Variant::Xiangqi, "4k4/9/9/9/9/9/9/R8/8R/3K5 w - - 0 1", 3);
}

#[test]
fn a_mate_through_a_sacrifice_is_found_once_it_is_far_enough_from_the_horizon() {
    // S*1c, 3b2b, N*2c (check), 2b2c (the gold takes the knight), G*1b
    // mate. The knight drop is a check that loses the piece by SEE, which
    // the search prunes within six plies of the horizon: at depth 5 it is
    // three plies away and the mate is not seen; at depth 12 it is
    // searched (depth 9 was enough before shogi's king danger counted 130%:
    // the evaluation now scores the lines around the mate differently).
    finds_mate_at(Variant::Shogi, "8k/6g2/9/3N5/9/9/9/9/7K1 b NSG 1", 5, 12);
}

#[test]
fn a_mate_by_a_drop_beyond_the_horizon_is_parried_at_depth_one() {
    // Gote threatens G*5h, guarded by the pawn on 5g: the gold covers every
    // square around the king on 5i. At depth 1 Sente's moves are followed
    // only by quiescence, whose quiet checks see the drop: Sente must move
    // its king (9g9f, the natural pawn push, loses at once).
    let sfen = "4k4/9/9/9/9/9/P3p4/9/4K4 b g 1";
    let mut engine = engine(Variant::Shogi, Level::MAX);
    engine.set_position(Some(sfen), &[]).unwrap();
    let AnyPosition::Shogi(pos) = engine.position() else {
        panic!("a shogi position");
    };
    let mut pushed = pos.clone();
    pushed.play_unchecked(pos.parse_move("9g9f").unwrap());
    assert!(Solver::new(false).wins_within(&pushed, 1));
    let result = engine.search(Limits::depth(1));
    let AnyMove::Shogi(mv) = best(&result) else {
        panic!("a shogi move");
    };
    let mut after = pos.clone();
    after.play_unchecked(mv);
    assert!(
        !Solver::new(false).wins_within(&after, 1),
        "{mv} allows the mate"
    );
    assert!(matches!(result.info.unwrap().score, Score::Cp(_)));
}

#[test]
fn a_hanging_rook_is_taken_at_every_level() {
    let cases = [
        // The silver on 5f takes the undefended rook on 5e.
        (
            Variant::Shogi,
            "4k4/9/9/9/4r4/4S4/9/9/4K4 b - 1",
            ["5f5e"].as_slice(),
        ),
        (Variant::Annan, "4k4/9/9/9/4r4/4S4/9/9/4K4 b - 1", &["5f5e"]),
        // The horse on c2 takes the chariot on b4.
        (
            Variant::Xiangqi,
            "4k4/9/9/9/9/1r7/9/2N6/9/3K5 w - - 0 1",
            &["c2b4"],
        ),
    ];
    for (variant, text, expected) in cases {
        for level in [1, 4, 8] {
            let mut engine = engine(variant, Level::new(level).unwrap());
            engine.set_position(Some(text), &[]).unwrap();
            let mv = best(&engine.search(Limits::depth(4))).to_string();
            assert!(
                expected.contains(&mv.as_str()),
                "{variant} level {level}: {mv}"
            );
        }
    }
}

#[test]
fn level_one_sees_its_own_move_and_not_the_reply() {
    // It wins in one, in every game: a leaf with no legal move is lost for
    // the side to move (in minishogi G*3b, which leaves gote no move, wins
    // as well as the mate G*5b).
    let wins = [
        (Variant::Shogi, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
        (Variant::Minishogi, "k4/5/P4/5/4K b G 1"),
        (Variant::Annan, "8k/9/8P/9/9/9/9/9/4K4 b G 1"),
        (Variant::Xiangqi, "4k4/8R/R8/9/9/9/9/9/9/3K5 w - - 0 1"),
    ];
    for (variant, text) in wins {
        let mut engine = engine(variant, Level::MIN);
        engine.set_position(Some(text), &[]).unwrap();
        let info = engine.search(Limits::default()).info.unwrap();
        assert_eq!(info.score, Score::Mate(1), "{variant}");
    }
    // Its rook takes the gold on 5d that the silver on 4c guards: level 1
    // counts the gold and never looks at the recapture; level 2 does.
    let text = "4k4/9/5s3/4g4/9/9/9/4R4/4K4 b - 1";
    for seed in 0..8 {
        let mut engine = Engine::new(EngineOptions {
            variant: Variant::Shogi,
            level: Level::MIN,
            seed: Some(seed),
            ..EngineOptions::default()
        });
        engine.set_position(Some(text), &[]).unwrap();
        assert_eq!(best(&engine.search(Limits::default())).to_string(), "5h5d");
    }
    let mut engine = engine(Variant::Shogi, Level::new(2).unwrap());
    engine.set_position(Some(text), &[]).unwrap();
    assert_ne!(best(&engine.search(Limits::default())).to_string(), "5h5d");
}

#[test]
fn a_node_limited_search_is_deterministic() {
    for variant in [Variant::Shogi, Variant::Xiangqi] {
        let run = |engine: &mut Engine| {
            engine.set_position(None, &[]).unwrap();
            engine.search(Limits::nodes(20_000))
        };
        let mut first = engine(variant, Level::MAX);
        let a = run(&mut first);
        first.new_game();
        let b = run(&mut first);
        let c = run(&mut engine(variant, Level::MAX));
        assert_eq!(a.decision, c.decision);
        assert_eq!(a.decision, b.decision);
        let nodes = |r: &SearchResult| r.info.as_ref().map(|i| (i.nodes, i.depth, i.pv.clone()));
        assert_eq!(nodes(&a), nodes(&b));
        assert_eq!(nodes(&a), nodes(&c));
        // The search stops at its limit, and its last report, sent at the
        // stop within an iteration, counts every node.
        assert_eq!(a.info.unwrap().nodes, 20_000);
    }
}

#[test]
fn no_legal_move_resigns() {
    // Gote is mated: 5b gold guarded by the 5c pawn.
    let mut engine = engine(Variant::Shogi, Level::MAX);
    engine
        .set_position(Some("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"), &[])
        .unwrap();
    assert_eq!(engine.search(Limits::depth(3)).decision, Decision::Resign);
}

#[test]
fn an_impasse_declaration_is_made_when_it_wins() {
    // Sente's king on 5b, not in check, with ten pieces in the enemy camp
    // (four golds, four silvers, rook and bishop: 18 points) and rook, bishop
    // and two pawns in hand (12): 30 points, at least the 28 Sente needs.
    let sfen = "GGGG1SSSS/4K4/RB7/9/9/9/9/9/4k4 b RB2P 1";
    for (rule, declares) in [
        (rules::Impasse::TwentySevenPoint, true),
        (rules::Impasse::TwentyFourPoint, false),
    ] {
        let settings = Settings {
            impasse: rule,
            ..Settings::default()
        };
        let mut engine = Engine::new(EngineOptions {
            variant: Variant::Shogi,
            settings,
            ..EngineOptions::default()
        });
        engine.set_position(Some(sfen), &[]).unwrap();
        let decision = engine.search(Limits::depth(2)).decision;
        assert_eq!(
            decision == Decision::DeclareWin,
            declares,
            "{rule}: {decision:?}"
        );
    }
}

#[test]
fn stop_ends_an_infinite_search_with_a_move() {
    let mut engine = engine(Variant::Shogi, Level::MAX);
    let (sender, receiver) = std::sync::mpsc::channel();
    engine.go(
        Limits {
            infinite: true,
            ..Limits::default()
        },
        move |event| {
            let _ = sender.send(event);
        },
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(engine.is_searching());
    engine.stop();
    engine.wait();
    let last = receiver.try_iter().last().unwrap();
    assert!(matches!(
        last,
        engine::SearchEvent::BestMove(Decision::Move { .. })
    ));
}

#[test]
fn more_threads_still_find_the_mate() {
    let mut engine = Engine::new(EngineOptions {
        variant: Variant::Shogi,
        threads: 3,
        ..EngineOptions::default()
    });
    engine
        .set_position(Some("4k4/9/9/4P4/9/9/9/9/4K4 b G 1"), &[])
        .unwrap();
    let result = engine.search(Limits::depth(5));
    assert_eq!(result.info.unwrap().score, Score::Mate(3));
}

#[test]
fn the_engine_can_move_to_another_thread() {
    fn assert_send<T: Send>() {}
    assert_send::<Engine>();
}

#[test]
fn a_clock_bounds_the_search() {
    use std::time::{Duration, Instant};
    let byoyomi = Limits {
        time: [Some(Duration::ZERO); 2],
        byoyomi: Duration::from_millis(300),
        ..Limits::default()
    };
    let move_time = Limits {
        move_time: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    for limits in [byoyomi, move_time] {
        let mut engine = engine(Variant::Shogi, Level::MAX);
        let start = Instant::now();
        let result = engine.search(limits.clone());
        let took = start.elapsed();
        assert!(matches!(result.decision, Decision::Move { .. }));
        // Never past the budget (with slack for a loaded machine), and a
        // first iteration always completes.
        assert!(took < Duration::from_millis(1500), "{limits:?}: {took:?}");
        assert!(result.info.unwrap().depth >= 1);
    }
}

#[test]
fn low_levels_vary_their_choice_and_the_top_level_does_not() {
    let choices = |level: u8| {
        let moves: std::collections::BTreeSet<String> = (0..8)
            .map(|seed| {
                let mut engine = Engine::new(EngineOptions {
                    variant: Variant::Shogi,
                    level: Level::new(level).unwrap(),
                    seed: Some(seed),
                    ..EngineOptions::default()
                });
                best(&engine.search(Limits::depth(2))).to_string()
            })
            .collect();
        moves.len()
    };
    assert!(choices(1) >= 3);
    assert_eq!(choices(8), 1);
}

#[test]
fn the_move_limit_draws_inside_the_search() {
    // The xiangqi mate in three (a2a8, e9f9, i1i9) with the game's ply limit
    // one, three and five plies away: only a limit reached by the mating move
    // or later leaves the mate standing.
    for (limit, expected) in [(1, Score::Cp(0)), (3, Score::Mate(3)), (5, Score::Mate(3))] {
        let mut engine = Engine::new(EngineOptions {
            variant: Variant::Xiangqi,
            settings: Settings {
                move_limit: limit,
                ..Settings::default()
            },
            ..EngineOptions::default()
        });
        engine
            .set_position(Some("4k4/9/9/9/9/9/9/R8/8R/3K5 w - - 0 1"), &[])
            .unwrap();
        let score = engine.search(Limits::depth(5)).info.unwrap().score;
        assert_eq!(score, expected, "move limit {limit}");
    }
}

#[test]
fn bare_generals_are_a_dead_draw() {
    // Red's only attackers are gone: whatever is played, neither side can cross the river.
    let mut engine = engine(Variant::Xiangqi, Level::MAX);
    engine
        .set_position(Some("3ak4/9/9/9/9/9/9/9/9/3K1A3 w - - 0 1"), &[])
        .unwrap();
    assert_eq!(
        engine.search(Limits::depth(4)).info.unwrap().score,
        Score::Cp(0)
    );
}

#[test]
fn an_infinite_search_that_ends_early_still_waits_for_stop() {
    use std::time::Duration;
    // Level 1 searches one ply: the search is over at once, the decision is not.
    let mut engine = engine(Variant::Shogi, Level::MIN);
    let (sender, receiver) = std::sync::mpsc::channel();
    engine.go(
        Limits {
            infinite: true,
            ..Limits::default()
        },
        move |event| {
            let _ = sender.send(event);
        },
    );
    std::thread::sleep(Duration::from_millis(300));
    let early: Vec<_> = receiver.try_iter().collect();
    assert!(
        early
            .iter()
            .all(|e| matches!(e, engine::SearchEvent::Info(_))),
        "{early:?}"
    );
    engine.stop();
    engine.wait();
    assert!(matches!(
        receiver.try_iter().last(),
        Some(engine::SearchEvent::BestMove(_))
    ));
}

#[test]
fn a_game_set_directly_searches_as_the_same_game_set_as_text() {
    // Xiangqi, where the history decides chases and repetitions too.
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];
    let mut game = rules::AnyGame::new(Variant::Xiangqi, None, &Settings::default()).unwrap();
    for mv in moves {
        game.play_text(mv).unwrap();
    }
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let mut by_text = engine(Variant::Xiangqi, Level::MAX);
    by_text.set_position(None, &moves).unwrap();
    let mut by_game = engine(Variant::Xiangqi, Level::MAX);
    by_game.set_game(&game);
    assert_eq!(
        by_game.position().to_string(),
        by_text.position().to_string()
    );
    let (text_result, game_result) = (by_text.search(limits.clone()), by_game.search(limits));
    assert_eq!(best(&game_result), best(&text_result));
    assert_eq!(
        game_result.info.map(|info| info.nodes),
        text_result.info.map(|info| info.nodes)
    );
}
