//! Evaluation of shogi, minishogi and annan shogi.
//!
//! Terms, each from Sente's view and negated for Gote:
//! - material on the board, and in hand: a piece in hand can be dropped
//!   anywhere, so it is worth more than the same piece boxed in on the board;
//! - king placement: the king on its own back ranks;
//! - pieces around each king: every piece by its kind and its cell around
//!   its own king (a castle) and around the enemy king (an attack);
//! - king danger: enemy attackers on the squares around each king, its
//!   unguarded squares, enemy pieces in hand, safe checks and escape
//!   squares, squared (the `danger` module);
//! - mobility: squares the bishop, rook, horse and dragon reach;
//! - threats: enemy pieces attacked and not guarded, attacked by a pawn, or
//!   (the bishop, rook, horse and dragon) by a lesser piece (the `threats`
//!   module);
//! - annan: a piece backed by a stronger friendly piece moves like it, so it
//!   gets part of the difference (the value of supported pieces);
//! - minishogi: a small network's correction, learned on top of the terms
//!   above (the `network` module).
//!
//! The weights of each game were tuned on its self-play games
//! (`docs/tuning.md`).

use rules::shogi::{Color, Move, Piece, Position, Role, Square};
use rules::{Position as _, Variant};

use self::danger::Attacks;
use super::Evaluate;

mod danger;
mod network;
mod threats;
mod tuned;

use self::tuned::{ANNAN, MINISHOGI, SHOGI};

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
        /// Per rank a pawn has advanced.
        pub pawn_per_rank: i32,
        /// A piece by attacking kind, the king last, and by its square as
        /// its owner sees the board ([`placement`]): where a piece stands
        /// whatever the kings do, as the promotion zone and the edges make
        /// it matter. Fitted in shogi and minishogi, zero in annan.
        pub placement: [Placement; KING_PLACEMENT + 1],
        /// A piece by attacking kind (see `danger`) and by where it stands
        /// relative to its own king, in ranks and (mirrored) files
        /// ([`around_king`]): golds and silvers beside the king make a
        /// castle, pieces far from it are out of play.
        pub around_own_king: [AroundKing; danger::KINDS],
        /// The same around the enemy king: the pieces that storm it.
        pub around_enemy_king: [AroundKing; danger::KINDS],
        /// Annan: the percentage of the difference to its stronger
        /// supporter that a supported piece gains.
        pub support_percent: i32,
        /// King danger units (see `danger`), from here on. Always added.
        pub danger_base: i32,
        /// Per enemy piece attacking the king's zone, by attacking kind
        /// (pawn, lance, knight, silver, gold-like, bishop, rook, horse, dragon).
        pub danger_attacker: [i32; danger::KINDS],
        /// Per zone square the enemy attacks.
        pub danger_attacked: i32,
        /// Per zone square the enemy attacks and no piece but the king guards.
        pub danger_weak: i32,
        /// Per zone square the king's own pieces (not the king) guard.
        pub danger_guarded: i32,
        /// Per piece in the enemy's hand, by [`Role::index`].
        pub danger_hand: [i32; 7],
        /// When the enemy has a safe check by a move or a drop, by kind.
        pub danger_check: [i32; danger::KINDS],
        /// Per square the king can step to.
        pub danger_escape: i32,
        /// The most king danger may cost, in centipawns.
        pub danger_cap: i32,
        /// Threats (see `threats`): per enemy piece attacked and not guarded.
        pub threat_hanging: i32,
        /// Per enemy piece other than a pawn that a pawn attacks.
        pub threat_by_pawn: i32,
        /// Per enemy bishop, rook, horse or dragon that a lesser piece attacks.
        pub threat_on_major: i32,
        /// Minishogi: the percentage of its network's correction (see
        /// `network`) that is added; 0 in shogi and annan, which have none.
        pub network: i32,
    }
}

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
fn advance(color: Color, sq: Square, size: u8) -> u8 {
    match color {
        Color::Sente => size - sq.rank(),
        Color::Gote => sq.rank() - 1,
    }
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
        // By colour and kind, from the piece bitboards: no square lookups.
        for color in Color::ALL {
            let mut own = 0;
            for role in Role::ALL {
                let piece = Piece { color, role };
                for index in self.pieces(color, role).iter() {
                    let Some(sq) = Square::from_index(index) else {
                        continue;
                    };
                    own += piece_score(w, piece, sq, size, kings);
                    // Annan: the piece moves like its supporter, if it has one.
                    if annan && let Some(supporter) = support(self, piece, sq, size) {
                        own += supported_bonus(w, piece, supporter);
                    }
                }
            }
            score += sign(color) * own;
        }
        let attacks = Attacks::new(self, size);
        let danger_percent = danger::danger_percent(variant);
        for color in Color::ALL {
            let danger = danger::danger_units(self, w, &attacks, color);
            let danger_cost = danger::danger_score(w, danger) * danger_percent / 100;
            let value = w.mobility * attacks.reach[color.index()] - danger_cost
                + threats::threats(self, w, &attacks, color);
            score += sign(color) * value;
        }
        let us = self.turn();
        let learned = if variant == Variant::Minishogi && w.network != 0 {
            network::correction(self) * w.network / 100
        } else {
            0
        };
        sign(us) * score + w.tempo + learned
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
#[inline(always)]
fn piece_score(w: &ShogiWeights, piece: Piece, sq: Square, size: u8, kings: [(u8, u8); 2]) -> i32 {
    let here = (sq.file(), sq.rank());
    let rank = i32::from(advance(piece.color, sq, size));
    let (row, column) = placement(piece.color, sq, size);
    let mut score = w.board[piece.role.index()];
    match piece.role {
        Role::King => {
            // Safe at home; every rank up costs.
            score += if rank <= 1 {
                w.king_home
            } else {
                w.king_per_rank * (rank - 1)
            };
            return score + w.placement[KING_PLACEMENT][row][column];
        }
        Role::Pawn => score += w.pawn_per_rank * rank,
        _ => {}
    }
    let Some(kind) = danger::kind(piece.role) else {
        return score;
    };
    score += w.placement[kind][row][column];
    let own_king = kings[piece.color.index()];
    let enemy_king = kings[piece.color.opponent().index()];
    let (row, column) = around_king(piece.color, here, own_king);
    score += w.around_own_king[kind][row][column];
    let (row, column) = around_king(piece.color, here, enemy_king);
    score + w.around_enemy_king[kind][row][column]
}

/// The king's table in [`ShogiWeights::placement`], after the attacking
/// kinds': the king is no attacker.
const KING_PLACEMENT: usize = danger::KINDS;

/// A table by square, laid out as the board seen from the piece owner's
/// side: a row per rank from its own back rank (row 0), a column per file
/// from its right-hand edge (column 0).
type Placement = [[i32; 9]; 9];

/// The `(row, column)` of a `color` piece on `sq` in a [`Placement`] table,
/// on a board `size` squares wide.
fn placement(color: Color, sq: Square, size: u8) -> (usize, usize) {
    let file = match color {
        Color::Sente => sq.file() - 1,
        Color::Gote => size - sq.file(),
    };
    (usize::from(advance(color, sq, size)), usize::from(file))
}

/// How far a piece can stand from a king, in files or in ranks: the
/// king-relative tables tell apart every square of the largest board.
const AROUND_KING_REACH: u8 = 8;

/// A king-relative table, laid out as a board seen from the piece owner's
/// side: a row per rank from eight in front of the king down to eight
/// behind it (the king's own rank is row 8), a column per file distance
/// from the king, 0 to 8 (mirrored).
type AroundKing = [[i32; AROUND_KING_REACH as usize + 1]; 2 * AROUND_KING_REACH as usize + 1];

/// The `(row, column)` of a `color` piece on `here` in an [`AroundKing`]
/// table of the king on `king`, both `(file, rank)`.
fn around_king(color: Color, here: (u8, u8), king: (u8, u8)) -> (usize, usize) {
    let row = match color {
        Color::Sente => here.1 + AROUND_KING_REACH - king.1,
        Color::Gote => king.1 + AROUND_KING_REACH - here.1,
    };
    (usize::from(row), usize::from(here.0.abs_diff(king.0)))
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
        // Minishogi's network learns what moving first is worth besides.
        for variant in [Variant::Shogi, Variant::Minishogi, Variant::Annan] {
            let start = Position::startpos(variant, &Settings::default());
            let w = ShogiWeights {
                network: 0,
                ..start.weights().clone()
            };
            assert_eq!(start.evaluate_with(&w), w.tempo, "{variant}");
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
        // The same material: Sente's rook on 4e (open lines) or 9i (behind its own pieces).
        let open = pos("4k4/9/9/9/5R3/9/9/P8/LN2K4 b - 1", Variant::Shogi);
        let boxed = pos("4k4/9/9/9/9/9/9/P8/RN2K4 b L 1", Variant::Shogi);
        let sente = Color::Sente.index();
        // 4e reaches 4 squares up, 4 down, 5 towards file 9 and 3 towards file 1.
        assert_eq!(Attacks::new(&open, 9).reach[sente], 16);
        assert_eq!(Attacks::new(&boxed, 9).reach[sente], 0);
    }

    #[test]
    fn annan_values_a_pawn_backed_by_a_rook() {
        // A pawn on 4e with a rook behind it on 4f moves like a rook.
        let backed = pos("4k4/9/9/9/5P3/5R3/9/9/4K4 b - 1", Variant::Annan);
        let apart = pos("4k4/9/9/9/5P3/9/3R5/9/4K4 b - 1", Variant::Annan);
        assert!(backed.evaluate() > apart.evaluate() + 100);
    }

    /// `pos` turned half a circle with the colours swapped, hands and side
    /// to move included: the same position for the other player.
    fn flipped(pos: &Position) -> Position {
        let size = board_size(pos.variant());
        let setup = pos.to_setup();
        let mut board = [None; 81];
        for (index, piece) in setup.board.iter().enumerate() {
            if let Some(piece) = piece {
                let sq = Square::from_index(index as u8).unwrap();
                let to = Square::new(size + 1 - sq.file(), size + 1 - sq.rank()).unwrap();
                board[usize::from(to.index())] = Some(Piece {
                    color: piece.color.opponent(),
                    role: piece.role,
                });
            }
        }
        let setup = rules::shogi::Setup {
            board,
            hands: [setup.hands[1], setup.hands[0]],
            turn: setup.turn.opponent(),
            move_number: setup.move_number,
        };
        Position::new(setup, pos.variant(), pos.dead_piece_setting()).unwrap()
    }

    #[test]
    fn both_players_see_a_position_alike() {
        // Random playouts: the colour-flipped position is worth the same to
        // its side to move, king danger and annan support included.
        for variant in [Variant::Shogi, Variant::Minishogi, Variant::Annan] {
            for seed in 1..=4u64 {
                let mut random = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let mut pos = Position::startpos(variant, &Settings::default());
                for _ in 0..120 {
                    let flip = flipped(&pos);
                    assert_eq!(flip.evaluate(), pos.evaluate(), "{variant} {pos}");
                    let moves = rules::Position::legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    random ^= random << 13;
                    random ^= random >> 7;
                    random ^= random << 17;
                    rules::Position::play_unchecked(
                        &mut pos,
                        moves[(random % moves.len() as u64) as usize],
                    );
                }
            }
        }
    }

    /// The danger units of `color`'s king in `pos` under Shogi's weights.
    fn danger_of(pos: &Position, color: Color) -> i32 {
        let attacks = Attacks::new(pos, board_size(pos.variant()));
        danger::danger_units(pos, &SHOGI, &attacks, color)
    }

    #[test]
    fn attackers_near_the_king_and_pieces_in_hand_are_dangerous() {
        // Gote's silver on 4g, in front of Sente's king on 5i, or beside
        // Gote's own king on 4a; the same material.
        let attacked = pos("4k4/9/9/9/9/9/5s3/9/4K4 b - 1", Variant::Shogi);
        let at_home = pos("4ks3/9/9/9/9/9/9/9/4K4 b - 1", Variant::Shogi);
        let with_rook = pos("4k4/9/9/9/9/9/5s3/9/4K4 b r 1", Variant::Shogi);
        let sente = Color::Sente;
        assert!(danger_of(&attacked, sente) > danger_of(&at_home, sente));
        assert!(danger_of(&with_rook, sente) > danger_of(&attacked, sente));
        // Danger costs more than linearly, up to its cap: the rook in hand
        // adds more to what the attack already costs than it costs with
        // no attack. (A gold beside the silver reaches the cap.)
        let cost = |p: &Position| danger::danger_score(&SHOGI, danger_of(p, sente));
        let rook_added = cost(&with_rook) - cost(&attacked);
        let home_with_rook = pos("4ks3/9/9/9/9/9/9/9/4K4 b r 1", Variant::Shogi);
        let rook_alone = cost(&home_with_rook) - cost(&at_home);
        assert!(
            cost(&attacked) > 0 && rook_added > rook_alone,
            "the rook adds {rook_added} to the attack, {rook_alone} alone; \
             all together cost {} (the cap stops the square)",
            cost(&with_rook)
        );
        // And the evaluation pays it.
        let without_danger = ShogiWeights {
            danger_cap: 0,
            ..SHOGI
        };
        let paid = |cost: i32| cost * danger::danger_percent(Variant::Shogi) / 100;
        assert_eq!(
            with_rook.evaluate_with(&without_danger) - with_rook.evaluate(),
            paid(cost(&with_rook))
                - paid(danger::danger_score(
                    &SHOGI,
                    danger_of(&with_rook, Color::Gote)
                ))
        );
        assert!(with_rook.evaluate() < attacked.evaluate() - SHOGI.hand[Role::Rook.index()]);
    }

    #[test]
    fn a_supported_drop_check_is_safe_and_a_lone_one_is_not() {
        // Gote holds a gold. With a Gote pawn on 5g, a gold dropped on 5h
        // checks Sente's king on 5i and the king cannot take it; with the
        // pawn on 1g every gold check is next to the king and unsupported.
        let supported = pos("4k4/9/9/9/9/9/4p4/9/4K4 b g 1", Variant::Shogi);
        let lone = pos("4k4/9/9/9/9/9/p8/9/4K4 b g 1", Variant::Shogi);
        let no_checks = ShogiWeights {
            danger_check: [0; danger::KINDS],
            ..SHOGI
        };
        let units = |p: &Position, w: &ShogiWeights| {
            danger::danger_units(p, w, &Attacks::new(p, 9), Color::Sente)
        };
        let gold = SHOGI.danger_check[4];
        assert_eq!(
            units(&supported, &SHOGI) - units(&supported, &no_checks),
            gold
        );
        assert_eq!(units(&lone, &SHOGI), units(&lone, &no_checks));
    }

    /// The king-relative cell `forward` ranks in front of the king (from
    /// the piece owner's view) and `files` files aside.
    fn cell(forward: i8, files: u8) -> (usize, usize) {
        (usize::try_from(8 - forward).unwrap(), usize::from(files))
    }

    #[test]
    fn king_relative_cells_count_forward_from_the_pieces_owner() {
        // Sente's gold on 4h, a rank in front of its king on 5i and a file aside.
        assert_eq!(around_king(Color::Sente, (4, 8), (5, 9)), cell(1, 1));
        // Gote's, on 6b with its king on 5a, is the same cell: its front is downwards.
        assert_eq!(around_king(Color::Gote, (6, 2), (5, 1)), cell(1, 1));
        // Sente's silver on 3i, a rank behind its king on 5h and two files aside.
        assert_eq!(around_king(Color::Sente, (3, 9), (5, 8)), cell(-1, 2));
        // The far corners are the first and the last cells.
        assert_eq!(around_king(Color::Sente, (9, 1), (1, 9)), (0, 8));
        assert_eq!(around_king(Color::Sente, (1, 9), (9, 1)), (16, 8));
        assert_eq!(around_king(Color::Gote, (1, 9), (9, 1)), (0, 8));
    }

    #[test]
    fn placement_cells_count_from_the_owners_right_hand_back_corner() {
        let sq = |file, rank| Square::new(file, rank).unwrap();
        // Minishogi: 1e is Sente's right-hand back corner, 5a Gote's.
        assert_eq!(placement(Color::Sente, sq(1, 5), 5), (0, 0));
        assert_eq!(placement(Color::Gote, sq(5, 1), 5), (0, 0));
        assert_eq!(placement(Color::Sente, sq(5, 1), 5), (4, 4));
        // Sente's 2d is Gote's 4b: a rank up, a file in.
        assert_eq!(placement(Color::Sente, sq(2, 4), 5), (1, 1));
        assert_eq!(placement(Color::Gote, sq(4, 2), 5), (1, 1));
        // Shogi: the far corners are the last cell.
        assert_eq!(placement(Color::Sente, sq(9, 1), 9), (8, 8));
        assert_eq!(placement(Color::Gote, sq(1, 9), 9), (8, 8));
    }

    #[test]
    fn a_piece_scores_its_cells_around_both_kings() {
        // The king-relative cells alone: the placement tables zeroed.
        let empty = [[[0; 9]; 17]; danger::KINDS];
        let mut w = ShogiWeights {
            placement: [[[0; 9]; 9]; KING_PLACEMENT + 1],
            around_own_king: empty,
            around_enemy_king: empty,
            ..SHOGI
        };
        let gold_like = danger::kind(Role::Tokin).unwrap();
        let knight = danger::kind(Role::Knight).unwrap();
        let set = |table: &mut [AroundKing; danger::KINDS],
                   kind: usize,
                   (row, column): (usize, usize),
                   value| {
            table[kind][row][column] = value;
        };
        set(&mut w.around_own_king, gold_like, cell(1, 1), 7);
        set(&mut w.around_enemy_king, gold_like, cell(0, 2), 40);
        set(&mut w.around_enemy_king, knight, cell(0, 2), -5);
        // Kings on 5i (Sente) and 2h (Gote); pieces on 4h.
        let kings = [(5, 9), (2, 8)];
        let at = |role, color| {
            let piece = Piece { color, role };
            piece_score(&w, piece, Square::new(4, 8).unwrap(), 9, kings) - w.board[role.index()]
        };
        // Sente's tokin on 4h stands diagonally in front of its own king and
        // two files beside the enemy's; a knight there only in the latter.
        assert_eq!(at(Role::Tokin, Color::Sente), 7 + 40);
        assert_eq!(at(Role::Knight, Color::Sente), -5);
        // Gote's tokin there stands two files beside its own king and
        // diagonally behind Sente's (Gote's front is downwards): no cell set.
        assert_eq!(at(Role::Tokin, Color::Gote), 0);
        // The kings themselves have no cells.
        assert_eq!(at(Role::King, Color::Sente), w.king_home);
    }

    #[test]
    fn at_the_start_the_enemy_adds_no_king_danger() {
        // No enemy piece reaches a king's zone, no hands, no checks: only
        // the terms of the king's own side (base, guards, escapes) remain.
        // (Not so in annan, where the pawn in front of the bishop moves
        // like it and reaches 6g/4c, or in minishogi, where the rook sees
        // the square in front of the enemy king.)
        let own_terms_only = ShogiWeights {
            danger_base: 0,
            danger_guarded: 0,
            danger_escape: 0,
            ..SHOGI
        };
        let start = Position::startpos(Variant::Shogi, &Settings::default());
        let attacks = Attacks::new(&start, 9);
        for color in Color::ALL {
            let units = danger::danger_units(&start, &own_terms_only, &attacks, color);
            assert_eq!(units, 0, "{color:?}");
        }
    }
}
