//! Self-tests of the reference move generator (`tests/reference`) against
//! published perft counts and the Annan counts of tests/data/annan.perft, and against the
//! Fairy-Stockfish fixtures for shogi and minishogi.
//!
//! Counts deeper than `PERFT_NODE_LIMIT` leaves (default 1,100,000) are
//! skipped; set it higher to run them all.

mod reference;

use reference::{
    ANNAN_TRADITIONAL_START, DeadPiece, Game, MINISHOGI_START, Pos, SHOGI_START, fixtures,
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

/// The reference agrees with Fairy-Stockfish (pawn-drop mates removed) on
/// every committed fixture position.
fn assert_matches_fixtures(game: Game, variant: &str) {
    for fixture in fixtures::read(variant) {
        let pos = Pos::from_sfen(game, DeadPiece::ByOriginalType, &fixture.position)
            .unwrap_or_else(|e| panic!("line {}: {e}", fixture.line));
        if let Some(diff) = fixtures::difference(&fixture.moves, &pos.legal_usi()) {
            panic!(
                "{variant}.txt line {}: {}: {diff}",
                fixture.line, fixture.position
            );
        }
    }
}

#[test]
fn shogi_matches_fairy_stockfish_fixtures() {
    assert_matches_fixtures(Game::Shogi, "shogi");
}

#[test]
fn minishogi_matches_fairy_stockfish_fixtures() {
    assert_matches_fixtures(Game::Minishogi, "minishogi");
}

/// Moves of one position, for the hand-made rule checks below.
fn moves(game: Game, dead_piece: DeadPiece, sfen: &str) -> Vec<String> {
    Pos::from_sfen(game, dead_piece, sfen)
        .expect("a valid SFEN")
        .legal_usi()
}

#[test]
fn pawn_drop_mate_is_not_a_move_but_pawn_drop_check_is() {
    // The pawn on 1b would be backed by the gold on 2c; the king's flight
    // squares hold its own knight and silver.
    let mate = "7nk/7s1/7G1/9/9/9/9/9/K8 b P 1";
    for game in [Game::Shogi, Game::Annan] {
        let list = moves(game, DeadPiece::AllowedIfSupported, mate);
        assert!(!list.contains(&"P*1b".to_owned()), "{game:?}");
        assert!(list.contains(&"P*2b".to_owned()) || list.contains(&"P*1d".to_owned()));
    }
    // Without the knight the king escapes to 2a.
    let check = "8k/7s1/7G1/9/9/9/9/9/K8 b P 1";
    assert!(moves(Game::Shogi, DeadPiece::ByOriginalType, check).contains(&"P*1b".to_owned()));
}

#[test]
fn annan_pieces_move_like_the_friendly_piece_behind() {
    // Sente's pawn on 5e with a rook behind it on 5f moves like a rook; the
    // rook itself, with nothing behind, moves like a rook too.
    let sfen = "k8/9/9/9/4P4/4R4/9/9/K8 b - 1";
    let list = moves(Game::Annan, DeadPiece::AllowedIfSupported, sfen);
    for mv in ["5e5d", "5e5b", "5e1e", "5e9e", "5e5b+", "5e5a+"] {
        assert!(list.contains(&mv.to_owned()), "{mv} missing from {list:?}");
    }
    // On 5a, with 5b empty behind it, the pawn could never move: it must promote.
    assert!(!list.contains(&"5e5a".to_owned()));
    // The pawn gives check along the file: 5e5a would capture the king.
    assert!(
        Pos::from_sfen(
            Game::Annan,
            DeadPiece::AllowedIfSupported,
            "4k4/9/9/9/4P4/4R4/9/9/K8 w - 1"
        )
        .expect("valid")
        .is_check()
    );
    // An enemy piece behind lends nothing: the pawn moves one step.
    let plain = "4k4/9/9/9/4P4/4r4/9/9/K8 b - 1";
    let list = moves(Game::Annan, DeadPiece::AllowedIfSupported, plain);
    assert!(list.contains(&"5e5d".to_owned()) && !list.contains(&"5e5c".to_owned()));
}

#[test]
fn annan_dead_piece_settings() {
    // A pawn on 5b with a gold behind it on 5c: stepping to 5a leaves it
    // unsupported (it emptied 5b), so it must promote unless always-allowed.
    let sfen = "k8/4P4/4G4/9/9/9/9/9/K8 b - 1";
    let step = |dead| moves(Game::Annan, dead, sfen).contains(&"5b5a".to_owned());
    assert!(!step(DeadPiece::AllowedIfSupported));
    assert!(!step(DeadPiece::ByOriginalType));
    assert!(step(DeadPiece::AlwaysAllowed));
    // A pawn drop on 5a above a gold on 5b is supported there (gold moves).
    let drop_sfen = "k8/4G4/9/9/9/9/9/9/K8 b P 1";
    let drop = |dead| moves(Game::Annan, dead, drop_sfen).contains(&"P*5a".to_owned());
    assert!(drop(DeadPiece::AllowedIfSupported));
    assert!(!drop(DeadPiece::ByOriginalType));
    assert!(drop(DeadPiece::AlwaysAllowed));
}
