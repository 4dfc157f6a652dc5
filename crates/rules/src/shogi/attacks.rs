//! Where pieces move on an otherwise given board: step tables made at compile
//! time and slider rays scanned against the occupancy (the classical approach:
//! the nearest blocker on a ray is its lowest or highest set bit).

use super::{Color, Role, Square};
use crate::Bitboard;

/// A direction on the board as `(file step, rank step)`; rank step -1 is
/// Sente's forward (towards rank a).
const DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),  // 0: towards rank a
    (0, 1),   // 1: towards rank i
    (1, 0),   // 2: towards file 9
    (-1, 0),  // 3: towards file 1
    (1, -1),  // 4
    (1, 1),   // 5
    (-1, -1), // 6
    (-1, 1),  // 7
];

/// Orthogonal directions (rook), then diagonal ones (bishop).
const ORTHOGONAL: [usize; 4] = [0, 1, 2, 3];
const DIAGONAL: [usize; 4] = [4, 5, 6, 7];

/// Whether moving in direction `dir` increases the bit index, so that the
/// nearest blocker is the lowest set bit.
const fn is_ascending(dir: usize) -> bool {
    let (df, dr) = DIRECTIONS[dir];
    df * 9 + dr > 0
}

/// The square `(df, dr)` away from `index`, if on the 9×9 board.
const fn offset(index: usize, df: i8, dr: i8) -> Option<usize> {
    let file = (index / 9) as i8 + df;
    let rank = (index % 9) as i8 + dr;
    if file >= 0 && file < 9 && rank >= 0 && rank < 9 {
        Some(file as usize * 9 + rank as usize)
    } else {
        None
    }
}

/// `RAYS[dir][sq]`: the squares from `sq` (exclusive) to the edge in `dir`.
static RAYS: [[Bitboard; 81]; 8] = {
    let mut out = [[Bitboard::EMPTY; 81]; 8];
    let mut dir = 0;
    while dir < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut bits = 0u128;
            let mut cur = sq;
            while let Some(next) = offset(cur, DIRECTIONS[dir].0, DIRECTIONS[dir].1) {
                bits |= 1 << next;
                cur = next;
            }
            out[dir][sq] = Bitboard(bits);
            sq += 1;
        }
        dir += 1;
    }
    out
};

/// The squares of the directions `dirs` from each square to the edge, on an
/// empty board.
const fn lines(dirs: [usize; 4]) -> [Bitboard; 81] {
    let mut out = [Bitboard::EMPTY; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut bits = 0u128;
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIRECTIONS[dirs[i]];
            let mut cur = sq;
            while let Some(next) = offset(cur, df, dr) {
                bits |= 1 << next;
                cur = next;
            }
            i += 1;
        }
        out[sq] = Bitboard(bits);
        sq += 1;
    }
    out
}

/// `ROOK_LINES[sq]`: the rook's four lines from `sq` on an empty board.
static ROOK_LINES: [Bitboard; 81] = lines([0, 1, 2, 3]);

/// `BISHOP_LINES[sq]`: the bishop's four lines from `sq` on an empty board.
static BISHOP_LINES: [Bitboard; 81] = lines([4, 5, 6, 7]);

/// Where a rook could attack `sq` from if nothing stood between: a rook
/// elsewhere cannot, so the blockers need no scan.
#[inline]
pub(crate) fn rook_lines(sq: Square) -> Bitboard {
    ROOK_LINES[usize::from(sq.index())]
}

/// Where a bishop could attack `sq` from if nothing stood between.
#[inline]
pub(crate) fn bishop_lines(sq: Square) -> Bitboard {
    BISHOP_LINES[usize::from(sq.index())]
}

/// `DIRECTION_TO[a][b]`: the direction from `a` to `b` if they share a line, else 8.
static DIRECTION_TO: [[u8; 81]; 81] = {
    let mut out = [[8u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut dir = 0;
        while dir < 8 {
            let mut cur = a;
            while let Some(next) = offset(cur, DIRECTIONS[dir].0, DIRECTIONS[dir].1) {
                out[a][next] = dir as u8;
                cur = next;
            }
            dir += 1;
        }
        a += 1;
    }
    out
};

/// The step pieces, for the step table index.
const PAWN: usize = 0;
const KNIGHT: usize = 1;
const SILVER: usize = 2;
const GOLD: usize = 3;
const KING: usize = 4;

/// Step offsets for Sente `(file step, rank step)`; Gote's are mirrored in rank.
const STEP_OFFSETS: [&[(i8, i8)]; 5] = [
    &[(0, -1)],
    &[(-1, -2), (1, -2)],
    &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)],
    &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)],
    &[
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ],
];

/// `STEPS[color][piece][sq]`: step targets from `sq`.
static STEPS: [[[Bitboard; 81]; 5]; 2] = {
    let mut out = [[[Bitboard::EMPTY; 81]; 5]; 2];
    let mut color = 0;
    while color < 2 {
        let mut piece = 0;
        while piece < 5 {
            let mut sq = 0;
            while sq < 81 {
                let mut bits = 0u128;
                let offsets = STEP_OFFSETS[piece];
                let mut i = 0;
                while i < offsets.len() {
                    let (df, dr) = offsets[i];
                    let dr = if color == 0 { dr } else { -dr };
                    if let Some(to) = offset(sq, df, dr) {
                        bits |= 1 << to;
                    }
                    i += 1;
                }
                out[color][piece][sq] = Bitboard(bits);
                sq += 1;
            }
            piece += 1;
        }
        color += 1;
    }
    out
};

/// The ray from `sq` in `dir`, stopped at (and including) the first piece of `occupied`.
#[inline]
fn slide(dir: usize, sq: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][usize::from(sq.index())];
    let blockers = ray & occupied;
    let blocker = if is_ascending(dir) {
        blockers.first()
    } else {
        blockers.last()
    };
    match blocker {
        Some(b) => ray ^ RAYS[dir][usize::from(b)],
        None => ray,
    }
}

/// Rook moves from `sq`.
#[inline]
pub(crate) fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let [a, b, c, d] = ORTHOGONAL;
    slide(a, sq, occupied)
        | slide(b, sq, occupied)
        | slide(c, sq, occupied)
        | slide(d, sq, occupied)
}

/// Bishop moves from `sq`.
#[inline]
pub(crate) fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let [a, b, c, d] = DIAGONAL;
    slide(a, sq, occupied)
        | slide(b, sq, occupied)
        | slide(c, sq, occupied)
        | slide(d, sq, occupied)
}

/// Lance moves of `color` from `sq`.
#[inline]
pub(crate) fn lance(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    slide(color.index(), sq, occupied)
}

#[inline]
fn steps(color: Color, piece: usize, sq: Square) -> Bitboard {
    STEPS[color.index()][piece][usize::from(sq.index())]
}

/// Pawn moves of `color` from `sq`.
#[inline]
pub(crate) fn pawn(color: Color, sq: Square) -> Bitboard {
    steps(color, PAWN, sq)
}

/// Knight moves of `color` from `sq`.
#[inline]
pub(crate) fn knight(color: Color, sq: Square) -> Bitboard {
    steps(color, KNIGHT, sq)
}

/// Silver moves of `color` from `sq`.
#[inline]
pub(crate) fn silver(color: Color, sq: Square) -> Bitboard {
    steps(color, SILVER, sq)
}

/// Gold moves of `color` from `sq` (also tokin and the promoted lance, knight, silver).
#[inline]
pub(crate) fn gold(color: Color, sq: Square) -> Bitboard {
    steps(color, GOLD, sq)
}

/// King moves from `sq`.
#[inline]
pub(crate) fn king(sq: Square) -> Bitboard {
    steps(Color::Sente, KING, sq)
}

/// The moves of a `color` piece moving like `role` from `sq` with `occupied` squares blocking.
#[inline]
pub(crate) fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn(color, sq),
        Role::Lance => lance(color, sq, occupied),
        Role::Knight => knight(color, sq),
        Role::Silver => silver(color, sq),
        Role::Gold
        | Role::Tokin
        | Role::PromotedLance
        | Role::PromotedKnight
        | Role::PromotedSilver => gold(color, sq),
        Role::Bishop => bishop(sq, occupied),
        Role::Rook => rook(sq, occupied),
        Role::King => king(sq),
        Role::Horse => bishop(sq, occupied) | king(sq),
        Role::Dragon => rook(sq, occupied) | king(sq),
    }
}

/// The direction index from `a` to `b`, if they share a rank, file or diagonal.
#[inline]
fn direction(a: Square, b: Square) -> Option<usize> {
    let dir = DIRECTION_TO[usize::from(a.index())][usize::from(b.index())];
    (dir < 8).then_some(usize::from(dir))
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub(crate) fn between(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some(dir) => {
            RAYS[dir][usize::from(a.index())]
                ^ RAYS[dir][usize::from(b.index())]
                ^ Bitboard::from_index(b.index())
        }
        None => Bitboard::EMPTY,
    }
}

/// The ray from `a` through `b` to the edge (excluding `a`), if they share a line.
#[inline]
pub(crate) fn ray_through(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some(dir) => RAYS[dir][usize::from(a.index())],
        None => Bitboard::EMPTY,
    }
}

/// The set of all 81 squares.
pub(crate) const FULL_BOARD: Bitboard = Bitboard((1 << 81) - 1);

/// Files 1–5, ranks a–e: the minishogi board.
pub(crate) const MINI_BOARD: Bitboard = {
    let mut bits = 0u128;
    let mut file = 0;
    while file < 5 {
        bits |= 0b11111 << (file * 9);
        file += 1;
    }
    Bitboard(bits)
};

/// The squares of rank `rank` (1–9) on the 9×9 board.
pub(crate) const fn rank_mask(rank: u8) -> Bitboard {
    let mut bits = 0u128;
    let mut file = 0;
    while file < 9 {
        bits |= 1 << (file * 9 + rank as u32 - 1);
        file += 1;
    }
    Bitboard(bits)
}

/// The squares of `file` (1–9).
pub(crate) const fn file_mask(file: u8) -> Bitboard {
    Bitboard(0x1ff << ((file as u32 - 1) * 9))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_stop_at_blockers() {
        let occ = Bitboard::from_index(Square::SQ_5B.index()).with(Square::SQ_2E.index());
        let r = rook(Square::SQ_5E, occ);
        assert!(r.has(Square::SQ_5B.index()) && !r.has(Square::SQ_5A.index()));
        assert!(r.has(Square::SQ_2E.index()) && !r.has(Square::SQ_1E.index()));
        assert!(r.has(Square::SQ_9E.index()) && r.has(Square::SQ_5I.index()));
        assert_eq!(r.count(), 3 + 3 + 4 + 4);
        assert_eq!(bishop(Square::SQ_5E, Bitboard::EMPTY).count(), 16);
        assert_eq!(lance(Color::Sente, Square::SQ_5E, occ).count(), 3);
        assert_eq!(lance(Color::Gote, Square::SQ_5E, occ).count(), 4);
        assert_eq!(between(Square::SQ_1A, Square::SQ_9I).count(), 7);
        assert_eq!(between(Square::SQ_1A, Square::SQ_2C), Bitboard::EMPTY);
        assert_eq!(knight(Color::Sente, Square::SQ_2I).count(), 2);
        assert_eq!(knight(Color::Gote, Square::SQ_2I).count(), 0);
        assert_eq!(gold(Color::Sente, Square::SQ_5E).count(), 6);
        assert!(gold(Color::Gote, Square::SQ_5E).has(Square::SQ_4F.index()));
        assert!(!gold(Color::Gote, Square::SQ_5E).has(Square::SQ_4D.index()));
    }
}
