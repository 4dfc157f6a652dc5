//! Whole games over the real server: two players and a spectator on
//! WebSockets, errors over HTTP, records and the event stream.

mod common;

use common::TestServer;
use serde_json::json;

/// Each game: a start position, quiet king (or chariot) moves, then a mate
/// reasoned out by hand in the comment.
const MATES: [(&str, &str, &[&str]); 4] = [
    // A gold dropped on 5b, guarded by the pawn on 5c: the king on 5a has no square.
    (
        "shogi",
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        &["5i4i", "5a4a", "4i5i", "4a5a", "G*5b"],
    ),
    // The same on the 5x5 board: the gold on 3b is guarded by the pawn on 3c.
    (
        "minishogi",
        "2k2/5/2P2/5/2K2 b G 1",
        &["3e4e", "3a4a", "4e3e", "4a3a", "G*3b"],
    ),
    // Annan: a piece moves like the friendly piece behind it, so the guard is a
    // gold (with a pawn behind, the dropped gold would move like a pawn).
    (
        "annan",
        "4k4/9/4G4/9/9/9/9/9/4K4 b G 1",
        &["5i4i", "5a4a", "4i5i", "4a5a", "G*5b"],
    ),
    // Two chariots: b9 checks along the 9th rank, a8 holds the 8th; d9 and f9
    // are on the b9 chariot's line.
    (
        "xiangqi",
        "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1",
        &["b1c1", "e9f9", "c1b1", "f9e9", "b1b9"],
    ),
];

#[tokio::test]
async fn a_game_to_checkmate_in_each_variant_with_a_spectator() {
    let server = TestServer::start().await;
    for (variant, start, moves) in MATES {
        let (id, first, second) = server.online_room(variant, Some(start), json!({})).await;
        let mut players = [
            server.ws(&id, &format!("token={first}")).await,
            server.ws(&id, &format!("token={second}")).await,
        ];
        let mut spectator = server.ws(&id, "").await;
        // The spectator gets the log from the start: both seats taken.
        assert_eq!(spectator.next().await["type"], "seated");
        assert_eq!(spectator.next().await["type"], "seated");
        for (index, mv) in moves.iter().enumerate() {
            let player = &mut players[index % 2];
            player
                .send(json!({"type": "move", "move": mv, "request_id": index}))
                .await;
            let ack = player.next_of("ack").await;
            assert_eq!(ack["ply"], index + 1, "{variant} {mv}: {ack}");
            assert_eq!(ack["request_id"], index);
            let seen = spectator.next().await;
            assert_eq!(seen["type"], "move", "{variant}: {seen}");
            assert_eq!(seen["move"], *mv);
            assert_eq!(
                seen["side"],
                if index % 2 == 0 { "first" } else { "second" }
            );
        }
        let end = spectator.next().await;
        assert_eq!(end["type"], "end", "{variant}: {end}");
        assert_eq!(
            (end["result"].as_str(), end["reason"].as_str()),
            (Some("first"), Some("checkmate"))
        );
        let room = server.get(&format!("/api/v1/rooms/{id}")).await;
        assert_eq!(room["status"], "finished", "{variant}");
        assert_eq!(room["variant"], variant);
        assert_eq!(room["moves"], json!(moves));
        assert_eq!(room["legal_moves"], json!([]));
        assert_eq!(
            room["result"],
            json!({"result": "first", "reason": "checkmate", "side_to_move": "second", "in_check": true})
        );
        // After the game, a move is refused as not playing.
        let (status, body) = server.play(&id, &second, moves[0]).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("not-playing")),
            "{body}"
        );
        for player in players {
            player.close().await;
        }
        spectator.close().await;
    }
    let stats = server.get("/api/v1/stats").await;
    for (variant, _, _) in MATES {
        let counts = &stats["variants"][variant];
        assert_eq!(counts["games"], 1, "{stats}");
        assert_eq!(counts["first_wins"], 1);
        assert_eq!(counts["first_wins_percent"], 100.0);
    }
    server.stop().await;
}

#[tokio::test]
async fn the_room_json_has_the_documented_fields() {
    let server = TestServer::start().await;
    let created = server
        .create(json!({"variant": "shogi", "mode": "online", "settings": {"time_per_move": 30}}))
        .await;
    let id = created["id"].as_str().unwrap();
    assert_eq!(created["seat"], "first");
    assert!(
        created["invite_url"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/rooms/{id}"))
    );
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["status"], "waiting");
    assert_eq!(
        room["position"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert_eq!(room["moves"], json!([]));
    // 30 legal moves at the start of shogi.
    assert_eq!(room["legal_moves"].as_array().unwrap().len(), 30);
    assert_eq!(room["side_to_move"], "first");
    assert_eq!(room["settings"]["time_per_move"], 30);
    assert_eq!(room["seats"]["second"], json!(null));
    assert_eq!(room["seats"]["first"]["name"], "Anonymous");
    // The clock does not run while a seat is free.
    assert_eq!(room["clocks"]["running"], json!(null));
    assert_eq!(room["notation"], json!({"japanese": [], "western": []}));
    // Each side: rook and bishop 2 x 5, then 9 pawns and 2 each of lance,
    // knight, silver and gold at 1 = 27; the king counts 0.
    assert_eq!(room["impasse_points"], json!({"first": 27, "second": 27}));
    // The room JSON has exactly the fields the OpenAPI document lists.
    let document = server.get("/api/v1/openapi.json").await;
    let mut documented: Vec<&String> = document["components"]["schemas"]["Room"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    let mut fields: Vec<&String> = room.as_object().unwrap().keys().collect();
    documented.sort();
    fields.sort();
    assert_eq!(fields, documented);
    let lobby = server.get("/api/v1/lobby").await;
    assert_eq!(lobby["waiting"], 1);
    assert_eq!(lobby["rooms"][0]["id"], id);

    let (status, joined) = server
        .request("POST", &format!("/api/v1/rooms/{id}/join"), None, None)
        .await;
    assert_eq!(status, 200, "{joined}");
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["status"], "playing");
    assert_eq!(room["clocks"]["running"], "first");
    let remaining = room["clocks"]["remaining_ms"].as_u64().unwrap();
    assert!((25_000..=30_000).contains(&remaining), "{remaining}");
    let lobby = server.get("/api/v1/lobby").await;
    assert_eq!(
        (lobby["waiting"].as_u64(), lobby["playing"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(lobby["rooms"], json!([]));

    let (status, body) = server
        .request("POST", &format!("/api/v1/rooms/{id}/join"), None, None)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("no-free-seat")),
        "{body}"
    );
    let (status, body) = server
        .request(
            "GET",
            "/api/v1/rooms/0123456789abcdef0123456789abcdef",
            None,
            None,
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("room-not-found")),
        "{body}"
    );
    server.stop().await;
}

#[tokio::test]
async fn the_room_json_writes_each_move_in_the_players_notation() {
    let server = TestServer::start().await;
    // Each game: moves, then the notation the room JSON must show for them.
    let games = [
        // Pawns, the bishop exchange taking on 2b, and the silver taking back
        // on the same square (同).
        (
            "shogi",
            vec!["7g7f", "3c3d", "8h2b+", "3a2b"],
            json!({
                "japanese": ["▲７六歩", "△３四歩", "▲２二角成", "△同　銀"],
                "western": ["P-7f", "P-3d", "Bx2b+", "Sx2b"],
            }),
        ),
        // The usual start: the central cannon, the horse answering on black's file 8.
        (
            "xiangqi",
            vec!["h2e2", "h9g7"],
            json!({"wxf": ["C2.5", "H8+7"], "chinese": ["炮二平五", "马8进7"]}),
        ),
    ];
    for (variant, moves, notation) in games {
        let (id, first, second) = server.online_room(variant, None, json!({})).await;
        for (index, mv) in moves.iter().enumerate() {
            let token = if index % 2 == 0 { &first } else { &second };
            let (status, body) = server.play(&id, token, mv).await;
            assert_eq!(status, 200, "{variant} {mv}: {body}");
        }
        let room = server.get(&format!("/api/v1/rooms/{id}")).await;
        assert_eq!(room["moves"], json!(moves));
        assert_eq!(room["notation"], notation, "{variant}");
    }
    // Minishogi and xiangqi have no impasse rule; annan starts as shogi does.
    for (variant, points) in [
        ("minishogi", json!(null)),
        ("xiangqi", json!(null)),
        ("annan", json!({"first": 27, "second": 27})),
    ] {
        let (id, _, _) = server.online_room(variant, None, json!({})).await;
        let room = server.get(&format!("/api/v1/rooms/{id}")).await;
        assert_eq!(room["impasse_points"], points, "{variant}");
    }
    // A capture moves points across: taking the bishop on 2b, Sente has a
    // horse (5) and a bishop in hand (5) beside its 17 small pieces: 32; Gote
    // keeps its rook (5) and 17: 22. The silver taking back evens it again.
    let (id, first, second) = server.online_room("shogi", None, json!({})).await;
    for (index, (mv, points)) in [
        ("7g7f", (27, 27)),
        ("3c3d", (27, 27)),
        ("8h2b+", (32, 22)),
        ("3a2b", (27, 27)),
    ]
    .into_iter()
    .enumerate()
    {
        let token = if index % 2 == 0 { &first } else { &second };
        let (status, body) = server.play(&id, token, mv).await;
        assert_eq!(status, 200, "{mv}: {body}");
        let room = server.get(&format!("/api/v1/rooms/{id}")).await;
        assert_eq!(
            room["impasse_points"],
            json!({"first": points.0, "second": points.1}),
            "after {mv}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn bad_moves_and_bad_tokens_are_refused_with_the_reason() {
    let server = TestServer::start().await;
    // A pawn on 5g and one in hand: dropping it on the 5th file is nifu.
    let (id, first, second) = server
        .online_room("shogi", Some("4k4/9/9/9/9/9/4P4/9/4K4 b P 1"), json!({}))
        .await;
    let (status, body) = server.play(&id, &first, "P*5e").await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "nifu");
    assert!(body["message"].as_str().unwrap().contains("nifu"), "{body}");
    let (status, body) = server.play(&id, &first, "zz").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("bad-move-text")),
        "{body}"
    );
    let (status, body) = server.play(&id, &second, "5a4a").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not-your-turn")),
        "{body}"
    );
    let (status, body) = server
        .play(&id, "0123456789abcdef0123456789abcdef", "5g5f")
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("wrong-token")),
        "{body}"
    );
    let (status, body) = server
        .request(
            "POST",
            &format!("/api/v1/rooms/{id}/moves"),
            None,
            Some(&json!({"move": "5g5f"})),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("missing-token")),
        "{body}"
    );
    let (status, body) = server
        .request_text(
            "POST",
            &format!("/api/v1/rooms/{id}/moves"),
            Some(&first),
            Some("{not json"),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("bad-request"), "{body}");
    // None of that changed the game; a legal move still goes through.
    let (status, body) = server.play(&id, &first, "5g5f").await;
    assert_eq!((status, body["ply"].as_u64()), (200, Some(1)), "{body}");

    // Over the WebSocket the same errors come as frames, and the socket stays open.
    let mut ws = server.ws(&id, &format!("token={second}")).await;
    ws.send(json!({"type": "move", "move": "5a5c", "request_id": "r1"}))
        .await;
    let error = ws.next_of("error").await;
    assert_eq!(error["request_id"], "r1");
    assert_eq!(error["code"], "cannot-reach", "{error}");
    ws.send_raw("not json".to_owned()).await;
    assert_eq!(ws.next_of("error").await["code"], "bad-request");
    let mut spectator = server.ws(&id, "").await;
    spectator.send(json!({"type": "resign"})).await;
    assert_eq!(spectator.next_of("error").await["code"], "missing-token");
    ws.send(json!({"type": "move", "move": "5a4a"})).await;
    assert_eq!(ws.next_of("ack").await["ply"], 2);
    let url = format!("ws://{}/api/v1/rooms/{id}/ws?token=wrong", server.addr);
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403);
        }
        other => panic!("a wrong token must be refused: {:?}", other.map(|_| ())),
    }
    server.stop().await;
}

/// A room keeps only its last few events in memory: a socket that asks for
/// events from further back gets them from the store, in order, then the live ones.
#[tokio::test]
async fn a_socket_that_asks_far_back_gets_every_event_from_the_store() {
    let server = TestServer::start().await;
    let (id, first, second) = server.online_room("shogi", None, json!({})).await;
    let moves = [
        "7g7f", "3c3d", "2h3h", "8b7b", "3h2h", "7b8b", "2h3h", "8b7b", "3h2h", "7b8b",
    ];
    for (ply, mv) in moves.iter().enumerate() {
        let token = if ply % 2 == 0 { &first } else { &second };
        assert_eq!(server.play(&id, token, mv).await.0, 200);
    }
    // Two seats taken, then the moves: events 3 to 12.
    let mut spectator = server.ws(&id, "since=1").await;
    assert_eq!(spectator.next().await["seq"], 2);
    for (seq, mv) in (3..).zip(moves) {
        let event = spectator.next().await;
        assert_eq!(
            (event["seq"].as_i64(), event["move"].as_str()),
            (Some(seq), Some(mv)),
            "{event}"
        );
    }
    assert_eq!(server.play(&id, &first, "9g9f").await.0, 200);
    let live = spectator.next().await;
    assert_eq!(
        (live["seq"].as_i64(), live["move"].as_str()),
        (Some(13), Some("9g9f"))
    );

    let (status, text) = server
        .request_text(
            "GET",
            &format!("/api/v1/rooms/{id}/events?since=0&follow=false"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 200);
    let seqs: Vec<i64> = text
        .lines()
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line).unwrap()["seq"]
                .as_i64()
                .unwrap()
        })
        .collect();
    assert_eq!(seqs, (1..=13).collect::<Vec<_>>());
    server.stop().await;
}

#[tokio::test]
async fn a_spectator_reconnects_and_gets_exactly_what_it_missed() {
    let server = TestServer::start().await;
    let (id, first, second) = server.online_room("xiangqi", None, json!({})).await;
    let mut spectator = server.ws(&id, "").await;
    spectator.next().await;
    let last = spectator.next().await["seq"].as_i64().unwrap();
    assert_eq!(last, 2);
    spectator.close().await;
    for (token, mv) in [(&first, "h2e2"), (&second, "h9g7"), (&first, "h0g2")] {
        assert_eq!(server.play(&id, token, mv).await.0, 200);
    }
    let mut spectator = server.ws(&id, &format!("since={last}")).await;
    for (seq, mv) in [(3, "h2e2"), (4, "h9g7"), (5, "h0g2")] {
        let event = spectator.next().await;
        assert_eq!(
            (event["seq"].as_i64(), event["move"].as_str()),
            (Some(seq), Some(mv)),
            "{event}"
        );
    }
    assert_eq!(server.play(&id, &second, "i9h9").await.0, 200);
    assert_eq!(spectator.next().await["seq"], 6);

    // The same events as NDJSON.
    let (status, text) = server
        .request_text(
            "GET",
            &format!("/api/v1/rooms/{id}/events?since=3&follow=false"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 200);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seqs: Vec<i64> = lines.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    assert_eq!(seqs, [4, 5, 6]);
    assert_eq!(lines[2]["move"], "i9h9");

    let (status, record) = server
        .request_text("GET", &format!("/api/v1/rooms/{id}/record"), None, None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        record,
        "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7 h0g2 i9h9\n"
    );
    let (status, wxf) = server
        .request_text(
            "GET",
            &format!("/api/v1/rooms/{id}/record?format=wxf"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert!(wxf.contains("1. C2.5 H8+7"), "{wxf}");
    let (status, body) = server
        .request(
            "GET",
            &format!("/api/v1/rooms/{id}/record?format=kif"),
            None,
            None,
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("bad-request")),
        "{body}"
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("cannot hold a xiangqi game"),
        "{body}"
    );
    server.stop().await;
}

#[tokio::test]
async fn resignation_draw_agreement_and_impasse_refusal() {
    let server = TestServer::start().await;
    let (id, first, second) = server.online_room("shogi", None, json!({})).await;
    let (status, body) = server
        .request(
            "POST",
            &format!("/api/v1/rooms/{id}/impasse"),
            Some(&first),
            None,
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("impasse-refused")),
        "{body}"
    );
    let (status, body) = server
        .request(
            "POST",
            &format!("/api/v1/rooms/{id}/resign"),
            Some(&second),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["result"], "first");
    assert_eq!(body["result"]["reason"], "resignation");

    let (id, first, second) = server.online_room("minishogi", None, json!({})).await;
    let draw = format!("/api/v1/rooms/{id}/draw");
    let (status, body) = server.request("POST", &draw, Some(&first), None).await;
    assert_eq!(
        (status, body["draw"].as_str()),
        (200, Some("offered")),
        "{body}"
    );
    // A move withdraws the offer.
    assert_eq!(server.play(&id, &first, "1e1d").await.0, 200, "first move");
    let (_, body) = server.request("POST", &draw, Some(&second), None).await;
    assert_eq!(body["draw"], "offered");
    let (_, body) = server.request("POST", &draw, Some(&first), None).await;
    assert_eq!(body["draw"], "agreed", "{body}");
    assert_eq!(body["result"]["result"], "draw");
    assert_eq!(body["result"]["reason"], "agreement");
    server.stop().await;
}

#[tokio::test]
async fn local_and_computer_rooms() {
    let server = TestServer::start().await;
    let created = server
        .create(json!({"variant": "minishogi", "mode": "local"}))
        .await;
    let (id, token) = (
        created["id"].as_str().unwrap(),
        created["token"].as_str().unwrap(),
    );
    // One token plays both sides.
    assert_eq!(server.play(id, token, "1e1d").await.0, 200);
    assert_eq!(server.play(id, token, "5a5b").await.0, 200);
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["status"], "playing");
    assert_eq!(room["mode"], "local");

    let created = server
        .create(json!({"variant": "xiangqi", "mode": "computer", "level": 3}))
        .await;
    let (id, token) = (
        created["id"].as_str().unwrap(),
        created["token"].as_str().unwrap(),
    );
    let mut ws = server.ws(id, &format!("token={token}")).await;
    ws.send(json!({"type": "move", "move": "h2e2"})).await;
    assert_eq!(ws.next_of("ack").await["ply"], 1);
    let mut reply = ws.next_of("move").await;
    if reply["side"] == "first" {
        reply = ws.next_of("move").await;
    }
    assert_eq!(reply["side"], "second");
    assert_eq!(reply["computer"], true);
    // The stand-in plays the alphabetically first legal move: the a-file soldier.
    assert_eq!(reply["move"], "a6a5");
    let (status, body) = server
        .request(
            "POST",
            "/api/v1/rooms",
            None,
            Some(&json!({"mode": "computer", "level": 9})),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("bad-request")),
        "{body}"
    );
    server.stop().await;
}

#[tokio::test]
async fn the_lobby_socket_sends_the_lobby_again_when_it_changes() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/api/v1/lobby/ws", server.addr);
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let next =
        |frame: Option<Result<tokio_tungstenite::tungstenite::Message, _>>| -> serde_json::Value {
            serde_json::from_str(frame.unwrap().unwrap().to_text().unwrap()).unwrap()
        };
    use futures_util::StreamExt;
    let lobby = next(socket.next().await);
    assert_eq!(lobby["waiting"], 0);
    let created = server.create(json!({"variant": "annan"})).await;
    let lobby = next(socket.next().await);
    assert_eq!(lobby["waiting"], 1);
    assert_eq!(lobby["rooms"][0]["id"], created["id"]);
    assert_eq!(lobby["rooms"][0]["variant"], "annan");
    server.stop().await;
}

#[tokio::test]
async fn under_illegal_move_loses_a_broken_rule_ends_the_game() {
    let database = common::TempDatabase::new();
    let url = database.url();
    let server = TestServer::start_with(url, server::Config::default()).await;
    let (id, first, _) = server
        .online_room(
            "shogi",
            Some("4k4/9/9/9/9/9/4P4/9/4K4 b P 1"),
            json!({"illegal_move_loses": true}),
        )
        .await;
    // Nifu loses instead of being refused; a move that cannot be made at all is still refused.
    let (status, body) = server.play(&id, &first, "5i5g").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("own-piece-on-target")),
        "{body}"
    );
    assert_eq!(server.play(&id, &first, "P*5e").await.0, 200);
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["result"]["result"], "second");
    assert_eq!(room["result"]["reason"], "illegal-move");
    assert_eq!(room["moves"], json!([]));
    server.stop().await;
    // Replaying the log after a restart gives the same end.
    let server = TestServer::start_with(url, server::Config::default()).await;
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["result"]["reason"], "illegal-move");
    assert_eq!(room["status"], "finished");
    server.stop().await;
}

/// Whole games from the usual start to checkmate, one per game: the engine at
/// level 8 (Sente/Red) against level 1, recorded once and replayed here move by
/// move through the API by the two seats.
const FULL_GAMES: [(&str, &str); 4] = [
    (
        "shogi",
        concat!(
            "7g7f 4a4b 7i6h 8b7b 2g2f 7a8b 2f2e 4b5b 2e2d 2c2d 2h2d 5a4b ",
            "2d2c+ 5b5a 2c2d 1c1d P*2c 2b1c 2d1d 4b5b 3g3f P*2f 1d2e 3a3b ",
            "2c2b+ 2f2g+ 2b3b 2g1g 2e2a P*1f 2a1a 1c2d 3b3c 4c4d 1a2b 5b4a ",
            "2b2a 4a5b 2a3b 5a4b 3b4b ",
        ),
    ),
    (
        "minishogi",
        concat!(
            "3e4d 4a3b 2e3d 3a4b 1e2e 5a3a 5d5c 3a4a 2e3e 4a3a 3d2e 1a2b ",
            "3e3d 3a4a 2e1d 3b1d 3d1d 4b3a 5c5b 2a3b 1d2d B*2c 4e3d 1b1c ",
            "B*4e 4a4d 3d2c 3b2c 2d2c 2b1a G*2a 1a1b 2c2b ",
        ),
    ),
    (
        "annan",
        concat!(
            "2g2c+ 2b3d 6i7h 5a6b 3i3h 7a7b P*2b 8c8g+ 7g8g P*2g 3h2g 3a2b ",
            "2c2b P*2f 2g2f 1a1b 2b1b 9a9b 1b2a 4a5b L*8e 8b7d 8e8a+ 7b8a ",
            "P*2g 9c9g 9i9g 9b9g+ 8i9g L*7e P*7f 7e3e 8h3c+ 3d1b S*8c 3e3g+ ",
            "2i3g 1c5g+ 8c7d+ 7c7d R*2b L*5f 5i4h 5g5h 4g5h 5f5h+ 4h5h 1b5f ",
            "2a6a 6b6a G*5a 5b5a N*7c 6a7a N*8c ",
        ),
    ),
    (
        "xiangqi",
        concat!(
            "b2e2 h9g7 h2g2 i6i5 g2g6 c6c5 h0g2 h7h1 a0a1 h1h7 i0h0 a6a5 ",
            "h0h5 c5c4 c3c4 d9e8 h5i5 g9i7 c4c5 b7b4 a1h1 b4b7 h1h4 a9a7 ",
            "c5c6 a7a9 c6d6 b7e7 d6e6 e7f7 e6e7 a9a6 e7f7 h7f7 g6h6 f7d7 ",
            "i5c5 d7c7 c5b5 b9a7 b5b7 a6c6 c0a2 e9d9 h6h7 e8f7 h4d4 c6d6 ",
            "d4d6 c7d7 d6d7 ",
        ),
    ),
];

#[tokio::test]
async fn whole_games_from_the_start_end_in_checkmate_in_every_variant() {
    let server = TestServer::start().await;
    for (variant, moves) in FULL_GAMES {
        let (id, first, second) = server.online_room(variant, None, json!({})).await;
        let moves: Vec<&str> = moves.split_whitespace().collect();
        for (ply, mv) in moves.iter().enumerate() {
            let token = if ply % 2 == 0 { &first } else { &second };
            let (status, body) = server.play(&id, token, mv).await;
            assert_eq!(status, 200, "{variant} move {} {mv}: {body}", ply + 1);
            assert_eq!(body["ply"], ply + 1);
        }
        let room = server.get(&format!("/api/v1/rooms/{id}")).await;
        assert_eq!(room["status"], "finished", "{variant}");
        assert_eq!(room["result"]["result"], "first", "{variant}");
        assert_eq!(room["result"]["reason"], "checkmate", "{variant}");
        assert_eq!(room["moves"].as_array().unwrap().len(), moves.len());
    }
    server.stop().await;
}

/// A socket sends the room's frames already waiting with the one it sends
/// (a move's event goes out in the ack's write): each player still gets every
/// event once and in order, and each of its acks.
#[tokio::test]
async fn each_player_gets_every_event_once_in_order_and_its_acks() {
    let server = TestServer::start().await;
    let (id, first, second) = server.online_room("shogi", None, json!({})).await;
    let mut players = [
        server.ws(&id, &format!("token={first}")).await,
        server.ws(&id, &format!("token={second}")).await,
    ];
    let mut seen: [Vec<serde_json::Value>; 2] = [Vec::new(), Vec::new()];
    let moves = [
        "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b",
    ];
    for (index, mv) in moves.iter().enumerate() {
        let mover = index % 2;
        players[mover]
            .send(json!({"type": "move", "move": mv, "request_id": index}))
            .await;
        loop {
            let frame = players[mover].next().await;
            seen[mover].push(frame.clone());
            if frame["type"] == "ack" {
                break;
            }
        }
    }
    // Two seats taken, then the moves.
    let last = 2 + moves.len();
    for (player, seen) in players.iter_mut().zip(&mut seen) {
        while seen.last().and_then(|frame| frame["seq"].as_u64()) != Some(last as u64) {
            seen.push(player.next().await);
        }
    }
    for (side, seen) in seen.iter().enumerate() {
        let seqs: Vec<u64> = seen
            .iter()
            .filter_map(|frame| frame["seq"].as_u64())
            .collect();
        assert_eq!(seqs, (1..=last as u64).collect::<Vec<_>>(), "{seen:?}");
        let played: Vec<&str> = seen
            .iter()
            .filter(|frame| frame["type"] == "move")
            .filter_map(|frame| frame["move"].as_str())
            .collect();
        assert_eq!(played, moves, "{side}");
        let acks: Vec<u64> = seen
            .iter()
            .filter(|frame| frame["type"] == "ack")
            .filter_map(|frame| frame["request_id"].as_u64())
            .collect();
        let own: Vec<u64> = (0..moves.len() as u64)
            .filter(|i| *i as usize % 2 == side)
            .collect();
        assert_eq!(acks, own, "{seen:?}");
    }
}
