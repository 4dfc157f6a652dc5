//! Property tests needing no oracle, on positions reached by random play from
//! the start positions of shogi, minishogi and annan (each dead-piece setting).

use proptest::prelude::*;
use rules::shogi::{Move, Position, Role, Square};
use rules::{AnnanDeadPiece, Position as _, Settings, Variant};

const GAMES: [(Variant, AnnanDeadPiece); 5] = [
    (Variant::Shogi, AnnanDeadPiece::AllowedIfSupported),
    (Variant::Minishogi, AnnanDeadPiece::AllowedIfSupported),
    (Variant::Annan, AnnanDeadPiece::AllowedIfSupported),
    (Variant::Annan, AnnanDeadPiece::ByOriginalType),
    (Variant::Annan, AnnanDeadPiece::AlwaysAllowed),
];

/// A move built from random numbers: mostly nonsense, sometimes legal.
fn candidate(n: u32) -> Move {
    let to = Square::from_index((n % 81) as u8).unwrap_or(Square::SQ_5E);
    let from = Square::from_index((n / 81 % 81) as u8).unwrap_or(Square::SQ_5E);
    if n >> 20 & 3 == 0 {
        Move::Drop {
            role: Role::ALL[(n >> 13) as usize % 14],
            to,
        }
    } else {
        Move::Normal {
            from,
            to,
            promote: n >> 23 & 1 == 1,
        }
    }
}

/// Checks every property on `pos`, using `noise` for random candidate moves.
fn check_position(
    pos: &Position,
    dead_piece: AnnanDeadPiece,
    noise: &[u32],
) -> Result<(), TestCaseError> {
    let variant = pos.variant();
    // The key kept move by move equals the key of the same position built afresh,
    // and the position is valid.
    let fresh = Position::new(pos.to_setup(), variant, dead_piece);
    prop_assert!(fresh.is_ok(), "{pos}: {:?}", fresh.err());
    let fresh = fresh.unwrap();
    prop_assert_eq!(pos.key(), rules::Position::key(&fresh), "{}", pos);
    prop_assert_eq!(pos.checkers(), fresh.checkers());
    // SFEN round trip.
    let again = Position::from_sfen(&pos.to_sfen(), variant, dead_piece).unwrap();
    prop_assert_eq!(again.to_sfen(), pos.to_sfen());
    // Legal moves are distinct, each is_legal, and USI round-trips.
    let legal = pos.legal_moves();
    for (i, &mv) in legal.iter().enumerate() {
        prop_assert!(!legal[..i].contains(&mv), "{} twice in {}", mv, pos);
        prop_assert_eq!(pos.check_move(mv), Ok(()), "{} in {}", mv, pos);
        prop_assert_eq!(pos.parse_move(&mv.to_string()).unwrap(), mv);
        // The same move with the promotion flag flipped: legal exactly when listed.
        if let Move::Normal { from, to, promote } = mv {
            let flipped = Move::Normal {
                from,
                to,
                promote: !promote,
            };
            prop_assert_eq!(
                pos.is_legal(flipped),
                legal.contains(&flipped),
                "{} in {}",
                flipped,
                pos
            );
        }
    }
    // is_legal agrees with the list for random candidates.
    for &n in noise {
        let mv = candidate(n);
        prop_assert_eq!(pos.is_legal(mv), legal.contains(&mv), "{} in {}", mv, pos);
    }
    Ok(())
}

proptest! {
    // PROPTEST_CASES overrides the small default.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(12)
    ))]

    #[test]
    fn random_play_keeps_every_property(
        game in 0..GAMES.len(),
        choices in prop::collection::vec(any::<u32>(), 1..80),
        noise in prop::collection::vec(any::<u32>(), 40),
    ) {
        let (variant, dead_piece) = GAMES[game];
        let settings = Settings { annan_dead_piece: dead_piece, ..Settings::default() };
        let mut pos = Position::startpos(variant, &settings);
        for (ply, &choice) in choices.iter().enumerate() {
            check_position(&pos, dead_piece, &noise[ply % 8 * 5..ply % 8 * 5 + 5])?;
            let legal = pos.legal_moves();
            if legal.is_empty() {
                prop_assert!(pos.end().is_some());
                break;
            }
            let mv = legal[choice as usize % legal.len()];
            pos.play_unchecked(mv);
        }
    }
}
