//! Evaluation of xiangqi.
//!
//! Terms, each from Red's view and negated for Black:
//! - material, with the soldier worth double once across the river and the
//!   horse gaining on the cannon as the board empties;
//! - placement: horses and cannons towards the centre and forward, soldiers
//!   near the enemy palace; a table per kind by rank and file, and one per
//!   attacking kind (chariot, horse, cannon, soldier) by where it stands
//!   relative to the enemy general;
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
//! The weights were tuned on self-play games (`docs/tuning.md`).

use rules::Bitboard;
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
        /// Per kind ([`Role::index`]), by point: a row per rank from the
        /// owner's back rank (0) to the enemy's (9), a column per file from
        /// the centre file (0) to the edge (4).
        pub squares: [[[i32; 5]; 10]; 7],
        /// Per attacking kind ([`ATTACKERS`]), by where it stands relative
        /// to the enemy general ([`around_enemy_general`]).
        pub around_enemy_general: [AroundGeneral; 4],
    }
}

/// A general-relative table: a row per rank from nine behind the enemy
/// general, from the attacker's view, to two beyond it (the general keeps
/// to its palace), a column per file distance from it (0 to 5).
type AroundGeneral = [[i32; 6]; 12];

/// The weights the engine plays with.
const XIANGQI: XiangqiWeights = XiangqiWeights {
    value: [0, 160, 148, 384, 1134, 498, 120],
    crossed_soldier: 114,
    tempo: 16,
    chariot_reach: 8,
    horse_leg_blocked: -13,
    missing_advisor: 23,
    missing_elephant: 27,
    general_home: 7,
    general_per_rank: -34,
    horse: [8, 26, 14, -1],
    cannon: [17, 4, -3],
    chariot: [17, 14],
    soldier: [-1, 28],
    soldier_last_rank: -113,
    attack_units: [14, 8, 3, 7],
    attack_defender: 5,
    attack_danger: 3,
    hollow_cannon: 30,
    cannon_battery: 16,
    palace_heart_horse: -13,
    squares: [
        [
            [-6, -10, 0, 0, 0],
            [21, 8, 0, 0, 0],
            [-3, -14, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        [
            [0, -6, 0, 0, 0],
            [9, 0, 0, 0, 0],
            [0, -10, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        [
            [0, 0, 2, 0, 0],
            [0, 0, 0, 0, 0],
            [11, 0, 0, 0, -10],
            [0, 0, 0, 0, 0],
            [0, 0, -6, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        [
            [-6, 17, 43, -7, -18],
            [13, -9, -6, 0, -11],
            [34, 2, 30, -20, 8],
            [-3, 1, 11, 0, -36],
            [22, 14, 31, 31, -7],
            [23, 32, 17, 11, 16],
            [-5, -6, 2, 30, 32],
            [-25, -17, -10, -4, 20],
            [-50, -26, -28, 12, 8],
            [-51, -3, -14, -18, -2],
        ],
        [
            [-15, 29, 5, 26, -50],
            [-32, 2, -2, 10, 1],
            [4, 17, 31, 21, 10],
            [-3, 20, 46, 37, 46],
            [16, 14, 12, 29, 54],
            [-5, -3, 11, 6, 37],
            [-22, -15, 5, 5, 32],
            [-30, -20, -23, -32, -2],
            [60, -33, -35, -22, -22],
            [5, -24, -32, -10, 24],
        ],
        [
            [31, 8, -40, -44, -17],
            [0, -1, -15, 28, 3],
            [1, -1, 6, -8, -3],
            [-11, -10, -18, -21, -3],
            [21, 14, 37, 36, 10],
            [4, 9, 22, -10, 0],
            [9, 5, 16, 2, -6],
            [-16, -29, 0, -7, 30],
            [-25, -1, -9, -8, -22],
            [-9, -15, 6, -6, -5],
        ],
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [16, 0, -2, 0, 1],
            [2, 0, 11, 0, -3],
            [-3, 13, -6, 5, -12],
            [-26, -13, -20, 7, 0],
            [17, 9, -2, 5, -8],
            [43, -7, -14, -1, -10],
            [-6, -26, 8, 21, 11],
        ],
    ],
    around_enemy_general: [
        [
            [-11, -3, -22, -7, -13, 5],
            [-19, -4, -25, 6, -22, -15],
            [-2, -9, -24, -5, -41, 8],
            [25, 7, -7, 3, -37, 18],
            [-8, 4, 8, -4, -26, 4],
            [14, 13, 12, -4, -18, 5],
            [23, 20, 10, 0, -17, 0],
            [29, 23, 16, 16, 1, 7],
            [0, 23, 8, 10, 15, 14],
            [0, 0, 12, -13, -25, 10],
            [0, 1, 5, -31, -29, -27],
            [36, 115, 42, 28, 9, -8],
        ],
        [
            [1, -16, -30, -17, -22, 0],
            [-5, -6, 2, -11, 19, 13],
            [-21, -7, -25, -12, 5, 12],
            [7, 18, -17, -5, 17, 25],
            [13, 9, 19, 1, -1, -44],
            [12, 29, 42, 21, -5, -16],
            [-1, 40, 5, 20, -7, -34],
            [17, 17, -6, 8, 16, -20],
            [-24, 3, 36, 24, -6, -17],
            [0, 5, 9, 11, 19, 1],
            [-33, -14, 23, 9, 4, 6],
            [11, 0, 11, -8, -6, -26],
        ],
        [
            [17, -39, -3, -24, -4, -8],
            [22, -18, 20, -33, 17, 12],
            [33, 4, 14, -1, 23, -18],
            [42, 11, 23, 6, 22, -7],
            [6, -12, -4, -15, 22, -69],
            [-5, -2, -34, -17, 18, 1],
            [-16, -3, -1, 9, 18, 20],
            [-22, -4, 5, 14, 8, 14],
            [-74, -9, 18, 11, 64, -2],
            [0, -42, -39, -10, 24, 4],
            [-23, -15, 7, 29, 8, 8],
            [10, -46, 11, 3, -14, -17],
        ],
        [
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [-20, -20, -19, -10, -15, -6],
            [-13, -20, -15, 0, 4, 7],
            [-1, 0, -11, 0, 13, 27],
            [14, 9, 12, 4, 15, 4],
            [8, 11, -8, -1, 11, 22],
            [0, 16, 12, 13, 22, -3],
            [0, 0, 23, 10, 11, 11],
            [-13, 2, 6, 17, 5, 0],
            [-19, -52, -25, -4, 2, 0],
        ],
    ],
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

/// The four lines as `(file step, rank step)`: towards file i, towards file
/// a, towards Black, towards Red. Points are numbered rank-major, so the
/// first and third run up the indices and the others down.
const LINES: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// `RAYS[direction][point]`: the points from `point` (exclusive) to the
/// board's edge along `LINES[direction]`.
static RAYS: [[Bitboard; Square::COUNT]; 4] = {
    let mut rays = [[Bitboard::EMPTY; Square::COUNT]; 4];
    let mut direction = 0;
    while direction < 4 {
        let (df, dr) = LINES[direction];
        let mut index = 0;
        while index < Square::COUNT {
            let (mut file, mut rank) = ((index % 9) as i8 + df, (index / 9) as i8 + dr);
            let mut bits = 0u128;
            while file >= 0 && file < 9 && rank >= 0 && rank < 10 {
                bits |= 1 << (rank * 9 + file);
                file += df;
                rank += dr;
            }
            rays[direction][index] = Bitboard(bits);
            index += 1;
        }
        direction += 1;
    }
    rays
};

/// `HORSE_LEGS[point]`: the legs of a horse on `point` that it could jump
/// over onto the board (the point next to it in each line with a point two
/// steps along).
static HORSE_LEGS: [Bitboard; Square::COUNT] = {
    let mut legs = [Bitboard::EMPTY; Square::COUNT];
    let mut index = 0;
    while index < Square::COUNT {
        let (file, rank) = ((index % 9) as i8, (index / 9) as i8);
        let mut bits = 0u128;
        let mut direction = 0;
        while direction < 4 {
            let (df, dr) = LINES[direction];
            let (far_file, far_rank) = (file + 2 * df, rank + 2 * dr);
            if far_file >= 0 && far_file < 9 && far_rank >= 0 && far_rank < 10 {
                bits |= 1 << ((rank + dr) * 9 + file + df);
            }
            direction += 1;
        }
        legs[index] = Bitboard(bits);
        index += 1;
    }
    legs
};

/// The points along `direction` from `sq` up to and including the first
/// piece of `occupied`.
fn ray_until(direction: usize, sq: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[direction][usize::from(sq.index())];
    let blockers = ray & occupied;
    let nearest = if direction % 2 == 0 {
        blockers.first()
    } else {
        blockers.last()
    };
    match nearest {
        Some(blocker) => ray ^ RAYS[direction][usize::from(blocker)],
        None => ray,
    }
}

/// Chariots gain for every point they reach (empty, or an enemy piece);
/// horses lose for every leg a piece blocks (蹩马腿, a hobbled horse).
fn mobility(w: &XiangqiWeights, pos: &Position, piece: Piece, sq: Square) -> i32 {
    let occupied = pos.occupied();
    match piece.role {
        Role::Chariot => {
            let reached = (0..4).fold(Bitboard::EMPTY, |reached, direction| {
                reached | ray_until(direction, sq, occupied)
            });
            let reach = reached.and_not(pos.pieces_of(piece.color)).count() as i32;
            w.chariot_reach * reach
        }
        Role::Horse => {
            let blocked = (HORSE_LEGS[usize::from(sq.index())] & occupied).count() as i32;
            w.horse_leg_blocked * blocked
        }
        _ => 0,
    }
}

/// The points of the ranks `from` to `to` (inclusive) on files `files`
/// (a bit per file, file a lowest).
const fn area(from: usize, to: usize, files: u128) -> Bitboard {
    let mut bits = 0;
    let mut rank = from;
    while rank <= to {
        bits |= files << (9 * rank);
        rank += 1;
    }
    Bitboard(bits)
}

/// Before the enemy palace, by colour: the four ranks nearest the enemy's
/// back rank, on every file (for chariots) and on files c to g (the others).
const BEFORE_PALACE: [[Bitboard; 2]; 2] = [
    [area(6, 9, 0x1ff), area(6, 9, 0x7c)],
    [area(0, 3, 0x1ff), area(0, 3, 0x7c)],
];

/// What `color`'s attack on the enemy palace is worth: the square of its
/// attack units, less those the enemy's advisors and elephants take off.
/// (Attack units for each chariot, horse, cannon and soldier with a check
/// in hand, 16, 12, 12 and 6 untuned, cost 22% more instructions a node and
/// scored 16.5/40 against Fairy-Stockfish at equal cost, where the same
/// games gave 24/40 without: not kept. Nor was a king danger beside it that
/// counts what the attackers hit in the palace, the points there no advisor
/// or elephant guards, safe chariot and horse checks and the general's
/// escapes (commit 2167c12): fitted to Koma's scores it drew level at equal
/// nodes, 28.5/40 against 28/40, but cost 13% more instructions a node and
/// scored 25/40 at equal cost; fitted to Fairy-Stockfish's, 22.5/40. Nor
/// these king safety weights alone refitted to Fairy-Stockfish's scores
/// (`tune fit --free`: attack units 7, -15, 8 and -1, defender 5,
/// danger 12, hollow cannon 104, battery 85, missing advisor -12 and
/// elephant -9): 27.5/40 at no extra cost. Nor a siege table beside it, by
/// how many attackers stand before the palace (one to five) and how many
/// advisors and elephants are left (none to four), fitted alone to Koma's
/// scores of 176,156 positions of 1,500 new games at 5,000 nodes a move
/// (held-out error 0.003108 to 0.003061; 60 to 130 cp for two to four
/// attackers against one defender or none, nothing against four): 60/120 on
/// row S's openings and budgets (docs/strength.md), where the table without
/// scored 76/120.)
fn palace_attack(w: &XiangqiWeights, pos: &Position, color: Color) -> i32 {
    let [any_file, palace_files] = BEFORE_PALACE[usize::from(color == Color::Black)];
    let mut units = 0;
    for (kind, role) in ATTACKERS.into_iter().enumerate() {
        let before_palace = if role == Role::Chariot {
            any_file
        } else {
            palace_files
        };
        units += w.attack_units[kind] * (pos.pieces(color, role) & before_palace).count() as i32;
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
/// `None` when the two points are not on one: those on the ray from `from`
/// towards `to` and on the ray back.
fn pieces_between(pos: &Position, from: Square, to: Square) -> Option<usize> {
    let direction = if from.rank() == to.rank() {
        usize::from(to.file() < from.file())
    } else if from.file() == to.file() {
        2 + usize::from(to.rank() < from.rank())
    } else {
        return None;
    };
    let between =
        RAYS[direction][usize::from(from.index())] & RAYS[direction ^ 1][usize::from(to.index())];
    Some((between & pos.occupied()).count() as usize)
}

/// The `(row, column)` of a `color` piece on `sq` in an [`AroundGeneral`]
/// table of the enemy general on `general`, `(file, rank)`.
fn around_enemy_general(color: Color, sq: Square, general: (u8, u8)) -> (usize, usize) {
    let general_advance = match color {
        Color::Red => general.1,
        Color::Black => 9 - general.1,
    };
    // The enemy general stands 7 to 9 ranks from `color`'s back rank.
    let row = advance(color, sq) as usize + 9 - usize::from(general_advance);
    (row, usize::from(sq.file().abs_diff(general.0)))
}

/// The place of `role` in [`ATTACKERS`], if it is one.
fn attacker_kind(role: Role) -> Option<usize> {
    match role {
        Role::Chariot => Some(0),
        Role::Horse => Some(1),
        Role::Cannon => Some(2),
        Role::Soldier => Some(3),
        Role::General | Role::Advisor | Role::Elephant => None,
    }
}

/// Material plus placement of `piece` on `sq`, from its owner's view.
#[inline(always)]
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
    let file_from_centre = usize::from(sq.file().abs_diff(4));
    let mut score = w.value[piece.role.index()]
        + w.squares[piece.role.index()][rank as usize][file_from_centre];
    if let Some(kind) = attacker_kind(piece.role) {
        let (row, column) = around_enemy_general(piece.color, sq, enemy_general);
        score += w.around_enemy_general[kind][row][column];
    }
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

    /// `fen` with the colours swapped (ranks reversed, the other side to
    /// move) or the files mirrored.
    fn flipped(fen: &str, colours: bool) -> Position {
        let (board, rest) = fen.split_once(' ').unwrap();
        let rows: Vec<String> = if colours {
            board
                .split('/')
                .rev()
                .map(|row| {
                    row.chars()
                        .map(|c| {
                            if c.is_ascii_uppercase() {
                                c.to_ascii_lowercase()
                            } else {
                                c.to_ascii_uppercase()
                            }
                        })
                        .collect()
                })
                .collect()
        } else {
            board
                .split('/')
                .map(|row| row.chars().rev().collect())
                .collect()
        };
        let rest = if colours {
            let side = if rest.starts_with('w') { "b" } else { "w" };
            format!("{side}{}", &rest[1..])
        } else {
            rest.to_owned()
        };
        Position::from_fen(&format!("{} {rest}", rows.join("/"))).unwrap()
    }

    #[test]
    fn both_players_and_both_wings_see_a_position_alike() {
        // A middlegame with the red general off its home point and pieces
        // of every kind on both wings.
        let fen = "2bak4/4a4/2n1b1n2/p1r1p3p/2p3c2/6P2/P1P1P3P/1C2B1N2/3RA4/3K1AB2 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(flipped(fen, true).evaluate(), pos.evaluate());
        assert_eq!(flipped(fen, false).evaluate(), pos.evaluate());
    }

    #[test]
    fn attackers_are_placed_relative_to_the_enemy_general() {
        // A red piece on e7 and the black general on e9: seven ranks
        // from Red's back rank, two behind the general's nine.
        assert_eq!(around_enemy_general(Color::Red, sq(4, 7), (4, 9)), (7, 0));
        // A black piece on f2 and the red general on d0: the same, two files aside.
        assert_eq!(around_enemy_general(Color::Black, sq(5, 2), (3, 0)), (7, 2));
        // The rows run from a piece on its own back rank with the general
        // on its own (0) to one on the enemy's back rank with the general
        // two ranks out of it (11); the columns to five files aside.
        assert_eq!(around_enemy_general(Color::Red, sq(0, 0), (5, 9)), (0, 5));
        assert_eq!(around_enemy_general(Color::Red, sq(3, 9), (3, 7)), (11, 0));
    }

    fn sq(file: u8, rank: u8) -> Square {
        Square::new(file, rank).unwrap()
    }
}
