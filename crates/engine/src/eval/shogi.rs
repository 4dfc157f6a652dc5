//! Evaluation of shogi, minishogi and annan shogi.
//!
//! Terms, each from Sente's view and negated for Gote:
//! - material on the board, and in hand: a piece in hand can be dropped
//!   anywhere, so it is worth more than the same piece boxed in on the board;
//! - king safety: the king on its own back ranks, golds and silvers around
//!   it, enemy pieces close to it;
//! - attack: promoted pieces and golds near the enemy king;
//! - mobility: squares the bishop, rook, horse and dragon reach;
//! - annan: a piece backed by a stronger friendly piece moves like it, so it
//!   gets part of the difference (the value of supported pieces).
//!
//! The weights of each game were tuned on its self-play games (README,
//! "Tuning").

use rules::shogi::{Color, Move, Piece, Position, Role, Square};
use rules::{Position as _, Variant};

use super::{Evaluate, distance};

/// The value of a piece on the board, by [`Role::index`], that orders
/// captures in all three games: fixed, whatever the tuned weights say.
const BOARD_VALUE: [i32; 14] = [
    100,  // pawn
    300,  // lance
    350,  // knight
    500,  // silver
    550,  // gold
    800,  // bishop
    950,  // rook
    0,    // king
    550,  // tokin
    530,  // promoted lance
    540,  // promoted knight
    550,  // promoted silver
    1050, // horse
    1250, // dragon
];

/// The value of a piece in hand, by [`Role::index`] of the unpromoted kind,
/// that prices captures in exchanges beside [`BOARD_VALUE`]: fixed as well.
const HAND_VALUE: [i32; 7] = [115, 340, 400, 570, 620, 920, 1100];

weights! {
    /// The weights of a shogi-family evaluation, each from its owner's view.
    pub struct ShogiWeights {
        /// A piece on the board, by [`Role::index`] (promoted kinds included).
        pub board: [i32; 14],
        /// A piece in hand, by [`Role::index`] of the unpromoted kind.
        pub hand: [i32; 7],
        /// Per square a bishop, rook, horse or dragon reaches.
        pub mobility: i32,
        /// For the side to move: the initiative matters in drop games.
        pub tempo: i32,
        /// The king on its own back two ranks.
        pub king_home: i32,
        /// Per rank the king stands beyond its second.
        pub king_per_rank: i32,
        /// A gold or silver next to its own king.
        pub defender_next: i32,
        /// A gold or silver two steps from its own king.
        pub defender_near: i32,
        /// Per rank a pawn has advanced.
        pub pawn_per_rank: i32,
        /// Per step closer than three to the enemy king, for a gold, a
        /// silver or a promoted piece.
        pub attacker_near_king: i32,
        /// The same for the other pieces.
        pub other_near_king: i32,
        /// Annan: the percentage of the difference to its stronger
        /// supporter that a supported piece gains.
        pub support_percent: i32,
    }
}

/// Shogi's weights.
const SHOGI: ShogiWeights = ShogiWeights {
    board: [
        96, 280, 330, 520, 530, 780, 970, 0, 570, 550, 520, 570, 1030, 1270,
    ],
    hand: [95, 360, 396, 590, 616, 900, 1120],
    mobility: 24,
    tempo: 28,
    king_home: 50,
    king_per_rank: -45,
    defender_next: 55,
    defender_near: -5,
    pawn_per_rank: -5,
    attacker_near_king: 32,
    other_near_king: 25,
    support_percent: 25,
};

/// Minishogi's weights.
const MINISHOGI: ShogiWeights = ShogiWeights {
    board: [
        170, 300, 350, 570, 620, 830, 888, 0, 620, 530, 540, 480, 1104, 1320,
    ],
    hand: [185, 340, 400, 640, 690, 850, 1030],
    mobility: 21,
    tempo: 90,
    king_home: 100,
    king_per_rank: 37,
    defender_next: 105,
    defender_near: 85,
    pawn_per_rank: -13,
    attacker_near_king: 82,
    other_near_king: 75,
    support_percent: 25,
};

/// Annan's weights.
const ANNAN: ShogiWeights = ShogiWeights {
    board: [
        73, 293, 320, 477, 528, 770, 979, -21, 555, 543, 570, 520, 1020, 1280,
    ],
    hand: [85, 326, 370, 600, 650, 890, 1070],
    mobility: 34,
    tempo: 50,
    king_home: 60,
    king_per_rank: 5,
    defender_next: 65,
    defender_near: -15,
    pawn_per_rank: 20,
    attacker_near_king: 42,
    other_near_king: 35,
    support_percent: 25,
};

/// The value of `role` standing on the board.
pub(crate) fn board_value(role: Role) -> i32 {
    BOARD_VALUE[role.index()]
}

/// What losing `role` costs in an exchange: it leaves the board and joins
/// the captor's hand (unpromoted), so its board value plus its hand value.
/// (The king never goes to a hand.)
pub(crate) fn exchange_value(role: Role) -> i32 {
    let in_hand = HAND_VALUE.get(role.unpromoted().index()).copied();
    board_value(role) + in_hand.unwrap_or(0)
}

/// The board's width and height: 5 for minishogi, else 9.
fn board_size(variant: Variant) -> u8 {
    if variant == Variant::Minishogi { 5 } else { 9 }
}

/// How far `sq` is from `color`'s own back rank (0 on it).
fn advance(color: Color, sq: Square, size: u8) -> i32 {
    i32::from(match color {
        Color::Sente => size - sq.rank(),
        Color::Gote => sq.rank() - 1,
    })
}

/// The square directly behind `sq` for `color`, on a board of `size`.
fn behind(color: Color, sq: Square, size: u8) -> Option<Square> {
    match color {
        Color::Sente if sq.rank() < size => Square::new(sq.file(), sq.rank() + 1),
        Color::Gote if sq.rank() > 1 => Square::new(sq.file(), sq.rank() - 1),
        _ => None,
    }
}

fn sign(color: Color) -> i32 {
    match color {
        Color::Sente => 1,
        Color::Gote => -1,
    }
}

impl Evaluate for Position {
    type Weights = ShogiWeights;

    fn weights(&self) -> &'static ShogiWeights {
        match self.variant() {
            Variant::Minishogi => &MINISHOGI,
            Variant::Annan => &ANNAN,
            _ => &SHOGI,
        }
    }

    #[inline]
    fn evaluate_with(&self, w: &ShogiWeights) -> i32 {
        let variant = self.variant();
        let size = board_size(variant);
        let kings = Color::ALL.map(|c| {
            let sq = self.king(c);
            (sq.file(), sq.rank())
        });
        let mut score = 0;
        for color in Color::ALL {
            let hand = self.hand(color);
            let in_hand: i32 = Role::HAND
                .iter()
                .map(|&role| w.hand[role.index()] * i32::from(hand.get(role)))
                .sum();
            score += sign(color) * in_hand;
        }
        let annan = variant == Variant::Annan;
        // Minishogi pieces stand on the same 81-square numbering.
        for index in 0..81 {
            let Some(sq) = Square::from_index(index) else {
                continue;
            };
            let Some(piece) = self.piece_at(sq) else {
                continue;
            };
            let mut value = piece_score(w, piece, sq, size, kings);
            // Annan: the piece moves like its supporter, if it has one.
            let supporter = if annan {
                support(self, piece, sq, size)
            } else {
                None
            };
            let mover = match supporter {
                Some(supporter) => {
                    value += supported_bonus(w, piece, supporter);
                    Piece {
                        role: supporter.role,
                        ..piece
                    }
                }
                None => piece,
            };
            value += w.mobility * slider_reach(self, mover, sq, size);
            score += sign(piece.color) * value;
        }
        let us = self.turn();
        sign(us) * score + w.tempo
    }

    fn weight_names() -> Vec<String> {
        SHOGI.flat().0
    }

    fn weight_values(weights: &ShogiWeights) -> Vec<i32> {
        weights.flat().1
    }

    fn with_weight_values(weights: &ShogiWeights, values: &[i32]) -> ShogiWeights {
        weights.with_values(values)
    }

    fn captured_value(&self, mv: Move) -> Option<i32> {
        match mv {
            Move::Normal { to, .. } => self.piece_at(to).map(|p| board_value(p.role)),
            Move::Drop { .. } => None,
        }
    }

    fn mover_value(&self, mv: Move) -> i32 {
        match mv {
            Move::Normal { from, .. } => self.piece_at(from).map_or(0, |p| board_value(p.role)),
            Move::Drop { role, .. } => board_value(role),
        }
    }

    fn is_promotion(&self, mv: Move) -> bool {
        mv.is_promotion()
    }
}

/// Material plus placement of `piece` on `sq`, from its owner's view;
/// `kings` are the kings' `(file, rank)`, Sente's first.
fn piece_score(w: &ShogiWeights, piece: Piece, sq: Square, size: u8, kings: [(u8, u8); 2]) -> i32 {
    let here = (sq.file(), sq.rank());
    let own_king = distance(here, kings[piece.color.index()]);
    let enemy_king = distance(here, kings[piece.color.opponent().index()]);
    let rank = advance(piece.color, sq, size);
    let mut score = w.board[piece.role.index()];
    score += match piece.role {
        Role::King => {
            // Safe at home; every rank up costs.
            if rank <= 1 {
                w.king_home
            } else {
                w.king_per_rank * (rank - 1)
            }
        }
        Role::Gold | Role::Silver => {
            // Defenders: near their own king.
            match own_king {
                1 => w.defender_next,
                2 => w.defender_near,
                _ => 0,
            }
        }
        Role::Pawn => w.pawn_per_rank * rank,
        _ => 0,
    };
    if piece.role != Role::King {
        // Pressure on the enemy king, strongest for the pieces that move like gold or better.
        let attacker = matches!(
            piece.role,
            Role::Gold
                | Role::Silver
                | Role::Tokin
                | Role::PromotedLance
                | Role::PromotedKnight
                | Role::PromotedSilver
                | Role::Horse
                | Role::Dragon
        );
        let weight = if attacker {
            w.attacker_near_king
        } else {
            w.other_near_king
        };
        score += weight * (3 - enemy_king).max(0);
    }
    score
}

/// Squares a bishop, rook, horse or dragon reaches along its lines (empty,
/// or holding an enemy piece): a boxed-in slider is worth less. In annan,
/// `piece` carries the role whose movement it borrows.
fn slider_reach(pos: &Position, piece: Piece, sq: Square, size: u8) -> i32 {
    const DIAGONALS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const LINES: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let directions: &[(i8, i8)] = match piece.role {
        Role::Bishop | Role::Horse => &DIAGONALS,
        Role::Rook | Role::Dragon => &LINES,
        _ => return 0,
    };
    let mut reach = 0;
    for &(df, dr) in directions {
        let (mut file, mut rank) = (sq.file() as i8, sq.rank() as i8);
        loop {
            file += df;
            rank += dr;
            if !(1..=size as i8).contains(&file) || !(1..=size as i8).contains(&rank) {
                break;
            }
            let Some(target) = Square::new(file as u8, rank as u8) else {
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
    reach
}

/// Annan: a piece standing in front of a stronger friendly piece moves like
/// it, so it is worth part of the difference.
fn supported_bonus(w: &ShogiWeights, piece: Piece, supporter: Piece) -> i32 {
    if supporter.role == Role::King {
        return 0;
    }
    let gain = w.board[supporter.role.index()] - w.board[piece.role.index()];
    gain.max(0) * w.support_percent / 100
}

/// Annan: the friendly piece directly behind `piece` on `sq`, whose
/// movement it borrows.
fn support(pos: &Position, piece: Piece, sq: Square, size: u8) -> Option<Piece> {
    behind(piece.color, sq, size)
        .and_then(|b| pos.piece_at(b))
        .filter(|backer| backer.color == piece.color)
}

#[cfg(test)]
mod tests {
    use rules::{AnnanDeadPiece, Settings};

    use super::*;

    fn pos(sfen: &str, variant: Variant) -> Position {
        Position::from_sfen(sfen, variant, AnnanDeadPiece::default()).unwrap()
    }

    #[test]
    fn the_start_is_balanced_but_for_the_tempo() {
        for variant in [Variant::Shogi, Variant::Minishogi, Variant::Annan] {
            let start = Position::startpos(variant, &Settings::default());
            assert_eq!(start.evaluate(), start.weights().tempo, "{variant}");
        }
    }

    #[test]
    fn a_piece_in_hand_is_worth_more_than_a_boxed_one_on_the_board() {
        // The same rook: boxed in on 9i (it reaches no square), or in Sente's hand.
        let on_board = pos("4k4/9/9/9/9/9/9/P8/RN2K4 b - 1", Variant::Shogi);
        let in_hand = pos("4k4/9/9/9/9/9/9/P8/1N2K4 b R 1", Variant::Shogi);
        for weights in [&SHOGI, &MINISHOGI, &ANNAN] {
            assert!(in_hand.evaluate_with(weights) > on_board.evaluate_with(weights));
        }
    }

    #[test]
    fn material_counts_for_the_side_to_move() {
        let sente = pos("4k4/9/9/9/9/9/9/9/4K4 b R 1", Variant::Shogi);
        let gote = pos("4k4/9/9/9/9/9/9/9/4K4 w R 1", Variant::Shogi);
        assert!(sente.evaluate() > 900);
        assert!(gote.evaluate() < -900);
    }

    #[test]
    fn an_open_rook_is_worth_more_than_a_boxed_one() {
        // The same material: Sente's rook on 5e (open lines) or 9i (behind its own pieces).
        let open = pos("4k4/9/9/9/5R3/9/9/P8/LN2K4 b - 1", Variant::Shogi);
        let boxed = pos("4k4/9/9/9/9/9/9/P8/RN2K4 b L 1", Variant::Shogi);
        assert!(
            slider_reach(
                &open,
                Piece {
                    color: Color::Sente,
                    role: Role::Rook
                },
                Square::new(4, 5).unwrap(),
                9
            ) >= 14
        );
        assert_eq!(
            slider_reach(
                &boxed,
                Piece {
                    color: Color::Sente,
                    role: Role::Rook
                },
                Square::new(9, 9).unwrap(),
                9
            ),
            0
        );
    }

    #[test]
    fn annan_values_a_pawn_backed_by_a_rook() {
        // A pawn on 4e with a rook behind it on 4f moves like a rook.
        let backed = pos("4k4/9/9/9/5P3/5R3/9/9/4K4 b - 1", Variant::Annan);
        let apart = pos("4k4/9/9/9/5P3/9/3R5/9/4K4 b - 1", Variant::Annan);
        assert!(backed.evaluate() > apart.evaluate() + 100);
    }
}
