//! Self-tests of the reference move generator (`tests/reference`) against
//! published perft counts and the spec's Annan counts, and against the
//! Fairy-Stockfish fixtures for shogi and minishogi.
//!
//! Counts deeper than `PERFT_NODE_LIMIT` leaves (default 1,100,000) are
//! skipped; set it higher to run them all.

mod reference;

use reference::{
    ANNAN_TRADITIONAL_START, DeadPiece, Game, MINISHOGI_START, Pos, SHOGI_START,
};

const ALL_DEAD_PIECE: [DeadPiece; 3] = [
    DeadPiece::AllowedIfSupported,
    DeadPiece::ByOriginalType,
    DeadPiece::AlwaysAllowed,
];

fn node_limit() -> u64 {
    std::env::var("PERFT_NODE_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_100_000)
}

/// Checks `counts[d - 1]` = perft(d) for every depth within the node limit.
fn assert_perft(game: Game, dead_piece: DeadPiece, sfen: &str, counts: &[u64]) {
    let pos = Pos::from_sfen(game, dead_piece, sfen).expect("a valid SFEN");
    for (depth, &expected) in (1..).zip(counts) {
        if expected > node_limit() {
            eprintln!("skipping {game:?} depth {depth} ({expected} nodes; raise PERFT_NODE_LIMIT)");
            continue;
        }
        assert_eq!(
            pos.perft(depth),
            expected,
            "{game:?} {dead_piece:?} perft({depth}) of {sfen}"
        );
    }
}

#[test]
fn shogi_start_perft() {
    assert_perft(
        Game::Shogi,
        DeadPiece::ByOriginalType,
        SHOGI_START,
        &[30, 900, 25_470, 719_731],
    );
}

#[test]
fn minishogi_start_perft() {
    assert_perft(
        Game::Minishogi,
        DeadPiece::ByOriginalType,
        MINISHOGI_START,
        &[14, 181, 2_512, 35_401],
    );
}

#[test]
fn shogi_most_drops_position() {
    assert_perft(
        Game::Shogi,
        DeadPiece::ByOriginalType,
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        &[593],
    );
}

#[test]
fn annan_standard_start_allowed_if_supported() {
    assert_perft(
        Game::Annan,
        DeadPiece::AllowedIfSupported,
        SHOGI_START,
        &[32, 1_023, 32_008, 1_002_013],
    );
}

#[test]
fn annan_standard_start_by_original_type() {
    assert_perft(
        Game::Annan,
        DeadPiece::ByOriginalType,
        SHOGI_START,
        &[32, 1_023, 32_008, 1_002_012],
    );
}

#[test]
fn annan_standard_start_always_allowed() {
    assert_perft(
        Game::Annan,
        DeadPiece::AlwaysAllowed,
        SHOGI_START,
        &[32, 1_023, 32_009, 1_002_428],
    );
}

#[test]
fn annan_traditional_start_any_setting() {
    for dead_piece in ALL_DEAD_PIECE {
        assert_perft(
            Game::Annan,
            dead_piece,
            ANNAN_TRADITIONAL_START,
            &[28, 784, 21_718, 601_434],
        );
    }
}
