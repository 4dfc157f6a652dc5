//! Group commit: the appends of many rooms share one transaction.
//!
//! Every [`Store::append_events`](crate::Store::append_events) call becomes an
//! [`Append`] on one queue, and one writer takes them: it takes every append
//! waiting on the queue (up to [`MAX_BATCH`]), writes them in one transaction,
//! and answers each caller only after that transaction commits. While it
//! writes, the next appends gather behind it, so the more appends arrive, the
//! more share a commit: one commit (and one fsync where the database syncs)
//! serves a whole batch, and appends never wait on each other for the
//! database's write lock.
//!
//! The writer is a task for PostgreSQL, whose driver is asynchronous, and a
//! thread of its own for SQLite ([`GroupCommit::start_thread`]), which calls
//! SQLite directly: a move then passes one thread each way, where through
//! sqlx's SQLite driver it passed the writer task, then sqlx's worker thread
//! and back.
//!
//! A batch is all or nothing. When it fails (one append's seat is taken, its
//! event number used, or its lease lost to another node), each of its appends is written again alone, so
//! every caller gets the outcome of its own append and one bad append never
//! fails the others.

use async_trait::async_trait;
use tokio::sync::{mpsc, oneshot};

use crate::{EventRecord, Lease, Result, SeatRecord, StoreError};

/// The most appends written in one transaction.
const MAX_BATCH: usize = 256;

/// How many appends may wait for the writer before callers wait to queue.
const QUEUE: usize = 4096;

/// One caller's events (and the seat they give), to be stored together.
#[derive(Debug)]
pub(crate) struct Append {
    pub(crate) room_id: String,
    pub(crate) events: Vec<EventRecord>,
    pub(crate) seat: Option<SeatRecord>,
    /// The lease the appender must still hold, when rooms have leases.
    pub(crate) lease: Option<Lease>,
}

/// The batch's one event when it is a lone event without a seat: a writer
/// stores it in one statement, atomic and durable by itself, instead of a
/// transaction. Its room and the lease it needs come with it.
pub(crate) fn lone_event(appends: &[Append]) -> Option<(&str, &EventRecord, Option<&Lease>)> {
    match appends {
        [
            Append {
                room_id,
                events,
                seat: None,
                lease,
            },
        ] => match events.as_slice() {
            [event] => Some((room_id, event, lease.as_ref())),
            _ => None,
        },
        _ => None,
    }
}

/// What an asynchronous backend does for the writer task: store appends in
/// one transaction.
#[async_trait]
pub(crate) trait Writer: Send + 'static {
    /// Stores every one of `appends` in one transaction, in order, or none.
    async fn write(&mut self, appends: &[Append]) -> Result<()>;
}

/// [`Writer`] for a backend called on a thread of its own, which may block.
pub(crate) trait BlockingWriter: Send + 'static {
    /// Stores every one of `appends` in one transaction, in order, or none.
    fn write(&mut self, appends: &[Append]) -> Result<()>;
}

/// An append and where its outcome goes.
type Waiting = (Append, oneshot::Sender<Result<()>>);

/// The queue to a store's writer.
#[derive(Clone, Debug)]
pub(crate) struct GroupCommit {
    queue: mpsc::Sender<Waiting>,
}

impl GroupCommit {
    /// Starts the writer task; it stops once every clone of the queue is dropped.
    pub(crate) fn start(writer: impl Writer) -> GroupCommit {
        let (queue, waiting) = mpsc::channel(QUEUE);
        tokio::spawn(write_batches(writer, waiting));
        GroupCommit { queue }
    }

    /// Starts the writer on a thread of its own, named `name`; it stops once
    /// every clone of the queue is dropped.
    ///
    /// # Errors
    /// The thread could not be started.
    pub(crate) fn start_thread(
        name: &str,
        writer: impl BlockingWriter,
    ) -> std::io::Result<GroupCommit> {
        let (queue, waiting) = mpsc::channel(QUEUE);
        std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || write_batches_blocking(writer, waiting))?;
        Ok(GroupCommit { queue })
    }

    /// Stores `append` in the next transaction; returns once it committed.
    ///
    /// # Errors
    /// The append's own failure (a conflict, the database); [`StoreError::Closed`]
    /// when the writer is gone (its runtime shut down).
    pub(crate) async fn append(&self, append: Append) -> Result<()> {
        let (done, outcome) = oneshot::channel();
        self.queue
            .send((append, done))
            .await
            .map_err(|_| StoreError::Closed)?;
        outcome.await.map_err(|_| StoreError::Closed)?
    }
}

/// Answers the callers of a batch written with `outcome`, and returns the
/// appends to write again one at a time: those of a failed batch of several.
fn settle(
    outcome: Result<()>,
    appends: Vec<Append>,
    callers: Vec<oneshot::Sender<Result<()>>>,
) -> Vec<Waiting> {
    match outcome {
        Ok(()) => {
            for caller in callers {
                // A caller that stopped waiting no longer needs the answer.
                let _ = caller.send(Ok(()));
            }
            Vec::new()
        }
        Err(err) if callers.len() == 1 => {
            if let Some(caller) = callers.into_iter().next() {
                let _ = caller.send(Err(err));
            }
            Vec::new()
        }
        Err(_) => appends.into_iter().zip(callers).collect(),
    }
}

/// The writer task: one transaction per batch of waiting appends.
async fn write_batches(mut writer: impl Writer, mut waiting: mpsc::Receiver<Waiting>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while waiting.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let (appends, callers): (Vec<Append>, Vec<_>) = batch.drain(..).unzip();
        let outcome = writer.write(&appends).await;
        for (append, caller) in settle(outcome, appends, callers) {
            let outcome = writer.write(std::slice::from_ref(&append)).await;
            let _ = caller.send(outcome);
        }
    }
}

/// The writer thread: the same as [`write_batches`], blocking.
fn write_batches_blocking(mut writer: impl BlockingWriter, mut waiting: mpsc::Receiver<Waiting>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while let Some(first) = waiting.blocking_recv() {
        batch.push(first);
        while batch.len() < MAX_BATCH
            && let Ok(next) = waiting.try_recv()
        {
            batch.push(next);
        }
        let (appends, callers): (Vec<Append>, Vec<_>) = batch.drain(..).unzip();
        let outcome = writer.write(&appends);
        for (append, caller) in settle(outcome, appends, callers) {
            let outcome = writer.write(std::slice::from_ref(&append));
            let _ = caller.send(outcome);
        }
    }
}
