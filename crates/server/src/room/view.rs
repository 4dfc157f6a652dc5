//! What a room shows: the room JSON of `GET /rooms/{id}` and the lobby summary.

use std::time::Duration;

use notation::Record;
use rules::Side;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::{Room, now_ms};
use crate::lobby::Summary;
use crate::records;

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

    /// The moves as players write them (see [`records::notation_json`]).
    pub(super) fn notation_json(&self) -> Value {
        records::notation_json(&Record::from_game(&self.game))
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

    /// The presence frame: each seat's connection (`null` when free) and
    /// how many spectators' sockets are open.
    pub(super) fn presence_json(&self) -> Value {
        let seat = |side: Side| {
            self.seats[side.index()].as_ref().map_or(Value::Null, |_| {
                let presence = &self.presence[side.index()];
                json!({
                    "connected": presence.connections > 0,
                    "away": presence.away_until.is_some() || presence.taken_over,
                })
            })
        };
        json!({
            "type": "presence",
            "seats": {"first": seat(Side::First), "second": seat(Side::Second)},
            "spectators": self.spectators,
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
            "spectators": self.spectators,
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
