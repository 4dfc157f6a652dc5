//! Legal moves of xiangqi: each piece's reach, kept off the points that
//! would expose its general, and the [`Position`] trait implementation.

use super::attacks::{
    self, ADVISOR, ELEPHANT, GENERAL, HORSE, HORSE_ATTACKERS, SOLDIER, SOLDIER_ATTACKERS,
};
use super::{Color, Move, Position, Role, Square, chase};
use crate::{
    Bitboard, EndReason, IllegalMove, MoveList, MoveSet, Outcome, ParseMoveError, Side, Variant,
};

/// Every role but the general's (which [`Role::ALL`] lists first): the
/// pieces the generator tries after the general's own steps.
const NOT_GENERAL: &[Role] = Role::ALL.split_at(1).1;

impl Position {
    /// Calls `emit(from, targets)` with the legal targets among `wanted` of
    /// every piece of the side to move that has any.
    ///
    /// The general's moves, and every move when in check, are tested one by
    /// one. Otherwise only the pinned pieces of [`exposure`](Self::exposure)
    /// are; the others just keep off the points that would screen a cannon.
    /// Targets not wanted (the quiet ones, for captures only) are dropped
    /// before any test.
    #[inline]
    fn generate(&self, wanted: Bitboard, mut emit: impl FnMut(Square, Bitboard)) {
        let us = self.turn;
        // Own pieces, and what is not wanted.
        let excluded = self.by_color[us.index()] | !wanted;
        let occ = self.occupied();
        let general = self.general_square(us);
        let palace_steps = GENERAL[usize::from(general.index())];
        let in_check = self.checkers.is_any();
        let general_targets = self.safe_targets(general, palace_steps.and_not(excluded), general);
        if general_targets.is_any() {
            emit(general, general_targets);
        }
        let exposure = self.exposure();
        for &role in NOT_GENERAL {
            for from in self.pieces(us, role) {
                let from = Square::from_index_unchecked(from);
                let targets = self.reach(from, role, us, occ).and_not(excluded);
                let legal = if in_check {
                    self.safe_targets(from, targets, general)
                } else if exposure.pinned.is_any() && exposure.pinned.has(from.index()) {
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

    /// Whether a test far cheaper than generating the moves finds a legal
    /// one: out of check, a piece other than the general that nothing pins,
    /// with a point to go to that screens no cannon. `false` when it cannot
    /// tell: in check, or when every such piece is pinned or boxed in.
    pub fn surely_has_legal_move(&self) -> bool {
        if self.checkers.is_any() {
            return false;
        }
        let us = self.turn;
        let own = self.by_color[us.index()];
        let occ = self.occupied();
        let exposure = self.exposure();
        NOT_GENERAL.iter().any(|&role| {
            self.pieces(us, role)
                .and_not(exposure.pinned)
                .iter()
                .any(|from| {
                    let from = Square::from_index_unchecked(from);
                    self.reach(from, role, us, occ)
                        .and_not(own)
                        .and_not(exposure.screens)
                        .is_any()
                })
        })
    }

    /// Appends to `out` the legal quiet moves of the side to move that may
    /// give check, found from the enemy general outwards instead of by
    /// playing every move: a chariot onto an open line to the general, a
    /// cannon onto a point one screen away from it, a horse onto a point it
    /// attacks the general from with the leg free, a soldier onto a point
    /// it attacks the general from, any piece onto the empty line between
    /// the general and a cannon of ours with nothing between (as its
    /// screen), and every quiet move of a piece that may uncover a check:
    /// the one piece between the general and our chariot, the two between
    /// it and our cannon, a leg of our horse that attacks it. Every quiet
    /// check is among them (a piece moving along a line it blocks is a
    /// candidate only by the uncovering rule); not every candidate checks,
    /// so the caller plays each to see. Quiescence's first ply tries them.
    pub fn generate_quiet_check_candidates(&self, out: &mut MoveList<Move>) {
        let us = self.turn;
        let general = self.general_square(us.opponent());
        let g = usize::from(general.index());
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        let role_of_ours = |role: Role| self.by_role[role.index()] & ours;
        let (chariots, cannons, horses) = (
            role_of_ours(Role::Chariot),
            role_of_ours(Role::Cannon),
            role_of_ours(Role::Horse),
        );
        let points = self.checking_points(us);
        let mut screen_to = Bitboard::EMPTY;
        let mut uncovering = Bitboard::EMPTY;
        for (dir, rays) in attacks::RAYS.iter().enumerate() {
            let Some(first) = attacks::next_on_ray(general, dir, occ) else {
                continue;
            };
            if cannons.has(first.index()) {
                screen_to |= (rays[g] ^ rays[usize::from(first.index())]).without(first.index());
            }
            let Some(second) = attacks::next_on_ray(first, dir, occ) else {
                continue;
            };
            if chariots.has(second.index()) {
                uncovering = uncovering.with(first.index());
            }
            if attacks::next_on_ray(second, dir, occ)
                .is_some_and(|third| cannons.has(third.index()))
            {
                uncovering = uncovering.with(first.index()).with(second.index());
            }
        }
        for &(leg, sources) in &HORSE_ATTACKERS[g] {
            if occ.has(leg) && (sources & horses).is_any() {
                // The leg of a horse of ours that would attack the general.
                uncovering = uncovering.with(leg);
            }
        }
        let uncovering = uncovering & ours;
        let empty = !occ;
        let [chariot_to, cannon_to, horse_to, soldier_to] = points.map(|to| to & empty);
        let mut wanted = chariot_to | cannon_to | horse_to | soldier_to | screen_to & empty;
        if uncovering.is_any() {
            wanted = empty;
        }
        self.generate(wanted, |from, targets| {
            let checking = if uncovering.has(from.index()) {
                targets
            } else {
                let by_role = match self.board[usize::from(from.index())].map(|p| p.role) {
                    Some(Role::Chariot) => chariot_to,
                    Some(Role::Cannon) => cannon_to,
                    Some(Role::Horse) => horse_to,
                    Some(Role::Soldier) => soldier_to,
                    _ => Bitboard::EMPTY,
                };
                targets & (by_role | screen_to)
            };
            for to in checking {
                out.push(Move {
                    from,
                    to: Square::from_index_unchecked(to),
                });
            }
        });
    }

    /// The points from which a chariot, a cannon, a horse and a soldier of
    /// `color` (in that order) would attack the enemy general as the board
    /// stands: empty, or holding a piece a move there would capture.
    fn checking_points(&self, color: Color) -> [Bitboard; 4] {
        let general = self.general_square(color.opponent());
        let g = usize::from(general.index());
        let occ = self.occupied();
        let mut cannon_to = Bitboard::EMPTY;
        for (dir, rays) in attacks::RAYS.iter().enumerate() {
            let Some(screen) = attacks::next_on_ray(general, dir, occ) else {
                continue;
            };
            let beyond = rays[usize::from(screen.index())];
            cannon_to |= match attacks::next_on_ray(screen, dir, occ) {
                Some(next) => beyond ^ rays[usize::from(next.index())],
                None => beyond,
            };
        }
        let mut horse_to = Bitboard::EMPTY;
        for &(leg, sources) in &HORSE_ATTACKERS[g] {
            if !occ.has(leg) {
                horse_to |= sources;
            }
        }
        [
            attacks::chariot(general, occ),
            cannon_to,
            horse_to,
            SOLDIER_ATTACKERS[color.index()][g],
        ]
    }

    /// The points the piece on `from` (of the side to move) may legally move to.
    pub(super) fn legal_targets(&self, from: Square) -> Bitboard {
        match self.piece_at(from) {
            Some(piece) if piece.color == self.turn => {
                let own = self.by_color[self.turn.index()];
                let targets = self
                    .reach(from, piece.role, piece.color, self.occupied())
                    .and_not(own);
                self.safe_targets(from, targets, self.general_square(self.turn))
            }
            _ => Bitboard::EMPTY,
        }
    }

    /// Where the `role` on `from` can move by its own rule, own pieces included.
    #[inline(always)]
    fn reach(&self, from: Square, role: Role, color: Color, occ: Bitboard) -> Bitboard {
        let at = usize::from(from.index());
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
        let general = self.general_square(self.turn);
        let g = usize::from(general.index());
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
            if cannons.has(first.index()) {
                let beyond = rays[usize::from(first.index())];
                exposure.screens |= (ray ^ beyond).without(first.index());
            }
            let Some(second) = second else {
                continue;
            };
            if sliders.has(second.index()) {
                exposure.pinned = exposure.pinned.with(first.index());
            }
            let third = attacks::next_on_ray(second, dir, occ);
            if third.is_some_and(|third| cannons.has(third.index())) {
                exposure.pinned = exposure.pinned.with(first.index()).with(second.index());
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
    fn unpinned_targets(&self, from: Square, targets: Bitboard, exposure: &Exposure) -> Bitboard {
        let general = exposure.general;
        let them = self.turn.opponent();
        let leaves_leg = exposure.legs.has(from.index());
        let leaves_line = exposure.lines.has(from.index());
        let mut safe = targets;
        for to in targets {
            let to = Square::from_index_unchecked(to);
            let occ = self.occupied().without(from.index()).with(to.index());
            let enemy = self.by_color[them.index()].without(to.index());
            let horses = self.by_role[Role::Horse.index()] & enemy;
            let exposed = leaves_leg && attacks::horse_attackers(general, occ, horses).is_any()
                || leaves_line
                    && self.line_attacked(general, attacks::direction(general, from), occ, enemy)
                || exposure.lines.has(to.index())
                    && self.line_attacked(general, attacks::direction(general, to), occ, enemy);
            if exposed {
                safe = safe.without(to.index());
            }
        }
        safe
    }

    /// Whether a chariot, the general or a cannon among `enemy` attacks the
    /// general on `general` along direction `dir` with occupancy `occ`.
    #[inline]
    fn line_attacked(&self, general: Square, dir: usize, occ: Bitboard, enemy: Bitboard) -> bool {
        let sliders = self.by_role[Role::Chariot.index()] | self.by_role[Role::General.index()];
        match attacks::first_two(general, dir, occ) {
            (Some(first), _) if (sliders & enemy).has(first.index()) => true,
            (_, Some(second)) => (self.by_role[Role::Cannon.index()] & enemy).has(second.index()),
            _ => false,
        }
    }

    /// The targets among `targets` that `from` may move to without exposing its general.
    #[inline]
    fn safe_targets(&self, from: Square, targets: Bitboard, general: Square) -> Bitboard {
        let mut safe = targets;
        for to in targets {
            if !self.is_safe(from, Square::from_index_unchecked(to), general) {
                safe = safe.without(to);
            }
        }
        safe
    }

    /// Whether the mover's general is safe after moving `from` → `to`
    /// (capturing whatever stands there), without playing the move.
    #[inline]
    fn is_safe(&self, from: Square, to: Square, general: Square) -> bool {
        let occ = self.occupied().without(from.index()).with(to.index());
        let general = if from == general { to } else { general };
        let captured = Bitboard::from_index(to.index());
        self.attackers(general, self.turn.opponent(), occ, captured)
            .is_empty()
    }
}

/// The points where a move may expose the general (see [`Position::exposure`]).
struct Exposure {
    /// Where the general stands.
    general: Square,
    /// The rays from the general holding an enemy chariot, cannon or general.
    lines: Bitboard,
    /// The legs of enemy horses next to the general.
    legs: Bitboard,
    /// Our pieces whose leaving may expose the general: each move is tested.
    pinned: Bitboard,
    /// Empty points between the general and a cannon: landing there checks.
    screens: Bitboard,
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
        self.generate(wanted, |from, targets| {
            for to in targets {
                out.push(Move {
                    from,
                    to: Square::from_index_unchecked(to),
                });
            }
        });
    }

    fn count_legal_moves(&self) -> usize {
        let mut count = 0;
        self.generate(!Bitboard::EMPTY, |_, targets| {
            count += targets.count() as usize;
        });
        count
    }

    fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        let Move { from, to } = mv;
        let piece = match self.piece_at(from) {
            Some(piece) if piece.color == self.turn => piece,
            _ => return Err(IllegalMove::NoPieceToMove),
        };
        if self.by_color[self.turn.index()].has(to.index()) {
            return Err(IllegalMove::OwnPieceOnTarget);
        }
        if !self
            .reach(from, piece.role, piece.color, self.occupied())
            .has(to.index())
        {
            return Err(IllegalMove::CannotReach);
        }
        let general = self.general_square(self.turn);
        if self.is_safe(from, to, general) {
            return Ok(());
        }
        let occ = self.occupied().without(from.index()).with(to.index());
        let ours = if from == general { to } else { general };
        let theirs = self.general_square(self.turn.opponent());
        if attacks::chariot(ours, occ).has(theirs.index()) {
            Err(IllegalMove::FacingGenerals)
        } else {
            Err(IllegalMove::LeavesKingInCheck)
        }
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
