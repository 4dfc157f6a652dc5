//! The validated position: board, hands, side to move, and cached attack
//! information (checkers, pinned pieces) kept up to date move by move.

use core::fmt;

use super::attacks::{self, FULL_BOARD, MINI_BOARD, rank_mask};
use super::{Color, Hand, Move, ParseSfenError, Piece, Role, Setup, Square, annan, zobrist};
use crate::{AnnanDeadPiece, AnnanSetup, Bitboard, Handicap, Settings, Variant};

/// A legal shogi, minishogi or annan shogi position.
///
/// Invariants: one king per colour; no nifu; no piece count above the game's
/// set; the side not to move is not in check; no piece where it could never
/// move (except where the annan dead-piece setting allows it); minishogi
/// pieces only on files 1–5, ranks a–e, and no lances or knights.
#[derive(Clone, Debug)]
pub struct Position {
    pub(super) board: [Option<Piece>; 81],
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_role: [Bitboard; 14],
    pub(super) hands: [Hand; 2],
    pub(super) turn: Color,
    pub(super) move_number: u32,
    pub(super) kings: [Square; 2],
    /// Pieces of the side not to move attacking the king of the side to move.
    pub(super) checkers: Bitboard,
    /// Pieces of the side to move that shield their king from an enemy slider
    /// (shogi and minishogi only: annan support makes pins come and go).
    pub(super) pinned: Bitboard,
    /// Annan only: the squares strictly between the king of the side to move
    /// and an enemy piece on its lines moving like a slider that could reach
    /// it there; only a piece leaving one of them can uncover an attack.
    pub(super) uncovering: Bitboard,
    pub(super) key: u64,
    pub(super) variant: Variant,
    pub(super) dead_piece: AnnanDeadPiece,
}

/// Why a [`Setup`] is not a legal position of the chosen game.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum PositionError {
    /// The variant is not one of the shogi family.
    WrongVariant(Variant),
    /// A piece stands off the minishogi board.
    OffBoard(Square),
    /// A kind that minishogi does not have (lance or knight).
    NotInThisGame(Role),
    /// A player has no king.
    MissingKing(Color),
    /// A player has more than one king.
    TooManyKings(Color),
    /// More pieces of a kind (on the board and in hand, promoted or not) than the game's set has.
    TooManyPieces(Role),
    /// 二歩: two unpromoted pawns of one player on a file.
    DoublePawn(Color, u8),
    /// An unpromoted piece where it could never move again.
    DeadPiece(Square),
    /// The side not to move is in check.
    OpponentInCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::WrongVariant(v) => write!(f, "{v} is not a shogi variant"),
            PositionError::OffBoard(sq) => write!(f, "piece on {sq}, off the minishogi board"),
            PositionError::NotInThisGame(role) => {
                write!(f, "minishogi has no piece {}", role.letter())
            }
            PositionError::MissingKing(c) => write!(f, "{c:?} has no king"),
            PositionError::TooManyKings(c) => write!(f, "{c:?} has more than one king"),
            PositionError::TooManyPieces(role) => {
                write!(f, "too many pieces of kind {}", role.letter())
            }
            PositionError::DoublePawn(c, file) => {
                write!(f, "nifu: two unpromoted {c:?} pawns on file {file}")
            }
            PositionError::DeadPiece(sq) => {
                write!(f, "dead piece: the piece on {sq} could never move again")
            }
            PositionError::OpponentInCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl core::error::Error for PositionError {}

/// SFEN text that is not a legal position: unreadable, or read but illegal.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum SfenError {
    /// The text is not SFEN.
    Parse(ParseSfenError),
    /// The SFEN describes no legal position.
    Position(PositionError),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::Parse(e) => e.fmt(f),
            SfenError::Position(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl core::error::Error for SfenError {}

impl From<ParseSfenError> for SfenError {
    fn from(e: ParseSfenError) -> SfenError {
        SfenError::Parse(e)
    }
}

impl From<PositionError> for SfenError {
    fn from(e: PositionError) -> SfenError {
        SfenError::Position(e)
    }
}

/// The board size of `variant`: 5 for minishogi, else 9.
pub(super) const fn board_size(variant: Variant) -> u8 {
    match variant {
        Variant::Minishogi => 5,
        _ => 9,
    }
}

/// `ZONES[is_minishogi][color]`: the promotion zones.
static ZONES: [[Bitboard; 2]; 2] = [
    [
        Bitboard(rank_mask(1).0 | rank_mask(2).0 | rank_mask(3).0),
        Bitboard(rank_mask(7).0 | rank_mask(8).0 | rank_mask(9).0),
    ],
    [
        Bitboard(rank_mask(1).0 & MINI_BOARD.0),
        Bitboard(rank_mask(5).0 & MINI_BOARD.0),
    ],
];

/// `DEAD[is_minishogi][color]`: the last rank (pawn, lance), the last two (knight).
static DEAD: [[[Bitboard; 2]; 2]; 2] = [
    [
        [rank_mask(1), Bitboard(rank_mask(1).0 | rank_mask(2).0)],
        [rank_mask(9), Bitboard(rank_mask(9).0 | rank_mask(8).0)],
    ],
    [
        [
            Bitboard(rank_mask(1).0 & MINI_BOARD.0),
            Bitboard((rank_mask(1).0 | rank_mask(2).0) & MINI_BOARD.0),
        ],
        [
            Bitboard(rank_mask(5).0 & MINI_BOARD.0),
            Bitboard((rank_mask(5).0 | rank_mask(4).0) & MINI_BOARD.0),
        ],
    ],
];

/// The full set of each unpromoted kind (pawn … rook) in a game.
const fn set_counts(variant: Variant) -> [u8; 7] {
    match variant {
        Variant::Minishogi => [2, 0, 0, 2, 2, 2, 2],
        _ => [18, 4, 4, 4, 4, 2, 2],
    }
}

impl Position {
    /// Validates `setup` as a position of `variant` (`dead_piece` matters for annan only).
    ///
    /// # Errors
    /// The first rule the setup breaks.
    pub fn new(
        setup: Setup,
        variant: Variant,
        dead_piece: AnnanDeadPiece,
    ) -> Result<Position, PositionError> {
        if variant == Variant::Xiangqi {
            return Err(PositionError::WrongVariant(variant));
        }
        let mut pos = Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 14],
            hands: setup.hands,
            turn: setup.turn,
            move_number: setup.move_number,
            kings: [Square::SQ_5I, Square::SQ_5A],
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            uncovering: Bitboard::EMPTY,
            key: 0,
            variant,
            dead_piece,
        };
        let mut counts = [0u32; 7];
        for color in Color::ALL {
            for role in Role::HAND {
                counts[role.index()] += u32::from(setup.hands[color.index()].get(role));
            }
        }
        let mut kings = [0; 2];
        for (index, piece) in setup.board.iter().enumerate() {
            let Some(piece) = *piece else { continue };
            let sq = Square::from_index_unchecked(index as u8);
            if !pos.board_mask().has(sq.index()) {
                return Err(PositionError::OffBoard(sq));
            }
            if variant == Variant::Minishogi
                && matches!(piece.role.unpromoted(), Role::Lance | Role::Knight)
            {
                return Err(PositionError::NotInThisGame(piece.role.unpromoted()));
            }
            if piece.role == Role::King {
                kings[piece.color.index()] += 1;
                pos.kings[piece.color.index()] = sq;
            } else {
                counts[piece.role.unpromoted().index()] += 1;
            }
            pos.put(piece, sq);
        }
        for color in Color::ALL {
            match kings[color.index()] {
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                _ => return Err(PositionError::TooManyKings(color)),
            }
        }
        let set = set_counts(variant);
        for role in Role::HAND.into_iter().rev() {
            if counts[role.index()] > u32::from(set[role.index()]) {
                return Err(if set[role.index()] == 0 {
                    PositionError::NotInThisGame(role)
                } else {
                    PositionError::TooManyPieces(role)
                });
            }
        }
        for color in Color::ALL {
            let pawns = pos.pieces(color, Role::Pawn);
            for file in 1..=9 {
                if (pawns & attacks::file_mask(file)).has_more_than_one() {
                    return Err(PositionError::DoublePawn(color, file));
                }
            }
        }
        if pos.variant != Variant::Annan || pos.dead_piece == AnnanDeadPiece::ByOriginalType {
            for color in Color::ALL {
                for role in [Role::Pawn, Role::Lance, Role::Knight] {
                    let dead = pos.pieces(color, role) & pos.dead_squares(color, role);
                    if let Some(index) = dead.first() {
                        return Err(PositionError::DeadPiece(Square::from_index_unchecked(
                            index,
                        )));
                    }
                }
            }
        }
        let them = pos.turn.opponent();
        if pos
            .attackers_to(pos.kings[them.index()], pos.turn, pos.occupied())
            .is_any()
        {
            return Err(PositionError::OpponentInCheck);
        }
        pos.key = pos.fresh_key();
        pos.update_check_info();
        Ok(pos)
    }

    /// Reads SFEN and validates it as a position of `variant`.
    ///
    /// # Errors
    /// The text is not SFEN for this board size, or not a legal position.
    pub fn from_sfen(
        text: &str,
        variant: Variant,
        dead_piece: AnnanDeadPiece,
    ) -> Result<Position, SfenError> {
        let setup = Setup::from_sfen(text, board_size(variant))?;
        Ok(Position::new(setup, variant, dead_piece)?)
    }

    /// The start position of `variant` under `settings` (handicap for shogi,
    /// setup and dead-piece rule for annan). Xiangqi gives the shogi start.
    pub fn startpos(variant: Variant, settings: &Settings) -> Position {
        let sfen = match variant {
            Variant::Minishogi => "rbsgk/4p/5/P4/KGSBR b - 1",
            Variant::Annan => match settings.annan_setup {
                AnnanSetup::Standard => Handicap::Even.sfen(),
                AnnanSetup::Traditional => {
                    "lnsgkgsnl/1r5b1/p1ppppp1p/1p5p1/9/1P5P1/P1PPPPP1P/1B5R1/LNSGKGSNL b - 1"
                }
            },
            Variant::Shogi => settings.handicap.sfen(),
            Variant::Xiangqi => Handicap::Even.sfen(),
        };
        let variant = if variant == Variant::Xiangqi {
            Variant::Shogi
        } else {
            variant
        };
        match Position::from_sfen(sfen, variant, settings.annan_dead_piece) {
            Ok(pos) => pos,
            Err(e) => unreachable!("start position {sfen} is legal: {e}"),
        }
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[usize::from(sq.index())]
    }

    /// The pieces `c` holds in hand.
    #[inline]
    pub fn hand(&self, c: Color) -> &Hand {
        &self.hands[c.index()]
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The SFEN move number.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// The square of `c`'s king.
    #[inline]
    pub fn king(&self, c: Color) -> Square {
        self.kings[c.index()]
    }

    /// The annan dead-piece setting this position plays by.
    pub fn dead_piece_setting(&self) -> AnnanDeadPiece {
        self.dead_piece
    }

    /// The position as SFEN.
    pub fn to_sfen(&self) -> String {
        self.to_setup().to_sfen_sized(board_size(self.variant))
    }

    /// The position as an unvalidated [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            hands: self.hands,
            turn: self.turn,
            move_number: self.move_number,
        }
    }

    /// All squares of the game's board (files 1–5, ranks a–e for minishogi).
    #[inline]
    pub(super) fn board_mask(&self) -> Bitboard {
        if self.variant == Variant::Minishogi {
            MINI_BOARD
        } else {
            FULL_BOARD
        }
    }

    /// The occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// `color`'s pieces of kind `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[role.index()] & self.by_color[color.index()]
    }

    /// All of `color`'s pieces.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// For each kind, by [`Role::index`], `color`'s pieces that move like
    /// it now: their own kind, or in annan the kind of the friendly piece
    /// behind them. What an evaluation needs to count attacks in all three
    /// games alike.
    #[inline]
    pub fn movers(&self, color: Color) -> [Bitboard; 14] {
        if self.variant == Variant::Annan {
            annan::movers(self, color)
        } else {
            let own = self.by_color[color.index()];
            let mut movers = [Bitboard::EMPTY; 14];
            for (mover, &bb) in movers.iter_mut().zip(&self.by_role) {
                *mover = bb & own;
            }
            movers
        }
    }

    /// The squares a `color` piece moving like `role` would attack from
    /// `sq` on this board (the pieces standing here block sliders; the
    /// squares themselves may hold pieces of either colour). Read backwards
    /// from a king's square with the king's colour, it gives the squares an
    /// enemy piece of that kind checks from.
    #[inline]
    pub fn attacks_from(&self, color: Color, role: Role, sq: Square) -> Bitboard {
        attacks::attacks(color, role, sq, self.occupied()) & self.board_mask()
    }

    /// `color`'s promotion zone: its enemy camp (three ranks; one in minishogi).
    #[inline]
    pub(super) fn promotion_zone(&self, color: Color) -> Bitboard {
        ZONES[usize::from(self.variant == Variant::Minishogi)][color.index()]
    }

    /// Where the side to move's `role` leaving `from` may promote on arrival:
    /// nowhere for a piece that cannot promote, anywhere from inside the
    /// zone, else in the zone.
    #[inline]
    pub(super) fn promotion_targets(&self, role: Role, from: Square) -> Bitboard {
        let zone = self.promotion_zone(self.turn);
        match role.can_promote() {
            false => Bitboard::EMPTY,
            true if zone.has(from.index()) => FULL_BOARD,
            true => zone,
        }
    }

    /// Where an unpromoted `color` `role` could never move by its own type:
    /// the last rank for pawn and lance, the last two for a knight.
    #[inline]
    pub(super) fn dead_squares(&self, color: Color, role: Role) -> Bitboard {
        let dead = &DEAD[usize::from(self.variant == Variant::Minishogi)][color.index()];
        match role {
            Role::Pawn | Role::Lance => dead[0],
            Role::Knight => dead[1],
            _ => Bitboard::EMPTY,
        }
    }

    /// `by`'s pieces attacking `sq` with `occupied` blocking.
    #[inline]
    pub(super) fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        if self.variant == Variant::Annan {
            let movers = annan::movers(self, by);
            attackers_with(|role| movers[role.index()], sq, by, occupied)
        } else {
            let own = self.by_color[by.index()];
            attackers_with(|role| self.by_role[role.index()] & own, sq, by, occupied)
        }
    }

    /// `by`'s pieces among `occupied` that attack `sq` when only the squares
    /// of `occupied` hold pieces: what a static exchange evaluation needs,
    /// removing each capturer from `occupied` in turn to uncover the sliders
    /// behind it (x-rays). Whatever stands on `sq` and pins are ignored.
    ///
    /// In annan a piece attacks with the movement it borrows from the friendly
    /// piece behind it as the board stands now, even when that piece is
    /// missing from `occupied`.
    pub fn attackers_within(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        self.attackers_to(sq, by, occupied) & occupied
    }

    /// Puts `piece` on the empty `sq` (bitboards and board, not the key).
    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.board[usize::from(sq.index())] = Some(piece);
        let bit = Bitboard::from_index(sq.index());
        self.by_color[piece.color.index()] |= bit;
        self.by_role[piece.role.index()] |= bit;
    }

    /// Removes `piece` from `sq` (bitboards and board, not the key).
    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.board[usize::from(sq.index())] = None;
        let bit = Bitboard::from_index(sq.index());
        self.by_color[piece.color.index()] ^= bit;
        self.by_role[piece.role.index()] ^= bit;
    }

    /// The Zobrist key computed from scratch.
    pub(super) fn fresh_key(&self) -> u64 {
        let mut key = if self.turn == Color::Gote {
            zobrist::GOTE_TO_MOVE
        } else {
            0
        };
        for (index, piece) in self.board.iter().enumerate() {
            if let Some(p) = piece {
                key ^= zobrist::piece(p.color, p.role, Square::from_index_unchecked(index as u8));
            }
        }
        for color in Color::ALL {
            for role in Role::HAND {
                key ^= zobrist::hand(color, role, self.hands[color.index()].get(role));
            }
        }
        key
    }

    /// Adds one `role` to `color`'s hand, updating the key.
    #[inline]
    fn add_to_hand(&mut self, color: Color, role: Role, delta: i8) {
        let hand = &mut self.hands[color.index()];
        let old = hand.get(role);
        let new = old.wrapping_add_signed(delta);
        hand.set(role, new);
        self.key ^= zobrist::hand(color, role, old) ^ zobrist::hand(color, role, new);
    }

    /// Plays `mv`, which must be legal; keeps key, checkers and pins current.
    pub(super) fn play(&mut self, mv: Move) {
        let us = self.turn;
        match mv {
            Move::Normal { from, to, promote } => {
                let Some(piece) = self.piece_at(from) else {
                    panic!("play_unchecked: no piece on {from} for {mv}");
                };
                if let Some(captured) = self.piece_at(to) {
                    self.remove(captured, to);
                    self.key ^= zobrist::piece(captured.color, captured.role, to);
                    self.add_to_hand(us, captured.role.unpromoted(), 1);
                }
                self.remove(piece, from);
                self.key ^= zobrist::piece(us, piece.role, from);
                let role = match (promote, piece.role.promoted()) {
                    (true, Some(promoted)) => promoted,
                    _ => piece.role,
                };
                self.put(Piece { color: us, role }, to);
                self.key ^= zobrist::piece(us, role, to);
                if role == Role::King {
                    self.kings[us.index()] = to;
                }
            }
            Move::Drop { role, to } => {
                self.add_to_hand(us, role, -1);
                self.put(Piece { color: us, role }, to);
                self.key ^= zobrist::piece(us, role, to);
            }
        }
        self.turn = us.opponent();
        self.key ^= zobrist::GOTE_TO_MOVE;
        self.move_number = self.move_number.saturating_add(1);
        self.update_check_info();
    }

    /// The same position with the other side to move, as a search's null
    /// move passes; `None` when the side to move is in check, where passing
    /// would leave its king to be taken.
    pub fn passed(&self) -> Option<Position> {
        if self.checkers.is_any() {
            return None;
        }
        let mut pos = self.clone();
        pos.turn = pos.turn.opponent();
        pos.key ^= zobrist::GOTE_TO_MOVE;
        pos.update_check_info();
        Some(pos)
    }

    /// Recomputes the checkers and the pinned pieces (shogi, minishogi) or
    /// the uncovering squares (annan) of the side to move.
    fn update_check_info(&mut self) {
        if self.variant == Variant::Annan {
            (self.checkers, self.uncovering) = annan::check_info(self);
            return;
        }
        let us = self.turn;
        let them = us.opponent();
        let ksq = self.kings[us.index()];
        let occupied = self.occupied();
        self.checkers = self.attackers_to(ksq, them, occupied);
        let rooks = self.pieces(them, Role::Rook) | self.pieces(them, Role::Dragon);
        let bishops = self.pieces(them, Role::Bishop) | self.pieces(them, Role::Horse);
        let lances = self.pieces(them, Role::Lance);
        let own = self.by_color[us.index()];
        // Pinned: the one piece between the king and an enemy slider on its
        // line, when it is ours. Most positions have no slider there at all.
        let snipers = (attacks::rook_lines(ksq) & rooks)
            | (attacks::bishop_lines(ksq) & bishops)
            | (attacks::lance(us, ksq, Bitboard::EMPTY) & lances);
        self.pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(ksq, Square::from_index_unchecked(sniper)) & occupied;
            if !between.has_more_than_one() {
                self.pinned |= between & own;
            }
        }
    }
}

/// The pieces among `m(kind)` (`by`'s pieces moving like each kind)
/// that attack `sq` with `occupied` blocking.
#[inline]
pub(super) fn attackers_with(
    m: impl Fn(Role) -> Bitboard,
    sq: Square,
    by: Color,
    occupied: Bitboard,
) -> Bitboard {
    // A square is attacked from where the opponent's piece of that kind would attack it from `sq`.
    let other = by.opponent();
    let golds = m(Role::Gold)
        | m(Role::Tokin)
        | m(Role::PromotedLance)
        | m(Role::PromotedKnight)
        | m(Role::PromotedSilver);
    let mut attackers = (attacks::pawn(other, sq) & m(Role::Pawn))
        | (attacks::knight(other, sq) & m(Role::Knight))
        | (attacks::silver(other, sq) & m(Role::Silver))
        | (attacks::gold(other, sq) & golds)
        | (attacks::king(sq) & (m(Role::King) | m(Role::Horse) | m(Role::Dragon)));
    // The sliders are scanned only when one stands on a line through `sq`.
    let lines = attacks::rook_lines(sq);
    let rooks = (m(Role::Rook) | m(Role::Dragon)) & lines;
    if rooks.is_any() {
        attackers |= attacks::rook(sq, occupied) & rooks;
    }
    let bishops = (m(Role::Bishop) | m(Role::Horse)) & attacks::bishop_lines(sq);
    if bishops.is_any() {
        attackers |= attacks::bishop(sq, occupied) & bishops;
    }
    let lances = m(Role::Lance) & lines;
    if lances.is_any() {
        attackers |= attacks::lance(other, sq, occupied) & lances;
    }
    attackers
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}
