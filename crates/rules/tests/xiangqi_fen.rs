//! Xiangqi FEN: reading, writing, errors that name the part and the bytes,
//! and position validation.

use proptest::prelude::*;
use rules::xiangqi::{
    Color, FenError, FenPart, ParseFenError, Piece, Position, PositionError, Role, Setup, Square,
};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

fn parse_error(text: &str) -> ParseFenError {
    match Setup::from_fen(text) {
        Ok(setup) => panic!("{text:?} parsed as {}", setup.to_fen()),
        Err(err) => err,
    }
}

fn position_error(fen: &str) -> PositionError {
    match Position::from_fen(fen) {
        Err(FenError::Position(err)) => err,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

#[test]
fn canonical_round_trip() {
    for fen in [
        START,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        "4k4/4a4/9/9/9/9/9/9/4A4/3K5 b - - 37 60",
    ] {
        assert_eq!(Setup::from_fen(fen).unwrap().to_fen(), fen);
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(pos.to_string(), fen);
    }
}

#[test]
fn lenient_input_gives_canonical_output() {
    for text in [
        BOARD.to_owned(),
        format!("{BOARD} w"),
        format!("{BOARD} r"),
        format!("{BOARD} w - -"),
        format!("{BOARD} w 0 1"),
        format!("{BOARD} w - 0 1"),
        format!("{BOARD} w - - 0"),
        format!("{BOARD} w - - 0 0"),
        format!("  {BOARD}   w - - 0 1  "),
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1".to_owned(),
    ] {
        assert_eq!(Setup::from_fen(&text).unwrap().to_fen(), START, "{text:?}");
    }
    let black = Setup::from_fen(&format!("{BOARD} b - - 3 7")).unwrap();
    assert_eq!(black.turn, Color::Black);
    assert_eq!((black.halfmove_clock, black.fullmove_number), (3, 7));
}

#[test]
fn errors_name_the_part_and_the_bytes() {
    let cases: Vec<(String, FenPart, std::ops::Range<usize>)> = vec![
        (String::new(), FenPart::Board, 0..0),
        ("   ".to_owned(), FenPart::Board, 0..3),
        // Nine ranks.
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w".to_owned(),
            FenPart::Board,
            0..49,
        ),
        // Eleven ranks: the eleventh is named.
        (format!("{BOARD}/9 w"), FenPart::Board, 60..61),
        // A letter that is no piece.
        (format!("rnbakabnx{}", &BOARD[9..]), FenPart::Board, 8..9),
        // Ten points on a rank, eight on a rank, a zero.
        (format!("rnbakabnr1{}", &BOARD[9..]), FenPart::Board, 0..10),
        (format!("rnbakabn{}", &BOARD[9..]), FenPart::Board, 0..8),
        (
            format!("rnbakabnr/09{}", &BOARD[11..]),
            FenPart::Board,
            10..11,
        ),
        // Non-ASCII: the span covers the whole character.
        (
            format!("rnbakabnr/é{}", &BOARD[11..]),
            FenPart::Board,
            10..12,
        ),
        (format!("{BOARD} x - - 0 1"), FenPart::Turn, 60..61),
        (format!("{BOARD} white"), FenPart::Turn, 60..65),
        (format!("{BOARD} w KQ - 0 1"), FenPart::Castling, 62..64),
        (format!("{BOARD} w - e3 0 1"), FenPart::EnPassant, 64..66),
        (format!("{BOARD} w - - x 1"), FenPart::HalfmoveClock, 66..67),
        (
            format!("{BOARD} w - - -1 1"),
            FenPart::HalfmoveClock,
            66..68,
        ),
        (
            format!("{BOARD} w - - 99999999999 1"),
            FenPart::HalfmoveClock,
            66..77,
        ),
        (
            format!("{BOARD} w - - 0 1x"),
            FenPart::FullmoveNumber,
            68..70,
        ),
        (format!("{BOARD} w - - 0 1 extra"), FenPart::Extra, 70..75),
        (format!("{BOARD} w - - 0 1 a b "), FenPart::Extra, 70..73),
    ];
    for (text, part, span) in cases {
        let err = parse_error(&text);
        assert_eq!(
            (err.part, err.span.clone()),
            (part, span),
            "{text:?}: {err}"
        );
        assert!(
            text.get(err.span.clone()).is_some(),
            "span on a char boundary"
        );
        let shown = err.to_string();
        assert!(
            shown.contains(&format!("{}..{}", err.span.start, err.span.end)),
            "{shown}"
        );
    }
}

#[test]
fn position_errors() {
    let cases = [
        (
            "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            PositionError::MissingGeneral(Color::Black),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w",
            PositionError::TooManyPieces(Piece {
                color: Color::Red,
                role: Role::General,
            }),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4R4/RNBAKABNR w",
            PositionError::TooManyPieces(Piece {
                color: Color::Red,
                role: Role::Chariot,
            }),
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/2K6 w",
            PositionError::MisplacedPiece(
                Piece {
                    color: Color::Red,
                    role: Role::General,
                },
                Square::C0,
            ),
        ),
        (
            "5k3/9/9/9/9/9/9/9/9/3KA4 w",
            PositionError::MisplacedPiece(
                Piece {
                    color: Color::Red,
                    role: Role::Advisor,
                },
                Square::E0,
            ),
        ),
        (
            "3k5/9/9/9/9/9/9/9/4B4/4K4 w",
            PositionError::MisplacedPiece(
                Piece {
                    color: Color::Red,
                    role: Role::Elephant,
                },
                Square::E1,
            ),
        ),
        (
            // An elephant across the river.
            "3k5/9/9/2B6/9/9/9/9/9/4K4 w",
            PositionError::MisplacedPiece(
                Piece {
                    color: Color::Red,
                    role: Role::Elephant,
                },
                Square::C6,
            ),
        ),
        (
            "3k5/9/9/9/9/9/9/P8/9/4K4 w",
            PositionError::MisplacedPiece(
                Piece {
                    color: Color::Red,
                    role: Role::Soldier,
                },
                Square::A2,
            ),
        ),
        (
            "3k5/p8/9/9/9/9/9/9/9/4K4 w",
            PositionError::MisplacedPiece(
                Piece {
                    color: Color::Black,
                    role: Role::Soldier,
                },
                Square::A8,
            ),
        ),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", PositionError::GeneralsFacing),
        // Red to move, but Black's general stands in check from the chariot.
        ("3k5/9/9/9/9/9/9/9/9/3RK4 w", PositionError::OpponentInCheck),
    ];
    for (fen, expected) in cases {
        assert_eq!(position_error(fen), expected, "{fen}");
        assert!(!expected.to_string().is_empty());
    }
    let shown = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w")
        .unwrap_err()
        .to_string();
    assert!(shown.contains("face"), "{shown}");
}

#[test]
fn soldiers_on_their_start_ranks_are_fine() {
    // A red soldier on rank 3 and a black one on rank 6 are where they start.
    assert!(Position::from_fen("3k5/9/9/p8/9/9/P8/9/9/4K4 w").is_ok());
}

/// Checks that parsing `text` neither panics nor returns a bad span, and that
/// what parses writes back to text that parses the same.
fn parse_total(text: &str) -> Result<(), TestCaseError> {
    match Setup::from_fen(text) {
        Ok(setup) => {
            prop_assert_eq!(Setup::from_fen(&setup.to_fen()), Ok(setup.clone()));
            let _ = Position::new(setup).map(|pos| pos.to_string());
        }
        Err(err) => {
            prop_assert!(text.get(err.span.clone()).is_some(), "{:?}: {}", text, err);
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn parser_is_total_on_any_text(text in "\\PC{0,90}") {
        parse_total(&text)?;
    }

    #[test]
    fn parser_is_total_on_edited_fen(
        edits in prop::collection::vec((0..START.len(), "[rnbakcpheRNBAKCPHE0-9/ wbx-]{0,2}"), 1..4)
    ) {
        let mut text = START.to_owned();
        for (at, insert) in edits {
            let at = at.min(text.len().saturating_sub(1));
            text.replace_range(at..at + 1, &insert);
        }
        parse_total(&text)?;
    }
}
