//! Moves and their USI text.

use core::fmt;

use super::{Role, Square};
use crate::ParseMoveError;

/// A move in shogi, minishogi or annan shogi. Four bytes, `Copy`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Move {
    /// A board piece moves, possibly promoting: `7g7f`, `8h2b+`.
    Normal {
        /// Where the piece stands.
        from: Square,
        /// Where it goes (capturing what stands there).
        to: Square,
        /// Whether it promotes on arrival.
        promote: bool,
    },
    /// A piece leaves the mover's hand: `P*5e`.
    Drop {
        /// The kind dropped (unpromoted).
        role: Role,
        /// The empty square it lands on.
        to: Square,
    },
}

const _: () = assert!(core::mem::size_of::<Move>() <= 4);

impl Move {
    /// The square the move lands on.
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// Whether this is a drop.
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// Whether this move promotes.
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }

    /// Reads USI text (`7g7f`, `8h2b+`, `P*5e`) on the 9×9 board.
    /// [`Position::parse_move`](crate::Position::parse_move) also checks the board size.
    ///
    /// # Errors
    /// The text is not a USI move.
    pub fn from_usi(text: &str) -> Result<Move, ParseMoveError> {
        let err = |reason| ParseMoveError::new(text, reason);
        let bytes = text.as_bytes();
        let square = |file: u8, rank: u8| -> Option<Square> {
            if !(b'1'..=b'9').contains(&file) || !(b'a'..=b'i').contains(&rank) {
                return None;
            }
            Square::new(file - b'0', rank - b'a' + 1)
        };
        match bytes {
            [letter, b'*', file, rank, rest @ ..] => {
                if !rest.is_empty() {
                    return Err(err("a drop takes nothing after its square"));
                }
                let role = Role::from_letter(*letter as char)
                    .filter(|r| r.is_droppable() && letter.is_ascii_uppercase())
                    .ok_or_else(|| err("expected a piece letter P L N S G B R before '*'"))?;
                let to = square(*file, *rank).ok_or_else(|| err("bad drop square"))?;
                Ok(Move::Drop { role, to })
            }
            [f1, r1, f2, r2, rest @ ..] => {
                let promote = match rest {
                    [] => false,
                    [b'+'] => true,
                    _ => return Err(err("expected at most a '+' after the squares")),
                };
                let from = square(*f1, *r1).ok_or_else(|| err("bad from-square"))?;
                let to = square(*f2, *r2).ok_or_else(|| err("bad to-square"))?;
                if from == to {
                    return Err(err("from- and to-square are the same"));
                }
                Ok(Move::Normal { from, to, promote })
            }
            _ => Err(err("expected a USI move like 7g7f, 8h2b+ or P*5e")),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { role, to } => write!(f, "{}*{to}", role.letter()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trip() {
        for text in ["7g7f", "8h2b+", "P*5e", "R*1a", "9i1a"] {
            assert_eq!(Move::from_usi(text).unwrap().to_string(), text);
        }
        for bad in [
            "", "7g7", "7g7g", "0a1a", "7j7f", "K*5e", "p*5e", "+*5e", "7g7f=", "P*5", "7g7f++",
        ] {
            assert!(Move::from_usi(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bad_move_is_named_by_what_is_wrong() {
        let reason = |text| Move::from_usi(text).unwrap_err().to_string();
        assert!(reason("P*5e+").contains("a drop takes nothing after its square"));
        assert!(reason("0a1a").contains("bad from-square"));
        assert!(reason("1a0a").contains("bad to-square"));
    }
}
