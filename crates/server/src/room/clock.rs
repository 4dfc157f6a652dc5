//! The server-side clock as a value: main time, then byoyomi (秒読み) per
//! move. Time is always passed in (unix milliseconds), so the clock is the
//! same whether it is run live or rebuilt from stored events.

use rules::Side;

/// Each side's main time left and when the current turn began.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Clock {
    /// Main time per side at the start of a game, in milliseconds.
    main_ms: u64,
    /// Time per move once the main time is used up, in milliseconds.
    byoyomi_ms: u64,
    /// Main time each side has left, by side.
    main_left_ms: [u64; 2],
    /// When the side to move's turn began.
    turn_started: i64,
}

impl Clock {
    /// A clock with `main_ms` each and then `byoyomi_ms` per move; both 0 for none.
    pub fn new(main_ms: u64, byoyomi_ms: u64) -> Clock {
        Clock {
            main_ms,
            byoyomi_ms,
            main_left_ms: [main_ms; 2],
            turn_started: 0,
        }
    }

    /// Whether the room plays with a clock at all.
    pub fn is_set(&self) -> bool {
        self.main_ms > 0 || self.byoyomi_ms > 0
    }

    /// A turn begins at `at` without charging anyone (the game starts, or a
    /// restarted server gives the side to move its turn afresh).
    pub fn start_turn(&mut self, at: i64) {
        self.turn_started = at;
    }

    /// A new game: full main time for both, the first turn from `at`.
    pub fn reset(&mut self, at: i64) {
        self.main_left_ms = [self.main_ms; 2];
        self.turn_started = at;
    }

    /// `side` moved at `at`: the turn's time comes off its main time first,
    /// and the opponent's turn begins.
    pub fn moved(&mut self, side: Side, at: i64) {
        let used = self.used(at);
        let left = &mut self.main_left_ms[side.index()];
        *left = left.saturating_sub(used);
        self.turn_started = at;
    }

    /// When `to_move` runs out of time on this turn.
    pub fn deadline(&self, to_move: Side) -> i64 {
        self.turn_started
            .saturating_add(i64::try_from(self.turn_allowance(to_move)).unwrap_or(i64::MAX))
    }

    /// The whole time `side` has for a turn: its main time left and the time per move.
    pub fn turn_allowance(&self, side: Side) -> u64 {
        self.main_left_ms[side.index()] + self.byoyomi_ms
    }

    /// Each side's time left when the game ends at `at` with `to_move` on
    /// turn, as a clock shows it: main time while some is left, else the
    /// time per move (what the turn left of it, for `to_move`; 0 when its
    /// time ran out).
    pub fn left_at_end(&self, to_move: Side, at: i64) -> [u64; 2] {
        let used = self.used(at);
        [Side::First, Side::Second].map(|side| {
            let main = self.main_left_ms[side.index()];
            match (side == to_move, main) {
                (true, main) if used < main => main - used,
                (true, main) => self.byoyomi_ms.saturating_sub(used - main),
                (false, 0) => self.byoyomi_ms,
                (false, main) => main,
            }
        })
    }

    /// Each side's main time left at `now`, `to_move`'s turn running when given.
    pub fn main_left(&self, to_move: Option<Side>, now: i64) -> [u64; 2] {
        let mut left = self.main_left_ms;
        if let Some(side) = to_move {
            let running = &mut left[side.index()];
            *running = running.saturating_sub(self.used(now));
        }
        left
    }

    /// Milliseconds from the turn's start to `at` (0 for a time before it).
    fn used(&self, at: i64) -> u64 {
        u64::try_from(at - self.turn_started).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_time_runs_out_before_byoyomi() {
        let mut clock = Clock::new(10_000, 5_000);
        clock.reset(1_000);
        assert_eq!(clock.deadline(Side::First), 16_000);
        // First thinks 4 s: 6 s of main time left; Second's turn from 5 s.
        clock.moved(Side::First, 5_000);
        assert_eq!(clock.main_left(None, 5_000), [6_000, 10_000]);
        assert_eq!(clock.deadline(Side::Second), 20_000);
        // Second thinks 12 s: its main time is gone, byoyomi left.
        clock.moved(Side::Second, 17_000);
        assert_eq!(clock.main_left(None, 17_000), [6_000, 0]);
        assert_eq!(clock.main_left(Some(Side::First), 19_000), [4_000, 0]);
        assert_eq!(clock.deadline(Side::First), 28_000);
        clock.moved(Side::First, 18_000);
        assert_eq!(clock.deadline(Side::Second), 23_000);
    }

    #[test]
    fn a_finished_game_keeps_the_time_each_side_had_left() {
        let mut clock = Clock::new(10_000, 5_000);
        clock.reset(0);
        clock.moved(Side::First, 4_000);
        // Second resigns 3 s into its turn: 7 s of main time left, First's 6 s.
        assert_eq!(clock.left_at_end(Side::Second, 7_000), [6_000, 7_000]);
        // Or it thinks 12 s: 3 s of its time per move left.
        assert_eq!(clock.left_at_end(Side::Second, 16_000), [6_000, 3_000]);
        // Or loses on time, after the lag allowance.
        assert_eq!(clock.left_at_end(Side::Second, 19_500), [6_000, 0]);
        // Without main time, the side not to move shows its time per move.
        let mut byoyomi = Clock::new(0, 30_000);
        byoyomi.reset(0);
        assert_eq!(byoyomi.left_at_end(Side::First, 30_500), [0, 30_000]);
    }

    #[test]
    fn a_turn_started_afresh_charges_nobody() {
        let mut clock = Clock::new(0, 30_000);
        assert!(clock.is_set());
        clock.reset(0);
        clock.start_turn(100_000);
        assert_eq!(clock.deadline(Side::First), 130_000);
        assert!(!Clock::new(0, 0).is_set());
    }
}
