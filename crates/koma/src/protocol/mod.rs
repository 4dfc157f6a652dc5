//! The engine protocols: USI for the shogi family (`koma usi`), UCI and UCCI
//! for xiangqi (`koma uci`, `koma ucci`). The only code that knows their syntax.
//!
//! Commands are read line by line; the search runs on the engine's thread
//! and writes `info` and `bestmove` through the shared output as it goes,
//! so `stop`, `ponderhit` and `isready` are answered during a search. A bad
//! command gets an `info string error: ...` line and the loop goes on; only
//! an I/O error ends it (or `quit`, or the end of input).

mod command;
mod uci;
mod usi;

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};

use engine::{Engine, EngineOptions, Info, Level, SearchEvent};
use rules::{AnnanDeadPiece, AnnanSetup, AnyPosition, Impasse, Variant, perft};

use command::{Command, Go};

/// Which protocol the session speaks.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Dialect {
    /// USI: shogi, minishogi, annan.
    Usi,
    /// UCI: xiangqi (moves in ICCS, as Fairy-Stockfish speaks it).
    Uci,
    /// UCCI: xiangqi, the Chinese engine protocol.
    Ucci,
}

type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// Speaks `dialect` over `input` and `output` until `quit` or the end of input.
///
/// # Errors
/// Reading a command or writing a reply failed.
pub(crate) fn run(
    dialect: Dialect,
    input: impl BufRead,
    output: Box<dyn Write + Send>,
) -> io::Result<()> {
    let mut session = Session::new(dialect, Arc::new(Mutex::new(output)));
    for line in input.lines() {
        if !session.handle(&line?)? {
            break;
        }
    }
    session.engine.stop();
    session.engine.wait();
    Ok(())
}

struct Session {
    dialect: Dialect,
    engine: Engine,
    out: Output,
}

impl Session {
    fn new(dialect: Dialect, out: Output) -> Session {
        let variant = match dialect {
            Dialect::Usi => Variant::Shogi,
            Dialect::Uci | Dialect::Ucci => Variant::Xiangqi,
        };
        let options = EngineOptions {
            variant,
            ..EngineOptions::default()
        };
        Session {
            dialect,
            engine: Engine::new(options),
            out,
        }
    }

    fn say(&self, text: &str) -> io::Result<()> {
        write_lines(&self.out, text)
    }

    /// Handles one line; `false` once the session should end.
    fn handle(&mut self, line: &str) -> io::Result<bool> {
        let command = match command::parse(line, self.dialect) {
            Ok(command) => command,
            Err(err) => {
                self.say(&format!("info string error: {err}"))?;
                return Ok(true);
            }
        };
        match command {
            Command::Empty => {}
            Command::Hello => self.say(&match self.dialect {
                Dialect::Usi => usi::hello(),
                Dialect::Uci | Dialect::Ucci => uci::hello(self.dialect),
            })?,
            Command::IsReady => self.say("readyok")?,
            Command::SetOption { name, value } => {
                self.finish_search();
                let mut options = self.engine.options().clone();
                match apply_option(&mut options, self.dialect, &name, &value) {
                    Ok(()) => self.engine.set_options(options),
                    Err(err) => self.say(&format!("info string error: {err}"))?,
                }
            }
            Command::NewGame => {
                self.finish_search();
                self.engine.new_game();
            }
            Command::Position { start, moves } => {
                self.finish_search();
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(err) = self.engine.set_position(start.as_deref(), &moves) {
                    self.say(&format!("info string error: {err}"))?;
                }
            }
            Command::Go(Go::Perft(depth)) => {
                self.finish_search();
                self.say(&perft_text(&self.engine.position(), depth))?;
            }
            Command::Go(Go::Mate(time)) => {
                self.finish_search();
                let out = Arc::clone(&self.out);
                self.engine.go_mate(time, move |result| {
                    let _ = write_lines(&out, &usi::checkmate(&result));
                });
            }
            Command::Go(Go::Search(go)) => {
                self.finish_search();
                let limits = go.limits(self.engine.position().side_to_move());
                let (out, dialect) = (Arc::clone(&self.out), self.dialect);
                self.engine.go(limits, move |event| {
                    // A closed output ends the session on the reading side.
                    let _ = write_lines(&out, &format_event(dialect, &event));
                });
            }
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::GameOver => self.finish_search(),
            Command::Display => {
                let position = self.engine.position();
                self.say(&format!("info string {position}"))?;
            }
            Command::Bench(depth) => {
                self.finish_search();
                self.say(&engine::bench::bench(depth).to_string())?;
            }
            Command::Quit => return Ok(false),
        }
        Ok(true)
    }

    /// Stops a running search (its `bestmove` is still written) and waits for it.
    fn finish_search(&mut self) {
        if self.engine.is_searching() {
            self.engine.stop();
        }
        self.engine.wait();
    }
}

fn write_lines(out: &Output, text: &str) -> io::Result<()> {
    let mut out = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    writeln!(out, "{text}")?;
    out.flush()
}
/// An `info` line; `score` is the dialect's score text (`cp 31`, `mate 3`).
fn info_line(info: &Info, score: &str) -> String {
    let pv: String = info.pv.iter().map(|mv| format!(" {mv}")).collect();
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {} hashfull {} pv{pv}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.nps,
        info.time.as_millis(),
        info.hashfull,
    )
}

fn format_event(dialect: Dialect, event: &SearchEvent) -> String {
    match dialect {
        Dialect::Usi => usi::format(event),
        Dialect::Uci | Dialect::Ucci => uci::format(event, dialect),
    }
}

/// `go perft N`: one `move: count` line per legal move, then the total, as Stockfish prints it.
fn perft_text(position: &AnyPosition, depth: u32) -> String {
    let mut lines: Vec<(String, u64)> = match position {
        AnyPosition::Shogi(pos) => perft::divide(pos, depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), n))
            .collect(),
        AnyPosition::Xiangqi(pos) => perft::divide(pos, depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), n))
            .collect(),
    };
    lines.sort_unstable();
    let total: u64 = lines.iter().map(|(_, n)| n).sum();
    let mut text: String = lines.iter().map(|(mv, n)| format!("{mv}: {n}\n")).collect();
    text.push_str(&format!("\nNodes searched: {total}"));
    text
}

/// Applies `setoption name value` to `options`.
fn apply_option(
    options: &mut EngineOptions,
    dialect: Dialect,
    name: &str,
    value: &str,
) -> Result<(), String> {
    let is = |candidate: &str| name.eq_ignore_ascii_case(candidate);
    let number = |min: u64, max: u64| -> Result<u64, String> {
        value
            .parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                format!("option {name}: expected a number from {min} to {max}, got '{value}'")
            })
    };
    if is("USI_Hash") || is("Hash") {
        options.hash_mb = number(1, 4096)? as usize;
    } else if is("Threads") {
        options.threads = number(1, 64)? as usize;
    } else if is("USI_Ponder") || is("Ponder") {
        // Pondering is driven by `go ponder`; the option only announces it.
    } else if is("USI_Variant") || is("UCI_Variant") {
        let variant: Variant = value
            .parse()
            .map_err(|err| format!("option {name}: {err}"))?;
        let allowed = match dialect {
            Dialect::Usi => variant.is_shogi_family(),
            Dialect::Uci | Dialect::Ucci => variant == Variant::Xiangqi,
        };
        if !allowed {
            return Err(format!(
                "option {name}: {variant} is not played over this protocol"
            ));
        }
        options.variant = variant;
    } else if is("Level") {
        options.level = value
            .parse::<Level>()
            .map_err(|err| format!("option {name}: {err}"))?;
    } else if is("Impasse") {
        options.settings.impasse = value.parse::<Impasse>().map_err(|err| err.to_string())?;
    } else if is("AnnanDeadPiece") {
        options.settings.annan_dead_piece = value
            .parse::<AnnanDeadPiece>()
            .map_err(|err| err.to_string())?;
    } else if is("AnnanSetup") {
        options.settings.annan_setup =
            value.parse::<AnnanSetup>().map_err(|err| err.to_string())?;
    } else {
        return Err(format!("unknown option '{name}'"));
    }
    Ok(())
}
