//! Japanese move text (`▲７六歩`, `△同　銀`, `▲５八金右`, `▲５五角打`), as the
//! Japan Shogi Association writes it, and the KIF form with the from-square
//! (`７六歩(77)`).
//!
//! Disambiguation follows the JSA rules (棋譜の表記方法): when more than one
//! piece of the kind can reach the square, the motion (上 forward, 引 back,
//! 寄 sideways) is written if it alone tells them apart; otherwise the
//! position among the pieces making the same motion (右, 左 from the mover's
//! view, or 直 for a piece moving straight forward, never for 龍 and 馬), with
//! the motion added when 右 or 左 alone would also fit a piece moving
//! otherwise. 打 is written for a drop only when a board piece of the kind
//! could also reach the square; 不成 when the move could have promoted.
//! Candidates are the legal moves, so annan pieces count with their
//! borrowed moves.

use core::fmt;

use rules::Position as _;
use rules::shogi::{Color, Move, Position, Role, Square};

use crate::rivals::rivals;
use crate::text::{self, FULL_WIDTH_DIGITS, KANJI_DIGITS};

/// The name of a piece kind in moves: `歩`, `成銀`, `龍`.
pub const fn piece_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "歩",
        Role::Lance => "香",
        Role::Knight => "桂",
        Role::Silver => "銀",
        Role::Gold => "金",
        Role::Bishop => "角",
        Role::Rook => "飛",
        Role::King => "玉",
        Role::Tokin => "と",
        Role::PromotedLance => "成香",
        Role::PromotedKnight => "成桂",
        Role::PromotedSilver => "成銀",
        Role::Horse => "馬",
        Role::Dragon => "龍",
    }
}

/// The one-character name of a kind, as KIF boards write it (`杏`, `圭`, `全`).
pub(crate) const fn board_name(role: Role) -> char {
    match role {
        Role::Pawn => '歩',
        Role::Lance => '香',
        Role::Knight => '桂',
        Role::Silver => '銀',
        Role::Gold => '金',
        Role::Bishop => '角',
        Role::Rook => '飛',
        Role::King => '玉',
        Role::Tokin => 'と',
        Role::PromotedLance => '杏',
        Role::PromotedKnight => '圭',
        Role::PromotedSilver => '全',
        Role::Horse => '馬',
        Role::Dragon => '龍',
    }
}

/// Every name records use for a kind, longest first so `成銀` wins over `銀`.
const NAMES: [(&str, Role); 22] = [
    ("成香", Role::PromotedLance),
    ("成桂", Role::PromotedKnight),
    ("成銀", Role::PromotedSilver),
    ("歩", Role::Pawn),
    ("香", Role::Lance),
    ("桂", Role::Knight),
    ("銀", Role::Silver),
    ("金", Role::Gold),
    ("角", Role::Bishop),
    ("飛", Role::Rook),
    ("玉", Role::King),
    ("王", Role::King),
    ("と", Role::Tokin),
    ("杏", Role::PromotedLance),
    ("仝", Role::PromotedLance),
    ("圭", Role::PromotedKnight),
    ("今", Role::PromotedKnight),
    ("全", Role::PromotedSilver),
    ("馬", Role::Horse),
    ("龍", Role::Dragon),
    ("竜", Role::Dragon),
    ("个", Role::Tokin),
];

/// The kind named at the start of `text`, and the rest.
pub(crate) fn read_piece_name(text: &str) -> Option<(Role, &str)> {
    NAMES
        .iter()
        .find_map(|&(name, role)| text.strip_prefix(name).map(|rest| (role, rest)))
}

/// `７六`: a square as Japanese text writes it.
pub fn square_text(sq: Square) -> String {
    let mut out = String::new();
    out.push(FULL_WIDTH_DIGITS[usize::from(sq.file() - 1)]);
    out.push(KANJI_DIGITS[usize::from(sq.rank() - 1)]);
    out
}

/// `▲` for Sente, `△` for Gote.
pub const fn side_mark(color: Color) -> char {
    match color {
        Color::Sente => '▲',
        Color::Gote => '△',
    }
}

/// The disambiguation words.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
struct Words {
    right: bool,
    left: bool,
    straight: bool,
    up: bool,
    down: bool,
    sideways: bool,
}

impl Words {
    fn text(self) -> String {
        let mut out = String::new();
        for (on, word) in [
            (self.right, '右'),
            (self.left, '左'),
            (self.straight, '直'),
            (self.up, '上'),
            (self.down, '引'),
            (self.sideways, '寄'),
        ] {
            if on {
                out.push(word);
            }
        }
        out
    }

    fn has_motion(self) -> bool {
        self.up || self.down || self.sideways
    }
}

/// Which way a piece moves from the mover's view.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Motion {
    Up,
    Down,
    Sideways,
}

/// How far forward (positive) `from` → `to` goes for `color`.
fn forward(color: Color, from: Square, to: Square) -> i8 {
    let d = from.rank() as i8 - to.rank() as i8;
    if color == Color::Sente { d } else { -d }
}

/// How far to the mover's right a square lies (larger is further right).
fn rightness(color: Color, sq: Square) -> i8 {
    if color == Color::Sente {
        -(sq.file() as i8)
    } else {
        sq.file() as i8
    }
}

fn motion(color: Color, from: Square, to: Square) -> Motion {
    match forward(color, from, to) {
        d if d > 0 => Motion::Up,
        d if d < 0 => Motion::Down,
        _ => Motion::Sideways,
    }
}

/// The JSA words that tell the piece on `from` apart from the other pieces of
/// its kind that can reach `to` (`froms`, which includes `from`).
fn words_for(color: Color, role: Role, from: Square, to: Square, froms: &[Square]) -> Words {
    let mut words = Words::default();
    if froms.len() <= 1 {
        return words;
    }
    let mine = motion(color, from, to);
    let set_motion = |words: &mut Words| match mine {
        Motion::Up => words.up = true,
        Motion::Down => words.down = true,
        Motion::Sideways => words.sideways = true,
    };
    let same: Vec<Square> = froms
        .iter()
        .copied()
        .filter(|&f| motion(color, f, to) == mine)
        .collect();
    if same.len() == 1 {
        set_motion(&mut words);
        return words;
    }
    let straight = from.file() == to.file() && mine == Motion::Up;
    if straight && !matches!(role, Role::Dragon | Role::Horse) {
        words.straight = true;
        return words;
    }
    let me = rightness(color, from);
    let others = || {
        same.iter()
            .filter(|&&f| f != from)
            .map(|&f| rightness(color, f))
    };
    let (is_right, among_all) = if others().all(|r| r < me) {
        (
            true,
            froms
                .iter()
                .filter(|&&f| f != from)
                .all(|&f| rightness(color, f) < me),
        )
    } else {
        (
            false,
            froms
                .iter()
                .filter(|&&f| f != from)
                .all(|&f| rightness(color, f) > me),
        )
    };
    if is_right {
        words.right = true;
    } else {
        words.left = true;
    }
    if !among_all {
        set_motion(&mut words);
    }
    words
}

/// Whether the move could have promoted (so not promoting is worth saying).
fn could_promote(pos: &Position, mv: Move) -> bool {
    match mv {
        Move::Normal { from, to, .. } => pos.is_legal(Move::Normal {
            from,
            to,
            promote: true,
        }),
        Move::Drop { .. } => false,
    }
}

/// The JSA text of a legal move: `▲７六歩`, `△同　銀`, `▲５八金右`,
/// `▲２二角成`, `▲２三銀不成`, `▲５五角打`. `previous` is where the previous
/// move landed (for 同).
pub fn move_text(pos: &Position, mv: Move, previous: Option<Square>) -> String {
    let mut out = String::new();
    out.push(side_mark(pos.turn()));
    out.push_str(&body(pos, mv, previous, false));
    out
}

/// The KIF text of a legal move: `７六歩(77)`, `同　銀(31)`, `同　成銀(67)`,
/// `５五角打`, `２二角成(88)`. A declined promotion is written without 不成 (`２三銀(34)`):
/// the from-square already says it all, and not every KIF reader knows 不成.
pub fn kif_text(pos: &Position, mv: Move, previous: Option<Square>) -> String {
    body(pos, mv, previous, true)
}

fn body(pos: &Position, mv: Move, previous: Option<Square>, kif: bool) -> String {
    let to = mv.to();
    let role = match mv {
        Move::Normal { from, .. } => pos.piece_at(from).map_or(Role::King, |p| p.role),
        Move::Drop { role, .. } => role,
    };
    let name = piece_name(role);
    let mut out = String::new();
    if previous == Some(to) {
        out.push('同');
        // KIF always spaces 同 from the piece (`同　成銀(67)`): Kakinoki and
        // cshogi read only that form. JSA text spaces one-character names only.
        if kif || name.chars().count() == 1 {
            out.push('\u{3000}');
        }
    } else {
        out.push_str(&square_text(to));
    }
    out.push_str(name);
    match mv {
        Move::Normal { from, promote, .. } => {
            if !kif {
                out.push_str(&words_for(pos.turn(), role, from, to, &rivals(pos, role, to)).text());
            }
            if promote {
                out.push('成');
            } else if !kif && could_promote(pos, mv) {
                out.push_str("不成");
            }
            if kif {
                out.push_str(&format!("({}{})", from.file(), from.rank()));
            }
        }
        Move::Drop { .. } => {
            if kif || !rivals(pos, role, to).is_empty() {
                out.push('打');
            }
        }
    }
    out
}

/// Japanese move text that names no legal move.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ParseJapaneseError {
    /// The text as given.
    pub text: String,
    /// The character offset in the text where the problem is.
    pub offset: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ParseJapaneseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read move '{}': {}", self.text, self.reason)
    }
}

impl core::error::Error for ParseJapaneseError {}

/// Reads Japanese move text in context: JSA (`▲７六歩`, `同銀`, `５八金右`,
/// `２二角成`) or KIF (`７六歩(77)`, `同　銀(31)`). Lenient: the side mark,
/// spaces after 同, ASCII or full-width digits, 竜 or 龍 all read; words that
/// are not needed are accepted when they fit. `previous` is where the
/// previous move landed (for 同).
///
/// # Errors
/// The text is not Japanese move text, names no legal move, or fits more than one.
pub fn parse_move(
    pos: &Position,
    text: &str,
    previous: Option<Square>,
) -> Result<Move, ParseJapaneseError> {
    let err = |rest: &str, reason: String| ParseJapaneseError {
        text: text.to_owned(),
        offset: text.chars().count() - rest.chars().count(),
        reason,
    };
    let mut rest = text.trim_matches(text::is_space);
    if let Some(mark) = rest.chars().next() {
        let color = match mark {
            '▲' | '☗' => Some(Color::Sente),
            '△' | '▽' | '☖' => Some(Color::Gote),
            _ => None,
        };
        if let Some(color) = color {
            if color != pos.turn() {
                return Err(err(rest, "the mark names the side not to move".into()));
            }
            rest = &rest[mark.len_utf8()..];
        }
    }
    let to = if let Some(after) = rest.strip_prefix('同') {
        rest = after.trim_start_matches(text::is_space);
        previous.ok_or_else(|| err(after, "同 with no previous move".into()))?
    } else {
        let mut chars = rest.chars();
        let file = chars.next().and_then(text::digit_value);
        let rank = chars.next().and_then(text::digit_value);
        let sq = file
            .zip(rank)
            .and_then(|(f, r)| Square::new(f, r))
            .ok_or_else(|| err(rest, "expected a square like ７六 or 同".into()))?;
        rest = chars.as_str();
        // `７六同歩` names the square and says it is a recapture.
        if let Some(after) = rest.strip_prefix('同') {
            rest = after.trim_start_matches(text::is_space);
        }
        sq
    };
    let (role, after) = read_piece_name(rest)
        .ok_or_else(|| err(rest, "expected a piece name like 歩 or 銀".into()))?;
    rest = after;
    let mut words = Words::default();
    let mut promote = None;
    let mut drop = false;
    let mut from = None;
    loop {
        rest = rest.trim_start_matches(text::is_space);
        let Some(c) = rest.chars().next() else { break };
        let step = c.len_utf8();
        match c {
            '右' => words.right = true,
            '左' => words.left = true,
            '直' => words.straight = true,
            '上' | '行' | '入' => words.up = true,
            '引' => words.down = true,
            '寄' => words.sideways = true,
            '打' => drop = true,
            '成' => promote = Some(true),
            '生' => promote = Some(false),
            '不' if rest.starts_with("不成") => {
                promote = Some(false);
                rest = &rest["不成".len()..];
                continue;
            }
            '(' | '（' => {
                let inner = &rest[step..];
                let close = inner
                    .find([')', '）'])
                    .ok_or_else(|| err(rest, "unclosed '(' after the move".into()))?;
                if inner[..close].trim() == "00" {
                    // Some writers give a drop the from-square (00).
                    drop = true;
                    rest = &inner[close..];
                    rest = &rest[rest.chars().next().map_or(0, char::len_utf8)..];
                    continue;
                }
                let digits: Vec<u8> = inner[..close]
                    .chars()
                    .filter_map(text::digit_value)
                    .collect();
                from = match digits[..] {
                    [f, r] => Square::new(f, r),
                    _ => None,
                };
                if from.is_none() {
                    return Err(err(inner, "expected a from-square like (77)".into()));
                }
                rest = &inner[close..];
                rest = &rest[rest.chars().next().map_or(0, char::len_utf8)..];
                continue;
            }
            _ => return Err(err(rest, format!("unexpected '{c}' in the move"))),
        }
        rest = &rest[step..];
    }
    let color = pos.turn();
    // Every legal move of the named piece to the square, with the promotion asked for.
    let fits_promotion = |m: &Move| match (m, promote) {
        (Move::Normal { promote: p, .. }, Some(wanted)) => *p == wanted,
        _ => true,
    };
    let legal = pos.legal_moves();
    let board: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| match *m {
            Move::Normal { from: f, to: t, .. } => {
                t == to
                    && !drop
                    && pos.piece_at(f).is_some_and(|p| p.role == role)
                    && from.is_none_or(|wanted| wanted == f)
            }
            Move::Drop { .. } => false,
        })
        .filter(fits_promotion)
        .collect();
    let drops = legal
        .iter()
        .copied()
        .filter(|m| matches!(*m, Move::Drop { role: r, to: t } if r == role && t == to));
    if board.is_empty() || drop {
        return drops
            .into_iter()
            .next()
            .filter(|_| from.is_none() && promote != Some(true) && !words.has_motion())
            .ok_or_else(|| err(text, "no such legal move".into()));
    }
    // Unmarked promotion: the move that does not promote, if there is one.
    let froms = origins(&board);
    let fits_motion = |f: Square| {
        let m = motion(color, f, to);
        (!words.up || m == Motion::Up)
            && (!words.down || m == Motion::Down)
            && (!words.sideways || m == Motion::Sideways)
            && (!words.straight || (m == Motion::Up && f.file() == to.file()))
    };
    let moving: Vec<Square> = froms.iter().copied().filter(|&f| fits_motion(f)).collect();
    let chosen: Vec<Square> = moving
        .iter()
        .copied()
        .filter(|&f| {
            let me = rightness(color, f);
            let others = || {
                moving
                    .iter()
                    .filter(|&&g| g != f)
                    .map(|&g| rightness(color, g))
            };
            (!words.right || others().all(|r| r < me)) && (!words.left || others().all(|r| r > me))
        })
        .collect();
    let from = match chosen[..] {
        [only] => only,
        [] => return Err(err(text, "no piece of that kind moves that way".into())),
        _ => {
            return Err(err(
                text,
                "more than one piece can make this move: add 右, 左, 直, 上, 引 or 寄".into(),
            ));
        }
    };
    let candidates = |p: bool| {
        board.iter().copied().find(|m| {
            *m == Move::Normal {
                from,
                to,
                promote: p,
            }
        })
    };
    match promote {
        Some(p) => candidates(p),
        None => candidates(false).or_else(|| candidates(true)),
    }
    .ok_or_else(|| err(text, "no such legal move".into()))
}

/// The distinct from-squares of the board moves among `moves`, sorted.
pub(crate) fn origins(moves: &[Move]) -> Vec<Square> {
    let mut froms: Vec<Square> = moves
        .iter()
        .filter_map(|m| match *m {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        })
        .collect();
    froms.sort();
    froms.dedup();
    froms
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::AnnanDeadPiece;
    use rules::Variant;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen, Variant::Shogi, AnnanDeadPiece::default()).unwrap()
    }

    fn usi(pos: &Position, text: &str) -> Move {
        pos.parse_move(text).unwrap()
    }

    /// Writes each USI move as JSA text, checks the text, and reads it back.
    fn check(sfen: &str, cases: &[(&str, &str)]) {
        let p = pos(sfen);
        for &(mv, want) in cases {
            let m = usi(&p, mv);
            assert_eq!(move_text(&p, m, None), want, "{mv} in {sfen}");
            assert_eq!(parse_move(&p, want, None), Ok(m), "{want}");
        }
    }

    #[test]
    fn plain_moves_promotions_and_drops() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        check(start, &[("7g7f", "▲７六歩"), ("5i5h", "▲５八玉")]);
        let p = pos("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
        let m = usi(&p, "8h2b+");
        assert_eq!(move_text(&p, m, None), "▲２二角成");
        let not = usi(&p, "8h2b");
        assert_eq!(move_text(&p, not, None), "▲２二角不成");
        assert_eq!(kif_text(&p, not, None), "２二角(88)");
        assert_eq!(parse_move(&p, "２二角不成(88)", None), Ok(not));
        assert_eq!(kif_text(&p, m, None), "２二角成(88)");
        let mut after = p.clone();
        after.play_unchecked(m);
        let recapture = usi(&after, "3a2b");
        assert_eq!(move_text(&after, recapture, Some(m.to())), "△同　銀");
        assert_eq!(kif_text(&after, recapture, Some(m.to())), "同　銀(31)");
        for text in ["△同銀", "同 銀", "△２二銀", "２二同銀", "同　銀(31)"] {
            assert_eq!(
                parse_move(&after, text, Some(m.to())),
                Ok(recapture),
                "{text}"
            );
        }
        // A drop with no board piece able to reach the square has no 打.
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b B 1");
        check("4k4/9/9/9/9/9/9/9/4K4 b B 1", &[("B*5e", "▲５五角")]);
        assert_eq!(kif_text(&p, usi(&p, "B*5e"), None), "５五角打");
        assert_eq!(parse_move(&p, "５五角(00)", None), Ok(usi(&p, "B*5e")));
        // ... and 打 when one can.
        check(
            "4k4/9/9/9/9/9/9/9/B3K4 b B 1",
            &[("B*5e", "▲５五角打"), ("9i5e", "▲５五角")],
        );
    }

    /// KIF spaces 同 from every piece name, as Kakinoki and cshogi write and
    /// read it; JSA text only from one-character names. Both read back.
    #[test]
    fn kif_recapture_spacing() {
        let p = pos("4k4/9/9/9/9/3p5/3+S5/9/4K4 b - 1");
        let m = usi(&p, "6g6f");
        let previous = Some(m.to());
        assert_eq!(kif_text(&p, m, previous), "同　成銀(67)");
        assert_eq!(move_text(&p, m, previous), "▲同成銀");
        for text in [
            "同　成銀(67)",
            "同成銀(67)",
            "同 成銀(67)",
            "▲同成銀",
            "同　全(67)",
        ] {
            assert_eq!(parse_move(&p, text, previous), Ok(m), "{text}");
        }
        let p = pos("4k4/9/9/9/9/3p5/3P5/9/4K4 b - 1");
        let m = usi(&p, "6g6f");
        assert_eq!(kif_text(&p, m, Some(m.to())), "同　歩(67)");
        assert_eq!(move_text(&p, m, Some(m.to())), "▲同　歩");
    }

    /// The JSA examples: golds and silvers around 5八/5二, and two dragons.
    #[test]
    fn jsa_disambiguation() {
        // Golds on 6九 and 4九 both move up to 5八: 左 and 右.
        check(
            "4k4/9/9/9/9/9/9/9/3GKG3 b - 1",
            &[("6i5h", "▲５八金左"), ("4i5h", "▲５八金右")],
        );
        // Golds on 5九 (straight up) and 4九: 直 and 右.
        check(
            "3k5/9/9/9/9/9/9/9/3KGG3 b - 1",
            &[("5i5h", "▲５八金直"), ("4i5h", "▲５八金右")],
        );
        // Golds on 6八 (sideways) and 5九 (up): 寄 and 上.
        check(
            "4k4/9/9/9/9/9/9/3G5/3KG4 b - 1",
            &[("6h5h", "▲５八金寄"), ("5i5h", "▲５八金上")],
        );
        // Three golds: 6九 up-left, 5九 straight, 4八 sideways.
        check(
            "4k4/9/9/9/9/9/9/5G3/2KGG4 b - 1",
            &[
                ("6i5h", "▲５八金左"),
                ("5i5h", "▲５八金直"),
                ("4h5h", "▲５八金寄"),
            ],
        );
        // 左上 when 左 alone would also fit a piece moving sideways.
        check(
            "4k4/9/9/9/9/9/9/3G5/3G1GK2 b - 1",
            &[
                ("6i5h", "▲５八金左上"),
                ("6h5h", "▲５八金寄"),
                ("4i5h", "▲５八金右"),
            ],
        );
        // Silvers on 4九 and 6七: 上 and 引.
        check(
            "4k4/9/9/9/9/9/3S5/9/K4S3 b - 1",
            &[("4i5h", "▲５八銀上"), ("6g5h", "▲５八銀引")],
        );
        // Gote: the view turns round. Golds on 6一 and 4一 move to 5二.
        check(
            "3gkg3/9/9/9/9/9/9/9/4K4 w - 1",
            &[("6a5b", "△５二金右"), ("4a5b", "△５二金左")],
        );
        // Two dragons on one rank moving sideways: 右 and 左, never 直.
        check("4k4/9/9/9/9/9/9/9/+R3K3+R b - 1", &[("9i8i", "▲８九龍")]);
        check(
            "4k4/9/9/9/+R7+R/9/9/9/4K4 b - 1",
            &[("9e5e", "▲５五龍左"), ("1e5e", "▲５五龍右")],
        );
        // Dragons: one moves straight up, the other sideways: motion decides.
        check(
            "k8/9/9/9/8+R/9/9/9/4K+R3 b - 1",
            &[("4i4e", "▲４五龍上"), ("1e4e", "▲４五龍寄")],
        );
        // Horses on 9九 and 1九 both moving up to 5五: 左 and 右.
        check(
            "4k4/9/9/9/9/9/9/9/+B3K3+B b - 1",
            &[("9i5e", "▲５五馬左"), ("1i5e", "▲５五馬右")],
        );
    }

    #[test]
    fn bad_text_is_refused_with_reasons() {
        let p = pos("4k4/9/9/9/9/9/9/9/3GKG3 b - 1");
        assert!(
            parse_move(&p, "▲５八金", None)
                .unwrap_err()
                .reason
                .contains("more than one")
        );
        assert!(parse_move(&p, "△５八金右", None).is_err());
        assert!(parse_move(&p, "▲５八飛", None).is_err());
        assert!(parse_move(&p, "▲同金右", None).is_err());
        assert!(parse_move(&p, "▲０八金右", None).is_err());
        assert!(parse_move(&p, "", None).is_err());
        assert!(parse_move(&p, "▲５八金右(", None).is_err());
        assert!(parse_move(&p, "５八金(99)", None).is_err());
        assert_eq!(parse_move(&p, "５八金(69)", None), Ok(usi(&p, "6i5h")));
    }
}
