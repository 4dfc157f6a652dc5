//! The transposition table, shared by every search thread.
//!
//! Each entry is two `AtomicU64`s: the data word and the key XOR the data
//! word. Threads read and write without locks; a torn entry (one word from
//! one write, one from another) fails the key check and reads as a miss, so
//! races cost a lost entry, never a wrong one (the "lockless hashing" of
//! Hyatt and Mann, as in Stockfish and viridithas).
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

/// The shared table. Its size is set in whole mebibytes.
pub(crate) struct TranspositionTable {
    entries: Box<[Entry]>,
    generation: AtomicU8,
}

const ENTRY_BYTES: usize = core::mem::size_of::<Entry>();

impl TranspositionTable {
    /// A table of `mebibytes` MiB (at least one entry); of half that, and
    /// so on, if the memory cannot be had.
    pub(crate) fn new(mebibytes: usize) -> TranspositionTable {
        let mut count = (mebibytes.saturating_mul(1 << 20) / ENTRY_BYTES).max(1);
        let mut entries = Vec::new();
        while entries.try_reserve_exact(count).is_err() && count > 1 {
            count /= 2;
        }
        entries.extend((0..count).map(|_| Entry::default()));
        TranspositionTable {
            entries: entries.into_boxed_slice(),
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets every entry.
    pub(crate) fn clear(&self) {
        for entry in &self.entries {
            entry.check.store(0, Ordering::Relaxed);
            entry.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub(crate) fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &Entry {
        // Multiply-shift maps the key onto the table without a division.
        let index = ((u128::from(key) * self.entries.len() as u128) >> 64) as usize;
        &self.entries[index]
    }

    /// The entry for `key`, if one is stored.
    pub(crate) fn probe(&self, key: u64) -> Option<Probe> {
        let entry = self.slot(key);
        let data = entry.data.load(Ordering::Relaxed);
        let check = entry.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let bound = match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Probe {
            mv: data as u16,
            score: i32::from((data >> 16) as u16 as i16),
            depth: i32::from((data >> 32) as u8),
            bound,
            eval: Some((data >> 48) as u16 as i16)
                .filter(|&eval| eval != NO_EVAL)
                .map(i32::from),
        })
    }

    /// Stores a search result for `key`, with the position's static
    /// evaluation. A deeper entry of another position from this search is
    /// kept; a stored move is kept when `mv` is none.
    pub(crate) fn store(
        &self,
        key: u64,
        mv: u16,
        score: i32,
        depth: i32,
        bound: Bound,
        eval: Option<i32>,
    ) {
        let entry = self.slot(key);
        let generation = u64::from(self.generation.load(Ordering::Relaxed) & 63);
        let old_data = entry.data.load(Ordering::Relaxed);
        let old_key = entry.check.load(Ordering::Relaxed) ^ old_data;
        let same = old_data != 0 && old_key == key;
        let old_depth = i32::from((old_data >> 32) as u8);
        let old_generation = (old_data >> 42) & 63;
        if old_data != 0 && !same && old_generation == generation && old_depth > depth + 2 {
            return;
        }
        let mv = if mv == 0 && same { old_data as u16 } else { mv };
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
        let generation = u64::from(self.generation.load(Ordering::Relaxed) & 63);
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|entry| {
                let data = entry.data.load(Ordering::Relaxed);
                data != 0 && (data >> 42) & 63 == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
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
        // Another key in the same slot does not read as this one.
        assert!(tt.probe(key ^ 1).is_none());
        tt.clear();
        assert!(tt.probe(key).is_none());
    }
}
