//! Rooms made for tests and measurements of the room's core (the `testing`
//! feature): the room's unit tests and `examples/wirecost.rs` start from
//! the same rooms, with the timings of [`Config::default`](crate::Config).

use rules::{AnyGame, Side, Variant};

use super::{Command, Event, Joiner, Mode, Refusal, Room, RoomSetup};
use crate::room_settings::RoomSettings;

/// A room of `variant` made at time 0 from the usual start; a computer room
/// plays at level 1.
///
/// # Panics
/// If the house rules refuse the usual start.
#[must_use]
pub fn setup(variant: Variant, mode: Mode, settings: RoomSettings) -> RoomSetup {
    let start = AnyGame::new(variant, None, &settings.rules)
        .unwrap()
        .start_text();
    RoomSetup {
        id: "room".to_owned(),
        variant,
        mode,
        level: u8::from(mode == Mode::Computer),
        settings,
        start,
        created_at: 0,
        grace_ms: 20_000,
        lag_allowance_ms: 500,
        abandon_after_ms: 600_000,
        waiting_ttl_ms: 3_600_000,
    }
}

/// `player`, named as their id, joining (a seat of their choice, or the free one).
#[must_use]
pub fn joiner(player: &str, seat: Option<Side>, computer: bool) -> Joiner {
    Joiner {
        player: player.to_owned(),
        name: player.to_owned(),
        seat,
        computer,
    }
}

/// Decides and applies `command` at `now`, returning the events.
///
/// # Errors
/// The rule `command` breaks; then nothing changes.
pub fn run(room: &mut Room, command: Command, now: i64) -> Result<Vec<Event>, Refusal> {
    let events = room.decide(&command, now)?;
    for event in &events {
        room.apply(event);
    }
    Ok(events)
}

/// An online room with both seats taken at time 0, by `ann` and `bob`.
///
/// # Panics
/// If the house rules refuse the usual start.
#[must_use]
pub fn playing(variant: Variant, settings: RoomSettings) -> Room {
    let mut room = Room::new(setup(variant, Mode::Online, settings)).unwrap();
    run(&mut room, Command::Join(joiner("ann", None, false)), 0).unwrap();
    run(&mut room, Command::Join(joiner("bob", None, false)), 0).unwrap();
    room
}
