//! One conformance suite for every backend: SQLite always, PostgreSQL when
//! `TEST_DATABASE_URL` names a database (`.ci/run` starts one).
//!
//! Every id is made unique per run, so the suite may run again on the same
//! PostgreSQL database.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use store::{
    AnalysisRecord, EventRecord, GameRecord, Lease, NodeRecord, PlayerGame, RatingRecord,
    RoomRecord, SeatRecord, Store, StoreError,
};

fn unique(prefix: &str) -> String {
    // Parallel tests may read the same clock value: the counter keeps them apart.
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let serial = NEXT.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{prefix}-{}-{serial}-{nanos}", std::process::id())
}

fn room(id: &str, device: &str, created_at: i64) -> RoomRecord {
    RoomRecord {
        id: id.to_owned(),
        variant: "shogi".to_owned(),
        mode: "online".to_owned(),
        level: 0,
        settings: r#"{"time_per_move":0}"#.to_owned(),
        start: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_owned(),
        device: device.to_owned(),
        created_at,
    }
}

fn event(seq: i64, kind: &str, data: &str) -> EventRecord {
    EventRecord {
        seq,
        at: 1_000 + seq,
        kind: kind.to_owned(),
        data: data.to_owned(),
    }
}

/// Saves `room` with no limit on its device.
async fn create(store: &dyn Store, room: &RoomRecord) -> store::Result<()> {
    assert!(store.create_room_within_limit(room, 0, i64::MAX).await?);
    Ok(())
}

async fn rooms_and_seats(store: &dyn Store) {
    let device = unique("device");
    let id = unique("room");
    create(store, &room(&id, &device, 5_000)).await.unwrap();
    assert_eq!(store.room(&id).await.unwrap(), room(&id, &device, 5_000));
    assert!(matches!(
        create(store, &room(&id, &device, 6_000)).await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store.room("no-such-room").await,
        Err(StoreError::NotFound)
    ));

    let other = unique("room");
    create(store, &room(&other, &device, 9_000)).await.unwrap();
    // Two rooms of the device: a limit of 2 is reached, counting from 6 s only one.
    let third = room(&unique("room"), &device, 10_000);
    assert!(!store.create_room_within_limit(&third, 0, 2).await.unwrap());
    assert!(
        store
            .create_room_within_limit(&third, 6_000, 2)
            .await
            .unwrap()
    );

    let unfinished = store.unfinished_rooms().await.unwrap();
    assert!(unfinished.contains(&id) && unfinished.contains(&other));
    store.set_finished(&id, true).await.unwrap();
    let unfinished = store.unfinished_rooms().await.unwrap();
    assert!(!unfinished.contains(&id) && unfinished.contains(&other));
    store.set_finished(&id, false).await.unwrap();
    assert!(store.unfinished_rooms().await.unwrap().contains(&id));

    let seat = SeatRecord {
        room_id: id.clone(),
        seat: "first".to_owned(),
        token_hash: store::digest("secret-1"),
        player: "alice".to_owned(),
    };
    let seated = event(1, "seated", r#"{"seat":"first"}"#);
    store
        .append_events(&id, std::slice::from_ref(&seated), Some(&seat))
        .await
        .unwrap();
    let taken_again = SeatRecord {
        token_hash: store::digest("secret-2"),
        ..seat.clone()
    };
    // A seat taken twice stores nothing, not even the event beside it.
    assert!(matches!(
        store
            .append_events(&id, &[event(2, "seated", "{}")], Some(&taken_again))
            .await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.events(&id, 0).await.unwrap(), [seated]);
    let second = SeatRecord {
        seat: "second".to_owned(),
        token_hash: store::digest("secret-3"),
        player: "bob".to_owned(),
        ..seat.clone()
    };
    store
        .append_events(&id, &[event(2, "seated", "{}")], Some(&second))
        .await
        .unwrap();
    assert_eq!(store.seats(&id).await.unwrap(), vec![seat, second]);
    assert!(store.seats(&other).await.unwrap().is_empty());
}

async fn event_log(store: &dyn Store) {
    let id = unique("room");
    create(store, &room(&id, "d", 1)).await.unwrap();
    let log = [
        event(1, "seat", r#"{"seat":"first"}"#),
        event(2, "move", r#"{"move":"7g7f"}"#),
        event(3, "move", r#"{"move":"3c3d"}"#),
    ];
    store.append_events(&id, &log[..1], None).await.unwrap();
    store.append_events(&id, &log[1..], None).await.unwrap();
    // A batch with one number taken stores none of its events.
    assert!(matches!(
        store
            .append_events(&id, &[event(4, "move", "{}"), event(2, "move", "{}")], None)
            .await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.events(&id, 0).await.unwrap(), log);
    assert_eq!(store.events(&id, 1).await.unwrap(), log[1..]);
    assert!(store.events(&id, 3).await.unwrap().is_empty());
    assert!(store.events("no-such-room", 0).await.unwrap().is_empty());
}

async fn games_counts_and_ratings(store: &dyn Store) {
    // A variant name of its own keeps the counts of earlier runs out.
    let variant = unique("variant");
    let (alice, bob) = (unique("alice"), unique("bob"));
    let id = unique("room");
    create(store, &room(&id, "d", 1)).await.unwrap();
    let results = [Some("first"), Some("first"), Some("second"), None];
    for (number, winner) in (1..).zip(results) {
        // Alice moves first in odd games, Bob in even ones.
        let (first, second) = if number % 2 == 1 {
            (&alice, &bob)
        } else {
            (&bob, &alice)
        };
        let game = GameRecord {
            room_id: id.clone(),
            number,
            variant: variant.clone(),
            rated: true,
            first_player: first.clone(),
            second_player: second.clone(),
            winner: winner.map(str::to_owned),
            reason: if winner.is_some() {
                "checkmate"
            } else {
                "agreement"
            }
            .to_owned(),
            finished_at: 10 + number,
        };
        let rating = RatingRecord {
            player: alice.clone(),
            variant: variant.clone(),
            rating: 1500.0 + number as f64,
            deviation: 300.0,
            volatility: 0.06,
            games: number,
        };
        store.finish_game(&game, &[rating]).await.unwrap();
        if number == 1 {
            assert!(matches!(
                store.finish_game(&game, &[]).await,
                Err(StoreError::Conflict)
            ));
        }
    }
    let counts = store.variant_counts().await.unwrap();
    let mine = counts.iter().find(|c| c.variant == variant).unwrap();
    assert_eq!((mine.first_wins, mine.second_wins, mine.draws), (2, 1, 1));

    let alice_counts = store.player_counts(&alice).await.unwrap();
    assert_eq!(alice_counts.len(), 1);
    let c = &alice_counts[0];
    // Game 1: Alice first, first won: win. Game 2: Bob first, first won: loss.
    // Game 3: Alice first, second won: loss. Game 4: draw.
    assert_eq!((c.wins, c.losses, c.draws), (1, 2, 1));

    let rating = store.rating(&alice, &variant).await.unwrap().unwrap();
    assert_eq!((rating.rating, rating.games), (1504.0, 4));
    assert_eq!(store.rating(&bob, &variant).await.unwrap(), None);
}

async fn players(store: &dyn Store) {
    let player = unique("player");
    assert!(matches!(
        store.player_name(&player).await,
        Err(StoreError::NotFound)
    ));
    store.set_player_name(&player, "Sakura").await.unwrap();
    store.set_player_name(&player, "Sakura 2").await.unwrap();
    assert_eq!(store.player_name(&player).await.unwrap(), "Sakura 2");
    // A player made by name alone has no credential: no one can act as them.
    assert_eq!(store.player_secret_hash(&player).await.unwrap(), None);
    let with_secret = unique("player");
    let hash = store::digest("credential");
    store
        .create_player(&with_secret, &hash, "Kaede")
        .await
        .unwrap();
    assert_eq!(
        store.player_secret_hash(&with_secret).await.unwrap(),
        Some(hash.clone())
    );
    assert_eq!(store.player_name(&with_secret).await.unwrap(), "Kaede");
    assert!(matches!(
        store.create_player(&with_secret, &hash, "Again").await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store.player_secret_hash("nobody-at-all").await,
        Err(StoreError::NotFound)
    ));
}

async fn analyses(store: &dyn Store) {
    let id = unique("room");
    create(store, &room(&id, &unique("device"), 1_000))
        .await
        .unwrap();
    assert_eq!(store.analysis(&id, 1).await.unwrap(), None);
    let first = AnalysisRecord {
        room_id: id.clone(),
        game: 1,
        plies: r#"[{"ply":0,"score":{"cp":30},"best":"7g7f","pv":["7g7f"]}]"#.to_owned(),
        created_at: 2_000,
    };
    store.save_analysis(&first).await.unwrap();
    assert_eq!(store.analysis(&id, 1).await.unwrap(), Some(first.clone()));
    // One per game: the rematch's is its own, and a game's is kept once.
    assert_eq!(store.analysis(&id, 2).await.unwrap(), None);
    let rematch = AnalysisRecord {
        game: 2,
        plies: "[]".to_owned(),
        ..first.clone()
    };
    store.save_analysis(&rematch).await.unwrap();
    assert_eq!(store.analysis(&id, 2).await.unwrap(), Some(rematch));
    assert!(matches!(
        store.save_analysis(&first).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.analysis(&id, 1).await.unwrap(), Some(first));
}

/// 150 simultaneous creations from one device with a limit of 100: exactly
/// 100 rooms, whatever the interleaving.
async fn room_limit_holds_under_concurrency(store: Arc<dyn Store>) {
    let device = unique("device");
    let creations = (0..150).map(|_| {
        let store = store.clone();
        let room = room(&unique("room"), &device, 10_000);
        tokio::spawn(async move { store.create_room_within_limit(&room, 5_000, 100).await })
    });
    let mut created = 0;
    for creation in creations.collect::<Vec<_>>() {
        created += usize::from(creation.await.unwrap().unwrap());
    }
    assert_eq!(created, 100);
    let one_more = room(&unique("room"), &device, 10_000);
    assert!(
        !store
            .create_room_within_limit(&one_more, 5_000, 100)
            .await
            .unwrap()
    );
    // Rooms before `since` do not count; other devices are not limited by this one.
    assert!(
        store
            .create_room_within_limit(&room(&unique("room"), &device, 20_000), 15_000, 100)
            .await
            .unwrap()
    );
    let other = unique("device");
    assert!(
        store
            .create_room_within_limit(&room(&unique("room"), &other, 10_000), 5_000, 1)
            .await
            .unwrap()
    );
    assert!(
        !store
            .create_room_within_limit(&room(&unique("room"), &other, 10_001), 5_000, 1)
            .await
            .unwrap()
    );
}

/// Many rooms append at once, each one event after another: every room's log
/// holds its events, numbered in order, whatever shared a transaction.
async fn concurrent_appends_to_many_rooms(store: Arc<dyn Store>) {
    let rooms: Vec<String> = (0..40).map(|_| unique("room")).collect();
    for id in &rooms {
        create(&*store, &room(id, "d", 1)).await.unwrap();
    }
    let writers = rooms.iter().map(|id| {
        let store = store.clone();
        let id = id.clone();
        tokio::spawn(async move {
            for seq in 1..=10 {
                let data = format!(r#"{{"room":"{id}","seq":{seq}}}"#);
                store
                    .append_events(&id, &[event(seq, "move", &data)], None)
                    .await
                    .unwrap();
            }
        })
    });
    for writer in writers.collect::<Vec<_>>() {
        writer.await.unwrap();
    }
    for id in &rooms {
        let expected: Vec<EventRecord> = (1..=10)
            .map(|seq| event(seq, "move", &format!(r#"{{"room":"{id}","seq":{seq}}}"#)))
            .collect();
        assert_eq!(store.events(id, 0).await.unwrap(), expected);
    }
}

/// An append that conflicts among many sent at the same moment fails alone:
/// the others are stored, and nothing of it is.
async fn a_failing_append_fails_alone(store: Arc<dyn Store>) {
    for _ in 0..5 {
        let bad_room = unique("room");
        create(&*store, &room(&bad_room, "d", 1)).await.unwrap();
        store
            .append_events(&bad_room, &[event(1, "move", "{}")], None)
            .await
            .unwrap();
        let good_rooms: Vec<String> = (0..20).map(|_| unique("room")).collect();
        for id in &good_rooms {
            create(&*store, &room(id, "d", 1)).await.unwrap();
        }
        let mut appends: Vec<_> = good_rooms
            .iter()
            .map(|id| {
                let (store, id) = (store.clone(), id.clone());
                tokio::spawn(async move {
                    store
                        .append_events(&id, &[event(1, "move", "{}"), event(2, "move", "{}")], None)
                        .await
                })
            })
            .collect();
        // Number 1 is taken: the whole append fails, its number 2 included.
        let (store_bad, id_bad) = (store.clone(), bad_room.clone());
        appends.insert(
            10,
            tokio::spawn(async move {
                store_bad
                    .append_events(
                        &id_bad,
                        &[event(2, "move", "{}"), event(1, "move", "{}")],
                        None,
                    )
                    .await
            }),
        );
        for (index, append) in appends.into_iter().enumerate() {
            let outcome = append.await.unwrap();
            if index == 10 {
                assert!(matches!(outcome, Err(StoreError::Conflict)), "{outcome:?}");
            } else {
                outcome.unwrap();
            }
        }
        assert_eq!(
            store.events(&bad_room, 0).await.unwrap(),
            [event(1, "move", "{}")]
        );
        for id in &good_rooms {
            assert_eq!(store.events(id, 0).await.unwrap().len(), 2);
        }
    }
}

/// An append is acknowledged only once its transaction committed: another
/// connection to the database (`reader`, a second store) sees it at once.
async fn acknowledged_appends_are_committed(store: Arc<dyn Store>, reader: Arc<dyn Store>) {
    let rooms: Vec<String> = (0..20).map(|_| unique("room")).collect();
    for id in &rooms {
        create(&*store, &room(id, "d", 1)).await.unwrap();
    }
    let writers = rooms.iter().map(|id| {
        let (store, reader, id) = (store.clone(), reader.clone(), id.clone());
        tokio::spawn(async move {
            for seq in 1..=5 {
                store
                    .append_events(&id, &[event(seq, "move", "{}")], None)
                    .await
                    .unwrap();
                let seen = reader.events(&id, seq - 1).await.unwrap();
                assert_eq!(seen, [event(seq, "move", "{}")], "room {id}, event {seq}");
            }
        })
    });
    for writer in writers.collect::<Vec<_>>() {
        writer.await.unwrap();
    }
}

fn now_ms() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// Nodes say they are alive and are listed until they stop.
async fn nodes(store: &dyn Store) {
    let (a, b) = (unique("node"), unique("node"));
    let now = now_ms();
    let node = |id: &str, url: &str, heartbeat| NodeRecord {
        id: id.to_owned(),
        url: url.to_owned(),
        heartbeat,
        lobby: format!("{{\"of\": \"{url}\"}}"),
    };
    store.heartbeat(&node(&a, "http://a", now)).await.unwrap();
    store
        .heartbeat(&node(&b, "http://b", now - 60_000))
        .await
        .unwrap();
    let alive = store.nodes(now - 10_000).await.unwrap();
    assert!(alive.contains(&node(&a, "http://a", now)), "{alive:?}");
    assert!(!alive.iter().any(|n| n.id == b), "b's heartbeat is old");
    store.heartbeat(&node(&b, "http://b2", now)).await.unwrap();
    let alive = store.nodes(now - 10_000).await.unwrap();
    assert!(alive.contains(&node(&b, "http://b2", now)), "{alive:?}");
    store.remove_node(&a).await.unwrap();
    assert!(!store.nodes(0).await.unwrap().iter().any(|n| n.id == a));
    store.remove_node(&b).await.unwrap();
}

/// One node holds a room at a time; a node that lost the room stores nothing.
async fn leases_and_fencing(store: &dyn Store) {
    let (a, b) = (unique("node"), unique("node"));
    let now = now_ms();
    let id = unique("room");
    create(store, &room(&id, "d", now)).await.unwrap();
    assert_eq!(store.owner(&id).await.unwrap(), None);
    store
        .heartbeat(&NodeRecord {
            id: a.clone(),
            url: "http://a:1".to_owned(),
            heartbeat: now,
            lobby: String::new(),
        })
        .await
        .unwrap();

    let held = store
        .acquire_lease(&id, &a, now, now + 10_000)
        .await
        .unwrap()
        .expect("a free room is taken");
    assert_eq!(
        held,
        Lease {
            room_id: id.clone(),
            node: a.clone(),
            fence: 1,
            expires_at: now + 10_000
        }
    );
    assert_eq!(
        store
            .acquire_lease(&id, &b, now + 5_000, now + 15_000)
            .await
            .unwrap(),
        None,
        "a held lease is not taken"
    );
    // Its holder asks again: the same fence, a later expiry.
    let again = store
        .acquire_lease(&id, &a, now + 1, now + 11_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((again.fence, again.expires_at), (1, now + 11_000));
    let owner = store.owner(&id).await.unwrap().unwrap();
    assert_eq!(
        (owner.node.as_str(), owner.url.as_str()),
        (a.as_str(), "http://a:1")
    );
    store
        .append_events_fenced(&id, &[event(1, "move", "{}")], None, Some(&again))
        .await
        .unwrap();
    assert!(
        !store
            .orphaned_rooms(now + 5_000, i64::MAX)
            .await
            .unwrap()
            .contains(&id)
    );

    // The lease lapses; b takes the room with a higher fence.
    assert!(
        store
            .orphaned_rooms(now + 11_000, i64::MAX)
            .await
            .unwrap()
            .contains(&id)
    );
    let taken = store
        .acquire_lease(&id, &b, now + 11_000, now + 21_000)
        .await
        .unwrap()
        .expect("a lapsed lease is taken");
    assert_eq!((taken.node.as_str(), taken.fence), (b.as_str(), 2));
    let owner = store.owner(&id).await.unwrap().unwrap();
    assert_eq!((owner.node.as_str(), owner.url.as_str()), (b.as_str(), ""));
    // a no longer stores anything for the room, not even with a seat.
    let seat = SeatRecord {
        room_id: id.clone(),
        seat: "first".to_owned(),
        token_hash: store::digest("t"),
        player: "p".to_owned(),
    };
    assert!(matches!(
        store
            .append_events_fenced(&id, &[event(2, "seated", "{}")], Some(&seat), Some(&again))
            .await,
        Err(StoreError::Fenced)
    ));
    assert_eq!(store.seats(&id).await.unwrap(), []);
    // Nor a lone event (one statement, not a transaction).
    assert!(matches!(
        store
            .append_events_fenced(&id, &[event(2, "move", "{}")], None, Some(&again))
            .await,
        Err(StoreError::Fenced)
    ));
    assert_eq!(store.events(&id, 0).await.unwrap().len(), 1);
    store
        .append_events_fenced(&id, &[event(2, "move", "{}")], None, Some(&taken))
        .await
        .unwrap();
    assert_eq!(store.events(&id, 0).await.unwrap().len(), 2);
    // Renewing extends only the holder's leases.
    assert!(
        store
            .renew_leases(&a, now + 99_000)
            .await
            .unwrap()
            .iter()
            .all(|l| l.room_id != id)
    );
    let renewed = store.renew_leases(&b, now + 30_000).await.unwrap();
    assert!(renewed.contains(&Lease {
        expires_at: now + 30_000,
        ..taken.clone()
    }));
    // A stale release changes nothing; the holder's lets the room go at once.
    store.release_lease(&again).await.unwrap();
    assert_eq!(
        store.owner(&id).await.unwrap().unwrap().expires_at,
        now + 30_000
    );
    store.release_lease(&taken).await.unwrap();
    // A released lease is not renewed.
    assert!(
        store
            .renew_leases(&b, now + 50_000)
            .await
            .unwrap()
            .iter()
            .all(|l| l.room_id != id)
    );
    assert!(
        store
            .orphaned_rooms(now, i64::MAX)
            .await
            .unwrap()
            .contains(&id)
    );
    let back = store
        .acquire_lease(&id, &a, now, now + 10_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((back.node.as_str(), back.fence), (a.as_str(), 3));
    // A finished room is nobody's to take over.
    store.set_finished(&id, true).await.unwrap();
    assert!(
        !store
            .orphaned_rooms(now + 99_000, i64::MAX)
            .await
            .unwrap()
            .contains(&id)
    );
    store.remove_node(&a).await.unwrap();
}

/// Nodes racing for a lapsed room: exactly one wins it; a fenced append in
/// a batch fails alone.
async fn lease_races(store: Arc<dyn Store>) {
    let now = now_ms();
    let id = unique("room");
    create(&*store, &room(&id, "d", now)).await.unwrap();
    let racers = (0..8).map(|_| {
        let (store, id) = (store.clone(), id.clone());
        tokio::spawn(async move {
            store
                .acquire_lease(&id, &unique("node"), now, now + 10_000)
                .await
                .unwrap()
        })
    });
    let mut won = Vec::new();
    for racer in racers.collect::<Vec<_>>() {
        won.extend(racer.await.unwrap());
    }
    assert_eq!(won.len(), 1, "{won:?}");
    let stale = Lease {
        fence: won[0].fence - 1,
        ..won[0].clone()
    };
    let others: Vec<String> = (0..10).map(|_| unique("room")).collect();
    for other in &others {
        create(&*store, &room(other, "d", now)).await.unwrap();
    }
    let appends = others.iter().map(|other| {
        let (store, other) = (store.clone(), other.clone());
        tokio::spawn(async move {
            store
                .append_events(&other, &[event(1, "move", "{}")], None)
                .await
        })
    });
    let fenced = {
        let (store, id) = (store.clone(), id.clone());
        tokio::spawn(async move {
            store
                .append_events_fenced(&id, &[event(1, "move", "{}")], None, Some(&stale))
                .await
        })
    };
    for append in appends.collect::<Vec<_>>() {
        append.await.unwrap().unwrap();
    }
    assert!(matches!(fenced.await.unwrap(), Err(StoreError::Fenced)));
    assert_eq!(store.events(&id, 0).await.unwrap(), []);
}

/// Renewals go a few hundred leases at a time: more than that are all renewed,
/// and all released.
async fn many_leases_renew_and_release(store: &dyn Store) {
    let node = unique("node");
    let now = now_ms();
    let mut ids = Vec::new();
    for _ in 0..600 {
        let id = unique("room");
        create(store, &room(&id, "d", now)).await.unwrap();
        store
            .acquire_lease(&id, &node, now, now + 10_000)
            .await
            .unwrap()
            .unwrap();
        ids.push(id);
    }
    let renewed = store.renew_leases(&node, now + 20_000).await.unwrap();
    assert_eq!(renewed.len(), 600);
    assert!(renewed.iter().all(|lease| lease.expires_at == now + 20_000));
    // Renewing to the same time again keeps them all.
    assert_eq!(
        store.renew_leases(&node, now + 20_000).await.unwrap().len(),
        600
    );
    assert_eq!(store.renew_leases(&node, 0).await.unwrap(), []);
    for id in &ids {
        assert_eq!(store.owner(id).await.unwrap().unwrap().expires_at, 0);
    }
}

async fn conformance(store: Arc<dyn Store>, reader: Arc<dyn Store>) {
    nodes(&*store).await;
    leases_and_fencing(&*store).await;
    many_leases_renew_and_release(&*store).await;
    lease_races(store.clone()).await;
    room_limit_holds_under_concurrency(store.clone()).await;
    concurrent_appends_to_many_rooms(store.clone()).await;
    a_failing_append_fails_alone(store.clone()).await;
    acknowledged_appends_are_committed(store.clone(), reader).await;
    rooms_and_seats(&*store).await;
    event_log(&*store).await;
    games_counts_and_ratings(&*store).await;
    players(&*store).await;
    analyses(&*store).await;
    a_players_games(&*store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_conforms_and_keeps_data_across_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("koma.sqlite");
    let url = format!("sqlite://{}", path.display());
    let store = store::open(&url).await.unwrap();
    let reader = store::open(&url).await.unwrap();
    conformance(store.clone(), reader).await;
    let id = unique("room");
    create(&*store, &room(&id, "d", 1)).await.unwrap();
    store
        .append_events(&id, &[event(1, "move", "{}")], None)
        .await
        .unwrap();
    drop(store);
    // Opening again runs the migrations again (a no-op) and finds the data.
    let again = store::open(&url).await.unwrap();
    assert_eq!(
        again.events(&id, 0).await.unwrap(),
        [event(1, "move", "{}")]
    );
}

#[tokio::test]
async fn the_sqlite_file_is_private_and_old_plain_tokens_are_hashed_on_opening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("koma.sqlite");
    let url = format!("sqlite://{}", path.display());
    let store = store::open(&url).await.unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    let id = unique("room");
    create(&*store, &room(&id, "d", 1)).await.unwrap();
    drop(store);
    // A seat as builds before the digests stored it: the token in plain text.
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::query(
        "INSERT INTO seats (room_id, seat, token, player) VALUES ($1, 'first', 'plain', 'p')",
    )
    .bind(&id)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let store = store::open(&url).await.unwrap();
    let seats = store.seats(&id).await.unwrap();
    assert_eq!(seats[0].token_hash, store::digest("plain"));
    drop(store);
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let kept: Vec<String> = sqlx::query_scalar("SELECT token FROM seats")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(kept, [""], "no token is kept in plain text");
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_conforms_when_a_test_database_is_given() {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: PostgreSQL store tests skipped");
        return;
    };
    let reader = store::open(&url).await.unwrap();
    conformance(store::open(&url).await.unwrap(), reader).await;
}

/// A fenced append holds its lease's row until it commits: renewing the
/// node's leases meanwhile neither waits for it (which held up every append
/// behind the renewal) nor deadlocks with it; that lease is renewed next time.
#[tokio::test]
async fn postgres_renews_leases_without_waiting_for_a_write_in_flight() {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: PostgreSQL store tests skipped");
        return;
    };
    let store = store::open(&url).await.unwrap();
    let (node, busy, quiet) = (unique("node"), unique("room"), unique("room"));
    let now = now_ms();
    let mut leases = Vec::new();
    for id in [&busy, &quiet] {
        create(&*store, &room(id, "d", now)).await.unwrap();
        leases.push(
            store
                .acquire_lease(id, &node, now, now + 10_000)
                .await
                .unwrap()
                .unwrap(),
        );
    }
    // A write in flight on the busy room, as a fenced append holds it.
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    let mut write = pool.begin().await.unwrap();
    sqlx::query("SELECT fence FROM leases WHERE room_id = $1 FOR SHARE")
        .bind(&busy)
        .fetch_one(&mut *write)
        .await
        .unwrap();
    let renewed = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        store.renew_leases(&node, now + 20_000),
    )
    .await
    .expect("the renewal waited for the write")
    .unwrap();
    assert!(renewed.contains(&leases[0]), "{renewed:?}");
    assert!(
        renewed.contains(&Lease {
            expires_at: now + 20_000,
            ..leases[1].clone()
        }),
        "{renewed:?}"
    );
    write.rollback().await.unwrap();
    let renewed = store.renew_leases(&node, now + 30_000).await.unwrap();
    assert_eq!(renewed.len(), 2, "{renewed:?}");
    assert!(renewed.iter().all(|lease| lease.expires_at == now + 30_000));
}

#[tokio::test]
async fn an_unknown_scheme_is_named() {
    let err = store::open("mysql://localhost/koma").await.err().unwrap();
    assert!(err.to_string().contains("mysql"), "{err}");
}

/// An error and its sources as a report prints them: `a: b: c`.
fn chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

#[tokio::test]
async fn a_database_error_says_its_cause_once() {
    let missing = std::env::temp_dir()
        .join(unique("no-such-dir"))
        .join("koma.sqlite");
    let err = store::open(&format!("sqlite://{}", missing.display()))
        .await
        .err()
        .unwrap();
    let StoreError::Database(cause) = &err else {
        panic!("{err:?}");
    };
    let report = chain(&err);
    assert_eq!(report.matches(&cause.to_string()).count(), 1, "{report}");
}

/// The readers and the writer are connections of their own: an in-memory
/// database would be one per connection, so it is refused, and no file named
/// after it is left in the working directory.
#[tokio::test]
async fn an_in_memory_sqlite_database_is_refused_by_name() {
    for url in [
        "sqlite::memory:",
        "sqlite://:memory:",
        "sqlite://koma?mode=memory",
    ] {
        let err = store::open(url).await.err().unwrap();
        assert!(matches!(err, StoreError::InMemory), "{url}: {err:?}");
        assert!(err.to_string().contains("in-memory"), "{err}");
    }
    let entries = std::fs::read_dir(".").unwrap();
    let left: Vec<_> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.contains("memory") || name == "koma")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Seats `player` in `seat` of the room `id`, with event `seq`.
async fn seat(store: &dyn Store, id: &str, seq: i64, seat: &str, player: &str) {
    let record = SeatRecord {
        room_id: id.to_owned(),
        seat: seat.to_owned(),
        token_hash: store::digest(&format!("{id}-{seat}")),
        player: player.to_owned(),
    };
    store
        .append_events(id, &[event(seq, "seated", "{}")], Some(&record))
        .await
        .unwrap();
}

async fn a_players_games(store: &dyn Store) {
    let (ann, bob) = (unique("ann"), unique("bob"));
    store.create_player(&bob, "hash", "Bob").await.unwrap();
    let (won, waiting, local) = (unique("won"), unique("waiting"), unique("local"));
    let rooms = [(&won, 1_000), (&waiting, 2_000), (&local, 3_000)];
    for (id, created_at) in rooms {
        create(store, &room(id, "d", created_at)).await.unwrap();
    }
    // An online game Ann won as second, a room waiting for her opponent, and a
    // local room where she holds both seats.
    seat(store, &won, 1, "first", &bob).await;
    seat(store, &won, 2, "second", &ann).await;
    let game = GameRecord {
        room_id: won.clone(),
        number: 1,
        variant: "shogi".to_owned(),
        rated: false,
        first_player: bob.clone(),
        second_player: ann.clone(),
        winner: Some("second".to_owned()),
        reason: "checkmate".to_owned(),
        finished_at: 1_500,
    };
    store.finish_game(&game, &[]).await.unwrap();
    store.set_finished(&won, true).await.unwrap();
    seat(store, &waiting, 1, "first", &ann).await;
    seat(store, &local, 1, "first", &ann).await;
    seat(store, &local, 2, "second", &ann).await;

    let games = store.player_games(&ann, 10, 0).await.unwrap();
    let ids: Vec<&str> = games.iter().map(|game| game.room_id.as_str()).collect();
    assert_eq!(
        ids,
        [local.as_str(), waiting.as_str(), won.as_str()],
        "newest first, one row a room"
    );
    assert_eq!(
        games[2],
        PlayerGame {
            room_id: won.clone(),
            variant: "shogi".to_owned(),
            mode: "online".to_owned(),
            created_at: 1_000,
            finished: 1,
            seat: "second".to_owned(),
            opponent: Some(bob.clone()),
            opponent_name: Some("Bob".to_owned()),
            result: Some("win".to_owned()),
            reason: Some("checkmate".to_owned()),
        }
    );
    assert_eq!(
        (games[1].opponent.as_deref(), games[1].result.as_deref()),
        (None, None)
    );
    assert_eq!(
        (games[0].seat.as_str(), games[0].opponent.as_deref()),
        ("first", Some(ann.as_str()))
    );
    // Pages: the limit and the offset.
    let second_page = store.player_games(&ann, 2, 2).await.unwrap();
    assert_eq!(second_page.len(), 1);
    assert_eq!(second_page[0].room_id, won);
    let bobs = store.player_games(&bob, 10, 0).await.unwrap();
    assert_eq!(bobs.len(), 1);
    assert_eq!(
        (bobs[0].seat.as_str(), bobs[0].result.as_deref()),
        ("first", Some("loss"))
    );
    assert!(
        store
            .player_games(&unique("nobody"), 10, 0)
            .await
            .unwrap()
            .is_empty()
    );
}
