//! The limits of a public server: rooms per address under concurrency,
//! connection timeouts and caps, WebSocket rates, and shutdown of every socket.

mod common;

use std::sync::Arc;

use common::TestServer;
use serde_json::json;
use server::Config;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_room_creations_from_one_address_stop_at_the_limit() {
    let server = Arc::new(
        TestServer::start_config(Config {
            rooms_per_device_per_hour: 100,
            ..Config::default()
        })
        .await,
    );
    let requests: Vec<_> = (0..150)
        .map(|_| {
            let server = server.clone();
            tokio::spawn(async move {
                server
                    .request("POST", "/api/v1/rooms", None, Some(&json!({})))
                    .await
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for request in requests {
        let (status, body) = request.await.unwrap();
        assert!(status == 201 || status == 429, "{status} {body}");
        statuses.push(status);
    }
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 100);
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 50);
    Arc::into_inner(server).unwrap().stop().await;
}
