//! The time manager: how long the main worker may think about one move.
//!
//! Two budgets, as in most engines: a *soft* one, checked between iterations
//! (do not start an iteration that probably cannot finish), and a *hard* one,
//! checked during the search (stop now, whatever the state).

use std::time::{Duration, Instant};

use rules::Side;

use crate::Limits;

/// Time kept back from a clock's budgets for the protocol round trip: a
/// move that arrives late loses the game.
const OVERHEAD: Duration = Duration::from_millis(30);
/// Time kept back from a `movetime`: nothing is lost by answering a little
/// late, so the search stops about when asked, as Stockfish's does (the
/// clock is read every 1,024 nodes, a few milliseconds).
const MOVE_TIME_MARGIN: Duration = Duration::from_millis(3);
/// Moves assumed to remain when the clock gives no `movestogo`.
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// An iteration is not started once this share of the soft budget is used.
const NEXT_ITERATION_SHARE: f64 = 0.55;

/// The budgets of one search, from its start.
#[derive(Clone, Debug)]
pub(crate) struct TimeManager {
    start: Instant,
    budgets: Budgets,
}

impl TimeManager {
    /// Budgets for `us` under `limits`, counted from `start`.
    pub(crate) fn new(limits: &Limits, us: Side, start: Instant) -> TimeManager {
        TimeManager {
            start,
            budgets: budgets(limits, us),
        }
    }

    /// A manager without budgets (ponder before `ponderhit`, infinite).
    pub(crate) fn unlimited(start: Instant) -> TimeManager {
        TimeManager {
            start,
            budgets: Budgets::default(),
        }
    }

    /// Time since the search (or `ponderhit`) started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The hard budget is spent: stop searching now.
    pub(crate) fn out_of_time(&self) -> bool {
        self.budgets.out_of_time(self.elapsed())
    }

    /// Enough of the soft budget is spent that a new iteration would not finish.
    pub(crate) fn iteration_too_late(&self) -> bool {
        self.budgets.iteration_too_late(self.elapsed())
    }
}

/// How long one search may take; `None` for no time limit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Budgets {
    /// Checked between iterations: what the move should take.
    soft: Option<Duration>,
    /// Checked during the search: what the move may take at most.
    hard: Option<Duration>,
    /// Time that is lost unless this move uses it (the byoyomi): no
    /// iteration is refused before it is spent, whatever the soft budget
    /// says, since stopping early saves nothing for later moves.
    free: Duration,
}

impl Budgets {
    fn out_of_time(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|hard| elapsed >= hard)
    }

    fn iteration_too_late(&self, elapsed: Duration) -> bool {
        self.soft.is_some_and(|soft| {
            elapsed >= soft.mul_f64(NEXT_ITERATION_SHARE) && elapsed >= self.free
        })
    }
}

/// The budgets of a search for `us` under `limits`.
fn budgets(limits: &Limits, us: Side) -> Budgets {
    if limits.infinite {
        return Budgets::default();
    }
    if let Some(move_time) = limits.move_time {
        // `movetime` asks for exactly that long: no soft budget.
        let budget = move_time
            .saturating_sub(MOVE_TIME_MARGIN)
            .max(Duration::from_millis(1));
        return Budgets {
            hard: Some(budget),
            ..Budgets::default()
        };
    }
    let left = limits.time_of(us);
    let byoyomi = limits.byoyomi;
    if left.is_none() && byoyomi.is_zero() {
        return Budgets::default();
    }
    let left = left.unwrap_or_default();
    let increment = limits.increment[us.index()];
    let moves_to_go = limits
        .moves_to_go
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .clamp(1, 60);
    let soft = left / moves_to_go + increment * 3 / 4 + byoyomi;
    let hard = (soft * 4).min(left * 3 / 4 + byoyomi);
    let floor = Duration::from_millis(1);
    let hard = hard.saturating_sub(OVERHEAD).max(floor);
    Budgets {
        soft: Some(soft.saturating_sub(OVERHEAD).max(floor)),
        hard: Some(hard),
        free: byoyomi.saturating_sub(OVERHEAD).min(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Soft and hard budgets alone, for the tests that need nothing else.
    fn soft_hard(budgets: &Budgets) -> (Option<Duration>, Option<Duration>) {
        (budgets.soft, budgets.hard)
    }

    #[test]
    fn byoyomi_alone_is_searched_to_its_end() {
        let limits = Limits {
            time: [Some(Duration::ZERO), Some(Duration::ZERO)],
            byoyomi: ms(1000),
            ..Limits::default()
        };
        let budgets = budgets(&limits, Side::First);
        assert_eq!(
            budgets,
            Budgets {
                soft: Some(ms(970)),
                hard: Some(ms(970)),
                free: ms(970),
            }
        );
        // An unused byoyomi is lost: past 55% of it an iteration still
        // starts (it stopped there before), and only the hard budget ends it.
        assert!(!budgets.iteration_too_late(ms(600)));
        assert!(!budgets.iteration_too_late(ms(969)));
        assert!(budgets.iteration_too_late(ms(970)));
        assert!(!budgets.out_of_time(ms(969)));
        assert!(budgets.out_of_time(ms(970)));
    }

    #[test]
    fn main_time_with_byoyomi_spends_the_byoyomi_before_stopping_early() {
        let limits = Limits {
            time: [Some(ms(60_000)), Some(ms(300))],
            byoyomi: ms(1000),
            ..Limits::default()
        };
        // Plenty of main time: a thirtieth of it on top of the byoyomi.
        let plenty = budgets(&limits, Side::First);
        assert_eq!(soft_hard(&plenty), (Some(ms(2970)), Some(ms(11_970))));
        assert!(!plenty.iteration_too_late(ms(1600)));
        assert!(plenty.iteration_too_late(ms(1700)));
        // Little main time: the byoyomi is the least a move takes.
        let little = budgets(&limits, Side::Second);
        assert_eq!(soft_hard(&little), (Some(ms(980)), Some(ms(1195))));
        assert!(!little.iteration_too_late(ms(600)));
        assert!(little.iteration_too_late(ms(970)));
    }

    #[test]
    fn main_time_is_spread_over_the_remaining_moves() {
        let limits = Limits {
            time: [Some(ms(60_000)), Some(ms(1_000))],
            ..Limits::default()
        };
        let spread = budgets(&limits, Side::First);
        assert_eq!(
            soft_hard(&spread),
            (Some(ms(2000 - 30)), Some(ms(8000 - 30)))
        );
        // Without byoyomi nothing is free: no iteration starts past 55% of
        // the soft budget, the time saved going to later moves.
        assert_eq!(spread.free, Duration::ZERO);
        assert!(!spread.iteration_too_late(ms(1080)));
        assert!(spread.iteration_too_late(ms(1090)));
        // The hard budget never exceeds three quarters of what is left.
        let limits = Limits {
            moves_to_go: Some(2),
            ..limits
        };
        let (_, hard) = soft_hard(&budgets(&limits, Side::Second));
        assert_eq!(hard, Some(ms(750 - 30)));
    }

    #[test]
    fn move_time_is_searched_in_full() {
        let move_time = Limits {
            move_time: Some(ms(300)),
            ..Limits::default()
        };
        let budgets = budgets(&move_time, Side::Second);
        assert_eq!(soft_hard(&budgets), (None, Some(ms(297))));
        // No soft budget: iterations start until the hard budget stops one.
        assert!(!budgets.iteration_too_late(ms(296)));
        assert!(!budgets.out_of_time(ms(296)));
        assert!(budgets.out_of_time(ms(297)));
    }

    #[test]
    fn depth_node_and_infinite_limits_have_no_clock() {
        for limits in [
            Limits::depth(5),
            Limits::nodes(26_000),
            Limits {
                infinite: true,
                move_time: Some(ms(300)),
                ..Limits::default()
            },
        ] {
            let budgets = budgets(&limits, Side::First);
            assert_eq!(budgets, Budgets::default());
            assert!(!budgets.iteration_too_late(ms(1_000_000)));
            assert!(!budgets.out_of_time(ms(1_000_000)));
        }
    }
}
