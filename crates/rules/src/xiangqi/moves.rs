//! Moves and their ICCS text (`h2e2`).

use core::fmt;

use super::Square;
use crate::ParseMoveError;

/// A move from one point to another; a capture if the target holds an enemy
/// piece. Two bytes, so move lists stay small.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Move {
    /// Where the moving piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

const _: () = assert!(core::mem::size_of::<Move>() == 2);

impl Move {
    /// Reads ICCS move text: file letter and rank digit twice, `h2e2`.
    /// Uppercase files (`H2E2`) and a dash (`H2-E2`) are accepted.
    ///
    /// # Errors
    /// The text is not two points of the board.
    pub fn from_iccs(text: &str) -> Result<Move, ParseMoveError> {
        let bytes = text.as_bytes();
        let (from, to) = match bytes {
            [a, b, c, d] => ([*a, *b], [*c, *d]),
            [a, b, b'-', c, d] => ([*a, *b], [*c, *d]),
            _ => {
                return Err(ParseMoveError::new(
                    text,
                    "expected four characters like h2e2",
                ));
            }
        };
        let point = |[file, rank]: [u8; 2]| {
            let file = file.to_ascii_lowercase();
            if !(b'a'..=b'i').contains(&file) {
                return Err(ParseMoveError::new(text, "files are a to i"));
            }
            if !rank.is_ascii_digit() {
                return Err(ParseMoveError::new(text, "ranks are 0 to 9"));
            }
            Square::new(file - b'a', rank - b'0')
                .ok_or_else(|| ParseMoveError::new(text, "not a point of the board"))
        };
        Ok(Move {
            from: point(from)?,
            to: point(to)?,
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_text() {
        let mv = Move::from_iccs("h2e2").unwrap();
        assert_eq!((mv.from, mv.to), (Square::H2, Square::E2));
        assert_eq!(mv.to_string(), "h2e2");
        assert_eq!(Move::from_iccs("H2E2"), Ok(mv));
        assert_eq!(Move::from_iccs("H2-E2"), Ok(mv));
        for bad in ["", "h2e", "j2e2", "h2ex", "h2e2e", "é2e2", "h2+e2"] {
            assert!(Move::from_iccs(bad).is_err(), "{bad}");
        }
    }
}
