//! A small cache of static evaluations by position key, one per search
//! thread. The transposition table keeps the evaluation of full-width nodes
//! only; quiescence evaluates the same positions again in every iteration
//! and every re-search, and in the shogi family the evaluation (with its
//! attack maps for king danger) is a third of the search's time.

/// Entries of one thread's cache: 256 KiB, within the second-level cache.
const ENTRIES: usize = 1 << 14;

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    eval: i32,
    filled: bool,
}

/// A direct-mapped cache from position keys to static evaluations.
pub(crate) struct EvalCache {
    entries: Vec<Entry>,
}

impl EvalCache {
    pub(crate) fn new() -> EvalCache {
        EvalCache {
            entries: vec![Entry::default(); ENTRIES],
        }
    }

    /// The evaluation of the position with `key`: cached, or computed by
    /// `evaluate` and cached.
    #[inline]
    pub(crate) fn get_or(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let entry = &mut self.entries[key as usize % ENTRIES];
        if !(entry.filled && entry.key == key) {
            *entry = Entry {
                key,
                eval: evaluate(),
                filled: true,
            };
        }
        entry.eval
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_evaluation_is_computed_once_and_a_colliding_key_replaces_it() {
        let mut cache = EvalCache::new();
        let mut computed = 0;
        let mut eval = |key: u64, value: i32, cache: &mut EvalCache| {
            cache.get_or(key, || {
                computed += 1;
                value
            })
        };
        assert_eq!(eval(7, 120, &mut cache), 120);
        assert_eq!(eval(7, -5, &mut cache), 120);
        // The same slot, another position.
        let other = 7 + ENTRIES as u64;
        assert_eq!(eval(other, -5, &mut cache), -5);
        assert_eq!(eval(7, 33, &mut cache), 33);
        // Key 0 is a key like any other, not an empty slot.
        assert_eq!(eval(0, 9, &mut cache), 9);
        assert_eq!(computed, 4);
    }
}
