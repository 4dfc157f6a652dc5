//! What the search needs to know about each game beyond its evaluation:
//! packed moves for the tables, the null move, and the game ends that are
//! not mate (impasse declaration, xiangqi's sixty-move rule).

use rules::{AnyMove, Bitboard, Impasse, MoveList, Position as _, Variant, shogi, xiangqi};

use crate::see::Exchange;

/// A position the generic search can work on.
pub(crate) trait Searchable: Exchange + Send + Sync + 'static {
    /// Whether repetitions are judged by chasing too (xiangqi).
    const HAS_CHASE_RULE: bool;

    /// Whether captured pieces return as drops (the shogi family): checks
    /// by drops are then many, and the search extends only those that do
    /// not lose the piece.
    const DROPS: bool;

    /// The number of (moving piece, destination) pairs: the size of a
    /// continuation-history row.
    const PIECE_TO: usize;

    /// The moving piece (its kind before promotion, and colour) and the
    /// destination of `mv`, as an index below [`Self::PIECE_TO`]: a drop
    /// counts as the dropped piece moving to its square.
    fn piece_to(&self, mv: Self::Move) -> usize;

    /// The number of (capturing piece, destination, captured kind) triples:
    /// the size of the capture history.
    const CAPTURES: usize;

    /// The capture `mv` as an index below [`Self::CAPTURES`]: its
    /// [`piece_to`](Self::piece_to) and the kind of piece it takes.
    fn capture_index(&self, mv: Self::Move) -> usize;

    /// The move in sixteen bits, never zero, unique among the moves of a
    /// position: the form stored in the transposition and history tables.
    fn pack(mv: Self::Move) -> u16;

    /// The move as the library's run-time move type.
    fn to_any(mv: Self::Move) -> AnyMove;

    /// The same position with the other side to move (the null move), or
    /// `None` where passing is unsafe to assume (xiangqi zugzwang material).
    fn pass(&self) -> Option<Self>;

    /// Whether the side to move may declare and win by `rule` (27-point impasse).
    fn declares_win(&self, rule: Impasse) -> bool;

    /// Whether a rule other than repetition has drawn the game.
    fn rule_draw(&self) -> bool;

    /// Whether the side to move surely has a legal move, by a test far
    /// cheaper than generating them: `false` when it cannot tell. The
    /// search then generates a node's moves only once pruning has not
    /// settled it.
    fn surely_has_move(&self) -> bool {
        false
    }

    /// Whether quiescence should try the quiet move `mv` in case it gives
    /// check: a cheap test, playing the move tells for sure. In the drop
    /// games a quiet check or drop at the horizon can mate, so the shogi
    /// family answers for moves that land next to the enemy king, a knight's
    /// jump from it, or on one of its lines (for drops in shogi and
    /// minishogi exactly); xiangqi never.
    fn may_check(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether `mv` may give check, discovered checks included: `false`
    /// only when it surely does not, so the search may prune a quiet move
    /// without playing it.
    fn may_give_check(&self, _mv: Self::Move) -> bool {
        true
    }

    /// The quiet moves quiescence tries at its first ply in a game without
    /// drops, in case they give check: every quiet check among them, found
    /// without generating and playing every move (the caller plays each to
    /// see). The drop games find theirs among all the moves they generate
    /// there anyway, with [`may_check`](Self::may_check).
    fn quiet_check_candidates(&self, _out: &mut MoveList<Self::Move>) {}

    /// The key by which the correction history learns where the static
    /// evaluation of this position errs
    /// ([`Histories::correction`](crate::history::Histories::correction)): a
    /// hash of both sides' pawns on the board. `None` where the evaluation
    /// is not corrected: without a pawn on the board (one entry would then
    /// bend every evaluation of a pieces-only ending alike: a mate through a
    /// sacrifice went unseen), and in xiangqi, where correcting by the
    /// soldiers scored 29.5/80 in self-play at 38,600 nodes a move against
    /// the search without it, and by each side's other pieces no better
    /// against Fairy-Stockfish (in the drop games: 56.8% ± 6.9% in shogi
    /// and 55.8% ± 7.0% in annan over 200 games at 26,000 nodes; against
    /// Fairy-Stockfish rows F and J of `docs/strength.md`). (Keyed in
    /// minishogi by both kings' squares and both hands instead, it scored
    /// 36/54 against Fairy-Stockfish at row U's budgets where the pawns
    /// scored 38/54; the two tables' corrections averaged, 37/54.)
    fn correction_key(&self) -> Option<u64> {
        None
    }
}

/// A hash of two sides' pawn sets, `None` when both are empty.
fn pawn_hash(first: Bitboard, second: Bitboard) -> Option<u64> {
    if first.is_empty() && second.is_empty() {
        return None;
    }
    let fold = |set: Bitboard, k: u64| {
        ((set.0 as u64) ^ ((set.0 >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(k)
    };
    let x =
        fold(first, 0xbf58_476d_1ce4_e5b9) ^ fold(second, 0x94d0_49bb_1331_11eb).rotate_left(32);
    Some(x ^ (x >> 29))
}

/// Bit 15 is always set, so a packed move is never zero.
const PACKED: u16 = 1 << 15;

impl Searchable for shogi::Position {
    const HAS_CHASE_RULE: bool = false;
    const DROPS: bool = true;
    const PIECE_TO: usize = 2 * 14 * 81;
    const CAPTURES: usize = Self::PIECE_TO * 14;

    fn piece_to(&self, mv: shogi::Move) -> usize {
        let role = match mv {
            shogi::Move::Normal { from, .. } => {
                self.piece_at(from).map_or(0, |piece| piece.role.index())
            }
            shogi::Move::Drop { role, .. } => role.index(),
        };
        (self.turn().index() * 14 + role) * 81 + usize::from(mv.to().index())
    }

    fn capture_index(&self, mv: shogi::Move) -> usize {
        let taken = self.piece_at(mv.to()).map_or(0, |piece| piece.role.index());
        self.piece_to(mv) * 14 + taken
    }

    /// Layout: bits 0-6 the from-square index (81 + role index for a drop),
    /// bits 7-13 the to-square index, bit 14 promotion, bit 15 set.
    fn pack(mv: shogi::Move) -> u16 {
        match mv {
            shogi::Move::Normal { from, to, promote } => {
                PACKED
                    | u16::from(from.index())
                    | u16::from(to.index()) << 7
                    | u16::from(promote) << 14
            }
            shogi::Move::Drop { role, to } => {
                PACKED | (81 + role.index() as u16) | u16::from(to.index()) << 7
            }
        }
    }

    fn to_any(mv: shogi::Move) -> AnyMove {
        AnyMove::Shogi(mv)
    }

    fn pass(&self) -> Option<shogi::Position> {
        self.passed()
    }

    fn correction_key(&self) -> Option<u64> {
        use shogi::{Color, Role};
        pawn_hash(
            self.pieces(Color::Sente, Role::Pawn),
            self.pieces(Color::Gote, Role::Pawn),
        )
    }

    fn declares_win(&self, rule: Impasse) -> bool {
        if rule != Impasse::TwentySevenPoint || self.variant() == Variant::Minishogi {
            return false;
        }
        self.judge_impasse(rule, self.side_to_move())
            .is_ok_and(|outcome| outcome.winner == Some(self.side_to_move()))
    }

    fn rule_draw(&self) -> bool {
        false
    }

    /// Out of check, a gold, silver, bishop or rook in hand can be dropped
    /// on any empty square (none of them is ever a dead piece, and a drop
    /// uncovers no line to the own king); else a piece with a square to go
    /// to that nothing pins (in annan: that stands where leaving opens no
    /// line to the king, and goes to an empty square)
    /// ([`shogi::Position::surely_has_legal_move`]).
    fn surely_has_move(&self) -> bool {
        let hand = self.hand(self.turn());
        let droppable = [
            shogi::Role::Gold,
            shogi::Role::Silver,
            shogi::Role::Bishop,
            shogi::Role::Rook,
        ]
        .into_iter()
        .any(|role| hand.get(role) > 0);
        let squares = if self.variant() == Variant::Minishogi {
            25
        } else {
            81
        };
        droppable && !self.is_check() && self.occupied().count() < squares
            || self.surely_has_legal_move()
    }

    /// A drop in shogi and minishogi is answered exactly: the dropped piece
    /// checks if the king, moving like it for the other side, reaches its
    /// square (a drop only adds a piece, so no other line changes). In annan
    /// a drop also lends its movement to the piece in front of it.
    ///
    /// A slider dropped off the king's lines cannot check, whatever stands
    /// between: its moves are worked out only for a drop on one.
    fn may_check(&self, mv: shogi::Move) -> bool {
        let them = self.turn().opponent();
        let king = self.king(them);
        let to = mv.to();
        let files = king.file().abs_diff(to.file());
        let ranks = king.rank().abs_diff(to.rank());
        if let shogi::Move::Drop { role, to } = mv
            && self.variant() != Variant::Annan
        {
            let on_a_line = match role {
                shogi::Role::Rook => files == 0 || ranks == 0,
                shogi::Role::Bishop => files == ranks,
                shogi::Role::Lance => files == 0,
                _ => true,
            };
            return on_a_line && self.attacks_from(them, role, king).has(to.index());
        }
        files.max(ranks) <= 2 || files == 0 || ranks == 0 || files == ranks
    }

    fn may_give_check(&self, mv: shogi::Move) -> bool {
        // A piece leaving a line through the enemy king may uncover a check.
        let discovers = match mv {
            shogi::Move::Normal { from, .. } => {
                let king = self.king(self.turn().opponent());
                let files = king.file().abs_diff(from.file());
                let ranks = king.rank().abs_diff(from.rank());
                files == 0 || ranks == 0 || files == ranks
            }
            shogi::Move::Drop { .. } => false,
        };
        discovers || self.may_check(mv)
    }
}

impl Searchable for xiangqi::Position {
    const HAS_CHASE_RULE: bool = true;
    const DROPS: bool = false;
    const PIECE_TO: usize = 2 * 7 * 90;
    const CAPTURES: usize = Self::PIECE_TO * 7;

    fn piece_to(&self, mv: xiangqi::Move) -> usize {
        let role = self.piece_at(mv.from).map_or(0, |piece| piece.role.index());
        (self.turn().index() * 7 + role) * 90 + usize::from(mv.to.index())
    }

    fn capture_index(&self, mv: xiangqi::Move) -> usize {
        let taken = self.piece_at(mv.to).map_or(0, |piece| piece.role.index());
        self.piece_to(mv) * 7 + taken
    }

    /// Layout: bits 0-6 the from-point index, bits 7-13 the to-point index, bit 15 set.
    fn pack(mv: xiangqi::Move) -> u16 {
        PACKED | u16::from(mv.from.index()) | u16::from(mv.to.index()) << 7
    }

    fn to_any(mv: xiangqi::Move) -> AnyMove {
        AnyMove::Xiangqi(mv)
    }

    fn pass(&self) -> Option<xiangqi::Position> {
        use xiangqi::Role;
        // With only a soldier or two left to move, passing would be better
        // than any move (zugzwang): no null move.
        let us = self.turn();
        let movers = [Role::Chariot, Role::Horse, Role::Cannon]
            .iter()
            .map(|&role| self.pieces(us, role).count())
            .sum::<u32>();
        if movers == 0 {
            return None;
        }
        self.passed()
    }

    fn declares_win(&self, _rule: Impasse) -> bool {
        false
    }

    /// Out of check, a piece other than the general with a point to go to
    /// that nothing pins and that screens no cannon
    /// ([`xiangqi::Position::surely_has_legal_move`]).
    fn surely_has_move(&self) -> bool {
        self.surely_has_legal_move()
    }

    fn quiet_check_candidates(&self, out: &mut MoveList<xiangqi::Move>) {
        self.generate_quiet_check_candidates(out);
    }

    fn may_give_check(&self, mv: xiangqi::Move) -> bool {
        // Chariots, cannons and soldiers check along the general's file or
        // rank, horses from within two points; a piece leaving or entering
        // those lines may open a line or make or take a cannon's screen, and
        // one leaving a point next to the general may free a horse's leg.
        let general = self.general_square(self.turn().opponent());
        let (file, rank) = (general.file(), general.rank());
        let on_line = |sq: xiangqi::Square| sq.file() == file || sq.rank() == rank;
        let within = |sq: xiangqi::Square, steps: u8| {
            sq.file().abs_diff(file) <= steps && sq.rank().abs_diff(rank) <= steps
        };
        on_line(mv.from) || on_line(mv.to) || within(mv.to, 2) || within(mv.from, 1)
    }

    /// The sixty-move rule, and no piece left on either side that could
    /// cross the river (chariot, horse, cannon, soldier).
    fn rule_draw(&self) -> bool {
        use xiangqi::{Color, Role};
        self.halfmove_clock() >= 120
            || [Color::Red, Color::Black].iter().all(|&color| {
                [Role::Chariot, Role::Horse, Role::Cannon, Role::Soldier]
                    .iter()
                    .all(|&role| self.pieces(color, role).is_empty())
            })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use rules::{Position, Settings};

    use super::*;

    fn all_distinct<P: Searchable>(pos: &P) {
        let moves = pos.legal_moves();
        let packed: HashSet<u16> = moves.iter().map(|&mv| P::pack(mv)).collect();
        assert_eq!(packed.len(), moves.len());
        assert!(!packed.contains(&0));
    }

    #[test]
    fn packed_moves_are_distinct_and_non_zero() {
        // Drops of every kind and promotions both ways.
        let sfen = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1";
        let pos = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap();
        all_distinct(&pos);
        all_distinct(&shogi::Position::startpos(
            Variant::Minishogi,
            &Settings::default(),
        ));
        all_distinct(&xiangqi::Position::startpos());
    }

    /// Every legal move that gives check is one `may_give_check` admits.
    fn checks_are_admitted<P: Searchable>(pos: &P) -> usize {
        let mut checks = 0;
        for &mv in &pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            if after.is_check() {
                assert!(pos.may_give_check(mv), "{} gives check", P::to_any(mv));
                checks += 1;
            }
        }
        checks
    }

    #[test]
    fn may_give_check_admits_every_check() {
        // Horse, chariot, cannon (with and without a screen) and soldier
        // checks, a discovered check by a cannon's screen leaving, and a
        // horse whose leg is freed.
        for fen in [
            "3k5/9/4C4/9/2H6/9/9/4R4/9/4K4 w - - 0 1",
            "3k5/4a4/9/3P5/9/9/2H1C4/9/9/3RK4 w - - 0 1",
            "4k4/4a4/3h5/4c4/4P4/9/9/9/9/3K1R3 w - - 0 1",
            // Only a horse's move off the lines; only a leg freed far away.
            "3k5/9/9/9/5H3/9/9/9/9/4K4 w - - 0 1",
            "3k5/2R6/2H6/9/9/9/9/9/9/4K4 w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ] {
            let pos = xiangqi::Position::from_fen(fen).unwrap();
            let mut checks = checks_are_admitted(&pos);
            // And from the other side's view.
            checks += checks_are_admitted(&pos.pass().unwrap());
            assert!(fen.starts_with("rnb") || checks > 0, "{fen}");
        }
        let sfen = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1";
        let pos = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap();
        assert!(checks_are_admitted(&pos) > 0);
    }

    #[test]
    fn may_check_is_exact_for_drops_but_in_annan() {
        // Drops of every kind around a king, in shogi and minishogi: a drop
        // is admitted exactly when it checks.
        for (sfen, variant) in [
            ("4k4/9/4p4/9/2B6/9/9/9/4K4 b RBGSNLP 1", Variant::Shogi),
            ("4k4/9/4p4/9/2B6/9/9/9/4K4 w rbgsnlp 1", Variant::Shogi),
            ("2k2/5/5/5/2K2 b RBGSP 1", Variant::Minishogi),
        ] {
            let pos = shogi::Position::from_sfen(sfen, variant, Default::default()).unwrap();
            let (mut drops, mut checks) = (0, 0);
            for &mv in &pos.legal_moves() {
                if let shogi::Move::Drop { .. } = mv {
                    let mut after = pos.clone();
                    after.play_unchecked(mv);
                    assert_eq!(pos.may_check(mv), after.is_check(), "{sfen}: {mv}");
                    drops += 1;
                    checks += usize::from(after.is_check());
                }
            }
            assert!(
                drops > 50 && checks > 5,
                "{sfen}: {drops} drops, {checks} checks"
            );
        }
        // In annan a pawn dropped before a rook moves like it: a check
        // from afar that an exact test of the pawn alone would miss.
        let sfen = "4k4/9/9/9/9/9/9/4R4/4K4 b P 1";
        let pos = shogi::Position::from_sfen(sfen, Variant::Annan, Default::default()).unwrap();
        let drop = pos.parse_move("P*5g").unwrap();
        let mut after = pos.clone();
        after.play_unchecked(drop);
        assert!(after.is_check() && pos.may_check(drop));
    }

    #[test]
    fn a_sure_move_is_a_legal_one() {
        // Random playouts of the three drop games: whenever a position surely
        // has a move, it has; and the test answers often.
        let mut sure = 0;
        for variant in [Variant::Shogi, Variant::Minishogi, Variant::Annan] {
            for seed in 1..=6u64 {
                let mut random = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let mut pos = shogi::Position::startpos(variant, &Settings::default());
                for _ in 0..200 {
                    let moves = pos.legal_moves();
                    if pos.surely_has_move() {
                        assert!(!moves.is_empty(), "{variant} {pos}");
                        sure += 1;
                    }
                    if moves.is_empty() {
                        break;
                    }
                    random ^= random << 13;
                    random ^= random >> 7;
                    random ^= random << 17;
                    pos.play_unchecked(moves[(random % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(sure > 100, "{sure}");
        // A knight's check cannot be blocked: a gold in hand answers nothing.
        let sfen = "4k4/9/9/9/9/9/3n5/9/4K4 b G 1";
        let checked = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap();
        assert!(checked.is_check() && !checked.surely_has_move());
        let quiet = shogi::Position::from_sfen(
            "4k4/9/9/9/9/9/9/9/4K4 b G 1",
            Variant::Shogi,
            Default::default(),
        )
        .unwrap();
        assert!(quiet.surely_has_move());
        // Nothing in hand, but a piece free to move.
        assert!(shogi::Position::startpos(Variant::Shogi, &Settings::default()).surely_has_move());
        assert!(xiangqi::Position::startpos().surely_has_move());
        // The one piece but the king pinned: no answer, though both can move.
        let pinned = shogi::Position::from_sfen(
            "4r3k/9/9/9/9/9/9/4G4/4K4 b - 1",
            Variant::Shogi,
            Default::default(),
        )
        .unwrap();
        // (The king steps to four squares, the gold along the pin to 5g.)
        assert!(!pinned.surely_has_move());
        assert_eq!(pinned.legal_moves().len(), 4 + 1);
    }

    fn piece_to_is_in_range<P: Searchable>(pos: &P) {
        for &mv in &pos.legal_moves() {
            assert!(pos.piece_to(mv) < P::PIECE_TO);
        }
        let mut passed = pos.pass().unwrap();
        passed = passed.pass().unwrap();
        assert_eq!(passed.key(), pos.key());
    }

    #[test]
    fn piece_to_indexes_a_continuation_row() {
        let sfen = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL w Bb 1";
        let pos = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap();
        piece_to_is_in_range(&pos);
        piece_to_is_in_range(&xiangqi::Position::startpos());
        // The same piece kind to the same square, by a move or a drop, shares an entry.
        let sfen = "4k4/9/9/9/9/9/9/4B4/4K4 b B 1";
        let pos = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap();
        let by_move = pos.parse_move("5h4g").unwrap();
        let by_drop = pos.parse_move("B*4g").unwrap();
        assert_eq!(pos.piece_to(by_move), pos.piece_to(by_drop));
        assert_ne!(
            pos.piece_to(by_move),
            pos.piece_to(pos.parse_move("5h6g").unwrap())
        );
    }

    #[test]
    fn passing_hands_the_move_over() {
        let start = shogi::Position::startpos(Variant::Shogi, &Settings::default());
        let passed = start.pass().unwrap();
        assert_eq!(passed.side_to_move(), start.side_to_move().opponent());
        assert_ne!(passed.key(), start.key());
        let start = xiangqi::Position::startpos();
        assert_eq!(start.pass().unwrap().side_to_move(), rules::Side::Second);
    }

    #[test]
    fn the_correction_key_changes_with_the_pawns_alone() {
        let start = shogi::Position::startpos(Variant::Shogi, &Settings::default());
        let after = |text: &str| {
            let mut pos = start.clone();
            pos.play_unchecked(pos.parse_move(text).unwrap());
            pos.correction_key()
        };
        let keys = ["3i4h", "2h3h", "7g7f", "2g2f"].map(after);
        assert!(start.correction_key().is_some());
        assert_eq!(keys[..2], [start.correction_key(); 2]);
        assert!(keys[2] != start.correction_key() && keys[3] != start.correction_key());
        assert_ne!(keys[2], keys[3]);
        // Whose pawn stands where matters; without pawns there is no key.
        let key = |sfen: &str| {
            let pos = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default());
            pos.unwrap().correction_key()
        };
        assert_ne!(
            key("4k4/9/9/9/4p4/9/9/9/4K4 b - 1"),
            key("4k4/9/9/9/4P4/9/9/9/4K4 b - 1")
        );
        assert_eq!(key("4k4/9/9/9/9/9/9/9/4K4 b P 1"), None);
        assert_eq!(xiangqi::Position::startpos().correction_key(), None);
    }
}
