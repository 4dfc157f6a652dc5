//! Who is in a room: the unnumbered presence frames of the room WebSocket,
//! the room JSON's spectator count, and seated players renaming themselves.

mod common;

use common::{Client, TempDatabase, TestServer};
use serde_json::{Value, json};
use server::Config;

/// Reads presence frames until one satisfies `wanted` (frames may merge
/// changes that happen close together) and returns it.
async fn presence_until(client: &mut Client, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let frame = client.next_presence().await;
        assert!(
            frame.get("seq").is_none(),
            "presence is not numbered: {frame}"
        );
        if wanted(&frame) {
            return frame;
        }
    }
}

#[tokio::test]
async fn sockets_opening_and_closing_reach_every_socket_as_presence_frames() {
    let server = TestServer::start().await;
    let (id, first, _second) = server.online_room("shogi", None, json!({})).await;
    let before = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(before["spectators"], 0);

    // A spectator hears at once who is there: nobody seated is connected.
    let mut watcher = server.ws(&id, "since=0").await;
    let frame = presence_until(&mut watcher, |f| f["spectators"] == 1).await;
    assert_eq!(
        frame["seats"],
        json!({"first": {"connected": false, "away": false},
               "second": {"connected": false, "away": false}})
    );

    // The first player's socket opens: the spectator hears it.
    let player = server.ws(&id, &format!("since=0&token={first}")).await;
    presence_until(&mut watcher, |f| f["seats"]["first"]["connected"] == true).await;
    // A second spectator: both counted, in the frames and in the room JSON.
    let mut other = server.ws(&id, "since=0").await;
    let frame = presence_until(&mut other, |f| f["spectators"] == 2).await;
    assert_eq!(frame["seats"]["first"]["connected"], true);
    presence_until(&mut watcher, |f| f["spectators"] == 2).await;
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["spectators"], 2);
    assert_eq!(room["seats"]["first"]["connected"], true);

    // The player's socket closes during play: connected false and away.
    player.close().await;
    let frame = presence_until(&mut watcher, |f| f["seats"]["first"]["connected"] == false).await;
    assert_eq!(frame["seats"]["first"]["away"], true);
    other.close().await;
    presence_until(&mut watcher, |f| f["spectators"] == 1).await;

    // Presence is not history: the events are the seats and the away notice only.
    let (status, events) = server
        .request_text(
            "GET",
            &format!("/api/v1/rooms/{id}/events?follow=false"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 200);
    let types: Vec<String> = events
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(types, ["seated", "seated", "away"]);
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["last_seq"], 3);
    assert_eq!(room["spectators"], 1);
    watcher.close().await;
    server.stop().await;
}

#[tokio::test]
async fn an_event_stream_is_no_spectator() {
    let server = TestServer::start().await;
    let (id, _, _) = server.online_room("xiangqi", None, json!({})).await;
    let (status, _) = server
        .request_text(
            "GET",
            &format!("/api/v1/rooms/{id}/events?follow=false"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 200);
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["spectators"], 0);
    server.stop().await;
}

#[tokio::test]
async fn a_seated_player_renames_their_seat_and_it_lasts() {
    let database = TempDatabase::new();
    let url = database.url();
    let server = TestServer::start_with(url, Config::default()).await;
    let (id, first, second) = server.online_room("shogi", None, json!({})).await;
    let path = format!("/api/v1/rooms/{id}/name");
    let mut watcher = server.ws(&id, "since=2").await;

    let (status, body) = server
        .request(
            "PUT",
            &path,
            Some(&first),
            Some(&json!({"name": "  Kai  "})),
        )
        .await;
    assert_eq!(
        (status, body),
        (200, json!({"seats": ["first"], "name": "Kai"}))
    );
    let event = watcher.next().await;
    assert_eq!(
        (
            &event["type"],
            &event["seat"],
            &event["name"],
            &event["seq"]
        ),
        (&json!("renamed"), &json!("first"), &json!("Kai"), &json!(3))
    );
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["seats"]["first"]["name"], "Kai");
    assert_eq!(room["seats"]["second"]["name"], "Bo");
    let player = room["seats"]["first"]["player"]
        .as_str()
        .unwrap()
        .to_owned();
    let profile = server.get(&format!("/api/v1/players/{player}")).await;
    assert_eq!(profile["name"], "Kai");

    // Only a seat's own token renames it.
    let refusals = [
        (None, json!({"name": "X"}), 401, "missing-token"),
        (Some("nope"), json!({"name": "X"}), 403, "wrong-token"),
        (
            Some(second.as_str()),
            json!({"name": "X", "seat": "first"}),
            403,
            "wrong-token",
        ),
        (
            Some(second.as_str()),
            json!({"name": "X", "seat": "third"}),
            422,
            "bad-request",
        ),
        (
            Some(second.as_str()),
            json!({"nom": "X"}),
            422,
            "bad-request",
        ),
    ];
    for (token, body, status, code) in refusals {
        let (got, answer) = server.request("PUT", &path, token, Some(&body)).await;
        assert_eq!(
            (got, answer["code"].as_str()),
            (status, Some(code)),
            "{body}"
        );
    }
    watcher.close().await;
    server.stop().await;

    // The name is an event: it comes back after a restart.
    let server = TestServer::start_with(url, Config::default()).await;
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["seats"]["first"]["name"], "Kai");
    server.stop().await;
}

#[tokio::test]
async fn a_local_token_renames_one_seat_or_both() {
    let server = TestServer::start().await;
    let created = server.create(json!({"mode": "local", "name": "Ann"})).await;
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let path = format!("/api/v1/rooms/{id}/name");
    let (status, body) = server
        .request(
            "PUT",
            &path,
            Some(token),
            Some(&json!({"name": "Kai", "seat": "second"})),
        )
        .await;
    assert_eq!((status, &body["seats"]), (200, &json!(["second"])));
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(
        (
            &room["seats"]["first"]["name"],
            &room["seats"]["second"]["name"]
        ),
        (&json!("Ann"), &json!("Kai"))
    );
    let (status, body) = server
        .request("PUT", &path, Some(token), Some(&json!({"name": "Lu"})))
        .await;
    assert_eq!((status, &body["seats"]), (200, &json!(["first", "second"])));
    server.stop().await;
}
