//! Unvalidated positions as FEN gives them, and FEN text both ways.

use core::fmt;
use core::ops::Range;

use super::{Color, Piece, Square};

/// A position as written, before any rule is checked: what FEN parses to.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct Setup {
    /// The piece on each point, by rank-major index (see [`Square`]).
    pub board: [Option<Piece>; 90],
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture (the sixty-move rule counts these).
    pub halfmove_clock: u32,
    /// The move number, starting at 1 and increasing after Black moves.
    pub fullmove_number: u32,
}

/// The part of a FEN string an error is in.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum FenPart {
    /// The piece placement, ranks 9 to 0 separated by `/`.
    Board,
    /// The side to move: `w` or `r` for Red, `b` for Black.
    Turn,
    /// The chess castling field, always `-` in xiangqi.
    Castling,
    /// The chess en-passant field, always `-` in xiangqi.
    EnPassant,
    /// Plies since the last capture.
    HalfmoveClock,
    /// The move number.
    FullmoveNumber,
    /// Text after the last field.
    Extra,
}

impl fmt::Display for FenPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenPart::Board => "board",
            FenPart::Turn => "side to move",
            FenPart::Castling => "castling field",
            FenPart::EnPassant => "en-passant field",
            FenPart::HalfmoveClock => "halfmove clock",
            FenPart::FullmoveNumber => "move number",
            FenPart::Extra => "extra text",
        })
    }
}

/// FEN text that could not be read: which part, which bytes, and why.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct ParseFenError {
    /// The field the error is in.
    pub part: FenPart,
    /// The byte range of the offending text within the input.
    pub span: Range<usize>,
    /// What is wrong there.
    pub reason: &'static str,
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid FEN {} at bytes {}..{}: {}",
            self.part, self.span.start, self.span.end, self.reason
        )
    }
}

impl core::error::Error for ParseFenError {}

fn error(part: FenPart, span: Range<usize>, reason: &'static str) -> ParseFenError {
    ParseFenError { part, span, reason }
}

/// The whitespace-separated fields of `text`, each with its byte offset.
fn fields(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_ascii_whitespace()
        .map(move |field| (field.as_ptr() as usize - text.as_ptr() as usize, field))
}

impl Setup {
    /// The usual starting position.
    pub const START_FEN: &'static str =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    /// Reads FEN. Lenient as the programs that write it: `w` or `r` for Red,
    /// `b` for Black; the castling and en-passant placeholders `-` may be
    /// present or not; missing trailing fields default to Red to move, `0 1`;
    /// the letters `h` (horse) and `e` (elephant) are accepted.
    ///
    /// # Errors
    /// The field and byte span of the first thing that is not FEN.
    pub fn from_fen(text: &str) -> Result<Setup, ParseFenError> {
        let mut fields = fields(text).peekable();
        let Some((start, board_text)) = fields.next() else {
            return Err(error(FenPart::Board, 0..text.len(), "empty FEN"));
        };
        let board = parse_board(start, board_text)?;
        let mut setup = Setup {
            board,
            turn: Color::Red,
            halfmove_clock: 0,
            fullmove_number: 1,
        };
        if let Some((start, turn)) = fields.next() {
            setup.turn = match turn {
                "w" | "r" => Color::Red,
                "b" => Color::Black,
                _ => {
                    return Err(error(
                        FenPart::Turn,
                        start..start + turn.len(),
                        "expected w or r (Red) or b (Black)",
                    ));
                }
            };
        }
        for part in [FenPart::Castling, FenPart::EnPassant] {
            match fields.peek() {
                Some((_, "-")) => {
                    fields.next();
                }
                Some((start, field)) if !field.bytes().all(|b| b.is_ascii_digit()) => {
                    return Err(error(part, *start..start + field.len(), "expected -"));
                }
                _ => break,
            }
        }
        if let Some((start, clock)) = fields.next() {
            setup.halfmove_clock = parse_number(FenPart::HalfmoveClock, start, clock)?;
        }
        if let Some((start, number)) = fields.next() {
            // Some programs write 0; the first move is number 1.
            setup.fullmove_number = parse_number(FenPart::FullmoveNumber, start, number)?.max(1);
        }
        if let Some((start, _)) = fields.next() {
            return Err(error(
                FenPart::Extra,
                start..text.trim_end().len(),
                "text after the move number",
            ));
        }
        Ok(setup)
    }

    /// Canonical FEN: `w`/`b`, both placeholders, both numbers.
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(80);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.board[rank * 9 + file] {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let turn = match self.turn {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        fen.push_str(&format!(
            " {turn} - - {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        fen
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[usize::from(sq.index())]
    }
}

fn parse_board(start: usize, text: &str) -> Result<[Option<Piece>; 90], ParseFenError> {
    let mut board = [None; 90];
    let mut rank_start = start;
    let mut ranks = 0;
    for rank_text in text.split('/') {
        let span = rank_start..rank_start + rank_text.len();
        if ranks == 10 {
            return Err(error(FenPart::Board, span, "more than ten ranks"));
        }
        let rank = 9 - ranks;
        let mut file = 0usize;
        for (offset, c) in rank_text.char_indices() {
            let at = rank_start + offset;
            let char_span = at..at + c.len_utf8();
            if let Some(n) = c.to_digit(10) {
                if n == 0 {
                    return Err(error(FenPart::Board, char_span, "empty runs are 1 to 9"));
                }
                file += n as usize;
            } else if let Some(piece) = Piece::from_char(c) {
                if file < 9 {
                    board[rank * 9 + file] = Some(piece);
                }
                file += 1;
            } else {
                return Err(error(
                    FenPart::Board,
                    char_span,
                    "not a piece letter or digit",
                ));
            }
            if file > 9 {
                return Err(error(
                    FenPart::Board,
                    span,
                    "a rank has more than nine points",
                ));
            }
        }
        if file < 9 {
            return Err(error(
                FenPart::Board,
                span,
                "a rank has fewer than nine points",
            ));
        }
        ranks += 1;
        rank_start = span.end + 1;
    }
    if ranks < 10 {
        return Err(error(
            FenPart::Board,
            start..start + text.len(),
            "fewer than ten ranks",
        ));
    }
    Ok(board)
}

fn parse_number(part: FenPart, start: usize, text: &str) -> Result<u32, ParseFenError> {
    let span = start..start + text.len();
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error(part, span, "expected a number"));
    }
    text.parse()
        .map_err(|_| error(part, span, "number too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let setup = Setup::from_fen(Setup::START_FEN).unwrap();
        assert_eq!(setup.to_fen(), Setup::START_FEN);
        assert_eq!(setup.board[4].map(|p| p.char()), Some('K'));
        assert_eq!(setup.board[85].map(|p| p.char()), Some('k'));
    }
}
