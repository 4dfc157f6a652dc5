//! `attackers_within` (what static exchange evaluation asks: who attacks a
//! square when some pieces have left the board) against a naive count that
//! walks each piece's movement square by square, on positions reached by
//! random playouts, with random pieces taken out of the occupancy.

use rules::{Bitboard, Position as _, Settings, Variant, shogi, xiangqi};

mod common;

use common::Rng;

/// `occupied` with about one piece in four removed.
fn thinned(occupied: Bitboard, rng: &mut Rng) -> Bitboard {
    let mut out = occupied;
    for index in occupied {
        if rng.below(4) == 0 {
            out = out.without(index);
        }
    }
    out
}

/// Steps or slide directions as `(file step, rank step)`.
type Directions = &'static [(i8, i8)];

/// Shogi movement of `role` for Sente as `(file step, rank step)` steps and
/// slides; rank step -1 is forward. Gote mirrors the rank step.
fn shogi_movement(role: shogi::Role) -> (Directions, Directions) {
    use shogi::Role::*;
    const GOLD: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const KING: &[(i8, i8)] = &[
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];
    const ORTHOGONAL: &[(i8, i8)] = &[(0, -1), (0, 1), (1, 0), (-1, 0)];
    const DIAGONAL: &[(i8, i8)] = &[(1, -1), (1, 1), (-1, -1), (-1, 1)];
    match role {
        Pawn => (&[(0, -1)], &[]),
        Lance => (&[], &[(0, -1)]),
        Knight => (&[(-1, -2), (1, -2)], &[]),
        Silver => (&[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)], &[]),
        Gold | Tokin | PromotedLance | PromotedKnight | PromotedSilver => (GOLD, &[]),
        King => (KING, &[]),
        Bishop => (&[], DIAGONAL),
        Rook => (&[], ORTHOGONAL),
        Horse => (ORTHOGONAL, DIAGONAL),
        Dragon => (DIAGONAL, ORTHOGONAL),
    }
}

/// The naive count: every piece of `by` among `occupied`, walked.
fn shogi_naive(
    pos: &shogi::Position,
    sq: shogi::Square,
    by: shogi::Color,
    occupied: Bitboard,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    let forward: i8 = if by == shogi::Color::Sente { 1 } else { -1 };
    for from in (1..=9).flat_map(|f| (1..=9).filter_map(move |r| shogi::Square::new(f, r))) {
        let Some(piece) = pos.piece_at(from).filter(|p| p.color == by) else {
            continue;
        };
        if !occupied.has(from.index()) {
            continue;
        }
        let mut role = piece.role;
        if pos.variant() == Variant::Annan {
            let behind = i16::from(from.rank()) + i16::from(forward);
            if let Some(supporter) = shogi::Square::new(from.file(), behind as u8)
                .filter(|_| (1..=9).contains(&behind))
                .and_then(|b| pos.piece_at(b))
                .filter(|p| p.color == by)
            {
                role = supporter.role;
            }
        }
        let (steps, slides) = shogi_movement(role);
        let at = |df: i8, dr: i8, n: i8| {
            let file = from.file() as i8 + df * n;
            let rank = from.rank() as i8 + dr * n * forward;
            let on_board = (1..=9).contains(&file) && (1..=9).contains(&rank);
            on_board.then(|| shogi::Square::new(file as u8, rank as u8).unwrap())
        };
        if steps.iter().any(|&(df, dr)| at(df, dr, 1) == Some(sq)) {
            out = out.with(from.index());
        }
        for &(df, dr) in slides {
            let mut n = 1;
            while let Some(to) = at(df, dr, n) {
                if to == sq {
                    out = out.with(from.index());
                    break;
                }
                if occupied.has(to.index()) {
                    break;
                }
                n += 1;
            }
        }
    }
    out
}

fn shogi_check(variant: Variant, seed: u64) {
    let mut rng = Rng(seed);
    let size = if variant == Variant::Minishogi { 5 } else { 9 };
    let mut pos = shogi::Position::startpos(variant, &Settings::default());
    for _ in 0..80 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
        let occupied = thinned(pos.occupied(), &mut rng);
        for sq in (1..=size).flat_map(|f| (1..=size).filter_map(move |r| shogi::Square::new(f, r)))
        {
            for by in [shogi::Color::Sente, shogi::Color::Gote] {
                assert_eq!(
                    pos.attackers_within(sq, by, occupied),
                    shogi_naive(&pos, sq, by, occupied),
                    "{variant} {pos} {sq} {by:?} {occupied:?}"
                );
            }
        }
    }
}

#[test]
fn shogi_attackers_agree_with_a_naive_count() {
    for seed in 1..=6 {
        shogi_check(Variant::Shogi, seed * 7919);
        shogi_check(Variant::Minishogi, seed * 104_729);
    }
}

#[test]
fn annan_attackers_use_the_borrowed_movement() {
    for seed in 1..=6 {
        shogi_check(Variant::Annan, seed * 15_485_863);
    }
}

/// The naive xiangqi count: every piece of `by` among `occupied`, walked.
fn xiangqi_naive(
    pos: &xiangqi::Position,
    sq: xiangqi::Square,
    by: xiangqi::Color,
    occupied: Bitboard,
) -> Bitboard {
    use xiangqi::Role::*;
    let point = |file: i8, rank: i8| {
        ((0..9).contains(&file) && (0..10).contains(&rank))
            .then(|| xiangqi::Square::new(file as u8, rank as u8).unwrap())
    };
    let red = by == xiangqi::Color::Red;
    let own_half = |s: xiangqi::Square| if red { s.rank() <= 4 } else { s.rank() >= 5 };
    let in_palace = |s: xiangqi::Square| {
        (3..=5).contains(&s.file()) && if red { s.rank() <= 2 } else { s.rank() >= 7 }
    };
    let empty = |s: xiangqi::Square| !occupied.has(s.index());
    let mut out = Bitboard::EMPTY;
    for from in xiangqi::Square::all() {
        let Some(piece) = pos.piece_at(from).filter(|p| p.color == by) else {
            continue;
        };
        if !occupied.has(from.index()) {
            continue;
        }
        let (f, r) = (from.file() as i8, from.rank() as i8);
        let (tf, tr) = (sq.file() as i8, sq.rank() as i8);
        let (df, dr) = (tf - f, tr - r);
        let attacks = match piece.role {
            General => df.abs() + dr.abs() == 1 && in_palace(sq),
            Advisor => df.abs() == 1 && dr.abs() == 1 && in_palace(sq),
            Elephant => {
                df.abs() == 2
                    && dr.abs() == 2
                    && own_half(sq)
                    && empty(point(f + df / 2, r + dr / 2).unwrap())
            }
            Horse => {
                let leg = if df.abs() == 2 && dr.abs() == 1 {
                    point(f + df / 2, r)
                } else if df.abs() == 1 && dr.abs() == 2 {
                    point(f, r + dr / 2)
                } else {
                    None
                };
                leg.is_some_and(empty)
            }
            Chariot | Cannon => {
                if (df == 0) == (dr == 0) {
                    false
                } else {
                    let n = df.abs().max(dr.abs());
                    let between = (1..n)
                        .filter(|&i| {
                            !empty(point(f + df.signum() * i, r + dr.signum() * i).unwrap())
                        })
                        .count();
                    between == usize::from(piece.role == Cannon)
                }
            }
            Soldier => {
                let forward = if red { 1 } else { -1 };
                (df == 0 && dr == forward) || (dr == 0 && df.abs() == 1 && !own_half(from))
            }
        };
        if attacks {
            out = out.with(from.index());
        }
    }
    out
}

#[test]
fn xiangqi_attackers_agree_with_a_naive_count() {
    for seed in 1..=8u64 {
        let mut rng = Rng(seed * 2_654_435_761);
        let mut pos = xiangqi::Position::startpos();
        for _ in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
            let occupied = thinned(pos.occupied(), &mut rng);
            for sq in xiangqi::Square::all() {
                for by in [xiangqi::Color::Red, xiangqi::Color::Black] {
                    assert_eq!(
                        pos.attackers_within(sq, by, occupied),
                        xiangqi_naive(&pos, sq, by, occupied),
                        "{pos} {sq} {by:?} {occupied:?}"
                    );
                    assert_eq!(
                        pos.attackers_of(sq, by),
                        pos.attackers_within(sq, by, pos.occupied())
                    );
                }
            }
        }
    }
}
