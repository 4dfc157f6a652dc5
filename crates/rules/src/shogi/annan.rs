//! Annan shogi (安南将棋): a piece moves like the friendly piece directly
//! behind it (towards its owner's side), else by its own kind.
//!
//! Borrowed movement changes with every move anywhere near, so legality is
//! tested by playing each candidate move and looking at the king (annan perft
//! is only needed to moderate depth); attacks use "movers" bitboards built by
//! shifting each colour's pieces one rank.

use super::attacks::{self, rank_mask};
use super::{Color, Move, Piece, Position, Role, Square};
use crate::{Bitboard, MoveList};

/// The square directly behind `sq` for `color` (towards its own side), if on the board.
#[inline]
fn behind(color: Color, sq: Square) -> Option<Square> {
    match color {
        Color::Sente if sq.rank() < 9 => Some(Square::from_index_unchecked(sq.index() + 1)),
        Color::Gote if sq.rank() > 1 => Some(Square::from_index_unchecked(sq.index() - 1)),
        _ => None,
    }
}

/// The friendly piece supporting (lending its movement to) a `color` piece on
/// `sq`, not counting the square `vacated` (which a moving piece just left).
#[inline]
pub(super) fn support(
    pos: &Position,
    color: Color,
    sq: Square,
    vacated: Option<Square>,
) -> Option<Piece> {
    behind(color, sq)
        .filter(|&b| Some(b) != vacated)
        .and_then(|b| pos.piece_at(b))
        .filter(|p| p.color == color)
}

/// The squares directly in front of the pieces of `bb`, for `color`.
#[inline]
fn in_front(color: Color, bb: Bitboard) -> Bitboard {
    match color {
        Color::Sente => Bitboard((bb & !rank_mask(1)).0 >> 1),
        Color::Gote => Bitboard((bb & !rank_mask(9)).0 << 1),
    }
}

/// For each kind, `by`'s pieces that move like it.
pub(super) fn movers(pos: &Position, by: Color) -> [Bitboard; 14] {
    let own = pos.by_color[by.index()];
    let supported = own & in_front(by, own);
    pos.by_role.map(|bb| {
        let role_pieces = bb & own;
        role_pieces.and_not(supported) | (in_front(by, role_pieces) & own)
    })
}

/// Appends every legal annan move to `out`, testing each candidate by playing it.
pub(super) fn generate(pos: &Position, out: &mut MoveList<Move>) {
    let us = pos.turn;
    let own = pos.by_color[us.index()];
    let occupied = pos.occupied();
    let zone = pos.promotion_zone(us);
    let pawn_files = pos.pawn_files(us);
    let mut try_push = |mv: Move| {
        if is_safe(pos, mv) {
            out.push(mv);
        }
    };
    for from in own {
        let from = Square::from_index_unchecked(from);
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        let like = pos.moves_like(from, piece);
        for to in attacks::attacks(us, like, from, occupied) & !own {
            let to = Square::from_index_unchecked(to);
            if piece.role.can_promote() && (zone.has(from.index()) || zone.has(to.index())) {
                try_push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
            }
            let double_pawn =
                piece.role == Role::Pawn && from.file() != to.file() && pawn_files.has(to.index());
            if !double_pawn && !pos.is_dead_arrival(piece.role, Some(from), to) {
                try_push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }
    let hand = pos.hands[us.index()];
    if hand.is_empty() {
        return;
    }
    let empty = !occupied & pos.board_mask();
    for role in Role::HAND {
        if hand.get(role) == 0 {
            continue;
        }
        for to in empty {
            let to = Square::from_index_unchecked(to);
            if pos.is_dead_arrival(role, None, to)
                || (role == Role::Pawn && pawn_files.has(to.index()))
            {
                continue;
            }
            let mv = Move::Drop { role, to };
            let mut after = pos.clone();
            after.play(mv);
            if after
                .attackers_to(after.kings[us.index()], us.opponent(), after.occupied())
                .is_any()
            {
                continue;
            }
            // 打ち歩詰め: any pawn drop after which the opponent is mated.
            if role == Role::Pawn && after.checkers.is_any() && !after.has_legal_move() {
                continue;
            }
            out.push(mv);
        }
    }
}

/// Whether `mv` leaves the mover's king unattacked.
fn is_safe(pos: &Position, mv: Move) -> bool {
    let us = pos.turn;
    let mut after = pos.clone();
    after.play(mv);
    after
        .attackers_to(after.kings[us.index()], us.opponent(), after.occupied())
        .is_empty()
}
