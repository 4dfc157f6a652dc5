//! Records written by cshogi's exporters (scripts/records/cshogi_fixtures.py,
//! output committed in tests/data/cshogi) read back as the games cshogi played.

use std::path::PathBuf;

use notation::Record;
use rules::Side;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/cshogi")
}

struct Expected {
    name: String,
    sfen: String,
    moves: Vec<String>,
    end: String,
    winner: Option<Side>,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(data().join("expected.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            Expected {
                name: f[0].to_owned(),
                sfen: f[1].to_owned(),
                moves: f[2].split_whitespace().map(str::to_owned).collect(),
                end: f[3].to_owned(),
                winner: match f[4] {
                    "first" => Some(Side::First),
                    "second" => Some(Side::Second),
                    _ => None,
                },
            }
        })
        .collect()
}

fn board_hand_turn(sfen: &str) -> String {
    sfen.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

#[test]
fn cshogi_records_read_back() {
    let games = expected();
    assert_eq!(games.len(), 24);
    let mut files = 0;
    for game in &games {
        let mut csa_times = None;
        for ext in ["csa", "kif", "kifu", "ki2"] {
            let path = data().join(format!("{}.{ext}", game.name));
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            files += 1;
            let record =
                Record::parse(&bytes, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let where_ = path.display();
            assert_eq!(
                board_hand_turn(&record.start().to_string()),
                board_hand_turn(&game.sfen),
                "{where_}"
            );
            assert_eq!(record.moves_text(), game.moves, "{where_}");
            let result = record
                .result
                .unwrap_or_else(|| panic!("{where_}: no result"));
            let end = match (game.end.as_str(), ext) {
                ("timeout/resignation", "csa") => "timeout",
                ("timeout/resignation", _) => "resignation",
                (end, _) => end,
            };
            assert_eq!(result.termination.code(), end, "{where_}");
            assert_eq!(result.winner, game.winner, "{where_}");
            let times: Vec<Option<u32>> = record.moves().iter().map(|m| m.seconds).collect();
            match ext {
                "csa" => {
                    assert!(times.iter().all(Option::is_some), "{where_}");
                    for (i, m) in record.moves().iter().enumerate() {
                        let want: &[&str] = if i % 17 == 3 { &["コメント"] } else { &[] };
                        assert_eq!(m.comments, want, "{where_} move {}", i + 1);
                    }
                    csa_times = Some(times);
                }
                "kif" | "kifu" => assert_eq!(
                    Some(times),
                    csa_times.clone(),
                    "{where_}: times differ from the CSA file"
                ),
                _ => {
                    for (i, m) in record.moves().iter().enumerate() {
                        let want: &[&str] = if i % 13 == 5 { &["*コメント"] } else { &[] };
                        assert_eq!(m.comments, want, "{where_} move {}", i + 1);
                    }
                }
            }
            let n: u32 = game.name[5..].parse().unwrap();
            assert_eq!(record.headers.second, Some(format!("Gote {n}")), "{where_}");
            assert_eq!(record.headers.first, Some(format!("先手{n}")), "{where_}");
        }
    }
    // 24 CSA, 24 KIF, 24 KIFU and the KI2 files of the even-start games.
    assert_eq!(files, 24 * 3 + 16);
}

#[test]
fn shift_jis_and_utf8_files_agree() {
    for game in expected() {
        let sjis = std::fs::read(data().join(format!("{}.kif", game.name))).unwrap();
        let utf8 = std::fs::read(data().join(format!("{}.kifu", game.name))).unwrap();
        assert!(
            std::str::from_utf8(&sjis).is_err(),
            "{}.kif should be Shift_JIS",
            game.name
        );
        assert_eq!(
            Record::parse(&sjis, None).unwrap(),
            Record::parse(&utf8, None).unwrap()
        );
    }
}

/// cshogi's KI2 text for moves that need disambiguation words, 打 or 不成:
/// Koma writes the same text and reads it back as the same move.
#[test]
fn japanese_text_matches_cshogi() {
    use rules::Position as _;
    let text = std::fs::read_to_string(data().join("ki2_moves.tsv")).unwrap();
    let mut checked = 0;
    let mut differ = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = rules::shogi::Position::from_sfen(
            f[0],
            rules::Variant::Shogi,
            rules::AnnanDeadPiece::default(),
        )
        .unwrap();
        let mv = pos.parse_move(f[1]).unwrap();
        assert_eq!(
            notation::japanese::parse_move(&pos, f[2], None),
            Ok(mv),
            "{line}"
        );
        let ours = notation::japanese::move_text(&pos, mv, None);
        if ours != f[2] {
            differ.push(format!("{line}\tkoma: {ours}"));
        }
        checked += 1;
    }
    assert_eq!(checked, 1500);
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
