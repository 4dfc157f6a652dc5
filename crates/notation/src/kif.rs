//! KIF (柿木形式) records, and the header, board (BOD) and result lines KIF
//! shares with KI2.
//!
//! Read: `key：value` headers (full-width or ASCII colon), `手合割` for the
//! handicap or variant, a BOD board (`後手の持駒：`, the 9×9 or 5×5 diagram,
//! `先手の持駒：`, `後手番`), numbered moves (`1 ７六歩(77) ( 0:01/00:00:01)`,
//! `同　銀(31)`, `５五角打`, promoted pieces as `成銀` or `全`), `*` comments,
//! the end word (`投了`, `千日手`, `持将棋`, `入玉勝ち`, `切れ負け`, `反則負け` ...)
//! and `まで64手で先手の勝ち`. Lines starting `#` or `&` are skipped, and
//! reading stops at the first variation (`変化：`): only the main line is kept.
//!
//! The variant is written as `手合割：5五将棋` (minishogi) or `手合割：安南将棋`
//! (annan); a start that is neither the variant's start nor a known handicap
//! is written as a BOD board.

use rules::shogi::{self, Color, Piece, Setup, Square};
use rules::{AnyMove, AnyPosition, Handicap, Position as _, Settings, Side, Variant};

use crate::japanese;
use crate::record::{GameResult, Headers, ParseRecordError, Record, Termination};
use crate::text;

/// The KIF name of each handicap.
const HANDICAPS: [(Handicap, &str); 10] = [
    (Handicap::Even, "平手"),
    (Handicap::Lance, "香落ち"),
    (Handicap::Bishop, "角落ち"),
    (Handicap::Rook, "飛車落ち"),
    (Handicap::RookLance, "飛香落ち"),
    (Handicap::Two, "二枚落ち"),
    (Handicap::Four, "四枚落ち"),
    (Handicap::Six, "六枚落ち"),
    (Handicap::Eight, "八枚落ち"),
    (Handicap::Ten, "十枚落ち"),
];

/// What a `手合割` value says.
#[derive(Copy, Clone)]
enum Teai {
    Handicap(Handicap),
    Variant(Variant),
}

fn read_teai(value: &str) -> Option<Teai> {
    let value = value.trim_matches(text::is_space);
    let half = text::to_half_width(value);
    match half.as_str() {
        "5五将棋" | "五五将棋" => return Some(Teai::Variant(Variant::Minishogi)),
        "安南将棋" | "安南" => return Some(Teai::Variant(Variant::Annan)),
        "平手" => return Some(Teai::Handicap(Handicap::Even)),
        _ => {}
    }
    HANDICAPS
        .iter()
        .find(|(_, name)| *name == value || name.trim_end_matches('ち') == value)
        .map(|&(h, _)| Teai::Handicap(h))
}

/// The header, board and result state shared by the KIF and KI2 readers.
pub(crate) struct Preamble<'a> {
    headers: Headers,
    comments: Vec<String>,
    hint: Option<Variant>,
    settings: &'a Settings,
    teai: Option<(Teai, usize)>,
    board: Option<Setup>,
    board_size: u8,
    board_line: usize,
    turn: Option<Color>,
    next_rank: u8,
}

/// What a line was, to the shared reader.
pub(crate) enum Line {
    /// A header, board or comment line: taken.
    Taken,
    /// Not a preamble line.
    Other,
}

impl<'a> Preamble<'a> {
    pub(crate) fn new(hint: Option<Variant>, settings: &'a Settings) -> Preamble<'a> {
        Preamble {
            headers: Headers::default(),
            comments: Vec::new(),
            hint,
            settings,
            teai: None,
            board: None,
            board_size: 9,
            board_line: 0,
            turn: None,
            next_rank: 1,
        }
    }

    /// Takes a header, board, turn or comment line before the moves.
    pub(crate) fn line(&mut self, line_no: usize, line: &str) -> Result<Line, ParseRecordError> {
        let trimmed = line.trim_matches(text::is_space);
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('&') {
            return Ok(Line::Taken);
        }
        if let Some(comment) = trimmed.strip_prefix('*') {
            self.comments.push(comment.to_owned());
            return Ok(Line::Taken);
        }
        match trimmed {
            "先手番" | "下手番" => {
                self.turn = Some(Color::Sente);
                return Ok(Line::Taken);
            }
            "後手番" | "上手番" => {
                self.turn = Some(Color::Gote);
                return Ok(Line::Taken);
            }
            _ => {}
        }
        if trimmed.starts_with("手数＝") || trimmed.starts_with('+') {
            return Ok(Line::Taken);
        }
        if trimmed.starts_with('|') {
            self.board_row(line_no, line, trimmed)?;
            return Ok(Line::Taken);
        }
        if trimmed.starts_with(text::FULL_WIDTH_DIGITS) && !trimmed.contains(['：', ':']) {
            // The column numbers above a BOD board: `９ ８ ７ … １` or `５ ４ ３ ２ １`.
            self.board_size = if trimmed.starts_with('５') { 5 } else { 9 };
            return Ok(Line::Taken);
        }
        let Some((key, value)) = trimmed.split_once(['：', ':']) else {
            return Ok(Line::Other);
        };
        if key.chars().any(text::is_space)
            || key.is_empty()
            || key.chars().next().is_some_and(|c| c.is_ascii_digit())
        {
            return Ok(Line::Other);
        }
        let value = value.trim_matches(text::is_space);
        let owned = Some(value.to_owned());
        match key {
            "先手" | "下手" => self.headers.first = owned,
            "後手" | "上手" => self.headers.second = owned,
            "棋戦" => self.headers.event = owned,
            "場所" => self.headers.site = owned,
            "開始日時" => self.headers.start_time = owned,
            "終了日時" => self.headers.end_time = owned,
            "持ち時間" => self.headers.time_control = owned,
            "戦型" => self.headers.opening = owned,
            "手合割" => {
                let teai = read_teai(value).ok_or_else(|| {
                    text::error_at(line_no, line, value, format!("unknown 手合割 '{value}'"))
                })?;
                self.teai = Some((teai, line_no));
            }
            "先手の持駒" | "下手の持駒" => {
                self.hand(line_no, line, value, Color::Sente)?
            }
            "後手の持駒" | "上手の持駒" => {
                self.hand(line_no, line, value, Color::Gote)?
            }
            _ => self.headers.other.push((key.to_owned(), value.to_owned())),
        }
        Ok(Line::Taken)
    }

    fn board_mut(&mut self, line_no: usize) -> &mut Setup {
        if self.board_line == 0 {
            self.board_line = line_no;
        }
        self.board.get_or_insert(Setup::EMPTY)
    }

    fn hand(
        &mut self,
        line_no: usize,
        line: &str,
        value: &str,
        color: Color,
    ) -> Result<(), ParseRecordError> {
        let setup = self.board_mut(line_no);
        if value == "なし" || value.is_empty() {
            return Ok(());
        }
        for item in value
            .split(|c: char| text::is_space(c) || c == '、')
            .filter(|s| !s.is_empty())
        {
            let (role, count) = japanese::read_piece_name(item)
                .filter(|(role, _)| role.is_droppable())
                .and_then(|(role, count)| Some((role, text::parse_kanji_count(count)?)))
                .ok_or_else(|| {
                    text::error_at(line_no, line, item, format!("bad piece in hand '{item}'"))
                })?;
            let hand = &mut setup.hands[color.index()];
            hand.set(role, hand.get(role).saturating_add(count));
        }
        Ok(())
    }

    fn board_row(&mut self, line_no: usize, line: &str, row: &str) -> Result<(), ParseRecordError> {
        let size = self.board_size;
        let inner = &row['|'.len_utf8()..];
        let (cells, after) = inner
            .split_once('|')
            .ok_or_else(|| text::error_at(line_no, line, row, "a board row must end with '|'"))?;
        let rank = after
            .trim_matches(text::is_space)
            .chars()
            .next()
            .and_then(text::digit_value)
            .unwrap_or(self.next_rank);
        if rank > size {
            return Err(text::error_at(
                line_no,
                line,
                after,
                "a rank beyond the board",
            ));
        }
        self.next_rank = rank + 1;
        let chars: Vec<char> = cells.chars().collect();
        if chars.len() != usize::from(size) * 2 {
            return Err(text::error_at(
                line_no,
                line,
                cells,
                format!("a board row needs {size} cells of two characters"),
            ));
        }
        let setup = self.board_mut(line_no);
        for (i, cell) in chars.chunks(2).enumerate() {
            let file = size - i as u8;
            let sq = Square::new(file, rank).expect("file and rank on the board");
            let piece = match cell {
                [_, '・'] | [_, ' '] | [_, '\u{3000}'] => None,
                [mark, name] => {
                    let color = if matches!(mark, 'v' | 'V' | '^') {
                        Color::Gote
                    } else {
                        Color::Sente
                    };
                    let mut buf = [0u8; 4];
                    let role = japanese::read_piece_name(name.encode_utf8(&mut buf))
                        .map(|(role, _)| role)
                        .ok_or_else(|| {
                            let at: String = cells.chars().skip(i * 2).collect();
                            let part = &cells[cells.len() - at.len()..];
                            text::error_at(
                                line_no,
                                line,
                                part,
                                format!("unknown piece '{name}' on the board"),
                            )
                        })?;
                    Some(Piece { color, role })
                }
                _ => None,
            };
            setup.board[usize::from(sq.index())] = piece;
        }
        Ok(())
    }

    /// The start position the preamble describes, as an empty record.
    pub(crate) fn into_record(self) -> Result<Record, ParseRecordError> {
        let teai_variant = match self.teai {
            Some((Teai::Variant(v), _)) => Some(v),
            _ => None,
        };
        let variant = teai_variant
            .or(self.hint.filter(|v| v.is_shogi_family()))
            .or((self.board.is_some() && self.board_size == 5).then_some(Variant::Minishogi))
            .unwrap_or(Variant::Shogi);
        let start = match (self.board, self.teai) {
            (Some(mut setup), _) => {
                setup.turn = self.turn.unwrap_or(setup.turn);
                shogi::Position::new(setup, variant, self.settings.annan_dead_piece).map_err(
                    |e| {
                        ParseRecordError::new(
                            self.board_line,
                            1,
                            format!("illegal start position: {e}"),
                        )
                    },
                )?
            }
            (None, Some((Teai::Handicap(handicap), teai_line))) => {
                if variant != Variant::Shogi && handicap != Handicap::Even {
                    return Err(ParseRecordError::new(
                        teai_line,
                        1,
                        format!("handicaps are for shogi only, not {variant}"),
                    ));
                }
                let settings = Settings {
                    handicap,
                    ..self.settings.clone()
                };
                shogi::Position::startpos(variant, &settings)
            }
            (None, _) => shogi::Position::startpos(variant, self.settings),
        };
        let mut record = Record::new(AnyPosition::Shogi(start));
        record.headers = self.headers;
        record.comments = self.comments;
        Ok(record)
    }
}

/// The words a KIF move line may end the game with, and what they mean with
/// `to_move` to move: the termination and the winner.
fn end_word(word: &str, to_move: Side) -> Option<(Termination, Option<Side>)> {
    let opp = Some(to_move.opponent());
    Some(match word {
        "投了" => (Termination::Resignation, opp),
        "詰み" => (Termination::Checkmate, opp),
        "千日手" => (Termination::Repetition, None),
        "持将棋" => (Termination::Impasse, None),
        "入玉勝ち" | "入玉宣言" => (Termination::Declaration, Some(to_move)),
        "切れ負け" | "時間切れ" => (Termination::Timeout, opp),
        "反則負け" => (Termination::IllegalMove, opp),
        "反則勝ち" => (Termination::IllegalMove, Some(to_move)),
        "中断" => (Termination::Abort, None),
        "引き分け" => (Termination::Agreement, None),
        _ => return None,
    })
}

/// Reads `まで64手で先手の勝ち` and the like: the termination it names (if it
/// names one) and the winner.
pub(crate) fn read_made(line: &str) -> Option<(Option<Termination>, Option<Side>)> {
    let rest = line.trim_matches(text::is_space).strip_prefix("まで")?;
    let rest = rest.trim_start_matches('、');
    let after = rest.split_once('手').map_or(rest, |(_, a)| a);
    let after = after.strip_prefix('で').unwrap_or(after);
    let winner = if after.contains("先手の") || after.contains("下手の") {
        Some(Side::First)
    } else if after.contains("後手の") || after.contains("上手の") {
        Some(Side::Second)
    } else {
        None
    };
    let loses = after.contains("負け");
    let winner = if loses {
        winner.map(Side::opponent)
    } else {
        winner
    };
    let termination = if after.contains("千日手") {
        Some(Termination::Repetition)
    } else if after.contains("持将棋") {
        Some(Termination::Impasse)
    } else if after.contains("中断") {
        Some(Termination::Abort)
    } else if after.contains("入玉") {
        Some(Termination::Declaration)
    } else if after.contains("反則") {
        Some(Termination::IllegalMove)
    } else if after.contains("時間切れ") || after.contains("切れ負け") {
        Some(Termination::Timeout)
    } else if after.contains("詰み") {
        Some(Termination::Checkmate)
    } else if after.contains("引き分け") {
        Some(Termination::Agreement)
    } else if after.contains("勝ち") {
        Some(Termination::Resignation)
    } else {
        None
    };
    Some((termination, winner))
}

/// Settles the record's result from the end word (if any) and the まで line.
pub(crate) fn settle(
    record: &mut Record,
    word: Option<(Termination, Option<Side>)>,
    made: Option<(Option<Termination>, Option<Side>)>,
) {
    let (termination, winner) = match (word, made) {
        // The word names the winner of a resignation, mate, timeout or
        // declaration by itself (some writers get the まで line wrong in
        // handicap games); for 反則 and 持将棋 the まで line says more.
        (Some((t, w)), Some((_, made_winner))) => match t {
            Termination::IllegalMove | Termination::Impasse => (t, made_winner.or(w)),
            _ => (t, w.or(made_winner)),
        },
        (Some((t, w)), None) => (t, w),
        (None, Some((Some(t), w))) => {
            let w = match t {
                Termination::Resignation | Termination::Checkmate | Termination::Timeout => {
                    w.or(Some(record.side_to_move().opponent()))
                }
                _ => w,
            };
            (t, w)
        }
        (None, Some((None, _))) | (None, None) => return,
    };
    let result = match termination {
        Termination::Repetition => record.repetition_result(),
        Termination::Checkmate if !record.position().is_check() => GameResult {
            termination: Termination::NoLegalMoves,
            winner,
        },
        Termination::Resignation if word.is_none() => match record.position().end() {
            // A KI2 `まで` line after a mate: the mate ended the game.
            Some(outcome) => GameResult::from_outcome(outcome, record.side_to_move()),
            None => GameResult {
                termination,
                winner,
            },
        },
        _ => GameResult {
            termination,
            winner,
        },
    };
    record.result = Some(result);
}

/// Parses a KIF time `( 0:01/00:00:01)`: the seconds of the move.
fn read_time(time: &str) -> Option<u32> {
    let inner = time.trim().strip_prefix('(')?.strip_suffix(')')?;
    let this = inner.split('/').next()?.trim();
    let mut seconds = 0u32;
    for part in this.split(':') {
        let n: u32 = part.trim().split('.').next()?.parse().ok()?;
        seconds = seconds.checked_mul(60)?.checked_add(n)?;
    }
    Some(seconds)
}

/// Lines of the move section that carry nothing: blank, `#` remarks, `&` annotations.
pub(crate) fn is_ignored(trimmed: &str) -> bool {
    trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('&')
}

/// The record being read: made from the header and board (`preamble`) at the
/// first line of the move section, shared by KIF and KI2.
pub(crate) fn body<'r>(
    record: &'r mut Option<Record>,
    preamble: &mut Option<Preamble<'_>>,
) -> Result<&'r mut Record, ParseRecordError> {
    match record {
        Some(rec) => Ok(rec),
        None => {
            let p = preamble.take().expect("preamble until the first move");
            Ok(record.insert(p.into_record()?))
        }
    }
}

/// A `*` comment line: attached to the last move, or to the game before the
/// first move. Returns whether `trimmed` was one.
pub(crate) fn take_comment(rec: &mut Record, trimmed: &str) -> bool {
    let Some(comment) = trimmed.strip_prefix('*') else {
        return false;
    };
    match rec.moves_mut().last_mut() {
        Some(last) => last.comments.push(comment.to_owned()),
        None => rec.comments.push(comment.to_owned()),
    }
    true
}

/// Reads a KIF record.
pub(crate) fn parse(
    input: &str,
    hint: Option<Variant>,
    settings: &Settings,
) -> Result<Record, ParseRecordError> {
    let mut preamble = Some(Preamble::new(hint, settings));
    let mut record: Option<Record> = None;
    let mut word = None;
    let mut made = None;
    let mut expected_number: Option<u32> = None;
    for (line_no, line) in text::lines(input) {
        let trimmed = line.trim_matches(text::is_space);
        if trimmed.starts_with("変化") {
            break;
        }
        if trimmed.starts_with("まで") {
            made = read_made(trimmed);
            continue;
        }
        if let Some(p) = preamble.as_mut() {
            if trimmed.starts_with("手数") && trimmed.contains("指手") {
                continue;
            }
            if matches!(p.line(line_no, line)?, Line::Taken) {
                continue;
            }
        }
        if is_ignored(trimmed) {
            continue;
        }
        let rec = body(&mut record, &mut preamble)?;
        if take_comment(rec, trimmed) {
            continue;
        }
        let digits = trimmed
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(trimmed.len());
        if digits == 0 {
            return Err(text::error_at(
                line_no,
                line,
                trimmed,
                "expected a numbered move like '1 ７六歩(77)'",
            ));
        }
        let number: u32 = trimmed[..digits]
            .parse()
            .map_err(|_| text::error_at(line_no, line, trimmed, "move number too large"))?;
        if let Some(expected) = expected_number.filter(|&e| e != number) {
            return Err(text::error_at(
                line_no,
                line,
                trimmed,
                format!("expected move number {expected}, found {number}"),
            ));
        }
        expected_number = Some(number.saturating_add(1));
        let body = trimmed[digits..].trim_matches(text::is_space);
        let body = body
            .strip_suffix('+')
            .unwrap_or(body)
            .trim_end_matches(text::is_space);
        // The time is the last parenthesis holding a ':'.
        let (move_text, time) = match body.rfind('(') {
            Some(open) if body[open..].contains(':') => (
                body[..open].trim_matches(text::is_space),
                Some(&body[open..]),
            ),
            _ => (body, None),
        };
        let seconds = match time {
            Some(t) => Some(read_time(t).ok_or_else(|| {
                text::error_at(
                    line_no,
                    line,
                    t,
                    "bad time (expected like ( 0:01/00:00:01))",
                )
            })?),
            None => None,
        };
        if rec.result.is_some() || word.is_some() {
            return Err(text::error_at(
                line_no,
                line,
                move_text,
                "a move after the end of the game",
            ));
        }
        if let Some(w) = end_word(move_text, rec.side_to_move()) {
            word = Some(w);
            continue;
        }
        let AnyPosition::Shogi(pos) = rec.position() else {
            unreachable!("KIF records are shogi-family")
        };
        let previous = rec.moves().last().map(|m| m.mv());
        let previous = match previous {
            Some(AnyMove::Shogi(m)) => Some(m.to()),
            _ => None,
        };
        let mv = japanese::parse_move(pos, move_text, previous)
            .map_err(|e| text::error_at(line_no, line, move_text, e.to_string()))?;
        let pushed = rec
            .push(AnyMove::Shogi(mv))
            .map_err(|e| text::error_at(line_no, line, move_text, e.to_string()))?;
        pushed.seconds = seconds;
    }
    let mut record = match record {
        Some(r) => r,
        None => preamble
            .take()
            .expect("no record, so the preamble is there")
            .into_record()?,
    };
    settle(&mut record, word, made);
    Ok(record)
}

/// The `手合割` and BOD lines for the record's start, and whether the players
/// are 下手/上手 (a handicap game).
pub(crate) fn write_start(record: &Record, out: &mut String) -> bool {
    let AnyPosition::Shogi(start) = record.start() else {
        unreachable!("KIF is written for the shogi family only")
    };
    let variant = record.variant();
    let sfen = start.to_sfen();
    let same = |other: &str| sfen.split(' ').take(3).eq(other.split(' ').take(3));
    let handicap = HANDICAPS.iter().find(|(h, _)| same(h.sfen()));
    if let (Variant::Shogi, Some((handicap, name))) = (variant, handicap) {
        out.push_str(&format!("手合割：{name}\n"));
        return *handicap != Handicap::Even;
    }
    match variant {
        Variant::Minishogi => out.push_str("手合割：5五将棋\n"),
        Variant::Annan => out.push_str("手合割：安南将棋\n"),
        _ => {}
    }
    let usual = shogi::Position::startpos(variant, &Settings::default()).to_sfen();
    if variant == Variant::Shogi || !same(&usual) {
        out.push_str(&bod(start));
    }
    false
}

/// A BOD board diagram with the hands and, if Gote moves, `後手番`.
pub(crate) fn bod(pos: &shogi::Position) -> String {
    let size: u8 = if pos.variant() == Variant::Minishogi {
        5
    } else {
        9
    };
    let hand = |color: Color| {
        let items: Vec<String> = pos
            .hand(color)
            .iter()
            .map(|(role, n)| {
                let count = if n > 1 {
                    text::kanji_count(n)
                } else {
                    String::new()
                };
                format!("{}{count}", japanese::board_name(role))
            })
            .collect();
        if items.is_empty() {
            "なし".to_owned()
        } else {
            items.join("\u{3000}")
        }
    };
    let mut out = format!("後手の持駒：{}\n", hand(Color::Gote));
    out.push(' ');
    for file in (1..=size).rev() {
        out.push(' ');
        out.push(text::FULL_WIDTH_DIGITS[usize::from(file - 1)]);
    }
    out.push('\n');
    let border = format!("+{}+\n", "-".repeat(usize::from(size) * 3));
    out.push_str(&border);
    for rank in 1..=size {
        out.push('|');
        for file in (1..=size).rev() {
            let sq = Square::new(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                Some(p) => {
                    out.push(if p.color == Color::Gote { 'v' } else { ' ' });
                    out.push(japanese::board_name(p.role));
                }
                None => out.push_str(" ・"),
            }
        }
        out.push('|');
        out.push(text::KANJI_DIGITS[usize::from(rank - 1)]);
        out.push('\n');
    }
    out.push_str(&border);
    out.push_str(&format!("先手の持駒：{}\n", hand(Color::Sente)));
    if pos.turn() == Color::Gote {
        out.push_str("後手番\n");
    }
    out
}

/// The header lines, with 下手/上手 for the players of a handicap game.
pub(crate) fn write_headers(record: &Record, handicap: bool, out: &mut String) {
    let h = &record.headers;
    let (first, second) = if handicap {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    for (key, value) in [
        ("開始日時", &h.start_time),
        ("終了日時", &h.end_time),
        ("棋戦", &h.event),
        ("場所", &h.site),
        ("持ち時間", &h.time_control),
        ("戦型", &h.opening),
        (first, &h.first),
        (second, &h.second),
    ] {
        if let Some(v) = value {
            out.push_str(&format!("{key}：{}\n", one_line(v)));
        }
    }
    for (key, value) in &h.other {
        out.push_str(&format!("{}：{}\n", header_key(key), one_line(value)));
    }
}

/// A header key as KIF can read it back: no spaces or colons inside, and not
/// starting like a comment, board, move or turn line.
fn header_key(key: &str) -> String {
    let key: String = key
        .chars()
        .map(|c| {
            if text::is_space(c) || matches!(c, ':' | '：' | '\r' | '\n') {
                '_'
            } else {
                c
            }
        })
        .collect();
    let risky = key.is_empty()
        || key.starts_with(|c: char| c.is_ascii_digit() || "*#&|+▲△☗☖▽".contains(c))
        || key.starts_with(text::FULL_WIDTH_DIGITS)
        || [
            "まで",
            "手数",
            "変化",
            "先手番",
            "後手番",
            "上手番",
            "下手番",
        ]
        .iter()
        .any(|p| key.starts_with(p));
    if risky { format!("_{key}") } else { key }
}

/// The end word for a move line, and the `まで` line.
pub(crate) fn end_lines(record: &Record, handicap: bool) -> Option<(&'static str, String)> {
    let result = record.result?;
    let to_move = record.side_to_move();
    let n = record.moves().len();
    let name = |side: Side| match (side, handicap) {
        (Side::First, false) => "先手",
        (Side::Second, false) => "後手",
        (Side::First, true) => "下手",
        (Side::Second, true) => "上手",
    };
    let word = match result.termination {
        Termination::Resignation => "投了",
        Termination::Checkmate | Termination::NoLegalMoves => "詰み",
        Termination::Repetition | Termination::PerpetualCheck | Termination::PerpetualChase => {
            "千日手"
        }
        Termination::Impasse | Termination::MoveLimit => "持将棋",
        Termination::Declaration => "入玉勝ち",
        Termination::Timeout => "切れ負け",
        Termination::IllegalMove if result.winner == Some(to_move) => "反則勝ち",
        Termination::IllegalMove => "反則負け",
        Termination::Agreement | Termination::InsufficientMaterial => "引き分け",
        Termination::Abort => "中断",
    };
    let made = match (result.termination, result.winner) {
        (Termination::Abort, _) => format!("まで{n}手で中断"),
        (
            Termination::Repetition | Termination::PerpetualCheck | Termination::PerpetualChase,
            _,
        ) => {
            format!("まで{n}手で千日手")
        }
        (Termination::Impasse | Termination::MoveLimit, None) => format!("まで{n}手で持将棋"),
        (Termination::Impasse | Termination::MoveLimit, Some(w)) => {
            format!("まで{n}手で持将棋により{}の勝ち", name(w))
        }
        (Termination::Declaration, Some(w)) => format!("まで{n}手で{}の入玉勝ち", name(w)),
        (Termination::IllegalMove, Some(w)) => format!("まで{n}手で{}の反則勝ち", name(w)),
        (Termination::Timeout, Some(w)) => format!("まで{n}手で時間切れにより{}の勝ち", name(w)),
        (_, Some(w)) => format!("まで{n}手で{}の勝ち", name(w)),
        (_, None) => format!("まで{n}手で引き分け"),
    };
    Some((word, made))
}

/// Writes a KIF record (UTF-8).
pub(crate) fn write(record: &Record) -> String {
    let mut start = String::new();
    let handicap = write_start(record, &mut start);
    let mut out = String::from("#KIF version=2.0 encoding=UTF-8\n");
    write_headers(record, handicap, &mut out);
    out.push_str(&start);
    out.push_str("手数----指手---------消費時間--\n");
    for comment in &record.comments {
        out.push_str(&format!("*{}\n", one_line(comment)));
    }
    let mut totals = [0u32; 2];
    let mut previous = None;
    for (i, (before, m)) in record.plies().enumerate() {
        let (AnyPosition::Shogi(pos), AnyMove::Shogi(mv)) = (before, m.mv()) else {
            continue;
        };
        let text = japanese::kif_text(&pos, mv, previous);
        previous = Some(mv.to());
        let mut line = format!("{:>4} {}", i + 1, text);
        if let Some(s) = m.seconds {
            let total = &mut totals[pos.turn().index()];
            *total = total.saturating_add(s);
            // Align the times: ASCII takes one column, the rest two.
            let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
            let pad = 14usize.saturating_sub(width).max(1);
            line.push_str(&" ".repeat(pad));
            line.push_str(&format!(
                "({:>2}:{:02}/{:02}:{:02}:{:02})",
                s / 60,
                s % 60,
                *total / 3600,
                *total / 60 % 60,
                *total % 60
            ));
        }
        out.push_str(&line);
        out.push('\n');
        for comment in &m.comments {
            out.push_str(&format!("*{}\n", one_line(comment)));
        }
    }
    if let Some((word, made)) = end_lines(record, handicap) {
        out.push_str(&format!("{:>4} {}\n", record.moves().len() + 1, word));
        out.push_str(&made);
        out.push('\n');
    }
    out
}

/// Text made safe for one line.
pub(crate) fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "\
# ---- Kifu for Windows 棋譜ファイル ----
開始日時：2024/01/02 10:00:00
棋戦：テスト杯
手合割：平手
先手：山田
後手：田中
場所：東京
手数----指手---------消費時間--
*対局前のコメント
   1 ７六歩(77)   ( 0:12/00:00:12)
*角道を開ける
   2 ３四歩(33)   ( 0:03/00:00:03)
   3 ２二角成(88) ( 0:05/00:00:17)
   4 同　銀(31)   ( 1:00/00:01:03)
   5 ４五角打     ( 0:02/00:00:19)
   6 投了         ( 0:30/00:01:33)
まで5手で先手の勝ち
";

    #[test]
    fn reads_a_kakinoki_game() {
        let r = parse(GAME, None, &Settings::default()).unwrap();
        assert_eq!(r.moves_text(), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert_eq!(r.headers.first.as_deref(), Some("山田"));
        assert_eq!(r.headers.event.as_deref(), Some("テスト杯"));
        assert_eq!(r.headers.site.as_deref(), Some("東京"));
        assert_eq!(r.comments, ["対局前のコメント"]);
        assert_eq!(r.moves()[0].comments, ["角道を開ける"]);
        assert_eq!(r.moves()[3].seconds, Some(60));
        assert_eq!(
            r.result,
            Some(GameResult {
                termination: Termination::Resignation,
                winner: Some(Side::First)
            })
        );
        let written = write(&r);
        assert_eq!(parse(&written, None, &Settings::default()).unwrap(), r);
        assert!(written.contains("   4 同　銀(31)"), "{written}");
    }

    #[test]
    fn handicap_board_and_sennichite() {
        let text = "手合割：香落ち\n下手：A\n上手：B\n1 １二香(11)\n";
        assert!(
            parse(text, None, &Settings::default()).is_err(),
            "the lance on 1a is missing"
        );
        let text = "手合割：香落ち\n下手：A\n上手：B\n1 ５二玉(51)\n2 ７六歩(77)\n3 中断\n";
        let r = parse(text, None, &Settings::default()).unwrap();
        assert_eq!(r.start().to_string(), Handicap::Lance.sfen());
        assert_eq!(r.headers.first.as_deref(), Some("A"));
        assert_eq!(r.result.map(|x| x.termination), Some(Termination::Abort));
        let written = write(&r);
        assert!(written.contains("手合割：香落ち\n"));
        assert!(written.contains("上手：B\n"));
        assert_eq!(parse(&written, None, &Settings::default()).unwrap(), r);
        // Four times the same position: sennichite, a draw.
        let mut text = String::from("手合割：平手\n");
        let cycle = ["４八飛(28)", "６二飛(82)", "２八飛(48)", "８二飛(62)"];
        for i in 0..12 {
            text.push_str(&format!("{} {}\n", i + 1, cycle[i % 4]));
        }
        text.push_str("13 千日手\nまで12手で千日手\n");
        let r = parse(&text, None, &Settings::default()).unwrap();
        assert_eq!(
            r.result,
            Some(GameResult {
                termination: Termination::Repetition,
                winner: None
            })
        );
    }

    #[test]
    fn bod_start_and_declaration() {
        let text = "後手の持駒：飛二　角　金四　銀四　桂四　香四　歩十七\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n\
+---------------------------+\n先手の持駒：角　歩\n手数----指手---------消費時間--\n1 ２三歩打\n2 入玉勝ち\n";
        let r = parse(text, None, &Settings::default()).unwrap();
        assert_eq!(
            r.start().to_string(),
            "8k/9/9/9/9/9/9/9/4K4 b BP2rb4g4s4n4l17p 1"
        );
        assert_eq!(
            r.result,
            Some(GameResult {
                termination: Termination::Declaration,
                winner: Some(Side::Second)
            })
        );
        let written = write(&r);
        assert!(written.contains("後手の持駒：飛二\u{3000}角"), "{written}");
        assert_eq!(parse(&written, None, &Settings::default()).unwrap(), r);
    }

    #[test]
    fn lenient_reading_and_variations() {
        // ASCII digits, a side mark, spaces, 王 for 玉, no header, no times;
        // the variation after the main line is skipped.
        let text = "1 ▲76歩(77)\n2 ３四歩 (33)\n3 ５八王(59)   \n4 投了\nまで3手で先手の勝ち\n\n\
変化：3手\n3 ６八玉(59)\n";
        let r = parse(text, None, &Settings::default()).unwrap();
        assert_eq!(r.moves_text(), ["7g7f", "3c3d", "5i5h"]);
        assert_eq!(
            r.result,
            Some(GameResult {
                termination: Termination::Resignation,
                winner: Some(Side::First)
            })
        );
    }

    #[test]
    fn odd_header_keys_still_read_back() {
        let mut r = parse("手合割：平手\n1 ７六歩(77)\n", None, &Settings::default()).unwrap();
        r.headers.other = vec![
            ("a key".into(), "v1".into()),
            ("1st".into(), "v2".into()),
            ("".into(), "v3".into()),
            ("まで".into(), "v4".into()),
        ];
        let back = parse(&write(&r), None, &Settings::default()).unwrap();
        assert_eq!(back.moves_text(), ["7g7f"]);
        let keys: Vec<&str> = back.headers.other.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["a_key", "_1st", "_", "_まで"]);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse(
            "手合割：平手\n1 ７六歩(77)\n2 ７六歩(77)\n",
            None,
            &Settings::default(),
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (3, 3));
        let e = parse("手合割：百枚落ち\n", None, &Settings::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 5));
        let e = parse("1 ７六歩(77)\n3 ３四歩(33)\n", None, &Settings::default()).unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse("1 ７六歩(77) (0:xx/0:00:00)\n", None, &Settings::default()).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(parse("|v香|一\n", None, &Settings::default()).is_err());
    }
}
