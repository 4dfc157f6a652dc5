//! Xiangqi move text as Chinese players write it: `炮二平五`, `马8进7`,
//! `前炮退一`.
//!
//! A move is four characters: the piece, the file it stands on, the direction
//! (进 forward, 退 back, 平 sideways) and the destination file, or for a
//! straight move forward or back the number of points. Files are counted 1–9
//! from the mover's right, as printed along each side's edge of the board:
//! Red writes Chinese numerals (一 … 九), Black Arabic digits (1 … 9). Pieces
//! are named in simplified characters, Red's and Black's differing for the
//! elephant, advisor, general and soldier (相/象, 仕/士, 帅/将, 兵/卒).
//!
//! Two pieces of a kind on one file are told apart by 前 (front) and 后 (rear)
//! in place of the file: `前炮平四`, `后马进三`. Advisors and elephants keep
//! their file, as the rules of the Chinese Xiangqi Association allow: their
//! direction already tells the two apart. Soldiers: three on a file are
//! 前/中/后, four or five are numbered from the front (`二兵平四`, Black
//! `2卒平6`), and when two files hold two or more soldiers each the file
//! follows the place and the piece is left out (`前七平六`).

use rules::xiangqi::{Color, Move, Position, Role, Square};

use crate::wxf::{advance, file_number, on_file};

/// The simplified character of `color`'s piece of `role`.
pub const fn piece_name(color: Color, role: Role) -> char {
    match (color, role) {
        (_, Role::Chariot) => '车',
        (_, Role::Horse) => '马',
        (_, Role::Cannon) => '炮',
        (Color::Red, Role::Elephant) => '相',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Red, Role::General) => '帅',
        (Color::Red, Role::Soldier) => '兵',
        (Color::Black, Role::Elephant) => '象',
        (Color::Black, Role::Advisor) => '士',
        (Color::Black, Role::General) => '将',
        (Color::Black, Role::Soldier) => '卒',
    }
}

/// The number `n` (1–9) as `color` writes it: Chinese numerals for Red,
/// Arabic digits for Black.
pub fn numeral(color: Color, n: u8) -> char {
    const CHINESE: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    debug_assert!((1..=9).contains(&n), "xiangqi numbers run 1–9, not {n}");
    match color {
        Color::Red => CHINESE[usize::from(n.clamp(1, 9) - 1)],
        Color::Black => char::from(b'0' + n.clamp(1, 9)),
    }
}

/// The piece-and-file part: `炮二`, `前炮`, `中兵`, `二兵`, `前七`.
fn designator(pos: &Position, color: Color, role: Role, from: Square) -> String {
    let name = piece_name(color, role);
    let file = numeral(color, file_number(color, from));
    let column = on_file(pos, color, role, from.file());
    let n = column.len();
    if n < 2 || matches!(role, Role::Advisor | Role::Elephant) {
        return format!("{name}{file}");
    }
    let index = column.iter().position(|&sq| sq == from).unwrap_or(0);
    let place = match (n, index) {
        (_, 0) => '前',
        (_, i) if i == n - 1 => '后',
        _ => '中',
    };
    if role != Role::Soldier {
        return format!("{place}{name}");
    }
    let tandem_files = (0..9)
        .filter(|&f| on_file(pos, color, Role::Soldier, f).len() >= 2)
        .count();
    if tandem_files >= 2 {
        return format!("{place}{file}");
    }
    if n >= 4 {
        // Index is below 5: a side has five soldiers.
        return format!("{}{name}", numeral(color, index as u8 + 1));
    }
    format!("{place}{name}")
}

/// The Chinese text of a legal move.
pub fn move_text(pos: &Position, mv: Move) -> String {
    let Some(piece) = pos.piece_at(mv.from) else {
        return mv.to_string();
    };
    let color = piece.color;
    let mut out = designator(pos, color, piece.role, mv.from);
    let gain = advance(color, mv.to) - advance(color, mv.from);
    out.push(match gain {
        0 => '平',
        g if g > 0 => '进',
        _ => '退',
    });
    out.push(if mv.from.file() == mv.to.file() {
        numeral(color, gain.unsigned_abs())
    } else {
        numeral(color, file_number(color, mv.to))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Position as _;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    /// Plays `line` (ICCS) from `fen`, checking each move's text.
    fn check_line(fen: &str, line: &[(&str, &str)]) {
        let mut p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for &(iccs, want) in line {
            let mv = p.parse_move(iccs).unwrap();
            assert!(p.is_legal(mv), "{iccs} is illegal");
            assert_eq!(move_text(&p, mv), want, "{iccs}");
            p.play_unchecked(mv);
        }
    }

    /// Checks each move's text in the one position `fen`.
    fn check(fen: &str, cases: &[(&str, &str)]) {
        let p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for &(iccs, want) in cases {
            let mv = p.parse_move(iccs).unwrap();
            assert!(p.is_legal(mv), "{iccs} is illegal in {fen}");
            assert_eq!(move_text(&p, mv), want, "{iccs} in {fen}");
        }
    }

    #[test]
    fn central_cannon_against_the_screen_horses() {
        // 中炮过河车对屏风马平炮兑车, as opening books print it.
        check_line(
            START,
            &[
                ("h2e2", "炮二平五"),
                ("h9g7", "马8进7"),
                ("h0g2", "马二进三"),
                ("i9h9", "车9平8"),
                ("i0h0", "车一平二"),
                ("b9c7", "马2进3"),
                ("c3c4", "兵七进一"),
                ("g6g5", "卒7进1"),
                ("h0h6", "车二进六"),
                ("h7i7", "炮8平9"),
                ("h6g6", "车二平三"),
                ("i7i8", "炮9退1"),
                ("b0c2", "马八进七"),
                ("c6c5", "卒3进1"),
            ],
        );
    }

    #[test]
    fn every_piece_by_its_sides_name() {
        check(
            START,
            &[
                ("g0e2", "相三进五"),
                ("f0e1", "仕四进五"),
                ("e0e1", "帅五进一"),
                ("b2b9", "炮八进七"),
            ],
        );
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        check(
            black,
            &[
                ("c9e7", "象3进5"),
                ("d9e8", "士4进5"),
                ("e9e8", "将5进1"),
                ("e6e5", "卒5进1"),
                ("a9a7", "车1进2"),
            ],
        );
    }

    #[test]
    fn tandem_pieces_are_front_and_rear() {
        // Red cannons on e2 and e1 (file 五).
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C4/4C4/RNBAKABNR w - - 0 1";
        check(
            fen,
            &[
                ("e2d2", "前炮平六"),
                ("e1d1", "后炮平六"),
                ("e1f1", "后炮平四"),
                ("e2e6", "前炮进四"),
            ],
        );
        // Black horses on b9 and b7 (file 2): the front one is the one further down.
        let fen = "rnbakab1r/9/1n5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
        check(
            fen,
            &[
                ("b7c5", "前马进3"),
                ("b9c7", "后马进3"),
                ("b7d8", "前马退4"),
            ],
        );
    }

    #[test]
    fn advisors_and_elephants_keep_their_file() {
        // Red advisors on d0 and d2: one can only go forward, the other back.
        let fen = "3k5/9/9/9/9/9/9/3A5/9/3A1K3 w - - 0 1";
        check(fen, &[("d0e1", "仕六进五"), ("d2e1", "仕六退五")]);
        // Black elephants on c9 and c5.
        let fen = "2b1k4/9/9/9/2b6/9/9/9/9/5K3 b - - 0 1";
        check(
            fen,
            &[("c9e7", "象3进5"), ("c5e7", "象3退5"), ("c5a7", "象3退1")],
        );
    }

    #[test]
    fn tandem_soldiers() {
        // Three red soldiers on file 七: front, middle, rear.
        let fen = "3k5/9/9/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1";
        check(
            fen,
            &[
                ("c6d6", "前兵平六"),
                ("c5d5", "中兵平六"),
                ("c6c7", "前兵进一"),
            ],
        );
        // Two: front and rear.
        let fen = "3k5/9/9/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
        check(fen, &[("c6c7", "前兵进一"), ("c5d5", "后兵平六")]);
        // Five red soldiers on file 七, numbered from the front.
        let fen = "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
        check(
            fen,
            &[
                ("c9b9", "一兵平八"),
                ("c8d8", "二兵平六"),
                ("c7b7", "三兵平八"),
                ("c6d6", "四兵平六"),
                ("c5b5", "五兵平八"),
            ],
        );
        // Four black soldiers on file 3, Black's numbers.
        let fen = "4k4/9/9/9/9/2p6/2p6/2p6/2p6/3K5 b - - 0 1";
        check(
            fen,
            &[("c1c0", "1卒进1"), ("c2b2", "2卒平2"), ("c4d4", "4卒平4")],
        );
        // Two files with tandem soldiers: the place, then the file.
        let fen = "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1";
        check(
            fen,
            &[
                ("c6d6", "前七平六"),
                ("g5f5", "后三平四"),
                ("g6g7", "前三进一"),
            ],
        );
    }

    #[test]
    fn every_legal_move_has_its_own_text() {
        // Deterministic games through middle and end games: within a position
        // no two legal moves share a text, so the text names the move.
        for seed in 0..40_u64 {
            let mut p = Position::from_fen(START).unwrap();
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for _ in 0..160 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mut texts: Vec<String> = moves.iter().map(|&m| move_text(&p, m)).collect();
                for text in &texts {
                    assert_eq!(text.chars().count(), 4, "{text}");
                }
                texts.sort();
                let before = texts.len();
                texts.dedup();
                assert_eq!(
                    texts.len(),
                    before,
                    "a text names two moves in {}",
                    p.to_fen()
                );
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                p.play_unchecked(moves[(state % moves.len() as u64) as usize]);
            }
        }
    }
}
