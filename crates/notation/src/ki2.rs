//! KI2 records: KIF's header and board, then the moves as players read them
//! (`▲７六歩　△３四歩　▲２二角成　△同　銀`), several to a line, with JSA
//! disambiguation words and no from-squares. The end is only the `まで` line.

use rules::shogi::Move;
use rules::{AnyMove, AnyPosition, Settings, Variant};

use crate::japanese;
use crate::kif::{self, Line, Preamble};
use crate::record::{ParseRecordError, Record};
use crate::text;

/// The marks that begin a move.
const MARKS: [char; 5] = ['▲', '△', '☗', '☖', '▽'];

/// Reads a KI2 record.
pub(crate) fn parse(
    input: &str,
    hint: Option<Variant>,
    settings: &Settings,
) -> Result<Record, ParseRecordError> {
    let mut preamble = Some(Preamble::new(hint, settings));
    let mut record: Option<Record> = None;
    let mut made = None;
    for (line_no, line) in text::lines(input) {
        let trimmed = line.trim_matches(text::is_space);
        if trimmed.starts_with("変化") {
            break;
        }
        if trimmed.starts_with("まで") {
            made = kif::read_made(trimmed);
            continue;
        }
        if let Some(p) = preamble.as_mut()
            && !trimmed.starts_with(MARKS)
            && matches!(p.line(line_no, line)?, Line::Taken)
        {
            continue;
        }
        if kif::is_ignored(trimmed) {
            continue;
        }
        let rec = kif::body(&mut record, &mut preamble)?;
        if kif::take_comment(rec, trimmed) {
            continue;
        }
        if !trimmed.starts_with(MARKS) {
            return Err(text::error_at(
                line_no,
                line,
                trimmed,
                "expected moves like ▲７六歩 △３四歩",
            ));
        }
        // Each move runs from its mark to the next mark.
        let starts: Vec<usize> = trimmed.match_indices(MARKS).map(|(i, _)| i).collect();
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(trimmed.len());
            let move_text = trimmed[start..end].trim_end_matches(text::is_space);
            if rec.result.is_some() || made.is_some() {
                return Err(text::error_at(
                    line_no,
                    line,
                    move_text,
                    "a move after the end of the game",
                ));
            }
            let AnyPosition::Shogi(pos) = rec.position() else {
                unreachable!("KI2 records are shogi-family")
            };
            let previous = match rec.moves().last().map(|m| m.mv()) {
                Some(AnyMove::Shogi(m)) => Some(m.to()),
                _ => None,
            };
            let mv: Move = japanese::parse_move(pos, move_text, previous)
                .map_err(|e| text::error_at(line_no, line, move_text, e.to_string()))?;
            rec.push(AnyMove::Shogi(mv))
                .map_err(|e| text::error_at(line_no, line, move_text, e.to_string()))?;
        }
    }
    let mut record = match record {
        Some(r) => r,
        None => preamble
            .take()
            .expect("no record, so the preamble is there")
            .into_record()?,
    };
    kif::settle(&mut record, None, made);
    Ok(record)
}

/// Moves per line, as Kifu for Windows writes them.
const PER_LINE: usize = 6;

/// Writes a KI2 record (UTF-8).
pub(crate) fn write(record: &Record) -> String {
    let mut start = String::new();
    let handicap = kif::write_start(record, &mut start);
    let mut out = String::from("#KI2 version=2.0 encoding=UTF-8\n");
    kif::write_headers(record, handicap, &mut out);
    out.push_str(&start);
    for comment in &record.comments {
        out.push_str(&format!("*{}\n", kif::one_line(comment)));
    }
    let mut previous = None;
    let mut on_line = 0;
    let mut last_width = 0;
    for (before, m) in record.plies() {
        let (AnyPosition::Shogi(pos), AnyMove::Shogi(mv)) = (before, m.mv()) else {
            continue;
        };
        let text = japanese::move_text(&pos, mv, previous);
        previous = Some(mv.to());
        if on_line > 0 {
            // Columns of 14 half-width cells: a move is at most 7 full-width characters.
            out.push_str(&" ".repeat(14usize.saturating_sub(2 * last_width).max(1)));
        }
        out.push_str(&text);
        last_width = text.chars().count();
        on_line += 1;
        if on_line == PER_LINE || !m.comments.is_empty() {
            out.push('\n');
            on_line = 0;
        }
        for comment in &m.comments {
            out.push_str(&format!("*{}\n", kif::one_line(comment)));
        }
    }
    if on_line > 0 {
        out.push('\n');
    }
    if let Some((_, made)) = kif::end_lines(record, handicap) {
        out.push_str(&made);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameResult, Termination};
    use rules::Side;

    #[test]
    fn reads_moves_several_to_a_line() {
        let text = "開始日時：2024/01/02\n手合割：平手\n先手：甲\n後手：乙\n\n\
▲７六歩    △３四歩    ▲２二角成  △同　銀    ▲４五角\n*角打ち\n△５二金右  ▲１八香\nまで7手で後手の勝ち\n";
        let r = parse(text, None, &Settings::default()).unwrap();
        assert_eq!(
            r.moves_text(),
            ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "6a5b", "1i1h"]
        );
        assert_eq!(r.moves()[4].comments, ["角打ち"]);
        assert_eq!(
            r.result,
            Some(GameResult {
                termination: Termination::Resignation,
                winner: Some(Side::Second)
            })
        );
        let written = write(&r);
        assert!(written.contains("△同　銀"), "{written}");
        assert!(written.contains("△５二金右"), "{written}");
        assert_eq!(parse(&written, None, &Settings::default()).unwrap(), r);
    }

    #[test]
    fn ambiguous_moves_are_errors_with_places() {
        let e = parse(
            "手合割：平手\n▲７六歩 △３四歩\n▲５八金\n",
            None,
            &Settings::default(),
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        assert!(e.message.contains("more than one"), "{}", e.message);
        let e = parse("▲７六歩 ▲３四歩\n", None, &Settings::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 6));
    }
}
