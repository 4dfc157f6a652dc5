//! One line of USI-style text: a start position and the moves in engine
//! notation. `startpos moves 7g7f 3c3d`, `sfen <SFEN> moves ...`,
//! `fen <FEN> moves h2e2 ...` (xiangqi, ICCS), optionally after `position`.
//!
//! The line names no game: a 5×5 SFEN is minishogi, `fen` is xiangqi, and
//! otherwise the hint decides (shogi by default; annan needs the hint).

use rules::{AnyPosition, Settings, Variant};

use crate::record::{ParseRecordError, Record};
use crate::text;

/// Reads a position line (the first non-empty line of `input`).
pub(crate) fn parse(
    input: &str,
    hint: Option<Variant>,
    settings: &Settings,
) -> Result<Record, ParseRecordError> {
    let (line_no, line) = text::lines(input)
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| ParseRecordError::new(1, 1, "empty input"))?;
    let mut tokens = line.split_ascii_whitespace().peekable();
    let err = |part: &str, msg: String| text::error_at(line_no, line, part, msg);
    if tokens.peek() == Some(&"position") {
        tokens.next();
    }
    let head = tokens
        .next()
        .ok_or_else(|| ParseRecordError::new(line_no, 1, "expected startpos, sfen or fen"))?;
    let start = match head {
        "startpos" => {
            let variant = hint.unwrap_or(Variant::Shogi);
            AnyPosition::new(variant, None, settings).map_err(|e| err(head, e.to_string()))?
        }
        "sfen" | "fen" => {
            let fields: Vec<&str> = tokens.by_ref().take_while(|t| *t != "moves").collect();
            // `take_while` consumed `moves`; put the position back together.
            let first = fields
                .first()
                .ok_or_else(|| err(head, format!("expected a position after '{head}'")))?;
            let ranks = first.matches('/').count() + 1;
            let variant = match (head, ranks) {
                ("fen", _) => Variant::Xiangqi,
                (_, 5) => Variant::Minishogi,
                _ => hint
                    .filter(|v| v.is_shogi_family())
                    .unwrap_or(Variant::Shogi),
            };
            let position = fields.join(" ");
            let start = AnyPosition::new(variant, Some(&position), settings)
                .map_err(|e| err(first, e.to_string()))?;
            return finish(start, tokens, line_no, line);
        }
        other => {
            return Err(err(
                other,
                format!("expected startpos, sfen or fen, found '{other}'"),
            ));
        }
    };
    match tokens.next() {
        None => finish(start, tokens, line_no, line),
        Some("moves") => finish(start, tokens, line_no, line),
        Some(other) => Err(err(other, format!("expected 'moves', found '{other}'"))),
    }
}

/// Plays the move tokens from `start`.
fn finish<'a>(
    start: AnyPosition,
    tokens: impl Iterator<Item = &'a str>,
    line_no: usize,
    line: &str,
) -> Result<Record, ParseRecordError> {
    let mut record = Record::new(start);
    for token in tokens {
        let mv = record
            .position()
            .parse_move(token)
            .map_err(|e| text::error_at(line_no, line, token, e.to_string()))?;
        record
            .push(mv)
            .map_err(|e| text::error_at(line_no, line, token, format!("{token}: {e}")))?;
    }
    Ok(record)
}

/// `startpos moves ...` for shogi from the usual start, else
/// `sfen <SFEN> moves ...` or `fen <FEN> moves ...`.
pub(crate) fn write(record: &Record) -> String {
    let variant = record.variant();
    let start = record.start().to_string();
    // Only shogi says `startpos`: the other games' start would read back as shogi.
    let usual = variant == Variant::Shogi
        && AnyPosition::new(variant, None, &Settings::default())
            .is_ok_and(|p| p.to_string() == start);
    let mut out = if usual {
        "startpos".to_owned()
    } else if variant == Variant::Xiangqi {
        format!("fen {start}")
    } else {
        format!("sfen {start}")
    };
    if !record.moves().is_empty() {
        out.push_str(" moves");
        for mv in record.moves() {
            out.push(' ');
            out.push_str(&mv.mv().to_string());
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_form() {
        let r = parse("startpos moves 7g7f 3c3d 8h2b+", None, &Settings::default()).unwrap();
        assert_eq!(r.moves_text(), ["7g7f", "3c3d", "8h2b+"]);
        let r = parse(
            "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d",
            None,
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(r.variant(), Variant::Minishogi);
        let r = parse(
            "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2",
            None,
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(r.variant(), Variant::Xiangqi);
        assert!(write(&r).starts_with("fen rnbakabnr/"));
        let r = parse("startpos", Some(Variant::Annan), &Settings::default()).unwrap();
        assert_eq!(r.variant(), Variant::Annan);
    }

    #[test]
    fn errors_point_at_the_move() {
        let e = parse("startpos moves 7g7f 7g7f", None, &Settings::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 21));
        let e = parse("startpos moves 7g7f zz", None, &Settings::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 21));
        let e = parse("sfen 9/9 b - 1", None, &Settings::default()).unwrap_err();
        assert_eq!(e.column, 6);
        assert!(parse("startpos junk", None, &Settings::default()).is_err());
    }
}
