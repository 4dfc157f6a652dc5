//! Group commit: the appends of many rooms share one transaction.
//!
//! Every [`Store::append_events`](crate::Store::append_events) call becomes an
//! [`Append`] on one queue, and one task writes them: it takes every append
//! waiting on the queue (up to [`MAX_BATCH`]), writes them in one transaction,
//! and answers each caller only after that transaction commits. While it
//! writes, the next appends gather behind it, so the more appends arrive, the
//! more share a commit: one commit (and one fsync where the database syncs)
//! serves a whole batch, and appends never wait on each other for the
//! database's write lock.
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

/// What a backend does for the writer: store appends in one transaction.
#[async_trait]
pub(crate) trait Writer: Send + 'static {
    /// Stores every one of `appends` in one transaction, in order, or none.
    async fn write(&mut self, appends: &[Append]) -> Result<()>;
}

/// The queue to a store's writer task.
#[derive(Clone, Debug)]
pub(crate) struct GroupCommit {
    queue: mpsc::Sender<(Append, oneshot::Sender<Result<()>>)>,
}

impl GroupCommit {
    /// Starts the writer task; it stops once every clone of the queue is dropped.
    pub(crate) fn start(writer: impl Writer) -> GroupCommit {
        let (queue, waiting) = mpsc::channel(QUEUE);
        tokio::spawn(write_batches(writer, waiting));
        GroupCommit { queue }
    }

    /// Stores `append` in the next transaction; returns once it committed.
    ///
    /// # Errors
    /// The append's own failure (a conflict, the database); [`StoreError::Closed`]
    /// when the writer task is gone (its runtime shut down).
    pub(crate) async fn append(&self, append: Append) -> Result<()> {
        let (done, outcome) = oneshot::channel();
        self.queue
            .send((append, done))
            .await
            .map_err(|_| StoreError::Closed)?;
        outcome.await.map_err(|_| StoreError::Closed)?
    }
}

/// The writer task: one transaction per batch of waiting appends.
async fn write_batches(
    mut writer: impl Writer,
    mut waiting: mpsc::Receiver<(Append, oneshot::Sender<Result<()>>)>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while waiting.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let (appends, callers): (Vec<Append>, Vec<_>) = batch.drain(..).unzip();
        match writer.write(&appends).await {
            Ok(()) => {
                for caller in callers {
                    // A caller that stopped waiting no longer needs the answer.
                    let _ = caller.send(Ok(()));
                }
            }
            Err(err) if callers.len() == 1 => {
                if let Some(caller) = callers.into_iter().next() {
                    let _ = caller.send(Err(err));
                }
            }
            Err(_) => {
                for (append, caller) in appends.iter().zip(callers) {
                    let outcome = writer.write(std::slice::from_ref(append)).await;
                    let _ = caller.send(outcome);
                }
            }
        }
    }
}
