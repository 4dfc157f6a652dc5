//! Scenario tests for the ends a game's history decides: scripted moves, the
//! expected result and reason, and no end one ply earlier.

use rules::{
    AnyGame, EndReason, IllegalMove, ImpasseError, Outcome, PlayError, Settings, Side, Variant,
};

fn game(variant: Variant, position: Option<&str>, rules: &[&str]) -> AnyGame {
    let mut settings = Settings::default();
    for rule in rules {
        settings.apply(rule).unwrap();
    }
    AnyGame::new(variant, position, &settings).unwrap()
}

/// Plays `moves`; asserts the game goes on until the last one and returns
/// the outcome the last one gives.
fn play_to_end(game: &mut AnyGame, moves: &str) -> Option<Outcome> {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let (last, before) = moves.split_last().expect("at least one move");
    for (i, mv) in before.iter().enumerate() {
        let outcome = game
            .play_text(mv)
            .unwrap_or_else(|e| panic!("move {}: {e}", i + 1));
        assert_eq!(
            outcome,
            None,
            "the game ended early, at move {} ({mv})",
            i + 1
        );
    }
    game.play_text(last).unwrap()
}

fn repeat(cycle: &str, times: usize) -> String {
    vec![cycle; times].join(" ")
}

#[test]
fn shogi_fourfold_repetition_is_a_draw() {
    let mut g = game(Variant::Shogi, None, &[]);
    // The start position stands at plies 0, 4, 8 and 12.
    let outcome = play_to_end(&mut g, &repeat("2h3h 8b7b 3h2h 7b8b", 3));
    assert_eq!(outcome, Some(Outcome::draw(EndReason::Repetition)));
    assert!(g.legal_moves_text().is_empty());
    assert!(matches!(
        g.play_text("2h3h"),
        Err(PlayError::Illegal {
            reason: IllegalMove::GameOver,
            ..
        })
    ));
}

/// Sente's rook checks along ranks a and b; Gote's king steps between 9a and 8b.
const SHOGI_CHECKING_ROOK: &str = "k8/9/9/9/9/9/9/9/K7R b - 1";
const SHOGI_CHECK_CYCLE: &str = "9a8b 1a1b 8b9a 1b1a";

#[test]
fn shogi_perpetual_check_loses_for_the_checker() {
    for variant in [Variant::Shogi, Variant::Annan] {
        let mut g = game(variant, Some(SHOGI_CHECKING_ROOK), &[]);
        // The position after 1i1a stands after moves 1, 5, 9 and 13.
        let moves = format!("1i1a {}", repeat(SHOGI_CHECK_CYCLE, 3));
        let outcome = play_to_end(&mut g, &moves);
        assert_eq!(
            outcome,
            Some(Outcome::loss(Side::First, EndReason::PerpetualCheck)),
            "{variant}"
        );
    }
}

#[test]
fn shogi_repetition_with_some_quiet_moves_is_a_plain_draw() {
    // The rook checks, then steps back without check: not every move checks.
    let mut g = game(Variant::Shogi, Some(SHOGI_CHECKING_ROOK), &[]);
    let outcome = play_to_end(&mut g, &repeat("1i1a 9a8b 1a1i 8b9a", 3));
    assert_eq!(outcome, Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn minishogi_repetition_is_lost_by_sente() {
    let mut g = game(Variant::Minishogi, None, &[]);
    let outcome = play_to_end(&mut g, &repeat("5e4d 1a2b 4d5e 2b1a", 3));
    assert_eq!(
        outcome,
        Some(Outcome::loss(Side::First, EndReason::Repetition))
    );
}

#[test]
fn minishogi_perpetual_check_loses_for_the_checker() {
    let mut g = game(Variant::Minishogi, Some("k4/5/5/5/K3R b - 1"), &[]);
    let moves = format!("1e1a {}", repeat("5a4b 1a1b 4b5a 1b1a", 3));
    let outcome = play_to_end(&mut g, &moves);
    assert_eq!(
        outcome,
        Some(Outcome::loss(Side::First, EndReason::PerpetualCheck))
    );
}

#[test]
fn xiangqi_threefold_repetition_without_checks_or_chases_is_a_draw() {
    let mut g = game(Variant::Xiangqi, None, &[]);
    let outcome = play_to_end(&mut g, &repeat("h0g2 h9g7 g2h0 g7h9", 2));
    assert_eq!(outcome, Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn xiangqi_perpetual_check_loses_for_the_checker() {
    let mut g = game(
        Variant::Xiangqi,
        Some("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1"),
        &[],
    );
    // The position after i0i9 stands after moves 1, 5 and 9.
    let moves = format!("i0i9 {}", repeat("e9e8 i9i8 e8e9 i8i9", 2));
    let outcome = play_to_end(&mut g, &moves);
    assert_eq!(
        outcome,
        Some(Outcome::loss(Side::First, EndReason::PerpetualCheck))
    );
}

#[test]
fn xiangqi_perpetual_chase_of_an_unprotected_horse_loses_for_the_chaser() {
    // Red's chariot follows Black's lone horse between b7 and a9.
    let mut g = game(
        Variant::Xiangqi,
        Some("5k3/9/1n7/9/9/9/9/2R6/9/3K5 w - - 0 1"),
        &[],
    );
    let moves = format!("c2b2 {}", repeat("b7a9 b2a2 a9b7 a2b2", 2));
    let outcome = play_to_end(&mut g, &moves);
    assert_eq!(
        outcome,
        Some(Outcome::loss(Side::First, EndReason::PerpetualChase))
    );
}

#[test]
fn xiangqi_sixty_move_rule_draws_at_120_plies_without_capture() {
    let fen = |clock: u32| format!("4k4/9/9/9/9/9/9/9/9/3K4R w - - {clock} 60");
    let mut g = game(Variant::Xiangqi, Some(&fen(118)), &[]);
    assert_eq!(g.play_text("i0i1").unwrap(), None);
    let mut g = game(Variant::Xiangqi, Some(&fen(119)), &[]);
    assert_eq!(
        g.play_text("i0i1").unwrap(),
        Some(Outcome::draw(EndReason::SixtyMoveRule))
    );
}

#[test]
fn xiangqi_bare_generals_are_a_draw_by_material() {
    let mut g = game(
        Variant::Xiangqi,
        Some("4k4/9/9/9/9/9/9/9/3r5/3K5 w - - 0 1"),
        &[],
    );
    assert!(g.is_check());
    assert_eq!(
        g.play_text("d0d1").unwrap(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
}

#[test]
fn move_limit_draws_after_the_limit_unless_the_last_move_mates() {
    let mut g = game(Variant::Shogi, None, &["move_limit=4"]);
    assert_eq!(
        play_to_end(&mut g, "7g7f 3c3d 2g2f 8c8d"),
        Some(Outcome::draw(EndReason::MoveLimit))
    );
    let mut g = game(
        Variant::Shogi,
        Some("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
        &["move_limit=1"],
    );
    assert_eq!(
        g.play_text("G*5b").unwrap(),
        Some(Outcome::win(Side::First, EndReason::Checkmate))
    );
}

#[test]
fn illegal_move_loses_only_when_the_setting_is_on() {
    const NIFU: &str = "4k4/9/9/9/9/9/4P4/9/4K4 b P 1";
    let mut g = game(Variant::Shogi, Some(NIFU), &[]);
    assert!(matches!(
        g.play_text("P*5e"),
        Err(PlayError::Illegal {
            reason: IllegalMove::DoublePawn,
            ..
        })
    ));
    assert_eq!(g.outcome(), None);

    let mut g = game(Variant::Shogi, Some(NIFU), &["illegal_move_loses=true"]);
    let loss = Outcome::loss(Side::First, EndReason::IllegalMove(IllegalMove::DoublePawn));
    assert_eq!(g.play_text("P*5e").unwrap(), Some(loss));
    assert!(g.moves_text().is_empty());
    // A move that names no piece is refused, not lost, even under the setting.
    let mut g = game(Variant::Shogi, Some(NIFU), &["illegal_move_loses=true"]);
    assert!(g.play_text("5e5d").is_err());
    assert_eq!(g.outcome(), None);
}

#[test]
fn resignation_agreement_and_timeout_end_the_game_once() {
    let mut g = game(Variant::Xiangqi, None, &[]);
    g.resign(Side::Second);
    g.time_out(Side::First);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, EndReason::Resignation))
    );
    let mut g = game(Variant::Annan, None, &[]);
    g.agree_draw();
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Agreement)));
    let mut g = game(Variant::Minishogi, None, &[]);
    g.time_out(Side::First);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::Second, EndReason::Timeout))
    );
}

/// Both kings in their enemy camps, everything else in hand.
fn impasse_position(sente_hand: &str, gote_hand: &str) -> String {
    format!("9/4K4/9/9/9/9/9/4k4/9 b {sente_hand}{gote_hand} 1")
}

#[test]
fn impasse_24_point_claims() {
    // 24 points each is enough: rook and bishop 5, the rest 1.
    let mut g = game(
        Variant::Shogi,
        Some(&impasse_position("RB2G2S2N2L6P", "rb2g2s2n2l12p")),
        &[],
    );
    assert_eq!(
        g.claim_impasse(Side::Second),
        Ok(Outcome::draw(EndReason::Impasse))
    );
    // 23 loses, whoever claims.
    let mut g = game(
        Variant::Shogi,
        Some(&impasse_position("RB2G2S2N2L5P", "rb2g2s2n2l13p")),
        &[],
    );
    assert_eq!(
        g.claim_impasse(Side::First),
        Ok(Outcome::loss(Side::First, EndReason::Impasse))
    );
    // Not before both kings have entered.
    let mut g = game(Variant::Shogi, None, &[]);
    assert_eq!(
        g.claim_impasse(Side::First),
        Err(ImpasseError::KingsNotInCamps)
    );
    assert_eq!(g.outcome(), None);
    let mut g = game(
        Variant::Shogi,
        Some(&impasse_position("RB2G2S2N2L6P", "rb2g2s2n2l12p")),
        &["impasse=off"],
    );
    assert_eq!(
        g.claim_impasse(Side::First),
        Err(ImpasseError::NotInThisGame)
    );
    let mut g = game(Variant::Xiangqi, None, &[]);
    assert_eq!(
        g.claim_impasse(Side::First),
        Err(ImpasseError::NotInThisGame)
    );
}

#[test]
fn impasse_27_point_declarations() {
    // Sente: king on 5a, a gold and nine pawns in the camp (10 pieces, 10 points) and both rooks and
    // bishops in hand (20 points): 30 >= 28.
    const DECLARABLE: &str = "4K4/4G4/PPPPPPPPP/9/9/9/9/9/8k b 2R2B3g4s4n4l9p 1";
    let mut g = game(Variant::Shogi, Some(DECLARABLE), &["impasse=27-point"]);
    assert_eq!(
        g.claim_impasse(Side::Second),
        Err(ImpasseError::NotYourTurn)
    );
    assert_eq!(
        g.claim_impasse(Side::First),
        Ok(Outcome::win(Side::First, EndReason::Impasse))
    );
    // With one rook fewer in hand Sente has 25 points: the declaration loses.
    const SHORT: &str = "4K4/4G4/PPPPPPPPP/9/9/9/9/9/8k b R2Br3g4s4n4l9p 1";
    let mut g = game(Variant::Shogi, Some(SHORT), &["impasse=27-point"]);
    assert_eq!(
        g.claim_impasse(Side::First),
        Ok(Outcome::loss(Side::First, EndReason::Impasse))
    );
    assert!(g.play_text("5a4a").is_err());
}
