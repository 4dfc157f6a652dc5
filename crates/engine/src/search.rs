//! The search: iterative deepening over a principal variation search (PVS)
//! with aspiration windows, a shared transposition table (which also keeps
//! each position's static evaluation), quiescence search over captures (and
//! quiet checks at its first ply), a static evaluation corrected by what
//! searches found in positions with the same pawns (the drop games),
//! null-move pruning,
//! reverse futility pruning, internal iterative reduction, late-move,
//! futility and SEE pruning of quiet moves and SEE pruning of losing
//! captures near the leaves (of a move that gives check only in the drop
//! games, when it loses material by SEE), late-move
//! reductions steered by the move histories ([`history`](crate::history)), by
//! whether the side to move is improving and by the expected kind of node
//! ([`Node`]), check extensions, mate scores,
//! and the game ends of each variant inside the tree.
//!
//! Repetition inside the search is simplified, as in most engines: the first
//! recurrence of a position (in the tree, or from the game before the root)
//! ends the line. It is scored by the variant's rule for a finished
//! repetition: a side that gave check with every one of its moves since the
//! earlier occurrence loses (perpetual check, all four games); otherwise a
//! draw, except in minishogi, where Sente loses, and in xiangqi, where a
//! side that checked or chased with every move loses (perpetual chase).
//! Minishogi's plain repetition of a position from the game before the root
//! ends the line only at its fourth occurrence, as the rule says: scored as
//! a loss at the second, it had Gote play a "mate" undoing its last move.
//! Xiangqi's, whatever the verdict, only at its third, as its rule says:
//! scored at the second, an opponent's perpetual check counted as won, and
//! Koma chose its answers to the checks by that verdict alone (a "mate" in
//! four nodes), though the opponent steps out of the cycle before the third.
//! Chases are worked out only when a xiangqi repetition is found: the stack
//! keeps the position before each move for that.
//!
//! Having no legal move loses in all four games, so every full-width node
//! generates its moves before any pruning, unless a cheap test already
//! shows one ([`Searchable::surely_has_move`]: a gold, silver, bishop or rook
//! in hand and an empty square, or out of check a piece other than the king
//! that nothing pins with a square to go to): it then generates them only
//! once reverse futility and the null move have not cut the node off. The
//! generation an early test saved was most of it: about half the nodes that
//! generate are then cut off by pruning. The other ends
//! inside the tree: a winning 27-point impasse declaration, xiangqi's
//! sixty-move rule and dead draw (no piece left that can cross the river),
//! and the room's `move_limit`; as in [`rules::Game`], a mate on the last
//! move still wins.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use rules::{Impasse, MoveList, MoveSet, Side, Variant};

use crate::eval::EvalCache;
use crate::games::Searchable;
use crate::history::{Context, HISTORY_MAX, Histories, HistoryPool};
use crate::level::Strength;
use crate::movepick::{MovePicker, is_losing_capture, is_refutation};
use crate::time::TimeManager;
use crate::tt::{Bound, TranspositionTable};
use crate::{Decision, Info, Limits, Score, SearchEvent};

/// The deepest ply the search reaches (quiescence included).
pub(crate) const MAX_PLY: usize = 96;
/// The score of mating at once; mate in `n` plies scores `MATE - n`.
const MATE: i32 = 30_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// Above every score.
const INFINITY: i32 = 31_000;
/// Quiet checking moves and drops quiescence tries at its first ply.
/// (In minishogi, quiet checks tried again by the same side after the
/// evasion, a second ply of them, scored 59/100 against Fairy-Stockfish at
/// fixed nodes where one ply scored 61/100 on the same openings. In shogi,
/// ordering them by history with the main search's last two moves as
/// context, and skipping those both continuation rows score below zero, as
/// Fairy-Stockfish does, scored 10/25 at 150,000 nodes a move each where
/// generation order scored 17/25 on the same openings; stopped there.)
const QUIESCENCE_CHECKS: usize = 8;
/// Quiet moves and drops that lose more than this times the depth squared
/// by SEE (in exchange values) are pruned near the leaves: the piece
/// just hangs.
const QUIET_SEE_MARGIN: i32 = 40;
/// Captures and checks that lose more than this times the depth by SEE
/// are pruned near the leaves.
const LOSING_SEE_MARGIN: i32 = 100;
/// How far above beta a capture must score in ProbCut's shallow search
/// for the node to be cut (less when the side to move is improving).
const PROBCUT_MARGIN: i32 = 250;

const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Mate scores count from the root in the tree and from the node in the table.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The score as the protocols report it.
fn report(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate(MATE - score)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score))
    } else {
        Score::Cp(score)
    }
}

/// Flags one search's threads share with the engine.
#[derive(Default)]
pub(crate) struct Control {
    /// Set by `stop`: the engine's user wants the decision now.
    pub(crate) stop: AtomicBool,
    /// Set by the main thread when it has finished: helpers stop too.
    finished: AtomicBool,
    /// Set by `ponderhit`: the pondered move was played, the clock runs.
    pub(crate) ponderhit: AtomicBool,
    /// Nodes searched by the helper threads so far.
    helper_nodes: AtomicU64,
}

/// A position of the game before the root, as repetition judges it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Reached {
    /// The position's key.
    pub(crate) key: u64,
    /// The move that reached it gave check.
    pub(crate) check: bool,
    /// The move that reached it chased a piece (xiangqi).
    pub(crate) chase: bool,
}

/// Whether the move into a position of the stack chased (xiangqi): known for
/// the game's moves, worked out only when a repetition needs it in the tree.
#[derive(Clone)]
enum Chase<P: Searchable> {
    Known(bool),
    /// The position before the move, and the move.
    Later(P, P::Move),
}

impl Control {
    /// Whether the threads must stop: asked to, or the main thread is done.
    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.finished.load(Ordering::Relaxed)
    }
}

/// Everything one search needs.
pub(crate) struct Job<P: Searchable> {
    /// The position to search.
    pub(crate) root: P,
    /// The game's positions, root last: for repetitions across the root.
    pub(crate) history: Vec<Reached>,
    pub(crate) limits: Limits,
    pub(crate) strength: Strength,
    pub(crate) impasse: Impasse,
    /// Plies after which the game is drawn (`move_limit`); 0 for none.
    pub(crate) move_limit: u32,
    pub(crate) seed: u64,
    pub(crate) threads: usize,
}

/// Searches `job` and reports to `sink`: `Info` after each iteration and
/// once more if the search stops within one, then one `BestMove`.
pub(crate) fn run<P: Searchable>(
    job: &Job<P>,
    tt: &TranspositionTable,
    histories: &HistoryPool,
    control: &Control,
    sink: &mut dyn FnMut(SearchEvent),
) {
    let start = Instant::now();
    tt.new_search();
    let decision = if job.root.declares_win(job.impasse) {
        Decision::DeclareWin
    } else if job.root.legal_moves().is_empty() {
        Decision::Resign
    } else {
        let best = std::thread::scope(|scope| {
            for id in 1..job.threads.max(1) {
                scope.spawn(move || {
                    let mut worker =
                        Worker::new(job, tt, control, start, id, histories.take::<P>());
                    worker.iterate(None);
                    histories.give(worker.tables);
                });
            }
            let mut main = Worker::new(job, tt, control, start, 0, histories.take::<P>());
            let best = main.iterate(Some(sink));
            control.finished.store(true, Ordering::Relaxed);
            histories.give(main.tables);
            best
        });
        let fallback = || job.root.legal_moves()[0];
        let pv = best.unwrap_or_else(|| [fallback()].into_iter().collect());
        Decision::Move {
            best: P::to_any(pv[0]),
            ponder: pv.get(1).map(|&mv| P::to_any(mv)),
        }
    };
    // The protocols forbid `bestmove` before `stop` in an infinite search or
    // before `ponderhit`/`stop` while pondering.
    while (job.limits.infinite || job.limits.ponder && !control.ponderhit.load(Ordering::Relaxed))
        && !control.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    sink(SearchEvent::BestMove(decision));
}

type Line<M> = ArrayVec<M, MAX_PLY>;

/// Which ply of quiescence a node is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum QuiescencePly {
    /// The first, straight from the main search: it tries quiet checks too.
    First,
    /// Reached by an evasion, which the line records: it may repeat.
    AfterEvasion,
    /// Reached by a capture or a promotion (or a first ply's quiet check).
    Later,
}

/// What a node of the search is expected to be (Knuth and Moore's node
/// types, predicted as Stockfish predicts them).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Node {
    /// On the principal variation, with a full window.
    Pv,
    /// A null window expected to fail high: its first good move refutes it.
    Cut,
    /// A null window expected to fail low: every move gets searched.
    All,
}

impl Node {
    /// The kind of the reply to a node's first move: the principal
    /// variation goes on, and below a null window the kinds alternate.
    fn reply(self) -> Node {
        match self {
            Node::Pv => Node::Pv,
            Node::Cut => Node::All,
            Node::All => Node::Cut,
        }
    }
}

/// One search thread: its own stacks and move tables, the shared table.
struct Worker<'a, P: Searchable> {
    job: &'a Job<P>,
    tt: &'a TranspositionTable,
    control: &'a Control,
    /// 0 for the main thread, which keeps time and reports.
    id: usize,
    start: Instant,
    clock: TimeManager,
    pondering: bool,
    node_limit: Option<u64>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    root_depth: i32,
    root_score: i32,
    /// Keys of the game and the current line, with check flags (see [`Job::history`]).
    keys: Vec<u64>,
    checks: Vec<bool>,
    /// Chase flags alongside `keys`, kept only in games with a chase rule.
    chases: Vec<Chase<P>>,
    /// Index of the latest null move in `keys`: repetitions never span it.
    null_barrier: usize,
    /// The static evaluation at each ply of the line (`None` in check).
    evals: [Option<i32>; MAX_PLY + 1],
    /// The move played at each ply of the line, packed (0: the null move).
    played: [u16; MAX_PLY + 1],
    /// The piece and destination of the move played at each ply of the
    /// line ([`Searchable::piece_to`]; `None`: the null move).
    moved: [Option<usize>; MAX_PLY + 1],
    killers: [[u16; 2]; MAX_PLY + 1],
    /// The move a singular-extension search at each ply leaves out (0: none).
    excluded: [u16; MAX_PLY + 1],
    /// Histories and counter moves, lent by the engine for this search.
    tables: Histories,
    /// Triangular principal-variation table: `pv[ply]` is the line from `ply`.
    pv: Vec<Line<P::Move>>,
    reductions: [[u8; 64]; 64],
    /// The extra reduction of a cut node's quiet moves, by the game: a
    /// move that was going to cut off there has mostly done so already.
    /// Two plies in shogi and minishogi; none in annan, where it scored
    /// 44% at equal nodes, nor in xiangqi, where two plies scored 96/160
    /// against Fairy-Stockfish at fixed nodes (none: 94.5/160 on the same
    /// openings) and 45.5% ± 7.6% against none in self-play at 20,000
    /// nodes. In minishogi none scored 60/100 against Fairy-Stockfish at
    /// fixed nodes where two plies scored 61/100 on the same openings.
    cut_node_reduction: i32,
    /// Plies of reduction a quiet move's history is worth, per
    /// [`HISTORY_MAX`] of it, by the game: two in the drop games, where
    /// Fairy-Stockfish too weighs history more (against it in shogi at
    /// 300 ms this scored 45/72 where the build before scored 32/72, and
    /// 10/18 each at 1 s; even in minishogi; 60% in annan self-play); one
    /// in xiangqi (two scored 22/40 against Fairy-Stockfish at 300,000
    /// nodes against 145,000, one 22.5/40 on the same openings).
    history_reduction: i32,
    /// Whether the search tries ProbCut ([`Worker::probcut`]), by the game:
    /// in the drop games. Against Fairy-Stockfish at fixed nodes it scored
    /// 77/100 in shogi where the search without it scored 70/100 on the same
    /// openings, 57/100 and 49/100 in minishogi on the book at one and ten
    /// times row J's budgets (56 and 47 without), but 61.5/100 in xiangqi,
    /// 70.5 without. Annan, with no other engine to play, has it untested.
    uses_probcut: bool,
    /// Whether a check is extended only from depth 7, and only out of a
    /// position the static evaluation does not call level (beyond 100 cp), as
    /// Fairy-Stockfish does, by the game: in shogi, where against it at 150,000
    /// nodes a move each this scored 96/200 and extending every check from
    /// depth 2 83/200 on the same openings (about 1.4 standard deviations of
    /// the paired difference). Not in xiangqi, neither at 38,600 nodes against
    /// 21,000 (57.5/100, where extending from depth 2 scored 64/100) nor at
    /// 300,000 against 145,000, 300 ms's depths (69.5/120, where extending from
    /// depth 2 scored 76/120 on the same openings, though a ply shallower:
    /// 52/80 against 45.5/80 on the first four seeds, 17.5/40 against 30.5/40
    /// on the next two). In minishogi too, though at row J's shallow budgets
    /// on the first book it scored 54/100 where extending from depth 2 scored
    /// 63/100: at depth it pays, as in shogi (on the deep book at 1 s a move
    /// 27/54 where extending from depth 2 scored 22/54, and at row U's
    /// nodes 34/54 against 27/54 on the same openings). Untested in annan,
    /// which extends from depth 2.
    extends_checks_far_from_leaves: bool,
    /// Static evaluations of the positions this thread evaluated lately.
    eval_cache: EvalCache,
}

impl<'a, P: Searchable> Worker<'a, P> {
    fn new(
        job: &'a Job<P>,
        tt: &'a TranspositionTable,
        control: &'a Control,
        start: Instant,
        id: usize,
        tables: Histories,
    ) -> Self {
        let pondering = job.limits.ponder;
        let clock = if pondering {
            TimeManager::unlimited(start)
        } else {
            TimeManager::new(&job.limits, job.root.side_to_move(), start)
        };
        let node_limit = match (job.limits.nodes, job.strength.nodes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // (In minishogi the depth-and-index product over 1.6 scored 55/100
        // against Fairy-Stockfish at fixed nodes, over 2.5 53/100, where
        // over 2 scored 61/100 on the same openings.)
        let mut reductions = [[0; 64]; 64];
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (depth as f64).ln() * (index as f64).ln() / 2.0) as u8;
            }
        }
        Worker {
            job,
            tt,
            control,
            id,
            start,
            clock,
            pondering,
            node_limit,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            root_score: 0,
            keys: job.history.iter().map(|reached| reached.key).collect(),
            checks: job.history.iter().map(|reached| reached.check).collect(),
            chases: if P::HAS_CHASE_RULE {
                job.history
                    .iter()
                    .map(|reached| Chase::Known(reached.chase))
                    .collect()
            } else {
                Vec::new()
            },
            null_barrier: 0,
            evals: [None; MAX_PLY + 1],
            played: [0; MAX_PLY + 1],
            moved: [None; MAX_PLY + 1],
            killers: [[0; 2]; MAX_PLY + 1],
            excluded: [0; MAX_PLY + 1],
            tables,
            pv: vec![Line::new(); MAX_PLY + 1],
            reductions,
            cut_node_reduction: match job.root.variant() {
                Variant::Shogi | Variant::Minishogi => 2,
                Variant::Annan | Variant::Xiangqi => 0,
            },
            history_reduction: match job.root.variant() {
                Variant::Shogi | Variant::Minishogi | Variant::Annan => 2,
                Variant::Xiangqi => 1,
            },
            uses_probcut: job.root.variant() != Variant::Xiangqi,
            extends_checks_far_from_leaves: matches!(
                job.root.variant(),
                Variant::Shogi | Variant::Minishogi
            ),
            eval_cache: EvalCache::new(),
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Iterative deepening; returns the principal variation of the deepest
    /// iteration that produced one.
    fn iterate(&mut self, mut sink: Option<&mut dyn FnMut(SearchEvent)>) -> Option<Line<P::Move>> {
        let job = self.job;
        let root = &job.root;
        let max_depth = [self.job.limits.depth, self.job.strength.depth]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1) as i32;
        let mut best: Option<Line<P::Move>> = None;
        let mut score = 0;
        // The depth of the iteration `best` and `score` come from.
        let mut best_depth = 0;
        let mut depth = 1 + (self.id % 2) as i32;
        while depth <= max_depth {
            self.root_depth = depth;
            self.seldepth = 0;
            let iteration = self.aspiration(root, depth, score);
            if !self.pv[0].is_empty() {
                best = Some(self.pv[0].clone());
                best_depth = depth;
                score = if self.stopped {
                    self.root_score
                } else {
                    iteration
                };
            }
            // A report after each iteration, and a last one at a stop within
            // an iteration, as a GUI expects with the bestmove: the whole
            // search's nodes and time, and the line played (from the
            // unfinished iteration if it found a better move).
            if let (Some(sink), Some(line)) = (sink.as_deref_mut(), &best) {
                sink(SearchEvent::Info(self.info(best_depth, score, line)));
            }
            if self.stopped {
                break;
            }
            if self.is_main() {
                let mate_found = is_mate(score) && MATE - score.abs() <= depth;
                if !self.pondering
                    && (self.clock.iteration_too_late() || mate_found && !self.job.limits.infinite)
                {
                    break;
                }
            } else if self.control.should_stop() {
                break;
            }
            depth += 1;
        }
        if !self.is_main() {
            self.control
                .helper_nodes
                .fetch_add(self.nodes, Ordering::Relaxed);
        }
        best
    }

    /// One iteration at `depth` with a window around the last score, widened on failure.
    fn aspiration(&mut self, root: &P, depth: i32, last: i32) -> i32 {
        let mut delta = 40;
        let (mut alpha, mut beta) = if depth >= 4 && !is_mate(last) {
            (last - delta, last + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search(root, alpha, beta, depth, 0, Node::Pv);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 600 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The report of a search that reached `depth` with `score` and `line`.
    fn info(&self, depth: i32, score: i32, line: &[P::Move]) -> Info {
        let time = self.start.elapsed();
        let nodes = self.nodes + self.control.helper_nodes.load(Ordering::Relaxed);
        Info {
            depth: depth as u32,
            seldepth: self.seldepth as u32,
            score: report(score),
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
            time,
            hashfull: self.tt.hashfull(),
            pv: line.iter().map(|&mv| P::to_any(mv)).collect(),
        }
    }

    /// Counts a node and says whether the search must stop.
    fn count_node(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        // The first iteration runs until the root has a searched move to
        // play; after that a limit stops it too, as a quiescence search that
        // explodes (long chains of checks) could otherwise run for minutes.
        if self.root_depth <= 1 && self.pv[0].is_empty() {
            return false;
        }
        if self.is_main() && self.node_limit.is_some_and(|limit| self.nodes >= limit) {
            self.stopped = true;
        }
        if self.nodes % 1024 == 0 {
            if self.control.should_stop() {
                self.stopped = true;
            } else if self.is_main() {
                if self.pondering && self.control.ponderhit.load(Ordering::Relaxed) {
                    self.pondering = false;
                    self.clock = TimeManager::new(
                        &self.job.limits,
                        self.job.root.side_to_move(),
                        Instant::now(),
                    );
                }
                if !self.pondering && self.clock.out_of_time() {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// The static evaluation plus the level's noise.
    fn eval(&mut self, pos: &P) -> i32 {
        let raw = self.raw_eval(pos);
        self.with_noise(pos, raw)
    }

    /// The static evaluation without the level's noise, as the table keeps it.
    fn raw_eval(&mut self, pos: &P) -> i32 {
        self.eval_cache.get_or(pos.key(), || pos.evaluate())
    }

    /// `raw`, the static evaluation of `pos`, plus the level's noise.
    fn with_noise(&self, pos: &P, raw: i32) -> i32 {
        let amplitude = self.job.strength.noise;
        let noise = if amplitude == 0 {
            0
        } else {
            let hash = splitmix(pos.key() ^ self.job.seed);
            (hash % (2 * amplitude as u64 + 1)) as i32 - amplitude
        };
        (raw + noise).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Whether the side to move at `ply` stands better than at its previous
    /// turn (or the one before, if it was in check then): pruning is bolder
    /// when it does not.
    fn improving(&self, ply: usize, now: i32) -> bool {
        let earlier = |back: usize| ply.checked_sub(back).map(|p| self.evals[p]);
        match earlier(2) {
            Some(Some(before)) => now > before,
            Some(None) => matches!(earlier(4), Some(Some(before)) if now > before) || ply < 4,
            None => true,
        }
    }

    /// The score of the current position if it repeats an earlier one with
    /// the same side to move (see the module docs for the rule).
    fn repetition(&self, pos: &P, ply: usize) -> Option<i32> {
        let now = self.keys.len() - 1;
        let key = self.keys[now];
        // A position cannot recur two plies later: each side moved a piece.
        let mut earlier = now.checked_sub(4)?;
        loop {
            if earlier < self.null_barrier {
                return None;
            }
            if self.keys[earlier] == key {
                break;
            }
            earlier = earlier.checked_sub(2)?;
        }
        // In xiangqi a cycle begun before the root ends the game only at the
        // third occurrence: until then either side may still leave it (see
        // the module docs).
        if pos.variant() == Variant::Xiangqi
            && earlier < self.root_index()
            && self.occurrences(key) < 3
        {
            return None;
        }
        // Positions earlier+1..=now; those an even distance from `now` were
        // reached by the side that just moved.
        let every = |forcing: &dyn Fn(usize) -> bool| {
            let (mut just_moved, mut to_move) = (true, true);
            for index in earlier + 1..=now {
                if (now - index) % 2 == 0 {
                    just_moved = just_moved && forcing(index);
                } else {
                    to_move = to_move && forcing(index);
                }
            }
            (just_moved, to_move)
        };
        let perpetual = |sides: (bool, bool)| match sides {
            (true, false) => Some(mate_in(ply)),
            (false, true) => Some(mated_in(ply)),
            _ => None,
        };
        let checks = every(&|index| self.checks[index]);
        if let Some(score) = perpetual(checks) {
            return Some(score);
        }
        if checks == (true, true) {
            return Some(0);
        }
        Some(match pos.variant() {
            // A check is forcing too: alternating checks and chases is a perpetual chase.
            Variant::Xiangqi => perpetual(every(&|index| {
                self.checks[index] || self.chased(pos, index)
            }))
            .unwrap_or(0),
            // Sente may still leave a cycle begun before the root: only the
            // fourth occurrence ends the game (see the module docs).
            Variant::Minishogi if earlier < self.root_index() && self.occurrences(key) < 4 => {
                return None;
            }
            Variant::Minishogi if pos.side_to_move() == Side::First => mated_in(ply),
            Variant::Minishogi => mate_in(ply),
            Variant::Shogi | Variant::Annan => 0,
        })
    }

    /// The index of the root's position in `keys`: the game's positions come before it.
    fn root_index(&self) -> usize {
        self.job.history.len().saturating_sub(1)
    }

    /// How many times the line, the game before the root included, reached `key`.
    fn occurrences(&self, key: u64) -> usize {
        self.keys.iter().filter(|&&k| k == key).count()
    }

    /// Whether the move into stack entry `index` chased; `now` is the current position.
    fn chased(&self, now: &P, index: usize) -> bool {
        match self.chases.get(index) {
            Some(Chase::Known(chase)) => *chase,
            Some(Chase::Later(before, mv)) => {
                let after = match self.chases.get(index + 1) {
                    Some(Chase::Later(next, _)) => next,
                    _ => now,
                };
                before.is_chase(*mv, after)
            }
            None => false,
        }
    }

    /// Enters a position of the line.
    fn push(&mut self, key: u64, check: bool, chase: impl FnOnce() -> Chase<P>) {
        self.keys.push(key);
        self.checks.push(check);
        if P::HAS_CHASE_RULE {
            self.chases.push(chase());
        }
    }

    /// Leaves the last position of the line.
    fn pop(&mut self) {
        self.keys.pop();
        self.checks.pop();
        self.chases.pop();
    }

    /// Alpha-beta search of `pos` to `depth` plies, at a node of the
    /// expected kind (see [`Node`]).
    fn search(
        &mut self,
        pos: &P,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        node: Node,
    ) -> i32 {
        let pv_node = node == Node::Pv;
        let cut_node = node == Node::Cut;
        self.pv[ply].clear();
        if depth <= 0 {
            // A level without quiescence (level 1) judges the leaf as it
            // stands, a side without a legal move having lost.
            if !self.job.strength.quiescence {
                self.count_node();
                if pos.legal_moves().is_empty() {
                    return mated_in(ply);
                }
                return self.eval(pos);
            }
            return self.quiescence(pos, alpha, beta, ply, QuiescencePly::First);
        }
        if self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let root = ply == 0;
        if !root {
            if pos.declares_win(self.job.impasse) {
                return mate_in(ply);
            }
            if let Some(score) = self.repetition(pos, ply) {
                return score;
            }
            let plies_played = self.keys.len() - 1;
            let limit = self.job.move_limit as usize;
            if pos.rule_draw() || limit > 0 && plies_played >= limit {
                // A mate on the move that reaches the limit still wins.
                return if pos.legal_moves().is_empty() {
                    mated_in(ply)
                } else {
                    0
                };
            }
            if ply >= MAX_PLY - 1 {
                return self.eval(pos);
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        let key = pos.key();
        // A search that leaves a move out must not take the table's word
        // for the whole node, nor leave its own there.
        let excluded = self.excluded[ply];
        let entry = self.tt.probe(key);
        let tt_move = entry.map_or(0, |e| e.mv);
        if let Some(entry) = entry.filter(|e| !pv_node && excluded == 0 && e.depth >= depth) {
            let score = from_tt(entry.score, ply);
            if entry.bound.settles(score, alpha, beta) {
                return score;
            }
        }

        // Having no legal move loses in all four games, in check or not, and
        // a stalemate must not be pruned away: the moves are generated
        // before any pruning, unless the position surely has one.
        let mut picker = MovePicker::new();
        let surely_has_move = pos.surely_has_move();
        if !surely_has_move {
            picker.generate(pos, MoveSet::All);
            if picker.is_empty() {
                return mated_in(ply);
            }
        }

        let in_check = pos.is_check();
        let us = pos.side_to_move().index();
        // The evaluation without the level's noise, as the table keeps it.
        let raw_eval = (!in_check).then(|| {
            entry
                .and_then(|e| e.eval)
                .unwrap_or_else(|| self.raw_eval(pos))
        });
        // Corrected by what searches found in positions with the same pawns.
        let pawns = raw_eval.and_then(|_| pos.correction_key());
        let corrected = raw_eval.map(|raw| raw + self.tables.correction(us, pawns));
        let static_eval = corrected.map(|corrected| self.with_noise(pos, corrected));
        self.evals[ply] = static_eval;
        let improving = static_eval.is_some_and(|now| self.improving(ply, now));
        // The table's score bounds the evaluation better, where it applies.
        let eval = static_eval.map(|static_eval| match entry {
            Some(entry)
                if !is_mate(entry.score)
                    && entry
                        .bound
                        .settles(from_tt(entry.score, ply), static_eval, static_eval) =>
            {
                from_tt(entry.score, ply)
            }
            _ => static_eval,
        });
        if let Some(eval) = eval.filter(|_| !pv_node && excluded == 0 && !is_mate(beta)) {
            // Reverse futility: far enough above beta near the leaves, stop.
            // Minishogi's evaluation runs at about 2.7 times Fairy-Stockfish's
            // scale, yet its margins as they are suit it: every centipawn
            // margin of pruning and of the aspiration window (these two, the
            // null move's, futility's and quiescence's delta) doubled there
            // scored 60/100 against Fairy-Stockfish at fixed nodes, halved
            // 58/100, where these scored 61/100 on the same openings.
            // (Razoring, the other way round, as Stockfish does: within
            // three plies a static evaluation 250 cp and 150 a ply squared
            // below alpha left to quiescence, scored 31/64 against
            // Fairy-Stockfish in xiangqi on the first 64 of row S's games
            // where this scored 36.5/64: stopped there.)
            if depth <= 6 && eval - 100 * depth + 50 * i32::from(improving) >= beta {
                return eval;
            }
            // Null move: if passing still beats beta, a real move will too. (A ply
            // more of reduction, as Fairy-Stockfish's, scored 38/65 in xiangqi
            // against it at 38,600 nodes against 21,000 where this scored 44.5/65
            // on the same openings. When passing got the side to move mated
            // instead, searching that node's moves without late-move reductions
            // and pruning scored 17/32 in xiangqi against Fairy-Stockfish at fixed
            // nodes, where the same games gave 21/32 without: not done.)
            let after_null = self.keys.len() - 1 == self.null_barrier && self.null_barrier > 0;
            if depth >= 3 && eval >= beta && !after_null {
                if let Some(passed) = pos.pass() {
                    let reduction = 3 + depth / 3 + ((eval - beta) / 200).min(3);
                    self.played[ply] = 0;
                    self.moved[ply] = None;
                    self.push(passed.key(), false, || Chase::Known(false));
                    let barrier = core::mem::replace(&mut self.null_barrier, self.keys.len() - 1);
                    let score = -self.search(
                        &passed,
                        -beta,
                        -beta + 1,
                        depth - 1 - reduction,
                        ply + 1,
                        node.reply(),
                    );
                    self.null_barrier = barrier;
                    self.pop();
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        return if is_mate(score) { beta } else { score };
                    }
                }
            }
        }
        // ProbCut, where the game uses it, unless the table already says the
        // node falls short.
        let probcut_beta = beta + PROBCUT_MARGIN - 50 * i32::from(improving);
        let falls_short =
            entry.is_some_and(|e| e.depth >= depth - 3 && from_tt(e.score, ply) < probcut_beta);
        let probcut =
            self.uses_probcut && !pv_node && excluded == 0 && depth >= 5 && !is_mate(beta);
        if let Some(static_eval) = static_eval.filter(|_| probcut && !falls_short) {
            let see_needed = probcut_beta - static_eval;
            let score = self.probcut(pos, probcut_beta, see_needed, depth, ply, node, raw_eval);
            if self.stopped {
                return 0;
            }
            if let Some(score) = score {
                return score;
            }
        }
        if surely_has_move {
            picker.generate(pos, MoveSet::All);
        }
        // Internal iterative reduction: a node the table knows no move for
        // was not worth searching deeply before; search it a ply shallower.
        let depth = if depth >= 4 && tt_move == 0 {
            depth - 1
        } else {
            depth
        };

        let at = self.context(us, ply);
        let mut best_score = -INFINITY;
        let mut best_move = None;
        // The quiet moves tried, packed and by piece and destination.
        let mut quiets: ArrayVec<(u16, usize), 64> = ArrayVec::new();
        // The captures tried, by capture-history index.
        let mut captures: ArrayVec<usize, 32> = ArrayVec::new();
        let mut quiets_seen = 0;
        let mut index = 0;
        loop {
            let hints = self.tables.hints(at, tt_move, self.killers[ply]);
            let Some((mv, order)) = picker.next(pos, &hints) else {
                break;
            };
            let packed = P::pack(mv);
            if packed == excluded {
                continue;
            }
            index += 1;
            let capture = pos.captured_value(mv).map(|_| pos.capture_index(mv));
            let quiet = capture.is_none() && !pos.is_promotion(mv);
            if quiet {
                quiets_seen += 1;
            }
            // Pruning near the leaves, once a move has kept us from being
            // mated, never at the root nor in check; of a move that gives
            // check only when it gives the piece away (below).
            let prune = !root && !in_check && best_score > -MATE_BOUND && !is_mate(alpha);
            let prunable = prune
                && if quiet {
                    // Late moves and futile moves. (Fairy-Stockfish's rules,
                    // keyed on the depth the move's late-move reduction would
                    // leave (its LMR depth) instead of the node's: prune when
                    // both continuation histories are negative (LMR depth
                    // under 5), when the static evaluation plus 174 cp and
                    // 157 cp an LMR-depth ply falls short of alpha (under 7),
                    // when SEE loses more than (30 − LMR depth) × LMR depth²,
                    // and late moves at every depth. In shogi at 150,000
                    // nodes a move each they searched a ply deeper and scored
                    // the same against Fairy-Stockfish on the same openings,
                    // 40/92; in xiangqi at 38,600 nodes against 21,000 the
                    // same 120.5/189; in minishogi on its book 62/100 where
                    // this scored 63/100.)
                    quiets_seen > late_move_limit(depth, improving)
                        || static_eval.is_some_and(|static_eval| {
                            depth <= 3 && static_eval + 100 + 100 * depth <= alpha
                        })
                        || depth <= 8 && pos.see(mv) < -QUIET_SEE_MARGIN * depth * depth
                } else {
                    depth <= 6
                        && is_losing_capture(order)
                        && pos.see(mv) < -LOSING_SEE_MARGIN * depth
                };
            if prunable && !pos.may_give_check(mv) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let gives_check = child.is_check();
            if prunable && !gives_check {
                continue;
            }
            // A check that loses material by SEE, in the drop games: there
            // most checks are drops next to the king, and most of those just
            // give the piece away. Near the leaves one that loses more than
            // [`LOSING_SEE_MARGIN`] a ply is pruned, as Stockfish prunes
            // losing checks (a mating sacrifice is found a few iterations
            // later, further from the horizon); the others are reduced like
            // quiet moves. (In xiangqi the same scored 45% ± 13% against
            // searching every check in full, so it is not done there. In
            // minishogi searching losing checks as the others, neither
            // pruned nor reduced and extended, scored 42/100 against
            // Fairy-Stockfish at fixed nodes where this scored 61/100 on the
            // same openings; not pruning them alone 58/100.)
            let check_see = (P::DROPS && gives_check).then(|| pos.see(mv));
            let losing_check = check_see.is_some_and(|see| see < 0);
            if prune && depth <= 6 && check_see.is_some_and(|see| see < -LOSING_SEE_MARGIN * depth)
            {
                continue;
            }
            // Check extension; in the drop games, where checks by drops are
            // many, only for checks that do not just give the piece away.
            // Not at the last ply: there the checked side's replies go to
            // quiescence anyway, and extending each check of a king hunt
            // there multiplied one shogi tree tenfold. (Without check
            // extensions minishogi scored 52/100 against Fairy-Stockfish at
            // fixed nodes where they scored 61/100 on the same openings.)
            // In shogi only far from the leaves
            // ([`Worker::extends_checks_far_from_leaves`]).
            let may_extend = (ply as i32) < 2 * self.root_depth;
            let extends_check = if self.extends_checks_far_from_leaves {
                depth >= 7 && static_eval.is_none_or(|eval| eval.abs() > 100)
            } else {
                depth >= 2
            };
            let mut extension =
                i32::from(may_extend && extends_check && gives_check && !losing_check);
            // Singular extension: the table's move, when every other move
            // falls well short of its score in a shallower search, is the
            // only move here and is searched a ply deeper. When even the
            // others beat beta, several moves refute the node (multi-cut).
            // (Two plies when the others fall 20 cp further short, at most
            // six times a line, and a ply less for a table move that is not
            // singular yet expected to cut off, as Stockfish does, scored
            // 29/55 against Fairy-Stockfish in shogi at ten times row F's
            // node budgets where this scored 33/55 on the same openings.
            // From depth 6 in minishogi: 36/54 against Fairy-Stockfish at
            // row U's budgets where from depth 8 scored 38/54.)
            if let Some(entry) = entry.filter(|e| {
                packed == tt_move
                    && !root
                    && excluded == 0
                    && depth >= 8
                    && e.depth >= depth - 3
                    && e.bound != Bound::Upper
                    && !is_mate(e.score)
            }) {
                let singular_beta = from_tt(entry.score, ply) - 2 * depth;
                self.excluded[ply] = packed;
                let score = self.search(
                    pos,
                    singular_beta - 1,
                    singular_beta,
                    (depth - 1) / 2,
                    ply,
                    if cut_node { Node::Cut } else { Node::All },
                );
                self.excluded[ply] = 0;
                if self.stopped {
                    return 0;
                }
                if score < singular_beta {
                    extension = i32::from(may_extend);
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
            let new_depth = depth - 1 + extension;
            // Late-move reductions: quiet moves and losing captures late in
            // the order, less for good history, more when not improving;
            // checks only when they lose material. (A ply more off the
            // principal variation, with every capture reduced there, as
            // Fairy-Stockfish does at nodes never on it, scored 19/50
            // against Fairy-Stockfish in shogi at 150,000 nodes a move each
            // where this scored 18/50 on the same openings; with two plies
            // less where the table marks a node as once on the principal
            // variation, 38.5/61 in xiangqi at 38,600 nodes against 21,000
            // where this scored 42.5/61.)
            let mut reduction = 0;
            let late = index > 1 + 2 * usize::from(pv_node);
            let reducible = (quiet || is_losing_capture(order)) && (!gives_check || losing_check);
            if depth >= 3 && late && reducible {
                reduction = i32::from(self.reductions[depth.min(63) as usize][index.min(63)]);
                reduction += i32::from(!improving);
                reduction -= i32::from(pv_node) + i32::from(in_check);
                if quiet {
                    if cut_node {
                        reduction += self.cut_node_reduction;
                    }
                    // (A ply more when the table's move is a capture, as
                    // Stockfish reduces, scored 69.5/120 against
                    // Fairy-Stockfish in xiangqi on row S's openings where
                    // this scored 76/120, and 55/106 against 54/106 in
                    // minishogi on row T's openings: not done. Nor a ply
                    // more once the children of this node and of its
                    // siblings searched before it have cut off more than
                    // three times, Stockfish's cutoff count: 34.5/62 on the
                    // first 62 of row S's games where this scored 35.5/62.)
                    reduction -= i32::from(is_refutation(order));
                    // The history as it stands now: the moves searched
                    // since ordering may have changed it.
                    let hints = self.tables.hints(at, tt_move, self.killers[ply]);
                    reduction -= hints.quiet_score(pos, mv) * self.history_reduction / HISTORY_MAX;
                }
                reduction = reduction.clamp(0, (new_depth - 1).max(0));
            }
            let piece_to = pos.piece_to(mv);
            self.played[ply] = packed;
            self.moved[ply] = Some(piece_to);
            self.push(child.key(), gives_check, || Chase::Later(pos.clone(), mv));
            let score = if index == 1 {
                -self.search(&child, -beta, -alpha, new_depth, ply + 1, node.reply())
            } else {
                // A later move is expected to fail low, its reply to cut off.
                let reply = if pv_node { Node::Cut } else { node.reply() };
                let mut score = -self.search(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    ply + 1,
                    if reduction > 0 { Node::Cut } else { reply },
                );
                // A reduced move that beats alpha is searched again in full.
                // (A ply deeper when it beat the best score by 40 cp and 2 a
                // ply, a ply shallower within 10 cp, with the verdict taught
                // to the continuation histories, as Stockfish does, scored
                // 72.5/120 against Fairy-Stockfish in xiangqi on row S's
                // openings where this scored 76/120, though 70/100 against
                // 64/100 at row I's shallower budgets, 43/50 against 40/50
                // in shogi at row F's and 55/106 against 54/106 in minishogi
                // on row T's openings: not done.)
                if score > alpha && reduction > 0 {
                    score = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, reply);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.search(&child, -beta, -alpha, new_depth, ply + 1, Node::Pv);
                }
                score
            };
            self.pop();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if root {
                        self.root_score = score;
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(at, ply, (packed, piece_to), &quiets, depth);
                        }
                        self.tables.reward_captures(capture, &captures, depth);
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets.try_push((packed, piece_to));
            }
            if let Some(capture) = capture {
                let _ = captures.try_push(capture);
            }
        }
        if excluded != 0 {
            // Only the excluded move was left: the node is singular.
            return if best_score == -INFINITY {
                alpha
            } else {
                best_score
            };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A score beyond the corrected evaluation, in the direction its
        // bound tells, shows how far the evaluation errs with these pawns;
        // not a capture's, which the material it wins explains.
        if let (Some(raw), Some(corrected), Some(pawns)) = (raw_eval, corrected, pawns) {
            let beyond = match bound {
                Bound::Lower => best_score > corrected,
                Bound::Upper => best_score < corrected,
                Bound::Exact => true,
            };
            let quiet = best_move.is_none_or(|mv| pos.captured_value(mv).is_none());
            if beyond && quiet && !is_mate(best_score) {
                self.tables.correct(us, pawns, best_score - raw, depth);
            }
        }
        self.tt.store(
            key,
            best_move.map_or(0, P::pack),
            to_tt(best_score, ply),
            depth,
            bound,
            raw_eval,
        );
        best_score
    }

    /// ProbCut: a capture that scores `probcut_beta` (beta and a margin,
    /// [`PROBCUT_MARGIN`]) in a search four plies shallower, once quiescence
    /// agrees, would beat beta in the full search too, so the node is cut
    /// for the price of a few captures' shallow searches. Only captures that
    /// win `see_needed` by SEE (what takes the static evaluation to
    /// `probcut_beta`) are tried. The cut is stored as a lower bound, with
    /// the position's evaluation `eval`.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's own search arguments, passed on"
    )]
    fn probcut(
        &mut self,
        pos: &P,
        probcut_beta: i32,
        see_needed: i32,
        depth: i32,
        ply: usize,
        node: Node,
        eval: Option<i32>,
    ) -> Option<i32> {
        let mut picker = MovePicker::new();
        picker.generate(pos, MoveSet::Tactical);
        let at = self.context(pos.side_to_move().index(), ply);
        loop {
            let hints = self.tables.hints(at, 0, self.killers[ply]);
            let (mv, _) = picker.next_tactical(pos, &hints)?;
            if pos.captured_value(mv).is_none() || pos.see(mv) < see_needed {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            self.played[ply] = P::pack(mv);
            self.moved[ply] = Some(pos.piece_to(mv));
            self.push(child.key(), child.is_check(), || {
                Chase::Later(pos.clone(), mv)
            });
            let (alpha, beta) = (-probcut_beta, -probcut_beta + 1);
            // Depth 0: quiescence, or at a level without it the evaluation.
            let mut score = -self.search(&child, alpha, beta, 0, ply + 1, node.reply());
            if score >= probcut_beta {
                score = -self.search(&child, alpha, beta, depth - 4, ply + 1, node.reply());
            }
            self.pop();
            if self.stopped {
                return None;
            }
            if score >= probcut_beta {
                let stored = to_tt(score, ply);
                self.tt.store(
                    pos.key(),
                    P::pack(mv),
                    stored,
                    depth - 3,
                    Bound::Lower,
                    eval,
                );
                return Some(score);
            }
        }
    }

    /// Quiescence: captures that do not lose material by SEE (every evasion
    /// when in check), until the position is quiet and its static evaluation
    /// can be trusted. At its first ply (`first`) it also tries up to
    /// [`QUIESCENCE_CHECKS`] quiet checking moves (and drops) that SEE says
    /// do not lose the piece, so that a mate just beyond the horizon is
    /// seen; the evasions that follow are searched in full. The drop games
    /// find their checks among all the moves, generated there for the drops;
    /// xiangqi generates only its candidates
    /// ([`Searchable::quiet_check_candidates`]), since generating and playing
    /// every move there halved the nodes searched a second (tried at every
    /// quiescence ply). Only in check, or at the first ply of a drop game,
    /// are all moves generated, so a stalemate (a loss in these games) is
    /// seen here only there; the full-width search sees every one.
    ///
    /// Evasions are recorded in the line, and a position an evasion reaches
    /// is judged at once if it repeats: checks answered by counter-checks
    /// (xiangqi's generals and cannons) could otherwise cycle to the ply
    /// limit, a tree that no node budget of a first iteration covered.
    fn quiescence(
        &mut self,
        pos: &P,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stage: QuiescencePly,
    ) -> i32 {
        self.pv[ply].clear();
        if self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.eval(pos);
        }
        if stage == QuiescencePly::AfterEvasion
            && let Some(score) = self.repetition(pos, ply)
        {
            return score;
        }
        let first = stage == QuiescencePly::First;
        // The main search's result for this position, any depth, is better
        // informed than quiescence; its evaluation saves computing one.
        // (Storing quiescence's own results too, at depth 0 so that they
        // settle only quiescence and lend the main search a move and an
        // evaluation, as Stockfish does, scored 40.5/80 against
        // Fairy-Stockfish in xiangqi on the first 80 of row S's games where
        // this scored 48/80, 40/50 in shogi on row F's `--seed 37` openings
        // (40/50) and 61/106 in minishogi on row T's (54/106); without the
        // upper bounds of the later plies, which lack the first ply's quiet
        // checks, 63.5/120 on row S's (76/120) and 51/106 on row T's: not
        // done.)
        let entry = self.tt.probe(pos.key());
        if let Some(entry) = entry {
            let score = from_tt(entry.score, ply);
            if entry.bound.settles(score, alpha, beta) {
                return score;
            }
        }
        let in_check = pos.is_check();
        let mut best = -INFINITY;
        let mut stand_pat = 0;
        if !in_check {
            let raw = entry
                .and_then(|e| e.eval)
                .unwrap_or_else(|| self.raw_eval(pos));
            let us = pos.side_to_move().index();
            let corrected = raw + self.tables.correction(us, pos.correction_key());
            stand_pat = self.with_noise(pos, corrected);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        // Beyond evasions and the first ply's quiet checks, quiescence tries
        // only captures and promotions: the rest is not even generated.
        let set = match in_check || (first && P::DROPS) {
            true => MoveSet::All,
            false => MoveSet::Tactical,
        };
        let mut picker = MovePicker::new();
        picker.generate(pos, set);
        // Without a capture, the first ply still tries its quiet checks.
        if picker.is_empty() && (set == MoveSet::All || !first) {
            return if set == MoveSet::All {
                mated_in(ply)
            } else {
                best
            };
        }
        // Only evasions are quiet here; the line's moves are not recorded in
        // quiescence, so there is no continuation to follow.
        let at = Context {
            us: pos.side_to_move().index(),
            previous: 0,
            rows: [None; 2],
        };
        loop {
            let hints = self.tables.hints(at, 0, [0; 2]);
            // Out of check, only the captures and promotions that lose
            // nothing: the quiet moves are not even scored.
            let picked = if in_check {
                picker.next(pos, &hints)
            } else {
                picker.next_tactical(pos, &hints)
            };
            let Some((mv, _)) = picked else {
                break;
            };
            if !in_check {
                // Delta pruning: even winning the piece outright cannot raise alpha.
                // (Fixed board values although a capture in minishogi gains the
                // tuned board and hand values, a pawn 445 cp: the side to move's
                // tempo, 291 cp there, goes over to the opponent too. On the
                // minishogi book against Fairy-Stockfish at fixed nodes, victim
                // and margin doubled there scored 54/100, halved 56/100, and
                // promotions that capture nothing tried too (they are skipped)
                // 56/100, where these scored 57/100.)
                match pos.captured_value(mv) {
                    Some(victim) if stand_pat + victim + 200 > alpha => {}
                    _ => continue,
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let score = if in_check {
                self.push(child.key(), child.is_check(), || {
                    Chase::Later(pos.clone(), mv)
                });
                let score =
                    -self.quiescence(&child, -beta, -alpha, ply + 1, QuiescencePly::AfterEvasion);
                self.pop();
                score
            } else {
                -self.quiescence(&child, -beta, -alpha, ply + 1, QuiescencePly::Later)
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        return best;
                    }
                }
            }
        }
        if in_check || !first {
            return best;
        }
        // The quiet checks, in generation order: in the drop games among
        // the moves generated above, in xiangqi from its own generator.
        let mut candidates = MoveList::new();
        let quiet: &[P::Move] = if P::DROPS {
            picker.rest()
        } else {
            pos.quiet_check_candidates(&mut candidates);
            &candidates
        };
        let mut tried = 0;
        for &mv in quiet {
            if tried == QUIESCENCE_CHECKS {
                break;
            }
            let candidate = !P::DROPS || pos.captured_value(mv).is_none() && pos.may_check(mv);
            if !candidate || pos.see(mv) < 0 {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if !child.is_check() {
                continue;
            }
            tried += 1;
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, QuiescencePly::Later);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// `pv[ply]` becomes `mv` followed by the child's line.
    fn update_pv(&mut self, ply: usize, mv: P::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        for &next in &tail[0] {
            if line.try_push(next).is_err() {
                break;
            }
        }
    }

    /// Where the node at `ply`, with `us` to move, stands in the line.
    fn context(&self, us: usize, ply: usize) -> Context {
        Context {
            us,
            previous: if ply > 0 { self.played[ply - 1] } else { 0 },
            rows: [1, 2].map(|back| ply.checked_sub(back).and_then(|p| self.moved[p])),
        }
    }

    /// A quiet move (packed, and by piece and destination) cut off: make it
    /// a killer and reward it in the histories.
    fn reward_quiet(
        &mut self,
        at: Context,
        ply: usize,
        best: (u16, usize),
        tried: &[(u16, usize)],
        depth: i32,
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != best.0 {
            killers[1] = killers[0];
            killers[0] = best.0;
        }
        self.tables.reward(at, best, tried, depth);
    }
}

/// How many quiet moves a node at `depth` tries before it prunes the rest
/// (late-move pruning), fewer when the side to move is not improving.
/// (Pruning so at every depth, as Stockfish does, scored 21/50 against
/// Fairy-Stockfish in shogi at 150,000 nodes a move each, where pruning
/// within seven plies scored 18/50 on the same openings: too few games to
/// keep it on.)
fn late_move_limit(depth: i32, improving: bool) -> usize {
    if depth > 7 {
        return usize::MAX;
    }
    let limit = 3 + depth * depth;
    (if improving { limit } else { limit / 2 }) as usize
}

/// SplitMix64's finaliser: a well-mixed hash of `x`.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use rules::{Position as _, Settings, shogi, xiangqi};

    use super::*;
    use crate::Level;

    /// The main thread of a search of `job`, with fresh move tables.
    fn worker<'a, P: Searchable>(
        job: &'a Job<P>,
        tt: &'a TranspositionTable,
        control: &'a Control,
    ) -> Worker<'a, P> {
        let tables = HistoryPool::default().take::<P>();
        Worker::new(job, tt, control, Instant::now(), 0, tables)
    }

    /// A search of `root` at full strength after `history`, with no limits.
    fn job<P: Searchable>(root: P, history: Vec<Reached>) -> Job<P> {
        Job {
            history,
            root,
            limits: Limits::default(),
            strength: Level::MAX.strength(),
            impasse: Impasse::Off,
            move_limit: 0,
            seed: 0,
            threads: 1,
        }
    }

    /// A search of `root` as the first position of a new game.
    fn new_game<P: Searchable>(root: P) -> Job<P> {
        let reached = Reached {
            key: root.key(),
            check: false,
            chase: false,
        };
        job(root, vec![reached])
    }

    /// A xiangqi self-play game (Red's ICCS moves first) up to a position
    /// whose quiescence answered checks with counter-checks to the ply limit.
    const COUNTER_CHECKS: &str = "b2g2 i9i8 h2h6 g9e7 h6h9 f9e8 a0a2 i8i9 h9h8 i9h9 h8i8 h7g7 h0i2 b9a7 i0h0 h9h0 i2h0 \
         b7b5 a2d2 b5e5 g2e2 a9b9 b0a2 e5c5 d0e1 c5c0 e2e6 c0a0 i8g8 b9b0 d2d0 b0d0 e0d0 a6a5 \
         a2c1 a0c0 c1b3 c0a0 e6i6 a7b5 i6i9 e8f7 g8g9 e9e8 g9g6 b5a3 h0i2 a5a4 c3c4 a4b4 b3d4 \
         b4c4 d4c6 a3c2 d0e0 c2b0 e1d0 b0a2 e0e1 a2c1 e1f1 a0a1 d0e1 g7g8 g6e6 e7g9 i9i8 e8e9 \
         e6f6 g8g0 f1f2 c4c3 i8i9 e9e8 c6e5 c3d3 e5c4 e8d8 i9i5 d3e3 c4e3 g0i0 f6f3 a1b1 i5d5 \
         d8e8 e3f5 c1d3 f3e3 b1b8 f5d6 e8e9 d6f7 e9f9 f2e2 f9f8 f7d8 b8b2 i2g1 b2a2 d8e6 c9e7 \
         e3e7 d3b2 e1d2 i0g0 e7a7 f8e8 d5e5 g9e7 g1f3 b2c0 d2e1 g0g2 e6c7 e8d8 c7b9 d8d7 e5d5 \
         e7c9 d5d0";

    #[test]
    fn quiescence_ends_a_cycle_of_counter_checks() {
        let mut root = xiangqi::Position::startpos();
        for text in COUNTER_CHECKS.split_whitespace() {
            let mv = root.parse_move(text).unwrap();
            root.play_unchecked(mv);
        }
        let mut job = new_game(root);
        job.limits.nodes = Some(1_000_000);
        let (tt, control) = (TranspositionTable::new(1), Control::default());
        let mut worker = worker(&job, &tt, &control);
        // One ply and quiescence, as a second iteration (the node limit applies).
        worker.root_depth = 2;
        worker.search(&job.root, -INFINITY, INFINITY, 1, 0, Node::Pv);
        assert!(!worker.stopped, "{} nodes", worker.nodes);
        assert!(worker.seldepth < 40, "seldepth {}", worker.seldepth);
    }

    #[test]
    fn a_node_limit_stops_the_first_iteration_once_it_has_a_move() {
        // Depth 1 of the start position searches at least its 30 moves.
        let root = shogi::Position::startpos(Variant::Shogi, &Settings::default());
        let mut job = new_game(root.clone());
        job.limits.nodes = Some(3);
        let (tt, control) = (TranspositionTable::new(1), Control::default());
        let mut worker = worker(&job, &tt, &control);
        let line = worker.iterate(None).expect("a move");
        assert!(worker.nodes < 10, "{} nodes", worker.nodes);
        assert!(root.legal_moves().contains(&line[0]));
    }

    fn verdict(variant: Variant, checks: [bool; 5]) -> Option<i32> {
        let root = shogi::Position::startpos(variant, &Settings::default());
        let job = new_game(root);
        let (tt, control) = (TranspositionTable::new(1), Control::default());
        let mut worker = worker(&job, &tt, &control);
        // Position 4 repeats position 0; Sente is to move at both.
        worker.keys = vec![1, 2, 3, 4, 1];
        worker.checks = checks.to_vec();
        worker.repetition(&job.root, 4)
    }

    #[test]
    fn a_repetition_is_scored_by_the_variant() {
        // Moves into positions 1 and 3 were Sente's, into 2 and 4 Gote's.
        let sente_checked = [false, true, false, true, false];
        let gote_checked = [false, false, true, false, true];
        let quiet = [false; 5];
        let both = [true; 5];
        for variant in [Variant::Shogi, Variant::Annan, Variant::Minishogi] {
            // The perpetual checker loses, whoever is to move.
            assert_eq!(verdict(variant, sente_checked), Some(mated_in(4)));
            assert_eq!(verdict(variant, gote_checked), Some(mate_in(4)));
            assert_eq!(verdict(variant, both), Some(0));
        }
        assert_eq!(verdict(Variant::Shogi, quiet), Some(0));
        assert_eq!(verdict(Variant::Annan, quiet), Some(0));
        // Minishogi: a plain repetition loses for Sente.
        assert_eq!(verdict(Variant::Minishogi, quiet), Some(mated_in(4)));
    }

    /// The repetition verdict in minishogi, Sente to move and no checks,
    /// after the game's positions `game` (the root last) and the line's `line`.
    fn minishogi_recurrence(game: &[u64], line: &[u64]) -> Option<i32> {
        let root = shogi::Position::startpos(Variant::Minishogi, &Settings::default());
        let history = game
            .iter()
            .map(|&key| Reached {
                key,
                check: false,
                chase: false,
            })
            .collect();
        let job = job(root, history);
        let (tt, control) = (TranspositionTable::new(1), Control::default());
        let mut worker = worker(&job, &tt, &control);
        worker.keys = [game, line].concat();
        worker.checks = vec![false; worker.keys.len()];
        worker.repetition(&job.root, line.len())
    }

    #[test]
    fn a_minishogi_position_from_before_the_root_recurs_without_a_verdict() {
        // The game reached position 1 before the root (3): its second
        // occurrence, in the line, ends nothing.
        assert_eq!(minishogi_recurrence(&[1, 2, 3], &[4, 1]), None);
        // Its fourth ends the game: Sente, to move, loses.
        let three_times = [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3];
        assert_eq!(
            minishogi_recurrence(&three_times, &[4, 1]),
            Some(mated_in(2))
        );
        // A position of the line recurring in the line is a verdict at once.
        assert_eq!(minishogi_recurrence(&[1], &[2, 3, 4, 1]), Some(mated_in(4)));
    }

    /// Gote's rook stands on 5f, where Sente's pawn takes it for nothing.
    const ROOK_EN_PRISE: &str = "lnsgkgsnl/7b1/ppppppppp/9/9/4r4/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    /// ProbCut at depth 5 of `sfen`'s shogi position, its beta 250 above
    /// the static evaluation, trying the captures that win `see_needed`;
    /// and the table's entry for the position afterwards.
    fn probcut_of(sfen: &str, see_needed: i32) -> (Option<i32>, i32, Option<crate::tt::Probe>) {
        let root = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap();
        let job = new_game(root);
        let (tt, control) = (TranspositionTable::new(1), Control::default());
        let mut worker = worker(&job, &tt, &control);
        let eval = worker.raw_eval(&job.root);
        let probcut_beta = eval + PROBCUT_MARGIN;
        let score = worker.probcut(
            &job.root,
            probcut_beta,
            see_needed,
            5,
            0,
            Node::Cut,
            Some(eval),
        );
        (score, probcut_beta, tt.probe(job.root.key()))
    }

    #[test]
    fn probcut_cuts_on_a_capture_that_wins_a_rook() {
        let (score, probcut_beta, entry) = probcut_of(ROOK_EN_PRISE, PROBCUT_MARGIN);
        assert!(
            score.is_some_and(|score| score >= probcut_beta),
            "{score:?}"
        );
        let entry = entry.expect("the cut is stored");
        assert_eq!(entry.bound, Bound::Lower);
        assert_eq!(entry.depth, 2);
        let pawn_takes_rook = shogi::Move::from_usi("5g5f").unwrap();
        assert_eq!(
            entry.mv,
            <shogi::Position as Searchable>::pack(pawn_takes_rook)
        );
    }

    #[test]
    fn probcut_tries_only_captures_that_win_what_the_evaluation_lacks() {
        // Winning the rook (its board and hand values) falls short of this.
        let (score, _, entry) = probcut_of(ROOK_EN_PRISE, 5_000);
        assert_eq!(score, None);
        assert!(entry.is_none());
    }

    /// The repetition verdict at the root of a xiangqi game whose positions
    /// cycled through keys 1 to 4 until key 1, Red to move, stood there
    /// `occurrences` times; `chases` and `checks` tell which of the cycle's
    /// moves from key 1 on (Red's, Black's, Red's, Black's) chased and checked.
    fn xiangqi_recurrence(occurrences: usize, chases: [bool; 4], checks: [bool; 4]) -> Option<i32> {
        let root = rules::xiangqi::Position::startpos();
        let history = (0..=4 * (occurrences - 1))
            .map(|index| {
                let cycle = (index + 3) % 4;
                Reached {
                    key: [1, 2, 3, 4][index % 4],
                    check: index > 0 && checks[cycle],
                    chase: index > 0 && chases[cycle],
                }
            })
            .collect();
        let (tt, control) = (TranspositionTable::new(1), Control::default());
        let job = job(root, history);
        let worker = worker(&job, &tt, &control);
        worker.repetition(&job.root, 0)
    }

    #[test]
    fn a_perpetual_chase_loses_in_xiangqi() {
        let quiet = [false; 4];
        for (chases, expected) in [
            ([true, false, true, false], mated_in(0)),
            ([false, true, false, true], mate_in(0)),
            ([true; 4], 0),
            (quiet, 0),
        ] {
            assert_eq!(
                xiangqi_recurrence(3, chases, quiet),
                Some(expected),
                "{chases:?}"
            );
        }
        // A check counts as a chase; a perpetual check loses first.
        let red_checks = [true, false, true, false];
        let black_chases = [false, true, false, true];
        assert_eq!(
            xiangqi_recurrence(3, black_chases, red_checks),
            Some(mated_in(0))
        );
    }

    #[test]
    fn a_xiangqi_cycle_from_before_the_root_ends_only_at_its_third_occurrence() {
        let black_checks = [false, true, false, true];
        assert_eq!(xiangqi_recurrence(2, [false; 4], black_checks), None);
        assert_eq!(
            xiangqi_recurrence(3, [false; 4], black_checks),
            Some(mate_in(0))
        );
        assert_eq!(xiangqi_recurrence(2, [false; 4], [false; 4]), None);
        // A position of the line recurring in the line is a verdict at once.
        let root = rules::xiangqi::Position::startpos();
        let job = job(root, Vec::new());
        let (tt, control) = (TranspositionTable::new(1), Control::default());
        let mut worker = worker(&job, &tt, &control);
        worker.keys = vec![1, 2, 3, 4, 1];
        worker.checks = vec![false, false, true, false, true];
        worker.chases = (0..5).map(|_| Chase::Known(false)).collect();
        assert_eq!(worker.repetition(&job.root, 4), Some(mate_in(4)));
    }

    /// Quiescence's first ply finds the mate by a quiet move in `root`;
    /// deeper plies try only captures, so they stand pat.
    fn assert_only_the_first_quiescence_ply_mates<P: Searchable>(root: P) {
        let job = job(root, Vec::new());
        let (tt, control) = (TranspositionTable::new(1), Control::default());
        let mut worker = worker(&job, &tt, &control);
        let first = worker.quiescence(&job.root, -INFINITY, INFINITY, 0, QuiescencePly::First);
        assert_eq!(first, mate_in(1));
        let deeper = worker.quiescence(&job.root, -INFINITY, INFINITY, 0, QuiescencePly::Later);
        assert!(!is_mate(deeper));
    }

    #[test]
    fn quiescence_finds_a_mate_by_a_drop() {
        // G*5b, guarded by the pawn on 5c, mates: quiet, so only the quiet
        // checks of the first quiescence ply find it.
        let sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
        let root = shogi::Position::from_sfen(sfen, Variant::Shogi, Default::default()).unwrap();
        assert_only_the_first_quiescence_ply_mates(root);
    }

    #[test]
    fn quiescence_finds_a_mate_by_a_quiet_check_in_xiangqi() {
        // Nc8 (b6c8), a quiet move, mates: the general's own advisors and
        // horse box it in and nothing can take the horse or block its leg.
        let fen = "3aka3/4n4/9/1N7/9/9/9/9/9/3K5 w - - 0 1";
        assert_only_the_first_quiescence_ply_mates(
            rules::xiangqi::Position::from_fen(fen).unwrap(),
        );
    }

    #[test]
    fn mate_scores_survive_the_table() {
        for ply in [0, 3, 17] {
            for score in [mate_in(25), mated_in(30), 123, -45] {
                assert_eq!(from_tt(to_tt(score, ply), ply), score);
            }
        }
        assert_eq!(report(mate_in(3)), Score::Mate(3));
        assert_eq!(report(mated_in(2)), Score::Mate(-2));
        assert_eq!(report(-250), Score::Cp(-250));
    }
}
