//! A brute-force solver written from the rules alone, which the search and
//! mate-search tests check the engine against.

use std::collections::HashMap;

use rules::Position;

/// Answers "can the side to move win within N plies" by trying every line.
/// A win leaves the opponent without a legal move, which loses in all four
/// games; answers are remembered by position key and plies.
pub(crate) struct Solver {
    /// Whether the winning side must give check with every move (tsume).
    checks_only: bool,
    memo: HashMap<(u64, u32), bool>,
}

impl Solver {
    /// A solver; with `checks_only` the winning side must check with every
    /// move (tsume).
    pub(crate) fn new(checks_only: bool) -> Self {
        Self {
            checks_only,
            memo: HashMap::new(),
        }
    }

    /// Whether the side to move wins within `plies` plies (odd).
    pub(crate) fn wins_within<P: Position>(&mut self, pos: &P, plies: u32) -> bool {
        if let Some(&known) = self.memo.get(&(pos.key(), plies)) {
            return known;
        }
        let answer = pos
            .legal_moves()
            .into_iter()
            .any(|mv| self.wins_with(pos, mv, plies));
        self.memo.insert((pos.key(), plies), answer);
        answer
    }

    /// Whether `mv` (checking, for tsume) forces a win within `plies` plies.
    pub(crate) fn wins_with<P: Position>(&mut self, pos: &P, mv: P::Move, plies: u32) -> bool {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        if self.checks_only && !next.is_check() {
            return false;
        }
        let replies = next.legal_moves();
        replies.is_empty()
            || plies >= 3
                && replies.iter().all(|&reply| {
                    let mut after = next.clone();
                    after.play_unchecked(reply);
                    self.wins_within(&after, plies - 2)
                })
    }
}
