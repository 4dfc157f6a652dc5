//! Analyses over HTTP: the engine's verdict on every position, the refusals
//! and limits, the queue giving live games the computer first, and a room's
//! analysis kept with its game across restarts.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use common::{Gated, TempDatabase, TestServer};
use rules::{AnyGame, Settings, Variant};
use serde_json::{Value, json};
use server::{Config, EnginePlayer};

async fn start(server: &TestServer, body: Value) -> (u16, Value) {
    server
        .request("POST", "/api/v1/analysis", None, Some(&body))
        .await
}

/// Starts an analysis that must be accepted; returns its id.
async fn started(server: &TestServer, body: Value) -> String {
    let (status, reply) = start(server, body).await;
    assert_eq!(status, 202, "{reply}");
    reply["id"].as_str().expect("an id").to_owned()
}

/// Polls the analysis until it is done.
async fn done(server: &TestServer, id: &str) -> Value {
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let analysis = server.get(&format!("/api/v1/analysis/{id}")).await;
            match analysis["status"].as_str() {
                Some("done") => return analysis,
                Some("queued" | "running") => {}
                other => panic!("status {other:?}: {analysis}"),
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the analysis ends")
}

#[tokio::test]
async fn the_engine_finds_a_known_mate_and_scores_every_position_for_the_first_player() {
    let engine = Arc::new(EnginePlayer::new(Duration::from_millis(300)));
    let server = TestServer::start_computer(Config::default(), engine).await;
    // Sente mates with G*5b (the pawn on 5c guards the gold).
    let id = started(
        &server,
        json!({"variant": "shogi", "position": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
               "moves": ["G*5b"], "movetime_ms": 200}),
    )
    .await;
    let analysis = done(&server, &id).await;
    assert_eq!(analysis["positions"], 2);
    let plies = analysis["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 2);
    assert_eq!(plies[0]["ply"], 0);
    assert_eq!(plies[0]["score"], json!({"mate": 1}));
    assert_eq!(plies[0]["best"], "G*5b");
    assert_eq!(plies[0]["pv"][0], "G*5b");
    // The game is over: no best move, and the first player has won.
    assert_eq!(
        plies[1],
        json!({"ply": 1, "score": {"mate": 0}, "pv": [], "result": "first"})
    );

    // The mirror: Gote mates with G*5h, and the second player's mates count negative.
    let id = started(
        &server,
        json!({"variant": "shogi", "position": "4k4/9/9/9/9/9/4p4/9/4K4 w g 1",
               "moves": ["G*5h"], "movetime_ms": 200}),
    )
    .await;
    let analysis = done(&server, &id).await;
    assert_eq!(analysis["plies"][0]["score"], json!({"mate": -1}));
    assert_eq!(analysis["plies"][0]["best"], "G*5h");
    assert_eq!(analysis["plies"][1]["result"], "second");

    // Xiangqi from the start: centipawns, a best move in ICCS.
    let id = started(
        &server,
        json!({"variant": "xiangqi", "position": "startpos", "moves": ["h2e2"],
               "movetime_ms": 50}),
    )
    .await;
    let analysis = done(&server, &id).await;
    for ply in analysis["plies"].as_array().unwrap() {
        assert!(ply["score"]["cp"].is_i64(), "{ply}");
        assert_eq!(ply["best"].as_str().map(str::len), Some(4), "{ply}");
    }
    server.stop().await;
}

#[tokio::test]
async fn bad_requests_are_refused_naming_the_move_or_the_field() {
    let server = TestServer::start().await;
    let refused = |body: Value| {
        let server = &server;
        async move {
            let (status, reply) = start(server, body).await;
            assert_eq!(status, 422, "{reply}");
            reply
        }
    };
    let reply = refused(json!({"variant": "shogi", "moves": ["7g7f", "7g7f"]})).await;
    assert!(
        reply["message"]
            .as_str()
            .unwrap()
            .starts_with("move 2 (7g7f)"),
        "{reply}"
    );
    assert_ne!(reply["code"], "bad-request");
    let reply = refused(json!({"variant": "shogi", "moves": ["7g7f", "nonsense"]})).await;
    assert_eq!(reply["code"], "bad-move-text");
    assert!(
        reply["message"]
            .as_str()
            .unwrap()
            .contains("move 2 (nonsense)")
    );
    // Two pawns on a file, even where an illegal move would lose the game.
    let reply = refused(json!({"variant": "shogi",
        "position": "4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "moves": ["P*5e"],
        "settings": {"illegal_move_loses": true}}))
    .await;
    assert_eq!(reply["code"], "nifu");
    for body in [
        json!({"variant": "chess"}),
        json!({"variant": "shogi", "position": "not a position"}),
        json!({"variant": "shogi", "settings": {"impasse": "nonsense"}}),
        json!({"variant": "shogi", "movetime_ms": 0}),
        json!({"variant": "shogi", "movetime_ms": 3001}),
        json!({"variant": "shogi", "moves": vec!["7g7f"; 601]}),
        json!({"variant": "shogi", "extra": true}),
        json!({"moves": []}),
    ] {
        let reply = refused(body.clone()).await;
        assert_eq!(reply["code"], "bad-request", "{body}: {reply}");
    }
    let (status, reply) = server
        .request(
            "GET",
            "/api/v1/analysis/0123456789abcdef0123456789abcdef",
            None,
            None,
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(reply["code"], "analysis-not-found");
    server.stop().await;
}

#[tokio::test]
async fn an_address_has_at_most_two_analyses_queued_or_running() {
    let gate = Arc::new(Gated::closed());
    let config = Config {
        engine_threads: 1,
        ..Config::default()
    };
    let server = TestServer::start_computer(config, gate.clone()).await;
    let body = json!({"variant": "minishogi", "moves": ["5e4d"]});
    let first = started(&server, body.clone()).await;
    let second = started(&server, body.clone()).await;
    let (status, reply) = start(&server, body.clone()).await;
    assert_eq!(status, 429, "{reply}");
    assert_eq!(reply["code"], "too-many");
    // One holds the engine at its start position, the other waits.
    let first_view = server.get(&format!("/api/v1/analysis/{first}")).await;
    assert_eq!(first_view["status"], "queued");
    assert_eq!(first_view["plies"], json!([]));
    assert_eq!(first_view["positions"], 2);
    gate.open.store(true, Ordering::SeqCst);
    for id in [first, second] {
        let analysis = done(&server, &id).await;
        let plies = analysis["plies"].as_array().unwrap();
        assert_eq!(plies.len(), 2);
        assert_eq!(plies[0]["score"], json!({"cp": 0}));
        assert_eq!(plies[1]["ply"], 1);
    }
    // Ended ones no longer count.
    started(&server, body).await;
    server.stop().await;
}

/// A game of `plies` moves of minishogi, each the first legal move that
/// keeps the game going.
fn long_game(plies: usize) -> Vec<String> {
    let mut game = AnyGame::new(Variant::Minishogi, None, &Settings::default()).unwrap();
    let mut moves = Vec::new();
    while moves.len() < plies {
        let next = game.position().legal_moves().into_iter().find(|&mv| {
            let mut after = game.clone();
            after.play(mv).is_ok_and(|outcome| outcome.is_none())
        });
        let mv = next.expect("a move that keeps the game going");
        game.play(mv).unwrap();
        moves.push(mv.to_string());
    }
    moves
}

#[tokio::test]
async fn a_computer_game_plays_on_while_a_long_analysis_holds_the_only_engine_thread() {
    // 120 positions of at least 50 ms each: six seconds or more.
    let slow = Arc::new(Gated::slow(Duration::from_millis(50)));
    let config = Config {
        engine_threads: 1,
        ..Config::default()
    };
    let server = TestServer::start_computer(config, slow).await;
    let id = started(
        &server,
        json!({"variant": "minishogi", "moves": long_game(119)}),
    )
    .await;
    // The computer moves first, and needs the one search the analysis uses.
    let created = server
        .create(json!({"variant": "minishogi", "mode": "computer", "seat": "second"}))
        .await;
    let room = created["id"].as_str().unwrap().to_owned();
    tokio::time::timeout(Duration::from_secs(60), async {
        while server.get(&format!("/api/v1/rooms/{room}")).await["moves"]
            .as_array()
            .is_none_or(Vec::is_empty)
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the computer moves");
    let analysis = server.get(&format!("/api/v1/analysis/{id}")).await;
    assert_ne!(
        analysis["status"], "done",
        "the computer waited for the whole analysis"
    );
    assert_eq!(
        done(&server, &id).await["plies"].as_array().unwrap().len(),
        120
    );
    server.stop().await;
}

#[tokio::test]
async fn a_rooms_finished_game_is_analysed_once_and_kept_across_a_restart() {
    let database = TempDatabase::new();
    let url = database.url();
    let gate = Arc::new(Gated::closed());
    let server = TestServer::start_full(url, Config::default(), gate.clone()).await;
    let (room, first, _) = server
        .online_room("shogi", Some("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"), json!({}))
        .await;
    let path = format!("/api/v1/rooms/{room}/analysis");
    let (status, reply) = server.request("POST", &path, None, None).await;
    assert_eq!(status, 409, "{reply}");
    assert_eq!(reply["code"], "game-not-over");
    let (status, reply) = server.play(&room, &first, "G*5b").await;
    assert_eq!(status, 200, "{reply}");

    let (status, reply) = server
        .request("POST", &path, None, Some(&json!({"movetime_ms": 5000})))
        .await;
    assert_eq!(status, 422, "{reply}");
    let (status, reply) = server.request("POST", &path, None, None).await;
    assert_eq!(status, 202, "{reply}");
    let id = reply["id"].as_str().unwrap().to_owned();
    // Asked again while it runs: the same analysis.
    let (status, again) = server
        .request("POST", &path, None, Some(&json!({"movetime_ms": 100})))
        .await;
    assert_eq!((status, &again["id"]), (202, &reply["id"]));
    gate.open.store(true, Ordering::SeqCst);
    let analysis = done(&server, &id).await;
    // The alphabetically first legal move, as `FirstLegalMove` plays.
    assert_eq!(analysis["plies"][0]["best"], "5c5b");
    assert_eq!(analysis["plies"][1]["result"], "first");
    let (status, kept) = server.request("POST", &path, None, None).await;
    assert_eq!(status, 200, "{kept}");
    assert_eq!(kept, analysis);
    server.stop().await;

    // Another server on the same database: the analysis is kept with the game.
    let server = TestServer::start_with(url, Config::default()).await;
    let (status, kept) = server.request("POST", &path, None, None).await;
    assert_eq!(status, 200, "{kept}");
    assert_eq!(kept, analysis);
    let (status, reply) = server
        .request(
            "POST",
            "/api/v1/rooms/0123456789abcdef0123456789abcdef/analysis",
            None,
            None,
        )
        .await;
    assert_eq!(status, 404, "{reply}");
    server.stop().await;
}

#[tokio::test]
async fn a_game_being_played_is_analysed_only_when_both_seats_agreed_and_never_when_rated() {
    let server = TestServer::start().await;
    let (room, first, second) = server
        .online_room("shogi", Some("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"), json!({}))
        .await;
    let path = format!("/api/v1/rooms/{room}/analysis");
    let agree = format!("/api/v1/rooms/{room}/analysis/agree");
    let (status, reply) = server.request("POST", &agree, None, None).await;
    assert_eq!((status, &reply["code"]), (401, &json!("missing-token")));
    let (status, reply) = server.request("POST", &agree, Some(&first), None).await;
    assert_eq!((status, &reply), (200, &json!({"analysis": "offered"})));
    let seen = server.get(&format!("/api/v1/rooms/{room}")).await;
    assert_eq!(
        (&seen["analysis_offer"], &seen["analysable"]),
        (&json!("first"), &json!(false))
    );
    let (status, reply) = server.request("POST", &path, None, None).await;
    assert_eq!((status, &reply["code"]), (409, &json!("game-not-over")));
    let (status, reply) = server.request("POST", &agree, Some(&second), None).await;
    assert_eq!((status, &reply), (200, &json!({"analysis": "agreed"})));
    let seen = server.get(&format!("/api/v1/rooms/{room}")).await;
    assert_eq!(
        (&seen["analysis_offer"], &seen["analysable"]),
        (&Value::Null, &json!(true))
    );
    let (_, events) = server
        .request_text(
            "GET",
            &format!("/api/v1/rooms/{room}/events?since=0&follow=false"),
            None,
            None,
        )
        .await;
    let kinds: Vec<String> = events
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["type"].to_string())
        .collect();
    assert!(
        kinds.ends_with(&[
            "\"analysis_offered\"".to_owned(),
            "\"analysis_agreed\"".to_owned()
        ]),
        "{events}"
    );

    // The game so far (the start): analysed, and not kept as the game's.
    let (status, reply) = server.request("POST", &path, None, None).await;
    assert_eq!(status, 202, "{reply}");
    let analysis = done(&server, reply["id"].as_str().unwrap()).await;
    assert_eq!(analysis["positions"], 1);
    assert_eq!(analysis["plies"][0]["best"], "5c5b");
    let (status, reply) = server.play(&room, &first, "G*5b").await;
    assert_eq!(status, 200, "{reply}");
    let (status, reply) = server.request("POST", &path, None, None).await;
    assert_eq!(status, 202, "the finished game is analysed afresh: {reply}");
    assert_eq!(
        done(&server, reply["id"].as_str().unwrap()).await["positions"],
        2
    );

    let (rated, first, _) = server
        .online_room("shogi", None, json!({"rated": true}))
        .await;
    let (status, reply) = server
        .request(
            "POST",
            &format!("/api/v1/rooms/{rated}/analysis/agree"),
            Some(&first),
            None,
        )
        .await;
    assert_eq!(
        (status, &reply["code"]),
        (409, &json!("rated-game")),
        "{reply}"
    );
    let (status, reply) = server
        .request(
            "POST",
            &format!("/api/v1/rooms/{rated}/analysis"),
            None,
            None,
        )
        .await;
    assert_eq!(
        (status, &reply["code"]),
        (409, &json!("rated-game")),
        "{reply}"
    );
    server.stop().await;
}
