//! The computer on a public server: a few searches at a time, whatever the
//! number of computer rooms, and each told what its clock leaves.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::TestServer;
use rules::{AnyGame, AnyMove};
use serde_json::{Value, json};
use server::{ComputerPlayer, Config, Evaluation, FirstLegalMove, Thinking};

/// Plays the first legal move after a short think, counting how many think
/// at once and keeping what each was allowed.
#[derive(Default)]
struct Counting {
    running: AtomicUsize,
    most_at_once: AtomicUsize,
    thinking: Mutex<Vec<Thinking>>,
}

impl ComputerPlayer for Counting {
    fn choose(&self, game: &AnyGame, level: u8, thinking: Thinking) -> Option<AnyMove> {
        let running = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_at_once.fetch_max(running, Ordering::SeqCst);
        self.thinking.lock().unwrap().push(thinking);
        // Long enough that searches running at once would meet.
        std::thread::sleep(Duration::from_millis(20));
        self.running.fetch_sub(1, Ordering::SeqCst);
        FirstLegalMove.choose(game, level, thinking)
    }

    fn evaluate(&self, game: &AnyGame, move_time: Duration) -> Option<Evaluation> {
        FirstLegalMove.evaluate(game, move_time)
    }
}

/// Creates a computer room where the computer moves first.
async fn computer_moves_first(server: &TestServer, settings: Value) -> String {
    let created = server
        .create(
            json!({"variant": "minishogi", "mode": "computer", "level": 8,
                       "seat": "second", "settings": settings}),
        )
        .await;
    created["id"].as_str().expect("a room").to_owned()
}

/// Waits until the room's computer has played its first move.
async fn first_move_played(server: &TestServer, id: &str) {
    tokio::time::timeout(Duration::from_secs(60), async {
        while server.get(&format!("/api/v1/rooms/{id}")).await["moves"]
            .as_array()
            .is_none_or(Vec::is_empty)
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the computer moves");
}

#[tokio::test]
async fn twenty_computer_rooms_thinking_at_once_search_one_at_a_time_with_one_engine_thread() {
    let counting = Arc::new(Counting::default());
    let config = Config {
        engine_threads: 1,
        ..Config::default()
    };
    let server = TestServer::start_computer(config, counting.clone()).await;
    let mut rooms = Vec::new();
    for _ in 0..20 {
        rooms.push(computer_moves_first(&server, json!({})).await);
    }
    for id in &rooms {
        first_move_played(&server, id).await;
    }
    assert_eq!(counting.thinking.lock().unwrap().len(), 20);
    assert_eq!(counting.most_at_once.load(Ordering::SeqCst), 1);
    server.stop().await;
}

#[tokio::test]
async fn the_computer_is_told_what_its_clock_leaves() {
    let counting = Arc::new(Counting::default());
    let server = TestServer::start_computer(Config::default(), counting.clone()).await;
    let unhurried = computer_moves_first(&server, json!({})).await;
    first_move_played(&server, &unhurried).await;
    let on_the_clock = computer_moves_first(&server, json!({"time_per_move": 10})).await;
    first_move_played(&server, &on_the_clock).await;
    let thinking = counting.thinking.lock().unwrap().clone();
    assert_eq!(thinking[0], Thinking::Search { within: None });
    // At most half of the 10 s per move.
    assert!(
        matches!(thinking[1], Thinking::Search { within: Some(within) }
            if within <= Duration::from_secs(5)),
        "{thinking:?}"
    );
    server.stop().await;
}
