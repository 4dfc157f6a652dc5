//! Perft: counting the leaves of the legal move tree, the standard check of a
//! move generator against published numbers.

use crate::Position;

/// The number of legal move sequences of length `depth` from `position`.
///
/// The last ply is counted, not played ("bulk counting"), as Stockfish and
/// Fairy-Stockfish do, so timings compare.
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_legal_moves() as u64,
        _ => position
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = position.clone();
                next.play_unchecked(mv);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// Perft split by first move: `(move, count)` for every legal move, in the
/// order move generation gives them.
pub fn divide<P: Position>(position: &P, depth: u32) -> Vec<(P::Move, u64)> {
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = position.clone();
            next.play_unchecked(mv);
            (mv, perft(&next, depth.saturating_sub(1)))
        })
        .collect()
}
