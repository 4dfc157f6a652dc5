//! Western (Hodges) move text: `P-7f`, `Bx2b+`, `Bx2b=`, `S*5e`, `+R-5b`,
//! and `G6i-5h` with the from-square only when another piece of the kind
//! could move to the same square. `+` promotes, `=` declines a promotion
//! that was possible; promoted pieces are `+P +L +N +S +B +R`.

use core::fmt;

use rules::Position as _;
use rules::shogi::{Move, Position, Role, Square};

use crate::rivals::rivals;
use crate::text;

/// The piece letters of a kind: `P`, `+B`.
pub fn piece_letters(role: Role) -> String {
    if role.is_promoted() {
        format!("+{}", role.letter())
    } else {
        role.letter().to_string()
    }
}

/// The Hodges text of a legal move.
pub fn move_text(pos: &Position, mv: Move) -> String {
    match mv {
        Move::Drop { role, to } => format!("{}*{to}", role.letter()),
        Move::Normal { from, to, promote } => {
            let role = pos.piece_at(from).map_or(Role::King, |p| p.role);
            let ambiguous = rivals(pos, role, to).iter().any(|&f| f != from);
            let mut out = piece_letters(role);
            if ambiguous {
                out.push_str(&from.to_string());
            }
            out.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            out.push_str(&to.to_string());
            if promote {
                out.push('+');
            } else if pos.is_legal(Move::Normal {
                from,
                to,
                promote: true,
            }) {
                out.push('=');
            }
            out
        }
    }
}

/// Hodges text that names no legal move.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ParseWesternError {
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub reason: &'static str,
}

impl fmt::Display for ParseWesternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read move '{}': {}", self.text, self.reason)
    }
}

impl core::error::Error for ParseWesternError {}

fn square(bytes: &[u8]) -> Option<Square> {
    match bytes {
        [f @ b'1'..=b'9', r @ b'a'..=b'i'] => Square::new(f - b'0', r - b'a' + 1),
        _ => None,
    }
}

/// Reads Hodges text in context. Lenient: full-width characters, a missing
/// `-`, `H`/`D` for horse and dragon, no `=` on a declined promotion.
///
/// # Errors
/// The text is not Hodges notation, names no legal move, or fits more than one.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ParseWesternError> {
    let err = |reason| ParseWesternError {
        text: text.to_owned(),
        reason,
    };
    let half = text::to_half_width(text.trim());
    let mut rest = half.as_bytes();
    let promoted = if let [b'+', tail @ ..] = rest {
        rest = tail;
        true
    } else {
        false
    };
    let role = match rest.first() {
        Some(b'H') => Role::Horse,
        Some(b'D') => Role::Dragon,
        Some(&c) => Role::from_letter(c as char)
            .filter(|_| c.is_ascii_uppercase())
            .ok_or(err("expected a piece letter P L N S G B R K"))?,
        None => return Err(err("empty move")),
    };
    rest = &rest[1..];
    let role = if promoted {
        role.promoted()
            .ok_or(err("this piece has no promoted form"))?
    } else {
        role
    };
    let from = match rest {
        [a, b, ..]
            if square(&[*a, *b]).is_some()
                && rest.len() > 2
                && !matches!(rest.get(2), Some(b'+' | b'=')) =>
        {
            rest = &rest[2..];
            square(&[*a, *b])
        }
        _ => None,
    };
    let drop = match rest.first() {
        Some(b'*') => {
            rest = &rest[1..];
            true
        }
        Some(b'-' | b'x') => {
            rest = &rest[1..];
            false
        }
        _ => false,
    };
    let to = square(rest.get(..2).ok_or(err("expected a square like 7f"))?)
        .ok_or(err("expected a square like 7f"))?;
    rest = &rest[2..];
    let promote = match rest {
        [] => None,
        [b'+'] => Some(true),
        [b'='] => Some(false),
        _ => return Err(err("unexpected text after the square")),
    };
    if drop {
        let mv = Move::Drop { role, to };
        return (from.is_none() && promote.is_none() && pos.is_legal(mv))
            .then_some(mv)
            .ok_or(err("no such legal drop"));
    }
    let candidates: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| match *m {
            Move::Normal {
                from: f,
                to: t,
                promote: p,
            } => {
                t == to
                    && pos.piece_at(f).is_some_and(|pc| pc.role == role)
                    && from.is_none_or(|w| w == f)
                    && promote.is_none_or(|w| w == p)
            }
            Move::Drop { .. } => false,
        })
        .collect();
    let froms = crate::japanese::origins(&candidates);
    match froms[..] {
        [] => Err(err("no such legal move")),
        [only] => {
            let pick = |p: bool| {
                candidates.iter().copied().find(|m| {
                    *m == Move::Normal {
                        from: only,
                        to,
                        promote: p,
                    }
                })
            };
            pick(false)
                .or_else(|| pick(true))
                .ok_or(err("no such legal move"))
        }
        _ => Err(err(
            "more than one piece can make this move: add the from-square",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{AnnanDeadPiece, Variant};

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen, Variant::Shogi, AnnanDeadPiece::default()).unwrap()
    }

    fn check(sfen: &str, cases: &[(&str, &str)]) {
        let p = pos(sfen);
        for &(usi, want) in cases {
            let m = p.parse_move(usi).unwrap();
            assert_eq!(move_text(&p, m), want, "{usi}");
            assert_eq!(parse_move(&p, want), Ok(m), "{want}");
        }
    }

    #[test]
    fn hodges_examples() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        check(
            start,
            &[
                ("7g7f", "P-7f"),
                ("6i5h", "G6i-5h"),
                ("4i5h", "G4i-5h"),
                ("3i4h", "S-4h"),
            ],
        );
        let open = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
        check(open, &[("8h2b+", "Bx2b+"), ("8h2b", "Bx2b=")]);
        check("4k4/9/9/9/9/9/9/9/4K4 b S 1", &[("S*5e", "S*5e")]);
        check("k8/9/9/9/4+R4/9/9/9/4K4 b - 1", &[("5e5b", "+R-5b")]);
        let p = pos(start);
        assert_eq!(parse_move(&p, "P7f"), Ok(p.parse_move("7g7f").unwrap()));
        assert_eq!(
            parse_move(&p, "Ｐ－７ｆ"),
            Ok(p.parse_move("7g7f").unwrap())
        );
        assert!(
            parse_move(&p, "G-5h")
                .unwrap_err()
                .reason
                .contains("more than one")
        );
        for bad in ["", "X-7f", "P-7", "P-7f!", "+G-5h", "P*7f", "P-0f"] {
            assert!(parse_move(&p, bad).is_err(), "{bad}");
        }
    }
}
