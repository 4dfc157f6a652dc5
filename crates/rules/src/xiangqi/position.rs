//! The validated position: the board with its key and checkers kept current
//! move by move, validation, playing a move, and what attacks a point.

use core::fmt;

use super::attacks::{self, ADVISOR, ELEPHANT, GENERAL, LINES, SOLDIER_ATTACKERS};
use super::{Color, Move, ParseFenError, Piece, Role, Setup, Square, zobrist};
use crate::Bitboard;

/// Why a [`Setup`] is not a legal xiangqi position.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum PositionError {
    /// A side has no general.
    MissingGeneral(Color),
    /// A side has more of a piece than the game gives it (one general, two
    /// advisors, elephants, horses, chariots and cannons, five soldiers).
    TooManyPieces(Piece),
    /// A general or advisor outside its palace points, an elephant off its
    /// seven points, or a soldier behind its starting rank.
    MisplacedPiece(Piece, Square),
    /// The generals face each other on an open file.
    GeneralsFacing,
    /// The side not to move is in check.
    OpponentInCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingGeneral(color) => write!(f, "{color} has no general"),
            PositionError::TooManyPieces(piece) => {
                write!(f, "too many pieces '{piece}' for {}", piece.color)
            }
            PositionError::MisplacedPiece(piece, sq) => {
                write!(f, "piece '{piece}' cannot stand on {sq}")
            }
            PositionError::GeneralsFacing => f.write_str("the generals face each other"),
            PositionError::OpponentInCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl core::error::Error for PositionError {}

/// FEN that is unreadable or not a legal position.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum FenError {
    /// The text is not FEN.
    Parse(ParseFenError),
    /// The FEN describes an impossible position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(err) => err.fmt(f),
            FenError::Position(err) => write!(f, "illegal position: {err}"),
        }
    }
}

impl core::error::Error for FenError {}

impl From<ParseFenError> for FenError {
    fn from(err: ParseFenError) -> FenError {
        FenError::Parse(err)
    }
}

impl From<PositionError> for FenError {
    fn from(err: PositionError) -> FenError {
        FenError::Position(err)
    }
}

/// A legal xiangqi position.
///
/// Invariants: one general per side, each piece on a point its kind may
/// stand on, no more pieces than the game has, the generals not facing each
/// other, and the side not to move not in check. `key` and `checkers` always
/// match the board.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct Position {
    pub(super) board: [Option<Piece>; 90],
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_role: [Bitboard; 7],
    pub(super) turn: Color,
    pub(super) halfmove_clock: u32,
    pub(super) fullmove_number: u32,
    pub(super) key: u64,
    pub(super) checkers: Bitboard,
}

impl Position {
    /// Validates `setup`.
    ///
    /// # Errors
    /// The first rule of [`PositionError`] the setup breaks.
    pub fn new(setup: Setup) -> Result<Position, PositionError> {
        let mut pos = Position {
            board: setup.board,
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 7],
            turn: setup.turn,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
            key: 0,
            checkers: Bitboard::EMPTY,
        };
        for sq in Square::all() {
            if let Some(piece) = setup.piece_at(sq) {
                pos.put(sq, piece);
            }
        }
        if pos.turn == Color::Black {
            pos.key ^= zobrist::BLACK_TO_MOVE;
        }
        for color in [Color::Red, Color::Black] {
            if pos.pieces(color, Role::General).is_empty() {
                return Err(PositionError::MissingGeneral(color));
            }
            for role in Role::ALL {
                let piece = Piece { color, role };
                let placed = pos.pieces(color, role);
                if placed.count() > role.max_count() {
                    return Err(PositionError::TooManyPieces(piece));
                }
                if let Some(sq) = placed.and_not(attacks::legal_points(color, role)).first() {
                    return Err(PositionError::MisplacedPiece(
                        piece,
                        Square::from_index_unchecked(sq),
                    ));
                }
            }
        }
        let occ = pos.occupied();
        let (red, black) = (
            pos.general_square(Color::Red),
            pos.general_square(Color::Black),
        );
        if attacks::chariot(red, occ).has(black.index()) {
            return Err(PositionError::GeneralsFacing);
        }
        let (us, them) = (pos.turn, pos.turn.opponent());
        if pos
            .attackers(pos.general_square(them), us, occ, Bitboard::EMPTY)
            .is_any()
        {
            return Err(PositionError::OpponentInCheck);
        }
        pos.checkers = pos.attackers(pos.general_square(us), them, occ, Bitboard::EMPTY);
        Ok(pos)
    }

    /// Reads and validates FEN (see [`Setup::from_fen`] for what is accepted).
    ///
    /// # Errors
    /// The text is not FEN, or not a legal position.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Ok(Position::new(Setup::from_fen(text)?)?)
    }

    /// The usual starting position.
    pub fn startpos() -> Position {
        Position::from_fen(Setup::START_FEN).expect("the start position is legal")
    }

    /// The position as an unvalidated [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    /// Canonical FEN.
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[usize::from(sq.index())]
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number (increases after Black moves).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The enemy pieces attacking the general of the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// The points of `color`'s pieces of kind `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// The points of all pieces of `color`.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Where `color`'s general stands.
    #[inline]
    pub fn general_square(&self, color: Color) -> Square {
        // Invariant: every position has both generals.
        Square::from_index_unchecked(self.pieces(color, Role::General).first().unwrap_or(0))
    }

    /// The pieces of `by` that attack `sq` as the board stands, whatever is
    /// on `sq` and whether or not capturing there would be legal. The general
    /// attacks its palace neighbours. (It would also attack the enemy general
    /// along an open file, but no legal position lets the generals face.)
    pub fn attackers_of(&self, sq: Square, by: Color) -> Bitboard {
        self.attackers_within(sq, by, self.occupied())
    }

    /// `by`'s pieces among `occupied` that attack `sq` when only the points
    /// of `occupied` hold pieces (cannon screens, horse legs and elephant
    /// eyes included): what a static exchange evaluation needs, removing each
    /// capturer from `occupied` in turn to uncover the pieces behind it.
    /// As [`attackers_of`](Self::attackers_of), whatever stands on `sq` and
    /// pins are ignored.
    pub fn attackers_within(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let at = usize::from(sq.index());
        let occ = occupied;
        let own = self.by_color[by.index()] & occ;
        let mut attackers =
            self.attackers(sq, by, occ, !occ) & !self.by_role[Role::General.index()];
        attackers |= GENERAL[at] & self.by_role[Role::General.index()] & own;
        attackers |= ADVISOR[at] & self.by_role[Role::Advisor.index()] & own;
        attackers |=
            attacks::unblocked(&ELEPHANT[at], occ) & self.by_role[Role::Elephant.index()] & own;
        attackers & occ
    }

    /// The pieces of `by` that attack the point `sq` of a general, with
    /// occupancy `occ` and the pieces on `removed` gone: chariots, cannons,
    /// horses, soldiers, and the enemy general along an open file. (Advisors
    /// and elephants never leave their own half, so never reach a general.)
    #[inline]
    pub(super) fn attackers(
        &self,
        sq: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Bitboard {
        let at = usize::from(sq.index());
        let enemy = self.by_color[by.index()].and_not(removed);
        let horses = self.by_role[Role::Horse.index()] & enemy;
        let mut attackers =
            SOLDIER_ATTACKERS[by.index()][at] & self.by_role[Role::Soldier.index()] & enemy;
        if horses.is_any() {
            attackers |= attacks::horse_attackers(sq, occ, horses);
        }
        let sliders =
            (self.by_role[Role::Chariot.index()] | self.by_role[Role::General.index()]) & enemy;
        let cannons = self.by_role[Role::Cannon.index()] & enemy;
        let lines = sliders | cannons;
        if (LINES[at] & lines).is_any() {
            for (dir, rays) in attacks::RAYS.iter().enumerate() {
                if (rays[at] & lines).is_empty() {
                    continue;
                }
                let Some(first) = attacks::next_on_ray(sq, dir, occ) else {
                    continue;
                };
                if sliders.has(first.index()) {
                    attackers = attackers.with(first.index());
                }
                // The piece behind the first matters only if a cannon is there.
                if (rays[usize::from(first.index())] & cannons).is_empty() {
                    continue;
                }
                if let Some(second) = attacks::next_on_ray(first, dir, occ)
                    .filter(|second| cannons.has(second.index()))
                {
                    attackers = attackers.with(second.index());
                }
            }
        }
        attackers
    }

    /// The same position with the other side to move, as a search's null
    /// move passes; `None` when the side to move is in check, where passing
    /// would leave its general to be taken.
    pub fn passed(&self) -> Option<Position> {
        match self.checkers.is_any() {
            true => None,
            false => Some(self.with_turn(self.turn.opponent())),
        }
    }

    /// The same board with `color` to move, to ask what the side that just
    /// moved could capture next. Not a legal position in general (the other
    /// general may stand in check), so it never leaves the module.
    pub(super) fn with_turn(&self, color: Color) -> Position {
        let mut pos = self.clone();
        if pos.turn != color {
            pos.turn = color;
            pos.key ^= zobrist::BLACK_TO_MOVE;
        }
        pos.checkers = pos.attackers(
            pos.general_square(color),
            color.opponent(),
            pos.occupied(),
            Bitboard::EMPTY,
        );
        pos
    }

    /// Takes `piece` off the bitboards and the key (the board array is the caller's).
    fn remove(&mut self, sq: Square, piece: Piece) {
        let index = sq.index();
        self.by_color[piece.color.index()] = self.by_color[piece.color.index()].without(index);
        self.by_role[piece.role.index()] = self.by_role[piece.role.index()].without(index);
        self.key ^= zobrist::piece(piece, sq);
    }

    /// Adds `piece` to the bitboards and the key (the board array is the caller's).
    fn put(&mut self, sq: Square, piece: Piece) {
        let index = sq.index();
        self.by_color[piece.color.index()] = self.by_color[piece.color.index()].with(index);
        self.by_role[piece.role.index()] = self.by_role[piece.role.index()].with(index);
        self.key ^= zobrist::piece(piece, sq);
    }

    /// Plays `mv`, which must be legal; keeps the key and checkers current.
    pub(super) fn play(&mut self, mv: Move) {
        let Move { from, to } = mv;
        let Some(piece) = self.board[usize::from(from.index())].take() else {
            debug_assert!(false, "no piece to move on {from}");
            return;
        };
        self.remove(from, piece);
        match self.board[usize::from(to.index())].replace(piece) {
            Some(captured) => {
                self.remove(to, captured);
                self.halfmove_clock = 0;
            }
            None => self.halfmove_clock = self.halfmove_clock.saturating_add(1),
        }
        self.put(to, piece);
        if self.turn == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = self.turn.opponent();
        self.key ^= zobrist::BLACK_TO_MOVE;
        self.checkers = self.attackers(
            self.general_square(self.turn),
            piece.color,
            self.occupied(),
            Bitboard::EMPTY,
        );
    }

    /// Neither side has a piece that can cross the river.
    pub(super) fn is_insufficient_material(&self) -> bool {
        (self.by_role[Role::Chariot.index()]
            | self.by_role[Role::Horse.index()]
            | self.by_role[Role::Cannon.index()]
            | self.by_role[Role::Soldier.index()])
        .is_empty()
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
