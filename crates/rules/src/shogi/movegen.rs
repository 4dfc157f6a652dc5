//! Legal moves of shogi and minishogi from cached checkers and pins, the
//! rule-by-rule move check shared by all three games, and the [`Position`]
//! trait implementation.

use super::attacks::{self, FULL_BOARD};
use super::position::attackers_with;
use super::{Color, Move, Piece, Position, Role, Square, annan, impasse};
use crate::{
    AnnanDeadPiece, Bitboard, EndReason, IllegalMove, Impasse, ImpasseError, MoveList, MoveSet,
    Outcome, ParseMoveError, Side, Variant,
};

impl Position {
    /// Appends the legal moves of `set` to `out`.
    pub(super) fn generate(&self, set: MoveSet, out: &mut MoveList<Move>) {
        if self.variant == Variant::Annan {
            annan::generate(self, set, out);
        } else {
            self.generate_standard(set, out);
        }
    }

    /// Whether the side to move has any legal move.
    pub(super) fn has_legal_move(&self) -> bool {
        let mut moves = MoveList::new();
        self.generate(MoveSet::All, &mut moves);
        !moves.is_empty()
    }

    /// Whether a test far cheaper than generating the moves finds a legal
    /// one: out of check in shogi and minishogi, a piece other than the king
    /// that no enemy slider pins, with a square to go to (a move into the
    /// last ranks can always promote there); in annan, where support makes
    /// pins come and go, a piece other than the king on none of the
    /// `uncovering` squares that can move to an empty square as the rules
    /// allow (out of check such a move never exposes the king, as annan's
    /// generator knows too: our move changes the enemy's movers only by a
    /// capture, and opens no line but through those squares). `false`
    /// when it cannot tell: in check, or when every such piece is pinned or
    /// boxed in.
    pub fn surely_has_legal_move(&self) -> bool {
        if self.checkers.is_any() {
            return false;
        }
        let us = self.turn;
        let own = self.by_color[us.index()];
        let occupied = self.occupied();
        let board = self.board_mask();
        let king = self.kings[us.index()];
        if self.variant == Variant::Annan {
            let empty = !occupied & board;
            return own
                .without(king.index())
                .and_not(self.uncovering)
                .iter()
                .any(|from| {
                    let from = Square::from_index_unchecked(from);
                    let Some(piece) = self.piece_at(from) else {
                        return false;
                    };
                    let like = self.moves_like(from, piece);
                    let promotes = self.promotion_targets(piece.role, from);
                    (attacks::attacks(us, like, from, occupied) & empty)
                        .iter()
                        .any(|to| {
                            let to = Square::from_index_unchecked(to);
                            let double_pawn = piece.role == Role::Pawn
                                && from.file() != to.file()
                                && self.pawn_files(us).has(to.index());
                            promotes.has(to.index())
                                || !double_pawn && !self.is_dead_arrival(piece.role, Some(from), to)
                        })
                });
        }
        let free = own.without(king.index()).and_not(self.pinned);
        free.iter().any(|from| {
            let from = Square::from_index_unchecked(from);
            self.piece_at(from).is_some_and(|piece| {
                (attacks::attacks(us, piece.role, from, occupied) & board)
                    .and_not(own)
                    .is_any()
            })
        })
    }

    /// Where a move of the side to move is tactical under `set` by its
    /// destination alone: every square, or only the enemy's pieces.
    pub(super) fn capture_targets(&self, set: MoveSet) -> Bitboard {
        match set {
            MoveSet::All => FULL_BOARD,
            MoveSet::Tactical => self.by_color[self.turn.opponent().index()],
        }
    }

    /// Shogi and minishogi: legal moves from checkers and pins, without playing them.
    fn generate_standard(&self, set: MoveSet, out: &mut MoveList<Move>) {
        let us = self.turn;
        let them = us.opponent();
        let own = self.by_color[us.index()];
        let occupied = self.occupied();
        let ksq = self.kings[us.index()];
        let board = self.board_mask();

        // The king: to squares not attacked once it has left its own square.
        let enemy = self.by_color[them.index()];
        let without_king = occupied.without(ksq.index());
        let captures = self.capture_targets(set);
        for to in attacks::king(ksq) & !own & board & captures {
            let to = Square::from_index_unchecked(to);
            let enemy_movers = |role: Role| self.by_role[role.index()] & enemy;
            if attackers_with(enemy_movers, to, them, without_king).is_empty() {
                out.push(Move::Normal {
                    from: ksq,
                    to,
                    promote: false,
                });
            }
        }
        if self.checkers.has_more_than_one() {
            return;
        }
        // In check, other pieces must capture the checker or block its line.
        let (targets, drop_targets) = match self.checkers.first() {
            Some(checker) => {
                let line = attacks::between(ksq, Square::from_index_unchecked(checker));
                (line.with(checker), line)
            }
            None => (FULL_BOARD, FULL_BOARD),
        };
        let targets = targets & !own & board;
        for from in own.without(ksq.index()) {
            let from = Square::from_index_unchecked(from);
            let Some(piece) = self.piece_at(from) else {
                continue;
            };
            let mut to_set = attacks::attacks(us, piece.role, from, occupied) & targets;
            if self.pinned.has(from.index()) {
                to_set &= attacks::ray_through(ksq, from);
            }
            let dead = self.dead_squares(us, piece.role);
            let promotes = self.promotion_targets(piece.role, from);
            for to in to_set & (captures | promotes) {
                let to = Square::from_index_unchecked(to);
                if promotes.has(to.index()) {
                    out.push(Move::Normal {
                        from,
                        to,
                        promote: true,
                    });
                    if dead.has(to.index()) || !captures.has(to.index()) {
                        continue;
                    }
                }
                out.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }

        let hand = self.hands[us.index()];
        if hand.is_empty() || set == MoveSet::Tactical {
            return;
        }
        let empty = drop_targets & !occupied & board;
        for role in Role::HAND {
            if hand.get(role) == 0 {
                continue;
            }
            let mut squares = empty.and_not(self.dead_squares(us, role));
            if role == Role::Pawn {
                squares = squares.and_not(self.pawn_files(us));
                // 打ち歩詰め: the one square where a pawn drop checks needs a real test.
                let checking = attacks::pawn(them, self.kings[them.index()]) & squares;
                if let Some(sq) = checking.first() {
                    if self.drop_mates(Square::from_index_unchecked(sq)) {
                        squares = squares.without(sq);
                    }
                }
            }
            for to in squares {
                out.push(Move::Drop {
                    role,
                    to: Square::from_index_unchecked(to),
                });
            }
        }
    }

    /// The files holding an unpromoted pawn of `color` (where it may not drop a pawn).
    pub(super) fn pawn_files(&self, color: Color) -> Bitboard {
        self.pieces(color, Role::Pawn)
            .iter()
            .fold(Bitboard::EMPTY, |acc, sq| {
                acc | attacks::file_mask(Square::from_index_unchecked(sq).file())
            })
    }

    /// Whether dropping a pawn on `to` leaves the opponent in check with no legal move.
    fn drop_mates(&self, to: Square) -> bool {
        let mut after = self.clone();
        after.play(Move::Drop {
            role: Role::Pawn,
            to,
        });
        after.checkers.is_any() && !after.has_legal_move()
    }

    /// The kind the piece on `from` moves like: its own, or in annan the kind
    /// of the friendly piece directly behind it.
    #[inline]
    pub(super) fn moves_like(&self, from: Square, piece: Piece) -> Role {
        if self.variant == Variant::Annan {
            if let Some(support) = annan::support(self, piece.color, from, None) {
                return support.role;
            }
        }
        piece.role
    }

    /// Whether an unpromoted `role` of the side to move arriving on `to` (from
    /// `from`, or dropped) breaks the dead-piece rule.
    pub(super) fn is_dead_arrival(&self, role: Role, from: Option<Square>, to: Square) -> bool {
        let us = self.turn;
        if !self.dead_squares(us, role).has(to.index()) {
            return false;
        }
        if self.variant != Variant::Annan {
            return true;
        }
        match self.dead_piece {
            AnnanDeadPiece::ByOriginalType => true,
            AnnanDeadPiece::AlwaysAllowed => false,
            AnnanDeadPiece::AllowedIfSupported => match annan::support(self, us, to, from) {
                // Support after the move: the square behind, unless the piece just left it.
                Some(support) => attacks::attacks(us, support.role, to, Bitboard::EMPTY).is_empty(),
                None => true,
            },
        }
    }

    /// The first rule `mv` breaks, checking the cheap rules before playing it.
    fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let us = self.turn;
        let them = us.opponent();
        let board = self.board_mask();
        let occupied = self.occupied();
        match mv {
            Move::Normal { from, to, promote } => {
                let piece = self
                    .piece_at(from)
                    .filter(|p| p.color == us)
                    .ok_or(IllegalMove::NoPieceToMove)?;
                if !board.has(to.index()) {
                    return Err(IllegalMove::CannotReach);
                }
                if self.by_color[us.index()].has(to.index()) {
                    return Err(IllegalMove::OwnPieceOnTarget);
                }
                let like = self.moves_like(from, piece);
                if !attacks::attacks(us, like, from, occupied).has(to.index()) {
                    return Err(IllegalMove::CannotReach);
                }
                if promote && !self.promotion_targets(piece.role, from).has(to.index()) {
                    return Err(IllegalMove::CannotPromote);
                }
                if !promote && self.is_dead_arrival(piece.role, Some(from), to) {
                    return Err(IllegalMove::DeadPiece);
                }
                if !promote
                    && piece.role == Role::Pawn
                    && from.file() != to.file()
                    && self.pawn_files(us).has(to.index())
                {
                    return Err(IllegalMove::DoublePawn);
                }
            }
            Move::Drop { role, to } => {
                if !role.is_droppable()
                    || role.is_promoted()
                    || self.hands[us.index()].get(role) == 0
                {
                    return Err(IllegalMove::NotInHand);
                }
                if !board.has(to.index()) {
                    return Err(IllegalMove::CannotReach);
                }
                if occupied.has(to.index()) {
                    return Err(IllegalMove::SquareOccupied);
                }
                if self.is_dead_arrival(role, None, to) {
                    return Err(IllegalMove::DeadPiece);
                }
                if role == Role::Pawn && self.pawn_files(us).has(to.index()) {
                    return Err(IllegalMove::DoublePawn);
                }
            }
        }
        let mut after = self.clone();
        after.play(mv);
        if after
            .attackers_to(after.kings[us.index()], them, after.occupied())
            .is_any()
        {
            return Err(IllegalMove::LeavesKingInCheck);
        }
        if matches!(
            mv,
            Move::Drop {
                role: Role::Pawn,
                ..
            }
        ) && after.checkers.is_any()
            && !after.has_legal_move()
        {
            return Err(IllegalMove::PawnDropMate);
        }
        Ok(())
    }
}

impl crate::Position for Position {
    type Move = Move;

    fn variant(&self) -> Variant {
        self.variant
    }

    fn side_to_move(&self) -> Side {
        self.turn.side()
    }

    fn generate_moves(&self, set: MoveSet, out: &mut MoveList<Move>) {
        self.generate(set, out);
    }

    fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.play(mv);
    }

    fn is_check(&self) -> bool {
        self.checkers.is_any()
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let mv = Move::from_usi(text)?;
        let board = self.board_mask();
        let on_board = match mv {
            Move::Normal { from, to, .. } => board.has(from.index()) && board.has(to.index()),
            Move::Drop { to, .. } => board.has(to.index()),
        };
        if on_board {
            Ok(mv)
        } else {
            Err(ParseMoveError::new(
                text,
                "square off the minishogi board (files 1-5, ranks a-e)",
            ))
        }
    }

    fn end(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            return None;
        }
        let reason = if self.checkers.is_any() {
            EndReason::Checkmate
        } else {
            EndReason::NoLegalMoves
        };
        Some(Outcome::loss(self.turn.side(), reason))
    }

    fn judge_impasse(&self, rule: Impasse, claimant: Side) -> Result<Outcome, ImpasseError> {
        impasse::judge(self, rule, Color::from(claimant))
    }
}
