//! The game record every format reads into and writes from: the variant and
//! start position, the moves (checked legal as they are added), headers,
//! comments, times, and how the game ended.

use core::fmt;

use rules::{AnyGame, AnyMove, AnyPosition, EndReason, Outcome, Position, Settings, Side, Variant};

use crate::{csa, ki2, kif, text, usi, xiangqi_record};

/// A record format.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Format {
    /// KIF (柿木形式): numbered moves with from-squares, times, comments.
    Kif,
    /// KI2: moves in the Japanese notation players read, with disambiguation words.
    Ki2,
    /// CSA V2.2: the computer-shogi standard.
    Csa,
    /// One line of USI-style text: `sfen <SFEN> moves ...`, `startpos moves ...`,
    /// or `fen <FEN> moves ...` for xiangqi.
    Position,
    /// The PGN-style xiangqi record with a FEN tag and WXF moves.
    XiangqiWxf,
    /// The PGN-style xiangqi record with ICCS moves (`H2-E2`).
    XiangqiIccs,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 6] = [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Position,
        Format::XiangqiWxf,
        Format::XiangqiIccs,
    ];

    /// The name used on the command line (`koma convert --to kif`).
    pub const fn name(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Position => "sfen",
            Format::XiangqiWxf => "pgn-wxf",
            Format::XiangqiIccs => "pgn-iccs",
        }
    }

    /// The format a file name extension usually means (`kif`, `kifu`, `ki2`,
    /// `ki2u`, `csa`, `sfen`, `usi`, `pgn`), in any case.
    pub fn from_extension(extension: &str) -> Option<Format> {
        Some(match extension.to_ascii_lowercase().as_str() {
            "kif" | "kifu" => Format::Kif,
            "ki2" | "ki2u" => Format::Ki2,
            "csa" => Format::Csa,
            "sfen" | "usi" | "fen" => Format::Position,
            "pgn" => Format::XiangqiWxf,
            _ => return None,
        })
    }

    /// Whether the format can hold a game of `variant`.
    pub const fn supports(self, variant: Variant) -> bool {
        match self {
            Format::Kif | Format::Ki2 | Format::Csa => variant.is_shogi_family(),
            Format::Position => true,
            Format::XiangqiWxf | Format::XiangqiIccs => !variant.is_shogi_family(),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "usi" | "fen" | "position" => Ok(Format::Position),
            "pgn" | "wxf" => Ok(Format::XiangqiWxf),
            "iccs" => Ok(Format::XiangqiIccs),
            _ => Format::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| {
                format!("unknown record format '{s}' (expected kif, ki2, csa, sfen, pgn-wxf or pgn-iccs)")
            }),
        }
    }
}

/// Text a record could not be read from: where, and why.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ParseRecordError {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl ParseRecordError {
    /// An error at `line`, `column`.
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> ParseRecordError {
        ParseRecordError {
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseRecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl core::error::Error for ParseRecordError {}

/// The game information a record's header carries. Each format writes the
/// fields it has names for; `other` keeps the rest as written.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Headers {
    /// The player who moves first from the usual start: Sente (下手 in a
    /// handicap game), or Red.
    pub first: Option<String>,
    /// Gote (上手 in a handicap game), or Black.
    pub second: Option<String>,
    /// The event or tournament (棋戦, `$EVENT`, `Event`).
    pub event: Option<String>,
    /// Where it was played (場所, `$SITE`, `Site`).
    pub site: Option<String>,
    /// When it started, as written (開始日時, `$START_TIME`, `Date`).
    pub start_time: Option<String>,
    /// When it ended, as written (終了日時, `$END_TIME`).
    pub end_time: Option<String>,
    /// The time control, as written (持ち時間, `$TIME_LIMIT`, `TimeControl`).
    pub time_control: Option<String>,
    /// The opening name (戦型, `$OPENING`, `Opening`).
    pub opening: Option<String>,
    /// Every other header, key and value as written.
    pub other: Vec<(String, String)>,
}

/// How a game ended, in the words records use.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Termination {
    /// 投了, `%TORYO`: the side to move resigned.
    Resignation,
    /// 詰み, `%TSUMI`: the side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    NoLegalMoves,
    /// 千日手, `%SENNICHITE`: a repetition draw (or, in minishogi, Sente's loss).
    Repetition,
    /// 連続王手の千日手: a repetition lost by the side that checked throughout.
    PerpetualCheck,
    /// Xiangqi: a repetition lost by the side that chased throughout.
    PerpetualChase,
    /// 持将棋, `%JISHOGI`: an impasse judged by points.
    Impasse,
    /// 入玉勝ち, `%KACHI`: the side to move declared an impasse win (27-point rule).
    Declaration,
    /// 切れ負け, `%TIME_UP`: the side to move ran out of time.
    Timeout,
    /// 反則, `%ILLEGAL_MOVE`: a player broke a rule; `winner` says who won.
    IllegalMove,
    /// `%HIKIWAKE`, PGN `1/2-1/2` by agreement: a draw the players agreed.
    Agreement,
    /// The room's move limit, or xiangqi's sixty-move rule.
    MoveLimit,
    /// Xiangqi: neither side can cross the river.
    InsufficientMaterial,
    /// 中断, `%CHUDAN`: the game stopped without a result.
    Abort,
}

impl Termination {
    /// Every termination.
    pub const ALL: [Termination; 14] = [
        Termination::Resignation,
        Termination::Checkmate,
        Termination::NoLegalMoves,
        Termination::Repetition,
        Termination::PerpetualCheck,
        Termination::PerpetualChase,
        Termination::Impasse,
        Termination::Declaration,
        Termination::Timeout,
        Termination::IllegalMove,
        Termination::Agreement,
        Termination::MoveLimit,
        Termination::InsufficientMaterial,
        Termination::Abort,
    ];

    /// A stable kebab-case name, as the xiangqi record's `Termination` tag writes it.
    pub const fn code(self) -> &'static str {
        match self {
            Termination::Resignation => "resignation",
            Termination::Checkmate => "checkmate",
            Termination::NoLegalMoves => "no-legal-moves",
            Termination::Repetition => "repetition",
            Termination::PerpetualCheck => "perpetual-check",
            Termination::PerpetualChase => "perpetual-chase",
            Termination::Impasse => "impasse",
            Termination::Declaration => "declaration",
            Termination::Timeout => "timeout",
            Termination::IllegalMove => "illegal-move",
            Termination::Agreement => "agreement",
            Termination::MoveLimit => "move-limit",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::Abort => "abort",
        }
    }

    /// The termination with [`code`](Termination::code) `code`.
    pub fn from_code(code: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.code() == code)
    }
}

/// The end of a recorded game: what happened and who won (`None`: a draw,
/// or no result for [`Termination::Abort`]).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct GameResult {
    /// What ended the game.
    pub termination: Termination,
    /// The winner, if any.
    pub winner: Option<Side>,
}

impl GameResult {
    /// The rules library's outcome, if the record says enough to make one
    /// (`None` for an aborted game or an illegal move of unknown kind).
    pub fn outcome(self) -> Option<Outcome> {
        let reason = match self.termination {
            Termination::Resignation => EndReason::Resignation,
            Termination::Checkmate => EndReason::Checkmate,
            Termination::NoLegalMoves => EndReason::NoLegalMoves,
            Termination::Repetition => EndReason::Repetition,
            Termination::PerpetualCheck => EndReason::PerpetualCheck,
            Termination::PerpetualChase => EndReason::PerpetualChase,
            Termination::Impasse | Termination::Declaration => EndReason::Impasse,
            Termination::Timeout => EndReason::Timeout,
            Termination::Agreement => EndReason::Agreement,
            Termination::MoveLimit => EndReason::MoveLimit,
            Termination::InsufficientMaterial => EndReason::InsufficientMaterial,
            Termination::IllegalMove | Termination::Abort => return None,
        };
        Some(Outcome {
            winner: self.winner,
            reason,
        })
    }

    /// The record's words for a game that ended with `outcome` with `to_move`
    /// to move.
    pub fn from_outcome(outcome: Outcome, to_move: Side) -> GameResult {
        let termination = match outcome.reason {
            EndReason::Checkmate => Termination::Checkmate,
            EndReason::NoLegalMoves => Termination::NoLegalMoves,
            EndReason::Repetition => Termination::Repetition,
            EndReason::PerpetualCheck => Termination::PerpetualCheck,
            EndReason::PerpetualChase => Termination::PerpetualChase,
            EndReason::Impasse if outcome.winner == Some(to_move) => Termination::Declaration,
            EndReason::Impasse => Termination::Impasse,
            EndReason::MoveLimit | EndReason::SixtyMoveRule => Termination::MoveLimit,
            EndReason::InsufficientMaterial => Termination::InsufficientMaterial,
            EndReason::IllegalMove(_) => Termination::IllegalMove,
            EndReason::Resignation => Termination::Resignation,
            EndReason::Timeout => Termination::Timeout,
            EndReason::Abandoned => Termination::Abort,
            _ => Termination::Agreement,
        };
        GameResult {
            termination,
            winner: outcome.winner,
        }
    }
}

/// One move of a record with what the record says about it.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RecordMove {
    mv: AnyMove,
    /// Comments after the move, one per line.
    pub comments: Vec<String>,
    /// Seconds the move took, if recorded.
    pub seconds: Option<u32>,
}

impl RecordMove {
    /// The move (legal in its position: [`Record::push`] checks).
    pub fn mv(&self) -> AnyMove {
        self.mv
    }
}

/// A move that cannot be added to a record.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum PushError {
    /// A move of the other game (xiangqi into shogi or back).
    WrongGame,
    /// The move is illegal in the record's current position.
    Illegal(rules::IllegalMove),
    /// The record already has a result.
    GameOver,
}

impl fmt::Display for PushError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushError::WrongGame => f.write_str("the move belongs to another game"),
            PushError::Illegal(reason) => write!(f, "illegal move: {reason}"),
            PushError::GameOver => f.write_str("the record already has a result"),
        }
    }
}

impl core::error::Error for PushError {}

/// A recorded game of any of the four games.
///
/// ```
/// use notation::{Format, Record};
///
/// let record = Record::parse("startpos moves 7g7f 3c3d", None).unwrap();
/// assert_eq!(record.moves().len(), 2);
/// let kif = record.write(Format::Kif).unwrap();
/// assert_eq!(Record::parse(&kif, None).unwrap(), record);
/// ```
#[derive(Clone, Debug)]
pub struct Record {
    start: AnyPosition,
    // Invariant: `current` is `start` after `moves`, each legal in turn.
    current: AnyPosition,
    moves: Vec<RecordMove>,
    /// The header fields.
    pub headers: Headers,
    /// Comments before the first move, one per line.
    pub comments: Vec<String>,
    /// How the game ended, if the record says.
    pub result: Option<GameResult>,
}

impl PartialEq for Record {
    /// Same start position, moves, headers, comments, times and result.
    fn eq(&self, other: &Record) -> bool {
        self.variant() == other.variant()
            && self.start.to_string() == other.start.to_string()
            && self.moves == other.moves
            && self.headers == other.headers
            && self.comments == other.comments
            && self.result == other.result
    }
}

impl Record {
    /// An empty record of a game from `start`.
    pub fn new(start: AnyPosition) -> Record {
        Record {
            current: start.clone(),
            start,
            moves: Vec::new(),
            headers: Headers::default(),
            comments: Vec::new(),
            result: None,
        }
    }

    /// The record of a game played with the rules library: its start, moves
    /// and, if it has ended, its outcome. Headers and comments start empty.
    pub fn from_game(game: &AnyGame) -> Record {
        let start = AnyPosition::new(game.variant(), Some(&game.start_text()), game.settings())
            .expect("a game's start position reads back from its own SFEN/FEN");
        let mut record = Record::new(start);
        for text in game.moves_text() {
            let mv = record
                .position()
                .parse_move(&text)
                .expect("a game's moves read back from their own USI/ICCS");
            record.push(mv).expect("a game's moves are legal in turn");
        }
        record.result = game
            .outcome()
            .map(|outcome| GameResult::from_outcome(outcome, record.side_to_move()));
        record
    }

    /// Which game this is.
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    /// The start position.
    pub fn start(&self) -> &AnyPosition {
        &self.start
    }

    /// The position after the last move.
    pub fn position(&self) -> &AnyPosition {
        &self.current
    }

    /// The moves, in order.
    pub fn moves(&self) -> &[RecordMove] {
        &self.moves
    }

    /// The moves, to edit their comments and times.
    pub fn moves_mut(&mut self) -> &mut [RecordMove] {
        &mut self.moves
    }

    /// The moves in engine notation (USI or ICCS).
    pub fn moves_text(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.mv.to_string()).collect()
    }

    /// Adds `mv`, which must be legal in the current position.
    ///
    /// # Errors
    /// The move is of another game, or illegal, or the record has a result.
    pub fn push(&mut self, mv: AnyMove) -> Result<&mut RecordMove, PushError> {
        if self.result.is_some() {
            return Err(PushError::GameOver);
        }
        match (&mut self.current, mv) {
            (AnyPosition::Shogi(pos), AnyMove::Shogi(m)) => {
                pos.check_move(m).map_err(PushError::Illegal)?;
                pos.play_unchecked(m);
            }
            (AnyPosition::Xiangqi(pos), AnyMove::Xiangqi(m)) => {
                pos.check_move(m).map_err(PushError::Illegal)?;
                pos.play_unchecked(m);
            }
            _ => return Err(PushError::WrongGame),
        }
        self.moves.push(RecordMove {
            mv,
            comments: Vec::new(),
            seconds: None,
        });
        Ok(self.moves.last_mut().expect("just pushed"))
    }

    /// Every position of the game with the move played from it:
    /// `(position before, move)`, in order.
    pub fn plies(&self) -> impl Iterator<Item = (AnyPosition, &RecordMove)> + '_ {
        self.moves
            .iter()
            .scan(self.start.clone(), |pos, record_move| {
                let before = pos.clone();
                match (pos, record_move.mv) {
                    (AnyPosition::Shogi(p), AnyMove::Shogi(m)) => p.play_unchecked(m),
                    (AnyPosition::Xiangqi(p), AnyMove::Xiangqi(m)) => p.play_unchecked(m),
                    _ => {}
                }
                Some((before, record_move))
            })
    }

    /// The side to move after the last move.
    pub fn side_to_move(&self) -> Side {
        self.current.side_to_move()
    }

    /// The result of a game the record says ended in repetition, as the rules
    /// judge it: perpetual check loses, minishogi's plain repetition loses for
    /// Sente, other repetitions draw.
    pub(crate) fn repetition_result(&self) -> GameResult {
        let mut game = AnyGame::from_position(self.start.clone(), Settings::default());
        for m in &self.moves {
            if game.play_text(&m.mv.to_string()).is_err() {
                break;
            }
        }
        match game.outcome() {
            Some(outcome)
                if matches!(
                    outcome.reason,
                    EndReason::Repetition | EndReason::PerpetualCheck | EndReason::PerpetualChase
                ) =>
            {
                GameResult::from_outcome(outcome, self.side_to_move())
            }
            _ => GameResult {
                termination: Termination::Repetition,
                winner: (self.variant() == Variant::Minishogi).then_some(Side::Second),
            },
        }
    }

    /// Reads a record in any format this crate knows, detecting which. Bytes
    /// that are not UTF-8 are read as Shift_JIS. `hint` names the game when the
    /// text cannot (a minishogi SFEN, a KIF without a variant header).
    ///
    /// # Errors
    /// The line, column and reason of the first problem.
    pub fn parse(
        input: impl AsRef<[u8]>,
        hint: Option<Variant>,
    ) -> Result<Record, ParseRecordError> {
        Record::parse_with(input, hint, &Settings::default())
    }

    /// [`Record::parse`] under house rules the record does not state: the
    /// annan dead-piece rule decides which moves are legal, and the annan
    /// setup is the start of a record that names only `安南将棋`.
    ///
    /// # Errors
    /// The line, column and reason of the first problem.
    pub fn parse_with(
        input: impl AsRef<[u8]>,
        hint: Option<Variant>,
        settings: &Settings,
    ) -> Result<Record, ParseRecordError> {
        let text = text::decode(input.as_ref());
        let format = detect(&text, hint)?;
        Record::read(&text, format, hint, settings)
    }

    /// Reads a record in `format`.
    ///
    /// # Errors
    /// The line, column and reason of the first problem.
    pub fn parse_as(
        text: &str,
        format: Format,
        hint: Option<Variant>,
    ) -> Result<Record, ParseRecordError> {
        Record::read(text, format, hint, &Settings::default())
    }

    fn read(
        text: &str,
        format: Format,
        hint: Option<Variant>,
        settings: &Settings,
    ) -> Result<Record, ParseRecordError> {
        match format {
            Format::Kif => kif::parse(text, hint, settings),
            Format::Ki2 => ki2::parse(text, hint, settings),
            Format::Csa => csa::parse(text, hint, settings),
            Format::Position => usi::parse(text, hint, settings),
            Format::XiangqiWxf | Format::XiangqiIccs => xiangqi_record::parse(text),
        }
    }

    /// Writes the record in `format`.
    ///
    /// # Errors
    /// The format cannot hold this game (KIF for xiangqi, say).
    pub fn write(&self, format: Format) -> Result<String, WriteError> {
        if !format.supports(self.variant()) {
            return Err(WriteError {
                format,
                variant: self.variant(),
            });
        }
        Ok(match format {
            Format::Kif => kif::write(self),
            Format::Ki2 => ki2::write(self),
            Format::Csa => csa::write(self),
            Format::Position => usi::write(self),
            Format::XiangqiWxf => xiangqi_record::write(self, xiangqi_record::MoveStyle::Wxf),
            Format::XiangqiIccs => xiangqi_record::write(self, xiangqi_record::MoveStyle::Iccs),
        })
    }
}

/// A record format that cannot hold the game.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct WriteError {
    /// The format asked for.
    pub format: Format,
    /// The record's game.
    pub variant: Variant,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} format cannot hold a {} game",
            self.format, self.variant
        )
    }
}

impl core::error::Error for WriteError {}

/// Whether `line` can only be CSA: a version, name, position, field, move
/// or end line in CSA's exact ASCII grammar.
fn is_csa_line(line: &str) -> bool {
    let b = line.as_bytes();
    let upper_key = |rest: &[u8], end: u8| {
        let n = rest
            .iter()
            .take_while(|c| c.is_ascii_uppercase() || **c == b'_')
            .count();
        n > 0 && rest.get(n) == Some(&end)
    };
    match b {
        [b'V', b'2' | b'3', ..]
        | [b'P', b'I' | b'1'..=b'9' | b'+' | b'-', ..]
        | [b'N', b'+' | b'-', ..] => true,
        [b'$', rest @ ..] => upper_key(rest, b':'),
        [b'%', rest @ ..] => {
            let rest = rest
                .strip_prefix(b"+")
                .or_else(|| rest.strip_prefix(b"-"))
                .unwrap_or(rest);
            !rest.is_empty() && rest.iter().all(|c| c.is_ascii_uppercase() || *c == b'_')
        }
        [b'+' | b'-', d @ .., x, y] if d.len() == 4 => {
            d.iter().all(u8::is_ascii_digit) && x.is_ascii_uppercase() && y.is_ascii_uppercase()
        }
        _ => false,
    }
}

/// Which format `text` is in, by its first telling lines.
fn detect(text: &str, hint: Option<Variant>) -> Result<Format, ParseRecordError> {
    let first = text.trim_start();
    let head = first.split_whitespace().next().unwrap_or("");
    if matches!(head, "startpos" | "sfen" | "fen" | "position") {
        return Ok(Format::Position);
    }
    if first.starts_with('[') || (hint == Some(Variant::Xiangqi) && !first.is_empty()) {
        return Ok(Format::XiangqiWxf);
    }
    if first.starts_with("#KIF") {
        return Ok(Format::Kif);
    }
    if first.starts_with("#KI2") {
        return Ok(Format::Ki2);
    }
    let mut japanese_moves = false;
    for (_, line) in text::lines(text) {
        let line = line.trim_start_matches(text::is_space);
        if is_csa_line(line) {
            return Ok(Format::Csa);
        }
        if line.starts_with("手数") || line.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return Ok(Format::Kif);
        }
        if line.starts_with(['▲', '△', '☗', '☖', '▽']) {
            japanese_moves = true;
        }
    }
    if japanese_moves {
        return Ok(Format::Ki2);
    }
    if text.contains('：') || text.contains("まで") {
        return Ok(Format::Kif);
    }
    Err(ParseRecordError::new(
        1,
        1,
        "not a record this program reads (KIF, KI2, CSA, SFEN/FEN with moves, or a xiangqi PGN)",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_format() {
        let cases = [
            ("#KIF version=2.0 encoding=UTF-8\n%foo：bar\n", Format::Kif),
            ("先手：a\n%後手：b\n1 ７六歩(77)\n", Format::Kif),
            ("開始日時：2024/01/01\n手数----指手--\n", Format::Kif),
            ("'comment\nV2.2\nPI\n+\n", Format::Csa),
            ("$EVENT:x\n", Format::Csa),
            ("+7776FU\n%TORYO\n", Format::Csa),
            ("先手：a\n\n▲７六歩 △３四歩\n", Format::Ki2),
            ("#KI2 version=2.0\n", Format::Ki2),
            ("  startpos moves 7g7f\n", Format::Position),
            ("[Event \"x\"]\n1. C2.5\n", Format::XiangqiWxf),
        ];
        for (text, format) in cases {
            assert_eq!(detect(text, None), Ok(format), "{text}");
        }
        assert_eq!(
            detect("1. C2.5 H8+7\n", Some(Variant::Xiangqi)),
            Ok(Format::XiangqiWxf)
        );
        assert!(detect("hello\n", None).is_err());
        assert!(Record::parse(b"", None).is_err());
    }

    #[test]
    fn records_a_played_game() {
        let mut game = AnyGame::new(Variant::Minishogi, None, &Settings::default()).unwrap();
        game.play_text("1e1d").unwrap();
        game.resign(Side::Second);
        let record = Record::from_game(&game);
        assert_eq!(record.variant(), Variant::Minishogi);
        assert_eq!(record.moves_text(), ["1e1d"]);
        assert_eq!(
            record.result,
            Some(GameResult {
                termination: Termination::Resignation,
                winner: Some(Side::First)
            })
        );
    }

    #[test]
    fn house_rules_decide_what_a_record_may_hold() {
        let line = "sfen 8k/4P4/9/9/9/9/9/9/4K4 b - 1 moves 5b5a";
        // An unsupported pawn on the last rank: only `always-allowed` lets it stay unpromoted.
        assert!(Record::parse(line, Some(Variant::Annan)).is_err());
        let settings = Settings {
            annan_dead_piece: rules::AnnanDeadPiece::AlwaysAllowed,
            annan_setup: rules::AnnanSetup::Traditional,
            ..Settings::default()
        };
        let record = Record::parse_with(line, Some(Variant::Annan), &settings).unwrap();
        assert_eq!(record.moves_text(), ["5b5a"]);
        let kif = Record::parse_with("手合割：安南将棋\n", None, &settings).unwrap();
        assert_eq!(
            kif.start().to_string(),
            "lnsgkgsnl/1r5b1/p1ppppp1p/1p5p1/9/1P5P1/P1PPPPP1P/1B5R1/LNSGKGSNL b - 1"
        );
    }

    #[test]
    fn formats_by_name_and_extension() {
        for format in Format::ALL {
            assert_eq!(format.name().parse::<Format>(), Ok(format));
        }
        assert_eq!(Format::from_extension("KIFU"), Some(Format::Kif));
        assert_eq!(Format::from_extension("ki2"), Some(Format::Ki2));
        assert_eq!(Format::from_extension("txt"), None);
        assert!(!Format::Kif.supports(Variant::Xiangqi));
        let record = Record::parse(
            "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            None,
        )
        .unwrap();
        assert_eq!(
            record.write(Format::Csa),
            Err(WriteError {
                format: Format::Csa,
                variant: Variant::Xiangqi
            })
        );
    }
}
