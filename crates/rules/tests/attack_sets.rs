//! `Position::attacks_from` and `Position::movers` (what an evaluation
//! counts attacks with) read forwards agree with `attackers_within` read
//! backwards, on positions reached by random playouts in the three shogi
//! games; annan pieces attack with the movement they borrow.

use rules::shogi::{Color, Position, Role, Square};
use rules::{Bitboard, Position as _, Settings, Variant};

mod common;

use common::Rng;

/// Every attack of every piece, forwards, against the attackers of every
/// square, backwards.
fn check_position(pos: &Position, size: u8) {
    let on_board = |sq: Square| sq.file() <= size && sq.rank() <= size;
    for color in Color::ALL {
        let movers = pos.movers(color);
        let all = movers.iter().fold(Bitboard::EMPTY, |acc, &bb| acc | bb);
        assert_eq!(
            all,
            pos.pieces_of(color),
            "{pos}: movers are {color:?}'s pieces"
        );
        let mut forwards = [Bitboard::EMPTY; 81];
        for role in Role::ALL {
            if pos.variant() != Variant::Annan {
                assert_eq!(movers[role.index()], pos.pieces(color, role), "{pos}");
            }
            for from in movers[role.index()] {
                let from_sq = Square::from_index(from).unwrap();
                for to in pos.attacks_from(color, role, from_sq) {
                    forwards[usize::from(to)] = forwards[usize::from(to)].with(from);
                }
            }
        }
        for index in 0..81 {
            let sq = Square::from_index(index).unwrap();
            let backwards = if on_board(sq) {
                pos.attackers_within(sq, color, pos.occupied())
            } else {
                Bitboard::EMPTY
            };
            assert_eq!(
                forwards[usize::from(index)],
                backwards,
                "{pos} {sq} {color:?}"
            );
        }
    }
}

fn playout(variant: Variant, seed: u64) {
    let mut rng = Rng(seed);
    let size = if variant == Variant::Minishogi { 5 } else { 9 };
    let mut pos = Position::startpos(variant, &Settings::default());
    for _ in 0..100 {
        check_position(&pos, size);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
}

#[test]
fn attack_sets_agree_with_the_attackers_of_each_square() {
    for seed in 1..=6 {
        playout(Variant::Shogi, seed * 7919);
        playout(Variant::Minishogi, seed * 104_729);
        playout(Variant::Annan, seed * 15_485_863);
    }
}

#[test]
fn attack_sets_follow_the_pieces_on_the_board() {
    // Sente's rook on 4e: the edge stops it upwards, its own pawn on 4g
    // downwards (that pawn is guarded).
    let pos = Position::from_sfen(
        "4k4/9/9/9/5R3/9/5P3/9/4K4 b - 1",
        Variant::Shogi,
        Default::default(),
    )
    .unwrap();
    let rook = pos.attacks_from(Color::Sente, Role::Rook, Square::new(4, 5).unwrap());
    assert_eq!(rook.count(), 4 + 2 + 8);
    assert!(rook.has(Square::new(4, 1).unwrap().index()));
    assert!(rook.has(Square::new(4, 7).unwrap().index()));
    assert!(!rook.has(Square::new(4, 8).unwrap().index()));
    // Read backwards from Gote's king: a Sente gold checks from the squares
    // a Gote gold on 5a would attack: 4a, 6a, 4b, 5b, 6b.
    let golds = pos.attacks_from(Color::Gote, Role::Gold, Square::new(5, 1).unwrap());
    let expected =
        [(4, 1), (6, 1), (4, 2), (5, 2), (6, 2)].map(|(f, r)| Square::new(f, r).unwrap().index());
    assert_eq!(
        golds,
        expected.iter().fold(Bitboard::EMPTY, |bb, &i| bb.with(i))
    );
}

#[test]
fn minishogi_attacks_stay_on_its_board() {
    // A rook on 3c of the empty 5×5 board reaches 8 squares, not the 9×9 edges.
    let pos = Position::from_sfen(
        "4k/5/2R2/5/K4 b - 1",
        Variant::Minishogi,
        Default::default(),
    )
    .unwrap();
    let rook = pos.attacks_from(Color::Sente, Role::Rook, Square::new(3, 3).unwrap());
    assert_eq!(rook.count(), 8);
}

#[test]
fn annan_pieces_move_like_their_supporter() {
    // Sente's pawn on 4f with the rook behind it on 4g moves like a rook.
    let pos = Position::from_sfen(
        "4k4/9/9/9/9/5P3/5R3/9/4K4 b - 1",
        Variant::Annan,
        Default::default(),
    )
    .unwrap();
    let pawn = Square::new(4, 6).unwrap().index();
    let movers = pos.movers(Color::Sente);
    assert!(movers[Role::Rook.index()].has(pawn));
    assert!(!movers[Role::Pawn.index()].has(pawn));
}
