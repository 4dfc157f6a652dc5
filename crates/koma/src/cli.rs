//! The command line: argument parsing, the rules subcommands (`perft`,
//! `moves`, `status`), records (`convert`) and the engine's (`usi`, `uci`,
//! `ucci`, `bench`); `serve` is in `serve.rs`.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};
use notation::{Format, ParseRecordError, Record, WriteError};
use rules::{AnyGame, AnyPosition, PlayError, SettingError, Settings, SetupError, Variant, perft};

use crate::protocol::{self, Dialect};
use crate::serve::ServeArgs;

/// Koma: Shogi, Minishogi, Annan Shogi and Xiangqi.
#[derive(Debug, Parser)]
#[command(name = "koma", version, about, long_about = None)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the game server (what `koma` alone does).
    Serve(ServeArgs),
    /// Count the legal move sequences of a given length (perft).
    ///
    /// With --divide, one `MOVE COUNT` line per legal move comes first; the last
    /// line is always the total as a bare integer.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// The number of plies to look ahead.
        #[arg(long)]
        depth: u32,
        /// Print the count below each legal move first.
        #[arg(long)]
        divide: bool,
    },
    /// List the legal moves, one per line, sorted (none once the game is over).
    Moves {
        #[command(flatten)]
        game: GameArgs,
    },
    /// Print the state of the game as one line of JSON:
    /// {"result", "reason", "side_to_move", "in_check"}.
    Status {
        #[command(flatten)]
        game: GameArgs,
    },
    /// Convert a game record to another format.
    ///
    /// Reads KIF, KI2, CSA (UTF-8 or Shift_JIS), a xiangqi PGN, or a position
    /// line (`startpos moves 7g7f ...`, `sfen <SFEN> moves ...`, `fen <FEN>
    /// moves ...`), detecting which.
    Convert {
        /// The record file; standard input when absent.
        file: Option<PathBuf>,
        /// The format to write: kif, ki2, csa, sfen (a position line; fen for
        /// xiangqi), wxf (xiangqi PGN with WXF moves) or iccs (with ICCS moves).
        #[arg(long, value_name = "FORMAT")]
        to: Format,
        /// The game, when the record cannot say (a 5×5 SFEN is minishogi; an
        /// annan position line needs `--variant annan`).
        #[arg(long)]
        variant: Option<Variant>,
        /// A house rule the record does not state (`annan_dead_piece`,
        /// `annan_setup`). Repeatable.
        #[arg(long = "rule", value_name = "KEY=VALUE")]
        rules: Vec<String>,
    },
    /// Run the engine over USI on stdin and stdout (shogi, minishogi, annan).
    Usi,
    /// Run the engine over UCI on stdin and stdout (xiangqi, ICCS moves).
    Uci,
    /// Run the engine over UCCI on stdin and stdout (xiangqi).
    Ucci,
    /// Search fixed positions of all four games on one thread; the node
    /// count is the engine's signature (it changes with any change to search
    /// or evaluation, and is the same on every machine).
    Bench {
        /// The depth of each search.
        #[arg(long, default_value_t = engine::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
}

/// Which game, from where, after which moves, under which house rules.
#[derive(Debug, clap::Args)]
struct GameArgs {
    /// The game: shogi, minishogi, annan or xiangqi.
    #[arg(long, default_value = "shogi")]
    variant: Variant,
    /// `startpos`, an SFEN (shogi family) or FEN (xiangqi), or a shogi handicap
    /// name (lance, bishop, rook, rook-lance, two, four, six, eight, ten).
    #[arg(long, value_name = "POSITION")]
    position: Option<String>,
    /// Moves to play from the position, space-separated, in USI (`7g7f`,
    /// `P*5e`, `8h2b+`) or ICCS (`h2e2`).
    #[arg(long, value_name = "MOVES", default_value = "")]
    moves: String,
    /// A house rule, as docs/rules.md names it (`impasse=27-point`,
    /// `annan_dead_piece=by-original-type`, `move_limit=200` ...). Repeatable.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
}

impl GameArgs {
    /// The game after `--moves`, or the first problem met on the way.
    fn play(&self) -> Result<AnyGame, CliError> {
        let settings = settings_from(&self.rules)?;
        let mut game = AnyGame::new(self.variant, self.position.as_deref(), &settings)
            .map_err(CliError::Setup)?;
        for (index, mv) in self.moves.split_whitespace().enumerate() {
            game.play_text(mv).map_err(|error| CliError::Move {
                index: index + 1,
                error,
            })?;
        }
        Ok(game)
    }
}

/// The settings after every `--rule KEY=VALUE`.
fn settings_from(rules: &[String]) -> Result<Settings, CliError> {
    let mut settings = Settings::default();
    for pair in rules {
        settings.apply(pair).map_err(CliError::Rule)?;
    }
    Ok(settings)
}

impl Args {
    /// The server's settings when the command is `serve` or none at all;
    /// otherwise the arguments back.
    #[allow(clippy::result_large_err, reason = "called once, in main")]
    pub(crate) fn into_serve(self) -> Result<ServeArgs, Args> {
        match self.command {
            None => Ok(ServeArgs::from_env()),
            Some(Command::Serve(args)) => Ok(args),
            Some(_) => Err(self),
        }
    }
}

/// Why a command failed; every one names its problem in one line.
#[derive(Debug)]
pub(crate) enum CliError {
    Rule(SettingError),
    Setup(SetupError),
    Move {
        index: usize,
        error: PlayError,
    },
    Input {
        name: String,
        error: io::Error,
    },
    Record {
        name: String,
        error: ParseRecordError,
    },
    Write(WriteError),
    Io(io::Error),
}

impl CliError {
    /// 2 for bad input (as clap uses for bad arguments), 1 for I/O failures.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CliError::Io(_) => 1,
            CliError::Rule(_)
            | CliError::Setup(_)
            | CliError::Move { .. }
            | CliError::Input { .. }
            | CliError::Record { .. }
            | CliError::Write(_) => 2,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Rule(err) => write!(f, "--rule: {err}"),
            CliError::Setup(err) => write!(f, "--position: {err}"),
            CliError::Move { index, error } => write!(f, "move {index} of --moves: {error}"),
            CliError::Input { name, error } => write!(f, "cannot read {name}: {error}"),
            CliError::Record { name, error } => write!(f, "{name}: {error}"),
            CliError::Write(err) => write!(f, "--to: {err}"),
            CliError::Io(err) => write!(f, "cannot write output: {err}"),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(err: io::Error) -> CliError {
        CliError::Io(err)
    }
}

/// Runs the command, writing its output to `out` only once it has succeeded.
/// `serve` is dispatched by `main` before this (see [`Args::into_serve`]);
/// given here, it prints the help.
pub(crate) fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let text = match args.command {
        None | Some(Command::Serve(_)) => Args::command().render_help().to_string(),
        Some(Command::Perft {
            game,
            depth,
            divide,
        }) => perft_text(&game.play()?.position(), depth, divide),
        Some(Command::Moves { game }) => {
            let mut moves = game.play()?.legal_moves_text();
            moves.sort_unstable();
            moves.iter().map(|mv| format!("{mv}\n")).collect()
        }
        Some(Command::Status { game }) => format!("{}\n", status_json(&game.play()?)),
        Some(Command::Convert {
            file,
            to,
            variant,
            rules,
        }) => convert(file, to, variant, &rules)?,
        Some(Command::Usi) => return speak(Dialect::Usi),
        Some(Command::Uci) => return speak(Dialect::Uci),
        Some(Command::Ucci) => return speak(Dialect::Ucci),
        Some(Command::Bench { depth }) => format!("{}\n", engine::bench::bench(depth)),
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Reads a record from `file` (or stdin) and writes it as `to`.
fn convert(
    file: Option<PathBuf>,
    to: Format,
    variant: Option<Variant>,
    rules: &[String],
) -> Result<String, CliError> {
    let settings = settings_from(rules)?;
    let (name, bytes) = match file {
        Some(path) => {
            let name = path.display().to_string();
            match std::fs::read(&path) {
                Ok(bytes) => (name, bytes),
                Err(error) => return Err(CliError::Input { name, error }),
            }
        }
        None => {
            let mut bytes = Vec::new();
            io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|error| CliError::Input {
                    name: "standard input".to_owned(),
                    error,
                })?;
            ("standard input".to_owned(), bytes)
        }
    };
    let record = Record::parse_with(&bytes, variant, &settings)
        .map_err(|error| CliError::Record { name, error })?;
    record.write(to).map_err(CliError::Write)
}

/// An engine protocol session on stdin and stdout; it writes as it goes.
fn speak(dialect: Dialect) -> Result<(), CliError> {
    protocol::run(dialect, io::stdin().lock(), Box::new(io::stdout()))?;
    Ok(())
}

fn perft_text(position: &AnyPosition, depth: u32, divide: bool) -> String {
    let mut lines: Vec<(String, u64)> = match position {
        AnyPosition::Shogi(pos) if divide => split(perft::divide(pos, depth)),
        AnyPosition::Xiangqi(pos) if divide => split(perft::divide(pos, depth)),
        _ => Vec::new(),
    };
    let total = if divide {
        lines.iter().map(|(_, n)| n).sum()
    } else {
        match position {
            AnyPosition::Shogi(pos) => perft::perft(pos, depth),
            AnyPosition::Xiangqi(pos) => perft::perft(pos, depth),
        }
    };
    lines.sort_unstable();
    let mut text: String = lines.iter().map(|(mv, n)| format!("{mv} {n}\n")).collect();
    text.push_str(&format!("{total}\n"));
    text
}

fn split<M: fmt::Display>(counts: Vec<(M, u64)>) -> Vec<(String, u64)> {
    counts
        .into_iter()
        .map(|(mv, n)| (mv.to_string(), n))
        .collect()
}

/// `{"result": "first"|"second"|"draw"|null, "reason": ...|null, "side_to_move", "in_check"}`.
fn status_json(game: &AnyGame) -> serde_json::Value {
    let outcome = game.outcome();
    serde_json::json!({
        "result": outcome.map(|o| o.winner.map_or("draw", |side| side.name())),
        "reason": outcome.map(|o| o.reason.code()),
        "side_to_move": game.side_to_move().name(),
        "in_check": game.is_check(),
    })
}
