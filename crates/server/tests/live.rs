//! The live frames of a room socket carry what each event changes: a client
//! that fetched the room once and applies every frame as the page does
//! (`web/js/room/state.js`) holds the room JSON a fresh `GET` returns, after
//! every kind of event.

mod common;

use common::{Client, TestServer};
use serde_json::{Value, json};

/// Applies one live event to a room JSON as the page does; false when the
/// event does not carry what it changed (read back from the store).
fn apply(room: &mut Value, event: &Value) -> bool {
    let Some(after) = event["after"].as_object() else {
        return false;
    };
    match event["type"].as_str() {
        Some("move") => {
            room["moves"]
                .as_array_mut()
                .unwrap()
                .push(event["move"].clone());
            for (format, text) in event["notation"].as_object().expect("a move's notation") {
                room["notation"][format]
                    .as_array_mut()
                    .unwrap()
                    .push(text.clone());
            }
        }
        Some("taken_back") => {
            let ply = usize::try_from(event["ply"].as_u64().unwrap()).unwrap();
            room["moves"].as_array_mut().unwrap().truncate(ply);
            for list in room["notation"].as_object_mut().unwrap().values_mut() {
                list.as_array_mut().unwrap().truncate(ply);
            }
        }
        Some("new_game") => {
            room["moves"] = json!([]);
            for list in room["notation"].as_object_mut().unwrap().values_mut() {
                *list = json!([]);
            }
        }
        _ => {}
    }
    for (field, value) in after {
        assert!(
            room.get(field).is_some(),
            "`after` has {field}, which the room JSON has not"
        );
        room[field] = value.clone();
    }
    room["last_seq"] = event["seq"].clone();
    true
}

/// The room JSON without what runs on by itself between two reads (the
/// running clock's milliseconds) and without the spectators, which presence
/// frames tell.
fn settled(room: &Value) -> Value {
    let mut room = room.clone();
    room.as_object_mut().unwrap().remove("spectators");
    if let Some(clocks) = room["clocks"].as_object_mut()
        && !clocks["running"].is_null()
    {
        clocks.remove("main_left_ms");
        clocks.remove("remaining_ms");
    }
    room
}

/// Reads frames until the page has caught up with the room as fetched now,
/// then holds the page to it; returns the event types read.
async fn catch_up(
    server: &TestServer,
    id: &str,
    socket: &mut Client,
    page: &mut Value,
) -> Vec<String> {
    let fetched = server.get(&format!("/api/v1/rooms/{id}")).await;
    let mut kinds = Vec::new();
    while page["last_seq"] != fetched["last_seq"] {
        let event = socket.next().await;
        assert_eq!(
            event["seq"],
            page["last_seq"].as_u64().unwrap() + 1,
            "{event}"
        );
        assert!(apply(page, &event), "a live event without `after`: {event}");
        kinds.push(event["type"].as_str().unwrap().to_owned());
    }
    assert_eq!(settled(page), settled(&fetched), "after {kinds:?}");
    kinds
}

#[tokio::test]
async fn a_page_that_applies_the_frames_holds_the_room_after_every_kind_of_event() {
    let server = TestServer::start().await;
    let clock = json!({"main_time": 300, "time_per_move": 10});
    let (id, first, second) = server.online_room("shogi", None, clock).await;
    let mut page = server.get(&format!("/api/v1/rooms/{id}")).await;
    let since = page["last_seq"].as_u64().unwrap();
    let mut watcher = server.ws(&id, &format!("since={since}")).await;
    let act = |token: &str, action: &str, body: Value| {
        let (server, id, token, action) = (&server, &id, token.to_owned(), action.to_owned());
        async move {
            // Renaming replaces the name: the one action that is a PUT.
            let method = if action == "name" { "PUT" } else { "POST" };
            let (status, answer) = server
                .request(
                    method,
                    &format!("/api/v1/rooms/{id}/{action}"),
                    Some(&token),
                    Some(&body),
                )
                .await;
            assert_eq!(status, 200, "{action}: {answer}");
        }
    };
    // Moves, the bishop exchange and the silver taking back on the same square (同).
    for (index, mv) in ["7g7f", "3c3d", "8h2b+", "3a2b"].into_iter().enumerate() {
        let token = if index % 2 == 0 { &first } else { &second };
        act(token, "moves", json!({"move": mv})).await;
        assert_eq!(
            catch_up(&server, &id, &mut watcher, &mut page).await,
            ["move"]
        );
    }
    assert_eq!(page["notation"]["japanese"][3], "△同　銀");
    let steps: [(&str, &str, Value, &[&str]); 9] = [
        (&first, "chat", json!({"phrase": "hello"}), &["chat"]),
        (&second, "name", json!({"name": "Cy"}), &["renamed"]),
        (&first, "draw", json!({}), &["draw_offered"]),
        (&first, "moves", json!({"move": "2g2f"}), &["move"]),
        (&first, "takeback", json!({}), &["takeback_offered"]),
        (
            &second,
            "takeback/decline",
            json!({}),
            &["takeback_declined"],
        ),
        (&first, "takeback", json!({}), &["takeback_offered"]),
        (&second, "takeback", json!({}), &["taken_back"]),
        (&first, "resign", json!({}), &["end"]),
    ];
    for (token, action, body, kinds) in steps {
        act(token, action, body).await;
        assert_eq!(
            catch_up(&server, &id, &mut watcher, &mut page).await,
            kinds,
            "{action}"
        );
    }
    assert_eq!(page["status"], "finished");
    assert_eq!(page["result"]["reason"], "resignation");
    assert!(
        page["clocks"]["final_left_ms"]["first"].as_u64().unwrap() > 0,
        "{page}"
    );
    act(&first, "rematch", json!({})).await;
    catch_up(&server, &id, &mut watcher, &mut page).await;
    act(&second, "rematch", json!({})).await;
    let kinds = catch_up(&server, &id, &mut watcher, &mut page).await;
    assert!(kinds.contains(&"new_game".to_owned()), "{kinds:?}");
    assert_eq!(page["moves"], json!([]));
    assert_eq!(page["status"], "playing");
    // The rematch swaps the sides: the second seat opens.
    act(&second, "moves", json!({"move": "7g7f"})).await;
    catch_up(&server, &id, &mut watcher, &mut page).await;
    server.stop().await;
}

#[tokio::test]
async fn xiangqi_moves_carry_wxf_and_chinese() {
    let server = TestServer::start().await;
    let (id, first, second) = server.online_room("xiangqi", None, json!({})).await;
    let mut socket = server.ws(&id, "since=2").await;
    server.play(&id, &first, "h2e2").await;
    server.play(&id, &second, "h9g7").await;
    let moves = [socket.next().await, socket.next().await];
    assert_eq!(
        moves[0]["notation"],
        json!({"wxf": "C2.5", "chinese": "炮二平五"})
    );
    assert_eq!(
        moves[1]["notation"],
        json!({"wxf": "H8+7", "chinese": "马8进7"})
    );
    assert_eq!(moves[1]["after"]["side_to_move"], "first");
    let legal = moves[1]["after"]["legal_moves"].as_array().unwrap();
    assert!(legal.contains(&json!("h0g2")), "{legal:?}");
    assert!(!legal.contains(&json!("h2e2")), "{legal:?}");
    server.stop().await;
}

#[tokio::test]
async fn events_read_back_from_the_store_carry_no_after() {
    let server = TestServer::start().await;
    let (id, first, second) = server.online_room("shogi", None, json!({})).await;
    let moves = [
        "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d",
    ];
    for (index, mv) in moves.into_iter().enumerate() {
        let token = if index % 2 == 0 { &first } else { &second };
        let (status, body) = server.play(&id, token, mv).await;
        assert_eq!(status, 200, "{mv}: {body}");
    }
    // The room keeps its last few events as sent; asked for older ones, it
    // reads them all back from the store, without `after`.
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    let last = room["last_seq"].as_u64().unwrap();
    let mut socket = server.ws(&id, "since=0").await;
    for seq in 1..=last {
        let event = socket.next().await;
        assert_eq!(event["seq"], seq);
        assert!(event.get("after").is_none(), "{event}");
        assert!(event.get("notation").is_none(), "{event}");
    }
    let mut socket = server.ws(&id, &format!("since={}", last - 3)).await;
    for seq in last - 2..=last {
        let event = socket.next().await;
        assert_eq!(event["seq"], seq);
        assert!(event["after"].is_object(), "{event}");
        assert!(event["notation"].is_object(), "{event}");
    }
    server.stop().await;
}
