//! Differential tests: the library's legal moves against independent oracles.
//!
//! - Shogi, minishogi and xiangqi: every position of the Fairy-Stockfish
//!   fixtures (`tests/data/oracle/*.txt`, made by
//!   `scripts/oracle/gen_fixtures.py`, pawn-drop mates removed, shogi
//!   cross-checked with cshogi).
//! - Annan Shogi, which no outside engine plays by our rules: random playouts
//!   (fixed seed) under both setups and every `annan_dead_piece` setting,
//!   compared ply by ply with the naive reference generator in
//!   `tests/reference`, which is itself checked against published perft
//!   counts in `tests/annan_reference.rs`.

mod reference;

use reference::{ANNAN_TRADITIONAL_START, DeadPiece, Game, Pos, Rng, SHOGI_START, fixtures};
use rules::{AnnanDeadPiece, AnnanSetup, AnyPosition, Settings, Variant};

/// The library's legal moves, sorted.
fn library_moves(pos: &AnyPosition) -> Vec<String> {
    let mut moves = pos.legal_moves_text();
    moves.sort();
    moves
}

/// Compares the library with every fixture of `variant`; fails with the
/// first mismatch and the number of mismatching positions.
fn assert_matches_fixtures(variant: Variant, file: &str) {
    let settings = Settings::default();
    let mut first = None;
    let mut failures = 0;
    let all = fixtures::read(file);
    for fixture in &all {
        let problem = match AnyPosition::new(variant, Some(&fixture.position), &settings) {
            Err(e) => Some(format!("not accepted: {e}")),
            Ok(pos) => fixtures::difference(&fixture.moves, &library_moves(&pos)),
        };
        if let Some(problem) = problem {
            failures += 1;
            first.get_or_insert(format!(
                "{file}.txt line {}: {}\n  {problem}",
                fixture.line, fixture.position
            ));
        }
    }
    if let Some(first) = first {
        panic!(
            "{failures} of {} {file} positions differ; first:\n{first}",
            all.len()
        );
    }
}

#[test]
fn shogi_matches_fairy_stockfish() {
    assert_matches_fixtures(Variant::Shogi, "shogi");
}

#[test]
fn minishogi_matches_fairy_stockfish() {
    assert_matches_fixtures(Variant::Minishogi, "minishogi");
}

#[test]
fn xiangqi_matches_fairy_stockfish() {
    assert_matches_fixtures(Variant::Xiangqi, "xiangqi");
}

/// Every fixture position survives the library's SFEN/FEN writer: reading
/// back what it wrote gives the same legal moves.
#[test]
fn fixture_positions_round_trip_through_text() {
    let settings = Settings::default();
    for (variant, file) in [
        (Variant::Shogi, "shogi"),
        (Variant::Minishogi, "minishogi"),
        (Variant::Xiangqi, "xiangqi"),
    ] {
        for fixture in fixtures::read(file) {
            let Ok(pos) = AnyPosition::new(variant, Some(&fixture.position), &settings) else {
                continue; // reported by the fixture tests
            };
            let text = pos.to_string();
            let again = AnyPosition::new(variant, Some(&text), &settings)
                .unwrap_or_else(|e| panic!("{file}: {text} (from {}): {e}", fixture.position));
            assert_eq!(
                library_moves(&again),
                library_moves(&pos),
                "{file}: {} written as {text}",
                fixture.position
            );
        }
    }
}

/// Every shogi fixture position (many with full hands, pawn-drop checks and
/// mates), read as Annan under each dead-piece setting, against the
/// reference. Positions the reference finds invalid in Annan (the side not
/// to move in check through borrowed movement) are skipped.
#[test]
fn annan_matches_reference_on_shogi_fixture_positions() {
    let mut compared = 0;
    for &dead_piece in AnnanDeadPiece::ALL {
        let settings = Settings {
            annan_dead_piece: dead_piece,
            ..Settings::default()
        };
        for fixture in fixtures::read("shogi") {
            let theirs = Pos::from_sfen(
                Game::Annan,
                reference_dead_piece(dead_piece),
                &fixture.position,
            )
            .expect("a fixture SFEN");
            if theirs.mover_in_check() {
                continue;
            }
            let Ok(ours) = AnyPosition::new(Variant::Annan, Some(&fixture.position), &settings)
            else {
                continue;
            };
            if let Some(diff) = fixtures::difference(&theirs.legal_usi(), &library_moves(&ours)) {
                panic!(
                    "annan {dead_piece} at shogi.txt line {}: {}\n  {diff}",
                    fixture.line, fixture.position
                );
            }
            assert_eq!(
                ours.is_check(),
                theirs.is_check(),
                "check at {}",
                fixture.position
            );
            compared += 1;
        }
    }
    assert!(compared > 3_000, "only {compared} positions compared");
}

/// Playouts per Annan configuration, and their longest length in plies.
const ANNAN_PLAYOUTS: usize = 8;
const ANNAN_PLIES: usize = 60;

fn reference_dead_piece(setting: AnnanDeadPiece) -> DeadPiece {
    match setting {
        AnnanDeadPiece::AllowedIfSupported => DeadPiece::AllowedIfSupported,
        AnnanDeadPiece::ByOriginalType => DeadPiece::ByOriginalType,
        AnnanDeadPiece::AlwaysAllowed => DeadPiece::AlwaysAllowed,
    }
}

/// Plays random games in both the library and the reference, comparing the
/// legal moves, check and the written position at every ply. Checks and
/// captures are preferred so that evasions come up and hands fill for drops,
/// nifu and the dead-piece rules.
fn annan_playouts(setup: AnnanSetup, dead_piece: AnnanDeadPiece, seed: u64) -> usize {
    let settings = Settings {
        annan_setup: setup,
        annan_dead_piece: dead_piece,
        ..Settings::default()
    };
    let start = match setup {
        AnnanSetup::Standard => SHOGI_START,
        AnnanSetup::Traditional => ANNAN_TRADITIONAL_START,
    };
    let mut rng = Rng::new(seed);
    let mut compared = 0;
    for _ in 0..ANNAN_PLAYOUTS {
        let mut ours = AnyPosition::new(Variant::Annan, None, &settings)
            .unwrap_or_else(|e| panic!("annan start: {e}"));
        let mut theirs = Pos::from_sfen(Game::Annan, reference_dead_piece(dead_piece), start)
            .expect("the start position");
        let mut played: Vec<String> = Vec::new();
        for _ in 0..ANNAN_PLIES {
            let context = || {
                format!(
                    "annan {setup} {dead_piece}, {} after {}",
                    theirs.to_sfen(),
                    if played.is_empty() {
                        "-".to_owned()
                    } else {
                        played.join(" ")
                    }
                )
            };
            let expected = theirs.legal_usi();
            if let Some(diff) = fixtures::difference(&expected, &library_moves(&ours)) {
                panic!("{}:\n  {diff}", context());
            }
            assert_eq!(ours.is_check(), theirs.is_check(), "check at {}", context());
            let written = Pos::from_sfen(Game::Annan, DeadPiece::AlwaysAllowed, &ours.to_string())
                .map(|p| p.to_sfen())
                .unwrap_or_else(|e| format!("unreadable: {e}"));
            assert_eq!(
                written,
                theirs.to_sfen(),
                "written position at {}",
                context()
            );
            compared += 1;
            let moves = theirs.legal_moves();
            if moves.is_empty() {
                break;
            }
            let checks: Vec<_> = moves
                .iter()
                .filter(|&&m| theirs.after(m).is_check())
                .collect();
            let captures: Vec<_> = moves.iter().filter(|&&m| theirs.is_capture(m)).collect();
            let mv = if !checks.is_empty() && rng.below(2) == 0 {
                *checks[rng.below(checks.len())]
            } else if !captures.is_empty() && rng.below(3) > 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let usi = mv.usi();
            if let Err(e) = ours.play_text(&usi) {
                panic!("library refuses {usi}: {e} at {}", context());
            }
            theirs = theirs.after(mv);
            played.push(usi);
        }
    }
    compared
}

#[test]
fn annan_matches_reference_in_random_playouts() {
    let mut total = 0;
    for (i, &setup) in AnnanSetup::ALL.iter().enumerate() {
        for (j, &dead_piece) in AnnanDeadPiece::ALL.iter().enumerate() {
            let positions = annan_playouts(setup, dead_piece, 0xA77A_0000 + (i * 3 + j) as u64);
            assert!(
                positions >= 200,
                "{setup} {dead_piece}: only {positions} positions"
            );
            total += positions;
        }
    }
    eprintln!("{total} annan positions compared");
}
