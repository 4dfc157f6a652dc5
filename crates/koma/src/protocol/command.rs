//! Reading one command line of USI, UCI or UCCI.
//!
//! Accepted: `usi`/`uci`/`ucci`, `isready`, `setoption name N [value V]`,
//! `usinewgame`/`ucinewgame`, `position (startpos|sfen S|fen F) [moves M...]`,
//! `go` with `btime wtime binc winc byoyomi movestogo movetime depth nodes
//! infinite ponder perft` (UCCI also `time increment opptime oppincrement`;
//! USI also `go mate <ms>|infinite`, the tsume search),
//! `stop`, `ponderhit`, `gameover`, `quit`, and, as in Stockfish, `d` (show
//! the position) and `bench [depth]` (the `koma bench` signature).

use core::fmt;
use std::time::Duration;

use engine::Limits;
use rules::Side;

use super::Dialect;

/// One command.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(super) enum Command {
    /// A blank line.
    Empty,
    /// `usi`, `uci` or `ucci`: identify and list the options.
    Hello,
    IsReady,
    SetOption {
        name: String,
        value: String,
    },
    NewGame,
    /// `start` is `None` for `startpos`, else the SFEN or FEN.
    Position {
        start: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    GameOver,
    Display,
    /// `bench [depth]`: the fixed-depth search of `koma bench`.
    Bench(u32),
    Quit,
}

/// What `go` asks for.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(super) enum Go {
    /// A search.
    Search(GoSearch),
    /// `go perft N`: count the move sequences instead.
    Perft(u32),
    /// USI `go mate <ms>|infinite`: a mate search (tsume), with its time
    /// (`None`: until `stop`).
    Mate(Option<Duration>),
}

/// A search's limits as the command gave them.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub(super) struct GoSearch {
    /// Everything but UCCI's clocks of the side to move.
    limits: Limits,
    /// UCCI `time`, `increment`: the side to move's clock.
    own: (Option<Duration>, Option<Duration>),
    /// UCCI `opptime`, `oppincrement`: the other side's clock.
    opponent: (Option<Duration>, Option<Duration>),
}

impl GoSearch {
    /// The limits, with UCCI's relative clocks given to `to_move` and its opponent.
    pub(super) fn limits(self, to_move: Side) -> Limits {
        let mut limits = self.limits;
        for (side, (time, increment)) in [(to_move, self.own), (to_move.opponent(), self.opponent)]
        {
            if time.is_some() {
                limits.time[side.index()] = time;
            }
            if let Some(increment) = increment {
                limits.increment[side.index()] = increment;
            }
        }
        limits
    }
}

/// A command that cannot be read.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(super) struct ParseCommandError {
    /// The command's first word.
    pub(super) command: String,
    /// What is wrong.
    pub(super) message: String,
}

impl fmt::Display for ParseCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.command, self.message)
    }
}

/// Reads one line of `dialect`.
pub(super) fn parse(line: &str, dialect: Dialect) -> Result<Command, ParseCommandError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(Command::Empty);
    };
    let rest: Vec<&str> = words.collect();
    let err = |message: String| ParseCommandError {
        command: first.to_owned(),
        message,
    };
    Ok(match first {
        "usi" | "uci" | "ucci" => Command::Hello,
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(&rest).map_err(err)?,
        "usinewgame" | "ucinewgame" => Command::NewGame,
        "position" => parse_position(&rest).map_err(err)?,
        "go" => Command::Go(parse_go(&rest, dialect).map_err(err)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "gameover" => Command::GameOver,
        "d" => Command::Display,
        "bench" => Command::Bench(parse_bench(&rest).map_err(err)?),
        "quit" => Command::Quit,
        _ => return Err(err("unknown command".to_owned())),
    })
}

/// `name <words> [value <words>]`: names and values may contain spaces.
fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    let ["name", rest @ ..] = words else {
        return Err("expected 'name' after 'setoption'".to_owned());
    };
    let split = rest.iter().position(|&w| w == "value");
    let (name, value) = match split {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    if name.is_empty() {
        return Err("expected an option name".to_owned());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.join(" "),
    })
}

fn parse_position(words: &[&str]) -> Result<Command, String> {
    let split = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let (start, moves) = words.split_at(split);
    let start = match start {
        ["startpos"] => None,
        ["sfen" | "fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
        _ => return Err("expected 'startpos', 'sfen <SFEN>' or 'fen <FEN>'".to_owned()),
    };
    let moves = moves.iter().skip(1).map(|&mv| mv.to_owned()).collect();
    Ok(Command::Position { start, moves })
}

fn parse_go(words: &[&str], dialect: Dialect) -> Result<Go, String> {
    let mut go = GoSearch::default();
    // USI: b is Sente (first); UCI: w is Red (first).
    let (black, white) = match dialect {
        Dialect::Usi => (Side::First, Side::Second),
        Dialect::Uci | Dialect::Ucci => (Side::Second, Side::First),
    };
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        let mut number = || next_number(&mut words, word);
        match word {
            "btime" => go.limits.time[black.index()] = Some(Duration::from_millis(number()?)),
            "wtime" => go.limits.time[white.index()] = Some(Duration::from_millis(number()?)),
            "binc" => go.limits.increment[black.index()] = Duration::from_millis(number()?),
            "winc" => go.limits.increment[white.index()] = Duration::from_millis(number()?),
            "byoyomi" => go.limits.byoyomi = Duration::from_millis(number()?),
            "movetime" => go.limits.move_time = Some(Duration::from_millis(number()?)),
            "time" => go.own.0 = Some(Duration::from_millis(number()?)),
            "increment" => go.own.1 = Some(Duration::from_millis(number()?)),
            "opptime" => go.opponent.0 = Some(Duration::from_millis(number()?)),
            "oppincrement" => go.opponent.1 = Some(Duration::from_millis(number()?)),
            "movestogo" => go.limits.moves_to_go = Some(number()?.min(u64::from(u32::MAX)) as u32),
            "depth" => go.limits.depth = Some(number()?.clamp(1, 255) as u32),
            "nodes" => go.limits.nodes = Some(number()?.max(1)),
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "perft" => return Ok(Go::Perft(number()?.min(64) as u32)),
            // UCI's `go mate N` means something else (a mate in N moves).
            "mate" if dialect == Dialect::Usi => {
                let expected = "expected a time in milliseconds or 'infinite' after 'mate'";
                return match words.next() {
                    Some(&"infinite") => Ok(Go::Mate(None)),
                    Some(text) => text
                        .parse::<u64>()
                        .map(|ms| Go::Mate(Some(Duration::from_millis(ms))))
                        .map_err(|_| format!("{expected}, got '{text}'")),
                    None => Err(expected.to_owned()),
                };
            }
            _ => return Err(format!("unknown 'go' parameter '{word}'")),
        }
    }
    Ok(Go::Search(go))
}

/// `bench [depth]`, depth 1 to 64 (default [`engine::bench::DEFAULT_DEPTH`]).
fn parse_bench(words: &[&str]) -> Result<u32, String> {
    match words {
        [] => Ok(engine::bench::DEFAULT_DEPTH),
        [depth] => depth
            .parse::<u32>()
            .ok()
            .filter(|depth| (1..=64).contains(depth))
            .ok_or_else(|| format!("expected a depth from 1 to 64, got '{depth}'")),
        [_, extra, ..] => Err(format!("unexpected '{extra}' after the depth")),
    }
}

/// The number after `word`. Some GUIs send negative times when a clock runs
/// out: those count as zero.
fn next_number<'a>(
    words: &mut impl Iterator<Item = &'a &'a str>,
    word: &str,
) -> Result<u64, String> {
    let text = words
        .next()
        .ok_or_else(|| format!("expected a number after '{word}'"))?;
    text.parse::<i64>()
        .map(|n| n.max(0) as u64)
        .map_err(|_| format!("expected a number after '{word}', got '{text}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str, dialect: Dialect) -> Limits {
        match parse(line, dialect) {
            Ok(Command::Go(Go::Search(go))) => go.limits(Side::First),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn clocks_go_to_the_right_side() {
        let usi = go(
            "go btime 1000 wtime 2000 binc 10 winc 20 byoyomi 300",
            Dialect::Usi,
        );
        assert_eq!(
            usi.time,
            [
                Some(Duration::from_millis(1000)),
                Some(Duration::from_millis(2000))
            ]
        );
        assert_eq!(
            usi.increment,
            [Duration::from_millis(10), Duration::from_millis(20)]
        );
        assert_eq!(usi.byoyomi, Duration::from_millis(300));
        let uci = go("go wtime 1000 btime 2000 movestogo 5", Dialect::Uci);
        assert_eq!(
            uci.time,
            [
                Some(Duration::from_millis(1000)),
                Some(Duration::from_millis(2000))
            ]
        );
        assert_eq!(uci.moves_to_go, Some(5));
        let ucci = go("go time 700 increment 5 opptime 900", Dialect::Ucci);
        assert_eq!(
            ucci.time,
            [
                Some(Duration::from_millis(700)),
                Some(Duration::from_millis(900))
            ]
        );
        assert_eq!(ucci.increment[0], Duration::from_millis(5));
    }

    #[test]
    fn positions_and_options() {
        assert_eq!(
            parse(
                "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b",
                Dialect::Usi
            ),
            Ok(Command::Position {
                start: Some("4k4/9/9/9/9/9/9/9/4K4 b G 1".to_owned()),
                moves: vec!["G*5b".to_owned()],
            })
        );
        assert_eq!(
            parse("position startpos", Dialect::Uci),
            Ok(Command::Position {
                start: None,
                moves: vec![]
            })
        );
        assert_eq!(
            parse("setoption name USI_Hash value 64", Dialect::Usi),
            Ok(Command::SetOption {
                name: "USI_Hash".to_owned(),
                value: "64".to_owned()
            })
        );
        assert_eq!(
            parse("go perft 3", Dialect::Usi),
            Ok(Command::Go(Go::Perft(3)))
        );
        assert_eq!(
            parse("go mate 5000", Dialect::Usi),
            Ok(Command::Go(Go::Mate(Some(Duration::from_secs(5)))))
        );
        assert_eq!(
            parse("go mate infinite", Dialect::Usi),
            Ok(Command::Go(Go::Mate(None)))
        );
        assert_eq!(parse("  ", Dialect::Usi), Ok(Command::Empty));
    }

    #[test]
    fn errors_name_the_command() {
        for bad in [
            "go depth",
            "go depth x",
            "go sideways",
            "go mate",
            "go mate soon",
            "position",
            "position sfen",
            "setoption",
            "bench 0",
            "bench deep",
            "bench 3 4",
            "fly",
        ] {
            let err = parse(bad, Dialect::Usi).unwrap_err();
            assert_eq!(err.command, bad.split_whitespace().next().unwrap(), "{bad}");
        }
        // UCI's `go mate N` (a mate in N moves) is not the tsume search.
        assert!(parse("go mate 3", Dialect::Uci).is_err());
    }

    #[test]
    fn bench_takes_an_optional_depth() {
        assert_eq!(
            parse("bench", Dialect::Uci),
            Ok(Command::Bench(engine::bench::DEFAULT_DEPTH))
        );
        assert_eq!(parse("bench 3", Dialect::Usi), Ok(Command::Bench(3)));
    }
}
