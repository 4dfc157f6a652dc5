//! Every parser is total: damaged records (lines dropped, doubled or cut,
//! characters swapped in) give a record or an error with a line and column
//! inside the text, never a panic. The fuzz targets (fuzz/) do the same with
//! coverage guidance; this runs in `cargo test`.

mod common;

use common::Rng;
use std::path::PathBuf;

use notation::{Format, Record, japanese, western, wxf};
use rules::{AnnanDeadPiece, Variant, shogi, xiangqi};

/// Characters that mean something to some format.
const NOISE: [&str; 24] = [
    "▲", "△", "同", "　", "成", "不成", "打", "右", "(", ")", "{", "}", "[", "]", "%", "'", "*",
    "+", "-", ",", "：", "9", "７", "\n",
];

fn fixtures() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut texts = Vec::new();
    for dir in ["handwritten", "cshogi"] {
        let mut entries: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let bytes = std::fs::read(&path).unwrap();
            if let Ok(text) = String::from_utf8(bytes) {
                if path.extension().is_none_or(|e| e != "tsv") {
                    texts.push(text);
                }
            }
        }
    }
    texts
}

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for _ in 0..rng.below(4) + 1 {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        match rng.below(5) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let copy = lines[i].clone();
                lines.insert(i, copy);
            }
            2 => {
                let chars: Vec<char> = lines[i].chars().collect();
                let cut = rng.below(chars.len() + 1);
                lines[i] = chars[..cut].iter().collect();
            }
            3 => {
                let chars: Vec<char> = lines[i].chars().collect();
                let at = rng.below(chars.len() + 1);
                let noise = NOISE[rng.below(NOISE.len())];
                lines[i] = chars[..at].iter().collect::<String>()
                    + noise
                    + &chars[at..].iter().collect::<String>();
            }
            _ => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
        }
    }
    lines.join("\n")
}

#[test]
fn damaged_records_never_panic() {
    let mut rng = Rng(42);
    let texts = fixtures();
    assert!(texts.len() > 40);
    let mut read = 0;
    for round in 0..4000 {
        let text = mutate(&texts[round % texts.len()], &mut rng);
        let lines = text.lines().count().max(1);
        for format in Format::ALL {
            match Record::parse_as(&text, format, None) {
                Ok(record) => {
                    read += 1;
                    for out in Format::ALL
                        .into_iter()
                        .filter(|f| f.supports(record.variant()))
                    {
                        let written = record.write(out).unwrap();
                        let back = Record::parse(&written, Some(record.variant()))
                            .unwrap_or_else(|e| panic!("{e}:\n{written}"));
                        assert_eq!(back.moves_text(), record.moves_text(), "{out}:\n{written}");
                    }
                }
                Err(e) => {
                    assert!((1..=lines + 1).contains(&e.line), "{format} {e}:\n{text}");
                    assert!(e.column >= 1, "{format} {e}");
                }
            }
        }
        // Bytes that are not UTF-8 go through the Shift_JIS decoder.
        let mut bytes = text.into_bytes();
        let at = rng.below(bytes.len() + 1);
        bytes.insert(at, 0x80 | (rng.next() as u8));
        let _ = Record::parse(&bytes, None);
    }
    assert!(
        read > 300,
        "only {read} damaged records were still readable"
    );
}

#[test]
fn move_text_parsers_are_total() {
    let mut rng = Rng(7);
    let shogi_pos = shogi::Position::from_sfen(
        "4k4/9/9/9/9/9/9/9/3GKG3 b BSNLPbsnlp 1",
        Variant::Shogi,
        AnnanDeadPiece::default(),
    )
    .unwrap();
    let xiangqi_pos = xiangqi::Position::startpos();
    let alphabet: Vec<char> =
        "▲△同　成不打右左直上引寄歩金銀角飛１５九五(58)PGSBx*-+=2345abcefhiKRCHAE. "
            .chars()
            .collect();
    for _ in 0..20000 {
        let len = rng.below(9);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        if let Ok(mv) = japanese::parse_move(&shogi_pos, &text, None) {
            assert_eq!(
                japanese::parse_move(&shogi_pos, &japanese::move_text(&shogi_pos, mv, None), None),
                Ok(mv)
            );
        }
        if let Ok(mv) = western::parse_move(&shogi_pos, &text) {
            assert_eq!(
                western::parse_move(&shogi_pos, &western::move_text(&shogi_pos, mv)),
                Ok(mv)
            );
        }
        if let Ok(mv) = wxf::parse_move(&xiangqi_pos, &text) {
            assert_eq!(
                wxf::parse_move(&xiangqi_pos, &wxf::move_text(&xiangqi_pos, mv)),
                Ok(mv)
            );
        }
        let _ = wxf::parse_iccs(&xiangqi_pos, &text);
    }
}
