//! Chasing (捉): a move that creates a new threat to capture an enemy piece.
//!
//! Asian Xiangqi Federation rules in their practical form (rules spec,
//! section 4): after the move, some piece of the mover can legally capture an
//! enemy piece it could not capture before (the moved piece compared with
//! itself on its from-square), and the target is unprotected (the opponent
//! could not legally recapture on its point), or the pair is one where the
//! attack counts even against a protected piece: a horse or cannon attacking
//! a chariot, an advisor or elephant attacking a chariot, cannon or horse.
//! Generals and soldiers may attack freely; the general and soldiers that
//! have not crossed the river are never targets.

use super::{Color, Move, Position, Role, Square};
use crate::Position as _;

/// Whether `mv`, played from `before` to reach `after`, is a chase.
pub(super) fn is_chase(before: &Position, mv: Move, after: &Position) -> bool {
    let mover = before.turn();
    let them = mover.opponent();
    // What the mover could capture if it were to move again.
    let again = after.with_turn(mover);
    for from in again.pieces_of(mover) {
        let from = Square::from_index_unchecked(from);
        let Some(attacker) = again.piece_at(from) else {
            continue;
        };
        if matches!(attacker.role, Role::General | Role::Soldier) {
            continue;
        }
        let now = again.legal_targets(from) & after.pieces_of(them);
        if now.is_empty() {
            continue;
        }
        let origin = if from == mv.to { mv.from } else { from };
        let new = now.and_not(before.legal_targets(origin));
        for target_sq in new {
            let target_sq = Square::from_index_unchecked(target_sq);
            let Some(target) = after.piece_at(target_sq) else {
                continue;
            };
            if !can_be_chased(target.role, them, target_sq) {
                continue;
            }
            if counts_when_protected(attacker.role, target.role)
                || !is_protected(&again, from, target_sq)
            {
                return true;
            }
        }
    }
    false
}

/// The general never, soldiers only once across the river.
fn can_be_chased(role: Role, color: Color, sq: Square) -> bool {
    match role {
        Role::General => false,
        Role::Soldier => match color {
            Color::Red => sq.rank() >= 5,
            Color::Black => sq.rank() <= 4,
        },
        _ => true,
    }
}

/// Attacks that are chases even on a protected target: the attacker is worth less.
fn counts_when_protected(attacker: Role, target: Role) -> bool {
    match attacker {
        Role::Horse | Role::Cannon => target == Role::Chariot,
        Role::Advisor | Role::Elephant => {
            matches!(target, Role::Chariot | Role::Cannon | Role::Horse)
        }
        _ => false,
    }
}

/// Whether, after the piece on `from` captures on `target` (in `pos`, with
/// the capturer to move), the opponent could legally recapture there.
fn is_protected(pos: &Position, from: Square, target: Square) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(Move { from, to: target });
    let defender = after.turn();
    after.attackers_of(target, defender).into_iter().any(|sq| {
        after.is_legal(Move {
            from: Square::from_index_unchecked(sq),
            to: target,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the ICCS move `mv` in `fen` is a chase (the move must be legal).
    fn chase(fen: &str, mv: &str) -> bool {
        let before = Position::from_fen(fen).unwrap();
        let mv = Move::from_iccs(mv).unwrap();
        assert!(before.is_legal(mv), "{mv} is illegal in {fen}");
        let mut after = before.clone();
        after.play_unchecked(mv);
        before.is_chase(mv, &after)
    }

    #[test]
    fn horse_on_chariot_is_a_chase_even_if_protected() {
        // The black chariot on c6 is protected by the one on c9.
        assert!(chase("2r2k3/9/9/2r6/9/9/3N5/9/9/3K5 w - - 0 1", "d3b4"));
    }

    #[test]
    fn elephant_on_horse_is_a_chase_even_if_protected() {
        // The black horse on c4 is protected by the chariot on c9.
        assert!(chase("2r2k3/9/9/9/9/2n3B2/9/9/9/3K5 w - - 0 1", "g4e2"));
        // A chariot attacking the same protected horse does not chase.
        assert!(!chase("2r2k3/9/9/9/9/2n6/9/9/9/3K3R1 w - - 0 1", "h0h4"));
    }

    #[test]
    fn chariot_on_unprotected_cannon_is_a_chase() {
        assert!(chase("5k3/9/9/4c4/9/9/9/9/R8/3K5 w - - 0 1", "a1a6"));
    }

    #[test]
    fn chariot_on_protected_cannon_is_not() {
        // The chariot on e9 would recapture on e6.
        assert!(!chase("4rk3/9/9/4c4/9/9/9/9/R8/3K5 w - - 0 1", "a1a6"));
    }

    #[test]
    fn soldiers_and_generals_never_chase() {
        // A soldier attacks an unprotected chariot.
        assert!(!chase("5k3/9/2r6/9/2P6/9/9/9/9/3K5 w - - 0 1", "c5c6"));
        // The general attacks an unprotected horse in its palace.
        assert!(!chase("5k3/9/9/9/9/9/9/3n5/4K4/9 w - - 0 1", "e1d1"));
    }

    #[test]
    fn an_attack_that_existed_before_is_not_a_new_chase() {
        let fen = "5k3/9/9/R3c4/9/9/9/9/9/3K5 w - - 0 1";
        // Another piece moves: the chariot's attack on e6 is old.
        assert!(!chase(fen, "d0d1"));
        // The chariot itself moves along and still attacks e6.
        assert!(!chase(fen, "a6b6"));
    }

    #[test]
    fn a_discovered_attack_is_a_chase() {
        // The horse steps off the chariot's rank and uncovers the cannon on e6.
        assert!(chase("5k3/9/9/R1N1c4/9/9/9/9/9/3K5 w - - 0 1", "c6b8"));
    }

    #[test]
    fn soldiers_are_targets_only_across_the_river() {
        // Black soldier on a6 has not crossed: no chase.
        assert!(!chase("5k3/9/9/p8/9/9/1R7/9/9/3K5 w - - 0 1", "b3a3"));
        // Black soldier on a4 has crossed: a chase.
        assert!(chase("5k3/9/9/9/9/p8/1R7/9/9/3K5 w - - 0 1", "b3b4"));
    }
}
