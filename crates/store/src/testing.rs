//! A store that runs a test's code before some of its calls, for the tests of
//! the store's users (the `testing` feature): what the server does when a read
//! is slow, without a slow database. A test writes only the hooks it needs;
//! every call goes on to the store it wraps.

use std::sync::Arc;

use async_trait::async_trait;

use crate::{
    AnalysisRecord, EventRecord, GameRecord, Lease, NodeRecord, Owner, PlayerCounts, PlayerGame,
    RatingRecord, Result, RoomRecord, SeatRecord, Store, VariantCounts,
};

/// What runs before the calls of an [`Intercepted`] store. Each hook does
/// nothing unless a test overrides it.
#[async_trait]
pub trait Intercept: Send + Sync + 'static {
    /// Runs before [`Store::room`] reads room `id`.
    async fn room(&self, _id: &str) {}
}

/// The store `inner`, with `intercept`'s hooks run before the calls they name.
pub struct Intercepted<I> {
    /// The store every call goes on to.
    pub inner: Arc<dyn Store>,
    /// The hooks (and whatever the test keeps in them).
    pub intercept: I,
}

#[async_trait]
impl<I: Intercept> Store for Intercepted<I> {
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
        self.intercept.room(id).await;
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
    // `append_events` is the trait's own: this, without a lease.
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
