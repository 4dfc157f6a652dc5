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
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Budgets for `us` under `limits`, counted from `start`.
    pub(crate) fn new(limits: &Limits, us: Side, start: Instant) -> TimeManager {
        let (soft, hard) = budgets(limits, us);
        TimeManager { start, soft, hard }
    }

    /// A manager without budgets (ponder before `ponderhit`, infinite).
    pub(crate) fn unlimited(start: Instant) -> TimeManager {
        TimeManager {
            start,
            soft: None,
            hard: None,
        }
    }

    /// Time since the search (or `ponderhit`) started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The hard budget is spent: stop searching now.
    pub(crate) fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }

    /// Enough of the soft budget is spent that a new iteration would not finish.
    pub(crate) fn iteration_too_late(&self) -> bool {
        self.soft.is_some_and(|soft| {
            self.elapsed().as_secs_f64() >= soft.as_secs_f64() * NEXT_ITERATION_SHARE
        })
    }
}

/// `(soft, hard)` budgets; `None` for no time limit.
fn budgets(limits: &Limits, us: Side) -> (Option<Duration>, Option<Duration>) {
    if limits.infinite {
        return (None, None);
    }
    if let Some(move_time) = limits.move_time {
        // `movetime` asks for exactly that long: no soft budget.
        let budget = move_time
            .saturating_sub(MOVE_TIME_MARGIN)
            .max(Duration::from_millis(1));
        return (None, Some(budget));
    }
    let left = limits.time_of(us);
    let byoyomi = limits.byoyomi;
    if left.is_none() && byoyomi.is_zero() {
        return (None, None);
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
    (
        Some(soft.saturating_sub(OVERHEAD).max(floor)),
        Some(hard.saturating_sub(OVERHEAD).max(floor)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn byoyomi_alone_uses_the_byoyomi_less_overhead() {
        let limits = Limits {
            time: [Some(Duration::ZERO), Some(Duration::ZERO)],
            byoyomi: ms(1000),
            ..Limits::default()
        };
        assert_eq!(
            budgets(&limits, Side::First),
            (Some(ms(970)), Some(ms(970)))
        );
    }

    #[test]
    fn main_time_is_spread_over_the_remaining_moves() {
        let limits = Limits {
            time: [Some(ms(60_000)), Some(ms(1_000))],
            ..Limits::default()
        };
        let (soft, hard) = budgets(&limits, Side::First);
        assert_eq!(soft, Some(ms(2000 - 30)));
        assert_eq!(hard, Some(ms(8000 - 30)));
        // The hard budget never exceeds three quarters of what is left.
        let limits = Limits {
            moves_to_go: Some(2),
            ..limits
        };
        let (_, hard) = budgets(&limits, Side::Second);
        assert_eq!(hard, Some(ms(750 - 30)));
    }

    #[test]
    fn depth_and_node_limits_have_no_clock() {
        assert_eq!(budgets(&Limits::depth(5), Side::First), (None, None));
        let move_time = Limits {
            move_time: Some(ms(500)),
            ..Limits::default()
        };
        assert_eq!(budgets(&move_time, Side::Second), (None, Some(ms(497))));
    }
}
