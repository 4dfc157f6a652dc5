//! Threats in the shogi family, after the classical chess engines': enemy
//! pieces (not the king) attacked and not guarded, enemy pieces a pawn
//! attacks, and enemy bishops, rooks, horses and dragons a lesser piece
//! attacks. The side to move takes one such piece in quiescence; the
//! evaluation sees what quiescence does not, that the other side can save
//! only one of two.

use rules::Bitboard;
use rules::shogi::{Color, Position, Role};

use super::ShogiWeights;
use super::danger::{Attacks, LESSER_KINDS, PAWN_KIND};

/// What `us`'s threats on the enemy's pieces are worth to `us`.
pub(super) fn threats(pos: &Position, w: &ShogiWeights, attacks: &Attacks, us: Color) -> i32 {
    let them = us.opponent();
    let (u, t) = (us.index(), them.index());
    let targets = pos.pieces_of(them).and_not(pos.pieces(them, Role::King));
    let hanging = (targets & attacks.all[u]).and_not(attacks.guarded[t]);
    let by_pawn = targets.and_not(pos.pieces(them, Role::Pawn)) & attacks.by_kind[u][PAWN_KIND];
    let majors = [Role::Bishop, Role::Rook, Role::Horse, Role::Dragon]
        .into_iter()
        .fold(Bitboard::EMPTY, |all, role| all | pos.pieces(them, role));
    let lesser = attacks.by_kind[u][..LESSER_KINDS]
        .iter()
        .fold(Bitboard::EMPTY, |all, &attacked| all | attacked);
    w.threat_hanging * hanging.count() as i32
        + w.threat_by_pawn * by_pawn.count() as i32
        + w.threat_on_major * (majors & lesser).count() as i32
}

#[cfg(test)]
mod tests {
    use rules::AnnanDeadPiece;

    use super::*;
    use crate::eval::shogi::SHOGI;

    /// Sente's threats in `sfen`, each weight counted once per threat.
    fn sente_threats(sfen: &str) -> i32 {
        let pos =
            Position::from_sfen(sfen, rules::Variant::Shogi, AnnanDeadPiece::default()).unwrap();
        let weights = ShogiWeights {
            threat_hanging: 1,
            threat_by_pawn: 10,
            threat_on_major: 100,
            ..SHOGI
        };
        threats(&pos, &weights, &Attacks::new(&pos, 9), Color::Sente)
    }

    #[test]
    fn hanging_pieces_pawn_threats_and_threatened_majors_count() {
        // Sente's pawn on 5e attacks Gote's silver on 5d, which nothing guards.
        assert_eq!(sente_threats("k8/9/9/4s4/4P4/9/9/9/8K b - 1"), 1 + 10);
        // Gote's gold on 5c guards it: a pawn threat, not a hanging piece.
        assert_eq!(sente_threats("k8/9/4g4/4s4/4P4/9/9/9/8K b - 1"), 10);
        // Sente's knight on 6f attacks Gote's rook on 5d, guarded by the gold.
        assert_eq!(sente_threats("k8/9/4g4/4r4/9/3N5/9/9/8K b - 1"), 100);
        // Nothing attacked; the king is never a target.
        assert_eq!(sente_threats("k8/9/9/9/9/9/9/9/8K b - 1"), 0);
        assert_eq!(sente_threats("9/9/9/4k4/4P4/9/9/9/8K w - 1"), 0);
    }
}
