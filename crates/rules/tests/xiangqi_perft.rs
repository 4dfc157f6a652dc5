//! Xiangqi perft against published counts (`tests/data/xiangqi.perft`).
//!
//! Counts above `PERFT_NODE_LIMIT` (default 2,000,000) are skipped, so debug
//! `cargo test` stays quick; set it higher to run the deep ones. Timing lives
//! in `examples/xiangqi_perft.rs`, never in tests.

use rules::perft::perft;
use rules::xiangqi::Position;

struct Case {
    id: String,
    fen: String,
    expected: Vec<(u32, u64)>,
}

fn cases(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "id" => cases.push(Case {
                id: value.to_owned(),
                fen: String::new(),
                expected: Vec::new(),
            }),
            "fen" => cases.last_mut().expect("id first").fen = value.to_owned(),
            "perft" => {
                let (depth, nodes) = value.split_once(' ').expect("depth nodes");
                cases
                    .last_mut()
                    .expect("id first")
                    .expected
                    .push((depth.parse().unwrap(), nodes.parse().unwrap()));
            }
            other => panic!("unknown key {other}"),
        }
    }
    cases
}

fn node_limit() -> u64 {
    std::env::var("PERFT_NODE_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000_000)
}

#[test]
fn xiangqi_perft() {
    let limit = node_limit();
    let cases = cases(include_str!("data/xiangqi.perft"));
    assert_eq!(cases.len(), 33);
    for case in cases {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, nodes) in case.expected.iter().filter(|(_, n)| *n <= limit) {
            assert_eq!(perft(&pos, depth), nodes, "{} depth {depth}", case.id);
        }
    }
}
