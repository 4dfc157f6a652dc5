//! Malformed requests and frames are refused, and the refusal says what the
//! client needs to match it up.

mod common;

use common::TestServer;
use serde_json::json;
use server::Config;

#[tokio::test]
async fn a_body_that_is_not_an_object_is_refused() {
    let server = TestServer::start().await;
    for body in ["[]", "[\"shogi\"]", "\"shogi\"", "3"] {
        let (status, answer) = server
            .request_text("POST", "/api/v1/rooms", None, Some(body))
            .await;
        assert_eq!(status, 422, "{body}: {answer}");
        assert!(answer.contains("bad-request"), "{body}: {answer}");
    }
    let (status, answer) = server
        .request_text("POST", "/api/v1/rooms", None, Some("{\"colour\": 1}"))
        .await;
    assert_eq!(status, 422);
    assert!(answer.contains("unknown field"), "{answer}");
    server.stop().await;
}

#[tokio::test]
async fn errors_about_a_whole_frame_echo_its_request_id() {
    let server = TestServer::start_config(Config {
        max_message_bytes: 200,
        messages_per_second: 3,
        ..Config::default()
    })
    .await;
    let (id, first, _) = server.online_room("shogi", None, json!({})).await;
    let mut ws = server.ws(&id, &format!("token={first}&since=2")).await;
    ws.send(json!({"type": "ping", "request_id": "big", "pad": "x".repeat(300)}))
        .await;
    let error = ws.next().await;
    assert_eq!(
        (&error["code"], &error["request_id"]),
        (&json!("too-large"), &json!("big"))
    );
    ws.send(json!({"type": "nonsense", "request_id": 7})).await;
    let error = ws.next().await;
    assert_eq!(
        (&error["code"], &error["request_id"]),
        (&json!("bad-request"), &json!(7))
    );
    ws.send(json!({"type": "ping", "request_id": "third"}))
        .await;
    assert_eq!(ws.next().await["type"], "pong");
    ws.send(json!({"type": "ping", "request_id": "late"})).await;
    let error = ws.next().await;
    assert_eq!(
        (&error["code"], &error["request_id"]),
        (&json!("too-many"), &json!("late"))
    );
    server.stop().await;
}
