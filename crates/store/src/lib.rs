//! Koma's persistence: rooms, their seats and numbered events, finished games
//! and their analyses, players and ratings, behind one [`Store`] trait with two backends.
//!
//! - [`SqliteStore`]: the embedded default, one file in WAL mode, created if missing.
//! - [`PostgresStore`]: for larger sites, chosen by a `postgres://` URL.
//!
//! [`open`] picks the backend from the URL scheme and runs the migrations of
//! `migrations/sqlite` or `migrations/postgres` (the same numbered names in both).
//!
//! This crate is the only one that knows SQL. What it stores is text the server
//! owns (settings and event data as JSON, positions as SFEN/FEN, moves as
//! USI/ICCS), never internal indices of the rules crate.
//!
//! Related crates: `server` (the only user), `rules` (what the text means).

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod backend;
mod group_commit;
mod records;
mod secret;
mod sqlite_writer;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

use async_trait::async_trait;

pub use backend::{PostgresStore, SqliteStore, open};
pub use records::{
    AnalysisRecord, EventRecord, GameRecord, Lease, NodeRecord, Owner, PlayerCounts, PlayerGame,
    RatingRecord, RoomRecord, SeatRecord, VariantCounts,
};
pub use secret::digest;

/// What can go wrong with the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No such row (room, player ...).
    #[error("not found")]
    NotFound,
    /// The row exists already (a seat taken, an event number used).
    #[error("already exists")]
    Conflict,
    /// The lease an append was fenced by is no longer the node's: another
    /// node took the room, and nothing was stored.
    #[error("the room's lease passed to another node")]
    Fenced,
    /// The database URL names no backend this build knows.
    #[error("unknown database URL scheme in '{0}' (expected sqlite:// or postgres://)")]
    UnknownScheme(String),
    /// An in-memory SQLite database: the store's readers and its writer are
    /// connections of their own, and each would see a database of its own.
    #[error("an in-memory SQLite database cannot be used: name a file (sqlite://PATH)")]
    InMemory,
    // The two below say their cause in their message, so they name no
    // `source`: a report that prints the chain would say it twice.
    /// The database failed or could not be reached.
    #[error("database error: {0}")]
    Database(sqlx::Error),
    /// The SQLite store's writer, which calls SQLite itself, failed.
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    /// The store's writer stopped (its runtime shut down): nothing was stored.
    #[error("the store's writer has stopped")]
    Closed,
    /// A migration failed at start.
    #[error("migration failed: {0}")]
    Migrate(sqlx::migrate::MigrateError),
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(err: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::Migrate(err)
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> StoreError {
        match err {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict,
            other => StoreError::Database(other),
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> StoreError {
        use rusqlite::ffi::{SQLITE_CONSTRAINT_PRIMARYKEY, SQLITE_CONSTRAINT_UNIQUE};
        match err {
            rusqlite::Error::SqliteFailure(failure, _)
                if failure.extended_code == SQLITE_CONSTRAINT_PRIMARYKEY
                    || failure.extended_code == SQLITE_CONSTRAINT_UNIQUE =>
            {
                StoreError::Conflict
            }
            other => StoreError::Sqlite(other),
        }
    }
}

/// The result of every store operation.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Everything the server keeps across restarts.
///
/// A room's state is its record, its seats and its event log: replaying the
/// events from the start rebuilds the game, so an acknowledged event is never lost.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Saves a new room unless its device created `limit` rooms or more at or
    /// after `since` (unix milliseconds). Counting and saving are one step, so
    /// simultaneous requests from one device cannot pass the limit together.
    /// Returns whether the room was saved.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id is taken; database failures.
    async fn create_room_within_limit(
        &self,
        room: &RoomRecord,
        since: i64,
        limit: i64,
    ) -> Result<bool>;

    /// The room with this id.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database failures.
    async fn room(&self, id: &str) -> Result<RoomRecord>;

    /// The ids of every room whose last game is not over, oldest first: what a
    /// restarted server brings back to life.
    ///
    /// # Errors
    /// Database failures.
    async fn unfinished_rooms(&self) -> Result<Vec<String>>;

    /// Marks a room finished (its game ended) or open again (a rematch began).
    ///
    /// # Errors
    /// Database failures.
    async fn set_finished(&self, id: &str, finished: bool) -> Result<()>;

    /// The taken seats of a room.
    ///
    /// # Errors
    /// Database failures.
    async fn seats(&self, room_id: &str) -> Result<Vec<SeatRecord>>;

    /// Appends numbered events to a room's log in one transaction, with the
    /// seat they give a player when one is taken: all of it is stored, or none.
    /// Returns once the transaction committed. Appends of many callers that
    /// arrive together share one transaction (group commit); each caller still
    /// gets the outcome of its own append.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if a number or the seat is taken; database failures.
    async fn append_events(
        &self,
        room_id: &str,
        events: &[EventRecord],
        seat: Option<&SeatRecord>,
    ) -> Result<()> {
        self.append_events_fenced(room_id, events, seat, None).await
    }

    /// [`append_events`](Store::append_events) by the holder of `lease`: in
    /// the same transaction, the lease must still be the holder's (same node,
    /// same fencing number), so a node that lost the room stores nothing.
    ///
    /// # Errors
    /// [`StoreError::Fenced`] if the lease passed to another node;
    /// [`StoreError::Conflict`] if a number or the seat is taken; database failures.
    async fn append_events_fenced(
        &self,
        room_id: &str,
        events: &[EventRecord],
        seat: Option<&SeatRecord>,
        lease: Option<&Lease>,
    ) -> Result<()>;

    /// The events of a room numbered above `after`, in order.
    ///
    /// # Errors
    /// Database failures.
    async fn events(&self, room_id: &str, after: i64) -> Result<Vec<EventRecord>>;

    /// Records a finished game and, for rated games, both players' new ratings,
    /// in one transaction.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if that game of the room is recorded; database failures.
    async fn finish_game(&self, game: &GameRecord, ratings: &[RatingRecord]) -> Result<()>;

    /// Finished games per variant, counted by result.
    ///
    /// # Errors
    /// Database failures.
    async fn variant_counts(&self) -> Result<Vec<VariantCounts>>;

    /// One player's finished games per variant, counted by result.
    ///
    /// # Errors
    /// Database failures.
    async fn player_counts(&self, player: &str) -> Result<Vec<PlayerCounts>>;

    /// The rooms `player` holds a seat in, newest first: `limit` of them after
    /// skipping `offset`, each with its opponent and the player's result in
    /// its last recorded game.
    ///
    /// # Errors
    /// Database failures.
    async fn player_games(&self, player: &str, limit: i64, offset: i64) -> Result<Vec<PlayerGame>>;

    /// A player's rating in a variant, if they played a rated game of it.
    ///
    /// # Errors
    /// Database failures.
    async fn rating(&self, player: &str, variant: &str) -> Result<Option<RatingRecord>>;

    /// Makes a new player with the digest of its credential and its name.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id is taken; database failures.
    async fn create_player(&self, player: &str, secret_hash: &str, name: &str) -> Result<()>;

    /// The digest of a player's credential: `None` for a player made before
    /// credentials existed, whom no one can act as.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database failures.
    async fn player_secret_hash(&self, player: &str) -> Result<Option<String>>;

    /// Sets a player's display name, creating the player if new.
    ///
    /// # Errors
    /// Database failures.
    async fn set_player_name(&self, player: &str, name: &str) -> Result<()>;

    /// A player's display name.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database failures.
    async fn player_name(&self, player: &str) -> Result<String>;

    /// Keeps the analysis of a game of a room.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if that game's analysis is kept already;
    /// database failures.
    async fn save_analysis(&self, analysis: &AnalysisRecord) -> Result<()>;

    /// The kept analysis of game `game` of a room, if there is one.
    ///
    /// # Errors
    /// Database failures.
    async fn analysis(&self, room_id: &str, game: i64) -> Result<Option<AnalysisRecord>>;

    /// Whether other processes may use this database at the same time
    /// (PostgreSQL), so that rooms need leases; an SQLite file has one server.
    fn shared(&self) -> bool;

    /// Registers a node or says it is still alive (its heartbeat), with the
    /// lobby of the rooms it plays.
    ///
    /// # Errors
    /// Database failures.
    async fn heartbeat(&self, node: &NodeRecord) -> Result<()>;

    /// Forgets a node that stops.
    ///
    /// # Errors
    /// Database failures.
    async fn remove_node(&self, id: &str) -> Result<()>;

    /// The nodes whose heartbeat is at or after `since`, by id.
    ///
    /// # Errors
    /// Database failures.
    async fn nodes(&self, since: i64) -> Result<Vec<NodeRecord>>;

    /// Takes the lease of a room for `node` until `expires_at` when no node
    /// holds it, its lease lapsed at `now`, or `node` holds it already;
    /// the fencing number grows when the room changes hands. Returns the
    /// lease, or `None` when another node holds it.
    ///
    /// # Errors
    /// Database failures (a room that does not exist among them).
    async fn acquire_lease(
        &self,
        room_id: &str,
        node: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<Option<Lease>>;

    /// Extends to `expires_at` every lease `node` holds and did not
    /// release, a few hundred at a time; returns the leases it holds then.
    /// An `expires_at` of 0 releases them all. On PostgreSQL a lease whose row
    /// a write holds at that moment is returned as it was, and renewed at the
    /// next call.
    ///
    /// # Errors
    /// Database failures.
    async fn renew_leases(&self, node: &str, expires_at: i64) -> Result<Vec<Lease>>;

    /// Lets go of a lease at once (it lapses), if it is still the holder's,
    /// so another node may take the room without waiting.
    ///
    /// # Errors
    /// Database failures.
    async fn release_lease(&self, lease: &Lease) -> Result<()>;

    /// Who holds a room's lease (lapsed or not), with the node's address.
    ///
    /// # Errors
    /// Database failures.
    async fn owner(&self, room_id: &str) -> Result<Option<Owner>>;

    /// Up to `limit` unfinished rooms whose lease lapsed at `now`, or that no
    /// node held within a minute of their creation: the rooms nobody plays.
    /// Lapsed leases first, otherwise in random order.
    ///
    /// # Errors
    /// Database failures.
    async fn orphaned_rooms(&self, now: i64, limit: i64) -> Result<Vec<String>>;
}
