//! CSA standard records (V2.2; V2 and V3.0 files read too).
//!
//! Read: `V2.2`, `N+`/`N-` names, `$KEY:value` fields, the position as `PI`
//! (with removed pieces, `PI82HI22KA`), `P1`–`P9` rows and `P+`/`P-` piece
//! lists (`00AL` for the rest), the side to move, moves (`+7776FU`, several per
//! line with `,`), `T` times, `'` comments (`'*` after a move is the move's
//! comment), and the end (`%TORYO`, `%SENNICHITE`, `%KACHI`, `%TIME_UP` ...).
//! Reading stops at `/` (the next game of a multi-game file).
//!
//! CSA has no field for the variant: Koma writes `$VARIANT:minishogi` or
//! `$VARIANT:annan` and reads it back. Minishogi positions stand on files
//! 1–5, ranks 1–5 of the 9×9 grid.

use rules::shogi::{self, Color, Hand, Move, Piece, Role, Setup, Square};
use rules::{AnyMove, AnyPosition, Position as _, Settings, Side, Variant};

use crate::record::{GameResult, ParseRecordError, Record, Termination};
use crate::text;

/// The CSA code of a kind: `FU` … `RY`.
const fn code(role: Role) -> &'static str {
    match role {
        Role::Pawn => "FU",
        Role::Lance => "KY",
        Role::Knight => "KE",
        Role::Silver => "GI",
        Role::Gold => "KI",
        Role::Bishop => "KA",
        Role::Rook => "HI",
        Role::King => "OU",
        Role::Tokin => "TO",
        Role::PromotedLance => "NY",
        Role::PromotedKnight => "NK",
        Role::PromotedSilver => "NG",
        Role::Horse => "UM",
        Role::Dragon => "RY",
    }
}

fn role_of(code: &str) -> Option<Role> {
    Role::ALL.into_iter().find(|&r| self::code(r) == code)
}

const fn sign(color: Color) -> char {
    match color {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

fn color_of(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Sente),
        '-' => Some(Color::Gote),
        _ => None,
    }
}

/// The even start, as a setup.
fn hirate() -> Setup {
    shogi::Position::startpos(Variant::Shogi, &Settings::default()).to_setup()
}

/// The full set of each droppable kind in `variant`, for `00AL`.
fn set_count(variant: Variant, role: Role) -> u8 {
    match (variant, role) {
        (
            Variant::Minishogi,
            Role::Pawn | Role::Silver | Role::Gold | Role::Bishop | Role::Rook,
        ) => 2,
        (Variant::Minishogi, _) => 0,
        (_, Role::Pawn) => 18,
        (_, Role::Bishop | Role::Rook) => 2,
        _ => 4,
    }
}

/// The reader's state: what has been seen so far.
struct Reader<'a> {
    hint: Option<Variant>,
    settings: &'a Settings,
    variant: Option<Variant>,
    setup: Option<Setup>,
    turn: Option<Color>,
    setup_line: usize,
    record: Option<Record>,
    pending_headers: crate::Headers,
    pending_comments: Vec<String>,
    line_no: usize,
    line: &'a str,
}

impl<'a> Reader<'a> {
    fn err(&self, part: &str, message: impl Into<String>) -> ParseRecordError {
        text::error_at(self.line_no, self.line, part, message)
    }

    fn variant(&self) -> Variant {
        self.variant
            .or(self.hint.filter(|v| v.is_shogi_family()))
            .unwrap_or(Variant::Shogi)
    }

    /// The record, made from the position read so far on the first move.
    fn record(&mut self, at: &str) -> Result<&mut Record, ParseRecordError> {
        if self.record.is_none() {
            let mut setup = self.setup.clone().unwrap_or_else(hirate);
            setup.turn = self.turn.unwrap_or(setup.turn);
            let variant = self.variant();
            let pos = shogi::Position::new(setup, variant, self.settings.annan_dead_piece)
                .map_err(|e| {
                    let line = if self.setup_line > 0 {
                        self.setup_line
                    } else {
                        self.line_no
                    };
                    let column = if line == self.line_no {
                        text::column_of(self.line, at)
                    } else {
                        1
                    };
                    ParseRecordError::new(line, column, format!("illegal start position: {e}"))
                })?;
            let mut record = Record::new(AnyPosition::Shogi(pos));
            record.headers = core::mem::take(&mut self.pending_headers);
            record.comments = core::mem::take(&mut self.pending_comments);
            self.record = Some(record);
        }
        Ok(self.record.as_mut().expect("just made"))
    }

    fn setup_mut(&mut self) -> &mut Setup {
        if self.setup_line == 0 {
            self.setup_line = self.line_no;
        }
        self.setup.get_or_insert(Setup::EMPTY)
    }

    fn statement(&mut self, stmt: &'a str) -> Result<(), ParseRecordError> {
        let Some(first) = stmt.chars().next() else {
            return Ok(());
        };
        match first {
            'V' => Ok(()),
            'N' => {
                let (side, name) = (stmt.get(1..2), stmt.get(2..).unwrap_or(""));
                let name = Some(name.to_owned());
                match side {
                    Some("+") => self.pending_headers.first = name,
                    Some("-") => self.pending_headers.second = name,
                    _ => return Err(self.err(stmt, "expected N+ or N- before a name")),
                }
                Ok(())
            }
            '$' => self.field(stmt),
            'P' => self.position_line(stmt),
            '+' | '-' if stmt.len() == 1 => {
                if self.record.is_some() {
                    return Err(self.err(stmt, "the side to move is given after the moves"));
                }
                self.turn = color_of(first);
                Ok(())
            }
            '+' | '-' => self.play(stmt),
            'T' => self.time(stmt),
            '%' => self.end(stmt),
            _ => Err(self.err(stmt, format!("unknown CSA statement '{stmt}'"))),
        }
    }

    fn field(&mut self, stmt: &str) -> Result<(), ParseRecordError> {
        let (key, value) = stmt[1..]
            .split_once(':')
            .ok_or_else(|| self.err(stmt, "expected $KEY:value"))?;
        let value = value.to_owned();
        let headers = match self.record.as_mut() {
            Some(record) => &mut record.headers,
            None => &mut self.pending_headers,
        };
        match key {
            "EVENT" => headers.event = Some(value),
            "SITE" => headers.site = Some(value),
            "START_TIME" => headers.start_time = Some(value),
            "END_TIME" => headers.end_time = Some(value),
            "TIME_LIMIT" | "TIME" => headers.time_control = Some(value),
            "OPENING" => headers.opening = Some(value),
            "VARIANT" => {
                let variant = value
                    .parse::<Variant>()
                    .ok()
                    .filter(|v| v.is_shogi_family())
                    .ok_or_else(|| self.err(stmt, format!("unknown shogi variant '{value}'")))?;
                if self.record.is_some() {
                    return Err(self.err(stmt, "$VARIANT after the moves"));
                }
                self.variant = Some(variant);
            }
            _ => headers.other.push((key.to_owned(), value)),
        }
        Ok(())
    }

    fn position_line(&mut self, stmt: &str) -> Result<(), ParseRecordError> {
        if self.record.is_some() {
            return Err(self.err(stmt, "position lines after the moves"));
        }
        let body = &stmt[1..];
        if let Some(removals) = body.strip_prefix('I') {
            let mut setup = hirate();
            let bytes = removals.trim_end().as_bytes();
            if bytes.len() % 4 != 0 || !removals.is_ascii() {
                return Err(self.err(
                    removals,
                    "expected PI followed by square+piece pairs like 82HI",
                ));
            }
            for (i, chunk) in bytes.chunks(4).enumerate() {
                let part = &removals[i * 4..i * 4 + 4];
                let sq = square(&chunk[..2]).ok_or_else(|| self.err(part, "bad square"))?;
                let role = role_of(&part[2..]).ok_or_else(|| self.err(part, "bad piece code"))?;
                if setup.board[usize::from(sq.index())].map(|p| p.role) != Some(role) {
                    return Err(self.err(
                        part,
                        format!("no {} on {}{} to remove", &part[2..], sq.file(), sq.rank()),
                    ));
                }
                setup.board[usize::from(sq.index())] = None;
            }
            self.setup_line = self.line_no;
            self.setup = Some(setup);
            return Ok(());
        }
        let mut chars = body.chars();
        match chars.next() {
            Some(d @ '1'..='9') => {
                let rank = d as u8 - b'0';
                let cells: Vec<char> = chars.collect();
                let setup = self.setup_mut();
                for file_index in 0..9u8 {
                    let cell: String = (0..3)
                        .map(|k| {
                            cells
                                .get(usize::from(file_index) * 3 + k)
                                .copied()
                                .unwrap_or(' ')
                        })
                        .collect();
                    let file = 9 - file_index;
                    let sq = Square::new(file, rank).expect("files and ranks 1-9");
                    let cell = cell.trim();
                    let piece = if cell.is_empty() || cell == "*" {
                        None
                    } else {
                        let color = cell.chars().next().and_then(color_of);
                        let role = role_of(cell.get(1..).unwrap_or(""));
                        match color.zip(role) {
                            Some((color, role)) => Some(Piece { color, role }),
                            None => {
                                // The cell starts at character 2 + 3 × its index.
                                let cell_start = 2 + usize::from(file_index) * 3;
                                let offset = stmt
                                    .char_indices()
                                    .nth(cell_start)
                                    .map_or(stmt.len(), |(i, _)| i);
                                let at = &stmt[offset..];
                                return Err(self.err(
                                    at,
                                    format!("bad cell '{cell}' (expected like +FU, -KA or *)"),
                                ));
                            }
                        }
                    };
                    setup.board[usize::from(sq.index())] = piece;
                }
                if cells.len() > 27 && cells[27..].iter().any(|c| !c.is_whitespace()) {
                    return Err(self.err(stmt, "more than nine cells in a row"));
                }
                Ok(())
            }
            Some(s @ ('+' | '-')) => {
                let color = color_of(s).expect("sign");
                let list = body[1..].trim_end();
                if list.len() % 4 != 0 || !list.is_ascii() {
                    return Err(self.err(list, "expected square+piece pairs like 00KA or 63FU"));
                }
                let variant = self.variant();
                for i in (0..list.len()).step_by(4) {
                    let part = &list[i..i + 4];
                    let setup = self.setup_mut();
                    if part == "00AL" {
                        // Every piece not yet placed goes to this hand.
                        for role in Role::HAND {
                            let used = setup
                                .board
                                .iter()
                                .flatten()
                                .filter(|p| p.role.unpromoted() == role)
                                .count()
                                + setup
                                    .hands
                                    .iter()
                                    .map(|h| usize::from(h.get(role)))
                                    .sum::<usize>();
                            let rest = usize::from(set_count(variant, role)).saturating_sub(used);
                            let hand = &mut setup.hands[color.index()];
                            hand.set(role, hand.get(role).saturating_add(rest as u8));
                        }
                        continue;
                    }
                    let role = role_of(&part[2..]);
                    if &part[..2] == "00" {
                        let role = role
                            .filter(|r| r.is_droppable())
                            .ok_or_else(|| self.err(part, "bad piece in hand"))?;
                        let hand: &mut Hand = &mut self.setup_mut().hands[color.index()];
                        hand.set(role, hand.get(role).saturating_add(1));
                    } else {
                        let sq = square(&part.as_bytes()[..2])
                            .ok_or_else(|| self.err(part, "bad square"))?;
                        let role = role.ok_or_else(|| self.err(part, "bad piece code"))?;
                        self.setup_mut().board[usize::from(sq.index())] =
                            Some(Piece { color, role });
                    }
                }
                Ok(())
            }
            _ => Err(self.err(stmt, "expected PI, P1-P9, P+ or P-")),
        }
    }

    fn play(&mut self, stmt: &str) -> Result<(), ParseRecordError> {
        let (line_no, line) = (self.line_no, self.line);
        let err = |part: &str, message: String| text::error_at(line_no, line, part, message);
        let bytes = stmt.as_bytes();
        if bytes.len() != 7 || !stmt.is_ascii() {
            return Err(err(stmt, "expected a move like +7776FU".into()));
        }
        let color = if bytes[0] == b'+' {
            Color::Sente
        } else {
            Color::Gote
        };
        let to = square(&bytes[3..5]).ok_or_else(|| err(&stmt[3..], "bad to-square".into()))?;
        let role = role_of(&stmt[5..7]).ok_or_else(|| err(&stmt[5..], "bad piece code".into()))?;
        let record = self.record(stmt)?;
        if record.result.is_some() {
            return Err(err(stmt, "a move after the end of the game".into()));
        }
        let AnyPosition::Shogi(pos) = record.position() else {
            unreachable!("CSA records are shogi-family")
        };
        if pos.turn() != color {
            return Err(err(stmt, "it is the other side's move".into()));
        }
        let mv = if &bytes[1..3] == b"00" {
            Move::Drop { role, to }
        } else {
            let from =
                square(&bytes[1..3]).ok_or_else(|| err(&stmt[1..], "bad from-square".into()))?;
            let on_board = pos
                .piece_at(from)
                .ok_or_else(|| err(&stmt[1..], "no piece on the from-square".into()))?;
            let promote = on_board.role != role;
            if promote && on_board.role.promoted() != Some(role) {
                return Err(err(
                    &stmt[5..],
                    format!("the piece on the from-square is not {}", &stmt[5..]),
                ));
            }
            Move::Normal { from, to, promote }
        };
        record
            .push(AnyMove::Shogi(mv))
            .map_err(|e| err(stmt, format!("{stmt}: {e}")))?;
        Ok(())
    }

    fn time(&mut self, stmt: &str) -> Result<(), ParseRecordError> {
        let value = &stmt[1..];
        let seconds = value
            .split('.')
            .next()
            .and_then(|s| s.parse::<u32>().ok())
            .ok_or_else(|| self.err(stmt, "expected a time like T12"))?;
        // A time after the end line is the resigning player's: not kept.
        if let Some(record) = self.record.as_mut().filter(|r| r.result.is_none()) {
            if let Some(last) = record.moves_mut().last_mut() {
                last.seconds = Some(seconds);
            }
        }
        Ok(())
    }

    fn end(&mut self, stmt: &str) -> Result<(), ParseRecordError> {
        let record = self.record(stmt)?;
        if record.result.is_some() {
            return Err(self.err(stmt, "a second end of the game"));
        }
        let to_move = record.side_to_move();
        let loss = |loser: Side| Some(loser.opponent());
        let (termination, winner) = match stmt {
            "%TORYO" => (Termination::Resignation, loss(to_move)),
            "%TSUMI" => {
                if record.position().is_check() {
                    (Termination::Checkmate, loss(to_move))
                } else {
                    (Termination::NoLegalMoves, loss(to_move))
                }
            }
            "%SENNICHITE" | "%OUTE_SENNICHITE" => {
                let result = record.repetition_result();
                (result.termination, result.winner)
            }
            "%JISHOGI" => (Termination::Impasse, None),
            "%KACHI" => (Termination::Declaration, Some(to_move)),
            "%TIME_UP" => (Termination::Timeout, loss(to_move)),
            "%ILLEGAL_MOVE" | "%MATTA" => (Termination::IllegalMove, loss(to_move)),
            "%+ILLEGAL_ACTION" => (Termination::IllegalMove, loss(Side::First)),
            "%-ILLEGAL_ACTION" => (Termination::IllegalMove, loss(Side::Second)),
            "%HIKIWAKE" => (Termination::Agreement, None),
            "%CHUDAN" | "%FUZUMI" | "%ERROR" => (Termination::Abort, None),
            _ => return Err(self.err(stmt, format!("unknown end '{stmt}'"))),
        };
        let record = self.record(stmt)?;
        record.result = Some(GameResult {
            termination,
            winner,
        });
        Ok(())
    }
}

fn square(digits: &[u8]) -> Option<Square> {
    match digits {
        [f @ b'1'..=b'9', r @ b'1'..=b'9'] => Square::new(f - b'0', r - b'0'),
        _ => None,
    }
}

/// Reads a CSA record.
pub(crate) fn parse(
    input: &str,
    hint: Option<Variant>,
    settings: &Settings,
) -> Result<Record, ParseRecordError> {
    let mut reader = Reader {
        hint,
        settings,
        variant: None,
        setup: None,
        turn: None,
        setup_line: 0,
        record: None,
        pending_headers: crate::Headers::default(),
        pending_comments: Vec::new(),
        line_no: 0,
        line: "",
    };
    for (line_no, line) in text::lines(input) {
        reader.line_no = line_no;
        reader.line = line;
        if let Some(comment) = line.strip_prefix('\'') {
            match reader.record.as_mut() {
                Some(record) => {
                    let comment = comment.strip_prefix('*').unwrap_or(comment).to_owned();
                    match record.moves_mut().last_mut() {
                        Some(last) => last.comments.push(comment),
                        None => record.comments.push(comment),
                    }
                }
                None => reader.pending_comments.push(comment.to_owned()),
            }
            continue;
        }
        if line.trim() == "/" {
            break;
        }
        // Name and field lines may hold commas; other lines are statement lists.
        if line.starts_with(['N', '$']) {
            reader.statement(line.trim_end())?;
            continue;
        }
        for stmt in line.split(',') {
            reader.statement(stmt.trim())?;
        }
    }
    reader.line = "";
    reader.record("")?;
    Ok(reader.record.expect("made above"))
}

/// Writes a CSA V2.2 record.
pub(crate) fn write(record: &Record) -> String {
    let mut out = String::from("V2.2\n");
    let h = &record.headers;
    for (prefix, value) in [("N+", &h.first), ("N-", &h.second)] {
        if let Some(v) = value {
            out.push_str(&format!("{prefix}{}\n", one_line(v)));
        }
    }
    for (key, value) in [
        ("EVENT", &h.event),
        ("SITE", &h.site),
        ("START_TIME", &h.start_time),
        ("END_TIME", &h.end_time),
        ("TIME_LIMIT", &h.time_control),
        ("OPENING", &h.opening),
    ] {
        if let Some(v) = value {
            out.push_str(&format!("${key}:{}\n", one_line(v)));
        }
    }
    for (key, value) in &h.other {
        if !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        {
            out.push_str(&format!("${key}:{}\n", one_line(value)));
        } else {
            // CSA has no field for it: keep it as a comment.
            out.push_str(&format!("'{}: {}\n", one_line(key), one_line(value)));
        }
    }
    if record.variant() != Variant::Shogi {
        out.push_str(&format!("$VARIANT:{}\n", record.variant()));
    }
    for comment in &record.comments {
        out.push_str(&format!("'{}\n", one_line(comment)));
    }
    let AnyPosition::Shogi(start) = record.start() else {
        unreachable!("CSA is written for the shogi family only")
    };
    out.push_str(&position(start));
    for (before, m) in record.plies() {
        let (AnyPosition::Shogi(pos), AnyMove::Shogi(mv)) = (before, m.mv()) else {
            continue;
        };
        out.push(sign(pos.turn()));
        match mv {
            Move::Normal { from, to, promote } => {
                let role = pos.piece_at(from).map_or(Role::King, |p| p.role);
                let after = if promote {
                    role.promoted().unwrap_or(role)
                } else {
                    role
                };
                out.push_str(&format!(
                    "{}{}{}{}{}",
                    from.file(),
                    from.rank(),
                    to.file(),
                    to.rank(),
                    code(after)
                ));
            }
            Move::Drop { role, to } => {
                out.push_str(&format!("00{}{}{}", to.file(), to.rank(), code(role)));
            }
        }
        out.push('\n');
        if let Some(t) = m.seconds {
            out.push_str(&format!("T{t}\n"));
        }
        for comment in &m.comments {
            out.push_str(&format!("'*{}\n", one_line(comment)));
        }
    }
    if let Some(result) = record.result {
        out.push_str(end_code(result, record.side_to_move()));
        out.push('\n');
    }
    out
}

/// The `%` line for a result, with `to_move` to move.
fn end_code(result: GameResult, to_move: Side) -> &'static str {
    match result.termination {
        Termination::Resignation => "%TORYO",
        Termination::Checkmate | Termination::NoLegalMoves => "%TSUMI",
        Termination::Repetition | Termination::PerpetualCheck | Termination::PerpetualChase => {
            "%SENNICHITE"
        }
        Termination::Impasse => "%JISHOGI",
        Termination::Declaration => "%KACHI",
        Termination::Timeout => "%TIME_UP",
        Termination::IllegalMove => match result.winner {
            Some(w) if w == to_move.opponent() => "%ILLEGAL_MOVE",
            Some(Side::First) => "%-ILLEGAL_ACTION",
            _ => "%+ILLEGAL_ACTION",
        },
        Termination::Agreement | Termination::MoveLimit | Termination::InsufficientMaterial => {
            "%HIKIWAKE"
        }
        Termination::Abort => "%CHUDAN",
    }
}

/// `PI` (with removed pieces for a handicap) when the position is the even
/// start less some pieces, else the nine rows and the hands; then the side to move.
fn position(pos: &shogi::Position) -> String {
    let setup = pos.to_setup();
    let even = hirate();
    let mut out = String::new();
    let subset = setup.hands.iter().all(Hand::is_empty)
        && pos.variant() != Variant::Minishogi
        && setup
            .board
            .iter()
            .zip(even.board.iter())
            .all(|(now, then)| now.is_none() || now == then);
    if subset {
        out.push_str("PI");
        for sq in (1..=9).flat_map(|rank| {
            (1..=9)
                .rev()
                .filter_map(move |file| Square::new(file, rank))
        }) {
            let index = usize::from(sq.index());
            if let (None, Some(piece)) = (setup.board[index], even.board[index]) {
                out.push_str(&format!("{}{}{}", sq.file(), sq.rank(), code(piece.role)));
            }
        }
        out.push('\n');
    } else {
        for rank in 1..=9 {
            out.push_str(&format!("P{rank}"));
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).expect("on the board");
                match setup.board[usize::from(sq.index())] {
                    Some(p) => {
                        out.push(sign(p.color));
                        out.push_str(code(p.role));
                    }
                    None => out.push_str(" * "),
                }
            }
            out.push('\n');
        }
        for color in Color::ALL {
            let hand = &setup.hands[color.index()];
            if !hand.is_empty() {
                out.push('P');
                out.push(sign(color));
                for (role, n) in hand.iter() {
                    for _ in 0..n {
                        out.push_str("00");
                        out.push_str(code(role));
                    }
                }
                out.push('\n');
            }
        }
    }
    out.push(sign(pos.turn()));
    out.push('\n');
    out
}

/// Text made safe for one CSA line.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_game_with_every_feature() {
        let text = "'encoding comment\nV2.2\nN+Sente Player\nN-Gote Player\n$EVENT:Test Cup\n$START_TIME:2024/01/02 10:00:00\n$TIME_LIMIT:00:10+10\n$SITE:Tokyo\n\
                    PI\n+\n+7776FU\nT12\n'*a comment\n-3334FU,T3\n+8822UM\nT5\n-3122GI\n+0055KA\n%TORYO\nT2\n";
        let r = parse(text, None, &Settings::default()).unwrap();
        assert_eq!(r.moves_text(), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]);
        assert_eq!(r.headers.first.as_deref(), Some("Sente Player"));
        assert_eq!(r.headers.event.as_deref(), Some("Test Cup"));
        assert_eq!(r.comments, ["encoding comment"]);
        assert_eq!(r.moves()[0].seconds, Some(12));
        assert_eq!(r.moves()[0].comments, ["a comment"]);
        assert_eq!(r.moves()[1].seconds, Some(3));
        assert_eq!(
            r.result,
            Some(GameResult {
                termination: Termination::Resignation,
                winner: Some(Side::First)
            })
        );
        let again = parse(&write(&r), None, &Settings::default()).unwrap();
        assert_eq!(again, r);
    }

    #[test]
    fn reads_handicaps_rows_and_hands() {
        // Two-piece handicap: Gote (上手) moves first.
        let r = parse(
            "PI82HI22KA\n-\n-5142OU\n%KACHI\n",
            None,
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(r.start().to_string(), rules::Handicap::Two.sfen());
        assert_eq!(
            r.result,
            Some(GameResult {
                termination: Termination::Declaration,
                winner: Some(Side::First)
            })
        );
        assert!(write(&r).contains("PI82HI22KA\n-\n"));
        let rows = "P1 *  *  *  *  *  *  * -KE-OU\nP2\nP3\nP4\nP5\nP6\nP7\nP8\nP9 *  *  *  * +OU\nP+00KI00KI\nP-00AL\n+\n+0022KI\n%TSUMI\n";
        let r = parse(rows, None, &Settings::default()).unwrap();
        assert_eq!(
            r.start().to_string(),
            "7nk/9/9/9/9/9/9/9/4K4 b 2G2r2b2g4s3n4l18p 1"
        );
        assert_eq!(
            r.result.map(|x| x.termination),
            Some(Termination::Checkmate)
        );
        assert_eq!(parse(&write(&r), None, &Settings::default()).unwrap(), r);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let e = parse("PI\n+\n+7776FU\n+3334FU\n", None, &Settings::default()).unwrap_err();
        assert_eq!((e.line, e.column), (4, 1));
        let e = parse("PI\n+\n+7776FU,-3334XX\n", None, &Settings::default()).unwrap_err();
        assert_eq!((e.line, e.column), (3, 14));
        let e = parse(
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n+\n+7776FU\n",
            None,
            &Settings::default(),
        )
        .unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("illegal start position"));
        assert!(parse("PI\n+\n%NONSENSE\n", None, &Settings::default()).is_err());
        assert!(
            parse(
                "PI\n+\n+7776FU\n%TORYO\n-3334FU\n",
                None,
                &Settings::default()
            )
            .is_err()
        );
        assert!(parse("PI99KA\n+\n", None, &Settings::default()).is_err());
        let e = parse(
            "P2 *  *  *  *  *  *  *  *\u{3000}桂\n",
            None,
            &Settings::default(),
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (1, 27));
    }

    #[test]
    fn variants_are_named_in_a_field() {
        let r = Record::parse("sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d", None).unwrap();
        let text = write(&r);
        assert!(text.contains("$VARIANT:minishogi"));
        assert_eq!(parse(&text, None, &Settings::default()).unwrap(), r);
    }
}
