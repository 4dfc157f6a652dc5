//! Xiangqi move text: WXF (`C2.5`, `H2+3`, `R1-2`) and ICCS (`H2-E2`).
//!
//! WXF, as the World Xiangqi Federation writes it: the piece letter (K, A, E,
//! H, R, C, P), the file it stands on counted 1–9 from the mover's right,
//! `+` forward, `-` back or `.` sideways, then the destination file, or for a
//! straight move the number of points. Two pieces of a kind on one file are
//! told apart by `+` (front) and `-` (rear) before the letter, in place of the
//! file: `+C.5`, `-R-1` (the reader also takes the federation's `C+.5`).
//! Soldiers follow the federation's tandem-pawn rules: with three in a file the
//! middle one keeps its file (`P3.4`), the outer ones of four or five are `++`
//! and `--`, and when two files hold tandem soldiers the file comes first
//! (`3+.4`).

use core::fmt;

use rules::Position as _;
use rules::xiangqi::{Color, Move, Position, Role, Square};

use crate::text;

/// The WXF letter of a kind.
pub const fn letter(role: Role) -> char {
    match role {
        Role::General => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    }
}

/// The file number of `sq` from `color`'s right, 1–9.
pub(crate) fn file_number(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// How far forward `sq` is for `color` (larger is further forward).
pub(crate) fn advance(color: Color, sq: Square) -> i8 {
    match color {
        Color::Red => sq.rank() as i8,
        Color::Black => -(sq.rank() as i8),
    }
}

/// The squares of `color`'s pieces of `role` on `file` (0–8), foremost first.
pub(crate) fn on_file(pos: &Position, color: Color, role: Role, file: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = (0..10)
        .filter_map(|rank| Square::new(file, rank))
        .filter(|&sq| {
            pos.piece_at(sq)
                .is_some_and(|p| p.color == color && p.role == role)
        })
        .collect();
    squares.sort_by_key(|&sq| -advance(color, sq));
    squares
}

/// The piece-and-file part: `C2`, `+C`, `P3`, `++`, `3+`.
fn designator(pos: &Position, color: Color, role: Role, from: Square) -> String {
    let file = file_number(color, from);
    let column = on_file(pos, color, role, from.file());
    let index = column.iter().position(|&sq| sq == from).unwrap_or(0);
    let l = letter(role);
    if column.len() < 2 {
        return format!("{l}{file}");
    }
    if role != Role::Soldier {
        return format!("{}{l}", if index == 0 { '+' } else { '-' });
    }
    let tandem_files = (0..9)
        .filter(|&f| on_file(pos, color, Role::Soldier, f).len() >= 2)
        .count();
    let n = column.len();
    let place = if index == 0 {
        '+'
    } else if index == n - 1 {
        '-'
    } else {
        char::from(b'0' + file)
    };
    if tandem_files >= 2 {
        return format!("{file}{place}");
    }
    match (n, index) {
        (4 | 5, 0) => "++".to_owned(),
        (4 | 5, i) if i == n - 1 => "--".to_owned(),
        (4, 1) | (5, 1) => format!("+{l}"),
        (4, 2) | (5, 3) => format!("-{l}"),
        (5, 2) | (3, 1) => format!("{l}{file}"),
        _ => format!("{place}{l}"),
    }
}

/// The WXF text of a legal move.
pub fn move_text(pos: &Position, mv: Move) -> String {
    let Some(piece) = pos.piece_at(mv.from) else {
        return mv.to_string();
    };
    let color = piece.color;
    let mut out = designator(pos, color, piece.role, mv.from);
    let gain = advance(color, mv.to) - advance(color, mv.from);
    if mv.from.file() == mv.to.file() {
        out.push(if gain > 0 { '+' } else { '-' });
        out.push(char::from(b'0' + gain.unsigned_abs()));
    } else {
        out.push(match gain {
            0 => '.',
            g if g > 0 => '+',
            _ => '-',
        });
        out.push(char::from(b'0' + file_number(color, mv.to)));
    }
    out
}

/// The formal ICCS text of a move: `H2-E2`.
pub fn iccs_text(mv: Move) -> String {
    let text = mv.to_string().to_ascii_uppercase();
    format!("{}-{}", &text[..2], &text[2..])
}

/// Xiangqi move text that names no legal move.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ParseWxfError {
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub reason: &'static str,
}

impl fmt::Display for ParseWxfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read move '{}': {}", self.text, self.reason)
    }
}

impl core::error::Error for ParseWxfError {}

/// Folds the spellings players use onto the canonical one: other letters
/// (G for the general, B elephant, N horse, S soldier), `=` for `.`, the
/// the tandem sign after the letter (`C+.5`, the federation's own order).
fn normalize(text: &str) -> String {
    let mut out: Vec<u8> = text::to_half_width(text.trim())
        .bytes()
        .map(|b| match b.to_ascii_uppercase() {
            b'G' => b'K',
            b'B' => b'E',
            b'N' => b'H',
            b'S' => b'P',
            b'=' => b'.',
            other => other,
        })
        .collect();
    if let [
        letter @ (b'K' | b'A' | b'E' | b'H' | b'R' | b'C' | b'P'),
        sign @ (b'+' | b'-'),
        ..,
    ] = out[..]
    {
        out[0] = sign;
        out[1] = letter;
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Reads WXF text in context (lenient about letters, `=` for `.`, and a file
/// number where the rules would write `+`/`-`, when it is unambiguous).
///
/// # Errors
/// The text is not WXF, names no legal move, or fits more than one.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ParseWxfError> {
    let err = |reason| ParseWxfError {
        text: text.to_owned(),
        reason,
    };
    let wanted = normalize(text);
    if wanted.len() != 4 || !wanted.is_ascii() {
        return Err(err("expected four characters like C2.5"));
    }
    let legal = pos.legal_moves();
    if let Some(&mv) = legal.iter().find(|&&m| move_text(pos, m) == wanted) {
        return Ok(mv);
    }
    // A file number where the rules write a tandem sign: match by file.
    let b = wanted.as_bytes();
    let role = rules::xiangqi::Role::from_char(char::from(b[0]).to_ascii_lowercase())
        .filter(|_| b"KAEHRCP".contains(&b[0]))
        .ok_or(err("expected a piece letter K A E H R C P"))?;
    let file = char::from(b[1])
        .to_digit(10)
        .filter(|d| (1..=9).contains(d))
        .ok_or(err("no such legal move"))?;
    let fits: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| {
            pos.piece_at(m.from).is_some_and(|p| p.role == role)
                && u32::from(file_number(pos.turn(), m.from)) == file
                && move_text(pos, m).as_bytes()[2..] == b[2..]
        })
        .collect();
    match fits[..] {
        [only] => Ok(only),
        [] => Err(err("no such legal move")),
        _ => Err(err(
            "more than one piece can make this move: use + or - for the front or rear piece",
        )),
    }
}

/// Reads ICCS text (`H2-E2` or `h2e2`) and checks it is legal.
///
/// # Errors
/// The text is not ICCS or the move is illegal.
pub fn parse_iccs(pos: &Position, text: &str) -> Result<Move, ParseWxfError> {
    let mv = pos.parse_move(text.trim()).map_err(|e| ParseWxfError {
        text: text.to_owned(),
        reason: e.reason,
    })?;
    pos.is_legal(mv).then_some(mv).ok_or(ParseWxfError {
        text: text.to_owned(),
        reason: "no such legal move",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, cases: &[(&str, &str)]) {
        let p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for &(iccs, want) in cases {
            let m = p.parse_move(iccs).unwrap();
            assert_eq!(move_text(&p, m), want, "{iccs} in {fen}");
            assert_eq!(parse_move(&p, want), Ok(m), "{want}");
        }
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn openings_from_the_start() {
        check(
            START,
            &[
                ("h2e2", "C2.5"),
                ("h0g2", "H2+3"),
                ("i0i1", "R1+1"),
                ("c3c4", "P7+1"),
                ("g0e2", "E3+5"),
                ("f0e1", "A4+5"),
                ("e0e1", "K5+1"),
                ("b2b9", "C8+7"),
            ],
        );
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        check(
            black,
            &[
                ("b9c7", "H2+3"),
                ("h9g7", "H8+7"),
                ("b7e7", "C2.5"),
                ("a9a8", "R1+1"),
            ],
        );
        let p = Position::from_fen(START).unwrap();
        assert_eq!(parse_move(&p, "c2=5"), Ok(p.parse_move("h2e2").unwrap()));
        assert_eq!(iccs_text(p.parse_move("h2e2").unwrap()), "H2-E2");
        assert_eq!(parse_iccs(&p, "H2-E2"), Ok(p.parse_move("h2e2").unwrap()));
        assert!(parse_iccs(&p, "h2h8").is_err());
        for bad in ["", "C2.", "X2.5", "C0.5", "C2.5x", "中炮"] {
            assert!(parse_move(&p, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tandem_pieces() {
        // Red cannons on e2 and e1 (file 5): the front one is +C, the rear -C.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C4/4C4/RNBAKABNR w - - 0 1";
        check(fen, &[("e2d2", "+C.6"), ("e1d1", "-C.6"), ("e1f1", "-C.4")]);
        let p = Position::from_fen(fen).unwrap();
        assert_eq!(parse_move(&p, "C+.6"), Ok(p.parse_move("e2d2").unwrap()));
        assert_eq!(parse_move(&p, "C-.6"), Ok(p.parse_move("e1d1").unwrap()));
        // Three red soldiers on file 3 (c): front +P, middle P7, rear -P.
        let fen = "3k5/9/9/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1";
        check(fen, &[("c6d6", "+P.6"), ("c5d5", "P7.6"), ("c6c7", "+P+1")]);
        // Tandem soldiers on two files: the file comes first.
        let fen = "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1";
        check(fen, &[("c6d6", "7+.6"), ("g5f5", "3-.4")]);
    }
}
