//! Any text as Japanese, Western or WXF move text in a few positions: a legal
//! move or an error, never a panic; a move read writes back to text that
//! reads as the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notation::{japanese, western, wxf};
use rules::{AnnanDeadPiece, Variant, shogi, xiangqi};

const SHOGI: [&str; 3] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
    "4k4/9/9/9/9/9/9/9/3GKG3 b BSNLPbsnlp 1",
];

fuzz_target!(|text: &str| {
    for sfen in SHOGI {
        let pos = shogi::Position::from_sfen(sfen, Variant::Shogi, AnnanDeadPiece::default()).unwrap();
        if let Ok(mv) = japanese::parse_move(&pos, text, None) {
            assert_eq!(japanese::parse_move(&pos, &japanese::move_text(&pos, mv, None), None), Ok(mv));
        }
        if let Ok(mv) = western::parse_move(&pos, text) {
            assert_eq!(western::parse_move(&pos, &western::move_text(&pos, mv)), Ok(mv));
        }
    }
    let pos = xiangqi::Position::startpos();
    if let Ok(mv) = wxf::parse_move(&pos, text) {
        assert_eq!(wxf::parse_move(&pos, &wxf::move_text(&pos, mv)), Ok(mv));
    }
    let _ = wxf::parse_iccs(&pos, text);
});
