//! Evaluation of xiangqi.
//!
//! Terms, each from Red's view and negated for Black:
//! - material, with the soldier worth double once across the river and the
//!   horse gaining on the cannon as the board empties;
//! - placement: horses and cannons towards the centre and forward, soldiers
//!   near the enemy palace;
//! - mobility: points each chariot reaches, legs blocking each horse;
//! - king safety: missing advisors and elephants while the enemy still has
//!   attackers, and the general's rank.
//!
//! The weights were tuned on self-play games (README, "Tuning").

use rules::xiangqi::{Color, Move, Piece, Position, Role, Square};

use super::{Evaluate, distance};

/// The value of a piece, by [`Role::index`], that orders captures: fixed,
/// whatever the tuned weights say.
const VALUE: [i32; 7] = [
    0,   // general
    200, // advisor
    200, // elephant
    400, // horse
    900, // chariot
    450, // cannon
    100, // soldier
];

weights! {
    /// The weights of the xiangqi evaluation, each from its owner's view.
    /// "Centre" counts files towards the middle (0 on the edge, 4 on the
    /// e-file), "forward" ranks from the own back rank, "endgame" the pieces
    /// gone from the board (at most 24), "near" steps closer than four to the
    /// enemy general.
    pub struct XiangqiWeights {
        /// Material, by [`Role::index`].
        pub value: [i32; 7],
        /// Extra value of a soldier that has crossed the river.
        pub crossed_soldier: i32,
        /// For the side to move.
        pub tempo: i32,
        /// Per point a chariot reaches.
        pub chariot_reach: i32,
        /// Per leg of a horse a piece blocks (a hobbled horse).
        pub horse_leg_blocked: i32,
        /// Per missing advisor while the enemy has attackers.
        pub missing_advisor: i32,
        /// Per missing elephant while the enemy has attackers.
        pub missing_elephant: i32,
        /// The general on its home point.
        pub general_home: i32,
        /// Per rank the general has left its back rank.
        pub general_per_rank: i32,
        /// Horse: per centre step, forward rank (to 7), near step, endgame piece.
        pub horse: [i32; 4],
        /// Cannon: per centre step, forward rank (to 5), endgame piece.
        pub cannon: [i32; 3],
        /// Chariot: per centre step, forward rank (to 7).
        pub chariot: [i32; 2],
        /// Crossed soldier: per centre step, near step.
        pub soldier: [i32; 2],
        /// A crossed soldier stuck on the enemy back rank.
        pub soldier_last_rank: i32,
    }
}

/// The weights the engine plays with.
const XIANGQI: XiangqiWeights = XiangqiWeights {
    value: [0, 150, 150, 402, 950, 476, 114],
    crossed_soldier: 142,
    tempo: 5,
    chariot_reach: 16,
    horse_leg_blocked: 2,
    missing_advisor: 20,
    missing_elephant: 30,
    general_home: 5,
    general_per_rank: -24,
    horse: [3, 32, 4, -4],
    cannon: [27, 11, -6],
    chariot: [22, 18],
    soldier: [-4, 20],
    soldier_last_rank: -110,
};

/// The base value of `role`.
pub(crate) fn value(role: Role) -> i32 {
    VALUE[role.index()]
}

/// How far `sq` is from `color`'s own back rank (0 on it, 9 on the enemy's).
fn advance(color: Color, sq: Square) -> i32 {
    i32::from(match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    })
}

fn sign(color: Color) -> i32 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// The pieces that can cross the river and attack.
fn attackers(pos: &Position, color: Color) -> u32 {
    [Role::Chariot, Role::Horse, Role::Cannon, Role::Soldier]
        .iter()
        .map(|&role| pos.pieces(color, role).count())
        .sum()
}

impl Evaluate for Position {
    type Weights = XiangqiWeights;

    fn weights(&self) -> &'static XiangqiWeights {
        &XIANGQI
    }

    #[inline]
    fn evaluate_with(&self, w: &XiangqiWeights) -> i32 {
        // Horses gain and cannons lose as the board empties (fewer screens).
        let pieces = self.occupied().count() as i32;
        let endgame = (32 - pieces).clamp(0, 24);
        let mut score = 0;
        for color in [Color::Red, Color::Black] {
            let enemy_general = self.general_square(color.opponent());
            let enemy_general = (enemy_general.file(), enemy_general.rank());
            let mut side = 0;
            for role in Role::ALL {
                for index in self.pieces(color, role).iter() {
                    let Some(sq) = Square::from_index(index) else {
                        continue;
                    };
                    let piece = Piece { color, role };
                    side += piece_score(w, piece, sq, endgame, enemy_general)
                        + mobility(w, self, piece, sq);
                }
            }
            if attackers(self, color.opponent()) > 0 {
                let advisors = self.pieces(color, Role::Advisor).count() as i32;
                let elephants = self.pieces(color, Role::Elephant).count() as i32;
                side += w.missing_advisor * (2 - advisors) + w.missing_elephant * (2 - elephants);
            }
            score += sign(color) * side;
        }
        sign(self.turn()) * score + w.tempo
    }

    fn weight_names() -> Vec<String> {
        XIANGQI.flat().0
    }

    fn weight_values(weights: &XiangqiWeights) -> Vec<i32> {
        weights.flat().1
    }

    fn with_weight_values(weights: &XiangqiWeights, values: &[i32]) -> XiangqiWeights {
        weights.with_values(values)
    }

    fn captured_value(&self, mv: Move) -> Option<i32> {
        self.piece_at(mv.to).map(|p| value(p.role))
    }

    fn mover_value(&self, mv: Move) -> i32 {
        self.piece_at(mv.from).map_or(0, |p| value(p.role))
    }

    fn is_promotion(&self, _mv: Move) -> bool {
        false
    }
}

/// The point `steps` away from `sq` in direction `(df, dr)`, if on the board.
fn step(sq: Square, (df, dr): (i8, i8), steps: i8) -> Option<Square> {
    let file = sq.file() as i8 + df * steps;
    let rank = sq.rank() as i8 + dr * steps;
    if (0..9).contains(&file) && (0..10).contains(&rank) {
        Square::new(file as u8, rank as u8)
    } else {
        None
    }
}

/// Chariots gain for every point they reach (empty, or an enemy piece);
/// horses lose for every leg a piece blocks (蹩马腿, a hobbled horse).
fn mobility(w: &XiangqiWeights, pos: &Position, piece: Piece, sq: Square) -> i32 {
    const LINES: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    match piece.role {
        Role::Chariot => {
            let mut reach = 0;
            for direction in LINES {
                for steps in 1..10 {
                    let Some(target) = step(sq, direction, steps) else {
                        break;
                    };
                    match pos.piece_at(target) {
                        None => reach += 1,
                        Some(other) => {
                            reach += i32::from(other.color != piece.color);
                            break;
                        }
                    }
                }
            }
            w.chariot_reach * reach
        }
        Role::Horse => {
            // A leg counts only if the horse could jump over it onto the board.
            let blocked = LINES
                .iter()
                .filter(|&&direction| step(sq, direction, 2).is_some())
                .filter(|&&direction| {
                    step(sq, direction, 1).is_some_and(|leg| pos.piece_at(leg).is_some())
                })
                .count() as i32;
            w.horse_leg_blocked * blocked
        }
        _ => 0,
    }
}

/// Material plus placement of `piece` on `sq`, from its owner's view.
fn piece_score(
    w: &XiangqiWeights,
    piece: Piece,
    sq: Square,
    endgame: i32,
    enemy_general: (u8, u8),
) -> i32 {
    let rank = advance(piece.color, sq);
    let centre = 4 - i32::from(sq.file().abs_diff(4));
    let near_general = 4 - distance((sq.file(), sq.rank()), enemy_general).min(4);
    let mut score = w.value[piece.role.index()];
    score += match piece.role {
        Role::General => {
            if rank == 0 && sq.file() == 4 {
                w.general_home
            } else {
                w.general_per_rank * rank
            }
        }
        Role::Horse => {
            let [centre_w, rank_w, near_w, endgame_w] = w.horse;
            centre_w * centre + rank_w * rank.min(7) + near_w * near_general + endgame_w * endgame
        }
        Role::Cannon => {
            let [centre_w, rank_w, endgame_w] = w.cannon;
            centre_w * centre + rank_w * rank.min(5) + endgame_w * endgame
        }
        Role::Chariot => {
            let [centre_w, rank_w] = w.chariot;
            centre_w * centre + rank_w * rank.min(7)
        }
        Role::Soldier if rank >= 5 => {
            // Across the river; worth less once stuck on the last rank.
            let [centre_w, near_w] = w.soldier;
            let last_rank = if rank == 9 { w.soldier_last_rank } else { 0 };
            w.crossed_soldier + centre_w * centre + near_w * near_general + last_rank
        }
        Role::Advisor | Role::Elephant | Role::Soldier => 0,
    };
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_balanced_but_for_the_tempo() {
        let start = Position::startpos();
        assert_eq!(start.evaluate(), start.weights().tempo);
    }

    #[test]
    fn a_crossed_soldier_is_worth_more() {
        let home = Position::from_fen("4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1").unwrap();
        let crossed = Position::from_fen("4k4/9/9/4P4/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert!(crossed.evaluate() > home.evaluate() + 80);
    }

    #[test]
    fn hobbled_horses_and_boxed_chariots_lose() {
        let start = Position::startpos();
        let red = Color::Red;
        // The chariot on a0 reaches a1 and a2 (a3 holds a soldier of its own).
        let horse = mobility(
            &XIANGQI,
            &start,
            Piece {
                color: red,
                role: Role::Horse,
            },
            Square::new(1, 0).unwrap(),
        );
        let chariot = mobility(
            &XIANGQI,
            &start,
            Piece {
                color: red,
                role: Role::Chariot,
            },
            Square::new(0, 0).unwrap(),
        );
        assert_eq!(chariot, XIANGQI.chariot_reach * 2);
        // Legs of b0: b1 (free) and c0 (the elephant: blocked); the a0 leg
        // would land off the board, so it does not count.
        assert_eq!(horse, XIANGQI.horse_leg_blocked);
    }

    #[test]
    fn a_missing_chariot_shows() {
        let fen = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.evaluate() > 800);
    }
}
