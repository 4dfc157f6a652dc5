//! Perft of shogi, minishogi and annan shogi against published and spec numbers
//! (`tests/data/*.perft`). Counts above `PERFT_NODE_LIMIT` (default 2,000,000)
//! are skipped.

use rules::perft::perft;
use rules::shogi::Position;
use rules::{Settings, Variant};

struct Case {
    id: String,
    sfen: String,
    settings: Settings,
    expected: Vec<(u32, u64)>,
}

fn cases(text: &str) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    let mut settings = Settings::default();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line
            .split_once(' ')
            .expect("line has a keyword and a value");
        match word {
            "id" => {
                settings = Settings::default();
                out.push(Case {
                    id: rest.to_owned(),
                    sfen: String::new(),
                    settings: Settings::default(),
                    expected: Vec::new(),
                });
            }
            "rule" => settings.apply(rest).expect("valid rule"),
            "sfen" => {
                let case = out.last_mut().expect("sfen after id");
                case.sfen = rest.to_owned();
                case.settings = settings.clone();
            }
            "perft" => {
                let (depth, nodes) = rest.split_once(' ').expect("perft DEPTH NODES");
                out.last_mut()
                    .expect("perft after id")
                    .expected
                    .push((depth.parse().expect("depth"), nodes.parse().expect("nodes")));
            }
            other => panic!("unknown keyword {other}"),
        }
    }
    out
}

fn node_limit() -> u64 {
    std::env::var("PERFT_NODE_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000_000)
}

fn run(file: &str, variant: Variant) {
    let limit = node_limit();
    for case in cases(file) {
        let pos = Position::from_sfen(&case.sfen, variant, case.settings.annan_dead_piece)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, nodes) in case.expected.iter().filter(|(_, n)| *n <= limit) {
            assert_eq!(perft(&pos, depth), nodes, "{} depth {depth}", case.id);
        }
    }
}

#[test]
fn shogi_perft() {
    run(include_str!("data/shogi.perft"), Variant::Shogi);
}

#[test]
fn minishogi_perft() {
    run(include_str!("data/minishogi.perft"), Variant::Minishogi);
}

#[test]
fn annan_perft() {
    run(include_str!("data/annan.perft"), Variant::Annan);
}
