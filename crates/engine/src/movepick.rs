//! Move ordering: the order in which a node tries its moves.
//!
//! The rules library generates all legal moves at once (quiescence only
//! the captures and promotions), into the picker where it stands. The
//! transposition-table move comes out first, before the others are scored;
//! then ordering scores the captures and promotions, and the quiet moves
//! only once those run out (staged), and hands them out best first, equal
//! scores in the order they were generated (the first few picked one at a
//! time, the rest sorted at once when a node gets that far): winning and equal
//! captures by most valuable victim / least valuable attacker and by
//! capture history, then promotions, the two killer moves of the ply, the
//! counter move (the quiet move that last refuted the opponent's previous
//! move), captures that lose material by static exchange evaluation
//! ([`see`](crate::see)), and the remaining quiet moves by history: how
//! often the move cut off before (butterfly history), and how often it did
//! after the same piece moved to the same square one and two plies before
//! (continuation history). Quiescence takes only the tactical stage
//! ([`MovePicker::next_tactical`]), so it never tries a losing capture and
//! never scores a quiet move.

use arrayvec::ArrayVec;
use rules::{MAX_LEGAL_MOVES, MoveList, MoveSet};

use crate::games::Searchable;
use crate::history::{CONTINUATION_MAX, HISTORY_MAX};

const TT_MOVE: i32 = 1 << 24;
const CAPTURE: i32 = 1 << 22;
const PROMOTION: i32 = 1 << 21;
const KILLER: [i32; 2] = [(1 << 20) + 1, 1 << 20];
const COUNTER_MOVE: i32 = (1 << 20) - 1;
/// Losing captures: below the killers, above every history score.
const LOSING_CAPTURE: i32 = 1 << 19;

/// A capture history score counts this fraction among the captures: a
/// tie-breaker. At a half it ranked a pawn capture with a good history above
/// a silver capture, and lost (shogi, 14–23–3 at equal time).
const CAPTURE_HISTORY_DIVISOR: i32 = 8;

/// A continuation history score counts this many times in the sum, which
/// stays below the losing captures.
const CONTINUATION_WEIGHT: i32 = HISTORY_MAX / CONTINUATION_MAX;

/// The first moves are picked one at a time (a selection sort), as a node
/// that cuts off mostly does so early; a node that gets this far usually
/// tries all its moves, and the rest are sorted at once.
const SELECTED: usize = 3;

/// What ordering knows beyond the position: the move tables of the worker.
pub(crate) struct Hints<'a> {
    /// The transposition table's move here, packed (0: none).
    pub(crate) tt_move: u16,
    /// Quiet moves that cut off at this ply elsewhere in the tree.
    pub(crate) killers: [u16; 2],
    /// The quiet move that last refuted the previous move (0: none).
    pub(crate) counter_move: u16,
    /// History scores of quiet moves for the side to move, by packed move.
    pub(crate) history: &'a [i32],
    /// Continuation history rows of the moves one and two plies before,
    /// by [`Searchable::piece_to`] (none after a null move or at the root).
    pub(crate) continuations: [Option<&'a [i16]>; 2],
    /// Capture history scores, by [`Searchable::capture_index`].
    pub(crate) captures: &'a [i16],
}

impl Hints<'_> {
    /// The history of quiet move `mv`: butterfly and continuation together.
    #[inline]
    pub(crate) fn quiet_score<P: Searchable>(&self, pos: &P, mv: P::Move) -> i32 {
        let mut score = self.history[usize::from(P::pack(mv))];
        if self.continuations.iter().any(Option::is_some) {
            let piece_to = pos.piece_to(mv);
            for row in self.continuations.into_iter().flatten() {
                score += CONTINUATION_WEIGHT * i32::from(row[piece_to]);
            }
        }
        score
    }
}

/// The moves of one node, handed out best first.
///
/// A node's picker is generated into and ordered in place: the lists are a
/// few kilobytes, and copying them per node costs more than generating.
///
/// Ordering is staged: after the table's move, the captures and promotions
/// are split from the quiet moves and scored alone, and handed out while
/// they beat every quiet move. Only then are the quiet moves scored (with
/// the histories as the node's earlier moves left them) and handed out with
/// the losing captures. A node that cuts off on a capture, and quiescence,
/// which never gets that far, never score a quiet move: in the drop games
/// they are most of the list.
pub(crate) struct MovePicker<M> {
    moves: MoveList<M>,
    scores: ArrayVec<i32, MAX_LEGAL_MOVES>,
    next: usize,
    /// Where the quiet moves start once the captures and promotions are
    /// split from them (`None` before).
    quiets: Option<usize>,
    /// Where the moves handed out with the quiet moves start, once those
    /// are scored (`None` before).
    merged: Option<usize>,
}

impl<M: Copy> MovePicker<M> {
    /// No moves yet: [`generate`](Self::generate) fills the picker where
    /// it stands, so that the lists are never copied.
    #[inline(always)]
    pub(crate) fn new() -> MovePicker<M> {
        MovePicker {
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            quiets: None,
            merged: None,
        }
    }

    /// Adds the legal moves of `set` in `pos`, not ordered yet.
    pub(crate) fn generate<P: Searchable<Move = M>>(&mut self, pos: &P, set: MoveSet) {
        pos.generate_moves(set, &mut self.moves);
    }

    /// Whether there is no move at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next best move and its ordering score. The table's move comes
    /// first, before the others are even scored: when it cuts off, as it
    /// mostly does, they never are; when it does not, they are scored with
    /// the histories its search taught.
    pub(crate) fn next<P: Searchable<Move = M>>(
        &mut self,
        pos: &P,
        hints: &Hints<'_>,
    ) -> Option<(M, i32)> {
        if self.next == 0 && hints.tt_move != 0 && self.quiets.is_none() {
            if let Some(at) = self
                .moves
                .iter()
                .position(|&mv| P::pack(mv) == hints.tt_move)
            {
                self.moves.swap(0, at);
                self.scores.push(TT_MOVE);
                self.next = 1;
                return Some((self.moves[0], TT_MOVE));
            }
        }
        if let Some(tactical) = self.next_tactical(pos, hints) {
            return Some(tactical);
        }
        let merged = match self.merged {
            Some(merged) => merged,
            None => {
                self.score_up_to(self.moves.len(), pos, hints);
                *self.merged.insert(self.next)
            }
        };
        if self.next >= self.moves.len() {
            return None;
        }
        if self.next < merged + SELECTED {
            self.select(self.moves.len());
        } else if self.next == merged + SELECTED {
            self.sort_rest();
        }
        Some(self.hand_out())
    }

    /// The next capture or promotion that beats every quiet move (a
    /// winning or equal capture, or a promotion), or `None` when none is
    /// left; the quiet moves are not scored.
    pub(crate) fn next_tactical<P: Searchable<Move = M>>(
        &mut self,
        pos: &P,
        hints: &Hints<'_>,
    ) -> Option<(M, i32)> {
        if self.merged.is_some() {
            return None;
        }
        let quiets = match self.quiets {
            Some(quiets) => quiets,
            None => self.split_tactical(pos, hints),
        };
        if self.next >= quiets {
            return None;
        }
        self.select(quiets);
        if !is_tactical(self.scores[self.next]) {
            return None;
        }
        Some(self.hand_out())
    }

    /// Moves the captures and promotions not handed out yet before the
    /// quiet moves, each in the order generated, and scores them; returns
    /// where the quiet moves start.
    fn split_tactical<P: Searchable<Move = M>>(&mut self, pos: &P, hints: &Hints<'_>) -> usize {
        let start = self.scores.len();
        let mut quiet: MoveList<M> = MoveList::new();
        let mut end = start;
        for at in start..self.moves.len() {
            let mv = self.moves[at];
            if pos.captured_value(mv).is_some() || pos.is_promotion(mv) {
                self.moves[end] = mv;
                end += 1;
            } else {
                quiet.push(mv);
            }
        }
        self.moves[end..].copy_from_slice(&quiet);
        self.score_up_to(end, pos, hints);
        *self.quiets.insert(end)
    }

    /// Scores the moves not scored yet, up to `end`.
    fn score_up_to<P: Searchable<Move = M>>(&mut self, end: usize, pos: &P, hints: &Hints<'_>) {
        let unscored = &self.moves[self.scores.len()..end];
        self.scores
            .extend(unscored.iter().map(|&mv| score(pos, mv, hints)));
    }

    /// The move at `next` and its score, now handed out.
    fn hand_out(&mut self) -> (M, i32) {
        self.next += 1;
        (self.moves[self.next - 1], self.scores[self.next - 1])
    }

    /// Brings the best scored move of those from `next` to `end` to `next`.
    /// Rotated, not swapped, into place: equal scores keep the order they
    /// were generated in.
    fn select(&mut self, end: usize) {
        let mut best = self.next;
        for i in self.next + 1..end {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves[self.next..=best].rotate_right(1);
        self.scores[self.next..=best].rotate_right(1);
    }

    /// Orders the moves not handed out yet, best first, equal scores in
    /// the order they were generated. Each move's key is its score (high
    /// bits, inverted: best first) and its place (low bits), so the keys are
    /// distinct and an unstable sort (in place, no allocation) gives the
    /// stable order; an insertion sort of the hundred-odd quiet moves of a
    /// shogi node cost a twelfth of the search.
    ///
    /// Never inlined: its two lists live only while it runs, not in the
    /// frame of every node of the search.
    #[inline(never)]
    fn sort_rest(&mut self) {
        let start = self.next;
        // Filled where they stand: an `ArrayVec` returned by `collect` is
        // copied whole.
        let mut keys: ArrayVec<u64, MAX_LEGAL_MOVES> = ArrayVec::new();
        let mut moves: MoveList<M> = MoveList::new();
        for (at, (&mv, &score)) in self.moves[start..]
            .iter()
            .zip(&self.scores[start..])
            .enumerate()
        {
            keys.push(u64::from(!order_bits(score)) << 32 | at as u64);
            moves.push(mv);
        }
        keys.sort_unstable();
        for ((mv, score), key) in self.moves[start..]
            .iter_mut()
            .zip(&mut self.scores[start..])
            .zip(&keys)
        {
            *mv = moves[(key & u64::from(u32::MAX)) as usize];
            *score = score_of_bits(!((key >> 32) as u32));
        }
    }

    /// The moves not handed out yet: after [`next_tactical`](Self::next_tactical)
    /// has run out, the losing captures and the quiet moves, each in the
    /// order generated.
    pub(crate) fn rest(&self) -> &[M] {
        &self.moves[self.next..]
    }
}

/// An ordering score as bits that compare as the scores do (the sign bit
/// flipped).
fn order_bits(score: i32) -> u32 {
    score as u32 ^ 1 << 31
}

/// The score whose [`order_bits`] are `bits`.
fn score_of_bits(bits: u32) -> i32 {
    (bits ^ 1 << 31) as i32
}

/// Whether an ordering score is that of a capture or promotion (a "tactical" move).
pub(crate) fn is_tactical(score: i32) -> bool {
    (PROMOTION..TT_MOVE).contains(&score)
}

/// Whether an ordering score is that of a killer or the counter move.
pub(crate) fn is_refutation(score: i32) -> bool {
    (COUNTER_MOVE..PROMOTION).contains(&score)
}

/// Whether an ordering score is that of a capture that loses material.
pub(crate) fn is_losing_capture(score: i32) -> bool {
    (LOSING_CAPTURE / 2..COUNTER_MOVE).contains(&score)
}

fn score<P: Searchable>(pos: &P, mv: P::Move, hints: &Hints<'_>) -> i32 {
    let packed = P::pack(mv);
    if packed == hints.tt_move {
        return TT_MOVE;
    }
    if let Some(victim) = pos.captured_value(mv) {
        let see = pos.see(mv);
        return if see >= 0 {
            CAPTURE + victim * 16 - pos.mover_value(mv) / 16
                + i32::from(hints.captures[pos.capture_index(mv)]) / CAPTURE_HISTORY_DIVISOR
        } else {
            LOSING_CAPTURE + see.max(-LOSING_CAPTURE / 2)
        };
    }
    if pos.is_promotion(mv) {
        return PROMOTION;
    }
    if let Some(slot) = hints.killers.iter().position(|&k| k == packed) {
        return KILLER[slot];
    }
    if packed == hints.counter_move {
        return COUNTER_MOVE;
    }
    hints.quiet_score(pos, mv)
}

#[cfg(test)]
mod tests {
    use rules::{MoveSet, Position as _, Variant, shogi};

    use super::*;
    use crate::eval::Evaluate;

    /// Hints with no table move, killer or counter move.
    fn shogi_position(sfen: &str) -> shogi::Position {
        shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap()
    }

    /// A butterfly history and a capture history with nothing learnt yet.
    fn empty_tables() -> (Vec<i32>, Vec<i16>) {
        (vec![0; 1 << 16], vec![0; shogi::Position::CAPTURES])
    }

    fn bare<'a>(history: &'a [i32], captures: &'a [i16]) -> Hints<'a> {
        Hints {
            tt_move: 0,
            killers: [0; 2],
            counter_move: 0,
            history,
            continuations: [None; 2],
            captures,
        }
    }

    /// A picker of every legal move of `pos`.
    fn ordered(pos: &shogi::Position) -> MovePicker<shogi::Move> {
        let mut picker = MovePicker::new();
        picker.generate(pos, MoveSet::All);
        picker
    }

    #[test]
    fn the_table_move_comes_first_and_the_others_are_scored_after_it() {
        let pos = shogi_position("4k4/9/9/9/9/9/9/9/K7S b - 1");
        let mv = |text: &str| pos.parse_move(text).unwrap();
        let captures = vec![0; shogi::Position::CAPTURES];
        let history = vec![0; 1 << 16];
        let mut picker = ordered(&pos);
        let tt_move = shogi::Position::pack(mv("9i8h"));
        let before = Hints {
            tt_move,
            ..bare(&history, &captures)
        };
        assert_eq!(picker.next(&pos, &before), Some((mv("9i8h"), TT_MOVE)));
        // The table move's search taught that 1i2h is good; the others are
        // scored only now, with what it taught.
        let mut taught = history.clone();
        taught[usize::from(shogi::Position::pack(mv("1i2h")))] = 500;
        let after = Hints {
            tt_move,
            ..bare(&taught, &captures)
        };
        assert_eq!(
            picker.next(&pos, &after).map(|(mv, _)| mv),
            Some(mv("1i2h"))
        );
    }

    #[test]
    fn capture_history_orders_captures_of_equal_material() {
        // Silvers on 6f and 4f can each take an undefended pawn.
        let pos = shogi_position("4k4/9/9/9/3p1p3/3S1S3/9/9/4K4 b - 1");
        let history = vec![0; 1 << 16];
        for favoured in ["6f6e", "4f4e"] {
            let mv = pos.parse_move(favoured).unwrap();
            let mut captures = vec![0; shogi::Position::CAPTURES];
            captures[pos.capture_index(mv)] = 1000;
            let hints = bare(&history, &captures);
            let mut picker = ordered(&pos);
            assert_eq!(picker.next(&pos, &hints).map(|(first, _)| first), Some(mv));
        }
    }

    #[test]
    fn captures_come_first_most_valuable_victim_first() {
        // Sente's pawn on 5e can take a pawn (5d); the rook on 2h can take a rook (2c).
        let pos = shogi_position("4k4/9/7r1/4p4/4P4/9/9/7R1/4K4 b - 1");
        let (history, captures) = empty_tables();
        let hints = bare(&history, &captures);
        let mut picker = ordered(&pos);
        let (first, score) = picker.next(&pos, &hints).unwrap();
        let (second, _) = picker.next(&pos, &hints).unwrap();
        let mut rook_takes = [first.to_string(), second.to_string()];
        rook_takes.sort();
        assert_eq!(rook_takes, ["2h2c", "2h2c+"]);
        assert!(is_tactical(score));
        let (third, _) = picker.next(&pos, &hints).unwrap();
        assert_eq!(third.to_string(), "5e5d");
        let (_, quiet) = picker.next(&pos, &hints).unwrap();
        assert!(!is_tactical(quiet));
    }

    #[test]
    fn the_counter_move_comes_after_the_killers_then_history_orders_quiets() {
        let pos = shogi_position("4k4/9/9/9/9/9/9/9/K7S b - 1");
        let packed = |text: &str| shogi::Position::pack(pos.parse_move(text).unwrap());
        let mut history = vec![0; 1 << 16];
        history[usize::from(packed("1i2h"))] = 500;
        history[usize::from(packed("9i8h"))] = 100;
        let captures = vec![0; shogi::Position::CAPTURES];
        let hints = Hints {
            killers: [packed("9i9h"), 0],
            counter_move: packed("1i1h"),
            ..bare(&history, &captures)
        };
        let mut picker = ordered(&pos);
        let mut next = || {
            let (mv, score) = picker.next(&pos, &hints).unwrap();
            (mv.to_string(), is_refutation(score))
        };
        assert_eq!(next(), ("9i9h".to_owned(), true));
        assert_eq!(next(), ("1i1h".to_owned(), true));
        assert_eq!(next(), ("1i2h".to_owned(), false));
        assert_eq!(next(), ("9i8h".to_owned(), false));
    }

    #[test]
    fn every_move_comes_out_best_first_ties_in_generation_order() {
        // A king, a gold and a silver: 10 quiet moves.
        let pos = shogi_position("4k4/9/9/9/9/9/9/9/K3G3S b - 1");
        let generated = pos.legal_moves();
        assert_eq!(generated.len(), 10);
        // Every other move has a history, rising along the generated order;
        // the others tie at 0.
        let mut history = vec![0; 1 << 16];
        for (n, &mv) in generated.iter().enumerate().filter(|(n, _)| n % 2 == 1) {
            history[usize::from(shogi::Position::pack(mv))] = 10 * n as i32;
        }
        let captures = vec![0; shogi::Position::CAPTURES];
        let hints = bare(&history, &captures);
        let mut picker = ordered(&pos);
        let picked: Vec<_> = std::iter::from_fn(|| picker.next(&pos, &hints)).collect();
        assert_eq!(picked.len(), generated.len());
        assert!(picked.windows(2).all(|pair| pair[0].1 >= pair[1].1));
        let ties: Vec<_> = picked
            .iter()
            .filter(|&&(_, score)| score == 0)
            .map(|&(mv, _)| mv)
            .collect();
        let in_generation_order: Vec<_> = generated.iter().step_by(2).copied().collect();
        assert_eq!(ties, in_generation_order);
    }

    #[test]
    fn a_losing_capture_comes_after_the_killers() {
        // The rook on 5h can take the pawn on 5d, which the gold on 5c defends
        // (SEE: -1835); 1i1h is a killer.
        let pos = shogi_position("4k4/9/4g4/4p4/9/9/9/4R4/K7S b - 1");
        let (history, captures) = empty_tables();
        let killer = pos.parse_move("1i1h").unwrap();
        let hints = Hints {
            killers: [shogi::Position::pack(killer), 0],
            ..bare(&history, &captures)
        };
        let mut picker = ordered(&pos);
        let (first, _) = picker.next(&pos, &hints).unwrap();
        assert_eq!(first, killer);
        let (second, score) = picker.next(&pos, &hints).unwrap();
        assert_eq!(second.to_string(), "5h5d");
        assert!(!is_tactical(score), "quiescence must not try it");
        assert!(is_losing_capture(score));
        let (_, quiet) = picker.next(&pos, &hints).unwrap();
        assert!(!is_losing_capture(quiet) && !is_refutation(quiet));
    }

    #[test]
    fn quiet_moves_are_scored_only_once_the_captures_that_beat_them_are_tried() {
        // The rook on 2h takes the pawn on 2c, promoting or not; the king
        // and the silver have quiet moves.
        let pos = shogi_position("4k4/9/7p1/9/9/9/9/7R1/K7S b - 1");
        let captures = vec![0; shogi::Position::CAPTURES];
        let history = vec![0; 1 << 16];
        let mut picker = ordered(&pos);
        let (first, _) = picker.next(&pos, &bare(&history, &captures)).unwrap();
        let (second, _) = picker.next(&pos, &bare(&history, &captures)).unwrap();
        let mut takes = [first.to_string(), second.to_string()];
        takes.sort();
        assert_eq!(takes, ["2h2c", "2h2c+"]);
        // The history the captures' searches taught orders the quiet moves:
        // the last one generated comes first.
        let mut taught = history.clone();
        let quiet = pos.legal_moves();
        let favoured = *quiet
            .iter()
            .rfind(|&&mv| pos.captured_value(mv).is_none())
            .unwrap();
        taught[usize::from(shogi::Position::pack(favoured))] = 500;
        let (third, _) = picker.next(&pos, &bare(&taught, &captures)).unwrap();
        assert_eq!(third, favoured);
    }

    #[test]
    fn the_tactical_stage_stops_before_losing_captures_and_leaves_the_rest() {
        // The rook's one capture, on 5d, loses it to the gold on 5c.
        let pos = shogi_position("4k4/9/4g4/4p4/9/9/9/4R4/K7S b - 1");
        let (history, captures) = empty_tables();
        let hints = bare(&history, &captures);
        let mut picker = ordered(&pos);
        let generated = pos.legal_moves();
        let mut tactical = Vec::new();
        while let Some((mv, score)) = picker.next_tactical(&pos, &hints) {
            assert!(is_tactical(score));
            tactical.push(mv);
        }
        assert!(
            tactical.is_empty(),
            "the rook's one capture loses: {tactical:?}"
        );
        // Every move is left, the losing capture among them, each in the
        // order generated.
        let rest: Vec<_> = picker.rest().to_vec();
        assert_eq!(rest.len(), generated.len());
        let quiet: Vec<_> = generated
            .iter()
            .copied()
            .filter(|&mv| pos.captured_value(mv).is_none())
            .collect();
        let rest_quiet: Vec<_> = rest
            .iter()
            .copied()
            .filter(|&mv| pos.captured_value(mv).is_none())
            .collect();
        assert_eq!(rest_quiet, quiet);
        // The full picker then hands the losing capture out after the killers.
        let (next, score) = picker.next(&pos, &hints).unwrap();
        assert_eq!(next.to_string(), "5h5d");
        assert!(is_losing_capture(score));
    }
}
