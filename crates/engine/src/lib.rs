//! Search and evaluation for Shogi, Minishogi, Annan Shogi and Xiangqi, as a
//! library: the server calls it directly, and the `koma usi`/`koma uci`
//! protocol layer of the binary speaks for it. The engine never prints; it
//! reports [`SearchEvent`]s to a callback.
//!
//! ```
//! use engine::{Decision, Engine, EngineOptions, Limits};
//! use rules::Variant;
//!
//! let mut engine = Engine::new(EngineOptions { variant: Variant::Minishogi, ..EngineOptions::default() });
//! engine.set_position(None, &["5e4d"]).unwrap();
//! let result = engine.search(Limits::depth(3));
//! assert!(matches!(result.decision, Decision::Move { .. }));
//! ```
//!
//! A search runs on its own thread: [`Engine::go`] returns at once,
//! [`Engine::stop`] ends it early, [`Engine::wait`] joins it. With one thread
//! and a node or depth limit, a search is deterministic.
//!
//! - Search (`search`): iterative deepening, PVS with aspiration windows, a
//!   shared lockless transposition table (`tt`), quiescence over captures
//!   (and, in the drop games, quiet checks at its first ply),
//!   null move, reverse futility, late-move reductions, check extensions,
//!   mate scores, lazy SMP with `threads > 1`.
//! - Game ends inside the tree: no legal move (a loss in all four games),
//!   repetition with perpetual check (all games), perpetual chase (xiangqi),
//!   minishogi's repetition rule, 27-point impasse declaration, xiangqi's
//!   sixty-move rule and dead draw, the room's move limit.
//! - Ordering (`movepick`): table move, winning and equal captures (MVV-LVA),
//!   promotions, killers, losing captures, history; static exchange
//!   evaluation (`see`) tells winning from losing captures.
//! - Evaluation (`eval`): material with hand premiums, placement, king
//!   safety, slider mobility, annan's supported pieces.
//! - Time (`time`): byoyomi, main time and increments, `movetime`, ponder.
//! - Mate search (`mate`, [`Engine::go_mate`]): checks-only AND/OR proof
//!   search for tsume, answering the shortest mate found or proof of none.
//! - [`Level`]s 1 to 8; [`bench()`](bench::bench) with a node-count signature.
#![warn(missing_docs)]

pub mod bench;
mod eval;
mod games;
mod history;
mod level;
mod limits;
mod mate;
mod movepick;
mod search;
mod see;
mod time;
mod tt;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use rules::{
    AnyGame, AnyMove, AnyPosition, PlayError, Settings, SetupError, Variant, perft, shogi, xiangqi,
};

pub use eval::Evaluate;
pub use level::{Level, ParseLevelError};
pub use limits::Limits;
pub use mate::MateResult;

use games::Searchable;
use history::HistoryPool;
use search::{Control, Job, Reached};
use tt::TranspositionTable;

/// How the engine is set up; change with [`Engine::set_options`].
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct EngineOptions {
    /// The game played.
    pub variant: Variant,
    /// House rules: the impasse rule, annan's setup and dead-piece rule.
    pub settings: Settings,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (lazy SMP); searches are deterministic only with one.
    pub threads: usize,
    /// Playing level, 1 to 8.
    pub level: Level,
    /// Seed of the weaker levels' evaluation noise; `None` draws one from the clock.
    pub seed: Option<u64>,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            variant: Variant::Shogi,
            settings: Settings::default(),
            hash_mb: 16,
            threads: 1,
            level: Level::MAX,
            seed: None,
        }
    }
}

/// A score from the side to move's view.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Score {
    /// Centipawns: a pawn (shogi) or an uncrossed soldier (xiangqi) is 100.
    Cp(i32),
    /// Mate in this many plies; negative when the side to move is mated.
    /// Game ends by rule inside the search (perpetual check, minishogi's
    /// repetition, a winning impasse declaration) count as mates.
    Mate(i32),
}

/// Progress of a search, reported after each completed iteration.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Info {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score of the principal variation.
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the transposition table written by this search.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<AnyMove>,
}

/// What the engine decides to do.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Decision {
    /// Play `best`; `ponder` is the expected reply.
    Move {
        /// The move to play.
        best: AnyMove,
        /// The reply the engine expects, to ponder on.
        ponder: Option<AnyMove>,
    },
    /// No legal move: the game is lost (USI `resign`, UCI `(none)`).
    Resign,
    /// Declare an impasse win under the 27-point rule (USI `win`).
    DeclareWin,
}

/// What a search reports through its sink.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum SearchEvent {
    /// Progress after an iteration.
    Info(Info),
    /// The final decision; always the last event of a search.
    BestMove(Decision),
}

/// The result of a blocking [`Engine::search`].
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct SearchResult {
    /// The decision.
    pub decision: Decision,
    /// The last progress report, if an iteration completed.
    pub info: Option<Info>,
}

/// A position the engine cannot set up.
#[derive(Clone, Debug)]
pub enum PositionError {
    /// The start position is not valid for the game.
    Setup(SetupError),
    /// A move of the list cannot be played.
    Move {
        /// Its place in the list, from 1.
        index: usize,
        /// Why.
        error: PlayError,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Setup(err) => err.fmt(f),
            PositionError::Move { index, error } => write!(f, "move {index}: {error}"),
        }
    }
}

impl core::error::Error for PositionError {}

/// A position with the keys of the game that led to it.
#[derive(Clone, Debug)]
struct Line<P> {
    position: P,
    history: Vec<Reached>,
}

impl<P: Searchable> Line<P> {
    fn new(position: P) -> Line<P> {
        let history = vec![Reached {
            key: position.key(),
            check: position.is_check(),
            chase: false,
        }];
        Line { position, history }
    }

    /// The line of a game the rules crate played: its start and moves.
    fn of(game: &rules::Game<P>) -> Line<P> {
        let mut line = Line::new(game.start().clone());
        for &mv in game.moves() {
            line.push(mv);
        }
        line
    }

    fn play(&mut self, text: &str) -> Result<(), PlayError> {
        let mv = self.position.parse_move(text).map_err(PlayError::Parse)?;
        self.position
            .check_move(mv)
            .map_err(|reason| PlayError::Illegal {
                mv: text.to_owned(),
                reason,
            })?;
        self.push(mv);
        Ok(())
    }

    /// Plays a legal move and remembers what repetition rules need of it.
    fn push(&mut self, mv: P::Move) {
        let before = self.position.clone();
        self.position.play_unchecked(mv);
        self.history.push(Reached {
            key: self.position.key(),
            check: self.position.is_check(),
            chase: before.is_chase(mv, &self.position),
        });
    }
}

#[derive(Clone, Debug)]
enum Game {
    Shogi(Line<shogi::Position>),
    Xiangqi(Line<xiangqi::Position>),
}

impl Game {
    fn new(start: AnyPosition) -> Game {
        match start {
            AnyPosition::Shogi(pos) => Game::Shogi(Line::new(pos)),
            AnyPosition::Xiangqi(pos) => Game::Xiangqi(Line::new(pos)),
        }
    }
}

/// The engine: options, the current position, the transposition table, and
/// at most one running search.
pub struct Engine {
    options: EngineOptions,
    seed: u64,
    tt: Arc<TranspositionTable>,
    /// What earlier searches of the game learned about quiet moves.
    histories: Arc<HistoryPool>,
    game: Game,
    control: Arc<Control>,
    search: Option<JoinHandle<()>>,
}

impl Engine {
    /// An engine at the start position of `options.variant`.
    pub fn new(options: EngineOptions) -> Engine {
        let seed = options.seed.unwrap_or_else(clock_seed);
        let start = start_position(&options);
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            histories: Arc::default(),
            seed,
            options,
            game: Game::new(start),
            control: Arc::new(Control::default()),
            search: None,
        }
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes the options, stopping a running search first. A new hash
    /// size reallocates the table; a new variant or house rules reset the
    /// position to the start.
    pub fn set_options(&mut self, options: EngineOptions) {
        self.finish();
        if options.hash_mb != self.options.hash_mb {
            self.tt = Arc::new(TranspositionTable::new(options.hash_mb));
        }
        if options.seed != self.options.seed {
            self.seed = options.seed.unwrap_or_else(clock_seed);
        }
        let reset =
            options.variant != self.options.variant || options.settings != self.options.settings;
        self.options = options;
        if reset {
            self.game = Game::new(start_position(&self.options));
            self.histories.clear();
        }
    }

    /// Sets the position: `position` is `None`/`startpos`, an SFEN or FEN,
    /// or a shogi handicap name (see [`AnyPosition::new`]), then `moves` in
    /// USI or ICCS. Stops a running search first.
    ///
    /// # Errors
    /// The position is not valid for the variant, or a move is not legal;
    /// the engine's position is then unchanged.
    pub fn set_position(
        &mut self,
        position: Option<&str>,
        moves: &[&str],
    ) -> Result<(), PositionError> {
        self.finish();
        let start = AnyPosition::new(self.options.variant, position, &self.options.settings)
            .map_err(PositionError::Setup)?;
        let mut game = Game::new(start);
        for (index, text) in moves.iter().enumerate() {
            let played = match &mut game {
                Game::Shogi(line) => line.play(text),
                Game::Xiangqi(line) => line.play(text),
            };
            played.map_err(|error| PositionError::Move {
                index: index + 1,
                error,
            })?;
        }
        self.game = game;
        Ok(())
    }

    /// Sets the position to where `game` stands, its history included (for
    /// repetition), without going through text. Stops a running search first.
    /// The game is of the engine's variant and house rules ([`Engine::set_options`]).
    pub fn set_game(&mut self, game: &AnyGame) {
        self.finish();
        self.game = match game {
            AnyGame::Shogi(game) => Game::Shogi(Line::of(game)),
            AnyGame::Xiangqi(game) => Game::Xiangqi(Line::of(game)),
        };
    }

    /// The current position.
    pub fn position(&self) -> AnyPosition {
        match &self.game {
            Game::Shogi(line) => AnyPosition::Shogi(line.position.clone()),
            Game::Xiangqi(line) => AnyPosition::Xiangqi(line.position.clone()),
        }
    }

    /// Starts a search of the current position on a new thread and returns
    /// at once; `sink` receives `Info`s and finally one `BestMove`. A search
    /// still running is stopped first (and reports its `BestMove`).
    pub fn go(&mut self, limits: Limits, sink: impl FnMut(SearchEvent) + Send + 'static) {
        self.finish();
        let control = Arc::new(Control::default());
        self.control = Arc::clone(&control);
        let tt = Arc::clone(&self.tt);
        let histories = Arc::clone(&self.histories);
        let mut sink = sink;
        self.search = Some(match &self.game {
            Game::Shogi(line) => {
                let job = job(line, limits, &self.options, self.seed);
                std::thread::spawn(move || search::run(&job, &tt, &histories, &control, &mut sink))
            }
            Game::Xiangqi(line) => {
                let job = job(line, limits, &self.options, self.seed);
                std::thread::spawn(move || search::run(&job, &tt, &histories, &control, &mut sink))
            }
        });
    }

    /// Starts a mate search (tsume) of the current position on a new thread
    /// and returns at once: does the side to move mate by checking with
    /// every move? `sink` receives the answer once: the shortest mate found
    /// with the defender's longest resistance, proof that there is none, or
    /// a timeout when `time` runs out or [`stop`](Self::stop) comes first
    /// (`None`: no time limit; then a search that gives up, having ruled
    /// out mates up to 95 plies, still answers only at `stop`). A search
    /// still running is stopped first.
    pub fn go_mate(
        &mut self,
        time: Option<Duration>,
        sink: impl FnOnce(MateResult<AnyMove>) + Send + 'static,
    ) {
        self.finish();
        let control = Arc::new(Control::default());
        self.control = Arc::clone(&control);
        let deadline = time.map(|time| std::time::Instant::now() + time);
        self.search = Some(match &self.game {
            Game::Shogi(line) => {
                let root = line.position.clone();
                std::thread::spawn(move || sink(solve_mate(&root, &control, deadline)))
            }
            Game::Xiangqi(line) => {
                let root = line.position.clone();
                std::thread::spawn(move || sink(solve_mate(&root, &control, deadline)))
            }
        });
    }

    /// Searches the current position and waits for the decision. Nobody
    /// could stop this search, so `infinite` and `ponder` are ignored, and
    /// limits without a clock, depth or nodes search to the level's or the
    /// engine's maximum depth.
    pub fn search(&mut self, mut limits: Limits) -> SearchResult {
        limits.infinite = false;
        limits.ponder = false;
        if !limits.is_bounded() {
            limits.depth = Some(search::MAX_PLY as u32 - 1);
        }
        let (sender, receiver) = mpsc::channel();
        self.go(limits, move |event| {
            let _ = sender.send(event);
        });
        let mut info = None;
        let mut decision = Decision::Resign;
        for event in receiver {
            match event {
                SearchEvent::Info(latest) => info = Some(latest),
                SearchEvent::BestMove(best) => decision = best,
            }
        }
        self.wait();
        SearchResult { decision, info }
    }

    /// Asks a running search to stop and report its best move.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::Relaxed);
    }

    /// The pondered move was played: the running `ponder` search now keeps time.
    pub fn ponderhit(&self) {
        self.control.ponderhit.store(true, Ordering::Relaxed);
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|handle| !handle.is_finished())
    }

    /// Stops a running search and waits for its thread.
    fn finish(&mut self) {
        self.stop();
        self.wait();
    }

    /// Waits for a running search to finish (it must be bounded, or be stopped).
    pub fn wait(&mut self) {
        if let Some(handle) = self.search.take() {
            // A panicking search thread has already reported nothing more; go on.
            let _ = handle.join();
        }
    }

    /// Stops a running search and forgets the transposition table only: the
    /// next search is of another game (whose scores, with another level's
    /// noise, must not be read back), but the move tables may still order
    /// its moves.
    pub fn clear_hash(&mut self) {
        self.finish();
        self.tt.clear();
    }

    /// A new game: stops a running search and forgets what earlier searches learned.
    pub fn new_game(&mut self) {
        self.finish();
        self.tt.clear();
        self.histories.clear();
    }

    /// The number of legal move sequences of `depth` plies from the current position.
    pub fn perft(&self, depth: u32) -> u64 {
        match &self.game {
            Game::Shogi(line) => perft::perft(&line.position, depth),
            Game::Xiangqi(line) => perft::perft(&line.position, depth),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.finish();
    }
}

fn job<P: Searchable>(
    line: &Line<P>,
    limits: Limits,
    options: &EngineOptions,
    seed: u64,
) -> Job<P> {
    Job {
        root: line.position.clone(),
        history: line.history.clone(),
        limits,
        strength: options.level.strength(),
        impasse: options.settings.impasse,
        move_limit: options.settings.move_limit,
        seed,
        threads: options.threads,
    }
}

/// A mate search of `root`, with the moves in the run-time type.
fn solve_mate<P: Searchable>(
    root: &P,
    control: &Control,
    deadline: Option<std::time::Instant>,
) -> MateResult<AnyMove> {
    let mut search = mate::MateSearch::new(&control.stop, deadline);
    match search.solve(root, mate::MAX_MATE_PLIES) {
        MateResult::Mate(pv) => MateResult::Mate(pv.into_iter().map(P::to_any).collect()),
        MateResult::NoMate => MateResult::NoMate,
        MateResult::Timeout => {
            // Without a time limit the answer waits for `stop`, even when
            // the longest mate searched for has been ruled out sooner.
            while deadline.is_none() && !control.stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            MateResult::Timeout
        }
    }
}

fn start_position(options: &EngineOptions) -> AnyPosition {
    match options.variant {
        Variant::Xiangqi => AnyPosition::Xiangqi(xiangqi::Position::startpos()),
        variant => AnyPosition::Shogi(shogi::Position::startpos(variant, &options.settings)),
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64)
}
