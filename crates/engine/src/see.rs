//! Static exchange evaluation (SEE): what a move wins or loses on its
//! destination square if both sides then capture there, each with its least
//! valuable piece, and either side may stop when going on would lose.
//!
//! Ordering uses it to try winning and equal captures first and losing ones
//! after the killers; near the leaves the search prunes captures, quiet
//! moves and drops that lose too much by it; quiescence skips losing
//! captures, and tries a checking move or drop only when SEE says it does
//! not lose the piece.
//!
//! Values are exchange values: in the drop games a captured piece leaves the
//! board and joins the captor's hand, so losing it costs its board value plus
//! its hand value. Capturers are found with the rules library's
//! `attackers_within`, with each capturer taken out of the occupancy in turn,
//! so sliders (and xiangqi cannons through a new screen) behind it join in.
//! Pins are ignored, and a king captures only when nothing defends the
//! square. Annan approximation: every piece keeps the movement it borrows as
//! the board stands before the exchange, although a capturer that leaves
//! stops lending its movement to the piece in front of it; an exact answer
//! would regenerate the borrowed movement after every capture, and ordering
//! does not need it.

use rules::{Bitboard, shogi, xiangqi};

use crate::eval::{Evaluate, shogi as shogi_values, xiangqi as xiangqi_values};

/// Longest exchange followed: more than the attackers any square can have.
const MAX_EXCHANGE: usize = 40;

/// The value of a king in an exchange: it can be captured only last.
const KING: i32 = 100_000;

/// A position whose moves can be statically exchanged.
pub(crate) trait Exchange: Evaluate {
    /// What `mv` wins for the mover once the exchange on its destination has
    /// played out, in exchange values (negative: it loses material).
    fn see(&self, mv: Self::Move) -> i32;
}

/// The swap algorithm. `victim` is what the move captures, `standing` the
/// value of the piece it leaves on the square; `capturer(side)` takes the
/// least valuable capturer of `side` (0 the mover, 1 the opponent) off the
/// board and returns its value, or `None` when that side cannot capture.
fn exchange(victim: i32, mut standing: i32, mut capturer: impl FnMut(usize) -> Option<i32>) -> i32 {
    let mut gains = [0; MAX_EXCHANGE];
    gains[0] = victim;
    let mut depth = 0;
    let mut side = 1;
    while depth + 1 < MAX_EXCHANGE {
        let Some(value) = capturer(side) else {
            break;
        };
        depth += 1;
        gains[depth] = standing - gains[depth - 1];
        standing = value;
        side ^= 1;
    }
    // Each side captures only if that is better than standing still.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// The least valuable of `attackers` by `value`, if any, with its value.
fn least(attackers: Bitboard, value: impl Fn(u8) -> i32) -> Option<(u8, i32)> {
    attackers
        .into_iter()
        .map(|index| (index, value(index)))
        .min_by_key(|&(_, value)| value)
}

impl Exchange for shogi::Position {
    fn see(&self, mv: shogi::Move) -> i32 {
        use shogi::Move;
        let exchange_value = |role: shogi::Role| {
            if role == shogi::Role::King {
                KING
            } else {
                shogi_values::exchange_value(role)
            }
        };
        let us = self.turn();
        let (to, victim, standing, mut occupied) = match mv {
            Move::Normal { from, to, promote } => {
                let Some(piece) = self.piece_at(from) else {
                    return 0;
                };
                let captured = self.piece_at(to).map_or(0, |p| exchange_value(p.role));
                let role = match (promote, piece.role.promoted()) {
                    (true, Some(promoted)) => promoted,
                    _ => piece.role,
                };
                let promotion =
                    shogi_values::board_value(role) - shogi_values::board_value(piece.role);
                let occupied = self.occupied().without(from.index()).with(to.index());
                (to, captured + promotion, exchange_value(role), occupied)
            }
            Move::Drop { role, to } => (
                to,
                0,
                exchange_value(role),
                self.occupied().with(to.index()),
            ),
        };
        let colors = [us, us.opponent()];
        let value_at = |index: u8| {
            shogi::Square::from_index(index)
                .and_then(|sq| self.piece_at(sq))
                .map_or(0, |p| exchange_value(p.role))
        };
        exchange(victim, standing, |side| {
            let attackers = self.attackers_within(to, colors[side], occupied);
            let (index, value) = least(attackers, value_at)?;
            occupied = occupied.without(index);
            // A king may not capture into a defended square.
            if value == KING
                && self
                    .attackers_within(to, colors[side ^ 1], occupied)
                    .is_any()
            {
                return None;
            }
            Some(value)
        })
    }
}

impl Exchange for xiangqi::Position {
    fn see(&self, mv: xiangqi::Move) -> i32 {
        let value = |role: xiangqi::Role| {
            if role == xiangqi::Role::General {
                KING
            } else {
                xiangqi_values::value(role)
            }
        };
        let Some(piece) = self.piece_at(mv.from) else {
            return 0;
        };
        let us = self.turn();
        let colors = [us, us.opponent()];
        let victim = self.piece_at(mv.to).map_or(0, |p| value(p.role));
        let mut occupied = self.occupied().without(mv.from.index()).with(mv.to.index());
        let value_at = |index: u8| {
            xiangqi::Square::from_index(index)
                .and_then(|sq| self.piece_at(sq))
                .map_or(0, |p| value(p.role))
        };
        exchange(victim, value(piece.role), |side| {
            let attackers = self.attackers_within(mv.to, colors[side], occupied);
            let (index, value) = least(attackers, value_at)?;
            occupied = occupied.without(index);
            if value == KING
                && self
                    .attackers_within(mv.to, colors[side ^ 1], occupied)
                    .is_any()
            {
                return None;
            }
            Some(value)
        })
    }
}

#[cfg(test)]
mod tests {
    use rules::{Position as _, Variant};

    use super::*;

    fn shogi_see(sfen: &str, variant: Variant, mv: &str) -> i32 {
        let pos = shogi::Position::from_sfen(sfen, variant, Default::default()).unwrap();
        let mv = pos.parse_move(mv).unwrap();
        assert!(pos.is_legal(mv), "{mv} in {sfen}");
        pos.see(mv)
    }

    fn xiangqi_see(fen: &str, mv: &str) -> i32 {
        let pos = xiangqi::Position::from_fen(fen).unwrap();
        let mv = pos.parse_move(mv).unwrap();
        assert!(pos.is_legal(mv), "{mv} in {fen}");
        pos.see(mv)
    }

    // Exchange values: pawn 100 + 115 = 215, lance 300 + 340 = 640,
    // silver 500 + 570 = 1070, gold 550 + 620 = 1170, rook 950 + 1100 = 2050.
    const PAWN: i32 = 215;
    const SILVER: i32 = 1070;
    const GOLD: i32 = 1170;
    const ROOK: i32 = 2050;

    #[test]
    fn a_pawn_for_a_pawn_is_even() {
        // 5e takes the pawn on 5d (+215); the gold on 5c takes back (-215);
        // Sente has nothing left: 0.
        assert_eq!(
            shogi_see("4k4/9/4g4/4p4/4P4/9/9/9/4K4 b - 1", Variant::Shogi, "5e5d"),
            0
        );
    }

    #[test]
    fn a_rook_for_a_defended_pawn_loses() {
        // The rook takes the pawn (+215), the gold takes the rook (-2050).
        assert_eq!(
            shogi_see("4k4/9/4g4/4p4/9/9/9/4R4/4K4 b - 1", Variant::Shogi, "5h5d"),
            PAWN - ROOK
        );
        // Undefended, the pawn is simply won.
        assert_eq!(
            shogi_see("4k4/9/9/4p4/9/9/9/4R4/4K4 b - 1", Variant::Shogi, "5h5d"),
            PAWN
        );
    }

    #[test]
    fn a_lance_behind_the_pawn_joins_the_exchange() {
        // P×5d (+215), G×5d (-215), then the lance on 5i sees 5d through the
        // square the pawn left and would take the gold (+1170), so Gote does
        // better not to recapture: Sente wins the pawn.
        assert_eq!(
            shogi_see("4k4/9/4g4/4p4/4P4/9/9/9/4LK3 b - 1", Variant::Shogi, "5e5d"),
            PAWN
        );
    }

    #[test]
    fn a_dropped_piece_en_prise_is_lost() {
        // The silver dropped on 5d is taken by the gold on 5c for nothing.
        assert_eq!(
            shogi_see("4k4/9/4g4/9/9/9/9/9/4K4 b S 1", Variant::Shogi, "S*5d"),
            -SILVER
        );
        // On 4e nothing attacks it.
        assert_eq!(
            shogi_see("4k4/9/4g4/9/9/9/9/9/4K4 b S 1", Variant::Shogi, "S*4e"),
            0
        );
    }

    #[test]
    fn a_king_does_not_take_a_defended_piece() {
        // The gold takes the pawn on 5b next to Gote's king (+215); the lance
        // on 5i defends 5b through the open file, so the king cannot take back.
        assert_eq!(
            shogi_see("4k4/4p4/4G4/9/9/9/9/9/3KL4 b - 1", Variant::Shogi, "5c5b"),
            PAWN
        );
        // Without the lance the king takes the gold: 215 - 1170.
        assert_eq!(
            shogi_see("4k4/4p4/4G4/9/9/9/9/9/3K5 b - 1", Variant::Shogi, "5c5b"),
            PAWN - GOLD
        );
    }

    #[test]
    fn annan_captures_with_the_borrowed_movement() {
        // The pawn on 5e, backed by the rook on 5f, moves like a rook: it
        // takes the pawn on 5b (+215); Gote's gold on 5a takes it (-215); the
        // rook, now open to 5b, would take the gold (+1170), so Gote stops:
        // Sente wins the pawn.
        assert_eq!(
            shogi_see("4g3k/4p4/9/9/4P4/4R4/9/9/4K4 b - 1", Variant::Annan, "5e5b"),
            PAWN
        );
    }

    #[test]
    fn minishogi_counts_the_same_way() {
        // The silver on 3c takes the pawn on 3b (+215), the gold on 4a takes
        // the silver (-1070); nothing more: 215 - 1070.
        assert_eq!(
            shogi_see("1g1k1/2p2/2S2/5/K4 b - 1", Variant::Minishogi, "3c3b"),
            PAWN - SILVER
        );
    }

    #[test]
    fn a_cannon_needs_its_screen_in_the_exchange() {
        // Red's chariot on e3 and cannon on e2 (screened by the chariot) both
        // attack the soldier on e5, which Black's chariot on e8 defends.
        let fen = "4k4/4r4/9/9/4p4/9/4R4/4C4/9/4K4 w - - 0 1";
        // C×e5 (+100), R×e5 (-450), R×e5 (+900): Black should not take back,
        // so the cannon wins the soldier.
        assert_eq!(xiangqi_see(fen, "e2e5"), 100);
        // R×e5 (+100), R×e5 (-900): with the chariot gone from e3 the cannon
        // has no screen left and cannot take back.
        assert_eq!(xiangqi_see(fen, "e3e5"), 100 - 900);
    }

    #[test]
    fn a_horse_takes_a_chariot_defended_by_a_soldier() {
        // H×e5 wins the chariot (+900) and loses the horse to the soldier on
        // e6 (-400).
        let fen = "4k4/9/9/4p4/4r4/9/3H5/9/9/4K4 w - - 0 1";
        assert_eq!(xiangqi_see(fen, "d3e5"), 900 - 400);
    }
}
