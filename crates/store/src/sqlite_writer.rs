//! SQLite's group-commit writer: its own connection, called directly.
//!
//! The rest of the SQLite store goes through sqlx, whose SQLite driver runs
//! each connection on a worker thread and passes every statement to it as a
//! message and its answer back. For the appends, the hot path of every move,
//! the writer thread ([`GroupCommit::start_thread`](crate::group_commit::GroupCommit::start_thread))
//! holds a connection of its own (rusqlite, on the same libsqlite3 as sqlx)
//! and runs the statements itself, with their prepared forms kept between
//! batches. Both connections see one WAL-mode file; SQLite's write lock
//! orders this writer's transactions with the pool's few other writes
//! (rooms, finished games, players). They take turns for it
//! ([`WriteTurn`]) before they ask SQLite, so that neither polls for the
//! lock while the other holds it; the busy timeout stays for another
//! process's connection (a backup, the `sqlite3` shell).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior, params};

use crate::backend::WriteTurn;
use crate::group_commit::{Append, BlockingWriter, lone_event};
use crate::{EventRecord, Result, StoreError};

const INSERT_EVENT: &str =
    "INSERT INTO events (room_id, seq, at, kind, data) VALUES (?1, ?2, ?3, ?4, ?5)";

/// Inserts the event only while node `?6` holds the room's lease with fence
/// `?7`. SQLite has one writer at a time, so the lease cannot change between
/// the check and the insert.
const INSERT_FENCED_EVENT: &str = "INSERT INTO events (room_id, seq, at, kind, data) \
     SELECT ?1, ?2, ?3, ?4, ?5 \
     WHERE EXISTS (SELECT 1 FROM leases WHERE room_id = ?1 AND node = ?6 AND fence = ?7)";

const LEASE_HELD: &str = "SELECT 1 FROM leases WHERE room_id = ?1 AND node = ?2 AND fence = ?3";

const INSERT_SEAT: &str = "INSERT INTO seats (room_id, seat, token, token_hash, player) \
     VALUES (?1, ?2, '', ?3, ?4)";

/// The writer's connection.
pub(crate) struct SqliteWriter {
    connection: Connection,
    /// Taken for each write, in turn with the pool's writes.
    turn: Arc<WriteTurn>,
}

impl SqliteWriter {
    /// Opens the database file at `path`, which the pool has created and
    /// migrated (and put in WAL mode, a property of the file), with the
    /// settings the pool's connections have: every commit synced
    /// (`synchronous=FULL`, so an acknowledged event survives a power cut),
    /// foreign keys checked, five seconds' wait for the write lock. It
    /// writes in `turn` with the pool's writes.
    pub(crate) fn open(path: &Path, turn: Arc<WriteTurn>) -> Result<SqliteWriter> {
        let connection = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        connection.busy_timeout(Duration::from_secs(5))?;
        connection.pragma_update(None, "synchronous", "FULL")?;
        connection.pragma_update(None, "foreign_keys", true)?;
        Ok(SqliteWriter { connection, turn })
    }
}

/// Stores one of `room_id`'s events.
fn insert_event(connection: &Connection, room_id: &str, event: &EventRecord) -> Result<()> {
    connection.prepare_cached(INSERT_EVENT)?.execute(params![
        room_id, event.seq, event.at, event.kind, event.data
    ])?;
    Ok(())
}

impl BlockingWriter for SqliteWriter {
    fn write(&mut self, appends: &[Append]) -> Result<()> {
        let _turn = self.turn.blocking_lock();
        if let Some((room_id, event, lease)) = lone_event(appends) {
            let Some(lease) = lease else {
                return insert_event(&self.connection, room_id, event);
            };
            let inserted = self
                .connection
                .prepare_cached(INSERT_FENCED_EVENT)?
                .execute(params![
                    room_id,
                    event.seq,
                    event.at,
                    event.kind,
                    event.data,
                    lease.node,
                    lease.fence
                ])?;
            return if inserted == 1 {
                Ok(())
            } else {
                Err(StoreError::Fenced)
            };
        }
        // IMMEDIATE takes the write lock at BEGIN: a transaction that began
        // by reading (the fence check) could not take it later if the pool
        // wrote meanwhile, and would fail without waiting.
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        for append in appends {
            if let Some(lease) = &append.lease {
                let held = tx.prepare_cached(LEASE_HELD)?.exists(params![
                    append.room_id,
                    lease.node,
                    lease.fence
                ])?;
                if !held {
                    return Err(StoreError::Fenced);
                }
            }
            if let Some(seat) = &append.seat {
                tx.prepare_cached(INSERT_SEAT)?.execute(params![
                    seat.room_id,
                    seat.seat,
                    seat.token_hash,
                    seat.player
                ])?;
            }
            for event in &append.events {
                insert_event(&tx, &append.room_id, event)?;
            }
        }
        // A transaction dropped before this (an error above) rolls back.
        tx.commit()?;
        Ok(())
    }
}
