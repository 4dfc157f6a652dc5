//! Where pieces move and attack from each point: tables built at compile
//! time, and the sliding moves of chariot and cannon.
//!
//! Stepping pieces read a table. A blockable step (horse leg, elephant eye)
//! is stored as `(blocking point, targets)`; the unused slots hold [`NONE`],
//! an index no occupancy ever has, with no targets. Chariot and cannon use a
//! ray per point and direction; the nearest blocker on a ray is its lowest
//! index for the rising directions (north, east) and its highest for the others.

use super::{Color, Square};
use crate::Bitboard;

/// A blocking-point index that is never occupied (for unused table slots).
pub(super) const NONE: u8 = 127;

/// A step that a piece standing on the blocking point prevents.
pub(super) type Blockable = [(u8, Bitboard); 4];

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 10
}

const fn index(file: i32, rank: i32) -> u8 {
    (rank * 9 + file) as u8
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7)
}

/// The half of the board (0: Red's ranks 0–4, 1: Black's ranks 5–9).
const fn half(rank: i32) -> i32 {
    if rank <= 4 { 0 } else { 1 }
}

/// Orthogonal unit steps: north (+rank), east (+file), south, west.
const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// Rays by direction (north, east, south, west) and point, excluding the point.
pub(super) static RAYS: [[Bitboard; 90]; 4] = {
    let mut rays = [[Bitboard::EMPTY; 90]; 4];
    let mut dir = 0;
    while dir < 4 {
        let (df, dr) = ORTHOGONAL[dir];
        let mut sq = 0;
        while sq < 90 {
            let (mut f, mut r) = (sq as i32 % 9 + df, sq as i32 / 9 + dr);
            while on_board(f, r) {
                rays[dir][sq] = rays[dir][sq].with(index(f, r));
                f += df;
                r += dr;
            }
            sq += 1;
        }
        dir += 1;
    }
    rays
};

/// Steps from each palace point to the palace points at the given offsets.
const fn steps(offsets: [(i32, i32); 4]) -> [Bitboard; 90] {
    let mut table = [Bitboard::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = (sq as i32 % 9, sq as i32 / 9);
        if in_palace(f, r) {
            let mut i = 0;
            while i < 4 {
                let (tf, tr) = (f + offsets[i].0, r + offsets[i].1);
                // Both palaces are far apart, so "in a palace" means "in this palace".
                if on_board(tf, tr) && in_palace(tf, tr) {
                    table[sq] = table[sq].with(index(tf, tr));
                }
                i += 1;
            }
        }
        sq += 1;
    }
    table
}

/// General steps inside the palace (symmetric, so also the general's attackers).
pub(super) static GENERAL: [Bitboard; 90] = steps(ORTHOGONAL);

/// Advisor steps inside the palace (symmetric).
pub(super) static ADVISOR: [Bitboard; 90] = steps(DIAGONAL);

/// Elephant steps: `(eye, target)`, staying on the elephant's own half.
/// Symmetric, so also the elephant's attackers of a point.
pub(super) static ELEPHANT: [Blockable; 90] = {
    let mut table = [[(NONE, Bitboard::EMPTY); 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = (sq as i32 % 9, sq as i32 / 9);
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIAGONAL[i];
            let (tf, tr) = (f + 2 * df, r + 2 * dr);
            if on_board(tf, tr) && half(tr) == half(r) {
                table[sq][i] = (index(f + df, r + dr), Bitboard::from_index(index(tf, tr)));
            }
            i += 1;
        }
        sq += 1;
    }
    table
};

/// Horse moves: `(leg, the two targets beyond it)`.
pub(super) static HORSE: [Blockable; 90] = {
    let mut table = [[(NONE, Bitboard::EMPTY); 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = (sq as i32 % 9, sq as i32 / 9);
        let mut i = 0;
        while i < 4 {
            let (df, dr) = ORTHOGONAL[i];
            let (lf, lr) = (f + df, r + dr);
            if on_board(lf, lr) {
                let mut targets = Bitboard::EMPTY;
                // Outward: one more step the same way, then one to either side.
                let (sf, sr) = (dr, df);
                if on_board(lf + df + sf, lr + dr + sr) {
                    targets = targets.with(index(lf + df + sf, lr + dr + sr));
                }
                if on_board(lf + df - sf, lr + dr - sr) {
                    targets = targets.with(index(lf + df - sf, lr + dr - sr));
                }
                table[sq][i] = (index(lf, lr), targets);
            }
            i += 1;
        }
        sq += 1;
    }
    table
};

/// Horses that attack a point: `(their leg, the two points they stand on)`.
/// The leg of a horse attacking `s` is always diagonally next to `s`.
pub(super) static HORSE_ATTACKERS: [Blockable; 90] = {
    let mut table = [[(NONE, Bitboard::EMPTY); 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = (sq as i32 % 9, sq as i32 / 9);
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIAGONAL[i];
            if on_board(f + df, r + dr) {
                let mut sources = Bitboard::EMPTY;
                if on_board(f + 2 * df, r + dr) {
                    sources = sources.with(index(f + 2 * df, r + dr));
                }
                if on_board(f + df, r + 2 * dr) {
                    sources = sources.with(index(f + df, r + 2 * dr));
                }
                table[sq][i] = (index(f + df, r + dr), sources);
            }
            i += 1;
        }
        sq += 1;
    }
    table
};

/// Soldier steps by colour: forward, and sideways once across the river.
pub(super) static SOLDIER: [[Bitboard; 90]; 2] = {
    let mut table = [[Bitboard::EMPTY; 90]; 2];
    let mut color = 0;
    while color < 2 {
        let forward = if color == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = (sq as i32 % 9, sq as i32 / 9);
            if on_board(f, r + forward) {
                table[color][sq] = table[color][sq].with(index(f, r + forward));
            }
            let crossed = half(r) != color as i32;
            if crossed {
                if f > 0 {
                    table[color][sq] = table[color][sq].with(index(f - 1, r));
                }
                if f < 8 {
                    table[color][sq] = table[color][sq].with(index(f + 1, r));
                }
            }
            sq += 1;
        }
        color += 1;
    }
    table
};

/// Points from which a soldier of the colour attacks each point.
pub(super) static SOLDIER_ATTACKERS: [[Bitboard; 90]; 2] = {
    let mut table = [[Bitboard::EMPTY; 90]; 2];
    let mut color = 0;
    while color < 2 {
        let mut from = 0;
        while from < 90 {
            let mut to = 0;
            while to < 90 {
                if SOLDIER[color][from].has(to as u8) {
                    table[color][to] = table[color][to].with(from as u8);
                }
                to += 1;
            }
            from += 1;
        }
        color += 1;
    }
    table
};

/// The file and rank through each point, without the point.
pub(super) static LINES: [Bitboard; 90] = {
    let mut table = [Bitboard::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        table[sq] = Bitboard(RAYS[0][sq].0 | RAYS[1][sq].0 | RAYS[2][sq].0 | RAYS[3][sq].0);
        sq += 1;
    }
    table
};

/// The points a piece may legally stand on, by colour: the general's palace,
/// the advisor's five points, the elephant's seven.
pub(super) const fn legal_points(color: Color, role: super::Role) -> Bitboard {
    use super::Role;
    let mut points = Bitboard::EMPTY;
    let mut sq = 0;
    while sq < 90 {
        let f = sq % 9;
        // The rank counted from the piece's own side.
        let r = if color as usize == 0 {
            sq / 9
        } else {
            9 - sq / 9
        };
        let allowed = match role {
            Role::General => f >= 3 && f <= 5 && r <= 2,
            Role::Advisor => (f == 3 || f == 5) && (r == 0 || r == 2) || f == 4 && r == 1,
            Role::Elephant => {
                (f == 2 || f == 6) && (r == 0 || r == 4) || (f == 0 || f == 4 || f == 8) && r == 2
            }
            // Soldiers never stand behind their starting rank.
            Role::Soldier => r >= 3,
            Role::Horse | Role::Chariot | Role::Cannon => true,
        };
        if allowed {
            points = points.with(sq as u8);
        }
        sq += 1;
    }
    points
}

/// Chariot attacks from `sq`: every point along the four rays up to and
/// including the first piece.
#[inline]
pub(super) fn chariot(sq: Square, occupied: Bitboard) -> Bitboard {
    let at = usize::from(sq.index());
    let mut attacks = Bitboard::EMPTY;
    for (dir, rays) in RAYS.iter().enumerate() {
        let ray = rays[at];
        attacks |= match nearest(dir, ray & occupied) {
            Some(b) => ray ^ rays[usize::from(b)],
            None => ray,
        };
    }
    attacks
}

/// Every cannon move from `sq`: the empty points before the screen on each
/// ray, and the capture target beyond it (own pieces included; the caller
/// removes them).
#[inline]
pub(super) fn cannon_moves(sq: Square, occupied: Bitboard) -> Bitboard {
    let at = usize::from(sq.index());
    let mut moves = Bitboard::EMPTY;
    for (dir, rays) in RAYS.iter().enumerate() {
        let ray = rays[at];
        match nearest(dir, ray & occupied) {
            Some(screen) => {
                let beyond = rays[usize::from(screen)];
                moves |= (ray ^ beyond).without(screen);
                if let Some(target) = nearest(dir, beyond & occupied) {
                    moves = moves.with(target);
                }
            }
            None => moves |= ray,
        }
    }
    moves
}

/// The first two pieces on the ray from `sq` in direction `dir` (north,
/// east, south, west): a chariot's target and a cannon's beyond its screen.
#[inline]
pub(super) fn first_two(
    sq: Square,
    dir: usize,
    occupied: Bitboard,
) -> (Option<Square>, Option<Square>) {
    match next_on_ray(sq, dir, occupied) {
        Some(first) => (Some(first), next_on_ray(first, dir, occupied)),
        None => (None, None),
    }
}

/// The first piece on the ray from `sq` in direction `dir`.
#[inline]
pub(super) fn next_on_ray(sq: Square, dir: usize, occupied: Bitboard) -> Option<Square> {
    nearest(dir, RAYS[dir][usize::from(sq.index())] & occupied).map(Square::from_index_unchecked)
}

/// The direction (as indexed in [`RAYS`]) from `from` to `to` on its file or rank.
#[inline]
pub(super) fn direction(from: Square, to: Square) -> usize {
    let same_file = from.file() == to.file();
    match (same_file, to > from) {
        (true, true) => 0,
        (false, true) => 1,
        (true, false) => 2,
        (false, false) => 3,
    }
}

/// The piece on a ray nearest its origin.
#[inline]
fn nearest(dir: usize, blockers: Bitboard) -> Option<u8> {
    if dir < 2 {
        blockers.first()
    } else {
        blockers.last()
    }
}

/// The `horses` that attack `sq` with occupancy `occ`. A leg is looked at
/// only when a horse stands behind it.
#[inline]
pub(super) fn horse_attackers(sq: Square, occ: Bitboard, horses: Bitboard) -> Bitboard {
    let mut attackers = Bitboard::EMPTY;
    for &(leg, sources) in &HORSE_ATTACKERS[usize::from(sq.index())] {
        let behind = sources & horses;
        if behind.is_any() && !occ.has(leg) {
            attackers |= behind;
        }
    }
    attackers
}

/// The targets of a blockable step table entry given the occupancy.
#[inline]
pub(super) fn unblocked(steps: &Blockable, occupied: Bitboard) -> Bitboard {
    let mut targets = Bitboard::EMPTY;
    for &(block, to) in steps {
        if !occupied.has(block) {
            targets |= to;
        }
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::Role;

    fn set(squares: &[Square]) -> Bitboard {
        squares
            .iter()
            .fold(Bitboard::EMPTY, |bb, sq| bb.with(sq.index()))
    }

    #[test]
    fn horse_leg() {
        let b1 = usize::from(Square::B0.index());
        assert_eq!(
            unblocked(&HORSE[b1], Bitboard::EMPTY),
            set(&[Square::A2, Square::C2, Square::D1])
        );
        // A piece on b1 hobbles the horse's moves to a2 and c2.
        assert_eq!(
            unblocked(&HORSE[b1], set(&[Square::B1])),
            set(&[Square::D1])
        );
    }

    #[test]
    fn horse_attackers_invert_horse_moves() {
        for to in 0..90u8 {
            for occ in [Bitboard::EMPTY, Bitboard(0x5555_5555_5555_5555_5555_5555)] {
                let sources = unblocked(&HORSE_ATTACKERS[usize::from(to)], occ);
                for from in 0..90u8 {
                    let attacks = unblocked(&HORSE[usize::from(from)], occ).has(to);
                    assert_eq!(attacks, sources.has(from), "{from} -> {to}");
                }
            }
        }
    }

    #[test]
    fn elephant_eye_and_river() {
        let c4 = usize::from(Square::C4.index());
        // From c4 the elephant reaches a2 and e2 but never a6 or e6 across the river.
        assert_eq!(
            unblocked(&ELEPHANT[c4], Bitboard::EMPTY),
            set(&[Square::A2, Square::E2])
        );
        assert_eq!(
            unblocked(&ELEPHANT[c4], set(&[Square::D3])),
            set(&[Square::A2])
        );
        assert_eq!(legal_points(Color::Black, Role::Elephant).count(), 7);
        assert!(legal_points(Color::Black, Role::Elephant).has(Square::C9.index()));
    }

    #[test]
    fn palace() {
        assert_eq!(
            GENERAL[usize::from(Square::E0.index())],
            set(&[Square::D0, Square::F0, Square::E1])
        );
        assert_eq!(
            GENERAL[usize::from(Square::D2.index())],
            set(&[Square::D1, Square::E2])
        );
        assert_eq!(
            ADVISOR[usize::from(Square::E8.index())],
            set(&[Square::D7, Square::F7, Square::D9, Square::F9])
        );
        assert_eq!(ADVISOR[usize::from(Square::D9.index())], set(&[Square::E8]));
        assert_eq!(legal_points(Color::Red, Role::Advisor).count(), 5);
        assert_eq!(legal_points(Color::Black, Role::General).count(), 9);
    }

    #[test]
    fn soldier_sideways_only_after_the_river() {
        let red = &SOLDIER[Color::Red.index()];
        assert_eq!(red[usize::from(Square::C4.index())], set(&[Square::C5]));
        assert_eq!(
            red[usize::from(Square::C5.index())],
            set(&[Square::C6, Square::B5, Square::D5])
        );
        assert_eq!(red[usize::from(Square::A9.index())], set(&[Square::B9]));
        let black = &SOLDIER[Color::Black.index()];
        assert_eq!(black[usize::from(Square::C5.index())], set(&[Square::C4]));
        assert_eq!(
            black[usize::from(Square::C4.index())],
            set(&[Square::C3, Square::B4, Square::D4])
        );
    }

    #[test]
    fn cannon_screen() {
        // Cannon on b2, pieces on b5 (screen) and b9; e2 (screen) and h2.
        let occ = set(&[Square::B5, Square::B9, Square::E2, Square::H2]);
        let moves = cannon_moves(Square::B2, occ);
        assert_eq!(moves & occ, set(&[Square::B9, Square::H2]));
        let quiet = moves.and_not(occ);
        assert!(quiet.has(Square::B4.index()) && !quiet.has(Square::B5.index()));
        assert!(quiet.has(Square::D2.index()) && !quiet.has(Square::E2.index()));
        assert_eq!(quiet.count(), 2 + 2 + 2 + 1);
        assert_eq!(chariot(Square::B2, occ).count(), 3 + 3 + 2 + 1);
        // No second piece behind the screen: nothing to capture.
        let lone = set(&[Square::B5]);
        assert_eq!(cannon_moves(Square::B2, lone) & lone, Bitboard::EMPTY);
    }
}
