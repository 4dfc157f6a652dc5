//! The PGN-style xiangqi record that xiangqi programs exchange (XQF→PGN
//! converters, ElephantEye, XQBase): `[Tag "value"]` lines with `[FEN ...]`
//! for a custom start and `[Format "WXF"]` or `[Format "ICCS"]`, then
//! numbered moves with `{comments}` and the result (`1-0`, `0-1`, `1/2-1/2`, `*`).
//!
//! Koma adds `[Termination "..."]` with the end's code (`checkmate`,
//! `perpetual-chase` ...) so the reason survives a round trip. Read leniently:
//! moves in WXF or ICCS whatever the tag says, variations in `( )` skipped.

use rules::xiangqi::{self, Move};
use rules::{AnyMove, AnyPosition, Side};

use crate::record::{GameResult, ParseRecordError, Record, Termination};
use crate::{text, wxf};

/// How the moves are written.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum MoveStyle {
    /// `C2.5`.
    Wxf,
    /// `H2-E2`.
    Iccs,
}

/// A token of the move text, with its line and column.
struct Token<'a> {
    line_no: usize,
    line: &'a str,
    text: &'a str,
}

/// Reads a tag line `[Key "value"]`.
fn tag(line: &str) -> Option<(&str, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.extend(chars.next());
        } else {
            value.push(c);
        }
    }
    Some((key, value))
}

/// Reads a xiangqi PGN record.
pub(crate) fn parse(input: &str) -> Result<Record, ParseRecordError> {
    let mut tags: Vec<(String, String, usize)> = Vec::new();
    let mut tokens: Vec<Token<'_>> = Vec::new();
    let mut comments: Vec<(usize, String)> = Vec::new();
    let mut in_comment: Option<String> = None;
    let mut depth = 0usize;
    for (line_no, line) in text::lines(input) {
        let trimmed = line.trim();
        if in_comment.is_none() && depth == 0 && tokens.is_empty() && trimmed.starts_with('[') {
            let (key, value) = tag(trimmed).ok_or_else(|| {
                text::error_at(line_no, line, trimmed, "expected a tag like [Red \"name\"]")
            })?;
            tags.push((key.to_owned(), value, line_no));
            continue;
        }
        let mut rest = line;
        while !rest.is_empty() {
            if let Some(comment) = in_comment.as_mut() {
                match rest.find('}') {
                    Some(end) => {
                        comment.push_str(&rest[..end]);
                        let done = in_comment.take().unwrap_or_default();
                        if depth == 0 {
                            comments.push((tokens.len(), done.trim().to_owned()));
                        }
                        rest = &rest[end + 1..];
                    }
                    None => {
                        comment.push_str(rest);
                        comment.push(' ');
                        rest = "";
                    }
                }
                continue;
            }
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            if let Some(after) = rest.strip_prefix('{') {
                in_comment = Some(String::new());
                rest = after;
                continue;
            }
            if rest.starts_with(';') {
                break;
            }
            if let Some(after) = rest.strip_prefix('(') {
                depth += 1;
                rest = after;
                continue;
            }
            if let Some(after) = rest.strip_prefix(')') {
                if depth == 0 {
                    return Err(text::error_at(line_no, line, rest, "')' without '('"));
                }
                depth -= 1;
                rest = after;
                continue;
            }
            if rest.starts_with('}') {
                return Err(text::error_at(line_no, line, rest, "'}' without '{'"));
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                .unwrap_or(rest.len());
            let token = &rest[..end];
            if depth == 0 {
                tokens.push(Token {
                    line_no,
                    line,
                    text: token,
                });
            }
            rest = &rest[end..];
        }
    }
    if in_comment.is_some() {
        let last = input.lines().count().max(1);
        return Err(ParseRecordError::new(last, 1, "unclosed '{' comment"));
    }
    let find = |key: &str| tags.iter().find(|(k, _, _)| k == key);
    let start = match find("FEN") {
        Some((_, fen, line_no)) => xiangqi::Position::from_fen(fen)
            .map_err(|e| ParseRecordError::new(*line_no, 1, format!("bad FEN: {e}")))?,
        None => xiangqi::Position::startpos(),
    };
    let mut record = Record::new(AnyPosition::Xiangqi(start));
    for (key, value, _) in &tags {
        let h = &mut record.headers;
        let v = Some(value.clone());
        match key.as_str() {
            "Red" => h.first = v,
            "Black" => h.second = v,
            "Event" => h.event = v,
            "Site" => h.site = v,
            "Date" => h.start_time = v,
            "EndDate" => h.end_time = v,
            "TimeControl" => h.time_control = v,
            "Opening" => h.opening = v,
            "FEN" | "Format" | "Result" | "Termination" | "Game" | "Variant" => {}
            _ => h.other.push((key.clone(), value.clone())),
        }
    }
    let mut comment_iter = comments.into_iter().peekable();
    let mut result_token = None;
    for (index, token) in tokens.iter().enumerate() {
        while let Some((_, c)) = comment_iter.next_if(|(at, _)| *at <= index) {
            match record.moves_mut().last_mut() {
                Some(last) => last.comments.push(c),
                None => record.comments.push(c),
            }
        }
        let t = token.text;
        if matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*") {
            result_token = Some((t, token));
            continue;
        }
        // Move numbers: `1.`, `12...`, or `1.` glued to the move (`1.C2.5`).
        let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let t = if digits > 0 && t[digits..].starts_with('.') {
            t[digits..].trim_start_matches('.')
        } else {
            t
        };
        if t.is_empty() {
            continue;
        }
        let err = |message: String| text::error_at(token.line_no, token.line, t, message);
        if let Some((r, _)) = result_token {
            return Err(err(format!("a move after the result {r}")));
        }
        let AnyPosition::Xiangqi(pos) = record.position() else {
            unreachable!("xiangqi records hold xiangqi positions")
        };
        let mv: Move = wxf::parse_move(pos, t)
            .or_else(|wxf_err| wxf::parse_iccs(pos, t).map_err(|_| wxf_err))
            .map_err(|e| err(e.to_string()))?;
        record
            .push(AnyMove::Xiangqi(mv))
            .map_err(|e| err(e.to_string()))?;
    }
    for (_, c) in comment_iter {
        match record.moves_mut().last_mut() {
            Some(last) => last.comments.push(c),
            None => record.comments.push(c),
        }
    }
    let result_text = result_token
        .map(|(r, _)| r.to_owned())
        .or_else(|| find("Result").map(|(_, v, _)| v.clone()));
    let termination = match find("Termination") {
        Some((_, code, line_no)) => Some(Termination::from_code(code).ok_or_else(|| {
            ParseRecordError::new(*line_no, 1, format!("unknown termination '{code}'"))
        })?),
        None => None,
    };
    let winner = match result_text.as_deref() {
        Some("1-0") => Some(Some(Side::First)),
        Some("0-1") => Some(Some(Side::Second)),
        Some("1/2-1/2") => Some(None),
        _ => None,
    };
    record.result = match (termination, winner) {
        (Some(Termination::Abort), _) => Some(GameResult {
            termination: Termination::Abort,
            winner: None,
        }),
        (Some(t), Some(w)) => Some(GameResult {
            termination: t,
            winner: w,
        }),
        (None, Some(w)) => Some(match record.position().end() {
            Some(outcome) => GameResult::from_outcome(outcome, record.side_to_move()),
            None => GameResult {
                termination: if w.is_some() {
                    Termination::Resignation
                } else {
                    Termination::Agreement
                },
                winner: w,
            },
        }),
        (_, None) => None,
    };
    Ok(record)
}

/// Escapes a tag value.
fn quoted(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\r', '\n'], " ")
}

/// Writes a xiangqi PGN record.
pub(crate) fn write(record: &Record, style: MoveStyle) -> String {
    let AnyPosition::Xiangqi(start) = record.start() else {
        unreachable!("the xiangqi record is written for xiangqi only")
    };
    let h = &record.headers;
    let mut out = String::from("[Game \"Chinese Chess\"]\n");
    let mut put =
        |key: &str, value: &str| out.push_str(&format!("[{key} \"{}\"]\n", quoted(value)));
    for (key, value) in [
        ("Event", &h.event),
        ("Site", &h.site),
        ("Date", &h.start_time),
        ("EndDate", &h.end_time),
        ("Red", &h.first),
        ("Black", &h.second),
        ("TimeControl", &h.time_control),
        ("Opening", &h.opening),
    ] {
        if let Some(v) = value {
            put(key, v);
        }
    }
    for (key, value) in &h.other {
        if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            put(key, value);
        }
    }
    let result = match record.result {
        Some(GameResult {
            winner: Some(Side::First),
            ..
        }) => "1-0",
        Some(GameResult {
            winner: Some(Side::Second),
            ..
        }) => "0-1",
        Some(GameResult {
            termination: Termination::Abort,
            ..
        })
        | None => "*",
        Some(GameResult { winner: None, .. }) => "1/2-1/2",
    };
    put("Result", result);
    if let Some(r) = record.result {
        put("Termination", r.termination.code());
    }
    if start.to_fen() != xiangqi::Position::startpos().to_fen() {
        put("FEN", &start.to_fen());
    }
    put(
        "Format",
        if style == MoveStyle::Wxf {
            "WXF"
        } else {
            "ICCS"
        },
    );
    out.push('\n');
    for comment in &record.comments {
        out.push_str(&format!("{{{}}}\n", comment.replace('}', ")")));
    }
    let mut number = start.fullmove_number().max(1);
    let mut line = String::new();
    for (i, (before, m)) in record.plies().enumerate() {
        let (AnyPosition::Xiangqi(pos), AnyMove::Xiangqi(mv)) = (before, m.mv()) else {
            continue;
        };
        let red = pos.turn() == xiangqi::Color::Red;
        if red {
            line.push_str(&format!("{number}. "));
        } else if i == 0 {
            line.push_str(&format!("{number}... "));
        }
        line.push_str(&match style {
            MoveStyle::Wxf => wxf::move_text(&pos, mv),
            MoveStyle::Iccs => wxf::iccs_text(mv),
        });
        line.push(' ');
        for comment in &m.comments {
            line.push_str(&format!("{{{}}} ", comment.replace('}', ")")));
        }
        if !red {
            number = number.saturating_add(1);
            if line.len() > 60 {
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
            }
        }
    }
    line.push_str(result);
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_wxf_and_iccs_games() {
        let text = "[Game \"Chinese Chess\"]\n[Event \"Club \\\"A\\\"\"]\n[Red \"Li\"]\n[Black \"Wang\"]\n[Result \"1-0\"]\n[Format \"WXF\"]\n\n\
{Central cannon}\n1. C2.5 H8+7 {the usual reply}\n2. H2+3 (2. R1+1 R9+1) R9.8 3. R1.2 1-0\n";
        let r = parse(text).unwrap();
        assert_eq!(r.moves_text(), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
        assert_eq!(r.headers.event.as_deref(), Some("Club \"A\""));
        assert_eq!(r.comments, ["Central cannon"]);
        assert_eq!(r.moves()[1].comments, ["the usual reply"]);
        assert_eq!(
            r.result,
            Some(GameResult {
                termination: Termination::Resignation,
                winner: Some(Side::First)
            })
        );
        for style in [MoveStyle::Wxf, MoveStyle::Iccs] {
            let written = write(&r, style);
            assert_eq!(parse(&written).unwrap(), r, "{written}");
        }
        assert!(write(&r, MoveStyle::Iccs).contains("1. H2-E2 H9-G7"));
        let iccs = "[Format \"ICCS\"]\n1. H2-E2 H9-G7 *\n";
        assert_eq!(parse(iccs).unwrap().moves_text(), ["h2e2", "h9g7"]);
    }

    #[test]
    fn custom_start_and_errors() {
        let text = "[FEN \"3k5/9/9/9/9/9/9/9/9/4K3R b - - 0 1\"]\n1... K4+1 2. R1+9 *\n";
        let r = parse(text).unwrap();
        assert_eq!(r.moves_text(), ["d9d8", "i0i9"]);
        assert_eq!(parse(&write(&r, MoveStyle::Wxf)).unwrap(), r);
        let e = parse("1. C2.5 K5+2\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 9));
        assert!(parse("[FEN \"x\"]\n").is_err());
        assert!(parse("1. C2.5 {open\n").is_err());
        assert!(parse("1. C2.5 1-0 H8+7\n").is_err());
        assert!(parse("[Red \"unclosed]\n").is_err());
        let e = parse("1. C2.5 } H8+7\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 9));
    }
}
