//! The hang-avoider: the weakest opponent a level should lose to, a beginner
//! who knows the moves and one idea, that a piece left where the opponent
//! can win it is lost; the king included, which is lost to a mate.
//!
//! It counts material in the beginner's simple units ([`Values`]) and calls
//! a capture *winning* when the captured piece is worth more than its
//! captor, or when its owner has no legal move back onto the square (it was
//! undefended). A piece *hangs* when the opponent has a winning capture of
//! it; the king hangs when the opponent has a move that mates. On its move,
//! the hang-avoider
//!
//! 1. mates when it can (takes the hanging king);
//! 2. keeps the legal moves after which nothing of its own hangs, the king
//!    included (all of them when nothing is safe);
//! 3. of those, plays a winning capture of the most valuable piece, if it
//!    has one (seeing a hanging piece works both ways),
//! 4. and otherwise one of them at random.
//!
//! It looks for no mate in two, no threat and no plan: every question is
//! answered with the legal moves one and two plies ahead, so it is exact in
//! every game, Annan's borrowed movement included, but blind to exchanges
//! longer than one capture and one recapture.

use rules::{AnyMove, AnyPosition, Position, shogi, xiangqi};

/// The beginner's piece values, in pawns (soldiers): what each piece is
/// worth on the board, the king more than everything else together.
trait Values: Position {
    /// The value of the piece `mv` captures, if it captures one.
    fn victim(&self, mv: Self::Move) -> Option<i32>;
    /// The value of the piece `mv` moves (or drops).
    fn mover(&self, mv: Self::Move) -> i32;
    /// Where `mv` lands.
    fn target(mv: Self::Move) -> u8;
}

/// More than all the other pieces of a side together.
const KING: i32 = 1000;

fn shogi_value(role: shogi::Role) -> i32 {
    use shogi::Role::*;
    match role {
        Pawn => 1,
        Lance | Knight => 3,
        Silver => 5,
        Gold | Tokin | PromotedLance | PromotedKnight | PromotedSilver => 6,
        Bishop => 8,
        Rook | Horse => 10,
        Dragon => 12,
        King => KING,
    }
}

fn xiangqi_value(role: xiangqi::Role) -> i32 {
    use xiangqi::Role::*;
    match role {
        Soldier => 1,
        Advisor | Elephant => 2,
        Horse | Cannon => 4,
        Chariot => 9,
        General => KING,
    }
}

impl Values for shogi::Position {
    fn victim(&self, mv: shogi::Move) -> Option<i32> {
        match mv {
            shogi::Move::Normal { to, .. } => self.piece_at(to).map(|p| shogi_value(p.role)),
            shogi::Move::Drop { .. } => None,
        }
    }

    fn mover(&self, mv: shogi::Move) -> i32 {
        match mv {
            shogi::Move::Normal { from, .. } => {
                self.piece_at(from).map_or(0, |p| shogi_value(p.role))
            }
            shogi::Move::Drop { role, .. } => shogi_value(role),
        }
    }

    fn target(mv: shogi::Move) -> u8 {
        mv.to().index()
    }
}

impl Values for xiangqi::Position {
    fn victim(&self, mv: xiangqi::Move) -> Option<i32> {
        self.piece_at(mv.to).map(|p| xiangqi_value(p.role))
    }

    fn mover(&self, mv: xiangqi::Move) -> i32 {
        self.piece_at(mv.from).map_or(0, |p| xiangqi_value(p.role))
    }

    fn target(mv: xiangqi::Move) -> u8 {
        mv.to.index()
    }
}

/// What the capture `mv` wins: the captured piece's value when the capture
/// is winning (worth more than the captor, or undefended), else `None`.
fn winning_capture<P: Values>(pos: &P, mv: P::Move) -> Option<i32> {
    let victim = pos.victim(mv)?;
    if victim > pos.mover(mv) {
        return Some(victim);
    }
    let mut after = pos.clone();
    after.play_unchecked(mv);
    let square = P::target(mv);
    let defended = after
        .legal_moves()
        .iter()
        .any(|&back| P::target(back) == square);
    (!defended).then_some(victim)
}

/// Whether `mv` checkmates.
fn mates<P: Values>(pos: &P, mv: P::Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    after.is_check() && after.count_legal_moves() == 0
}

/// Whether the side to move in `pos` has a winning capture or a mate.
fn something_hangs<P: Values>(pos: &P) -> bool {
    pos.legal_moves()
        .iter()
        .any(|&mv| winning_capture(pos, mv).is_some() || mates(pos, mv))
}

/// The hang-avoider's move in `pos`, `random` choosing among equals; `None`
/// when there is no legal move.
fn choose<P: Values>(pos: &P, random: u64) -> Option<P::Move> {
    let moves = pos.legal_moves();
    if let Some(&mate) = moves.iter().find(|&&mv| mates(pos, mv)) {
        return Some(mate);
    }
    let safe: Vec<P::Move> = moves
        .iter()
        .copied()
        .filter(|&mv| {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            !something_hangs(&after)
        })
        .collect();
    let candidates = if safe.is_empty() {
        moves.to_vec()
    } else {
        safe
    };
    let best_capture = candidates
        .iter()
        .filter_map(|&mv| Some((winning_capture(pos, mv)?, mv)))
        .max_by_key(|&(value, _)| value);
    match best_capture {
        Some((_, mv)) => Some(mv),
        None if candidates.is_empty() => None,
        None => Some(candidates[(random % candidates.len() as u64) as usize]),
    }
}

/// The hang-avoider's move in `pos`, `random` choosing among equals.
pub(crate) fn hang_avoider_move(pos: &AnyPosition, random: u64) -> Option<AnyMove> {
    match pos {
        AnyPosition::Shogi(pos) => choose(pos, random).map(AnyMove::Shogi),
        AnyPosition::Xiangqi(pos) => choose(pos, random).map(AnyMove::Xiangqi),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{AnnanDeadPiece, Variant};

    fn shogi(sfen: &str) -> shogi::Position {
        shogi::Position::from_sfen(sfen, Variant::Shogi, AnnanDeadPiece::default()).unwrap()
    }

    #[test]
    fn takes_an_undefended_piece_and_not_a_defended_one() {
        // Sente's rook on 5e can take the undefended gold on 5c, or the pawn
        // on 2e that the gote silver on 3d defends: it takes the gold.
        let pos = shogi("k8/9/4g4/6s2/4R2p1/9/9/9/K8 b - 1");
        for random in 0..8 {
            let mv = choose(&pos, random).unwrap().to_string();
            assert!(mv.starts_with("5e5c"), "{mv}");
        }
    }

    #[test]
    fn never_leaves_a_piece_where_it_can_be_won() {
        // The gote pawn on 5d, defended by the gold behind it, attacks
        // sente's undefended silver on 5e. Taking the pawn loses the silver
        // to the gold, so do the king's moves and the silver's steps to 6d
        // and 4d: the avoider plays one of the two retreats, either of them.
        let pos = shogi("k8/9/4g4/4p4/4S4/9/9/9/K8 b - 1");
        let moves: std::collections::BTreeSet<String> = (0..64)
            .map(|random| choose(&pos, random).unwrap().to_string())
            .collect();
        assert_eq!(moves, ["5e4f".to_owned(), "5e6f".to_owned()].into());
    }

    #[test]
    fn mates_in_one_and_keeps_its_king_from_a_mate_in_one() {
        // Sente mates with the gold in hand on 5b, which the pawn on 5c guards.
        let pos = shogi("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        for random in 0..8 {
            assert_eq!(choose(&pos, random).unwrap().to_string(), "G*5b");
        }
        // Gote to move on that board: a pawn move leaves G*5b, so the
        // avoider moves the king, to any of its four safe squares.
        let pos = shogi("4k4/8p/4P4/9/9/9/9/9/4K4 w G 1");
        let moves: std::collections::BTreeSet<String> = (0..64)
            .map(|random| choose(&pos, random).unwrap().to_string())
            .collect();
        assert_eq!(
            moves,
            ["5a4a", "5a4b", "5a6a", "5a6b"].map(str::to_owned).into()
        );
    }
}
