//! Transcripts of `koma usi`, `koma uci` and `koma ucci`, run as a GUI runs them.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// A running engine process: commands in, lines out.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start(protocol: &str) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .arg(protocol)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the koma binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no line starting with {prefix:?}; got {seen:?}"),
            }
        }
    }

    /// The `bestmove` line (after its `info` lines) of `go <args>`.
    fn go(&mut self, args: &str) -> (Vec<String>, String) {
        self.send(&format!("go {args}"));
        let mut lines = self.until("bestmove");
        let best = lines.pop().unwrap();
        (lines, best)
    }

    /// Whether no line arrives within `wait`.
    fn silent_for(&self, wait: Duration) -> bool {
        self.lines.recv_timeout(wait).is_err()
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

#[test]
fn usi_handshake_lists_the_options() {
    let mut usi = Session::start("usi");
    usi.send("usi");
    let lines = usi.until("usiok");
    assert!(lines[0].starts_with("id name Koma"));
    for option in [
        "option name USI_Hash type spin",
        "option name Threads type spin",
        "option name USI_Ponder type check",
        "option name USI_Variant type combo default shogi var shogi var minishogi var annan",
        "option name Level type spin default 8 min 1 max 8",
        "option name Impasse type combo default 24-point var 24-point var 27-point var off",
        "option name AnnanDeadPiece type combo",
        "option name AnnanSetup type combo default standard var standard var traditional",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(option)),
            "missing {option}"
        );
    }
    usi.send("isready");
    assert_eq!(usi.until("readyok"), ["readyok"]);
    usi.quit();
}

#[test]
fn usi_plays_mate_in_one_resigns_when_mated_and_declares_a_win() {
    let mut usi = Session::start("usi");
    usi.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    let (infos, best) = usi.go("depth 3");
    assert_eq!(best, "bestmove G*5b");
    assert!(
        infos.last().unwrap().contains(" score mate 1 "),
        "{infos:?}"
    );
    // After G*5b Gote has no move.
    usi.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b");
    assert_eq!(usi.go("depth 3").1, "bestmove resign");
    // 27-point declaration: Sente's king in camp with ten pieces and 30 points.
    usi.send("setoption name Impasse value 27-point");
    usi.send("position sfen GGGG1SSSS/4K4/RB7/9/9/9/9/9/4k4 b RB2P 1");
    assert_eq!(usi.go("depth 2").1, "bestmove win");
    usi.quit();
}

#[test]
fn usi_go_mate_answers_checkmate() {
    let mut usi = Session::start("usi");
    // A mate in 3: three moves, after which Gote has no move.
    let sfen = "9/8k/8l/9/6R2/9/9/9/4K4 b G 1";
    usi.send(&format!("position sfen {sfen}"));
    usi.send("go mate 60000");
    let answer = usi.until("checkmate").pop().unwrap();
    let moves: Vec<&str> = answer.split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 3, "{answer}");
    usi.send(&format!("position sfen {sfen} moves {}", moves.join(" ")));
    assert_eq!(usi.go("depth 1").1, "bestmove resign");
    // No sequence of checks mates; P*1b would, but a pawn drop may not mate.
    usi.send("position sfen 7lk/7s1/9/7N1/9/9/9/9/4K4 b P 1");
    usi.send("go mate infinite");
    assert_eq!(usi.until("checkmate"), ["checkmate nomate"]);
    // Out of time before an answer, and stopped before an answer.
    usi.send("position sfen 6k2/5p3/6B2/4+R4/9/9/9/9/4K4 b BNP 1");
    usi.send("go mate 0");
    assert_eq!(usi.until("checkmate"), ["checkmate timeout"]);
    usi.send("position sfen 4k4/9/9/9/9/9/9/9/K7+R b - 1");
    usi.send("go mate infinite");
    assert!(usi.silent_for(Duration::from_millis(300)));
    usi.send("stop");
    assert_eq!(usi.until("checkmate"), ["checkmate timeout"]);
    // A command it cannot read.
    usi.send("go mate soon");
    assert!(
        usi.until("info string error")
            .pop()
            .unwrap()
            .contains("'mate'")
    );
    usi.quit();
}

#[test]
fn usi_perft_counts_every_variant() {
    let mut usi = Session::start("usi");
    // Published counts (Fairy-Stockfish and the rules crate's perft data).
    for (variant, depth, total) in [
        ("shogi", 3, 25470),
        ("minishogi", 3, 2512),
        ("annan", 3, 32008),
    ] {
        usi.send(&format!("setoption name USI_Variant value {variant}"));
        usi.send("position startpos");
        usi.send(&format!("go perft {depth}"));
        let lines = usi.until("Nodes searched");
        assert_eq!(
            lines.last().unwrap(),
            &format!("Nodes searched: {total}"),
            "{variant}"
        );
    }
    usi.quit();
}

#[test]
fn usi_stop_ends_infinite_and_ponder_waits_for_ponderhit() {
    let mut usi = Session::start("usi");
    usi.send("position startpos moves 7g7f");
    usi.send("go infinite");
    assert!(usi.silent_for(Duration::from_millis(300)) || usi.until("info").len() == 1);
    usi.send("stop");
    let lines = usi.until("bestmove");
    assert!(lines.last().unwrap().starts_with("bestmove "));
    assert_ne!(lines.last().unwrap(), "bestmove resign");

    usi.send("go ponder btime 0 wtime 0 byoyomi 300");
    // No bestmove before ponderhit, however long the search has run.
    std::thread::sleep(Duration::from_millis(500));
    usi.send("isready");
    let before = usi.until("readyok");
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "{before:?}"
    );
    usi.send("ponderhit");
    usi.until("bestmove");
    usi.quit();
}

#[test]
fn usi_node_limited_search_repeats_exactly() {
    let mut usi = Session::start("usi");
    let mut run = || {
        usi.send("usinewgame");
        usi.send("position startpos moves 2g2f 8c8d");
        let (infos, best) = usi.go("nodes 5000");
        let nodes = |l: &String| {
            l.split(" nodes ")
                .nth(1)
                .map(|r| r.split(' ').next().unwrap().to_owned())
        };
        (
            infos
                .iter()
                .map(|l| (nodes(l), l.split(" pv ").nth(1).map(str::to_owned)))
                .collect::<Vec<_>>(),
            best,
        )
    };
    let first = run();
    let second = run();
    assert_eq!(first, second);
    usi.quit();
}

#[test]
fn bad_commands_are_reported_and_the_session_goes_on() {
    let mut usi = Session::start("usi");
    for bad in [
        "go depth x",
        "position sfen nonsense",
        "position startpos moves 7g7e",
        "setoption name Level value 9",
        "fly",
    ] {
        usi.send(bad);
        let lines = usi.until("info string error");
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
    }
    usi.send("isready");
    usi.until("readyok");
    usi.quit();
}

#[test]
fn uci_and_ucci_play_xiangqi() {
    let mut uci = Session::start("uci");
    uci.send("uci");
    let lines = uci.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo default xiangqi"))
    );
    // a7a9: the chariot on i8 covers e8, and d9 would face the red general.
    uci.send("position fen 4k4/8R/R8/9/9/9/9/9/9/3K5 w - - 0 1");
    let (infos, best) = uci.go("depth 3");
    assert_eq!(best, "bestmove a7a9");
    assert!(
        infos.last().unwrap().contains(" score mate 1 "),
        "{infos:?}"
    );
    uci.send("position fen 4k4/8R/R8/9/9/9/9/9/9/3K5 w - - 0 1 moves a7a9");
    assert_eq!(uci.go("depth 2").1, "bestmove (none)");
    uci.send("position startpos");
    uci.send("go perft 3");
    assert_eq!(
        uci.until("Nodes searched").last().unwrap(),
        "Nodes searched: 79666"
    );
    uci.send("position startpos moves h2e2");
    let (_, best) = uci.go("wtime 1000 btime 1000 winc 0 binc 0");
    assert!(best.starts_with("bestmove ") && best.len() >= "bestmove a0a0".len());
    uci.quit();

    let mut ucci = Session::start("ucci");
    ucci.send("ucci");
    ucci.until("ucciok");
    ucci.send("position fen 4k4/8R/R8/9/9/9/9/9/9/3K5 w - - 0 1 moves a7a9");
    ucci.send("go depth 2");
    assert_eq!(ucci.until("nobestmove"), ["nobestmove"]);
    ucci.quit();
}

#[test]
fn bench_has_a_stable_signature() {
    let bench = || {
        let out = Command::new(env!("CARGO_BIN_EXE_koma"))
            .args(["bench", "--depth", "3"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .find(|l| l.starts_with("Nodes searched: "))
            .unwrap()
            .to_owned()
    };
    let signature = bench();
    assert_eq!(signature, bench());
    // The protocols' `bench` command is the same search.
    for protocol in ["usi", "uci", "ucci"] {
        let mut session = Session::start(protocol);
        session.send("bench 3");
        let lines = session.until("Nodes searched: ");
        assert_eq!(lines.last(), Some(&signature), "{protocol}");
        assert!(
            lines.iter().any(|l| l.starts_with("xiangqi: ")),
            "{protocol}: {lines:?}"
        );
        session.quit();
    }
}
