//! What a move costs the server to tell a page, before and after events
//! carried what they changed: the room JSON a page fetched after every event
//! (`GET /rooms/{id}`: every move's notation, the legal moves, clocks, seats)
//! against the live frame it applies now (the event, its notation and
//! `after`), measured on the room's core without a network, as the game grows.
//!
//! ```sh
//! cargo run --release -p server --example wirecost -- 120
//! ```
//!
//! Prints, every 20 plies, the microseconds and bytes of one room JSON and of
//! one live frame (the mean of `REPEAT` runs each), in the online shogi room
//! the room's unit tests play in (`server::room::testing`).

use std::hint::black_box;
use std::time::Instant;

use rules::{Side, Variant};
use server::room::{Action, Command, Connections, testing};
use server::{EventJson, Frame, RoomSettings};

/// How many times each serialisation is timed per row.
const REPEAT: u32 = 200;

fn main() {
    let plies: usize = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .unwrap_or(120);
    let mut room = testing::playing(Variant::Shogi, RoomSettings::default());
    let connections = Connections {
        seats: [1, 1],
        spectators: 10,
    };
    println!("| ply | room JSON µs | room JSON bytes | live frame µs | live frame bytes |");
    println!("|---:|---:|---:|---:|---:|");
    for ply in 1..=plies {
        let legal = room.game().legal_moves_text();
        let Some(mv) = legal.get(ply * 7 % legal.len().max(1)).cloned() else {
            break;
        };
        let seat = if room.game().side_to_move() == Side::First {
            Side::First
        } else {
            Side::Second
        };
        let command = Command::Act {
            seats: vec![seat],
            action: Action::Move(mv),
        };
        let now = i64::try_from(ply).unwrap_or(0) * 1_000;
        let events = room.decide(&command, now).expect("a legal move");
        let mut frame_time = 0.0;
        let mut frame_bytes = 0;
        for event in &events {
            // The frame as the room's task writes it: notation before the
            // event is applied, `after` once it is.
            let started = Instant::now();
            let notation = room.notation_of(&event.kind);
            frame_time += started.elapsed().as_secs_f64();
            room.apply(event);
            let started = Instant::now();
            for _ in 0..REPEAT {
                let stored = EventJson::from(event).stored();
                let after = room.after_view(&connections, now);
                let frame = Frame::live(event.seq, &stored, notation.as_ref(), &after);
                frame_bytes = black_box(frame).json.len();
            }
            frame_time += started.elapsed().as_secs_f64() / f64::from(REPEAT);
        }
        if room.game().outcome().is_some() {
            break;
        }
        if ply % 20 == 0 {
            let started = Instant::now();
            let mut room_bytes = 0;
            for _ in 0..REPEAT {
                let view = room.view(&connections, now);
                room_bytes = black_box(serde_json::to_string(&view).expect("JSON")).len();
            }
            let room_time = started.elapsed().as_secs_f64() / f64::from(REPEAT);
            println!(
                "| {ply} | {:.1} | {room_bytes} | {:.1} | {frame_bytes} |",
                room_time * 1e6,
                frame_time * 1e6
            );
        }
    }
}
