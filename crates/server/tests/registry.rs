//! The room registry: a room that loads slowly from the store holds up only
//! the requests for that room, never gets two tasks, and does not hold up the
//! server's start.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use common::{TestServer, remove_sqlite, sqlite_url};
use serde_json::json;
use server::{Config, FirstLegalMove};
use store::{
    AnalysisRecord, EventRecord, GameRecord, Lease, NodeRecord, Owner, PlayerCounts, PlayerGame,
    RatingRecord, Result, RoomRecord, SeatRecord, Store, VariantCounts,
};

/// A store whose reads of one room wait until the gate opens, counting them.
struct GatedRoom {
    inner: Arc<dyn Store>,
    slow: String,
    open: AtomicBool,
    loads: AtomicUsize,
}

#[async_trait]
impl Store for GatedRoom {
    async fn create_room_within_limit(
        &self,
        room: &RoomRecord,
        since: i64,
        limit: i64,
    ) -> Result<bool> {
        self.inner
            .create_room_within_limit(room, since, limit)
            .await
    }
    async fn room(&self, id: &str) -> Result<RoomRecord> {
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
        self.inner.room(id).await
    }
    async fn unfinished_rooms(&self) -> Result<Vec<String>> {
        self.inner.unfinished_rooms().await
    }
    async fn set_finished(&self, id: &str, finished: bool) -> Result<()> {
        self.inner.set_finished(id, finished).await
    }
    async fn seats(&self, room_id: &str) -> Result<Vec<SeatRecord>> {
        self.inner.seats(room_id).await
    }
    async fn append_events(
        &self,
        room_id: &str,
        events: &[EventRecord],
        seat: Option<&SeatRecord>,
    ) -> Result<()> {
        self.inner.append_events(room_id, events, seat).await
    }
    async fn append_events_fenced(
        &self,
        room_id: &str,
        events: &[EventRecord],
        seat: Option<&SeatRecord>,
        lease: Option<&Lease>,
    ) -> Result<()> {
        self.inner
            .append_events_fenced(room_id, events, seat, lease)
            .await
    }
    async fn events(&self, room_id: &str, after: i64) -> Result<Vec<EventRecord>> {
        self.inner.events(room_id, after).await
    }
    async fn finish_game(&self, game: &GameRecord, ratings: &[RatingRecord]) -> Result<()> {
        self.inner.finish_game(game, ratings).await
    }
    async fn variant_counts(&self) -> Result<Vec<VariantCounts>> {
        self.inner.variant_counts().await
    }
    async fn player_counts(&self, player: &str) -> Result<Vec<PlayerCounts>> {
        self.inner.player_counts(player).await
    }
    async fn player_games(&self, player: &str, limit: i64, offset: i64) -> Result<Vec<PlayerGame>> {
        self.inner.player_games(player, limit, offset).await
    }
    async fn rating(&self, player: &str, variant: &str) -> Result<Option<RatingRecord>> {
        self.inner.rating(player, variant).await
    }
    async fn create_player(&self, player: &str, secret_hash: &str, name: &str) -> Result<()> {
        self.inner.create_player(player, secret_hash, name).await
    }
    async fn player_secret_hash(&self, player: &str) -> Result<Option<String>> {
        self.inner.player_secret_hash(player).await
    }
    async fn set_player_name(&self, player: &str, name: &str) -> Result<()> {
        self.inner.set_player_name(player, name).await
    }
    async fn player_name(&self, player: &str) -> Result<String> {
        self.inner.player_name(player).await
    }
    async fn save_analysis(&self, analysis: &AnalysisRecord) -> Result<()> {
        self.inner.save_analysis(analysis).await
    }
    async fn analysis(&self, room_id: &str, game: i64) -> Result<Option<AnalysisRecord>> {
        self.inner.analysis(room_id, game).await
    }
    fn shared(&self) -> bool {
        self.inner.shared()
    }
    async fn heartbeat(&self, node: &NodeRecord) -> Result<()> {
        self.inner.heartbeat(node).await
    }
    async fn remove_node(&self, id: &str) -> Result<()> {
        self.inner.remove_node(id).await
    }
    async fn nodes(&self, since: i64) -> Result<Vec<NodeRecord>> {
        self.inner.nodes(since).await
    }
    async fn acquire_lease(
        &self,
        room_id: &str,
        node: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<Option<Lease>> {
        self.inner
            .acquire_lease(room_id, node, now, expires_at)
            .await
    }
    async fn renew_leases(&self, node: &str, expires_at: i64) -> Result<Vec<Lease>> {
        self.inner.renew_leases(node, expires_at).await
    }
    async fn release_lease(&self, lease: &Lease) -> Result<()> {
        self.inner.release_lease(lease).await
    }
    async fn owner(&self, room_id: &str) -> Result<Option<Owner>> {
        self.inner.owner(room_id).await
    }
    async fn orphaned_rooms(&self, now: i64, limit: i64) -> Result<Vec<String>> {
        self.inner.orphaned_rooms(now, limit).await
    }
}

#[tokio::test]
async fn a_slow_room_holds_up_neither_the_start_nor_other_rooms_and_gets_one_task() {
    let url = sqlite_url();
    let server = TestServer::start_with(&url, Config::default()).await;
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

    let store = Arc::new(GatedRoom {
        inner: store::open(&url).await.unwrap(),
        slow: slow.clone(),
        open: AtomicBool::new(false),
        loads: AtomicUsize::new(0),
    });
    // The server serves while the slow room has not loaded.
    let server = tokio::time::timeout(
        Duration::from_secs(5),
        TestServer::start_store(
            &url,
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

    store.open.store(true, Ordering::SeqCst);
    for request in waiting {
        let (status, room) = request.await.unwrap();
        assert_eq!((status, room["variant"].as_str()), (200, Some("minishogi")));
    }
    // The recovery and four requests asked for it together: it loaded once.
    assert_eq!(store.loads.load(Ordering::SeqCst), 1);
    Arc::into_inner(server).unwrap().stop().await;
    remove_sqlite(&url);
}
