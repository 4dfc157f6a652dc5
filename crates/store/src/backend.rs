//! The two backends. Their SQL is the same text (numbered `$N` parameters,
//! `ON CONFLICT`, `FILTER`), so one macro writes both implementations and the
//! differences live in the migrations and the connection options.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::postgres::{PgPool, PgPoolOptions, Postgres};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use crate::group_commit::{Append, GroupCommit, Writer, lone_event};
use crate::sqlite_writer::SqliteWriter;
use crate::{
    AnalysisRecord, EventRecord, GameRecord, Lease, NodeRecord, Owner, PlayerCounts, PlayerGame,
    RatingRecord, Result, RoomRecord, SeatRecord, Store, StoreError, VariantCounts,
};

/// Opens the database `url` names (`sqlite://PATH` or `postgres://...`) and
/// brings its schema up to date.
///
/// # Errors
/// An unknown scheme, a database that cannot be opened, or a failed migration.
pub async fn open(url: &str) -> Result<Arc<dyn Store>> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStore::open(url).await?))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(PostgresStore::open(url).await?))
    } else {
        let scheme = url.split_once(':').map_or(url, |(scheme, _)| scheme);
        Err(StoreError::UnknownScheme(scheme.to_owned()))
    }
}

/// Creates the database file readable and writable by its owner only
/// (SQLite gives its journal files the same mode), unless it exists.
fn create_private(path: &std::path::Path) {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    // An existing file keeps its mode; a path that cannot be made is left to
    // SQLite, whose error names the problem.
    let _ = options.open(path);
}

/// Seats stored before tokens were kept as digests get their digest, and
/// lose the token.
macro_rules! hash_legacy_tokens {
    ($pool:expr) => {{
        let legacy: Vec<(String, String, String)> =
            sqlx::query_as("SELECT room_id, seat, token FROM seats WHERE token_hash IS NULL")
                .fetch_all($pool)
                .await?;
        for (room_id, seat, token) in legacy {
            sqlx::query(
                "UPDATE seats SET token_hash = $1, token = '' WHERE room_id = $2 AND seat = $3",
            )
            .bind(crate::digest(&token))
            .bind(room_id)
            .bind(seat)
            .execute($pool)
            .await?;
        }
    }};
}

/// The embedded backend: one SQLite file in WAL mode.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
    appends: GroupCommit,
    /// Whose turn it is to write: the group-commit writer's next batch, or
    /// one of the pool's writes. SQLite lets one connection write at a time
    /// and makes the others poll for the lock, sleeping longer each time
    /// (up to 100 ms); the writer, busy, begins its next batch within
    /// microseconds of a commit, so a pool's write polling beside it lost
    /// nearly every time and waited over a second. Taking turns in this
    /// queue (first come, first served) instead, neither waits longer than
    /// the other's one transaction, and SQLite never finds its lock taken.
    turn: Arc<WriteTurn>,
}

/// The queue for SQLite's write lock among the store's connections (see
/// [`SqliteStore`]'s `turn`).
pub(crate) type WriteTurn = tokio::sync::Mutex<()>;

impl SqliteStore {
    /// Waits for the pool's turn to write.
    async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        Some(self.turn.lock().await)
    }

    /// Opens (creating if missing) the SQLite database at `url` and migrates it.
    ///
    /// # Errors
    /// A bad URL, an in-memory database, a file that cannot be opened, or a
    /// failed migration.
    pub async fn open(url: &str) -> Result<SqliteStore> {
        if url.contains(":memory:") || url.contains("mode=memory") {
            return Err(StoreError::InMemory);
        }
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL syncs the WAL at every commit, so an acknowledged event
            // survives a power cut or an OS crash, not only the process's
            // crash (NORMAL in WAL mode keeps those through SIGKILL but may
            // lose the last commits to a power cut). Group commit makes it
            // affordable: one sync serves every append of a batch.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let path = options.get_filename().to_owned();
        create_private(&path);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            // A file does not hang up: pinging a connection before handing it
            // out would only cost a round trip to its worker thread.
            .test_before_acquire(false)
            .connect_with(options)
            .await?;
        sqlx::migrate!("migrations/sqlite").run(&pool).await?;
        hash_legacy_tokens!(&pool);
        let turn = Arc::new(WriteTurn::default());
        let writer = SqliteWriter::open(&path, Arc::clone(&turn))?;
        let appends = GroupCommit::start_thread("koma-sqlite-writer", writer)
            .map_err(|err| StoreError::Database(sqlx::Error::Io(err)))?;
        Ok(SqliteStore {
            pool,
            appends,
            turn,
        })
    }
}

/// The PostgreSQL backend.
#[derive(Clone)]
pub struct PostgresStore {
    pool: PgPool,
    appends: GroupCommit,
}

impl std::fmt::Debug for PostgresStore {
    // The URL holds the password, so it is never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PostgresStore { .. }")
    }
}

impl PostgresStore {
    /// PostgreSQL locks rows, not the database: its writes need no turn.
    #[expect(
        clippy::unused_async,
        reason = "the same call as SqliteStore's, from the one macro"
    )]
    async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        None
    }

    /// Connects to the PostgreSQL database at `url` and migrates it.
    ///
    /// # Errors
    /// A bad URL, a server that cannot be reached, or a failed migration.
    pub async fn open(url: &str) -> Result<PostgresStore> {
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await?;
        sqlx::migrate!("migrations/postgres").run(&pool).await?;
        hash_legacy_tokens!(&pool);
        let appends = GroupCommit::start(PoolWriter::new(pool.clone()));
        Ok(PostgresStore { pool, appends })
    }
}

/// PostgreSQL's group-commit writer: one connection of the pool, kept from
/// batch to batch. sqlx pings a connection when it goes back to the pool and
/// again when it is taken (each a round trip to PostgreSQL), so a batch on a
/// connection taken for it costs three round trips where its statement needs
/// one. (SQLite's writer calls SQLite itself: `sqlite_writer`.)
pub(crate) struct PoolWriter {
    pool: PgPool,
    connection: Option<sqlx::pool::PoolConnection<Postgres>>,
}

impl PoolWriter {
    pub(crate) fn new(pool: PgPool) -> PoolWriter {
        PoolWriter {
            pool,
            connection: None,
        }
    }
}

/// The statement that stores one of `room_id`'s events.
fn insert_event<'a>(
    room_id: &'a str,
    event: &'a EventRecord,
) -> sqlx::query::Query<'a, Postgres, sqlx::postgres::PgArguments> {
    sqlx::query(
        "INSERT INTO events (room_id, seq, at, kind, data) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(room_id)
    .bind(event.seq)
    .bind(event.at)
    .bind(&event.kind)
    .bind(&event.data)
}

/// The batch on `connection`: the appends in one transaction, each seat
/// before its events, each fenced append after its lease was found still
/// held (`FOR SHARE` locks the lease row, so a takeover waits for this
/// transaction and then sees its events).
async fn write_batch(connection: &mut sqlx::PgConnection, appends: &[Append]) -> Result<()> {
    // One event alone is one statement, atomic and durable by itself:
    // without BEGIN, the fence check and COMMIT it costs one round trip to
    // the server instead of three or four. With a lease, it inserts only
    // while the lease is held, and locks its row as the check does.
    if let Some((room_id, event, lease)) = lone_event(appends) {
        let Some(lease) = lease else {
            insert_event(room_id, event).execute(connection).await?;
            return Ok(());
        };
        let inserted = sqlx::query(
            "INSERT INTO events (room_id, seq, at, kind, data) SELECT $1, $2, $3, $4, $5 \
             WHERE EXISTS (SELECT 1 FROM leases \
                WHERE room_id = $1 AND node = $6 AND fence = $7 FOR SHARE)",
        )
        .bind(room_id)
        .bind(event.seq)
        .bind(event.at)
        .bind(&event.kind)
        .bind(&event.data)
        .bind(&lease.node)
        .bind(lease.fence)
        .execute(connection)
        .await?;
        return if inserted.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Fenced)
        };
    }
    let mut tx = sqlx::Connection::begin(connection).await?;
    for append in appends {
        if let Some(lease) = &append.lease {
            let held: Option<i64> = sqlx::query_scalar(
                "SELECT fence FROM leases WHERE room_id = $1 AND node = $2 AND fence = $3 \
                 FOR SHARE",
            )
            .bind(&append.room_id)
            .bind(&lease.node)
            .bind(lease.fence)
            .fetch_optional(&mut *tx)
            .await?;
            if held.is_none() {
                return Err(StoreError::Fenced);
            }
        }
        if let Some(seat) = &append.seat {
            sqlx::query(
                "INSERT INTO seats (room_id, seat, token, token_hash, player) \
                 VALUES ($1, $2, '', $3, $4)",
            )
            .bind(&seat.room_id)
            .bind(&seat.seat)
            .bind(&seat.token_hash)
            .bind(&seat.player)
            .execute(&mut *tx)
            .await?;
        }
        for event in &append.events {
            insert_event(&append.room_id, event)
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

#[async_trait]
impl Writer for PoolWriter {
    /// After a failed batch the connection goes back to the pool, which
    /// closes it if it broke, and the next batch takes another.
    async fn write(&mut self, appends: &[Append]) -> Result<()> {
        let connection = match &mut self.connection {
            Some(connection) => connection,
            None => self.connection.insert(self.pool.acquire().await?),
        };
        let outcome = write_batch(connection, appends).await;
        if outcome.is_err() {
            self.connection = None;
        }
        outcome
    }
}

/// How many leases one statement of [`Store::renew_leases`] renews.
const RENEW_CHUNK: i64 = 256;

/// `store_impl!(Backend, lock, shared, renew_chunk)`: `lock` is the statement
/// (or none) run first in the transaction of [`Store::create_room_within_limit`]
/// so that two of them for one device (`$1`) never count at the same time.
/// SQLite needs none: its single writer runs a writing statement's count and
/// insert alone. `renew_chunk` renews up to `$3` of node `$1`'s leases not
/// yet renewed to `$2`.
macro_rules! store_impl {
    ($backend:ty, $device_lock:expr, $shared:expr, $renew_chunk:expr) => {
        #[async_trait]
        impl Store for $backend {
            async fn create_room_within_limit(
                &self,
                room: &RoomRecord,
                since: i64,
                limit: i64,
            ) -> Result<bool> {
                let _turn = self.write_turn().await;
                let mut tx = self.pool.begin().await?;
                let device_lock: Option<&str> = $device_lock;
                if let Some(lock) = device_lock {
                    sqlx::query(lock).bind(&room.device).execute(&mut *tx).await?;
                }
                let inserted = sqlx::query(
                    "INSERT INTO rooms (id, variant, mode, level, settings, start, device, created_at) \
                     SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE \
                     (SELECT COUNT(*) FROM rooms WHERE device = $7 AND created_at >= $9) < $10",
                )
                .bind(&room.id)
                .bind(&room.variant)
                .bind(&room.mode)
                .bind(room.level)
                .bind(&room.settings)
                .bind(&room.start)
                .bind(&room.device)
                .bind(room.created_at)
                .bind(since)
                .bind(limit)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                tx.commit().await?;
                Ok(inserted == 1)
            }

            async fn room(&self, id: &str) -> Result<RoomRecord> {
                Ok(sqlx::query_as(
                    "SELECT id, variant, mode, level, settings, start, device, created_at \
                     FROM rooms WHERE id = $1",
                )
                .bind(id)
                .fetch_one(&self.pool)
                .await?)
            }

            async fn unfinished_rooms(&self) -> Result<Vec<String>> {
                Ok(sqlx::query_scalar(
                    "SELECT id FROM rooms WHERE finished = 0 ORDER BY created_at, id",
                )
                .fetch_all(&self.pool)
                .await?)
            }

            async fn set_finished(&self, id: &str, finished: bool) -> Result<()> {
                let _turn = self.write_turn().await;
                sqlx::query("UPDATE rooms SET finished = $1 WHERE id = $2")
                    .bind(i64::from(finished))
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn seats(&self, room_id: &str) -> Result<Vec<SeatRecord>> {
                Ok(sqlx::query_as(
                    "SELECT room_id, seat, token_hash, player FROM seats WHERE room_id = $1 ORDER BY seat",
                )
                .bind(room_id)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn append_events_fenced(
                &self,
                room_id: &str,
                events: &[EventRecord],
                seat: Option<&SeatRecord>,
                lease: Option<&Lease>,
            ) -> Result<()> {
                self.appends
                    .append(Append {
                        room_id: room_id.to_owned(),
                        events: events.to_vec(),
                        seat: seat.cloned(),
                        lease: lease.cloned(),
                    })
                    .await
            }

            async fn events(&self, room_id: &str, after: i64) -> Result<Vec<EventRecord>> {
                Ok(sqlx::query_as(
                    "SELECT seq, at, kind, data FROM events WHERE room_id = $1 AND seq > $2 ORDER BY seq",
                )
                .bind(room_id)
                .bind(after)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn finish_game(&self, game: &GameRecord, ratings: &[RatingRecord]) -> Result<()> {
                let _turn = self.write_turn().await;
                let mut tx = self.pool.begin().await?;
                sqlx::query(
                    "INSERT INTO games (room_id, number, variant, rated, first_player, second_player, \
                     winner, reason, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(&game.room_id)
                .bind(game.number)
                .bind(&game.variant)
                .bind(i64::from(game.rated))
                .bind(&game.first_player)
                .bind(&game.second_player)
                .bind(&game.winner)
                .bind(&game.reason)
                .bind(game.finished_at)
                .execute(&mut *tx)
                .await?;
                for rating in ratings {
                    sqlx::query(
                        "INSERT INTO ratings (player, variant, rating, deviation, volatility, games) \
                         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (player, variant) DO UPDATE SET \
                         rating = excluded.rating, deviation = excluded.deviation, \
                         volatility = excluded.volatility, games = excluded.games",
                    )
                    .bind(&rating.player)
                    .bind(&rating.variant)
                    .bind(rating.rating)
                    .bind(rating.deviation)
                    .bind(rating.volatility)
                    .bind(rating.games)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn variant_counts(&self) -> Result<Vec<VariantCounts>> {
                Ok(sqlx::query_as(
                    "SELECT variant, \
                     COUNT(*) FILTER (WHERE winner = 'first') AS first_wins, \
                     COUNT(*) FILTER (WHERE winner = 'second') AS second_wins, \
                     COUNT(*) FILTER (WHERE winner IS NULL) AS draws \
                     FROM games GROUP BY variant ORDER BY variant",
                )
                .fetch_all(&self.pool)
                .await?)
            }

            async fn player_counts(&self, player: &str) -> Result<Vec<PlayerCounts>> {
                Ok(sqlx::query_as(
                    "SELECT variant, \
                     COUNT(*) FILTER (WHERE (winner = 'first' AND first_player = $1) \
                        OR (winner = 'second' AND second_player = $1)) AS wins, \
                     COUNT(*) FILTER (WHERE (winner = 'first' AND second_player = $1) \
                        OR (winner = 'second' AND first_player = $1)) AS losses, \
                     COUNT(*) FILTER (WHERE winner IS NULL) AS draws \
                     FROM games WHERE first_player = $1 OR second_player = $1 \
                     GROUP BY variant ORDER BY variant",
                )
                .bind(player)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn player_games(
                &self,
                player: &str,
                limit: i64,
                offset: i64,
            ) -> Result<Vec<PlayerGame>> {
                // One row per room: in a local room the player holds both
                // seats and is listed by the first.
                Ok(sqlx::query_as(
                    "SELECT r.id AS room_id, r.variant, r.mode, r.created_at, r.finished, s.seat, \
                     o.player AS opponent, p.name AS opponent_name, \
                     CASE WHEN g.room_id IS NULL THEN NULL WHEN g.winner IS NULL THEN 'draw' \
                        WHEN (g.winner = 'first' AND g.first_player = $1) \
                          OR (g.winner = 'second' AND g.second_player = $1) THEN 'win' \
                        ELSE 'loss' END AS result, \
                     g.reason \
                     FROM seats s \
                     JOIN rooms r ON r.id = s.room_id \
                     LEFT JOIN seats o ON o.room_id = s.room_id AND o.seat <> s.seat \
                     LEFT JOIN players p ON p.id = o.player \
                     LEFT JOIN games g ON g.room_id = s.room_id \
                        AND g.number = (SELECT MAX(number) FROM games WHERE room_id = s.room_id) \
                     WHERE s.player = $1 AND s.seat = \
                        (SELECT MIN(seat) FROM seats WHERE room_id = s.room_id AND player = $1) \
                     ORDER BY r.created_at DESC, r.id DESC LIMIT $2 OFFSET $3",
                )
                .bind(player)
                .bind(limit)
                .bind(offset)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn rating(&self, player: &str, variant: &str) -> Result<Option<RatingRecord>> {
                Ok(sqlx::query_as(
                    "SELECT player, variant, rating, deviation, volatility, games FROM ratings \
                     WHERE player = $1 AND variant = $2",
                )
                .bind(player)
                .bind(variant)
                .fetch_optional(&self.pool)
                .await?)
            }

            async fn create_player(&self, player: &str, secret_hash: &str, name: &str) -> Result<()> {
                let _turn = self.write_turn().await;
                sqlx::query("INSERT INTO players (id, name, secret_hash) VALUES ($1, $2, $3)")
                    .bind(player)
                    .bind(name)
                    .bind(secret_hash)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn player_secret_hash(&self, player: &str) -> Result<Option<String>> {
                Ok(sqlx::query_scalar("SELECT secret_hash FROM players WHERE id = $1")
                    .bind(player)
                    .fetch_one(&self.pool)
                    .await?)
            }

            async fn set_player_name(&self, player: &str, name: &str) -> Result<()> {
                let _turn = self.write_turn().await;
                sqlx::query(
                    "INSERT INTO players (id, name) VALUES ($1, $2) \
                     ON CONFLICT (id) DO UPDATE SET name = excluded.name",
                )
                .bind(player)
                .bind(name)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn player_name(&self, player: &str) -> Result<String> {
                Ok(sqlx::query_scalar("SELECT name FROM players WHERE id = $1")
                    .bind(player)
                    .fetch_one(&self.pool)
                    .await?)
            }

            async fn save_analysis(&self, analysis: &AnalysisRecord) -> Result<()> {
                let _turn = self.write_turn().await;
                sqlx::query(
                    "INSERT INTO analyses (room_id, game, plies, created_at) VALUES ($1, $2, $3, $4)",
                )
                .bind(&analysis.room_id)
                .bind(analysis.game)
                .bind(&analysis.plies)
                .bind(analysis.created_at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn analysis(&self, room_id: &str, game: i64) -> Result<Option<AnalysisRecord>> {
                Ok(sqlx::query_as(
                    "SELECT room_id, game, plies, created_at FROM analyses \
                     WHERE room_id = $1 AND game = $2",
                )
                .bind(room_id)
                .bind(game)
                .fetch_optional(&self.pool)
                .await?)
            }

            fn shared(&self) -> bool {
                $shared
            }

            async fn heartbeat(&self, node: &NodeRecord) -> Result<()> {
                let _turn = self.write_turn().await;
                sqlx::query(
                    "INSERT INTO nodes (id, url, heartbeat, lobby) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (id) DO UPDATE SET url = excluded.url, \
                     heartbeat = excluded.heartbeat, lobby = excluded.lobby",
                )
                .bind(&node.id)
                .bind(&node.url)
                .bind(node.heartbeat)
                .bind(&node.lobby)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn remove_node(&self, id: &str) -> Result<()> {
                let _turn = self.write_turn().await;
                sqlx::query("DELETE FROM nodes WHERE id = $1")
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn nodes(&self, since: i64) -> Result<Vec<NodeRecord>> {
                Ok(sqlx::query_as(
                    "SELECT id, url, heartbeat, lobby FROM nodes WHERE heartbeat >= $1 ORDER BY id",
                )
                .bind(since)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn acquire_lease(
                &self,
                room_id: &str,
                node: &str,
                now: i64,
                expires_at: i64,
            ) -> Result<Option<Lease>> {
                let _turn = self.write_turn().await;
                // The upsert locks the row: of two nodes asking at once, the
                // second sees the first's lease and gets nothing.
                Ok(sqlx::query_as(
                    "INSERT INTO leases (room_id, node, fence, expires_at) VALUES ($1, $2, 1, $4) \
                     ON CONFLICT (room_id) DO UPDATE SET \
                     fence = CASE WHEN leases.node = excluded.node THEN leases.fence \
                        ELSE leases.fence + 1 END, \
                     node = excluded.node, expires_at = excluded.expires_at \
                     WHERE leases.node = excluded.node OR leases.expires_at <= $3 \
                     RETURNING room_id, node, fence, expires_at",
                )
                .bind(room_id)
                .bind(node)
                .bind(now)
                .bind(expires_at)
                .fetch_optional(&self.pool)
                .await?)
            }

            async fn renew_leases(&self, node: &str, expires_at: i64) -> Result<Vec<Lease>> {
                let _turn = self.write_turn().await;
                // A chunk at a time, each its own transaction, so that no row
                // stays locked for long while appends wait for it.
                loop {
                    let renewed = sqlx::query($renew_chunk)
                        .bind(node)
                        .bind(expires_at)
                        .bind(RENEW_CHUNK)
                        .execute(&self.pool)
                        .await?
                        .rows_affected();
                    if renewed < RENEW_CHUNK as u64 {
                        break;
                    }
                }
                Ok(sqlx::query_as(
                    "SELECT room_id, node, fence, expires_at FROM leases \
                     WHERE node = $1 AND expires_at > 0",
                )
                .bind(node)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn release_lease(&self, lease: &Lease) -> Result<()> {
                let _turn = self.write_turn().await;
                // The row stays, so the next holder's fence is higher.
                sqlx::query(
                    "UPDATE leases SET expires_at = 0 \
                     WHERE room_id = $1 AND node = $2 AND fence = $3",
                )
                .bind(&lease.room_id)
                .bind(&lease.node)
                .bind(lease.fence)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn owner(&self, room_id: &str) -> Result<Option<Owner>> {
                Ok(sqlx::query_as(
                    "SELECT l.node, COALESCE(n.url, '') AS url, l.fence, l.expires_at \
                     FROM leases l LEFT JOIN nodes n ON n.id = l.node WHERE l.room_id = $1",
                )
                .bind(room_id)
                .fetch_optional(&self.pool)
                .await?)
            }

            async fn orphaned_rooms(&self, now: i64, limit: i64) -> Result<Vec<String>> {
                // A room without a lease is left a minute to its creator,
                // which takes the lease as it starts the room. Lapsed leases
                // come first (a node just died), in random order, so nodes
                // looking at once take different rooms and a room that
                // cannot be loaded does not hide the others.
                Ok(sqlx::query_scalar(
                    "SELECT r.id FROM rooms r LEFT JOIN leases l ON l.room_id = r.id \
                     WHERE r.finished = 0 AND (l.expires_at <= $1 \
                        OR (l.room_id IS NULL AND r.created_at < $1 - 60000)) \
                     ORDER BY l.room_id IS NULL, random() LIMIT $2",
                )
                .bind(now)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?)
            }
        }
    };
}

store_impl!(
    SqliteStore,
    None,
    false,
    "UPDATE leases SET expires_at = $2 WHERE room_id IN ( \
        SELECT room_id FROM leases WHERE node = $1 AND expires_at > 0 AND expires_at <> $2 \
        LIMIT $3)"
);
// A transaction-scoped lock per device: the next creation for the device waits
// until this one commits, then counts it.
store_impl!(
    PostgresStore,
    Some("SELECT pg_advisory_xact_lock(hashtext($1))"),
    true,
    // A fenced append holds its lease's row FOR SHARE until it commits. One
    // UPDATE of all the node's rows would wait for every append under way,
    // hold up every append after it, and deadlock with a batch that holds
    // two of its rows in another order (PostgreSQL notices that only after
    // `deadlock_timeout`, a second). So the rows a write holds are skipped,
    // and renewed at the next round: a lease outlasts three rounds.
    "UPDATE leases SET expires_at = $2 WHERE room_id IN ( \
        SELECT room_id FROM leases WHERE node = $1 AND expires_at > 0 AND expires_at <> $2 \
        LIMIT $3 FOR UPDATE SKIP LOCKED)"
);

#[cfg(test)]
mod tests {
    use super::*;

    /// The pool's writes and the writer's batches wait for the turn the other
    /// holds (so SQLite never finds its write lock taken), and go on once it
    /// is free.
    #[tokio::test]
    async fn sqlite_writes_take_turns() {
        let dir = tempfile::TempDir::new().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("koma.sqlite").display());
        let store = Arc::new(SqliteStore::open(&url).await.expect("the store opens"));
        let room = RoomRecord {
            id: "r1".to_owned(),
            variant: "shogi".to_owned(),
            mode: "online".to_owned(),
            level: 1,
            settings: "{}".to_owned(),
            start: "startpos".to_owned(),
            device: "d".to_owned(),
            created_at: 0,
        };
        assert!(store.create_room_within_limit(&room, 0, 10).await.unwrap());
        let held = store.turn.lock().await;
        let pool_write = tokio::spawn({
            let store = Arc::clone(&store);
            async move { store.create_player("p1", "hash", "Ann").await }
        });
        let append = tokio::spawn({
            let store = Arc::clone(&store);
            async move {
                let event = EventRecord {
                    seq: 1,
                    at: 0,
                    kind: "chat".to_owned(),
                    data: "{}".to_owned(),
                };
                store.append_events("r1", &[event], None).await
            }
        });
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!pool_write.is_finished(), "the pool wrote out of turn");
        assert!(!append.is_finished(), "the writer wrote out of turn");
        // Reading needs no turn.
        assert!(store.events("r1", 0).await.unwrap().is_empty());
        drop(held);
        pool_write.await.unwrap().unwrap();
        append.await.unwrap().unwrap();
        assert_eq!(store.player_name("p1").await.unwrap(), "Ann");
        assert_eq!(store.events("r1", 0).await.unwrap().len(), 1);
    }
}
