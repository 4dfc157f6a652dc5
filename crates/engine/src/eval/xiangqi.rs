//! Evaluation of xiangqi.
//!
//! Terms, each from Red's view and negated for Black:
//! - material, with the soldier worth double once across the river and the
//!   horse gaining on the cannon as the board empties;
//! - placement: horses and cannons towards the centre and forward, soldiers
//!   near the enemy palace;
//! - mobility: points each chariot reaches, legs blocking each horse;
//! - king safety: missing advisors and elephants while the enemy still has
//!   attackers, and the general's rank; attackers gathered before the
//!   enemy palace, growing with the square of their number and shrinking
//!   with the advisors and elephants left to defend; cannons lined up with
//!   the enemy general with no screen (空头炮, a hollow cannon, which the
//!   general cannot step off the line of in safety) or two (a battery that
//!   one move turns into check); a horse on its own palace's heart (窝心马),
//!   where it blocks the general and the advisors.
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
        /// Attack units per chariot, horse, cannon and soldier before the
        /// enemy palace (the four ranks nearest the enemy back rank; files
        /// c to g but for the chariot).
        pub attack_units: [i32; 4],
        /// Attack units taken off per advisor and elephant the enemy has left.
        pub attack_defender: i32,
        /// King danger per square of the attack units, in sixteenths.
        pub attack_danger: i32,
        /// A cannon on the enemy general's file or rank with nothing between.
        pub hollow_cannon: i32,
        /// A cannon on the enemy general's file or rank with two pieces between.
        pub cannon_battery: i32,
        /// A horse on the heart of its own palace.
        pub palace_heart_horse: i32,
    }
}

/// The weights the engine plays with.
const XIANGQI: XiangqiWeights = XiangqiWeights {
    value: [0, 164, 144, 422, 972, 506, 104],
    crossed_soldier: 136,
    tempo: 10,
    chariot_reach: 12,
    horse_leg_blocked: -5,
    missing_advisor: 50,
    missing_elephant: 48,
    general_home: 26,
    general_per_rank: -40,
    horse: [9, 34, -21, -4],
    cannon: [22, 5, -6],
    chariot: [28, 15],
    soldier: [0, 15],
    soldier_last_rank: -117,
    attack_units: [12, 6, -4, 7],
    attack_defender: 4,
    attack_danger: 11,
    hollow_cannon: 56,
    cannon_battery: 14,
    palace_heart_horse: -64,
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

/// The kinds that can cross the river and attack, in the order of
/// [`XiangqiWeights::attack_units`].
const ATTACKERS: [Role; 4] = [Role::Chariot, Role::Horse, Role::Cannon, Role::Soldier];

/// How many pieces `color` has that can cross the river and attack.
fn attackers(pos: &Position, color: Color) -> u32 {
    ATTACKERS
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
            let general_at = (enemy_general.file(), enemy_general.rank());
            let mut side = 0;
            for role in Role::ALL {
                for index in self.pieces(color, role).iter() {
                    let Some(sq) = Square::from_index(index) else {
                        continue;
                    };
                    let piece = Piece { color, role };
                    side += piece_score(w, piece, sq, endgame, general_at)
                        + mobility(w, self, piece, sq)
                        + king_pressure(w, self, piece, sq, enemy_general);
                }
            }
            if attackers(self, color.opponent()) > 0 {
                let advisors = self.pieces(color, Role::Advisor).count() as i32;
                let elephants = self.pieces(color, Role::Elephant).count() as i32;
                side += w.missing_advisor * (2 - advisors) + w.missing_elephant * (2 - elephants);
            }
            side += palace_attack(w, self, color);
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

/// What `color`'s attack on the enemy palace is worth: the square of its
/// attack units, less those the enemy's advisors and elephants take off.
fn palace_attack(w: &XiangqiWeights, pos: &Position, color: Color) -> i32 {
    let mut units = 0;
    for (role, weight) in ATTACKERS.into_iter().zip(w.attack_units) {
        for index in pos.pieces(color, role).iter() {
            let Some(sq) = Square::from_index(index) else {
                continue;
            };
            let before_palace = role == Role::Chariot || (2..=6).contains(&sq.file());
            if advance(color, sq) >= 6 && before_palace {
                units += weight;
            }
        }
    }
    let defenders: i32 = [Role::Advisor, Role::Elephant]
        .iter()
        .map(|&role| pos.pieces(color.opponent(), role).count() as i32)
        .sum();
    let attack = (units - w.attack_defender * defenders).max(0);
    w.attack_danger * attack * attack / 16
}

/// Threats to the enemy general from where `piece` stands, and the cost of
/// a horse choking its own general: hollow cannons, cannon batteries and
/// the horse on the palace heart.
fn king_pressure(
    w: &XiangqiWeights,
    pos: &Position,
    piece: Piece,
    sq: Square,
    enemy_general: Square,
) -> i32 {
    match piece.role {
        Role::Cannon => match pieces_between(pos, sq, enemy_general) {
            Some(0) => w.hollow_cannon,
            Some(2) => w.cannon_battery,
            _ => 0,
        },
        Role::Horse if sq.file() == 4 && advance(piece.color, sq) == 1 => w.palace_heart_horse,
        _ => 0,
    }
}

/// How many pieces stand between `from` and `to` on a file or rank, or
/// `None` when the two points are not on one.
fn pieces_between(pos: &Position, from: Square, to: Square) -> Option<usize> {
    let direction = if from.file() == to.file() {
        (0, if to.rank() > from.rank() { 1 } else { -1 })
    } else if from.rank() == to.rank() {
        (if to.file() > from.file() { 1 } else { -1 }, 0)
    } else {
        return None;
    };
    let steps = i8::try_from(distance((from.file(), from.rank()), (to.file(), to.rank()))).ok()?;
    Some(
        (1..steps)
            .filter_map(|n| step(from, direction, n))
            .filter(|&between| pos.piece_at(between).is_some())
            .count(),
    )
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
    fn attackers_before_a_bare_palace_count_more_together() {
        let danger =
            |fen: &str| palace_attack(&XIANGQI, &Position::from_fen(fen).unwrap(), Color::Red);
        // A chariot on b7 and a horse on c7 before Black's palace; then with
        // its advisors and elephants back.
        let none = danger("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
        let chariot = danger("4k4/9/1R7/9/9/9/9/9/9/3K5 w - - 0 1");
        let horse = danger("4k4/9/2N6/9/9/9/9/9/9/3K5 w - - 0 1");
        let both = danger("4k4/9/1RN6/9/9/9/9/9/9/3K5 w - - 0 1");
        let defended = danger("2bakab2/9/1RN6/9/9/9/9/9/9/3K5 w - - 0 1");
        assert_eq!(none, 0);
        assert!(chariot > 0 && horse > 0);
        assert!(both > chariot + horse, "{both} vs {chariot} + {horse}");
        assert!(defended < both);
        // Behind the river's far bank the chariot attacks nothing yet.
        assert_eq!(danger("4k4/9/9/9/9/1R7/9/9/9/3K5 w - - 0 1"), 0);
    }

    #[test]
    fn cannons_lined_up_with_the_general_and_a_choking_horse() {
        let pressure = |fen: &str, sq: (u8, u8)| {
            let pos = Position::from_fen(fen).unwrap();
            let sq = Square::new(sq.0, sq.1).unwrap();
            let piece = pos.piece_at(sq).unwrap();
            let general = pos.general_square(piece.color.opponent());
            king_pressure(&XIANGQI, &pos, piece, sq, general)
        };
        // Red cannon on e2 below Black's general on e9.
        let hollow = "4k4/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1";
        assert_eq!(pressure(hollow, (4, 2)), XIANGQI.hollow_cannon);
        let check = "4k4/9/9/4p4/9/9/9/4C4/9/3K5 b - - 0 1";
        assert_eq!(pressure(check, (4, 2)), 0);
        let battery = "4k4/9/9/4p4/9/9/4P4/4C4/9/3K5 w - - 0 1";
        assert_eq!(pressure(battery, (4, 2)), XIANGQI.cannon_battery);
        let off_line = "4k4/9/9/9/9/9/9/3C5/9/3K5 w - - 0 1";
        assert_eq!(pressure(off_line, (3, 2)), 0);
        // A red horse on e1, the heart of Red's palace.
        let heart = "4k4/9/9/9/9/9/9/9/4N4/3K5 w - - 0 1";
        assert_eq!(pressure(heart, (4, 1)), XIANGQI.palace_heart_horse);
        const { assert!(XIANGQI.palace_heart_horse < 0) };
    }

    #[test]
    fn a_missing_chariot_shows() {
        let fen = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.evaluate() > 800);
    }
}
