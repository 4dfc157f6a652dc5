//! The transposition table, shared by every search thread.
//!
//! Each entry is two `AtomicU64`s: the data word and the key XOR the data
//! word. Threads read and write without locks; a torn entry (one word from
//! one write, one from another) fails the key check and reads as a miss, so
//! races cost a lost entry, never a wrong one (the "lockless hashing" of
//! Hyatt and Mann, as in Stockfish and viridithas).
//!
//! A key maps to a cluster of four entries on one cache line, and may be
//! stored in any of them: with one entry per key, two positions that met on
//! it evicted each other, and a deep search lost more of its work that way
//! (one entry a key searched 9% more nodes to depth 12 in shogi).
//!
//! Data word layout, low bits first:
//!
//! ```text
//! bits  0-15  packed move (0: none)
//! bits 16-31  score (i16, mate scores relative to this node)
//! bits 32-39  depth (u8)
//! bits 40-41  bound (1 upper, 2 lower, 3 exact)
//! bits 42-47  generation (the search that wrote it, mod 64)
//! bits 48-63  static evaluation (i16; i16::MIN: none, the side was in check)
//! ```

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The true score.
    Exact = 3,
}

impl Bound {
    /// Whether a score with this bound settles a search of window
    /// `alpha..beta`: exact, or at least beta, or at most alpha.
    pub(crate) fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One entry as read back.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Probe {
    /// The best or refuting move found, packed (0: none).
    pub(crate) mv: u16,
    /// The stored score.
    pub(crate) score: i32,
    /// The depth it was searched to.
    pub(crate) depth: i32,
    /// What the score bounds.
    pub(crate) bound: Bound,
    /// The position's static evaluation, unless its side was in check.
    pub(crate) eval: Option<i32>,
}

/// The stored evaluation of a position in check, which has none.
const NO_EVAL: i16 = i16::MIN;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    /// The data word, if the entry holds `key`.
    fn data_for(&self, key: u64) -> Option<u64> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (data != 0 && check ^ data == key).then_some(data)
    }
}

/// Entries a key may be stored in: one cache line, probed together.
const CLUSTER: usize = 4;

/// Four entries on one 64-byte line: a probe reads one line, and a store
/// chooses which of four to replace instead of overwriting the only one.
#[derive(Default)]
#[repr(align(64))]
struct Cluster([Entry; CLUSTER]);

/// The shared table. Its size is set in whole mebibytes.
pub(crate) struct TranspositionTable {
    clusters: Box<[Cluster]>,
    generation: AtomicU8,
}

const CLUSTER_BYTES: usize = core::mem::size_of::<Cluster>();

/// Bytes of one entry: what a searched node may take in the table.
pub(crate) const ENTRY_BYTES: usize = CLUSTER_BYTES / CLUSTER;

/// The depth field of a data word.
fn depth_of(data: u64) -> i32 {
    i32::from((data >> 32) as u8)
}

/// The generation field of a data word.
fn generation_of(data: u64) -> u64 {
    (data >> 42) & 63
}

/// The entry of `cluster` a new position replaces: an empty one, else the
/// shallowest, each search since it was written counting as eight plies less.
fn least_worth_keeping(cluster: &[Entry; CLUSTER], generation: u64) -> &Entry {
    let worth = |entry: &Entry| {
        let data = entry.data.load(Ordering::Relaxed);
        if data == 0 {
            return i32::MIN;
        }
        let age = (generation + 64 - generation_of(data)) & 63;
        depth_of(data) - 8 * age as i32
    };
    let mut best = &cluster[0];
    for entry in &cluster[1..] {
        if worth(entry) < worth(best) {
            best = entry;
        }
    }
    best
}

impl TranspositionTable {
    /// A table of `mebibytes` MiB (at least one cluster); of half that, and
    /// so on, if the memory cannot be had.
    pub(crate) fn new(mebibytes: usize) -> TranspositionTable {
        let mut count = (mebibytes.saturating_mul(1 << 20) / CLUSTER_BYTES).max(1);
        let mut clusters = Vec::new();
        while clusters.try_reserve_exact(count).is_err() && count > 1 {
            count /= 2;
        }
        clusters.extend((0..count).map(|_| Cluster::default()));
        TranspositionTable {
            clusters: clusters.into_boxed_slice(),
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets every entry.
    pub(crate) fn clear(&self) {
        for entry in self.clusters.iter().flat_map(|cluster| &cluster.0) {
            entry.check.store(0, Ordering::Relaxed);
            entry.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub(crate) fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u64 {
        u64::from(self.generation.load(Ordering::Relaxed) & 63)
    }

    fn cluster(&self, key: u64) -> &Cluster {
        // Multiply-shift maps the key onto the table without a division.
        let index = ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    /// The entry for `key`, if one is stored.
    pub(crate) fn probe(&self, key: u64) -> Option<Probe> {
        let data = self
            .cluster(key)
            .0
            .iter()
            .find_map(|entry| entry.data_for(key))?;
        let bound = match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Probe {
            mv: data as u16,
            score: i32::from((data >> 16) as u16 as i16),
            depth: depth_of(data),
            bound,
            eval: Some((data >> 48) as u16 as i16)
                .filter(|&eval| eval != NO_EVAL)
                .map(i32::from),
        })
    }

    /// Stores a search result for `key`, with the position's static
    /// evaluation, in the cluster's entry for `key` if it has one, else in
    /// the one [least worth keeping](least_worth_keeping). A stored move is
    /// kept when `mv` is none; an entry of this search much deeper than the
    /// new result is kept unless the new one is exact, as in Stockfish.
    pub(crate) fn store(
        &self,
        key: u64,
        mv: u16,
        score: i32,
        depth: i32,
        bound: Bound,
        eval: Option<i32>,
    ) {
        let generation = self.generation();
        let cluster = &self.cluster(key).0;
        let stored = cluster
            .iter()
            .find_map(|entry| entry.data_for(key).map(|data| (entry, data)));
        let (entry, mv) = match stored {
            Some((_, data))
                if bound != Bound::Exact
                    && generation_of(data) == generation
                    && depth_of(data) > depth + 4 =>
            {
                return;
            }
            Some((entry, data)) => (entry, if mv == 0 { data as u16 } else { mv }),
            None => (least_worth_keeping(cluster, generation), mv),
        };
        let to_i16 = |value: i32| value.clamp(i32::from(i16::MIN) + 1, i32::from(i16::MAX)) as i16;
        let score = to_i16(score);
        let eval = eval.map_or(NO_EVAL, to_i16);
        let data = u64::from(mv)
            | u64::from(score as u16) << 16
            | (depth.clamp(0, 255) as u64) << 32
            | (bound as u64) << 40
            | generation << 42
            | u64::from(eval as u16) << 48;
        entry.data.store(data, Ordering::Relaxed);
        entry.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written by the current search (USI/UCI `hashfull`).
    pub(crate) fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.clusters.len().min(250);
        let used = self.clusters[..sample]
            .iter()
            .flat_map(|cluster| &cluster.0)
            .filter(|entry| {
                let data = entry.data.load(Ordering::Relaxed);
                data != 0 && generation_of(data) == generation
            })
            .count();
        (used * 1000 / (sample * CLUSTER).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_reads_back() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key).is_none());
        tt.store(key, 0x8123, -31_000, 7, Bound::Lower, Some(-250));
        let probe = tt.probe(key).unwrap();
        assert_eq!(
            (probe.mv, probe.score, probe.depth, probe.bound, probe.eval),
            (0x8123, -31_000, 7, Bound::Lower, Some(-250))
        );
        // A move-less store of the same position keeps the move.
        tt.store(key, 0, 12, 8, Bound::Exact, None);
        let probe = tt.probe(key).unwrap();
        assert_eq!(
            (probe.mv, probe.score, probe.bound, probe.eval),
            (0x8123, 12, Bound::Exact, None)
        );
        // Another key in the same cluster does not read as this one.
        assert!(tt.probe(key ^ 1).is_none());
        tt.clear();
        assert!(tt.probe(key).is_none());
    }

    /// Keys that all land in the one cluster of a table that small.
    fn colliding_keys(count: u64) -> Vec<u64> {
        (1..=count)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect()
    }

    #[test]
    fn a_cluster_keeps_four_positions_and_replaces_the_least_worth_keeping() {
        let tt = TranspositionTable::new(0);
        assert_eq!(tt.clusters.len(), 1);
        let keys = colliding_keys(5);
        for (depth, &key) in [9, 3, 7, 5].into_iter().zip(&keys) {
            tt.store(key, 1, 0, depth, Bound::Exact, None);
        }
        assert!(keys[..4].iter().all(|&key| tt.probe(key).is_some()));
        // A fifth position takes the shallowest entry's place.
        tt.store(keys[4], 1, 0, 1, Bound::Exact, None);
        let kept: Vec<bool> = keys.iter().map(|&key| tt.probe(key).is_some()).collect();
        assert_eq!(kept, [true, false, true, true, true]);
        // Two searches later the old entries count sixteen plies less: even
        // the deepest of them gives way to shallow new ones.
        tt.new_search();
        tt.new_search();
        let later = &colliding_keys(9)[5..];
        for &key in later {
            tt.store(key, 1, 0, 2, Bound::Exact, None);
        }
        assert!(later.iter().all(|&key| tt.probe(key).is_some()));
        assert!(keys.iter().all(|&key| tt.probe(key).is_none()));
    }

    #[test]
    fn a_much_deeper_entry_of_this_search_survives_a_shallow_bound() {
        let tt = TranspositionTable::new(0);
        let key = colliding_keys(1)[0];
        tt.store(key, 7, 50, 12, Bound::Lower, None);
        tt.store(key, 8, 10, 3, Bound::Upper, None);
        assert_eq!(tt.probe(key).map(|p| (p.mv, p.depth)), Some((7, 12)));
        // An exact score, or a search of not much less depth, replaces it.
        tt.store(key, 8, 10, 9, Bound::Upper, None);
        assert_eq!(tt.probe(key).map(|p| (p.mv, p.depth)), Some((8, 9)));
        tt.store(key, 0, 20, 2, Bound::Exact, None);
        assert_eq!(tt.probe(key).map(|p| (p.mv, p.depth)), Some((8, 2)));
    }
}
