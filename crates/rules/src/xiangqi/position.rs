//! The validated position: legal moves, playing them, checks and game ends.

use core::fmt;

use super::attacks::{
    self, ADVISOR, ELEPHANT, GENERAL, HORSE, HORSE_ATTACKERS, LINES, SOLDIER, SOLDIER_ATTACKERS,
};
use super::{Color, Move, ParseFenError, Piece, Role, Setup, Square, chase, zobrist};
use crate::{
    Bitboard, EndReason, IllegalMove, MoveList, MoveSet, Outcome, ParseMoveError, Side, Variant,
};

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
    board: [Option<Piece>; 90],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 7],
    turn: Color,
    halfmove_clock: u32,
    fullmove_number: u32,
    key: u64,
    checkers: Bitboard,
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
        for (sq, piece) in setup.board.iter().enumerate() {
            if let Some(piece) = *piece {
                let sq = sq as u8;
                pos.by_color[piece.color.index()] = pos.by_color[piece.color.index()].with(sq);
                pos.by_role[piece.role.index()] = pos.by_role[piece.role.index()].with(sq);
                pos.key ^= zobrist::piece(piece, Square::from_index_unchecked(sq));
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
        let red = pos.general(Color::Red);
        if attacks::chariot(red, pos.occupied()).has(pos.general(Color::Black)) {
            return Err(PositionError::GeneralsFacing);
        }
        let them = pos.turn.opponent();
        if pos
            .attackers(pos.general(them), pos.turn, pos.occupied(), Bitboard::EMPTY)
            .is_any()
        {
            return Err(PositionError::OpponentInCheck);
        }
        pos.checkers = pos.attackers(pos.general(pos.turn), them, pos.occupied(), Bitboard::EMPTY);
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
        Square::from_index_unchecked(self.general(color))
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
        let s = sq.index();
        let at = usize::from(s);
        let occ = occupied;
        let own = self.by_color[by.index()] & occ;
        let mut attackers = self.attackers(s, by, occ, !occ) & !self.by_role[Role::General.index()];
        attackers |= GENERAL[at] & self.by_role[Role::General.index()] & own;
        attackers |= ADVISOR[at] & self.by_role[Role::Advisor.index()] & own;
        attackers |=
            attacks::unblocked(&ELEPHANT[at], occ) & self.by_role[Role::Elephant.index()] & own;
        attackers & occ
    }

    /// The index of `color`'s general.
    #[inline]
    fn general(&self, color: Color) -> u8 {
        // Invariant: every position has both generals.
        self.pieces(color, Role::General).first().unwrap_or(0)
    }

    /// The pieces of `by` that attack the point `sq` of a general, with
    /// occupancy `occ` and the pieces on `removed` gone: chariots, cannons,
    /// horses, soldiers, and the enemy general along an open file. (Advisors
    /// and elephants never leave their own half, so never reach a general.)
    #[inline]
    fn attackers(&self, sq: u8, by: Color, occ: Bitboard, removed: Bitboard) -> Bitboard {
        let at = usize::from(sq);
        let enemy = self.by_color[by.index()].and_not(removed);
        let horses = self.by_role[Role::Horse.index()] & enemy;
        let mut attackers =
            SOLDIER_ATTACKERS[by.index()][at] & self.by_role[Role::Soldier.index()] & enemy;
        if horses.is_any() {
            attackers |= horse_attackers(at, occ, horses);
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
                let (first, second) = attacks::first_two(sq, dir, occ);
                if let Some(first) = first.filter(|&b| sliders.has(b)) {
                    attackers = attackers.with(first);
                }
                if let Some(second) = second.filter(|&b| cannons.has(b)) {
                    attackers = attackers.with(second);
                }
            }
        }
        attackers
    }

    /// Whether the mover's general is safe after moving `from` → `to`
    /// (capturing whatever stands there), without playing the move.
    #[inline]
    fn is_safe(&self, from: u8, to: u8, general: u8) -> bool {
        let occ = self.occupied().without(from).with(to);
        let general = if from == general { to } else { general };
        self.attackers(general, self.turn.opponent(), occ, Bitboard::from_index(to))
            .is_empty()
    }

    /// The targets among `targets` that `from` may move to without exposing its general.
    #[inline]
    fn safe_targets(&self, from: u8, targets: Bitboard, general: u8) -> Bitboard {
        let mut safe = targets;
        for to in targets {
            if !self.is_safe(from, to, general) {
                safe = safe.without(to);
            }
        }
        safe
    }

    /// Where a move can open a line or a horse leg to the general of the
    /// side to move, which is not in check.
    ///
    /// On a ray from the general, an enemy chariot (or general) attacks when
    /// no piece stands before it, a cannon when exactly one does. So a piece
    /// of ours first on a ray with a chariot second is pinned, as are the two
    /// pieces before a cannon third; a piece landing before a cannon that is
    /// first makes it a screen. A piece of ours on the leg of an enemy horse
    /// next to the general is pinned too.
    ///
    /// Any other move is safe. Leaving a ray removes one piece in front of
    /// each attacker there, which only matters for the pinned pieces above.
    /// Moving along a ray cannot pass an attacker, and a capture along it
    /// removes one piece in front of the attackers beyond, again only
    /// harmful where the mover is pinned. Landing on a ray adds a piece,
    /// harmful only as the first screen of a cannon.
    #[inline]
    fn exposure(&self) -> Exposure {
        let general = self.general(self.turn);
        let g = usize::from(general);
        let occ = self.occupied();
        let enemy = self.by_color[self.turn.opponent().index()];
        let sliders =
            (self.by_role[Role::Chariot.index()] | self.by_role[Role::General.index()]) & enemy;
        let cannons = self.by_role[Role::Cannon.index()] & enemy;
        let mut exposure = Exposure {
            general,
            lines: Bitboard::EMPTY,
            legs: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            screens: Bitboard::EMPTY,
        };
        for (dir, rays) in attacks::RAYS.iter().enumerate() {
            let ray = rays[g];
            if (ray & (sliders | cannons)).is_empty() {
                continue;
            }
            exposure.lines |= ray;
            let (Some(first), second) = attacks::first_two(general, dir, occ) else {
                continue;
            };
            if cannons.has(first) {
                exposure.screens |= (ray ^ rays[usize::from(first)]).without(first);
            }
            let Some(second) = second else {
                continue;
            };
            if sliders.has(second) {
                exposure.pinned = exposure.pinned.with(first);
            }
            if attacks::next_on_ray(second, dir, occ).is_some_and(|third| cannons.has(third)) {
                exposure.pinned = exposure.pinned.with(first).with(second);
            }
        }
        let horses = self.by_role[Role::Horse.index()] & enemy;
        for &(leg, sources) in &HORSE_ATTACKERS[g] {
            if (sources & horses).is_any() {
                exposure.legs = exposure.legs.with(leg);
            }
        }
        exposure.pinned = (exposure.pinned | exposure.legs) & self.by_color[self.turn.index()];
        exposure
    }

    /// Like [`safe_targets`](Self::safe_targets) for a piece other than the
    /// general when not in check: only the lines the move touches can open.
    /// Leaving a live horse leg may free a horse; leaving or entering a live
    /// line changes what the first two pieces there are (a chariot or general
    /// behind the first, a cannon behind the second).
    #[inline]
    fn unpinned_targets(&self, from: u8, targets: Bitboard, exposure: &Exposure) -> Bitboard {
        let general = exposure.general;
        let g = usize::from(general);
        let them = self.turn.opponent();
        let leaves_leg = exposure.legs.has(from);
        let leaves_line = exposure.lines.has(from);
        let mut safe = targets;
        for to in targets {
            let occ = self.occupied().without(from).with(to);
            let enemy = self.by_color[them.index()].without(to);
            let exposed = leaves_leg
                && horse_attackers(g, occ, self.by_role[Role::Horse.index()] & enemy).is_any()
                || leaves_line
                    && self.line_attacked(general, attacks::direction(general, from), occ, enemy)
                || exposure.lines.has(to)
                    && self.line_attacked(general, attacks::direction(general, to), occ, enemy);
            if exposed {
                safe = safe.without(to);
            }
        }
        safe
    }

    /// Whether a chariot, the general or a cannon among `enemy` attacks the
    /// general on `general` along direction `dir` with occupancy `occ`.
    #[inline]
    fn line_attacked(&self, general: u8, dir: usize, occ: Bitboard, enemy: Bitboard) -> bool {
        let sliders = self.by_role[Role::Chariot.index()] | self.by_role[Role::General.index()];
        match attacks::first_two(general, dir, occ) {
            (Some(first), _) if (sliders & enemy).has(first) => true,
            (_, Some(second)) => (self.by_role[Role::Cannon.index()] & enemy).has(second),
            _ => false,
        }
    }

    /// Where the `role` on `from` can move by its own rule, own pieces included.
    #[inline(always)]
    fn reach(&self, from: u8, role: Role, color: Color, occ: Bitboard) -> Bitboard {
        let at = usize::from(from);
        match role {
            Role::General => GENERAL[at],
            Role::Advisor => ADVISOR[at],
            Role::Elephant => self.unblocked(&ELEPHANT[at]),
            Role::Horse => self.unblocked(&HORSE[at]),
            Role::Chariot => attacks::chariot(from, occ),
            Role::Cannon => attacks::cannon_moves(from, occ),
            Role::Soldier => SOLDIER[color.index()][at],
        }
    }

    /// The targets of a blockable step table entry on this board (a byte
    /// read per blocking point is cheaper than a 128-bit shift).
    #[inline(always)]
    fn unblocked(&self, steps: &attacks::Blockable) -> Bitboard {
        let mut targets = Bitboard::EMPTY;
        for &(block, to) in steps {
            if self
                .board
                .get(usize::from(block))
                .is_some_and(Option::is_none)
            {
                targets |= to;
            }
        }
        targets
    }

    /// Calls `emit(from, targets)` with the legal targets of every piece of
    /// the side to move that has any.
    ///
    /// The general's moves, and every move when in check, are tested one by
    /// one. Otherwise only the pinned pieces of [`exposure`](Self::exposure)
    /// are; the others just keep off the points that would screen a cannon.
    #[inline]
    fn generate(&self, mut emit: impl FnMut(u8, Bitboard)) {
        let us = self.turn;
        let own = self.by_color[us.index()];
        let occ = self.occupied();
        let general = self.general(us);
        let g = usize::from(general);
        let in_check = self.checkers.is_any();
        let general_targets = self.safe_targets(general, GENERAL[g].and_not(own), general);
        if general_targets.is_any() {
            emit(general, general_targets);
        }
        let exposure = self.exposure();
        for role in [
            Role::Advisor,
            Role::Elephant,
            Role::Horse,
            Role::Chariot,
            Role::Cannon,
            Role::Soldier,
        ] {
            for from in self.pieces(us, role) {
                let targets = self.reach(from, role, us, occ).and_not(own);
                let legal = if in_check {
                    self.safe_targets(from, targets, general)
                } else if exposure.pinned.is_any() && exposure.pinned.has(from) {
                    // (Most positions pin nothing: the first test is cheaper.)
                    self.unpinned_targets(from, targets, &exposure)
                } else {
                    targets.and_not(exposure.screens)
                };
                if legal.is_any() {
                    emit(from, legal);
                }
            }
        }
    }

    /// The points the piece on `from` (of the side to move) may legally move to.
    pub(super) fn legal_targets(&self, from: Square) -> Bitboard {
        let from = from.index();
        match self.board[usize::from(from)] {
            Some(piece) if piece.color == self.turn => {
                let own = self.by_color[self.turn.index()];
                let targets = self
                    .reach(from, piece.role, piece.color, self.occupied())
                    .and_not(own);
                self.safe_targets(from, targets, self.general(self.turn))
            }
            _ => Bitboard::EMPTY,
        }
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
            pos.general(color),
            color.opponent(),
            pos.occupied(),
            Bitboard::EMPTY,
        );
        pos
    }

    fn remove(&mut self, sq: u8, piece: Piece) {
        self.by_color[piece.color.index()] = self.by_color[piece.color.index()].without(sq);
        self.by_role[piece.role.index()] = self.by_role[piece.role.index()].without(sq);
        self.key ^= zobrist::piece(piece, Square::from_index_unchecked(sq));
    }

    fn put(&mut self, sq: u8, piece: Piece) {
        self.by_color[piece.color.index()] = self.by_color[piece.color.index()].with(sq);
        self.by_role[piece.role.index()] = self.by_role[piece.role.index()].with(sq);
        self.key ^= zobrist::piece(piece, Square::from_index_unchecked(sq));
    }

    /// Neither side has a piece that can cross the river.
    fn is_insufficient_material(&self) -> bool {
        (self.by_role[Role::Chariot.index()]
            | self.by_role[Role::Horse.index()]
            | self.by_role[Role::Cannon.index()]
            | self.by_role[Role::Soldier.index()])
        .is_empty()
    }
}

/// The points where a move may expose the general (see [`Position::exposure`]).
struct Exposure {
    /// Where the general stands.
    general: u8,
    /// The rays from the general holding an enemy chariot, cannon or general.
    lines: Bitboard,
    /// The legs of enemy horses next to the general.
    legs: Bitboard,
    /// Our pieces whose leaving may expose the general: each move is tested.
    pinned: Bitboard,
    /// Empty points between the general and a cannon: landing there checks.
    screens: Bitboard,
}

/// The `horses` that attack the point `at` with occupancy `occ`. A leg is
/// looked at only when a horse stands behind it.
#[inline]
fn horse_attackers(at: usize, occ: Bitboard, horses: Bitboard) -> Bitboard {
    let mut attackers = Bitboard::EMPTY;
    for &(leg, sources) in &HORSE_ATTACKERS[at] {
        let behind = sources & horses;
        if behind.is_any() && !occ.has(leg) {
            attackers |= behind;
        }
    }
    attackers
}

impl crate::Position for Position {
    type Move = Move;

    fn variant(&self) -> Variant {
        Variant::Xiangqi
    }

    fn side_to_move(&self) -> Side {
        self.turn.side()
    }

    fn generate_moves(&self, set: MoveSet, out: &mut MoveList<Move>) {
        let wanted = match set {
            MoveSet::All => !Bitboard::EMPTY,
            MoveSet::Tactical => self.by_color[self.turn.opponent().index()],
        };
        self.generate(|from, targets| {
            let from = Square::from_index_unchecked(from);
            for to in targets & wanted {
                out.push(Move {
                    from,
                    to: Square::from_index_unchecked(to),
                });
            }
        });
    }

    fn count_legal_moves(&self) -> usize {
        let mut count = 0;
        self.generate(|_, targets| count += targets.count() as usize);
        count
    }

    fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        let (from, to) = (mv.from.index(), mv.to.index());
        let piece = match self.board[usize::from(from)] {
            Some(piece) if piece.color == self.turn => piece,
            _ => return Err(IllegalMove::NoPieceToMove),
        };
        if self.by_color[self.turn.index()].has(to) {
            return Err(IllegalMove::OwnPieceOnTarget);
        }
        if !self
            .reach(from, piece.role, piece.color, self.occupied())
            .has(to)
        {
            return Err(IllegalMove::CannotReach);
        }
        let general = self.general(self.turn);
        if self.is_safe(from, to, general) {
            return Ok(());
        }
        let occ = self.occupied().without(from).with(to);
        let ours = if from == general { to } else { general };
        if attacks::chariot(ours, occ).has(self.general(self.turn.opponent())) {
            Err(IllegalMove::FacingGenerals)
        } else {
            Err(IllegalMove::LeavesKingInCheck)
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        let (from, to) = (mv.from.index(), mv.to.index());
        let Some(piece) = self.board[usize::from(from)].take() else {
            debug_assert!(false, "no piece to move on {}", mv.from);
            return;
        };
        self.remove(from, piece);
        match self.board[usize::from(to)].replace(piece) {
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
            self.general(self.turn),
            piece.color,
            self.occupied(),
            Bitboard::EMPTY,
        );
    }

    fn is_check(&self) -> bool {
        self.checkers.is_any()
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        Move::from_iccs(text)
    }

    fn end(&self) -> Option<Outcome> {
        let side = self.turn.side();
        if self.count_legal_moves() == 0 {
            let reason = if self.checkers.is_any() {
                EndReason::Checkmate
            } else {
                EndReason::NoLegalMoves
            };
            return Some(Outcome::loss(side, reason));
        }
        if self.is_insufficient_material() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        if self.halfmove_clock >= 120 {
            return Some(Outcome::draw(EndReason::SixtyMoveRule));
        }
        None
    }

    fn is_chase(&self, mv: Move, after: &Position) -> bool {
        chase::is_chase(self, mv, after)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
