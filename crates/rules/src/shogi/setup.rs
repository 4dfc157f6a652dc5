//! SFEN text and the unvalidated [`Setup`] it reads into.
//!
//! Accepted: `BOARD TURN HAND [MOVE_NUMBER]` separated by ASCII whitespace;
//! the board has as many ranks and columns as the game (9, or 5 for minishogi),
//! ranks from `a` down, each listing files from the highest down to 1; hand `-`
//! or counted letters in any order (`2P`, `17p`, counts 1–99). The move number
//! defaults to 1. Emitted: the canonical form, hand in the usual order
//! (rook, bishop, gold, silver, knight, lance, pawn; Sente's first).

use core::fmt::{self, Write as _};
use core::ops::Range;

use super::{Color, Hand, Piece, Role, Square};

/// A position as SFEN describes it, not yet checked against the rules.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct Setup {
    /// The board, indexed by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// The hands, Sente's then Gote's.
    pub hands: [Hand; 2],
    /// The side to move.
    pub turn: Color,
    /// The SFEN move number (1 at the start).
    pub move_number: u32,
}

/// Which part of an SFEN string an error is in.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum SfenPart {
    /// The board field.
    Board,
    /// The side to move (`b` or `w`).
    Turn,
    /// The pieces in hand.
    Hand,
    /// The move number.
    MoveNumber,
    /// Text after the move number.
    Extra,
}

impl fmt::Display for SfenPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SfenPart::Board => "board",
            SfenPart::Turn => "side to move",
            SfenPart::Hand => "hand",
            SfenPart::MoveNumber => "move number",
            SfenPart::Extra => "end",
        })
    }
}

/// SFEN text that could not be read: which part, the byte span, and why.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct ParseSfenError {
    /// The part of the SFEN.
    pub part: SfenPart,
    /// The byte range of the offending text in the input.
    pub span: Range<usize>,
    /// What is wrong.
    pub reason: &'static str,
}

impl fmt::Display for ParseSfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad SFEN {} at bytes {}..{}: {}",
            self.part, self.span.start, self.span.end, self.reason
        )
    }
}

impl core::error::Error for ParseSfenError {}

/// The ASCII-whitespace separated fields of `text` with their start offsets.
fn fields(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| c.is_ascii_whitespace())
        .scan(0, |offset, field| {
            let start = *offset;
            *offset += field.len() + 1;
            Some((start, field))
        })
        .filter(|(_, field)| !field.is_empty())
}

impl Setup {
    /// An empty board, Sente to move, move 1.
    pub const EMPTY: Setup = Setup {
        board: [None; 81],
        hands: [Hand::EMPTY; 2],
        turn: Color::Sente,
        move_number: 1,
    };

    /// Reads SFEN for a board of `files_and_ranks` files and ranks (9, or 5 for minishogi).
    ///
    /// # Errors
    /// The part, byte span and reason of the first problem found.
    pub fn from_sfen(text: &str, files_and_ranks: u8) -> Result<Setup, ParseSfenError> {
        let mut setup = Setup::EMPTY;
        let mut parts = fields(text);
        let missing = |part, reason| ParseSfenError {
            part,
            span: text.len()..text.len(),
            reason,
        };
        let (start, board) = parts
            .next()
            .ok_or_else(|| missing(SfenPart::Board, "empty SFEN"))?;
        parse_board(&mut setup, board, start, files_and_ranks)?;
        let (start, turn) = parts
            .next()
            .ok_or_else(|| missing(SfenPart::Turn, "missing side to move"))?;
        setup.turn = match turn {
            "b" => Color::Sente,
            "w" => Color::Gote,
            _ => {
                return Err(ParseSfenError {
                    part: SfenPart::Turn,
                    span: start..start + turn.len(),
                    reason: "expected 'b' or 'w'",
                });
            }
        };
        let (start, hand) = parts
            .next()
            .ok_or_else(|| missing(SfenPart::Hand, "missing hand"))?;
        parse_hands(&mut setup, hand, start)?;
        if let Some((start, number)) = parts.next() {
            setup.move_number = number
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0 && number.bytes().all(|b| b.is_ascii_digit()))
                .ok_or(ParseSfenError {
                    part: SfenPart::MoveNumber,
                    span: start..start + number.len(),
                    reason: "expected a positive move number",
                })?;
        }
        if let Some((start, extra)) = parts.next() {
            return Err(ParseSfenError {
                part: SfenPart::Extra,
                span: start..start + extra.len(),
                reason: "unexpected text after the move number",
            });
        }
        Ok(setup)
    }

    /// SFEN of a 9×9 board.
    pub fn to_sfen(&self) -> String {
        self.to_sfen_sized(9)
    }

    /// SFEN of the board's first `files_and_ranks` files and ranks (5 for minishogi).
    ///
    /// Written into one string, without one for each piece or number: the
    /// server writes the position after every move.
    pub fn to_sfen_sized(&self, files_and_ranks: u8) -> String {
        let n = files_and_ranks;
        let mut out = String::with_capacity(96);
        let push_count = |out: &mut String, count: u32| {
            // Writing a number into a string cannot fail.
            let _ = write!(out, "{count}");
        };
        for rank in 1..=n {
            if rank > 1 {
                out.push('/');
            }
            let mut empty = 0;
            for file in (1..=n).rev() {
                let piece =
                    Square::new(file, rank).and_then(|sq| self.board[usize::from(sq.index())]);
                match piece {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            push_count(&mut out, empty);
                            empty = 0;
                        }
                        piece.push_sfen(&mut out);
                    }
                }
            }
            if empty > 0 {
                push_count(&mut out, empty);
            }
        }
        out.push(' ');
        out.push(self.turn.sfen_char());
        out.push(' ');
        let hand_start = out.len();
        for color in Color::ALL {
            for (role, count) in self.hands[color.index()].iter() {
                if count > 1 {
                    push_count(&mut out, u32::from(count));
                }
                Piece { color, role }.push_sfen(&mut out);
            }
        }
        if out.len() == hand_start {
            out.push('-');
        }
        out.push(' ');
        push_count(&mut out, self.move_number);
        out
    }
}

fn parse_board(setup: &mut Setup, board: &str, start: usize, n: u8) -> Result<(), ParseSfenError> {
    let err = |span: Range<usize>, reason| ParseSfenError {
        part: SfenPart::Board,
        span: start + span.start..start + span.end,
        reason,
    };
    let ranks: Vec<(usize, &str)> = board
        .split('/')
        .scan(0, |offset, rank| {
            let s = *offset;
            *offset += rank.len() + 1;
            Some((s, rank))
        })
        .collect();
    if ranks.len() != usize::from(n) {
        return Err(err(
            0..board.len(),
            if n == 5 {
                "expected 5 ranks separated by '/'"
            } else {
                "expected 9 ranks separated by '/'"
            },
        ));
    }
    for (rank_index, &(rank_start, rank_text)) in ranks.iter().enumerate() {
        let rank = rank_index as u8 + 1;
        let mut column: u8 = 0; // Columns filled so far, from the highest file.
        let bytes = rank_text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let at = rank_start + i;
            let byte = bytes[i];
            if byte.is_ascii_digit() && byte != b'0' {
                column += byte - b'0';
                i += 1;
                if column > n {
                    return Err(err(
                        rank_start..rank_start + rank_text.len(),
                        "too many squares in this rank",
                    ));
                }
                continue;
            }
            let (promoted, letter_at) = if byte == b'+' {
                (true, i + 1)
            } else {
                (false, i)
            };
            let Some(&letter) = bytes.get(letter_at) else {
                return Err(err(at..at + 1, "'+' must be followed by a piece letter"));
            };
            let span = at..rank_start + letter_at + 1;
            let Some(mut role) = Role::from_letter(letter as char) else {
                return Err(err(
                    span,
                    "expected a piece letter (P L N S G B R K), '+' or a digit 1-9",
                ));
            };
            if promoted {
                role = role
                    .promoted()
                    .ok_or_else(|| err(span.clone(), "this piece cannot be promoted"))?;
            }
            if column >= n {
                return Err(err(
                    rank_start..rank_start + rank_text.len(),
                    "too many squares in this rank",
                ));
            }
            let color = if letter.is_ascii_uppercase() {
                Color::Sente
            } else {
                Color::Gote
            };
            let file = n - column;
            let Some(sq) = Square::new(file, rank) else {
                return Err(err(span, "square off the board"));
            };
            setup.board[usize::from(sq.index())] = Some(Piece { color, role });
            column += 1;
            i = letter_at + 1;
        }
        if column != n {
            return Err(err(
                rank_start..rank_start + rank_text.len(),
                if n == 5 {
                    "each rank must have 5 squares"
                } else {
                    "each rank must have 9 squares"
                },
            ));
        }
    }
    Ok(())
}

fn parse_hands(setup: &mut Setup, hand: &str, start: usize) -> Result<(), ParseSfenError> {
    if hand == "-" {
        return Ok(());
    }
    let err = |span: Range<usize>, reason| ParseSfenError {
        part: SfenPart::Hand,
        span: start + span.start..start + span.end,
        reason,
    };
    let bytes = hand.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let entry_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let count = if i == entry_start {
            1
        } else {
            match hand[entry_start..i].parse::<u8>() {
                Ok(n) if (1..=99).contains(&n) && bytes[entry_start] != b'0' => n,
                _ => return Err(err(entry_start..i, "expected a count from 1 to 99")),
            }
        };
        let Some(&letter) = bytes.get(i) else {
            return Err(err(
                entry_start..i,
                "a count must be followed by a piece letter",
            ));
        };
        let span = entry_start..i + 1;
        let role = Role::from_letter(letter as char)
            .filter(|r| r.is_droppable())
            .ok_or_else(|| {
                err(
                    span.clone(),
                    "expected a piece letter P L N S G B R, or '-'",
                )
            })?;
        let color = if letter.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        let hand = &mut setup.hands[color.index()];
        let total = hand.get(role).saturating_add(count);
        if total > 99 {
            return Err(err(span, "too many pieces in hand"));
        }
        hand.set(role, total);
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    #[test]
    fn round_trips() {
        for (sfen, n) in [
            (START, 9),
            ("rbsgk/4p/5/P4/KGSBR b - 1", 5),
            (
                "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
                9,
            ),
        ] {
            assert_eq!(Setup::from_sfen(sfen, n).unwrap().to_sfen_sized(n), sfen);
        }
        let setup = Setup::from_sfen(START, 9).unwrap();
        assert_eq!(
            setup.board[usize::from(Square::SQ_5I.index())],
            Some(Piece {
                color: Color::Sente,
                role: Role::King
            })
        );
        assert_eq!(
            setup.board[usize::from(Square::SQ_2B.index())],
            Some(Piece {
                color: Color::Gote,
                role: Role::Bishop
            })
        );
        let hand = Setup::from_sfen("9/9/9/9/4k4/9/9/9/4K4 w 2P17pb 12", 9).unwrap();
        assert_eq!(hand.hands[0].get(Role::Pawn), 2);
        assert_eq!(hand.hands[1].get(Role::Pawn), 17);
        assert_eq!(hand.hands[1].get(Role::Bishop), 1);
        assert_eq!(hand.move_number, 12);
        assert_eq!(hand.turn, Color::Gote);
    }

    fn check_err(sfen: &str, n: u8, part: SfenPart, span: Range<usize>) {
        let err = Setup::from_sfen(sfen, n).unwrap_err();
        assert_eq!((err.part, err.span.clone()), (part, span), "{sfen}: {err}");
        assert!(err.to_string().contains(&part.to_string()));
    }

    #[test]
    fn errors_name_part_and_span() {
        check_err("", 9, SfenPart::Board, 0..0);
        check_err("9/9/9 b - 1", 9, SfenPart::Board, 0..5);
        check_err(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1",
            9,
            SfenPart::Board,
            0..59,
        );
        check_err(
            "lnsgkgsnl/1r5b1/ppppppxpp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            9,
            SfenPart::Board,
            22..23,
        );
        check_err(
            "lnsgkgsnl/1r5b1/pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            9,
            SfenPart::Board,
            16..24,
        );
        check_err(
            "lnsgkgsnl/1r5b1/pppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            9,
            SfenPart::Board,
            16..26,
        );
        check_err(
            "lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            9,
            SfenPart::Board,
            4..6,
        );
        check_err(
            "lnsgkgsn+/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            9,
            SfenPart::Board,
            8..9,
        );
        check_err(&START.replace(" b ", " x "), 9, SfenPart::Turn, 58..59);
        check_err(&START.replace(" - ", " 2K "), 9, SfenPart::Hand, 60..62);
        check_err(&START.replace(" - ", " 0P "), 9, SfenPart::Hand, 60..61);
        check_err(&START.replace(" - ", " 3 "), 9, SfenPart::Hand, 60..61);
        check_err(&START.replace(" - ", " P+ "), 9, SfenPart::Hand, 61..62);
        check_err(&START.replace(" 1", " 0"), 9, SfenPart::MoveNumber, 62..63);
        check_err(&format!("{START} x"), 9, SfenPart::Extra, 64..65);
        check_err(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
            9,
            SfenPart::Turn,
            57..57,
        );
        check_err(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b",
            9,
            SfenPart::Hand,
            59..59,
        );
        check_err("rbsgk/4p/5/P4/KGSBR b - 1", 9, SfenPart::Board, 0..19);
        check_err(START, 5, SfenPart::Board, 0..57);
        check_err("rbsgk/4p/6/P4/KGSBR b - 1", 5, SfenPart::Board, 9..10);
    }
}
