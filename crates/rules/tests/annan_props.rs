//! The annan move generator tests king safety without playing the moves; here
//! its list must equal the straightforward one: every conceivable move kept
//! when `check_move` (which plays the move and looks at the king) accepts it,
//! on positions reached by random play from both setups under each
//! dead-piece setting.

use std::collections::HashSet;

use proptest::prelude::*;
use rules::shogi::{Move, Position, Role, Square};
use rules::{AnnanDeadPiece, AnnanSetup, Position as _, Settings, Variant};

const DEAD_PIECE: [AnnanDeadPiece; 3] = [
    AnnanDeadPiece::AllowedIfSupported,
    AnnanDeadPiece::ByOriginalType,
    AnnanDeadPiece::AlwaysAllowed,
];

const SETUPS: [AnnanSetup; 2] = [AnnanSetup::Standard, AnnanSetup::Traditional];

/// Every move on the 9×9 board, legal or not: each from/to pair with and
/// without promotion, and each kind dropped on each square.
fn every_move() -> impl Iterator<Item = Move> {
    let squares = || (0..81).filter_map(Square::from_index);
    let normal = squares().flat_map(move |from| {
        squares()
            .flat_map(move |to| [false, true].map(|promote| Move::Normal { from, to, promote }))
    });
    let drops = Role::ALL
        .into_iter()
        .flat_map(move |role| squares().map(move |to| Move::Drop { role, to }));
    normal.chain(drops)
}

/// The legal moves by make-and-test: those `check_move` accepts.
fn played_and_tested(pos: &Position) -> HashSet<Move> {
    every_move()
        .filter(|&mv| pos.check_move(mv).is_ok())
        .collect()
}

proptest! {
    // PROPTEST_CASES overrides the default.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(24)
    ))]

    #[test]
    fn generated_moves_are_the_made_and_tested_moves(
        dead_piece in 0..DEAD_PIECE.len(),
        setup in 0..SETUPS.len(),
        choices in prop::collection::vec(any::<u32>(), 1..160),
    ) {
        let settings = Settings {
            annan_dead_piece: DEAD_PIECE[dead_piece],
            annan_setup: SETUPS[setup],
            ..Settings::default()
        };
        let mut pos = Position::startpos(Variant::Annan, &settings);
        for &choice in &choices {
            let legal = pos.legal_moves();
            let generated: HashSet<Move> = legal.iter().copied().collect();
            prop_assert_eq!(generated.len(), legal.len(), "a move twice in {}", pos);
            let expected = played_and_tested(&pos);
            prop_assert!(
                generated == expected,
                "{}: generated but refused {:?}, accepted but not generated {:?}",
                pos,
                generated.difference(&expected).map(Move::to_string).collect::<Vec<_>>(),
                expected.difference(&generated).map(Move::to_string).collect::<Vec<_>>(),
            );
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[choice as usize % legal.len()]);
        }
    }
}
