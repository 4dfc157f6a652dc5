//! Interoperability the other way round from `cshogi_interop.rs`: cshogi (the
//! Python shogi library many tools use) reads every KIF and CSA record Koma
//! writes for a few hundred random games, with every handicap, and must get
//! the same start, moves and players.
//!
//! The records are read by `scripts/records/cshogi_read.py`, run once with
//! the interpreter named by `KOMA_CSHOGI_PYTHON`, or else `python3`, whichever
//! can import cshogi. With neither, the test is skipped, unless
//! `KOMA_CSHOGI_REQUIRED` is set (as in CI) and makes that a failure.

mod common;

use common::Rng;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

use notation::{Format, GameResult, Headers, Record, Termination};
use rules::shogi::Move;
use rules::{AnyMove, AnyPosition, Handicap, Settings, Variant};

const GAMES: usize = 300;
const INSTALL: &str = "install it with `python3 -m venv /tmp/cshogi-venv && \
     /tmp/cshogi-venv/bin/pip install cshogi` and set KOMA_CSHOGI_PYTHON=/tmp/cshogi-venv/bin/python";

const NAMES: [&str; 4] = ["羽生 善治", "Sente Player", "藤井聡太", "kifu_bot"];
const COMMENTS: [&str; 3] = ["角道を開ける", "a plain comment", "☆好手！ (+300)"];

/// A random game from `handicap`'s start: now and then a recapture on the
/// previous move's square, a capture, promotion or drop, so that long games
/// have many of each (and promoted pieces recapture).
fn random_record(handicap: Handicap, rng: &mut Rng) -> Record {
    let settings = Settings {
        handicap,
        ..Settings::default()
    };
    let mut record = Record::new(AnyPosition::new(Variant::Shogi, None, &settings).unwrap());
    record.headers = Headers {
        first: Some(rng.pick(&NAMES).into()),
        second: Some(rng.pick(&NAMES).into()),
        start_time: Some(format!(
            "2026/{:02}/{:02} 10:00:00",
            1 + rng.below(12),
            1 + rng.below(28)
        )),
        ..Headers::default()
    };
    let plies = 40 + rng.below(160);
    let mut previous = None;
    for _ in 0..plies {
        let AnyPosition::Shogi(pos) = record.position() else {
            unreachable!("a shogi record")
        };
        let moves = record.position().legal_moves();
        if moves.is_empty() || record.position().end().is_some() {
            break;
        }
        let shogi = |m: &AnyMove| match *m {
            AnyMove::Shogi(m) => m,
            AnyMove::Xiangqi(_) => unreachable!("a shogi position"),
        };
        let recaptures: Vec<AnyMove> = moves
            .iter()
            .copied()
            .filter(|m| Some(shogi(m).to()) == previous)
            .collect();
        let lively: Vec<AnyMove> = moves
            .iter()
            .copied()
            .filter(|m| match shogi(m) {
                Move::Normal { to, promote, .. } => promote || pos.piece_at(to).is_some(),
                Move::Drop { .. } => true,
            })
            .collect();
        let mv = match rng.below(4) {
            0 | 1 if !recaptures.is_empty() => rng.pick(&recaptures),
            2 if !lively.is_empty() => rng.pick(&lively),
            _ => rng.pick(&moves),
        };
        previous = Some(shogi(&mv).to());
        let seconds = (rng.below(2) == 0).then(|| rng.below(300) as u32);
        let comment = (rng.below(10) == 0).then(|| rng.pick(&COMMENTS));
        let pushed = record.push(mv).unwrap();
        pushed.seconds = seconds;
        pushed.comments.extend(comment.map(String::from));
    }
    let to_move = record.side_to_move();
    record.result = Some(match record.position().end() {
        Some(outcome) => GameResult::from_outcome(outcome, to_move),
        None => GameResult {
            termination: Termination::Resignation,
            winner: Some(to_move.opponent()),
        },
    });
    record
}

/// What a record says, as the script prints it: start, moves, players.
#[derive(Debug, PartialEq)]
struct Read {
    start: String,
    moves: String,
    first: String,
    second: String,
}

impl Read {
    fn of(record: &Record) -> Read {
        let name = |n: &Option<String>| n.clone().unwrap_or_default();
        Read {
            start: board_and_turn(&record.start().to_string()),
            moves: record
                .moves()
                .iter()
                .map(|m| m.mv().to_string())
                .collect::<Vec<_>>()
                .join(" "),
            first: name(&record.headers.first),
            second: name(&record.headers.second),
        }
    }
}

/// An SFEN's board, turn and hands: the move number differs between writers.
fn board_and_turn(sfen: &str) -> String {
    sfen.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

/// Where cshogi's reading differs from what Koma wrote, shortly.
fn difference(got: &Read, want: &Read) -> String {
    if got.start != want.start {
        return format!(
            "cshogi read the start {}, Koma wrote {}",
            got.start, want.start
        );
    }
    if got.moves != want.moves {
        let (got, want): (Vec<_>, Vec<_>) = (
            got.moves.split(' ').collect(),
            want.moves.split(' ').collect(),
        );
        let ply = got.iter().zip(&want).take_while(|(a, b)| a == b).count();
        return format!(
            "cshogi read {} moves, Koma wrote {}; from ply {}: cshogi {:?}, Koma {:?}",
            got.len(),
            want.len(),
            ply + 1,
            got.get(ply),
            want.get(ply)
        );
    }
    format!(
        "cshogi read the players {:?} and {:?}, Koma wrote {:?} and {:?}",
        got.first, got.second, want.first, want.second
    )
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/records/cshogi_read.py")
}

/// The first interpreter that can import cshogi.
fn python() -> Option<String> {
    let named = env::var("KOMA_CSHOGI_PYTHON")
        .ok()
        .filter(|p| !p.is_empty());
    named
        .into_iter()
        .chain(["python3".to_owned()])
        .find(|python| {
            Command::new(python)
                .arg(script())
                .arg("--check")
                .output()
                .is_ok_and(|out| out.status.success())
        })
}

#[test]
fn cshogi_reads_every_kif_and_csa_koma_writes() {
    let Some(python) = python() else {
        let required = env::var("KOMA_CSHOGI_REQUIRED").is_ok_and(|v| !v.is_empty() && v != "0");
        assert!(
            !required,
            "KOMA_CSHOGI_REQUIRED is set but no Python can import cshogi: {INSTALL}"
        );
        // Straight to standard error: `cargo test` would hide a println.
        let _ = writeln!(
            std::io::stderr(),
            "cshogi interop test skipped: no Python can import cshogi; {INSTALL}"
        );
        return;
    };

    let dir = env::temp_dir().join(format!("koma-cshogi-reads-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x6b6f_6d61_6373);
    let handicaps = Handicap::ALL;
    let mut expected = BTreeMap::new();
    let mut kif_lines = Vec::new();
    for game in 0..GAMES {
        let record = random_record(handicaps[game % handicaps.len()], &mut rng);
        for (format, extension) in [(Format::Kif, "kif"), (Format::Csa, "csa")] {
            let name = format!("game-{game:03}.{extension}");
            let text = record.write(format).unwrap();
            if format == Format::Kif {
                kif_lines.extend(text.lines().map(String::from));
            }
            fs::write(dir.join(&name), text).unwrap();
            expected.insert(name, Read::of(&record));
        }
    }
    let output = Command::new(&python)
        .arg(script())
        .arg(&dir)
        .output()
        .unwrap();
    fs::remove_dir_all(&dir).unwrap();
    assert!(
        output.status.success(),
        "{python} {} failed: {}",
        script().display(),
        String::from_utf8_lossy(&output.stderr)
    );

    // The games have what the test is for: recaptures by two-character
    // pieces, drops and promotions, in every handicap.
    // (成香, 成桂, 成銀 after 同, with or without the space.)
    let count = |needle: &str| {
        let spaced = |l: &&String| l.replace("同　", "同").contains(needle);
        kif_lines.iter().filter(spaced).count()
    };
    for needle in ["同成", "同歩", "打", "成("] {
        assert!(
            count(needle) >= 10,
            "only {} KIF moves with {needle}",
            count(needle)
        );
    }

    let stdout = String::from_utf8(output.stdout).unwrap();
    let mut read = BTreeMap::new();
    for line in stdout.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let got = match fields[..] {
            [_, start, moves, first, second] => Ok(Read {
                start: board_and_turn(start),
                moves: moves.into(),
                first: first.into(),
                second: second.into(),
            }),
            [_, "ERROR", message] => Err(message.to_owned()),
            _ => panic!("unexpected line from the script: {line}"),
        };
        read.insert(fields[0].to_owned(), got);
    }
    let mut wrong = Vec::new();
    for (name, want) in &expected {
        match read.get(name) {
            Some(Ok(got)) if got == want => {}
            Some(Ok(got)) => wrong.push(format!("{name}: {}", difference(got, want))),
            Some(Err(message)) => wrong.push(format!("{name}: cshogi refused it: {message}")),
            None => wrong.push(format!("{name}: not read")),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} records read differently by cshogi; the first:\n{}",
        wrong.len(),
        expected.len(),
        wrong[..wrong.len().min(5)].join("\n")
    );
}
