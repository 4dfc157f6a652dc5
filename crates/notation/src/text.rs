//! Reading helpers shared by the record formats: decoding, numbered lines,
//! full-width characters and kanji numerals.

use std::borrow::Cow;

use crate::ParseRecordError;

/// Decodes a record file: UTF-8 (with or without a byte-order mark), else
/// Shift_JIS, the encoding of older KIF and KI2 files.
pub(crate) fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => {
            let (text, _, _) = encoding_rs::SHIFT_JIS.decode(bytes);
            text
        }
    }
}

/// The lines of `text` with their 1-based numbers, without line ends.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.strip_suffix('\r').unwrap_or(line)))
}

/// The 1-based column (in characters) of `part`, a subslice of `line`.
pub(crate) fn column_of(line: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    line.get(..offset.min(line.len()))
        .map_or(1, |before| before.chars().count() + 1)
}

/// An error at `part` (a subslice of `line`) on line `line_no`.
pub(crate) fn error_at(
    line_no: usize,
    line: &str,
    part: &str,
    message: impl Into<String>,
) -> ParseRecordError {
    ParseRecordError::new(line_no, column_of(line, part), message)
}

/// Folds full-width ASCII (`７`, `Ｐ`, `＋`) and the ideographic space to ASCII.
pub(crate) fn to_half_width(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

/// Whether `c` is any kind of space a record may use between tokens.
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{3000}'
}

/// The full-width digits `１`–`９`, as KIF writes files.
pub(crate) const FULL_WIDTH_DIGITS: [char; 9] =
    ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The kanji numerals `一`–`九`, as KIF writes ranks.
pub(crate) const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// A digit 1–9 in any of the forms records use: ASCII, full-width or kanji.
pub(crate) fn digit_value(c: char) -> Option<u8> {
    if let Some(d) = c.to_digit(10) {
        return (1..=9).contains(&d).then_some(d as u8);
    }
    if let Some(i) = FULL_WIDTH_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u8 + 1);
    }
    KANJI_DIGITS
        .iter()
        .position(|&d| d == c)
        .map(|i| i as u8 + 1)
}

/// A count in kanji as hands are written in KIF (`二`, `十`, `十八`), or in digits.
pub(crate) fn parse_kanji_count(text: &str) -> Option<u8> {
    if text.is_empty() {
        return Some(1);
    }
    let half = to_half_width(text);
    if let Ok(n) = half.parse::<u8>() {
        return Some(n);
    }
    let (tens, rest) = match text.split_once('十') {
        Some((before, after)) => {
            let tens = if before.is_empty() {
                1
            } else {
                single_kanji(before)?
            };
            (tens, after)
        }
        None => (0, text),
    };
    let ones = if rest.is_empty() {
        0
    } else {
        single_kanji(rest)?
    };
    let n = tens * 10 + ones;
    (n > 0).then_some(n)
}

fn single_kanji(text: &str) -> Option<u8> {
    let mut chars = text.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    KANJI_DIGITS
        .iter()
        .position(|&d| d == c)
        .map(|i| i as u8 + 1)
}

/// A count in kanji for a KIF hand: `二`, `十`, `十八`.
pub(crate) fn kanji_count(n: u8) -> String {
    if n > 99 {
        return n.to_string();
    }
    let mut out = String::new();
    if n >= 10 {
        if n >= 20 {
            out.push(KANJI_DIGITS[usize::from(n / 10 - 1)]);
        }
        out.push('十');
    }
    if n % 10 != 0 {
        out.push(KANJI_DIGITS[usize::from(n % 10 - 1)]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_counts_round_trip() {
        for n in 1..=18 {
            assert_eq!(parse_kanji_count(&kanji_count(n)), Some(n), "{n}");
        }
        assert_eq!(kanji_count(18), "十八");
        assert_eq!(kanji_count(2), "二");
        assert_eq!(kanji_count(99), "九十九");
        assert_eq!(parse_kanji_count(&kanji_count(200)), Some(200));
        assert_eq!(parse_kanji_count("１２"), Some(12));
        assert_eq!(parse_kanji_count("百"), None);
    }

    #[test]
    fn shift_jis_is_decoded() {
        // 「先手」 in Shift_JIS.
        let bytes = [0x90, 0xE6, 0x8E, 0xE8];
        assert_eq!(decode(&bytes), "先手");
        assert_eq!(decode("\u{FEFF}abc".as_bytes()), "abc");
    }

    #[test]
    fn columns_count_characters() {
        let line = "１２ab";
        assert_eq!(column_of(line, &line[6..]), 3);
    }
}
