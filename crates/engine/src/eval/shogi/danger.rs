//! King danger in the shogi family, after the classical chess engines' king
//! safety: for each king, the enemy pieces attacking the squares around it,
//! those squares left unguarded, the enemy's pieces in hand, the safe checks
//! the enemy has by a move or a drop, and the king's escape squares add up
//! to a number of danger units, and the king's side loses their square
//! (capped): one attacker is a nuisance, three with drops behind them are a
//! mating attack.
//!
//! Annan counts each piece with the movement it borrows as the board stands
//! ([`Position::movers`]); a piece moving to a checking square, or dropped
//! there, is taken to move by its own kind, although its new supporter may
//! change that.

use rules::shogi::{Color, Position, Role, Square};
use rules::{Bitboard, Variant};

use super::ShogiWeights;

/// The attacking kinds king danger tells apart: pawn, lance, knight,
/// silver, gold (with the promoted pawn, lance, knight and silver that move
/// like it), bishop, rook, horse, dragon. The king itself is not one.
pub(super) const KINDS: usize = 9;

/// The pawn's kind.
pub(super) const PAWN_KIND: usize = 0;

/// The kinds below the bishop: pawn, lance, knight, silver, gold-like.
pub(super) const LESSER_KINDS: usize = 5;

/// The role each kind moves like, by kind; the first seven are also the
/// kinds that can be dropped.
const KIND_ROLES: [Role; KINDS] = [
    Role::Pawn,
    Role::Lance,
    Role::Knight,
    Role::Silver,
    Role::Gold,
    Role::Bishop,
    Role::Rook,
    Role::Horse,
    Role::Dragon,
];

/// Danger units `d` cost `d² / DANGER_SCALE` centipawns (up to the cap).
const DANGER_SCALE: i32 = 1024;

/// The percentage of the tuned cost (`danger_score`) the evaluation pays for
/// king danger, by game. The tables are fitted to Koma's own games, where
/// both sides misjudge an attack alike; against an engine that attacks
/// better, shogi's undervalues it: at 130% Koma scored 16/20 against
/// YaneuraOu's level 9 where the tuned cost scored 10/20, on the same
/// openings at the same node budgets, and 160% only 10/20 on those
/// openings (`--seed 37`); against Fairy-Stockfish at ten times row F's
/// node budgets 160% scored 21/39 where 130% scored 24/39 on the same
/// openings. Minishogi gains nothing from a larger share:
/// against Fairy-Stockfish at fixed nodes (two-ply openings) 160%
/// scored 49/80 where 100% scored 48/80 on the same openings, and 130%
/// 24/40 where 100% scored 26/40, and on 100 other openings (`--seed 43`)
/// 130% scored 55/100 and 70% 51/100 where 100% scored 61/100.
pub(super) fn danger_percent(variant: Variant) -> i32 {
    match variant {
        Variant::Shogi => 130,
        _ => 100,
    }
}

/// The kind a piece moving like `role` attacks as, `None` for the king.
pub(super) fn kind(role: Role) -> Option<usize> {
    match role {
        Role::Pawn => Some(PAWN_KIND),
        Role::Lance => Some(1),
        Role::Knight => Some(2),
        Role::Silver => Some(3),
        Role::Gold
        | Role::Tokin
        | Role::PromotedLance
        | Role::PromotedKnight
        | Role::PromotedSilver => Some(4),
        Role::Bishop => Some(5),
        Role::Rook => Some(6),
        Role::King => None,
        Role::Horse => Some(7),
        Role::Dragon => Some(8),
    }
}

/// The squares of one file, numbered as [`Square::index`] numbers them.
fn file_mask(file: u8) -> Bitboard {
    Bitboard(0x1ff << (9 * u32::from(file - 1)))
}

/// The squares around `color`'s king on `king`: its neighbours, its own
/// square, and the row in front of its front neighbours (where attackers
/// gather before they check).
fn king_zone(pos: &Position, color: Color, king: Square, size: u8) -> Bitboard {
    let around = pos.attacks_from(color, Role::King, king).with(king.index());
    let front = match color {
        Color::Sente if king.rank() > 1 => Square::new(king.file(), king.rank() - 1),
        Color::Gote if king.rank() < size => Square::new(king.file(), king.rank() + 1),
        _ => None,
    };
    match front {
        Some(front) => around | pos.attacks_from(color, Role::King, front),
        None => around,
    }
}

/// What each colour's pieces attack, by colour index: computed once per
/// evaluation for the mobility and both kings' danger.
pub(super) struct Attacks {
    /// The squares around each king ([`king_zone`]).
    zone: [Bitboard; 2],
    /// Squares attacked by any piece, the king included.
    pub(super) all: [Bitboard; 2],
    /// Squares attacked by a piece other than the king.
    pub(super) guarded: [Bitboard; 2],
    /// Squares attacked by two pieces or more.
    twice: [Bitboard; 2],
    /// Squares attacked by the pieces of each kind.
    pub(super) by_kind: [[Bitboard; KINDS]; 2],
    /// How many pieces of each kind attack the enemy king's zone.
    zone_attackers: [[i32; KINDS]; 2],
    /// Squares the bishops, rooks, horses and dragons reach that do not
    /// hold their own pieces (a boxed-in slider is worth less).
    pub(super) reach: [i32; 2],
}

impl Attacks {
    /// The attacks of both colours in `pos`, on a board `size` squares wide.
    ///
    /// Each kind is added on its own, so that its attack pattern is known
    /// where the pieces are walked (no dispatch on the kind per piece), the
    /// gold-like kinds together and the pawns all at once.
    pub(super) fn new(pos: &Position, size: u8) -> Attacks {
        let zone = Color::ALL.map(|color| king_zone(pos, color, pos.king(color), size));
        let mut attacks = Attacks {
            zone,
            all: [Bitboard::EMPTY; 2],
            guarded: [Bitboard::EMPTY; 2],
            twice: [Bitboard::EMPTY; 2],
            by_kind: [[Bitboard::EMPTY; KINDS]; 2],
            zone_attackers: [[0; KINDS]; 2],
            reach: [0; 2],
        };
        for color in Color::ALL {
            let c = color.index();
            let enemy_zone = zone[color.opponent().index()];
            let movers = pos.movers(color);
            let m = |role: Role| movers[role.index()];
            // Each pawn attacks the one square in front of it, and no two the
            // same one: all of them at once.
            let pawns = pawn_attacks(color, m(Role::Pawn), size);
            attacks.twice[c] |= attacks.all[c] & pawns;
            attacks.all[c] |= pawns;
            attacks.guarded[c] |= pawns;
            attacks.by_kind[c][PAWN_KIND] |= pawns;
            attacks.zone_attackers[c][PAWN_KIND] += (pawns & enemy_zone).count() as i32;
            let gold_like = m(Role::Gold)
                | m(Role::Tokin)
                | m(Role::PromotedLance)
                | m(Role::PromotedKnight)
                | m(Role::PromotedSilver);
            attacks.add(pos, color, Role::Lance, m(Role::Lance), enemy_zone);
            attacks.add(pos, color, Role::Knight, m(Role::Knight), enemy_zone);
            attacks.add(pos, color, Role::Silver, m(Role::Silver), enemy_zone);
            attacks.add(pos, color, Role::Gold, gold_like, enemy_zone);
            attacks.add(pos, color, Role::Bishop, m(Role::Bishop), enemy_zone);
            attacks.add(pos, color, Role::Rook, m(Role::Rook), enemy_zone);
            attacks.add(pos, color, Role::King, m(Role::King), enemy_zone);
            attacks.add(pos, color, Role::Horse, m(Role::Horse), enemy_zone);
            attacks.add(pos, color, Role::Dragon, m(Role::Dragon), enemy_zone);
        }
        attacks
    }

    /// Adds the attacks of `color`'s `pieces`, which move like `role`.
    #[inline(always)]
    fn add(
        &mut self,
        pos: &Position,
        color: Color,
        role: Role,
        pieces: Bitboard,
        enemy_zone: Bitboard,
    ) {
        let c = color.index();
        let own = pos.pieces_of(color);
        for index in pieces.iter() {
            let Some(sq) = Square::from_index(index) else {
                continue;
            };
            let attacked = pos.attacks_from(color, role, sq);
            self.twice[c] |= self.all[c] & attacked;
            self.all[c] |= attacked;
            let Some(kind) = kind(role) else {
                continue;
            };
            self.guarded[c] |= attacked;
            self.by_kind[c][kind] |= attacked;
            if (attacked & enemy_zone).is_any() {
                self.zone_attackers[c][kind] += 1;
            }
            if matches!(role, Role::Bishop | Role::Rook | Role::Horse | Role::Dragon) {
                self.reach[c] += attacked.and_not(own).count() as i32;
            }
        }
    }
}

/// The squares `color`'s `pawns` attack, on a board `size` squares wide:
/// each the square in front (squares are numbered along the files, rank a
/// first), none from the last rank.
fn pawn_attacks(color: Color, pawns: Bitboard, size: u8) -> Bitboard {
    match color {
        Color::Sente => Bitboard(pawns.and_not(rank_mask(1)).0 >> 1),
        Color::Gote => Bitboard(pawns.and_not(rank_mask(size)).0 << 1),
    }
}

/// The squares of one rank (1 is rank a), numbered as [`Square::index`]
/// numbers them.
fn rank_mask(rank: u8) -> Bitboard {
    const RANK_A: u128 = {
        let mut bits = 0;
        let mut file = 0;
        while file < 9 {
            bits |= 1 << (9 * file);
            file += 1;
        }
        bits
    };
    Bitboard(RANK_A << (rank - 1))
}

/// The danger units of `us`'s king: how hard the opponent attacks it,
/// before squaring (may be negative for a well-guarded king).
pub(super) fn danger_units(pos: &Position, w: &ShogiWeights, attacks: &Attacks, us: Color) -> i32 {
    let them = us.opponent();
    let (u, t) = (us.index(), them.index());
    let king = pos.king(us);
    let zone = attacks.zone[u];
    let mut danger = w.danger_base;
    for kind in 0..KINDS {
        danger += w.danger_attacker[kind] * attacks.zone_attackers[t][kind];
    }
    let attacked = attacks.all[t] & zone;
    danger += w.danger_attacked * attacked.count() as i32;
    danger += w.danger_weak * attacked.and_not(attacks.guarded[u]).count() as i32;
    danger += w.danger_guarded * (zone & attacks.guarded[u]).count() as i32;
    let hand = pos.hand(them);
    for role in &KIND_ROLES[..7] {
        danger += w.danger_hand[role.index()] * i32::from(hand.get(*role));
    }
    // Checks the king cannot answer by taking the checker: on squares we do
    // not attack, or that only our king guards and the enemy supports.
    let empty = !pos.occupied();
    let unguarded = !attacks.all[u];
    let drop_safe = empty & (unguarded | attacks.all[t].and_not(attacks.guarded[u]));
    let move_safe =
        (unguarded | attacks.twice[t].and_not(attacks.guarded[u])).and_not(pos.pieces_of(them));
    let enemy_pawns = pos.pieces(them, Role::Pawn);
    // Where an enemy piece of each kind would check from, safely, by a move
    // or a drop.
    let check_squares = |kind: usize| {
        let role = KIND_ROLES[kind];
        let nifu = role == Role::Pawn && (enemy_pawns & file_mask(king.file())).is_any();
        let by_drop = kind < 7 && hand.get(role) > 0 && !nifu;
        let by_move = attacks.by_kind[t][kind] & move_safe;
        if by_drop {
            by_move | drop_safe
        } else {
            by_move
        }
    };
    // An enemy piece moving like a kind checks from where ours would attack.
    let king_steps = pos.attacks_from(us, Role::King, king);
    for (kind, &role) in KIND_ROLES[..5].iter().enumerate() {
        let squares = check_squares(kind);
        if squares.is_any() && (pos.attacks_from(us, role, king) & squares).is_any() {
            danger += w.danger_check[kind];
        }
    }
    // The bishop's lines serve the horse, the rook's the dragon: each worked
    // out once, when either needs it.
    for (slider, promoted) in [(5, 7), (6, 8)] {
        let (squares, promoted_squares) = (check_squares(slider), check_squares(promoted));
        if (squares | promoted_squares).is_empty() {
            continue;
        }
        let lines = pos.attacks_from(us, KIND_ROLES[slider], king);
        if (lines & squares).is_any() {
            danger += w.danger_check[slider];
        }
        if ((lines | king_steps) & promoted_squares).is_any() {
            danger += w.danger_check[promoted];
        }
    }
    let escapes = king_steps
        .and_not(pos.pieces_of(us))
        .and_not(attacks.all[t]);
    danger + w.danger_escape * escapes.count() as i32
}

/// What `units` of danger cost the king's side, in centipawns: their square,
/// so that attacks add up faster than linearly, up to `w.danger_cap`.
pub(super) fn danger_score(w: &ShogiWeights, units: i32) -> i32 {
    if units <= 0 {
        return 0;
    }
    let units = units.min(8 * DANGER_SCALE);
    (units * units / DANGER_SCALE).min(w.danger_cap)
}
