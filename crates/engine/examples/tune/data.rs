//! The data files `generate` writes and `fit` reads: one labelled position
//! a line, `RESULT [SCORE] POSITION`.

use std::path::Path;

use rules::{Variant, shogi, xiangqi};

/// A labelled position: the result for the side to move, 0 to 1, and the
/// score of the search there (centipawns for the side to move), if known.
#[derive(Clone, Debug)]
pub(crate) struct Sample<P> {
    pub(crate) position: P,
    pub(crate) result: f64,
    pub(crate) score: Option<i32>,
}

/// Reads one line of a data file: `RESULT [SCORE] POSITION`.
fn parse_line<P>(
    line: &str,
    parse: &impl Fn(&str) -> Result<P, String>,
) -> Result<Sample<P>, String> {
    let (result, position) = line
        .trim()
        .split_once(' ')
        .ok_or("expected a result, a space and a position")?;
    let result = match result {
        "1" => 1.0,
        "0.5" => 0.5,
        "0" => 0.0,
        other => return Err(format!("bad result '{other}' (expected 1, 0.5 or 0)")),
    };
    let (score, position) = match position.trim().split_once(' ') {
        Some((score, rest)) => match score.parse::<i32>() {
            Ok(score) => (Some(score), rest),
            Err(_) => (None, position),
        },
        None => (None, position),
    };
    Ok(Sample {
        position: parse(position.trim())?,
        result,
        score,
    })
}

/// Reads a data file's text; an error names the first bad line (from 1).
/// Blank lines are skipped.
fn parse_data<P>(
    text: &str,
    parse: impl Fn(&str) -> Result<P, String>,
) -> Result<Vec<Sample<P>>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            parse_line(line, &parse).map_err(|error| format!("line {}: {error}", index + 1))
        })
        .collect()
}

/// Reads the data file `path` of `variant`.
pub(crate) fn read_data<P>(
    path: &Path,
    parse: impl Fn(&str) -> Result<P, String>,
) -> Result<Vec<Sample<P>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_data(&text, parse).map_err(|e| format!("{}: {e}", path.display()))
}

pub(crate) fn parse_shogi(variant: Variant) -> impl Fn(&str) -> Result<shogi::Position, String> {
    move |text| {
        shogi::Position::from_sfen(text, variant, Default::default()).map_err(|e| e.to_string())
    }
}

pub(crate) fn parse_xiangqi(text: &str) -> Result<xiangqi::Position, String> {
    xiangqi::Position::from_fen(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use engine::Evaluate;

    use super::*;

    #[test]
    fn data_files_are_read_and_bad_lines_named() {
        let text = "1 4k4/9/9/9/9/9/9/9/4K4 b R 1\n\n0.5 4k4/9/9/9/9/9/9/9/4K4 w - 1\n";
        let samples = parse_data(text, parse_shogi(Variant::Shogi)).unwrap();
        assert_eq!(samples.len(), 2);
        assert_eq!(samples[0].result, 1.0);
        assert!(samples[0].position.evaluate() > 900);

        let bad_result = "1 4k4/9/9/9/9/9/9/9/4K4 b R 1\n2 4k4/9/9/9/9/9/9/9/4K4 b - 1\n";
        let error = parse_data(bad_result, parse_shogi(Variant::Shogi)).unwrap_err();
        assert!(error.starts_with("line 2: bad result '2'"), "{error}");

        let bad_position = "0 4k4/9/9\n";
        let error = parse_data(bad_position, parse_shogi(Variant::Shogi)).unwrap_err();
        assert!(error.starts_with("line 1: "), "{error}");

        let error = parse_data("\n\n1\n", parse_xiangqi).unwrap_err();
        assert!(error.starts_with("line 3: expected a result"), "{error}");
    }

    #[test]
    fn search_scores_are_read_when_given() {
        let text = "1 -250 4k4/9/9/9/9/9/9/9/4K4 b R 1\n0 4k4/9/9/9/9/9/9/9/4K4 w - 1\n";
        let samples = parse_data(text, parse_shogi(Variant::Shogi)).unwrap();
        assert_eq!((samples[0].result, samples[0].score), (1.0, Some(-250)));
        assert_eq!((samples[1].result, samples[1].score), (0.0, None));
        assert!(samples[0].position.evaluate() > 900);
    }
}
