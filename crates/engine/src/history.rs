//! What the search learns about moves as it goes, for ordering and
//! reductions: butterfly history (how often a quiet move, by its squares,
//! cut off), counter moves (the quiet move that last refuted an opponent's
//! move), continuation history (how well a piece moving to a square did
//! after a given piece moved to a given square one and two plies before),
//! and capture history (how often a piece taking a kind of piece on a
//! square cut off); and, about positions rather than moves, correction
//! history (how far the search's results fell from the static evaluation
//! in positions with the same pawns).
//!
//! The tables are kept from one search of a game to the next, as in
//! Stockfish: what refuted a plan last move usually still does. An engine
//! lends each search thread a set from its [`HistoryPool`] and forgets them
//! all at a new game.

use std::sync::Mutex;

use crate::games::Searchable;
use crate::movepick::Hints;

/// Bound on butterfly history scores.
pub(crate) const HISTORY_MAX: i32 = 1 << 16;
/// Bound on continuation history scores, which fit an `i16`.
pub(crate) const CONTINUATION_MAX: i32 = 1 << 14;
/// Bound on capture history scores, which fit an `i16`.
pub(crate) const CAPTURE_MAX: i32 = 1 << 14;
/// Entries per side in the butterfly and counter-move tables: one per packed move.
const PER_SIDE: usize = 1 << 16;
/// Entries per side in the correction history, by pawn key.
const CORRECTION_SIZE: usize = 1 << 14;
/// Correction history entries are kept in 1/`CORRECTION_GRAIN` centipawns.
const CORRECTION_GRAIN: i32 = 256;
/// Bound on a correction, in centipawns.
const CORRECTION_MAX: i32 = 200;

/// The move tables of one search thread.
pub(crate) struct Histories {
    /// [`Searchable::PIECE_TO`] of the game the tables were laid out for.
    piece_to: usize,
    /// Sente/Red's scores then Gote/Black's, by packed move.
    butterfly: Vec<i32>,
    /// By side and the opponent's packed move, as `butterfly`.
    counter_moves: Vec<u16>,
    /// One row of `piece_to` entries per earlier move (by piece and
    /// destination). Zeroed memory from the allocator: pages a short search
    /// never touches cost nothing.
    continuation: Vec<i16>,
    /// By [`Searchable::capture_index`].
    captures: Vec<i16>,
    /// Sente/Red's corrections then Gote/Black's, by pawn key, in
    /// 1/[`CORRECTION_GRAIN`] centipawns.
    correction: Vec<i32>,
}

/// Where a node stands in the line: what ordering and rewards depend on
/// beyond the move itself.
#[derive(Copy, Clone)]
pub(crate) struct Context {
    /// The side to move (its index).
    pub(crate) us: usize,
    /// The opponent's last move, packed (0: none or the null move).
    pub(crate) previous: u16,
    /// Continuation rows: the moves one and two plies before, by piece and
    /// destination (none after a null move or before the root). (A third,
    /// the side's own move four plies before, as Stockfish keeps, scored
    /// 42/100 against Fairy-Stockfish in shogi at 150,000 nodes a move each
    /// where two rows scored 43/100 on the same openings.)
    pub(crate) rows: [Option<usize>; 2],
}

impl Histories {
    fn new<P: Searchable>() -> Histories {
        Histories {
            piece_to: P::PIECE_TO,
            butterfly: vec![0; 2 * PER_SIDE],
            counter_moves: vec![0; 2 * PER_SIDE],
            continuation: vec![0; P::PIECE_TO * P::PIECE_TO],
            captures: vec![0; P::CAPTURES],
            correction: vec![0; 2 * CORRECTION_SIZE],
        }
    }

    /// What to add to the static evaluation of a position with `us` to
    /// move and pawn key `pawns` ([`Searchable::correction_key`]): how far the
    /// search's results fell from it lately in positions with those pawns
    /// (nothing without a key).
    pub(crate) fn correction(&self, us: usize, pawns: Option<u64>) -> i32 {
        pawns.map_or(0, |pawns| {
            self.correction[correction_index(us, pawns)] / CORRECTION_GRAIN
        })
    }

    /// A search to `depth` found the static evaluation (uncorrected) `error`
    /// short of the node's score (negative: above it). The correction
    /// moves towards the error, the further the deeper the search.
    pub(crate) fn correct(&mut self, us: usize, pawns: u64, error: i32, depth: i32) {
        let entry = &mut self.correction[correction_index(us, pawns)];
        let weight = (depth + 1).min(16);
        let target = error.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        *entry += (target - *entry) * weight / 256;
    }

    /// What move ordering knows at a node: these tables, the table move and the killers.
    /// (Built again for every move a node tries: inlined.)
    #[inline]
    pub(crate) fn hints(&self, at: Context, tt_move: u16, killers: [u16; 2]) -> Hints<'_> {
        let side = at.us * PER_SIDE..(at.us + 1) * PER_SIDE;
        Hints {
            tt_move,
            killers,
            counter_move: self.counter_moves[at.us * PER_SIDE + usize::from(at.previous)],
            history: &self.butterfly[side],
            continuations: at.rows.map(|row| {
                row.map(|row| &self.continuation[row * self.piece_to..(row + 1) * self.piece_to])
            }),
            captures: &self.captures,
        }
    }

    /// A quiet move (packed, and by piece and destination) cut off at
    /// `depth`: it becomes the counter move and its scores rise; those of
    /// the quiet moves `tried` before it fall. Only cut-offs teach these
    /// tables. (Judging the opponent's last quiet move too, by how it moved
    /// the static evaluation, as Stockfish does, scored 13/37 against
    /// Fairy-Stockfish in shogi at 150,000 nodes a move each where this
    /// scored 17/37 on the same openings; stopped there.)
    pub(crate) fn reward(
        &mut self,
        at: Context,
        (packed, piece_to): (u16, usize),
        tried: &[(u16, usize)],
        depth: i32,
    ) {
        if at.previous != 0 {
            self.counter_moves[at.us * PER_SIDE + usize::from(at.previous)] = packed;
        }
        let bonus = bonus(depth);
        let side = &mut self.butterfly[at.us * PER_SIDE..(at.us + 1) * PER_SIDE];
        side[usize::from(packed)] = nudge(side[usize::from(packed)], bonus, HISTORY_MAX);
        for &(mv, _) in tried {
            side[usize::from(mv)] = nudge(side[usize::from(mv)], -bonus, HISTORY_MAX);
        }
        let bonus = bonus * CONTINUATION_MAX / HISTORY_MAX;
        for row in at.rows.into_iter().flatten() {
            let row = &mut self.continuation[row * self.piece_to..(row + 1) * self.piece_to];
            let mut update = |index: usize, delta: i32| {
                row[index] = nudge(i32::from(row[index]), delta, CONTINUATION_MAX) as i16;
            };
            update(piece_to, bonus);
            for &(_, other) in tried {
                update(other, -bonus);
            }
        }
    }

    /// A move cut off at `depth`: if a capture (by
    /// [`Searchable::capture_index`]), its score rises; those of the
    /// captures `tried` before it fall either way.
    pub(crate) fn reward_captures(&mut self, best: Option<usize>, tried: &[usize], depth: i32) {
        let bonus = bonus(depth) * CAPTURE_MAX / HISTORY_MAX;
        let mut update = |index: usize, delta: i32| {
            let entry = &mut self.captures[index];
            *entry = nudge(i32::from(*entry), delta, CAPTURE_MAX) as i16;
        };
        if let Some(best) = best {
            update(best, bonus);
        }
        for &index in tried {
            update(index, -bonus);
        }
    }
}

/// The correction history entry of side `us` for pawn key `pawns`.
fn correction_index(us: usize, pawns: u64) -> usize {
    us * CORRECTION_SIZE + (pawns as usize & (CORRECTION_SIZE - 1))
}

/// What a cutoff at `depth` adds to a butterfly history score: a deep
/// cutoff teaches more, up to a fifth of the range at once.
fn bonus(depth: i32) -> i32 {
    (1500 * depth - 800).min(HISTORY_MAX / 5)
}

/// `entry` moved by `delta`, less the closer it already is to ±`max`
/// ("gravity"), so that it stays within ±`max`.
fn nudge(entry: i32, delta: i32, max: i32) -> i32 {
    entry + delta - entry * delta.abs() / max
}

/// The tables of an engine's search threads between searches.
#[derive(Default)]
pub(crate) struct HistoryPool(Mutex<Vec<Histories>>);

impl HistoryPool {
    /// A set of tables for a search of game `P`: one kept from an earlier
    /// search of the same game, or a new one.
    pub(crate) fn take<P: Searchable>(&self) -> Histories {
        let mut pool = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match pool
            .iter()
            .position(|tables| tables.piece_to == P::PIECE_TO)
        {
            Some(index) => pool.swap_remove(index),
            None => Histories::new::<P>(),
        }
    }

    /// Keeps `tables` for the next search.
    pub(crate) fn give(&self, tables: Histories) {
        let mut pool = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        pool.push(tables);
    }

    /// Forgets everything learned (a new game).
    pub(crate) fn clear(&self) {
        let mut pool = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        pool.clear();
    }
}

#[cfg(test)]
mod tests {
    use rules::{Position as _, Settings, Variant, shogi};

    use super::*;

    #[test]
    fn a_cutoff_raises_the_move_and_lowers_those_tried_before() {
        let pos = shogi::Position::startpos(Variant::Shogi, &Settings::default());
        let moves = pos.legal_moves();
        let (good, bad) = (moves[0], moves[1]);
        let entry = |mv| (shogi::Position::pack(mv), pos.piece_to(mv));
        let pool = HistoryPool::default();
        let mut tables = pool.take::<shogi::Position>();
        let at = Context {
            us: 0,
            previous: 0x8001,
            rows: [Some(7), None],
        };
        for _ in 0..100 {
            tables.reward(at, entry(good), &[entry(bad)], 20);
        }
        let hints = tables.hints(at, 0, [0; 2]);
        let (good_score, bad_score) = (hints.quiet_score(&pos, good), hints.quiet_score(&pos, bad));
        assert!(good_score > 0 && bad_score < 0, "{good_score} {bad_score}");
        // Gravity: bounded by the butterfly and one continuation row.
        assert!(good_score <= HISTORY_MAX + HISTORY_MAX);
        assert_eq!(hints.counter_move, shogi::Position::pack(good));
        // The other side's butterfly table learned nothing (continuation
        // rows tell the sides apart by the pieces' colours).
        let theirs = tables.hints(
            Context {
                us: 1,
                rows: [None; 2],
                ..at
            },
            0,
            [0; 2],
        );
        assert_eq!(theirs.quiet_score(&pos, good), 0);
        // Kept for the next search of the game, forgotten at a new game.
        pool.give(tables);
        let kept = pool.take::<shogi::Position>();
        assert!(kept.hints(at, 0, [0; 2]).quiet_score(&pos, good) > 0);
        pool.give(kept);
        pool.clear();
        let fresh = pool.take::<shogi::Position>();
        assert_eq!(fresh.hints(at, 0, [0; 2]).quiet_score(&pos, good), 0);
    }

    #[test]
    fn the_correction_follows_the_errors_found_within_its_bound() {
        let mut tables = HistoryPool::default().take::<shogi::Position>();
        let pawns = 0x1234_5678_9abc_def0;
        // A shallow search moves it a little, a deep one more.
        tables.correct(0, pawns, 150, 3);
        let shallow = tables.correction(0, Some(pawns));
        tables.correct(0, pawns + 1, 150, 20);
        let deep = tables.correction(0, Some(pawns + 1));
        assert!(
            0 < shallow && shallow < deep && deep < 150,
            "{shallow} {deep}"
        );
        // Repeated errors pull it to them, but no further than its bound.
        for _ in 0..200 {
            tables.correct(0, pawns, 60, 12);
            tables.correct(1, pawns, 10_000, 12);
        }
        assert!((58..=60).contains(&tables.correction(0, Some(pawns))));
        assert!((CORRECTION_MAX - 2..=CORRECTION_MAX).contains(&tables.correction(1, Some(pawns))));
        // Errors the other way bring it back.
        for _ in 0..200 {
            tables.correct(0, pawns, -30, 12);
        }
        assert!((-30..=-28).contains(&tables.correction(0, Some(pawns))));
        assert_eq!(tables.correction(0, None), 0);
    }
}
