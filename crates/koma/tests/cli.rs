//! The `koma` binary's rules subcommands, run as a user runs them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn koma(args: &[&str]) -> Output {
    koma_with_input(args, "")
}

fn koma_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the koma binary runs");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("the koma binary ends")
}

fn stdout_of(args: &[&str]) -> String {
    let out = koma(args);
    assert!(
        out.status.success(),
        "koma {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Runs a command that must fail with status 2, nothing on stdout and one
/// line on stderr; returns that line.
fn error_of(args: &[&str]) -> String {
    let out = koma(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "koma {args:?} should exit with 2"
    );
    assert!(out.stdout.is_empty(), "koma {args:?} printed to stdout");
    let err = String::from_utf8(out.stderr).expect("utf-8 error");
    assert_eq!(
        err.lines().count(),
        1,
        "one-line error expected, got {err:?}"
    );
    err
}

#[test]
fn perft_prints_the_total_last() {
    for (variant, depth, total) in [
        ("shogi", "3", "25470"),
        ("minishogi", "3", "2512"),
        ("annan", "3", "32008"),
        ("xiangqi", "3", "79666"),
    ] {
        let out = stdout_of(&["perft", "--variant", variant, "--depth", depth]);
        assert_eq!(out, format!("{total}\n"), "{variant}");
    }
}

#[test]
fn perft_divide_lists_each_move_then_the_total() {
    let out = stdout_of(&["perft", "--variant", "shogi", "--depth", "2", "--divide"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 31);
    assert_eq!(lines[30], "900");
    assert!(lines.contains(&"7g7f 30"), "{out}");
    let sum: u64 = lines[..30]
        .iter()
        .map(|line| line.split_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 900);
}

#[test]
fn perft_follows_position_moves_and_rules() {
    let traditional = stdout_of(&[
        "perft",
        "--variant",
        "annan",
        "--depth",
        "2",
        "--rule",
        "annan_setup=traditional",
    ]);
    assert_eq!(traditional, "784\n");
    let after = stdout_of(&[
        "perft",
        "--variant",
        "xiangqi",
        "--depth",
        "1",
        "--moves",
        "h2e2",
    ]);
    let direct = stdout_of(&[
        "perft",
        "--variant",
        "xiangqi",
        "--depth",
        "1",
        "--position",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    ]);
    assert_eq!(after, direct);
    assert_eq!(
        stdout_of(&[
            "perft",
            "--position",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "--depth",
            "1"
        ]),
        "593\n"
    );
}

#[test]
fn moves_are_sorted_one_per_line() {
    let out = stdout_of(&["moves", "--variant", "minishogi"]);
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves.len(), 14);
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert_eq!(moves, sorted);
    assert!(moves.contains(&"2e3d"), "{out}");
}

#[test]
fn handicap_positions_start_with_gote() {
    let status = stdout_of(&["status", "--position", "two"]);
    assert!(status.contains(r#""side_to_move":"second""#), "{status}");
    let same = stdout_of(&["moves", "--rule", "handicap=two"]);
    assert_eq!(stdout_of(&["moves", "--position", "two"]), same);
}

#[test]
fn status_reports_the_game_state_as_json() {
    let start: serde_json::Value =
        serde_json::from_str(&stdout_of(&["status", "--variant", "xiangqi"])).unwrap();
    assert_eq!(
        start,
        serde_json::json!({"result": null, "reason": null, "side_to_move": "first", "in_check": false})
    );
    // A gold dropped on the king's head, guarded by a pawn.
    let mate: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "status",
        "--position",
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        "--moves",
        "G*5b",
    ]))
    .unwrap();
    assert_eq!(
        mate,
        serde_json::json!({"result": "first", "reason": "checkmate", "side_to_move": "second", "in_check": true})
    );
}

#[test]
fn an_illegal_move_names_its_index_move_and_rule() {
    let err = error_of(&[
        "moves",
        "--position",
        "4k4/9/9/9/9/9/4P4/9/4K4 b P 1",
        "--moves",
        "P*5e",
    ]);
    assert!(
        err.contains("move 1") && err.contains("P*5e") && err.contains("nifu"),
        "{err}"
    );
    let err = error_of(&[
        "status",
        "--moves",
        "7g7f 3c3d 2g2f 3d3e 8h2b+ 3a2b 2f2e zz",
    ]);
    assert!(err.contains("move 8") && err.contains("zz"), "{err}");
    // The cannon on e2 cannot pass the soldier on e3.
    let err = error_of(&[
        "perft",
        "--variant",
        "xiangqi",
        "--depth",
        "1",
        "--moves",
        "h2e2 h9g7 e2e5",
    ]);
    assert!(err.contains("move 3") && err.contains("e2e5"), "{err}");
}

#[test]
fn bad_positions_and_rules_are_refused() {
    let err = error_of(&[
        "moves",
        "--position",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
    ]);
    assert!(err.contains("--position"), "{err}");
    let err = error_of(&["moves", "--rule", "impasse=25-point"]);
    assert!(err.contains("impasse") && err.contains("25-point"), "{err}");
    let err = error_of(&["moves", "--variant", "xiangqi", "--position", "two"]);
    assert!(err.contains("--position"), "{err}");
    let out = koma(&["moves", "--variant", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn illegal_move_loses_ends_the_game_instead() {
    let status = stdout_of(&[
        "status",
        "--position",
        "4k4/9/9/9/9/9/4P4/9/4K4 b P 1",
        "--moves",
        "P*5e",
        "--rule",
        "illegal_move_loses=true",
    ]);
    let status: serde_json::Value = serde_json::from_str(&status).unwrap();
    assert_eq!(status["result"], "second");
    assert_eq!(status["reason"], "illegal-move");
}

#[test]
fn help_lists_the_subcommands() {
    let out = stdout_of(&["--help"]);
    assert!(
        out.contains("serve")
            && out.contains("perft")
            && out.contains("moves")
            && out.contains("status"),
        "{out}"
    );
}

#[test]
fn convert_goes_through_every_shogi_format_and_back() {
    let line = "startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 5a4b 4e3d";
    let mut text = line.to_owned();
    for to in ["kif", "ki2", "csa", "sfen"] {
        let out = koma_with_input(&["convert", "--to", to], &text);
        assert!(
            out.status.success(),
            "{to}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        text = String::from_utf8(out.stdout).unwrap();
    }
    assert_eq!(text.trim_end(), line);
}

#[test]
fn convert_reads_a_file_and_writes_xiangqi_wxf() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    std::fs::write(
        &path,
        "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7",
    )
    .unwrap();
    let out = stdout_of(&["convert", path.to_str().unwrap(), "--to", "wxf"]);
    assert!(out.contains("C2.5 H8+7"), "{out}");
}

#[test]
fn convert_errors_name_line_and_column() {
    let out = koma_with_input(
        &["convert", "--to", "sfen"],
        "V2.2\nPI\n+\n+7776FU\n-3334FX\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("line 5, column"), "{err}");

    let err = error_of(&["convert", "/nonexistent/game.kif", "--to", "csa"]);
    assert!(err.contains("/nonexistent/game.kif"), "{err}");

    let out = koma_with_input(
        &["convert", "--to", "kif"],
        "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot hold a xiangqi game"));
}
