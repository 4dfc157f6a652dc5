//! Mate search (tsume): does the side to move mate by checking with every
//! move, and in how few plies?
//!
//! An AND/OR proof search: at an OR node the attacker tries its checking
//! moves (the mate needs one that works), at an AND node the defender tries
//! every legal reply (the mate needs all of them to fail). Iterative
//! deepening over odd depths finds the shortest mate first; a table keeps,
//! per position, the smallest depth proved to mate and the largest proved
//! not to, so the next iteration and transpositions skip work. Checks are
//! tried fewest replies first (what df-pn's first proof numbers would
//! say), replies captures first, then king moves, then interpositions.
//!
//! Legality, uchifuzume (no mate by a pawn drop) included, is the rules
//! library's: a pawn drop that would mate is simply not a legal move.
//! A position repeated on the current line ends that line unproved (a
//! shortest mate never repeats a position, and a perpetual check loses)
//! without counting as a depth cut-off, so a search in which no line was
//! cut off proves that there is no mate at all. Such a failure depends on
//! the line that led to it, so the table keeps it only as a bound on the
//! depth, and reusing it counts as a cut-off.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rules::MoveList;

use crate::games::Searchable;

/// The longest mate searched for, in plies.
pub(crate) const MAX_MATE_PLIES: u32 = 95;

/// Table entries kept before the table is cleared.
const TABLE_LIMIT: usize = 4_000_000;

/// The answer of a mate search.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum MateResult<M> {
    /// A mate: the attacker's and defender's moves to it, the defender
    /// resisting as long as it can.
    Mate(Vec<M>),
    /// Proved: no sequence of checks mates.
    NoMate,
    /// The time ran out, or the search was stopped, before an answer.
    Timeout,
}

/// What the table knows of a position.
#[derive(Copy, Clone, Debug)]
struct Entry {
    /// The smallest depth known to mate from here (`u32::MAX`: none).
    proven: u32,
    /// The largest depth known not to mate from here.
    disproven: Option<u32>,
    /// Known not to mate at any depth.
    absolute: bool,
}

impl Default for Entry {
    fn default() -> Entry {
        Entry {
            proven: u32::MAX,
            disproven: None,
            absolute: false,
        }
    }
}

/// The outcome of one node.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Node {
    /// Mate within the depth.
    Proven,
    /// No mate within the depth; `cut` if some line reached the depth limit,
    /// `repeated` if some line ended in a repetition.
    Failed { cut: bool, repeated: bool },
    /// Time out or stop.
    Aborted,
}

/// No mate, whatever the depth.
const FAILED: Node = Node::Failed {
    cut: false,
    repeated: false,
};
/// No mate within the depth, maybe deeper.
const CUT: Node = Node::Failed {
    cut: true,
    repeated: false,
};
/// The line repeated a position.
const REPEATED: Node = Node::Failed {
    cut: false,
    repeated: true,
};

/// One mate search.
pub(crate) struct MateSearch<'a, P: Searchable> {
    table: HashMap<u64, Entry>,
    /// Keys of the positions on the current line.
    line: Vec<u64>,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    nodes: u64,
    aborted: bool,
    _game: core::marker::PhantomData<P>,
}

impl<'a, P: Searchable> MateSearch<'a, P> {
    /// A search that ends when `stop` is set or at `deadline`.
    pub(crate) fn new(stop: &'a AtomicBool, deadline: Option<Instant>) -> Self {
        MateSearch {
            table: HashMap::new(),
            line: Vec::new(),
            stop,
            deadline,
            nodes: 0,
            aborted: false,
            _game: core::marker::PhantomData,
        }
    }

    /// Searches `root` for a mate by the side to move of at most `max_plies` plies.
    pub(crate) fn solve(&mut self, root: &P, max_plies: u32) -> MateResult<P::Move> {
        let mut depth = 1;
        while depth <= max_plies {
            match self.or_node(root, depth) {
                Node::Proven => {
                    return match self.principal_variation(root, depth) {
                        Some(pv) => MateResult::Mate(pv),
                        None => MateResult::Timeout,
                    };
                }
                Node::Failed { cut: false, .. } => return MateResult::NoMate,
                Node::Failed { cut: true, .. } => depth += 2,
                Node::Aborted => return MateResult::Timeout,
            }
        }
        MateResult::Timeout
    }

    /// Counts a node; whether the search must end.
    fn count(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes % 1024 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self
                    .deadline
                    .is_some_and(|deadline| Instant::now() >= deadline))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// What the table says of `key` at `depth`, if it decides the node.
    fn probe(&self, key: u64, depth: u32) -> Option<Node> {
        let entry = self.table.get(&key)?;
        if entry.proven <= depth {
            Some(Node::Proven)
        } else if entry.absolute {
            Some(FAILED)
        } else if entry.disproven.is_some_and(|known| known >= depth) {
            Some(CUT)
        } else {
            None
        }
    }

    fn store(&mut self, key: u64, depth: u32, node: Node) {
        if self.table.len() >= TABLE_LIMIT {
            self.table.clear();
        }
        let entry = self.table.entry(key).or_default();
        match node {
            Node::Proven => entry.proven = entry.proven.min(depth),
            Node::Failed { cut, repeated } => {
                entry.disproven = Some(entry.disproven.map_or(depth, |known| known.max(depth)));
                entry.absolute |= !cut && !repeated;
            }
            Node::Aborted => {}
        }
    }

    /// What is settled about the position `key` before expanding it: the
    /// search stopped, the table's answer, or a repetition on the line.
    fn known(&mut self, key: u64, depth: u32) -> Option<Node> {
        if self.count() {
            return Some(Node::Aborted);
        }
        if let Some(known) = self.probe(key, depth) {
            return Some(known);
        }
        self.line.contains(&key).then_some(REPEATED)
    }

    /// The attacker to move: is there a check after which every reply is
    /// mated within `depth - 1` plies?
    fn or_node(&mut self, pos: &P, depth: u32) -> Node {
        let key = pos.key();
        if let Some(known) = self.known(key, depth) {
            return known;
        }
        // Each check with its replies, fewest replies first.
        let mut checks: Vec<(P, MoveList<P::Move>)> = Vec::new();
        for mv in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if !child.is_check() {
                continue;
            }
            let replies = child.legal_moves();
            if replies.is_empty() {
                self.store(key, 1, Node::Proven);
                return Node::Proven;
            }
            checks.push((child, replies));
        }
        if checks.is_empty() {
            self.store(key, depth, FAILED);
            return FAILED;
        }
        if depth < 3 {
            // A mate in one would have been found above.
            self.store(key, depth, CUT);
            return CUT;
        }
        checks.sort_by_key(|(_, replies)| replies.len());
        self.line.push(key);
        let mut result = FAILED;
        for (child, replies) in &checks {
            match (self.and_node(child, replies, depth - 1), &mut result) {
                (Node::Proven, _) => {
                    result = Node::Proven;
                    break;
                }
                (
                    Node::Failed { cut, repeated },
                    Node::Failed {
                        cut: any_cut,
                        repeated: any,
                    },
                ) => {
                    *any_cut |= cut;
                    *any |= repeated;
                }
                (Node::Aborted, _) => {
                    result = Node::Aborted;
                    break;
                }
                (Node::Failed { .. }, _) => {}
            }
        }
        self.line.pop();
        self.store(key, depth, result);
        result
    }

    /// The defender to move, in check, with `replies`: is every reply mated
    /// within `depth - 1` plies?
    fn and_node(&mut self, pos: &P, replies: &MoveList<P::Move>, depth: u32) -> Node {
        let key = pos.key();
        if let Some(known) = self.known(key, depth) {
            return known;
        }
        // Captures first, then king moves, then interpositions.
        let mut children: Vec<(u8, P)> = replies
            .iter()
            .map(|&mv| {
                let rank = if pos.captured_value(mv).is_some() {
                    0
                } else if pos.mover_value(mv) == 0 {
                    1
                } else {
                    2
                };
                let mut child = pos.clone();
                child.play_unchecked(mv);
                (rank, child)
            })
            .collect();
        children.sort_by_key(|(rank, _)| *rank);
        self.line.push(key);
        let mut result = Node::Proven;
        for (_, child) in &children {
            match self.or_node(child, depth - 1) {
                Node::Proven => {}
                failed_or_aborted => {
                    result = failed_or_aborted;
                    break;
                }
            }
        }
        self.line.pop();
        self.store(key, depth, result);
        result
    }

    /// The smallest depth (odd, at most `max`) at which the attacker to move
    /// in `pos` mates, searched again with the table's help.
    fn mate_depth(&mut self, pos: &P, max: u32) -> Option<u32> {
        (1..=max)
            .step_by(2)
            .find(|&depth| self.or_node(pos, depth) == Node::Proven)
    }

    /// The mating line from `root`, proved at `depth`: the attacker's
    /// quickest check, the defender's longest resistance. `None` if the
    /// search was stopped meanwhile.
    fn principal_variation(&mut self, root: &P, depth: u32) -> Option<Vec<P::Move>> {
        let mut pv = Vec::new();
        let mut pos = root.clone();
        let mut depth = depth;
        loop {
            // Attacker: the check whose replies are all mated soonest.
            let mut best: Option<(u32, P::Move, P)> = None;
            for mv in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                if !child.is_check() {
                    continue;
                }
                let replies = child.legal_moves();
                let needed = if replies.is_empty() {
                    Some(1)
                } else {
                    (3..=depth)
                        .step_by(2)
                        .find(|&d| self.and_node(&child, &replies, d - 1) == Node::Proven)
                };
                if self.aborted {
                    return None;
                }
                if let Some(needed) = needed {
                    if best.as_ref().is_none_or(|(known, ..)| needed < *known) {
                        best = Some((needed, mv, child));
                    }
                }
            }
            let (needed, mv, after) = best?;
            pv.push(mv);
            pos = after;
            depth = needed - 1;
            // Defender: the reply that takes longest to mate.
            let mut longest: Option<(u32, P::Move, P)> = None;
            for reply in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(reply);
                let needed = self.mate_depth(&child, depth)?;
                if longest.as_ref().is_none_or(|(known, ..)| needed > *known) {
                    longest = Some((needed, reply, child));
                }
            }
            let Some((needed, reply, after)) = longest else {
                return Some(pv);
            };
            pv.push(reply);
            pos = after;
            depth = needed;
        }
    }
}
