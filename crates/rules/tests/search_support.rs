//! What a search asks of the rules beyond the legal moves, on positions
//! reached by random playouts in all four games (every annan dead-piece
//! setting):
//! - `generate_moves(MoveSet::Tactical)` lists exactly the captures and
//!   promotions of `legal_moves`, in the same order;
//! - `passed()` (the null move) is the position validated afresh with the
//!   other side to move: same key, same legal moves;
//! - `surely_has_legal_move()` is never true where there is no legal move.

use rules::shogi::{self, Move};
use rules::{AnnanDeadPiece, MoveList, MoveSet, Position, Settings, Variant, xiangqi};

mod common;

use common::Rng;

/// The game-specific half of the checks.
trait Searched: Position {
    fn is_tactical(&self, mv: Self::Move) -> bool;
    fn passed(&self) -> Option<Self>;
    fn surely_has_legal_move(&self) -> bool;
    /// The position with the other side to move, built from a setup.
    fn rebuilt_passed(&self) -> Option<Self>;
}

impl Searched for shogi::Position {
    fn is_tactical(&self, mv: Move) -> bool {
        match mv {
            Move::Normal { to, promote, .. } => promote || self.piece_at(to).is_some(),
            Move::Drop { .. } => false,
        }
    }

    fn passed(&self) -> Option<Self> {
        shogi::Position::passed(self)
    }

    fn surely_has_legal_move(&self) -> bool {
        shogi::Position::surely_has_legal_move(self)
    }

    fn rebuilt_passed(&self) -> Option<Self> {
        let mut setup = self.to_setup();
        setup.turn = setup.turn.opponent();
        shogi::Position::new(setup, self.variant(), self.dead_piece_setting()).ok()
    }
}

impl Searched for xiangqi::Position {
    fn is_tactical(&self, mv: xiangqi::Move) -> bool {
        self.piece_at(mv.to).is_some()
    }

    fn passed(&self) -> Option<Self> {
        xiangqi::Position::passed(self)
    }

    fn surely_has_legal_move(&self) -> bool {
        xiangqi::Position::surely_has_legal_move(self)
    }

    fn rebuilt_passed(&self) -> Option<Self> {
        let mut setup = self.to_setup();
        setup.turn = setup.turn.opponent();
        xiangqi::Position::new(setup).ok()
    }
}

/// Plays random moves from `start`, checking the properties at each
/// position. Returns how many tactical moves and passes it saw, so that a
/// run cannot pass by seeing none, and how often a legal move was sure.
fn playout<P: Searched>(start: P, seed: u64) -> (usize, usize, usize) {
    let mut rng = Rng(seed);
    let mut pos = start;
    let (mut tactical_seen, mut passes, mut sure) = (0, 0, 0);
    for _ in 0..160 {
        let all = pos.legal_moves();
        if pos.surely_has_legal_move() {
            assert!(!all.is_empty(), "{pos}");
            sure += 1;
        }
        let expected: Vec<P::Move> = all
            .iter()
            .copied()
            .filter(|&mv| pos.is_tactical(mv))
            .collect();
        let mut tactical = MoveList::new();
        pos.generate_moves(MoveSet::Tactical, &mut tactical);
        assert_eq!(tactical.as_slice(), expected.as_slice(), "{pos}");
        tactical_seen += tactical.len();

        match (pos.passed(), pos.rebuilt_passed()) {
            (Some(passed), Some(rebuilt)) => {
                assert_eq!(passed.key(), rebuilt.key(), "{pos}");
                assert_eq!(passed.to_string(), rebuilt.to_string());
                assert_eq!(passed.is_check(), rebuilt.is_check(), "{pos}");
                assert_eq!(passed.legal_moves(), rebuilt.legal_moves(), "{pos}");
                passes += 1;
            }
            (None, None) => assert!(pos.is_check(), "{pos}"),
            (passed, _) => panic!("{pos}: passed() is {passed:?}"),
        }

        if all.is_empty() {
            break;
        }
        // Tactical moves half the time, so that the playouts reach endgames.
        let pick = match tactical.is_empty() || rng.below(2) == 0 {
            true => all[rng.below(all.len())],
            false => tactical[rng.below(tactical.len())],
        };
        pos.play_unchecked(pick);
    }
    (tactical_seen, passes, sure)
}

/// Whether a playout saw tactical moves and passes; counts its sure moves.
fn assert_saw_both((tactical, passes, sure): (usize, usize, usize), sure_moves: &mut usize) {
    assert!(tactical > 0 && passes > 0);
    *sure_moves += sure;
}

#[test]
fn tactical_moves_and_passing_agree_with_the_full_rules() {
    let (mut sure, mut annan_sure) = (0, 0);
    for seed in 1..=8 {
        for variant in [Variant::Shogi, Variant::Minishogi] {
            let start = shogi::Position::startpos(variant, &Settings::default());
            assert_saw_both(playout(start, seed * 7919), &mut sure);
        }
        for dead_piece in [
            AnnanDeadPiece::ByOriginalType,
            AnnanDeadPiece::AllowedIfSupported,
            AnnanDeadPiece::AlwaysAllowed,
        ] {
            let settings = Settings {
                annan_dead_piece: dead_piece,
                ..Settings::default()
            };
            let start = shogi::Position::startpos(Variant::Annan, &settings);
            assert_saw_both(playout(start, seed * 104_729), &mut annan_sure);
        }
        assert_saw_both(
            playout(xiangqi::Position::startpos(), seed * 15_485_863),
            &mut sure,
        );
    }
    assert!(sure > 1000, "{sure}");
    assert!(annan_sure > 500, "{annan_sure}");
}
