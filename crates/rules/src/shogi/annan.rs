//! Annan shogi (安南将棋): a piece moves like the friendly piece directly
//! behind it (towards its owner's side), else by its own kind.
//!
//! Borrowed movement changes with every move anywhere near, so there are no
//! pins to cache; instead each candidate move is tested against the
//! opponent's attacks on the king as they stand after it, without playing it
//! (see [`KingSafety`]). Attacks use "movers" bitboards built by shifting each
//! colour's pieces one rank.

use super::attacks::{self, rank_mask};
use super::position::attackers_with;
use super::{Color, Move, Piece, Position, Role, Square};
use crate::{Bitboard, MoveList, MoveSet};

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
    movers_of(by, pos.by_color[by.index()], &pos.by_role)
}

/// For each kind, the pieces of `own` (all of colour `by`) that move like it,
/// `by_role` giving each kind's squares (squares outside `own` are ignored).
/// (A loop, not `array::map`, which was left a call per kind here.)
#[inline]
fn movers_of(by: Color, own: Bitboard, by_role: &[Bitboard; 14]) -> [Bitboard; 14] {
    let supported = own & in_front(by, own);
    let mut movers = [Bitboard::EMPTY; 14];
    for (mover, &bb) in movers.iter_mut().zip(by_role) {
        let role_pieces = bb & own;
        *mover = role_pieces.and_not(supported) | (in_front(by, role_pieces) & own);
    }
    movers
}

/// The pieces checking the side to move, and the squares strictly between
/// its king and each enemy piece on the king's lines that moves like a
/// slider able to reach the king along that line (the enemy movers as they
/// stand; our own moves cannot change them except by a capture).
pub(super) fn check_info(pos: &Position) -> (Bitboard, Bitboard) {
    let us = pos.turn;
    let them = us.opponent();
    let king = pos.kings[us.index()];
    let movers = movers(pos, them);
    let m = |role: Role| movers[role.index()];
    let checkers = attackers_with(m, king, them, pos.occupied());
    let sliders = (attacks::rook(king, Bitboard::EMPTY) & (m(Role::Rook) | m(Role::Dragon)))
        | (attacks::bishop(king, Bitboard::EMPTY) & (m(Role::Bishop) | m(Role::Horse)))
        | (attacks::lance(us, king, Bitboard::EMPTY) & m(Role::Lance));
    let uncovering = sliders.iter().fold(Bitboard::EMPTY, |acc, s| {
        acc | attacks::between(king, Square::from_index_unchecked(s))
    });
    (checkers, uncovering)
}

/// Whether the side to move's king is attacked after one of its moves, found
/// without playing the move.
///
/// After our move the opponent's pieces are the same except a captured one,
/// and support comes only from friendly pieces, so the opponent's movers
/// change only by a capture (the captured piece goes, and the piece it
/// supported moves by its own kind again). Besides that only the occupancy
/// changes (the from-square empties, the to-square fills) and, for a king
/// move, the square attacked. Step attacks ignore occupancy, and a filled
/// square only blocks, so when not in check a move that captures nothing and
/// is not a king move can expose the king only by leaving one of the
/// position's `uncovering` squares; a drop never can. Every other move has
/// the attackers after it computed in full.
struct KingSafety<'a> {
    pos: &'a Position,
    them: Color,
    king: Square,
    in_check: bool,
    /// The opponent's movers before the move.
    movers: [Bitboard; 14],
}

impl<'a> KingSafety<'a> {
    fn new(pos: &'a Position) -> KingSafety<'a> {
        let us = pos.turn;
        let them = us.opponent();
        KingSafety {
            pos,
            them,
            king: pos.kings[us.index()],
            in_check: pos.checkers.is_any(),
            movers: movers(pos, them),
        }
    }

    /// The opponent's movers once its piece on `sq` is captured: that piece
    /// goes, and the piece in front of it, which it supported, moves by its
    /// own kind again.
    #[inline]
    fn movers_without(&self, sq: Square, captured: Piece) -> [Bitboard; 14] {
        let pos = self.pos;
        let mut movers = self.movers;
        let like = support(pos, self.them, sq, None).map_or(captured.role, |p| p.role);
        movers[like.index()] = movers[like.index()].without(sq.index());
        let theirs = pos.by_color[self.them.index()];
        if let Some(front) =
            (in_front(self.them, Bitboard::from_index(sq.index())) & theirs).first()
        {
            let front_role = pos.board[usize::from(front)].map_or(captured.role, |p| p.role);
            movers[captured.role.index()] = movers[captured.role.index()].without(front);
            movers[front_role.index()] = movers[front_role.index()].with(front);
        }
        movers
    }

    /// Whether moving the piece on `from` (a drop if `None`; `king_moves` if it
    /// is the king) to `to` leaves the king unattacked.
    #[inline]
    fn allows(&self, from: Option<Square>, to: Square, king_moves: bool) -> bool {
        let pos = self.pos;
        let theirs = pos.by_color[self.them.index()];
        let captures = theirs.has(to.index());
        if !captures
            && !king_moves
            && !self.in_check
            && !from.is_some_and(|f| pos.uncovering.has(f.index()))
        {
            return true;
        }
        let mut occupied = pos.occupied().with(to.index());
        if let Some(from) = from {
            occupied = occupied.without(from.index());
        }
        let king = if king_moves { to } else { self.king };
        let attackers = match pos.piece_at(to).filter(|_| captures) {
            Some(captured) => {
                let movers = self.movers_without(to, captured);
                attackers_with(|role| movers[role.index()], king, self.them, occupied)
            }
            None => attackers_with(|role| self.movers[role.index()], king, self.them, occupied),
        };
        attackers.is_empty()
    }
}

/// Whether dropping a pawn of the side to move on the empty `to` gives check,
/// found without playing the drop: our movers with the pawn added, against
/// the opponent's king.
fn pawn_drop_checks(pos: &Position, to: Square) -> bool {
    let us = pos.turn;
    let own = pos.by_color[us.index()].with(to.index());
    let mut by_role = pos.by_role;
    by_role[Role::Pawn.index()] = by_role[Role::Pawn.index()].with(to.index());
    let movers = movers_of(us, own, &by_role);
    let occupied = pos.occupied().with(to.index());
    attackers_with(
        |role| movers[role.index()],
        pos.kings[us.opponent().index()],
        us,
        occupied,
    )
    .is_any()
}

/// Appends the legal annan moves of `set` to `out`.
pub(super) fn generate(pos: &Position, set: MoveSet, out: &mut MoveList<Move>) {
    let us = pos.turn;
    let own = pos.by_color[us.index()];
    let occupied = pos.occupied();
    let pawn_files = pos.pawn_files(us);
    let safety = KingSafety::new(pos);
    let captures = pos.capture_targets(set);
    for from in own {
        let from = Square::from_index_unchecked(from);
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        let like = pos.moves_like(from, piece);
        let king_moves = piece.role == Role::King;
        let promotes = pos.promotion_targets(piece.role, from);
        for to in attacks::attacks(us, like, from, occupied) & !own & (captures | promotes) {
            let to = Square::from_index_unchecked(to);
            if !safety.allows(Some(from), to, king_moves) {
                continue;
            }
            if promotes.has(to.index()) {
                out.push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
                if !captures.has(to.index()) {
                    continue;
                }
            }
            let double_pawn =
                piece.role == Role::Pawn && from.file() != to.file() && pawn_files.has(to.index());
            if !double_pawn && !pos.is_dead_arrival(piece.role, Some(from), to) {
                out.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }
    let hand = pos.hands[us.index()];
    if hand.is_empty() || set == MoveSet::Tactical {
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
                || !safety.allows(None, to, false)
            {
                continue;
            }
            let mv = Move::Drop { role, to };
            // 打ち歩詰め: any pawn drop after which the opponent is mated.
            if role == Role::Pawn && pawn_drop_checks(pos, to) {
                let mut after = pos.clone();
                after.play(mv);
                if !after.has_legal_move() {
                    continue;
                }
            }
            out.push(mv);
        }
    }
}
