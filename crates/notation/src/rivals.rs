//! The pieces that could also have made a move: both shogi notations name
//! the mover's square or motion only when another piece of its kind can
//! reach the same square.

use rules::Position as _;
use rules::shogi::{Move, Position, Role, Square};

/// The from-squares of the board pieces of `role` that can legally move to
/// `to`, in square order. Only the mover's pieces of that kind are tried,
/// each move judged by the rules (so annan pieces count with their borrowed
/// moves): a move's text is written for every move a room plays, and
/// generating every legal move for it cost more than the rest of the text.
pub(crate) fn rivals(pos: &Position, role: Role, to: Square) -> Vec<Square> {
    pos.pieces(pos.turn(), role)
        .into_iter()
        .filter_map(Square::from_index)
        .filter(|&from| {
            [false, true]
                .into_iter()
                .any(|promote| pos.is_legal(Move::Normal { from, to, promote }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Variant;

    /// The rivals found by trying the pieces of the kind are the ones among
    /// every legal move, in random games of each shogi variant (annan's
    /// borrowed movement included), for every legal move's kind and square.
    #[test]
    fn rivals_are_the_legal_movers_of_the_kind() {
        let settings = rules::Settings::default();
        for variant in [Variant::Shogi, Variant::Minishogi, Variant::Annan] {
            for seed in 1..=20_u64 {
                let mut p = Position::startpos(variant, &settings);
                let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                for _ in 0..120 {
                    let legal = p.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    for &m in &legal {
                        let role = match m {
                            Move::Normal { from, .. } => p.piece_at(from).map(|p| p.role),
                            Move::Drop { role, .. } => Some(role),
                        };
                        let role = role.unwrap();
                        let mut want: Vec<Square> = legal
                            .iter()
                            .filter_map(|&other| match other {
                                Move::Normal { from, to, .. }
                                    if to == m.to()
                                        && p.piece_at(from).is_some_and(|pc| pc.role == role) =>
                                {
                                    Some(from)
                                }
                                _ => None,
                            })
                            .collect();
                        want.sort();
                        want.dedup();
                        assert_eq!(rivals(&p, role, m.to()), want, "{m} in {}", p.to_sfen());
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let pick = legal[usize::try_from(state % legal.len() as u64).unwrap()];
                    p.play_unchecked(pick);
                }
            }
        }
    }
}
