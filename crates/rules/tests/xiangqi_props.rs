//! Properties that need no oracle, on positions reached by random playouts
//! from the start. Few cases by default; `PROPTEST_CASES` runs more.

use proptest::prelude::*;
use rules::xiangqi::{Move, Position, Square};
use rules::{IllegalMove, MoveList, Position as _};

/// Plays the move each choice picks (modulo the number of legal moves) and
/// checks every property at each position on the way.
fn walk(
    choices: &[u16],
    mut check: impl FnMut(&Position) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let mut pos = Position::startpos();
    for &choice in choices {
        check(&pos)?;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[usize::from(choice) % moves.len()]);
    }
    check(&pos)
}

fn all_moves() -> impl Iterator<Item = Move> {
    Square::all().flat_map(|from| Square::all().map(move |to| Move { from, to }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn is_legal_iff_generated(choices in prop::collection::vec(any::<u16>(), 0..120)) {
        walk(&choices, |pos| {
            let legal = pos.legal_moves();
            prop_assert_eq!(legal.len(), pos.count_legal_moves());
            let mut unique = legal.to_vec();
            unique.sort_by_key(|m| (m.from, m.to));
            unique.dedup();
            prop_assert_eq!(unique.len(), legal.len(), "duplicate moves in {}", pos);
            // Every pair of points, so illegal candidates of every kind are asked.
            for mv in all_moves() {
                let verdict = pos.check_move(mv);
                prop_assert_eq!(verdict.is_ok(), legal.contains(&mv), "{} in {}: {:?}", mv, pos, verdict);
                prop_assert_ne!(verdict, Err(IllegalMove::GameOver));
            }
            Ok(())
        })?;
    }

    #[test]
    fn incremental_key_and_fen_round_trip(choices in prop::collection::vec(any::<u16>(), 0..160)) {
        walk(&choices, |pos| {
            let fen = pos.to_fen();
            let fresh = Position::from_fen(&fen).map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
            prop_assert_eq!(fresh.key(), pos.key(), "{}", fen);
            prop_assert_eq!(&fresh, pos);
            prop_assert_eq!(fresh.to_fen(), fen);
            Ok(())
        })?;
    }

    #[test]
    fn legal_moves_leave_valid_positions(choices in prop::collection::vec(any::<u16>(), 0..100)) {
        walk(&choices, |pos| {
            for mv in pos.legal_moves() {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                let revalidated = Position::new(next.to_setup())
                    .map_err(|e| TestCaseError::fail(format!("{mv} from {pos}: {e}")))?;
                prop_assert_eq!(&revalidated, &next);
                // Chase detection answers on every move without panicking.
                let _ = pos.is_chase(mv, &next);
            }
            let _ = pos.end();
            Ok(())
        })?;
    }

    #[test]
    fn every_quiet_check_is_a_candidate(choices in prop::collection::vec(any::<u16>(), 0..160)) {
        walk(&choices, |pos| {
            let mut candidates = MoveList::new();
            pos.generate_quiet_check_candidates(&mut candidates);
            let legal = pos.legal_moves();
            let occupied = pos.occupied();
            for &mv in &candidates {
                prop_assert!(legal.contains(&mv), "{} in {}", mv, pos);
                prop_assert!(!occupied.has(mv.to.index()), "{} captures in {}", mv, pos);
            }
            let mut unique = candidates.to_vec();
            unique.sort_by_key(|m| (m.from, m.to));
            unique.dedup();
            prop_assert_eq!(unique.len(), candidates.len(), "duplicates in {}", pos);
            for mv in legal.into_iter().filter(|mv| !occupied.has(mv.to.index())) {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                if next.is_check() {
                    prop_assert!(candidates.contains(&mv), "{} checks in {}", mv, pos);
                }
            }
            Ok(())
        })?;
    }
}
