//! The committed Fairy-Stockfish fixtures (`tests/data/oracle/*.txt`, made by
//! `scripts/oracle/gen_fixtures.py`): one position per line with its sorted
//! legal moves.

use std::path::Path;

/// One fixture line.
pub(crate) struct Fixture {
    /// 1-based line number in the file, for messages.
    pub(crate) line: usize,
    /// SFEN or FEN.
    pub(crate) position: String,
    /// The legal moves, sorted.
    pub(crate) moves: Vec<String>,
}

/// Every fixture of a variant (`shogi`, `minishogi` or `xiangqi`).
pub(crate) fn read(variant: &str) -> Vec<Fixture> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/oracle")
        .join(format!("{variant}.txt"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let fixtures: Vec<Fixture> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let (position, moves) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("{}:{}: no tab", path.display(), i + 1));
            Fixture {
                line: i + 1,
                position: position.to_owned(),
                moves: moves.split_whitespace().map(str::to_owned).collect(),
            }
        })
        .collect();
    assert!(fixtures.len() > 100, "{}: too few fixtures", path.display());
    fixtures
}

/// The differences between two sorted move lists, as a message, or `None`.
pub(crate) fn difference(expected: &[String], actual: &[String]) -> Option<String> {
    let missing: Vec<&String> = expected.iter().filter(|m| !actual.contains(m)).collect();
    let extra: Vec<&String> = actual.iter().filter(|m| !expected.contains(m)).collect();
    let duplicates = actual.len()
        != actual
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
    if missing.is_empty() && extra.is_empty() && !duplicates {
        return None;
    }
    Some(format!(
        "missing {missing:?}, extra {extra:?}{}",
        if duplicates { ", duplicates" } else { "" }
    ))
}
