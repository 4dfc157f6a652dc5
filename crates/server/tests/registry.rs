//! The room registry: a room that loads slowly from the store holds up only
//! the requests for that room, never gets two tasks, and does not hold up the
//! server's start.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use common::{TempDatabase, TestServer};
use serde_json::json;
use server::{Config, FirstLegalMove};
use store::testing::{Intercept, Intercepted};

/// Reads of one room wait until the gate opens, counted.
struct Gate {
    slow: String,
    open: AtomicBool,
    loads: AtomicUsize,
}

#[async_trait]
impl Intercept for Gate {
    async fn room(&self, id: &str) {
        if id == self.slow {
            self.loads.fetch_add(1, Ordering::SeqCst);
            // A failed test never opens the gate: give up in time.
            for _ in 0..20_000 {
                if self.open.load(Ordering::SeqCst) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
    }
}

#[tokio::test]
async fn a_slow_room_holds_up_neither_the_start_nor_other_rooms_and_gets_one_task() {
    let database = TempDatabase::new();
    let url = database.url();
    let server = TestServer::start_with(url, Config::default()).await;
    // Both rooms are unfinished (waiting); the slow one is the oldest, recovered first.
    let slow = server
        .create(json!({"variant": "minishogi", "mode": "online", "name": "Ann"}))
        .await;
    let slow = slow["id"].as_str().unwrap().to_owned();
    let quick = server
        .create(json!({"variant": "shogi", "mode": "online", "name": "Bob"}))
        .await;
    let quick = quick["id"].as_str().unwrap().to_owned();
    server.stop().await;

    let store = Arc::new(Intercepted {
        inner: store::open(url).await.unwrap(),
        intercept: Gate {
            slow: slow.clone(),
            open: AtomicBool::new(false),
            loads: AtomicUsize::new(0),
        },
    });
    // The server serves while the slow room has not loaded.
    let server = tokio::time::timeout(
        Duration::from_secs(5),
        TestServer::start_store(
            url,
            store.clone(),
            Config::default(),
            Arc::new(FirstLegalMove),
        ),
    )
    .await
    .expect("the server starts before its rooms load");
    let server = Arc::new(server);
    let waiting: Vec<_> = (0..4)
        .map(|_| {
            let server = server.clone();
            let path = format!("/api/v1/rooms/{slow}");
            tokio::spawn(async move { server.request("GET", &path, None, None).await })
        })
        .collect();
    let (status, room) = server
        .request("GET", &format!("/api/v1/rooms/{quick}"), None, None)
        .await;
    assert_eq!((status, room["variant"].as_str()), (200, Some("shogi")));
    assert!(waiting.iter().all(|request| !request.is_finished()));

    store.intercept.open.store(true, Ordering::SeqCst);
    for request in waiting {
        let (status, room) = request.await.unwrap();
        assert_eq!((status, room["variant"].as_str()), (200, Some("minishogi")));
    }
    // The recovery and four requests asked for it together: it loaded once.
    assert_eq!(store.intercept.loads.load(Ordering::SeqCst), 1);
    Arc::into_inner(server).unwrap().stop().await;
}
