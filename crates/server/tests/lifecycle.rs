//! What happens over time: restarts, clocks, away players, ratings, limits.

mod common;

use std::time::Duration;

use common::{TempDatabase, TestServer};
use serde_json::json;
use server::Config;

#[tokio::test]
async fn rooms_come_back_after_a_restart_on_the_same_database() {
    let database = TempDatabase::new();
    let url = database.url();
    restart(url).await;
}

#[tokio::test]
async fn rooms_come_back_after_a_restart_on_postgres_when_given() {
    match std::env::var("TEST_DATABASE_URL") {
        Ok(url) => restart(&url).await,
        Err(_) => eprintln!("TEST_DATABASE_URL is not set: PostgreSQL restart test skipped"),
    }
}

async fn restart(url: &str) {
    let server = TestServer::start_with(url, Config::default()).await;
    let (id, first, second) = server
        .online_room("annan", None, json!({"time_per_move": 60}))
        .await;
    assert_eq!(server.play(&id, &first, "7g7f").await.0, 200);
    assert_eq!(server.play(&id, &second, "3c3d").await.0, 200);
    // Second takes its move back with First's consent and plays it again: the
    // log holds the takeback, and the restart replays it.
    let takeback = format!("/api/v1/rooms/{id}/takeback");
    for token in [&second, &first] {
        let (status, _) = server.request("POST", &takeback, Some(token), None).await;
        assert_eq!(status, 200);
    }
    assert_eq!(server.play(&id, &second, "3c3d").await.0, 200);
    let (finished, winner, _) = server.online_room("shogi", None, json!({})).await;
    let (status, _) = server
        .request(
            "POST",
            &format!("/api/v1/rooms/{finished}/resign"),
            Some(&winner),
            None,
        )
        .await;
    assert_eq!(status, 200);
    server.stop().await;

    let server = TestServer::start_with(url, Config::default()).await;
    // The unfinished room is live again (loaded in the background, or now
    // that it is asked for): in the lobby counts, clock running afresh.
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    let lobby = server.get("/api/v1/lobby").await;
    assert!(lobby["playing"].as_u64().unwrap() >= 1, "{lobby}");
    assert_eq!(room["moves"], json!(["7g7f", "3c3d"]));
    assert!(room["takeback_offer"].is_null());
    assert_eq!(room["seats"]["first"]["name"], "Ann");
    assert_eq!(room["clocks"]["running"], "first");
    assert!(room["clocks"]["remaining_ms"].as_u64().unwrap() > 55_000);
    let (status, body) = server.play(&id, &second, "2g2f").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not-your-turn"))
    );
    assert_eq!(server.play(&id, &first, "2g2f").await.1["ply"], 3);
    // Every event is still numbered from 1, and new ones follow on.
    let mut ws = server.ws(&id, "").await;
    let seqs: Vec<i64> = [
        ws.next().await,
        ws.next().await,
        ws.next().await,
        ws.next().await,
        ws.next().await,
    ]
    .iter()
    .map(|event| event["seq"].as_i64().unwrap())
    .collect();
    assert_eq!(seqs, [1, 2, 3, 4, 5]);
    // A finished room loads on demand.
    let room = server.get(&format!("/api/v1/rooms/{finished}")).await;
    assert_eq!(room["status"], "finished");
    assert_eq!(room["result"]["reason"], "resignation");
    server.stop().await;
}

#[tokio::test]
async fn running_out_of_time_loses() {
    let config = Config {
        lag_allowance: Duration::ZERO,
        ..Config::default()
    };
    let server = TestServer::start_config(config).await;
    let (id, first, _) = server
        .online_room("xiangqi", None, json!({"time_per_move": 1}))
        .await;
    let mut spectator = server.ws(&id, "").await;
    assert_eq!(server.play(&id, &first, "h2e2").await.0, 200);
    // Second to move, and nobody moves.
    let end = spectator.next_of("end").await;
    assert_eq!(end["result"], "first", "{end}");
    assert_eq!(end["reason"], "timeout");
    assert_eq!(end["by"], "second");
    let move_at = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(move_at["status"], "finished");
    server.stop().await;
}

#[tokio::test]
async fn main_time_runs_first_then_byoyomi() {
    let config = Config {
        lag_allowance: Duration::ZERO,
        ..Config::default()
    };
    let server = TestServer::start_config(config).await;
    let settings = json!({"main_time": 1, "time_per_move": 1});
    let (id, first, second) = server.online_room("shogi", None, settings).await;
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    let clocks = &room["clocks"];
    assert_eq!(
        (
            clocks["main_time"].as_u64(),
            clocks["time_per_move"].as_u64()
        ),
        (Some(1), Some(1))
    );
    // Main time and one byoyomi period: at most 2 s for the first move.
    let remaining = clocks["remaining_ms"].as_u64().unwrap();
    assert!((1_000..=2_000).contains(&remaining), "{clocks}");
    // First thinks 1.2 s: the main second is gone, the move is in byoyomi.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert_eq!(server.play(&id, &first, "7g7f").await.0, 200);
    assert_eq!(server.play(&id, &second, "3c3d").await.0, 200);
    let clocks = server.get(&format!("/api/v1/rooms/{id}")).await["clocks"].clone();
    assert_eq!(clocks["main_left_ms"]["first"], 0, "{clocks}");
    assert!(
        clocks["main_left_ms"]["second"].as_u64().unwrap() > 500,
        "{clocks}"
    );
    // Now first has only the byoyomi second.
    let mut spectator = server.ws(&id, "since=4").await;
    let end = spectator.next_of("end").await;
    assert_eq!(
        (end["reason"].as_str(), end["by"].as_str()),
        (Some("timeout"), Some("first"))
    );
    server.stop().await;
}

#[tokio::test]
async fn the_computer_plays_for_an_away_player_until_they_come_back() {
    let config = Config {
        grace_period: Duration::from_millis(200),
        ..Config::default()
    };
    let server = TestServer::start_config(config).await;
    let (id, first, second) = server.online_room("minishogi", None, json!({})).await;
    let mut ann = server.ws(&id, &format!("token={first}")).await;
    let bo = server.ws(&id, &format!("token={second}")).await;
    bo.close().await;
    let away = ann.next_of("away").await;
    assert_eq!(
        (away["seat"].as_str(), away["grace_ms"].as_u64()),
        (Some("second"), Some(200))
    );
    assert_eq!(ann.next_of("takeover").await["seat"], "second");
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["seats"]["second"]["taken_over"], true);

    ann.send(json!({"type": "move", "move": "1e1d"})).await;
    let reply = loop {
        let event = ann.next_of("move").await;
        if event["side"] == "second" {
            break event;
        }
    };
    assert_eq!(reply["computer"], true, "{reply}");

    // Bo is back: the computer stops.
    let mut bo = server.ws(&id, &format!("token={second}")).await;
    assert_eq!(ann.next_of("back").await["seat"], "second");
    ann.send(json!({"type": "move", "move": "1d1c"})).await;
    assert_eq!(ann.next_of("ack").await["ply"], 3);
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["side_to_move"], "second");
    assert_eq!(room["seats"]["second"]["taken_over"], false);
    bo.send(json!({"type": "resign"})).await;
    assert_eq!(bo.next_of("ack").await["result"]["reason"], "resignation");
    server.stop().await;
}

#[tokio::test]
async fn rated_games_change_ratings_and_statistics() {
    let server = TestServer::start().await;
    let created = server
        .create(json!({"variant": "xiangqi", "settings": {"rated": true}, "name": "Ann"}))
        .await;
    let id = created["id"].as_str().unwrap();
    let (ann_id, ann_secret) = (
        created["player"].as_str().unwrap(),
        created["player_secret"].as_str().unwrap(),
    );
    let (status, joined) = server
        .request(
            "POST",
            &format!("/api/v1/rooms/{id}/join"),
            None,
            Some(&json!({"name": "Bo"})),
        )
        .await;
    assert_eq!(status, 200);
    let bo_id = joined["player"].as_str().unwrap();
    let (status, _) = server
        .request(
            "POST",
            &format!("/api/v1/rooms/{id}/resign"),
            joined["token"].as_str(),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let ann = server.get(&format!("/api/v1/players/{ann_id}")).await;
    let bo = server.get(&format!("/api/v1/players/{bo_id}")).await;
    assert_eq!(ann["name"], "Ann");
    assert_eq!(ann["variants"]["xiangqi"]["wins"], 1);
    assert_eq!(bo["variants"]["xiangqi"]["losses"], 1);
    // Glicko-2 from 1500 each: the winner gains what the loser loses.
    let (a, b) = (
        ann["variants"]["xiangqi"]["rating"].as_f64().unwrap(),
        bo["variants"]["xiangqi"]["rating"].as_f64().unwrap(),
    );
    assert!(
        a > 1500.0 && b < 1500.0 && (a - 1500.0 - (1500.0 - b)).abs() <= 1.0,
        "{a} {b}"
    );
    assert_eq!(ann["variants"]["shogi"]["rating"], json!(null));
    let stats = server.get("/api/v1/stats").await;
    assert_eq!(stats["variants"]["xiangqi"]["first_wins"], 1);
    assert_eq!(stats["variants"]["shogi"]["games"], 0);

    let (status, body) = server
        .request("GET", "/api/v1/players/nobody", None, None)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("player-not-found"))
    );
    let (status, renamed) = server
        .request(
            "PUT",
            &format!("/api/v1/players/{ann_id}"),
            Some(ann_secret),
            Some(&json!({"name": "  Annie "})),
        )
        .await;
    assert_eq!((status, renamed["name"].as_str()), (200, Some("Annie")));
    server.stop().await;
}

#[tokio::test]
async fn nobody_acts_as_another_player_without_their_credential() {
    let server = TestServer::start().await;
    let created = server
        .create(json!({"variant": "shogi", "name": "Victim"}))
        .await;
    let victim = created["player"].as_str().unwrap();
    let secret = created["player_secret"].as_str().unwrap();
    let rename = |credential: Option<&'static str>| {
        let path = format!("/api/v1/players/{victim}");
        let server = &server;
        async move {
            server
                .request("PUT", &path, credential, Some(&json!({"name": "Mallory"})))
                .await
        }
    };
    // Renaming: no credential, or someone else's.
    let other = server.create(json!({"variant": "shogi"})).await;
    let other_secret: &'static str = other["player_secret"].as_str().unwrap().to_owned().leak();
    assert_eq!(rename(None).await.1["code"], "missing-credential");
    assert_eq!(rename(Some("guess")).await.1["code"], "wrong-credential");
    assert_eq!(
        rename(Some(other_secret)).await.1["code"],
        "wrong-credential"
    );
    // Rated games in the victim's name: refused, and nothing is stored.
    let lobby = server.get("/api/v1/lobby").await;
    let impersonation = json!({"settings": {"rated": true}, "player": victim});
    let (status, body) = server
        .request("POST", "/api/v1/rooms", None, Some(&impersonation))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("missing-credential"))
    );
    let guessed =
        json!({"settings": {"rated": true}, "player": victim, "player_secret": secret.repeat(2)});
    let (status, _) = server
        .request("POST", "/api/v1/rooms", None, Some(&guessed))
        .await;
    assert_eq!(status, 403);
    assert_eq!(
        server.get("/api/v1/lobby").await["waiting"],
        lobby["waiting"]
    );
    let open = server.create(json!({"settings": {"rated": true}})).await;
    let join = format!("/api/v1/rooms/{}/join", open["id"].as_str().unwrap());
    let (status, _) = server
        .request("POST", &join, None, Some(&json!({"player": victim})))
        .await;
    assert_eq!(status, 401);
    assert_eq!(
        server
            .get(&format!("/api/v1/rooms/{}", open["id"].as_str().unwrap()))
            .await["status"],
        "waiting"
    );
    assert_eq!(
        server.get(&format!("/api/v1/players/{victim}")).await["name"],
        "Victim"
    );
    // With the credential, the player is theirs: no new one is issued.
    let (status, joined) = server
        .request(
            "POST",
            &join,
            None,
            Some(&json!({"player": victim, "player_secret": secret})),
        )
        .await;
    assert_eq!((status, joined["player"].as_str()), (200, Some(victim)));
    assert!(joined.get("player_secret").is_none(), "{joined}");
    server.stop().await;
}

#[tokio::test]
async fn limits_on_size_rooms_and_messages() {
    let config = Config {
        max_message_bytes: 1024,
        rooms_per_device_per_hour: 3,
        messages_per_second: 5,
        ..Config::default()
    };
    let server = TestServer::start_config(config).await;
    let big = json!({"variant": "shogi", "name": "x".repeat(2000)});
    let (status, body) = server
        .request("POST", "/api/v1/rooms", None, Some(&big))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (413, Some("too-large")),
        "{body}"
    );
    let (id, first, _) = server.online_room("shogi", None, json!({})).await;
    server.create(json!({})).await;
    server.create(json!({})).await;
    let (status, body) = server
        .request("POST", "/api/v1/rooms", None, Some(&json!({})))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("too-many")),
        "{body}"
    );

    let mut ws = server.ws(&id, &format!("token={first}&since=2")).await;
    ws.send_raw(format!(
        "{{\"type\": \"ping\", \"request_id\": \"{}\"}}",
        "y".repeat(2000)
    ))
    .await;
    assert_eq!(ws.next().await["code"], "too-large");
    for n in 0..10 {
        ws.send(json!({"type": "ping", "request_id": n})).await;
    }
    let mut codes = Vec::new();
    for _ in 0..10 {
        let frame = ws.next().await;
        codes.push(
            frame["code"]
                .as_str()
                .unwrap_or(frame["type"].as_str().unwrap())
                .to_owned(),
        );
    }
    // 5 per second (one already used by the oversized frame): pongs, then refusals.
    assert_eq!(
        codes.iter().filter(|c| *c == "pong").count(),
        4,
        "{codes:?}"
    );
    assert_eq!(
        codes.iter().filter(|c| *c == "too-many").count(),
        6,
        "{codes:?}"
    );
    // The connection goes on.
    ws.send(json!({"type": "move", "move": "7g7f"})).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    ws.send(json!({"type": "move", "move": "7g7f"})).await;
    assert_eq!(ws.next_of("ack").await["ply"], 1);
    // Beyond four times the limit a frame ends the socket at once (no close
    // frame), so no client makes a socket's read buffer grow past that.
    ws.send_raw(format!(
        "{{\"type\": \"ping\", \"request_id\": \"{}\"}}",
        "y".repeat(4 * 1024)
    ))
    .await;
    assert_eq!(ws.close_code().await, None);
    server.stop().await;
}

#[tokio::test]
async fn shutdown_closes_sockets_with_a_reason() {
    let server = TestServer::start().await;
    let (id, first, _) = server.online_room("shogi", None, json!({})).await;
    let mut ws = server.ws(&id, &format!("token={first}")).await;
    let stopping = tokio::spawn(server.stop());
    let closed = ws.next_of("closed").await;
    assert_eq!(closed["reason"], "server shutting down");
    stopping.await.unwrap();
}

#[tokio::test]
async fn a_repetition_is_replayed_swapped_and_a_rematch_needs_both_seats() {
    let database = TempDatabase::new();
    let url = database.url();
    let server = TestServer::start_with(url, Config::default()).await;
    let (id, ann, bo) = server.online_room("shogi", None, json!({})).await;
    let mut spectator = server.ws(&id, "").await;
    // Sennichite: the kings step out and back until the start position
    // stands for the fourth time, after 12 plies.
    let cycle = ["5i4h", "5a6b", "4h5i", "6b5a"];
    for (n, mv) in cycle.iter().cycle().take(12).enumerate() {
        let token = if n % 2 == 0 { &ann } else { &bo };
        let (status, body) = server.play(&id, token, mv).await;
        assert_eq!(status, 200, "ply {} {mv}: {body}", n + 1);
    }
    let end = spectator.next_of("end").await;
    assert_eq!(
        (end["result"].as_str(), end["reason"].as_str()),
        (Some("draw"), Some("repetition"))
    );
    let new_game = spectator.next_of("new_game").await;
    assert_eq!(
        (new_game["game"].as_i64(), new_game["swapped"].as_bool()),
        (Some(2), Some(true))
    );
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["status"], "playing");
    assert_eq!(room["game"], 2);
    assert_eq!(room["moves"], json!([]));
    assert_eq!(room["seats"]["first"]["side"], "second");
    // Bo's seat now moves first.
    assert_eq!(server.play(&id, &ann, "7g7f").await.0, 409);
    assert_eq!(server.play(&id, &bo, "7g7f").await.1["ply"], 1);
    let resign = format!("/api/v1/rooms/{id}/resign");
    let (_, body) = server.request("POST", &resign, Some(&ann), None).await;
    assert_eq!(body["result"]["result"], "first", "{body}");

    let rematch = format!("/api/v1/rooms/{id}/rematch");
    let (status, body) = server.request("POST", &rematch, Some(&ann), None).await;
    assert_eq!(
        (status, body["rematch"].as_str()),
        (200, Some("offered")),
        "{body}"
    );
    let (_, body) = server.request("POST", &rematch, Some(&bo), None).await;
    assert_eq!(
        (body["rematch"].as_str(), body["game"].as_i64()),
        (Some("started"), Some(3)),
        "{body}"
    );
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["seats"]["first"]["side"], "first");
    assert_eq!(server.play(&id, &ann, "7g7f").await.0, 200);
    let (status, body) = server.request("POST", &rematch, Some(&ann), None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not-playing")),
        "{body}"
    );

    // Game 1 drawn, game 2 won by the side that moved first (Bo).
    let shogi = &server.get("/api/v1/stats").await["variants"]["shogi"];
    assert_eq!(
        (
            shogi["games"].as_i64(),
            shogi["first_wins"].as_i64(),
            shogi["draws"].as_i64()
        ),
        (Some(2), Some(1), Some(1))
    );
    server.stop().await;

    // The swaps survive a restart: replaying the log gives game 3, unswapped.
    let server = TestServer::start_with(url, Config::default()).await;
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(
        (room["game"].as_i64(), room["moves"].clone()),
        (Some(3), json!(["7g7f"]))
    );
    assert_eq!(room["seats"]["second"]["side"], "second");
    server.stop().await;
}

#[tokio::test]
async fn an_idle_finished_room_leaves_memory_and_comes_back_when_asked_for() {
    let config = Config {
        idle_room_timeout: Duration::from_millis(100),
        ..Config::default()
    };
    let server = TestServer::start_config(config).await;
    let (id, first, second) = server.online_room("minishogi", None, json!({})).await;
    assert_eq!(server.play(&id, &first, "1e1d").await.0, 200);
    let (status, _) = server
        .request(
            "POST",
            &format!("/api/v1/rooms/{id}/resign"),
            Some(&second),
            None,
        )
        .await;
    assert_eq!(status, 200);
    tokio::time::sleep(Duration::from_millis(400)).await;
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["moves"], json!(["1e1d"]));
    assert_eq!(room["result"]["reason"], "resignation");
    // A rematch in the room brought back works as in a live one.
    let rematch = format!("/api/v1/rooms/{id}/rematch");
    server.request("POST", &rematch, Some(&first), None).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (_, body) = server.request("POST", &rematch, Some(&second), None).await;
    assert_eq!(body["rematch"], "started", "{body}");
    server.stop().await;
}

#[tokio::test]
async fn a_seat_whose_event_is_not_stored_stays_free() {
    let database = TempDatabase::new();
    let url = database.url();
    let server = TestServer::start_with(url, Config::default()).await;
    let created = server
        .create(json!({"variant": "shogi", "mode": "online", "name": "Ann"}))
        .await;
    let id = created["id"].as_str().unwrap();
    // Another writer takes event number 2, so the room cannot store its next event.
    let other = store::open(url).await.unwrap();
    let squatter = store::EventRecord {
        seq: 2,
        at: 0,
        kind: "renamed".to_owned(),
        data: "{}".to_owned(),
    };
    other.append_events(id, &[squatter], None).await.unwrap();
    let (status, _) = server
        .request("POST", &format!("/api/v1/rooms/{id}/join"), None, None)
        .await;
    assert_ne!(status, 200);
    // Nothing changed: the seat is free in the room and in the store.
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["seats"]["second"], serde_json::Value::Null, "{room}");
    assert_eq!(room["status"], "waiting");
    assert_eq!(other.seats(id).await.unwrap().len(), 1);
    server.stop().await;
}

#[tokio::test]
async fn a_game_both_players_left_is_not_played_by_the_computer_and_is_abandoned() {
    let config = Config {
        grace_period: Duration::from_millis(50),
        abandon_after: Duration::from_millis(400),
        ..Config::default()
    };
    let server = TestServer::start_config(config).await;
    let (id, first, second) = server.online_room("minishogi", None, json!({})).await;
    let mut watcher = server.ws(&id, "since=0").await;
    for token in [&first, &second] {
        server
            .ws(&id, &format!("since=0&token={token}"))
            .await
            .close()
            .await;
    }
    // Away, away, then the end: nobody played a move in between.
    let mut kinds = Vec::new();
    let end = loop {
        let event = watcher.next().await;
        if event["type"] == "end" {
            break event;
        }
        kinds.push(event["type"].as_str().unwrap().to_owned());
    };
    assert!(!kinds.iter().any(|kind| kind == "move"), "{kinds:?}");
    assert_eq!(
        (end["result"].as_str(), end["reason"].as_str()),
        (Some("draw"), Some("abandoned"))
    );
    // Abandoned games count nowhere.
    let stats = server.get("/api/v1/stats").await;
    assert_eq!(stats["variants"]["minishogi"]["games"], 0, "{stats}");
    server.stop().await;
}

#[tokio::test]
async fn a_room_nobody_joins_closes_and_is_not_loaded_again() {
    let database = TempDatabase::new();
    let url = database.url();
    let config = || Config {
        waiting_room_ttl: Duration::from_millis(300),
        ..Config::default()
    };
    let server = TestServer::start_with(url, config()).await;
    let created = server
        .create(json!({"variant": "xiangqi", "mode": "online", "name": "Ann"}))
        .await;
    let id = created["id"].as_str().unwrap();
    let lobby = server.get("/api/v1/lobby").await;
    assert_eq!(lobby["waiting"], 1, "{lobby}");
    let mut watcher = server.ws(id, "since=0").await;
    let end = watcher.next_of("end").await;
    assert_eq!(end["reason"], "abandoned");
    let lobby = server.get("/api/v1/lobby").await;
    assert_eq!(
        (
            lobby["waiting"].as_u64(),
            lobby["rooms"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );
    let (status, body) = server
        .request("POST", &format!("/api/v1/rooms/{id}/join"), None, None)
        .await;
    assert_eq!((status, body["code"].as_str()), (409, Some("not-playing")));
    server.stop().await;
    // After a restart the closed room is not brought back.
    let server = TestServer::start_with(url, config()).await;
    let lobby = server.get("/api/v1/lobby").await;
    assert_eq!(lobby["waiting"], 0, "{lobby}");
    server.stop().await;
}
