//! Colours, piece kinds and pieces.

use crate::Side;

/// A player of the shogi family. Sente (先手, Black, SFEN `b`, uppercase) moves
/// first from the even start position; Gote (後手, White, SFEN `w`, lowercase).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Color {
    /// 先手: moves first, plays up the board (towards rank a).
    Sente,
    /// 後手: plays down the board (towards rank i).
    Gote,
}

impl Color {
    /// Both colours, Sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// The game-agnostic side: Sente is `First`.
    pub const fn side(self) -> Side {
        match self {
            Color::Sente => Side::First,
            Color::Gote => Side::Second,
        }
    }

    /// 0 for Sente, 1 for Gote: an index into per-colour tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN letter, `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Sente => 'b',
            Color::Gote => 'w',
        }
    }
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::First => Color::Sente,
            Side::Second => Color::Gote,
        }
    }
}

/// A kind of piece; promoted kinds are kinds of their own.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, PartialOrd, Ord)]
pub enum Role {
    /// 歩 (fu).
    Pawn,
    /// 香 (kyō).
    Lance,
    /// 桂 (kei).
    Knight,
    /// 銀 (gin).
    Silver,
    /// 金 (kin).
    Gold,
    /// 角 (kaku).
    Bishop,
    /// 飛 (hisha).
    Rook,
    /// 玉/王 (gyoku/ō).
    King,
    /// と (tokin): a promoted pawn.
    Tokin,
    /// 成香: a promoted lance.
    PromotedLance,
    /// 成桂: a promoted knight.
    PromotedKnight,
    /// 成銀: a promoted silver.
    PromotedSilver,
    /// 馬 (uma): a promoted bishop.
    Horse,
    /// 龍 (ryū): a promoted rook.
    Dragon,
}

impl Role {
    /// All fourteen kinds, in index order.
    pub const ALL: [Role; 14] = [
        Role::Pawn,
        Role::Lance,
        Role::Knight,
        Role::Silver,
        Role::Gold,
        Role::Bishop,
        Role::Rook,
        Role::King,
        Role::Tokin,
        Role::PromotedLance,
        Role::PromotedKnight,
        Role::PromotedSilver,
        Role::Horse,
        Role::Dragon,
    ];

    /// The seven kinds that can be in hand, in SFEN hand order (rook first).
    pub const HAND: [Role; 7] = [
        Role::Rook,
        Role::Bishop,
        Role::Gold,
        Role::Silver,
        Role::Knight,
        Role::Lance,
        Role::Pawn,
    ];

    /// 0–13: an index into per-role tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The promoted kind, if this kind promotes.
    pub const fn promoted(self) -> Option<Role> {
        Some(match self {
            Role::Pawn => Role::Tokin,
            Role::Lance => Role::PromotedLance,
            Role::Knight => Role::PromotedKnight,
            Role::Silver => Role::PromotedSilver,
            Role::Bishop => Role::Horse,
            Role::Rook => Role::Dragon,
            _ => return None,
        })
    }

    /// The kind before promotion (itself if not promoted): what a capture puts in hand.
    pub const fn unpromoted(self) -> Role {
        match self {
            Role::Tokin => Role::Pawn,
            Role::PromotedLance => Role::Lance,
            Role::PromotedKnight => Role::Knight,
            Role::PromotedSilver => Role::Silver,
            Role::Horse => Role::Bishop,
            Role::Dragon => Role::Rook,
            other => other,
        }
    }

    /// Whether this kind may promote (pawn, lance, knight, silver, bishop, rook).
    #[inline]
    pub const fn can_promote(self) -> bool {
        self.promoted().is_some()
    }

    /// Whether this is a promoted kind.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        self as u8 >= Role::Tokin as u8
    }

    /// Whether a piece of this kind can be held in hand and dropped.
    #[inline]
    pub const fn is_droppable(self) -> bool {
        (self as u8) < Role::King as u8
    }

    /// The USI letter of the unpromoted kind, uppercase (`P L N S G B R K`).
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            Role::Pawn => 'P',
            Role::Lance => 'L',
            Role::Knight => 'N',
            Role::Silver => 'S',
            Role::Gold => 'G',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            _ => 'K',
        }
    }

    /// The USI (SFEN) text of a Sente piece of this kind: `P`, `+P`, `K`, `+R`, …
    pub const fn usi(self) -> &'static str {
        match self {
            Role::Pawn => "P",
            Role::Lance => "L",
            Role::Knight => "N",
            Role::Silver => "S",
            Role::Gold => "G",
            Role::Bishop => "B",
            Role::Rook => "R",
            Role::King => "K",
            Role::Tokin => "+P",
            Role::PromotedLance => "+L",
            Role::PromotedKnight => "+N",
            Role::PromotedSilver => "+S",
            Role::Horse => "+B",
            Role::Dragon => "+R",
        }
    }

    /// The unpromoted kind with USI letter `letter` (either case).
    pub const fn from_letter(letter: char) -> Option<Role> {
        Some(match letter.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'L' => Role::Lance,
            'N' => Role::Knight,
            'S' => Role::Silver,
            'G' => Role::Gold,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'K' => Role::King,
            _ => return None,
        })
    }

    /// Rook and bishop (promoted or not) count 5 in impasse points, others 1, the king 0.
    pub const fn impasse_points(self) -> u32 {
        match self.unpromoted() {
            Role::Rook | Role::Bishop => 5,
            Role::King => 0,
            _ => 1,
        }
    }
}

/// A piece on the board: a kind and its owner.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// The kind.
    pub role: Role,
}

impl Piece {
    /// The SFEN text: `P`, `+p`, … (uppercase for Sente).
    pub fn sfen(self) -> String {
        let mut text = String::with_capacity(2);
        self.push_sfen(&mut text);
        text
    }

    /// Appends the piece's SFEN letter (see [`Piece::sfen`]) to `out`: a
    /// position's SFEN writes its pieces without a string for each.
    pub fn push_sfen(self, out: &mut String) {
        if self.role.is_promoted() {
            out.push('+');
        }
        out.push(match self.color {
            Color::Sente => self.role.letter(),
            Color::Gote => self.role.letter().to_ascii_lowercase(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_round_trips() {
        for role in Role::ALL {
            match role.promoted() {
                Some(p) => {
                    assert!(p.is_promoted() && !role.is_promoted());
                    assert_eq!(p.unpromoted(), role);
                }
                None => assert!(role.is_promoted() || matches!(role, Role::Gold | Role::King)),
            }
            assert_eq!(Role::ALL[role.index()], role);
        }
        assert_eq!(
            Piece {
                color: Color::Gote,
                role: Role::Dragon
            }
            .sfen(),
            "+r"
        );
        for role in Role::ALL {
            assert_eq!(
                Piece {
                    color: Color::Sente,
                    role
                }
                .sfen(),
                role.usi()
            );
        }
    }
}
