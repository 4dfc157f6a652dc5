//! What a room shows: the room JSON of `GET /rooms/{id}` and the lobby summary.

use std::time::Duration;

use notation::{Record, japanese, western, wxf};
use rules::{AnyMove, AnyPosition, Side};
use serde_json::{Value, json};
use tokio::time::Instant;

use super::{Room, now_ms};
use crate::lobby::Summary;

impl Room {
    pub(super) fn result_json(&self) -> Value {
        let outcome = self.game.outcome();
        json!({
            "result": outcome.map(|o| o.winner.map_or("draw", Side::name)),
            "reason": outcome.map(|o| o.reason.code()),
            "side_to_move": self.game.side_to_move().name(),
            "in_check": self.game.is_check(),
        })
    }

    /// The moves as players write them: Japanese and Western for the shogi
    /// family, WXF for xiangqi; one entry per move.
    pub(super) fn notation_json(&self) -> Value {
        let record = Record::from_game(&self.game);
        let mut japanese_moves = Vec::new();
        let mut western_moves = Vec::new();
        let mut wxf_moves = Vec::new();
        let mut previous = None;
        for (before, record_move) in record.plies() {
            match (before, record_move.mv()) {
                (AnyPosition::Shogi(pos), AnyMove::Shogi(mv)) => {
                    japanese_moves.push(japanese::move_text(&pos, mv, previous));
                    western_moves.push(western::move_text(&pos, mv));
                    previous = Some(mv.to());
                }
                (AnyPosition::Xiangqi(pos), AnyMove::Xiangqi(mv)) => {
                    wxf_moves.push(wxf::move_text(&pos, mv));
                }
                // A record holds moves of its own game only.
                _ => {}
            }
        }
        match record.start() {
            AnyPosition::Shogi(_) => json!({"japanese": japanese_moves, "western": western_moves}),
            AnyPosition::Xiangqi(_) => json!({"wxf": wxf_moves}),
        }
    }

    /// Each side's impasse points in shogi and annan, else `null`.
    pub(super) fn impasse_points_json(&self) -> Value {
        self.game.impasse_points().map_or(
            Value::Null,
            |[first, second]| json!({"first": first, "second": second}),
        )
    }

    pub(super) fn clocks_json(&self) -> Value {
        if !self.settings.has_clock() {
            return Value::Null;
        }
        let mut main_left = self.main_left;
        if self.deadline.is_some() {
            let used = u64::try_from(now_ms() - self.turn_started_ms).unwrap_or(0);
            let left = &mut main_left[self.game.side_to_move().index()];
            *left = left.saturating_sub(Duration::from_millis(used));
        }
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let remaining = self.deadline.map(|deadline| {
            let left = deadline.saturating_duration_since(Instant::now());
            u64::try_from(
                left.saturating_sub(self.context.config.lag_allowance)
                    .as_millis(),
            )
            .unwrap_or(u64::MAX)
        });
        json!({
            "time_per_move": self.settings.time_per_move,
            "main_time": self.settings.main_time,
            "main_left_ms": {"first": ms(main_left[0]), "second": ms(main_left[1])},
            "running": remaining.map(|_| self.game.side_to_move().name()),
            "remaining_ms": remaining,
        })
    }

    pub(super) fn seat_json(&self, seat_name: Side) -> Value {
        let Some(seat) = &self.seats[seat_name.index()] else {
            return Value::Null;
        };
        let presence = &self.presence[seat_name.index()];
        json!({
            "side": self.side_of(seat_name).name(),
            "player": seat.player,
            "name": seat.name,
            "computer": seat.computer,
            "connected": presence.connections > 0,
            "away": presence.away_until.is_some() || presence.taken_over,
            "taken_over": presence.taken_over,
        })
    }

    pub(super) fn view(&self) -> Value {
        json!({
            "id": self.record.id,
            "variant": self.record.variant,
            "mode": self.mode.name(),
            "level": self.record.level,
            "settings": self.settings.to_json(),
            "status": self.status().name(),
            "start": self.game.start_text(),
            "position": self.game.position_text(),
            "moves": self.game.moves_text(),
            "notation": self.notation_json(),
            "legal_moves": self.game.legal_moves_text(),
            "side_to_move": self.game.side_to_move().name(),
            "in_check": self.game.is_check(),
            "impasse_points": self.impasse_points_json(),
            "result": self.result_json(),
            "clocks": self.clocks_json(),
            "seats": {"first": self.seat_json(Side::First), "second": self.seat_json(Side::Second)},
            "draw_offer": self.draw_offer.map(Side::name),
            "rematch_offer": self.rematch_offer.map(Side::name),
            "game": self.game_number,
            "last_seq": self.frames.len(),
        })
    }

    pub(super) fn publish_summary(&self) {
        self.context.lobby.update(Summary {
            id: self.record.id.clone(),
            variant: self.record.variant.clone(),
            mode: self.mode,
            settings: self.settings.to_json(),
            status: self.status(),
            created_at: self.record.created_at,
            players: self
                .seats
                .iter()
                .map(|seat| seat.as_ref().map(|seat| seat.name.clone()))
                .collect(),
        });
    }
}
