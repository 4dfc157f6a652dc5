//! Xiangqi rules, one behaviour per test, on small hand-made positions.

use rules::xiangqi::{Color, Move, Position, Square};
use rules::{Bitboard, EndReason, IllegalMove, Outcome, Position as _, Side, Variant};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(text: &str) -> Move {
    Move::from_iccs(text).unwrap()
}

/// The legal destinations of the piece on `from`, as sorted ICCS names.
fn targets(pos: &Position, from: &str) -> Vec<String> {
    let from = mv(&format!("{from}a0")).from;
    let mut names: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| m.to.to_string())
        .collect();
    names.sort();
    names
}

fn names(list: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
    names.sort();
    names
}

fn set(squares: &[Square]) -> Bitboard {
    squares
        .iter()
        .fold(Bitboard::EMPTY, |bb, sq| bb.with(sq.index()))
}

#[test]
fn start_position_basics() {
    let start = Position::startpos();
    assert_eq!(start.variant(), Variant::Xiangqi);
    assert_eq!(start.side_to_move(), Side::First);
    assert_eq!(start.turn(), Color::Red);
    assert_eq!(start.legal_moves().len(), 44);
    assert_eq!(start.count_legal_moves(), 44);
    assert!(!start.is_check());
    assert_eq!(start.end(), None);
    assert_eq!(start.parse_move("h2e2"), Ok(mv("h2e2")));
    assert!(start.parse_move("z2e2").is_err());
    assert_eq!(
        targets(&start, "h2"),
        names(&[
            "h1", "h3", "h4", "h5", "h6", "h9", "g2", "f2", "e2", "d2", "c2", "i2"
        ])
    );
}

#[test]
fn horse_leg() {
    // A black soldier on b1 hobbles the red horse on b0 towards a2 and c2.
    let hobbled = pos("3k5/9/9/9/9/9/9/9/1p7/1N2K4 w");
    assert_eq!(targets(&hobbled, "b0"), names(&["d1"]));
    assert_eq!(
        hobbled.check_move(mv("b0a2")),
        Err(IllegalMove::CannotReach)
    );
    let free = pos("3k5/9/9/9/9/9/9/9/9/1N2K4 w");
    assert_eq!(targets(&free, "b0"), names(&["a2", "c2", "d1"]));
}

#[test]
fn elephant_eye_and_river() {
    // The black soldier on d1 blocks the eye towards e2.
    let blocked = pos("3k5/9/9/9/9/9/9/9/3p5/2B1K4 w");
    assert_eq!(targets(&blocked, "c0"), names(&["a2"]));
    assert_eq!(
        blocked.check_move(mv("c0e2")),
        Err(IllegalMove::CannotReach)
    );
    // From c4 the elephant may not cross the river to a6 or e6.
    let river = pos("3k5/9/9/9/9/2B6/9/9/9/4K4 w");
    assert_eq!(targets(&river, "c4"), names(&["a2", "e2"]));
    assert_eq!(river.check_move(mv("c4e6")), Err(IllegalMove::CannotReach));
}

#[test]
fn cannon_screen() {
    // No screen: the cannon on a0 cannot take the chariot on a9.
    let open = pos("r2k5/9/9/9/9/9/9/9/9/C3K4 w");
    assert_eq!(
        targets(&open, "a0"),
        names(&[
            "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b0", "c0", "d0"
        ])
    );
    // One screen on a5: it can.
    let screened = pos("r2k5/9/9/9/p8/9/9/9/9/C3K4 w");
    assert_eq!(
        targets(&screened, "a0"),
        names(&["a1", "a2", "a3", "a4", "a9", "b0", "c0", "d0"])
    );
    // Two pieces ahead: it takes the second, never the third.
    let two = pos("r2k5/9/n8/9/p8/9/9/9/9/C3K4 w");
    assert_eq!(
        targets(&two, "a0"),
        names(&["a1", "a2", "a3", "a4", "a7", "b0", "c0", "d0"])
    );
    assert_eq!(two.check_move(mv("a0a9")), Err(IllegalMove::CannotReach));
    assert_eq!(two.check_move(mv("a0a5")), Err(IllegalMove::CannotReach));
}

#[test]
fn palace() {
    let p = pos("5k3/9/9/9/9/9/9/9/4A4/3K5 w");
    assert_eq!(targets(&p, "d0"), names(&["d1", "e0"]));
    assert_eq!(p.check_move(mv("d0c0")), Err(IllegalMove::CannotReach));
    assert_eq!(targets(&p, "e1"), names(&["f0", "d2", "f2"]));
    assert_eq!(p.check_move(mv("e1e2")), Err(IllegalMove::CannotReach));
    assert_eq!(p.check_move(mv("e1d0")), Err(IllegalMove::OwnPieceOnTarget));
}

#[test]
fn soldier_sideways_only_after_the_river() {
    let p = pos("3k5/9/9/9/6P2/2P6/9/9/9/4K4 w");
    assert_eq!(targets(&p, "c4"), names(&["c5"]));
    assert_eq!(p.check_move(mv("c4b4")), Err(IllegalMove::CannotReach));
    assert_eq!(targets(&p, "g5"), names(&["g6", "f5", "h5"]));
    assert_eq!(p.check_move(mv("g5g4")), Err(IllegalMove::CannotReach));
    // Black's soldiers go the other way.
    let b = pos("3k5/9/9/9/6p2/2p6/9/9/9/4K4 b");
    assert_eq!(targets(&b, "g5"), names(&["g4"]));
    assert_eq!(targets(&b, "c4"), names(&["c3", "b4", "d4"]));
}

#[test]
fn flying_general() {
    // The horse on e4 is all that stands between the generals.
    let p = pos("4k4/9/9/9/9/4N4/9/9/9/4K4 w");
    assert_eq!(p.check_move(mv("e4c5")), Err(IllegalMove::FacingGenerals));
    assert_eq!(p.check_move(mv("e4f6")), Err(IllegalMove::FacingGenerals));
    assert_eq!(targets(&p, "e4"), Vec::<String>::new());
    assert_eq!(p.legal_moves().len(), 3);
    // Stepping onto the open file is refused too.
    let q = pos("4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert_eq!(q.check_move(mv("d0e0")), Err(IllegalMove::FacingGenerals));
    assert_eq!(targets(&q, "d0"), names(&["d1"]));
}

#[test]
fn leaving_the_general_attacked() {
    // The horse on e1 shields its general from the chariot on e5.
    let p = pos("4k4/9/9/9/4r4/9/9/9/4N4/4K4 w");
    assert_eq!(
        p.check_move(mv("e1c2")),
        Err(IllegalMove::LeavesKingInCheck)
    );
    assert_eq!(targets(&p, "e1"), Vec::<String>::new());
    assert_eq!(p.check_move(mv("e0d0")), Ok(()));
    // Without the horse the general is in check and must step aside.
    let check = pos("4k4/9/9/9/4r4/9/9/9/9/4K4 w");
    assert!(check.is_check());
    assert_eq!(check.checkers(), set(&[Square::E5]));
    assert_eq!(targets(&check, "e0"), names(&["d0", "f0"]));
    assert_eq!(
        check.check_move(mv("e0e1")),
        Err(IllegalMove::LeavesKingInCheck)
    );
}

#[test]
fn moving_nothing_or_onto_own_piece() {
    let start = Position::startpos();
    assert_eq!(
        start.check_move(mv("e4e5")),
        Err(IllegalMove::NoPieceToMove)
    );
    assert_eq!(
        start.check_move(mv("h7h0")),
        Err(IllegalMove::NoPieceToMove)
    );
    assert_eq!(
        start.check_move(mv("a0a3")),
        Err(IllegalMove::OwnPieceOnTarget)
    );
    assert_eq!(start.check_move(mv("a0b1")), Err(IllegalMove::CannotReach));
    assert_eq!(start.check_move(mv("h2e2")), Ok(()));
}

#[test]
fn attackers() {
    let start = Position::startpos();
    assert_eq!(
        start.attackers_of(Square::E2, Color::Red),
        set(&[Square::C0, Square::G0])
    );
    assert_eq!(
        start.attackers_of(Square::E1, Color::Red),
        set(&[Square::D0, Square::E0, Square::F0])
    );
    // The black cannon on b7 takes the horse on b0 over the red cannon.
    assert_eq!(
        start.attackers_of(Square::B0, Color::Black),
        set(&[Square::B7])
    );
    assert_eq!(
        start.attackers_of(Square::E4, Color::Black),
        Bitboard::EMPTY
    );
}

#[test]
fn stalemate_is_a_loss() {
    let p = pos("4k4/9/9/9/9/9/9/9/2p1p1p2/3K5 w");
    assert!(!p.is_check());
    assert_eq!(p.legal_moves().len(), 0);
    assert_eq!(
        p.end(),
        Some(Outcome::loss(Side::First, EndReason::NoLegalMoves))
    );
}

#[test]
fn checkmate() {
    let p = pos("R3k4/1R7/9/9/9/9/9/9/9/3K5 b");
    assert!(p.is_check());
    assert_eq!(
        p.end(),
        Some(Outcome::win(Side::First, EndReason::Checkmate))
    );
    // A mate found by a random playout (pyffish agrees: no legal move, in check).
    let found = pos("3R1a3/9/3kb4/p6rp/9/9/2c1P4/4B4/2R6/3AKA3 b - - 0 25");
    assert_eq!(
        found.end(),
        Some(Outcome::win(Side::First, EndReason::Checkmate))
    );
    // Mate counts before the sixty-move rule.
    let late = pos("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 120 80");
    assert_eq!(
        late.end(),
        Some(Outcome::win(Side::First, EndReason::Checkmate))
    );
}

#[test]
fn insufficient_material() {
    let p = pos("4k4/4a4/9/9/9/9/9/9/4A4/3K5 b");
    assert_eq!(
        p.end(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
    // A single soldier can still cross the river.
    let q = pos("4k4/4a4/9/9/9/9/P8/9/4A4/3K5 b");
    assert_eq!(q.end(), None);
}

#[test]
fn sixty_move_rule_boundary() {
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let at_119 = pos(&format!("{board} w - - 119 70"));
    assert_eq!(at_119.end(), None);
    let at_120 = pos(&format!("{board} w - - 120 70"));
    assert_eq!(at_120.end(), Some(Outcome::draw(EndReason::SixtyMoveRule)));
    // A quiet move from 119 reaches 120; a capture starts the count again.
    let mut quiet = at_119.clone();
    quiet.play_unchecked(mv("h2e2"));
    assert_eq!(quiet.halfmove_clock(), 120);
    assert_eq!(quiet.end(), Some(Outcome::draw(EndReason::SixtyMoveRule)));
    let mut capture = at_119;
    capture.play_unchecked(mv("h2h9"));
    assert_eq!(capture.halfmove_clock(), 0);
    assert_eq!(capture.end(), None);
}

#[test]
fn clocks_and_move_number() {
    let mut p = Position::startpos();
    p.play_unchecked(mv("h2e2"));
    assert_eq!(
        (p.turn(), p.halfmove_clock(), p.fullmove_number()),
        (Color::Black, 1, 1)
    );
    p.play_unchecked(mv("h9g7"));
    assert_eq!(
        (p.turn(), p.halfmove_clock(), p.fullmove_number()),
        (Color::Red, 2, 2)
    );
    assert_eq!(
        p.to_fen(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
}

#[test]
fn key_covers_board_and_side_not_clocks() {
    let play = |moves: &[&str]| {
        let mut p = Position::startpos();
        for m in moves {
            assert!(p.is_legal(mv(m)), "{m}");
            p.play_unchecked(mv(m));
        }
        p
    };
    let a = play(&["b0c2", "b9c7", "h0g2", "h9g7"]);
    let b = play(&["h0g2", "h9g7", "b0c2", "b9c7"]);
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), Position::startpos().key());
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    assert_eq!(
        pos(&format!("{board} w - - 7 9")).key(),
        Position::startpos().key()
    );
    assert_ne!(pos(&format!("{board} b")).key(), Position::startpos().key());
}

#[test]
fn huge_clocks_do_not_overflow() {
    let mut p = pos("4k4/9/9/9/9/9/9/9/9/3K5 b - - 4294967295 4294967295");
    p.play_unchecked(mv("e9e8"));
    assert_eq!(p.halfmove_clock(), u32::MAX);
    assert_eq!(p.fullmove_number(), u32::MAX);
}
