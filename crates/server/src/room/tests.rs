//! The room's core without a database or a socket: every command's
//! refusals, and the property that replaying a room's event log (through
//! its JSON, as the store keeps it) rebuilds exactly the live room.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rules::{AnyGame, Side, Variant};

use super::testing::{joiner, playing, run, setup};
use super::*;
use crate::event::EventJson;

fn act(seats: &[Side], action: Action) -> Command {
    Command::Act {
        seats: seats.to_vec(),
        action,
    }
}

fn play(text: &str) -> Action {
    Action::Move(text.to_owned())
}

#[test]
fn seats_are_taken_once_and_the_game_starts_with_the_second() {
    let mut room = Room::new(setup(Variant::Shogi, Mode::Online, RoomSettings::default())).unwrap();
    assert_eq!(room.status(), RoomStatus::Waiting);
    let events = run(
        &mut room,
        Command::Join(joiner("ann", Some(Side::Second), false)),
        5,
    )
    .unwrap();
    assert_eq!(events[0].seq, 1);
    assert!(matches!(
        room.decide(&Command::Join(joiner("bob", Some(Side::Second), false)), 6),
        Err(Refusal::NoFreeSeat)
    ));
    // Deciding changes nothing: the seat the refused join asked for is still Ann's.
    assert_eq!(room.seat(Side::Second).unwrap().player, "ann");
    assert!(room.seat(Side::First).is_none());
    run(&mut room, Command::Join(joiner("bob", None, false)), 7).unwrap();
    assert_eq!(room.seat(Side::First).unwrap().player, "bob");
    assert_eq!(room.status(), RoomStatus::Playing);
    assert!(matches!(
        room.decide(&Command::Join(joiner("cat", None, false)), 8),
        Err(Refusal::NoFreeSeat)
    ));
}

#[test]
fn acts_are_refused_for_the_unseated_the_waiting_and_the_wrong_turn() {
    let mut room = Room::new(setup(
        Variant::Xiangqi,
        Mode::Online,
        RoomSettings::default(),
    ))
    .unwrap();
    run(&mut room, Command::Join(joiner("ann", None, false)), 0).unwrap();
    assert!(matches!(
        room.decide(&act(&[Side::Second], play("h2e2")), 1),
        Err(Refusal::NotSeated)
    ));
    assert!(matches!(
        room.decide(&act(&[], Action::Resign), 1),
        Err(Refusal::NotSeated)
    ));
    assert!(matches!(
        room.decide(&act(&[Side::First], play("h2e2")), 1),
        Err(Refusal::NotPlaying(_))
    ));
    run(&mut room, Command::Join(joiner("bob", None, false)), 0).unwrap();
    assert!(matches!(
        room.decide(&act(&[Side::Second], play("h7e7")), 1),
        Err(Refusal::NotYourTurn)
    ));
    assert!(matches!(
        room.decide(&act(&[Side::First], play("a0a5")), 1),
        Err(Refusal::Move(rules::PlayError::Illegal { .. }))
    ));
    assert!(matches!(
        room.decide(&act(&[Side::First], play("z9")), 1),
        Err(Refusal::Move(rules::PlayError::Parse(_)))
    ));
    assert!(matches!(
        room.decide(&act(&[Side::First], Action::Impasse), 1),
        Err(Refusal::Impasse(_))
    ));
    assert!(matches!(
        room.decide(&act(&[Side::First], Action::Rematch), 1),
        Err(Refusal::NotPlaying(_))
    ));
    // Resigning may come on the opponent's turn.
    let events = run(&mut room, act(&[Side::Second], Action::Resign), 2).unwrap();
    assert!(matches!(
        events[0].kind,
        EventKind::End {
            by: Some(Side::Second),
            ..
        }
    ));
    assert_eq!(room.status(), RoomStatus::Finished);
    assert!(matches!(
        room.decide(&act(&[Side::First], play("h2e2")), 3),
        Err(Refusal::NotPlaying(_))
    ));
    assert!(matches!(
        room.decide(
            &Command::Rename {
                seats: vec![],
                name: "x".to_owned()
            },
            3
        ),
        Err(Refusal::NotSeated)
    ));
}

#[test]
fn draws_and_rematches_need_both_sides_online() {
    let mut room = playing(Variant::Minishogi, RoomSettings::default());
    let offered = run(&mut room, act(&[Side::First], Action::Draw), 1).unwrap();
    assert!(matches!(
        offered[0].kind,
        EventKind::DrawOffered { side: Side::First }
    ));
    // Offering again changes nothing.
    assert!(
        run(&mut room, act(&[Side::First], Action::Draw), 2)
            .unwrap()
            .is_empty()
    );
    let agreed = run(&mut room, act(&[Side::Second], Action::Draw), 3).unwrap();
    assert!(matches!(agreed[0].kind, EventKind::End { by: None, .. }));
    let asked = run(&mut room, act(&[Side::Second], Action::Rematch), 4).unwrap();
    assert!(matches!(
        asked[0].kind,
        EventKind::RematchOffered { seat: Side::Second }
    ));
    let started = run(&mut room, act(&[Side::First], Action::Rematch), 5).unwrap();
    assert!(matches!(
        started[0].kind,
        EventKind::NewGame {
            game: 2,
            swapped: true
        }
    ));
    // The seats swapped sides: the first seat now plays second.
    assert_eq!(room.side_of(Side::First), Side::Second);
    assert_eq!(room.status(), RoomStatus::Playing);
    assert_eq!(room.draw_offer(), None);
}

#[test]
fn a_shogi_repetition_draw_is_replayed_at_once_with_the_sides_swapped() {
    let mut room = playing(Variant::Shogi, RoomSettings::default());
    let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"];
    let mut events = Vec::new();
    for (ply, mv) in cycle.iter().cycle().take(12).enumerate() {
        let seat = if ply % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        events = run(&mut room, act(&[seat], play(mv)), 10 * ply as i64).unwrap();
    }
    let kinds: Vec<&str> = events.iter().map(|event| event.kind.name()).collect();
    assert_eq!(kinds, ["move", "end", "new_game"]);
    assert_eq!(room.game_number(), 2);
    assert_eq!(room.game().ply(), 0);
    assert_eq!(room.side_of(Side::First), Side::Second);
}

#[test]
fn the_clock_runs_out_only_after_the_lag_allowance_and_a_stale_computer_move_is_refused() {
    let settings = RoomSettings {
        time_per_move: 10,
        ..RoomSettings::default()
    };
    let mut room = playing(Variant::Shogi, settings);
    assert_eq!(room.clock_deadline(), Some(10_000));
    assert_eq!(room.next_deadline(), Some(10_500));
    assert!(run(&mut room, Command::Tick, 10_499).unwrap().is_empty());
    let events = run(&mut room, Command::Tick, 10_500).unwrap();
    assert!(matches!(
        events[0].kind,
        EventKind::End {
            by: Some(Side::First),
            ..
        }
    ));
    assert_eq!(room.next_deadline(), None);
    let mv = room.game().parse_move("7g7f").unwrap();
    assert!(matches!(
        room.decide(&Command::ComputerMove { turn: 0, mv }, 11_000),
        Err(Refusal::Stale)
    ));
}

#[test]
fn an_away_player_is_taken_over_after_the_grace_period_and_comes_back() {
    let mut room = playing(Variant::Annan, RoomSettings::default());
    let away = run(&mut room, Command::Leave(Side::First), 1_000).unwrap();
    assert!(matches!(
        away[0].kind,
        EventKind::Away {
            seat: Side::First,
            grace_ms: 20_000
        }
    ));
    assert!(
        run(&mut room, Command::Leave(Side::First), 2_000)
            .unwrap()
            .is_empty()
    );
    assert_eq!(room.next_deadline(), Some(21_000));
    assert!(!room.computer_to_move());
    let taken = run(&mut room, Command::Tick, 21_000).unwrap();
    assert!(matches!(
        taken[0].kind,
        EventKind::Takeover { seat: Side::First }
    ));
    assert!(room.computer_to_move());
    let mv = room.game().parse_move("7g7f").unwrap();
    let moved = run(&mut room, Command::ComputerMove { turn: 0, mv }, 21_100).unwrap();
    assert!(matches!(
        moved[0].kind,
        EventKind::Move { computer: true, .. }
    ));
    // Acting brings the player back before the act.
    let resigned = run(&mut room, act(&[Side::First], Action::Resign), 22_000).unwrap();
    let kinds: Vec<&str> = resigned.iter().map(|event| event.kind.name()).collect();
    assert_eq!(kinds, ["back", "end"]);
    assert_eq!(room.presence(Side::First), Presence::Here);
}

/// An online shogi room with 30 s per move and no main time, both seats taken at 0.
fn playing_on_byoyomi() -> Room {
    let settings = RoomSettings {
        time_per_move: 30,
        ..RoomSettings::default()
    };
    playing(Variant::Shogi, settings)
}

fn grace_of(events: &[Event]) -> Option<u64> {
    events.iter().find_map(|event| match event.kind {
        EventKind::Away { grace_ms, .. } => Some(grace_ms),
        _ => None,
    })
}

#[test]
fn a_player_who_leaves_short_of_time_is_taken_over_while_the_computer_can_still_move() {
    // First leaves 15 s into a 30 s move: the 20 s grace period would end
    // after the clock; it is cut to the 15 s left less the computer's 2 s.
    let mut room = playing_on_byoyomi();
    let away = run(&mut room, Command::Leave(Side::First), 15_000).unwrap();
    assert_eq!(grace_of(&away), Some(13_000));
    assert_eq!(room.next_deadline(), Some(28_000));
    let taken = run(&mut room, Command::Tick, 28_000).unwrap();
    assert!(matches!(
        taken[..],
        [Event {
            kind: EventKind::Takeover { seat: Side::First },
            ..
        }]
    ));
    assert!(room.computer_to_move());
    let mv = room.game().parse_move("7g7f").unwrap();
    let turn = room.turn();
    run(&mut room, Command::ComputerMove { turn, mv }, 29_500).unwrap();
    assert_eq!(room.status(), RoomStatus::Playing);

    // Leaving on the opponent's turn: the whole next turn counts, 30 s.
    let mut room = playing_on_byoyomi();
    let away = run(&mut room, Command::Leave(Side::Second), 15_000).unwrap();
    assert_eq!(grace_of(&away), Some(20_000));
    let short = RoomSettings {
        time_per_move: 10,
        ..RoomSettings::default()
    };
    let mut room = playing(Variant::Shogi, short);
    let away = run(&mut room, Command::Leave(Side::Second), 9_000).unwrap();
    assert_eq!(grace_of(&away), Some(8_000));
    // With less than the computer's margin left, it takes over at once.
    let mut room = playing_on_byoyomi();
    let away = run(&mut room, Command::Leave(Side::First), 29_000).unwrap();
    assert_eq!(grace_of(&away), Some(0));
    assert_eq!(room.next_deadline(), Some(29_000));
    // Without a clock the grace period is the room's.
    let mut room = playing(Variant::Shogi, RoomSettings::default());
    let away = run(&mut room, Command::Leave(Side::First), 15_000).unwrap();
    assert_eq!(grace_of(&away), Some(20_000));
}

#[test]
fn a_finished_game_shows_the_final_clocks_and_nobody_away() {
    let connections = Connections {
        seats: [0, 1],
        spectators: 0,
    };
    let mut room = playing_on_byoyomi();
    run(&mut room, Command::Leave(Side::First), 25_000).unwrap();
    run(&mut room, Command::Tick, 28_000).unwrap();
    let view = serde_json::to_value(room.view(&connections, 28_000)).unwrap();
    assert_eq!(view["seats"]["first"]["taken_over"], true);
    assert_eq!(view["clocks"]["final_left_ms"], serde_json::Value::Null);
    // The computer's move never comes: First loses on time.
    let end = run(&mut room, Command::Tick, 30_500).unwrap();
    assert_eq!(end[0].kind.name(), "end");
    let view = serde_json::to_value(room.view(&connections, 31_000)).unwrap();
    assert_eq!(
        view["clocks"]["final_left_ms"],
        serde_json::json!({"first": 0, "second": 30_000})
    );
    assert_eq!(view["clocks"]["running"], serde_json::Value::Null);
    for seat in ["first", "second"] {
        assert_eq!(view["seats"][seat]["away"], false, "{seat}");
        assert_eq!(view["seats"][seat]["taken_over"], false, "{seat}");
    }
    let presence = serde_json::to_value(room.presence_view(&connections)).unwrap();
    assert_eq!(presence["seats"]["first"]["away"], false);

    // A resignation keeps what the resigning side's turn left of its clock.
    let mut room = playing_on_byoyomi();
    run(&mut room, act(&[Side::First], play("7g7f")), 4_000).unwrap();
    run(&mut room, act(&[Side::Second], Action::Resign), 10_000).unwrap();
    let view = serde_json::to_value(room.view(&connections, 12_000)).unwrap();
    assert_eq!(
        view["clocks"]["final_left_ms"],
        serde_json::json!({"first": 30_000, "second": 24_000})
    );
    // A new game runs the clocks again.
    run(&mut room, act(&[Side::First], Action::Rematch), 13_000).unwrap();
    run(&mut room, act(&[Side::Second], Action::Rematch), 13_000).unwrap();
    let view = serde_json::to_value(room.view(&connections, 13_000)).unwrap();
    assert_eq!(view["clocks"]["final_left_ms"], serde_json::Value::Null);

    // An abandoned game: the clock stood still from when both were gone.
    let mut room = playing_on_byoyomi();
    run(&mut room, Command::Leave(Side::Second), 1_000).unwrap();
    run(&mut room, Command::Leave(Side::First), 5_000).unwrap();
    let end = run(&mut room, Command::Tick, 605_000).unwrap();
    assert_eq!(end[0].kind.name(), "end");
    assert_eq!(room.final_clocks(), Some([25_000, 30_000]));
    // A room nobody joined never started its clocks.
    let settings = RoomSettings {
        time_per_move: 30,
        ..RoomSettings::default()
    };
    let mut room = Room::new(setup(Variant::Shogi, Mode::Online, settings)).unwrap();
    run(&mut room, Command::Join(joiner("ann", None, false)), 0).unwrap();
    run(&mut room, Command::Tick, 3_600_000).unwrap();
    assert_eq!(room.status(), RoomStatus::Finished);
    assert_eq!(room.final_clocks(), None);
}

#[test]
fn the_computer_answers_a_draw_offered_to_it_and_only_that() {
    let mut room = Room::new(setup(
        Variant::Shogi,
        Mode::Computer,
        RoomSettings::default(),
    ))
    .unwrap();
    run(&mut room, Command::Join(joiner("ann", None, false)), 0).unwrap();
    run(&mut room, Command::Join(joiner("computer", None, true)), 0).unwrap();
    assert!(!room.computer_to_answer_draw());
    let answer = |accept| Command::ComputerDrawAnswer { turn: 0, accept };
    assert!(matches!(
        room.decide(&answer(false), 1),
        Err(Refusal::Stale)
    ));
    run(&mut room, act(&[Side::First], Action::Draw), 1_000).unwrap();
    assert!(room.computer_to_answer_draw());
    // An answer for another position is stale.
    assert!(matches!(
        room.decide(
            &Command::ComputerDrawAnswer {
                turn: 1,
                accept: true
            },
            1_100
        ),
        Err(Refusal::Stale)
    ));
    let declined = run(&mut room, answer(false), 1_200).unwrap();
    assert!(matches!(
        declined[..],
        [Event {
            kind: EventKind::DrawDeclined { side: Side::Second },
            ..
        }]
    ));
    assert_eq!(room.draw_offer(), None);
    assert_eq!(room.draw_declined(), Some(Side::Second));
    assert!(!room.computer_to_answer_draw());
    // A move clears the refusal; a new offer may be accepted.
    run(&mut room, act(&[Side::First], play("7g7f")), 2_000).unwrap();
    assert_eq!(room.draw_declined(), None);
    run(&mut room, act(&[Side::First], Action::Draw), 2_100).unwrap();
    let accepted = run(
        &mut room,
        Command::ComputerDrawAnswer {
            turn: 1,
            accept: true,
        },
        2_200,
    )
    .unwrap();
    assert_eq!(accepted[0].kind.name(), "end");
    assert_eq!(
        room.game().outcome().map(|outcome| outcome.reason),
        Some(rules::EndReason::Agreement)
    );
    // Between two people, nobody answers for the other.
    let mut room = playing(Variant::Xiangqi, RoomSettings::default());
    run(&mut room, act(&[Side::First], Action::Draw), 1_000).unwrap();
    assert!(!room.computer_to_answer_draw());
}

#[test]
fn recovery_starts_the_side_to_moves_turn_afresh_or_runs_on() {
    let settings = RoomSettings {
        time_per_move: 30,
        ..RoomSettings::default()
    };
    let mut live = playing(Variant::Xiangqi, settings.clone());
    let log = run(&mut live, act(&[Side::First], play("h2e2")), 5_000).unwrap();
    let mut all = Vec::new();
    let mut fresh = Room::new(setup(Variant::Xiangqi, Mode::Online, settings)).unwrap();
    for command in [
        Command::Join(joiner("ann", None, false)),
        Command::Join(joiner("bob", None, false)),
    ] {
        all.extend(run(&mut fresh, command, 0).unwrap());
    }
    all.extend(log);
    let recovered = Room::new(fresh.setup().clone())
        .unwrap()
        .recover(
            all.clone(),
            |_, event| Ok::<_, ()>(event),
            Resume::Afresh(100_000),
        )
        .unwrap();
    assert_eq!(recovered.game().moves_text(), ["h2e2"]);
    assert_eq!(recovered.clock_deadline(), Some(130_000));
    assert_eq!(live.clock_deadline(), Some(35_000));
    // Taken over by another node: the turn that began at 5 s runs on, and
    // the side to move loses on time at the first tick after it ran out.
    let mut taken_over = Room::new(fresh.setup().clone())
        .unwrap()
        .recover(all, |_, event| Ok::<_, ()>(event), Resume::Running)
        .unwrap();
    assert_eq!(taken_over.clock_deadline(), live.clock_deadline());
    let ended = run(&mut taken_over, Command::Tick, 100_000).unwrap();
    assert!(
        ended
            .iter()
            .any(|event| matches!(event.kind, EventKind::End { .. })),
        "{ended:?}"
    );
    assert_eq!(taken_over.status(), RoomStatus::Finished);
}

/// Plays a random room: joins, moves (legal, illegal, out of turn), offers,
/// resignations, impasse claims, rematches, takebacks, renames, departures and returns,
/// clocks running out and the computer's moves. Returns the room and its log.
fn random_room(seed: u64) -> (Room, Vec<Event>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let variant = Variant::ALL[rng.random_range(0..4)];
    let mode = [Mode::Online, Mode::Local, Mode::Computer][rng.random_range(0..3)];
    let mut settings = RoomSettings {
        time_per_move: [0, 5, 30][rng.random_range(0..3)],
        main_time: [0, 10][rng.random_range(0..2)],
        swap_first_player: rng.random_bool(0.5),
        ..RoomSettings::default()
    };
    settings.rules.illegal_move_loses = rng.random_bool(0.3);
    settings.rules.move_limit = [0, 30][rng.random_range(0..2)];
    let mut room = Room::new(RoomSetup {
        abandon_after_ms: 10_000,
        waiting_ttl_ms: 10_000,
        ..setup(variant, mode, settings)
    })
    .unwrap();
    let mut log = Vec::new();
    let mut now = 0_i64;
    for _ in 0..160 {
        now += rng.random_range(0..4_000);
        let seat = if rng.random_bool(0.5) {
            Side::First
        } else {
            Side::Second
        };
        let command = match room.status() {
            RoomStatus::Waiting if rng.random_bool(0.1) => {
                now += rng.random_range(0..60_000);
                Command::Tick
            }
            RoomStatus::Waiting => {
                let computer = mode == Mode::Computer && room.seat(Side::First).is_some();
                let wanted = rng.random_bool(0.3).then_some(seat);
                Command::Join(joiner(
                    if computer { "computer" } else { "p" },
                    wanted,
                    computer,
                ))
            }
            RoomStatus::Finished => match rng.random_range(0..4) {
                0 => Command::Rename {
                    seats: vec![seat],
                    name: format!("n{now}"),
                },
                1 => Command::Tick,
                _ => act(&[seat], Action::Rematch),
            },
            RoomStatus::Playing if room.computer_to_answer_draw() && rng.random_bool(0.5) => {
                Command::ComputerDrawAnswer {
                    turn: room.turn(),
                    accept: rng.random_bool(0.5),
                }
            }
            RoomStatus::Playing => {
                let to_move = room.seat_of(room.game().side_to_move());
                let legal = room.game().position().legal_moves();
                match rng.random_range(0..106) {
                    0..=69 => {
                        let mv = legal[rng.random_range(0..legal.len())].to_string();
                        act(&[to_move], Action::Move(mv))
                    }
                    70..=73 => act(&[to_move.opponent()], play(&legal[0].to_string())),
                    74..=76 => {
                        // A move of the other game's shape, a pawn dropped
                        // beside another (nifu), or one off the board's rules.
                        let text = match rng.random_range(0..3) {
                            0 => nifu(room.game()).unwrap_or_else(|| "5e5a".to_owned()),
                            1 => "a0a9".to_owned(),
                            _ => "9a9b+".to_owned(),
                        };
                        act(&[to_move], Action::Move(text))
                    }
                    77 => act(&[seat], Action::Resign),
                    78..=81 => act(&[seat], Action::Draw),
                    82 => act(&[seat], Action::Impasse),
                    83..=85 => Command::Leave(seat),
                    86..=88 => Command::Return(seat),
                    89..=91 => {
                        now += rng.random_range(0..60_000);
                        Command::Tick
                    }
                    92..=95 => {
                        let mv = legal[rng.random_range(0..legal.len())];
                        let turn = room.turn().saturating_sub(u64::from(rng.random_bool(0.2)));
                        Command::ComputerMove { turn, mv }
                    }
                    96..=97 => act(&[seat], Action::Takeback),
                    102..=103 => act(&[seat], Action::Chat(Phrase::ALL[rng.random_range(0..10)])),
                    104..=105 => act(&[seat], Action::AgreeAnalysis),
                    98..=99 => {
                        // Mostly the seat asked, sometimes one that was not.
                        let asked = room.takeback_offer().map_or(seat, Side::opponent);
                        let seat = if rng.random_bool(0.8) { asked } else { seat };
                        act(&[seat], Action::DeclineTakeback)
                    }
                    _ => Command::Rename {
                        seats: vec![seat],
                        name: format!("n{now}"),
                    },
                }
            }
        };
        if let Ok(events) = run(&mut room, command, now) {
            log.extend(events);
        }
    }
    (room, log)
}

/// A pawn drop on a file where the mover has a pawn, if it has one in hand.
fn nifu(game: &AnyGame) -> Option<String> {
    (1..=9)
        .flat_map(|file| ('a'..='i').map(move |rank| format!("P*{file}{rank}")))
        .find(|text| {
            matches!(
                game.clone().play_text(text),
                Err(rules::PlayError::Illegal {
                    reason: rules::IllegalMove::DoublePawn,
                    ..
                }) | Ok(Some(rules::Outcome {
                    reason: rules::EndReason::IllegalMove(rules::IllegalMove::DoublePawn),
                    ..
                }))
            )
        })
}

/// What a client or the task could see of a room at `now`.
fn seen(room: &Room, now: i64) -> (serde_json::Value, Option<i64>, bool, [Presence; 2]) {
    let connections = Connections {
        seats: [1, 0],
        spectators: 2,
    };
    (
        serde_json::to_value(room.view(&connections, now)).unwrap(),
        room.next_deadline(),
        room.computer_to_move(),
        [room.presence(Side::First), room.presence(Side::Second)],
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn replaying_the_stored_log_rebuilds_the_live_room(seed in any::<u64>()) {
        let (live, log) = random_room(seed);
        let mut replayed = Room::new(live.setup().clone()).unwrap();
        for (expected_seq, event) in (1..).zip(&log) {
            prop_assert_eq!(event.seq, expected_seq);
            // Through the JSON the store keeps, read in the game as it stands.
            let stored = EventJson::from(event).stored();
            let read: EventJson = serde_json::from_str(&stored).unwrap();
            let read = read.into_event(replayed.game()).unwrap();
            prop_assert_eq!(&read, event);
            replayed.apply(&read);
        }
        let now = log.last().map_or(0, |event| event.at) + 1_234;
        prop_assert_eq!(seen(&replayed, now), seen(&live, now));
        prop_assert_eq!(replayed.clock(), live.clock());
    }
}

#[test]
fn the_random_rooms_meet_every_event_and_the_ends_that_matter() {
    let mut kinds = std::collections::BTreeSet::new();
    let mut ends = std::collections::BTreeSet::new();
    let mut variants = std::collections::BTreeSet::new();
    for seed in 0..128 {
        let (room, log) = random_room(seed);
        variants.insert(room.setup().variant.name());
        for event in &log {
            kinds.insert(event.kind.name());
            match &event.kind {
                EventKind::End { outcome, .. } => {
                    ends.insert(outcome.reason.code());
                }
                EventKind::Move { computer: true, .. } => {
                    kinds.insert("computer move");
                }
                _ => {}
            }
        }
    }
    assert_eq!(variants.len(), 4, "{variants:?}");
    for kind in [
        "seated",
        "move",
        "computer move",
        "draw_offered",
        "draw_declined",
        "end",
        "rematch_offered",
        "new_game",
        "away",
        "takeover",
        "back",
        "takeback_offered",
        "takeback_declined",
        "taken_back",
        "chat",
        "analysis_offered",
        "analysis_agreed",
        "renamed",
    ] {
        assert!(kinds.contains(kind), "no {kind} in {kinds:?}");
    }
    for end in [
        "resignation",
        "agreement",
        "timeout",
        "illegal-move",
        "move-limit",
        "abandoned",
    ] {
        assert!(ends.contains(end), "no {end} in {ends:?}");
    }
}

#[test]
fn when_both_players_are_away_nobody_plays_and_the_game_is_abandoned() {
    let settings = RoomSettings {
        time_per_move: 30,
        rated: true,
        ..RoomSettings::default()
    };
    let mut room = playing(Variant::Shogi, settings);
    run(&mut room, act(&[Side::First], play("7g7f")), 1_000).unwrap();
    run(&mut room, Command::Leave(Side::Second), 2_000).unwrap();
    run(&mut room, Command::Tick, 22_000).unwrap();
    // Second is taken over and to move: the computer plays for it.
    assert!(room.computer_to_move());
    run(&mut room, Command::Leave(Side::First), 23_000).unwrap();
    // Both gone: nobody plays, and no clock runs out.
    assert!(!room.computer_to_move());
    assert_eq!(room.clock_deadline(), None);
    // First's grace period still ends, but the computer plays for nobody.
    assert_eq!(room.next_deadline(), Some(43_000));
    run(&mut room, Command::Tick, 43_000).unwrap();
    assert!(!room.computer_to_move());
    assert_eq!(room.next_deadline(), Some(23_000 + 600_000));
    assert!(run(&mut room, Command::Tick, 622_999).unwrap().is_empty());
    let events = run(&mut room, Command::Tick, 623_000).unwrap();
    let EventKind::End { outcome, by } = &events[0].kind else {
        panic!("expected the end, got {events:?}");
    };
    assert_eq!(
        (outcome.winner, outcome.reason, *by),
        (None, rules::EndReason::Abandoned, None)
    );
    assert_eq!(room.status(), RoomStatus::Finished);
    assert!(!room.counts(), "an abandoned game counts nowhere");
}

#[test]
fn a_player_back_from_both_being_away_gets_a_fresh_turn() {
    let settings = RoomSettings {
        time_per_move: 30,
        ..RoomSettings::default()
    };
    let mut room = playing(Variant::Xiangqi, settings);
    run(&mut room, Command::Leave(Side::First), 1_000).unwrap();
    run(&mut room, Command::Leave(Side::Second), 2_000).unwrap();
    run(&mut room, Command::Return(Side::First), 100_000).unwrap();
    assert_eq!(room.clock_deadline(), Some(130_000));
}

#[test]
fn a_room_nobody_joins_closes_and_takes_no_one_after() {
    let mut room = Room::new(setup(
        Variant::Minishogi,
        Mode::Online,
        RoomSettings::default(),
    ))
    .unwrap();
    run(&mut room, Command::Join(joiner("ann", None, false)), 0).unwrap();
    assert_eq!(room.next_deadline(), Some(3_600_000));
    assert!(run(&mut room, Command::Tick, 3_599_999).unwrap().is_empty());
    let closed = run(&mut room, Command::Tick, 3_600_000).unwrap();
    assert!(matches!(closed[0].kind, EventKind::End { by: None, .. }));
    assert_eq!(room.status(), RoomStatus::Finished);
    assert!(matches!(
        room.decide(&Command::Join(joiner("bob", None, false)), 3_600_001),
        Err(Refusal::NotPlaying("the room is closed"))
    ));
}

#[test]
fn a_game_the_computer_played_alone_does_not_count() {
    let mut room = playing(Variant::Shogi, RoomSettings::default());
    run(&mut room, Command::Leave(Side::First), 0).unwrap();
    run(&mut room, Command::Tick, 20_000).unwrap();
    let mv = room.game().parse_move("7g7f").unwrap();
    run(&mut room, Command::ComputerMove { turn: 0, mv }, 20_001).unwrap();
    run(&mut room, act(&[Side::Second], Action::Resign), 20_002).unwrap();
    assert!(!room.counts());
    // A person's move makes it a game.
    let mut played = playing(Variant::Shogi, RoomSettings::default());
    run(&mut played, act(&[Side::First], play("7g7f")), 1).unwrap();
    run(&mut played, act(&[Side::Second], Action::Resign), 2).unwrap();
    assert!(played.counts());
}

/// The moves of the room's game, as text.
fn moves(room: &Room) -> Vec<String> {
    room.game().moves_text()
}

#[test]
fn a_local_room_takes_back_one_move_at_a_time_down_to_the_start() {
    let mut room = Room::new(setup(Variant::Shogi, Mode::Local, RoomSettings::default())).unwrap();
    run(&mut room, Command::Join(joiner("ann", None, false)), 0).unwrap();
    run(&mut room, Command::Join(joiner("ann", None, false)), 0).unwrap();
    let both = [Side::First, Side::Second];
    run(&mut room, act(&both, play("7g7f")), 1).unwrap();
    run(&mut room, act(&both, play("3c3d")), 2).unwrap();
    let events = run(&mut room, act(&both, Action::Takeback), 3).unwrap();
    assert!(matches!(events[0].kind, EventKind::TakenBack { ply: 1 }));
    assert_eq!(moves(&room), ["7g7f"]);
    assert_eq!(room.game().side_to_move(), Side::Second);
    run(&mut room, act(&both, Action::Takeback), 4).unwrap();
    assert_eq!(room.game().ply(), 0);
    assert!(matches!(
        room.decide(&act(&both, Action::Takeback), 5),
        Err(Refusal::NoTakeback(_))
    ));
}

#[test]
fn against_the_computer_a_takeback_undoes_the_players_move_and_the_reply_on_their_turn() {
    let mut room = Room::new(setup(
        Variant::Shogi,
        Mode::Computer,
        RoomSettings::default(),
    ))
    .unwrap();
    run(&mut room, Command::Join(joiner("ann", None, false)), 0).unwrap();
    run(&mut room, Command::Join(joiner("computer", None, true)), 0).unwrap();
    let ann = [Side::First];
    run(&mut room, act(&ann, play("7g7f")), 1).unwrap();
    // The computer is thinking: nothing to take back until it answers.
    assert!(matches!(
        room.decide(&act(&ann, Action::Takeback), 2),
        Err(Refusal::NotYourTurn)
    ));
    let asked_on = room.turn();
    let reply = room.game().parse_move("3c3d").unwrap();
    run(
        &mut room,
        Command::ComputerMove {
            turn: asked_on,
            mv: reply,
        },
        3,
    )
    .unwrap();
    let events = run(&mut room, act(&ann, Action::Takeback), 4).unwrap();
    assert!(matches!(events[0].kind, EventKind::TakenBack { ply: 0 }));
    assert_eq!(room.game().ply(), 0);
    // The same move again reaches the same ply, but an answer asked for
    // before the takeback is for a turn that is gone.
    run(&mut room, act(&ann, play("7g7f")), 5).unwrap();
    assert!(matches!(
        room.decide(
            &Command::ComputerMove {
                turn: asked_on,
                mv: reply
            },
            6
        ),
        Err(Refusal::Stale)
    ));
    let turn = room.turn();
    assert!(run(&mut room, Command::ComputerMove { turn, mv: reply }, 7).is_ok());
}

#[test]
fn online_a_takeback_is_asked_and_the_opponent_declines_or_accepts() {
    let settings = RoomSettings {
        time_per_move: 30,
        ..RoomSettings::default()
    };
    let mut room = playing(Variant::Xiangqi, settings);
    assert!(matches!(
        room.decide(&act(&[Side::First], Action::Takeback), 1),
        Err(Refusal::NoTakeback(_))
    ));
    run(&mut room, act(&[Side::First], play("h2e2")), 1_000).unwrap();
    assert!(matches!(
        room.decide(&act(&[Side::Second], Action::DeclineTakeback), 1_500),
        Err(Refusal::NoTakeback(_))
    ));
    let asked = run(&mut room, act(&[Side::First], Action::Takeback), 2_000).unwrap();
    assert!(matches!(
        asked[0].kind,
        EventKind::TakebackOffered { seat: Side::First }
    ));
    assert_eq!(room.takeback_offer(), Some(Side::First));
    // Asking again changes nothing; the one asked may decline.
    assert!(
        run(&mut room, act(&[Side::First], Action::Takeback), 2_500)
            .unwrap()
            .is_empty()
    );
    let declined = run(
        &mut room,
        act(&[Side::Second], Action::DeclineTakeback),
        3_000,
    )
    .unwrap();
    assert!(matches!(
        declined[0].kind,
        EventKind::TakebackDeclined { seat: Side::Second }
    ));
    assert_eq!(room.takeback_offer(), None);
    assert_eq!(moves(&room), ["h2e2"]);
    // Second replies; now First asks to take back its move and the reply.
    run(&mut room, act(&[Side::Second], play("h7e7")), 4_000).unwrap();
    run(&mut room, act(&[Side::First], Action::Takeback), 5_000).unwrap();
    let accepted = run(&mut room, act(&[Side::Second], Action::Takeback), 6_000).unwrap();
    assert!(matches!(accepted[0].kind, EventKind::TakenBack { ply: 0 }));
    assert_eq!(room.game().ply(), 0);
    assert_eq!(room.takeback_offer(), None);
    // The side to move's turn starts afresh at the takeback.
    assert_eq!(room.clock_deadline(), Some(36_000));
}

#[test]
fn a_move_withdraws_a_takeback_asked_and_rated_rooms_refuse_takebacks() {
    let mut room = playing(Variant::Shogi, RoomSettings::default());
    run(&mut room, act(&[Side::First], play("7g7f")), 1).unwrap();
    run(&mut room, act(&[Side::First], Action::Takeback), 2).unwrap();
    run(&mut room, act(&[Side::Second], play("3c3d")), 3).unwrap();
    assert_eq!(room.takeback_offer(), None);
    let rated = RoomSettings {
        rated: true,
        ..RoomSettings::default()
    };
    let mut room = playing(Variant::Shogi, rated);
    run(&mut room, act(&[Side::First], play("7g7f")), 1).unwrap();
    assert!(matches!(
        room.decide(&act(&[Side::First], Action::Takeback), 2),
        Err(Refusal::NoTakeback("a rated game has no takebacks"))
    ));
}

#[test]
fn online_both_seats_agree_to_analyse_a_game_being_played_until_the_next_game() {
    let mut room = playing(Variant::Minishogi, RoomSettings::default());
    assert!(!room.analysable());
    let asked = run(&mut room, act(&[Side::Second], Action::AgreeAnalysis), 1).unwrap();
    assert!(matches!(
        asked[..],
        [Event {
            kind: EventKind::AnalysisOffered { seat: Side::Second },
            ..
        }]
    ));
    // Asking again changes nothing; a move leaves the asking standing.
    assert!(
        run(&mut room, act(&[Side::Second], Action::AgreeAnalysis), 2)
            .unwrap()
            .is_empty()
    );
    run(&mut room, act(&[Side::First], play("5d5c")), 3).unwrap();
    assert_eq!(room.analysis_offer(), Some(Side::Second));
    assert!(!room.analysable());
    let agreed = run(&mut room, act(&[Side::First], Action::AgreeAnalysis), 4).unwrap();
    assert!(matches!(agreed[0].kind, EventKind::AnalysisAgreed));
    assert!((room.analysable(), room.analysis_offer()) == (true, None));
    assert!(
        run(&mut room, act(&[Side::Second], Action::AgreeAnalysis), 5)
            .unwrap()
            .is_empty()
    );
    // Once over, nothing to agree; the next game starts unagreed.
    run(&mut room, act(&[Side::First], Action::Resign), 6).unwrap();
    assert!(matches!(
        room.decide(&act(&[Side::First], Action::AgreeAnalysis), 7),
        Err(Refusal::NotPlaying(_))
    ));
    run(&mut room, act(&[Side::First], Action::Rematch), 8).unwrap();
    run(&mut room, act(&[Side::Second], Action::Rematch), 9).unwrap();
    assert_eq!(room.status(), RoomStatus::Playing);
    assert!(!room.analysable());
}

#[test]
fn local_and_computer_rooms_agree_to_analyse_at_once_and_rated_rooms_refuse() {
    let mut local = Room::new(setup(Variant::Shogi, Mode::Local, RoomSettings::default())).unwrap();
    run(&mut local, Command::Join(joiner("ann", None, false)), 0).unwrap();
    run(&mut local, Command::Join(joiner("ann", None, false)), 0).unwrap();
    let both = [Side::First, Side::Second];
    let agreed = run(&mut local, act(&both, Action::AgreeAnalysis), 1).unwrap();
    assert!(matches!(
        agreed[..],
        [Event {
            kind: EventKind::AnalysisAgreed,
            ..
        }]
    ));
    let mut computer = Room::new(setup(
        Variant::Xiangqi,
        Mode::Computer,
        RoomSettings::default(),
    ))
    .unwrap();
    run(&mut computer, Command::Join(joiner("ann", None, false)), 0).unwrap();
    run(
        &mut computer,
        Command::Join(joiner("computer", None, true)),
        0,
    )
    .unwrap();
    run(&mut computer, act(&[Side::First], Action::AgreeAnalysis), 1).unwrap();
    assert!(computer.analysable());
    let rated = RoomSettings {
        rated: true,
        ..RoomSettings::default()
    };
    let room = playing(Variant::Shogi, rated);
    assert!(matches!(
        room.decide(&act(&[Side::First], Action::AgreeAnalysis), 1),
        Err(Refusal::RatedGame)
    ));
}

#[test]
fn quick_chat_is_for_seated_players_of_online_rooms_one_phrase_every_3_seconds() {
    let mut room = playing(Variant::Shogi, RoomSettings::default());
    let said = run(
        &mut room,
        act(&[Side::Second], Action::Chat(Phrase::GoodLuck)),
        1_000,
    )
    .unwrap();
    assert!(matches!(
        said[0].kind,
        EventKind::Chat {
            seat: Side::Second,
            phrase: Phrase::GoodLuck
        }
    ));
    assert!(matches!(
        room.decide(&act(&[Side::Second], Action::Chat(Phrase::Oops)), 3_999),
        Err(Refusal::ChatTooSoon)
    ));
    // The other seat has its own pace, and the game over is no reason for silence.
    run(
        &mut room,
        act(&[Side::First], Action::Chat(Phrase::HaveFun)),
        2_000,
    )
    .unwrap();
    run(&mut room, act(&[Side::First], Action::Resign), 2_500).unwrap();
    run(
        &mut room,
        act(&[Side::Second], Action::Chat(Phrase::GoodGame)),
        4_000,
    )
    .unwrap();
    assert!(matches!(
        room.decide(&act(&[], Action::Chat(Phrase::Oops)), 9_000),
        Err(Refusal::NotSeated)
    ));

    let quiet = RoomSettings {
        chat: false,
        ..RoomSettings::default()
    };
    let room = playing(Variant::Shogi, quiet);
    assert!(matches!(
        room.decide(&act(&[Side::First], Action::Chat(Phrase::Hello)), 0),
        Err(Refusal::NoChat(_))
    ));
    let mut local = Room::new(setup(Variant::Shogi, Mode::Local, RoomSettings::default())).unwrap();
    run(&mut local, Command::Join(joiner("ann", None, false)), 0).unwrap();
    assert!(matches!(
        local.decide(&act(&[Side::First], Action::Chat(Phrase::Hello)), 0),
        Err(Refusal::NoChat(_))
    ));
}
