//! The room's timers: the server-side clock (main time, then byoyomi per
//! move), the away players' grace periods and the idle timeout.

use std::time::Duration;

use rules::Side;
use tokio::time::Instant;

use super::{Room, now_ms};
use crate::lobby::RoomStatus;

impl Room {
    /// Starts the per-move clock for the side to move, if the room has one.
    pub(super) fn restart_clock(&mut self) {
        self.turn_started_ms = now_ms();
        let side = self.game.side_to_move();
        let limit = self.main_left[side.index()] + self.settings.byoyomi();
        self.deadline = (self.settings.has_clock() && self.status() == RoomStatus::Playing)
            .then(|| Instant::now() + limit + self.context.config.lag_allowance);
    }

    /// `side` moved at `at`: the turn's time comes off its main time first.
    pub(super) fn spend_main_time(&mut self, side: Side, at: i64) {
        let used = Duration::from_millis(u64::try_from(at - self.turn_started_ms).unwrap_or(0));
        let left = &mut self.main_left[side.index()];
        *left = left.saturating_sub(used);
        self.turn_started_ms = at;
    }

    /// The next moment a timer fires: the clock, a grace period or the idle timeout.
    pub(super) fn next_wake(&self) -> Option<Instant> {
        let away = self.presence.iter().filter_map(|p| p.away_until);
        self.deadline
            .into_iter()
            .chain(away)
            .chain(self.idle_until())
            .min()
    }

    /// When a finished room nobody watches may stop its task and free its memory.
    pub(super) fn idle_until(&self) -> Option<Instant> {
        let watched =
            self.presence.iter().any(|p| p.connections > 0) || self.events.receiver_count() > 0;
        (self.status() == RoomStatus::Finished && !watched)
            .then(|| self.last_activity + self.context.config.idle_room_timeout)
    }
}
