//! The accept loop: each client connection served by hyper's HTTP/1.1
//! connection, under the limits `axum::serve` does not have — a connection
//! whose request head is not complete within `header_read_timeout` is closed,
//! and so is one idle (no request, no bytes either way) for `idle_timeout`; an
//! address holds at most `max_connections_per_ip` connections (WebSockets
//! included), and one more is closed at once; the cluster's other nodes are
//! not limited ([`NodeAddresses`]).
//!
//! A connection's bytes go through [`Watched`], which notes when it last read
//! or wrote and holds the address's [`Slot`]: an upgraded WebSocket keeps both,
//! so it counts against its address until it closes.

use std::collections::{HashMap, HashSet};
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;
use tower::ServiceExt;

use crate::Config;

/// How many connections the kernel queues before they are accepted (the
/// kernel caps it at `net.core.somaxconn`). Tokio's `TcpListener::bind` asks
/// for 128, as the standard library does: a burst of more connections than
/// that (every page reconnecting after a restart, a busy moment on a loaded
/// machine) overflows the queue, the kernel drops the surplus SYNs and the
/// clients send them again only after 1, 3, 7 ... seconds.
const LISTEN_BACKLOG: u32 = 4096;

/// A listener on `addr` with a queue for bursts of connections ([`LISTEN_BACKLOG`]).
///
/// # Errors
/// The address cannot be bound (in use, not local, no permission). Call it
/// inside a tokio runtime, which the listener registers with.
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server may bind at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// The connection limits, from [`Config`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    header_read_timeout: Duration,
    idle_timeout: Duration,
    max_connections_per_ip: usize,
}

impl Limits {
    pub(crate) fn new(config: &Config) -> Limits {
        Limits {
            header_read_timeout: config.header_read_timeout,
            idle_timeout: config.idle_connection_timeout,
            max_connections_per_ip: config.max_connections_per_ip,
        }
    }
}

/// A count of live things (connections, sockets) that shutdown waits for.
#[derive(Clone, Debug)]
pub(crate) struct Live(Arc<watch::Sender<usize>>);

impl Default for Live {
    fn default() -> Live {
        Live(Arc::new(watch::Sender::new(0)))
    }
}

impl Live {
    /// Counts one more until the guard drops.
    pub(crate) fn enter(&self) -> LiveGuard {
        self.0.send_modify(|count| *count += 1);
        LiveGuard(self.0.clone())
    }

    /// Waits until none is left.
    pub(crate) async fn none_left(&self) {
        let _ = self.0.subscribe().wait_for(|count| *count == 0).await;
    }
}

/// One of the things a [`Live`] counts.
#[derive(Debug)]
pub(crate) struct LiveGuard(Arc<watch::Sender<usize>>);

impl Drop for LiveGuard {
    fn drop(&mut self) {
        self.0.send_modify(|count| *count -= 1);
    }
}

/// The addresses of the cluster's other nodes, whose connections the
/// per-address limit does not count: each carries one client's request or
/// socket, which the node the client reached has counted already. Counted
/// here, a few hundred sockets forwarded by one node would shut it out.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeAddresses(Arc<RwLock<HashSet<IpAddr>>>);

impl NodeAddresses {
    /// The nodes' addresses from now on.
    pub(crate) fn set(&self, addresses: HashSet<IpAddr>) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = addresses;
    }

    fn contains(&self, ip: IpAddr) -> bool {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(&ip)
    }
}

/// The open connections of each address.
#[derive(Debug, Default)]
struct Slots(Mutex<HashMap<IpAddr, usize>>);

impl Slots {
    /// A slot for one more connection from `ip`, unless it holds `max` already.
    fn take(self: &Arc<Slots>, ip: IpAddr, max: usize) -> Option<Slot> {
        let mut open = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(ip).or_default();
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(Slot {
            slots: self.clone(),
            ip,
        })
    }
}

/// One connection's place in its address's count, given back on drop.
#[derive(Debug)]
struct Slot {
    slots: Arc<Slots>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.slots.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// What a connection is doing, for its deadlines.
#[derive(Debug)]
struct Activity {
    /// Requests whose response has not been produced yet.
    in_flight: usize,
    /// The last byte read or written, or request begun or answered.
    last: Instant,
    /// When the first byte of a request head not yet complete arrived.
    head_since: Option<Instant>,
}

impl Activity {
    /// When the connection is closed if nothing happens; none while a request
    /// is being handled (the handlers' own timeout bounds that).
    fn deadline(&self, limits: Limits) -> Option<Instant> {
        if self.in_flight > 0 {
            return None;
        }
        let idle = self.last + limits.idle_timeout;
        Some(match self.head_since {
            Some(since) => idle.min(since + limits.header_read_timeout),
            None => idle,
        })
    }
}

type SharedActivity = Arc<Mutex<Activity>>;

fn note(activity: &SharedActivity, change: impl FnOnce(&mut Activity)) {
    change(&mut activity.lock().unwrap_or_else(PoisonError::into_inner));
}

/// A client's TCP stream that notes its reads and writes.
#[derive(Debug)]
struct Watched {
    stream: TcpStream,
    activity: SharedActivity,
    /// None for a node of the cluster.
    _slot: Option<Slot>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            note(&self.activity, |activity| {
                let now = Instant::now();
                activity.last = now;
                if activity.in_flight == 0 && activity.head_since.is_none() {
                    activity.head_since = Some(now);
                }
            });
        }
        poll
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        if matches!(poll, Poll::Ready(Ok(written)) if written > 0) {
            note(&self.activity, |activity| activity.last = Instant::now());
        }
        poll
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// A request being handled, until its response's body is sent (a followed
/// event stream stays in flight while it is quiet); its end counts as activity.
struct InFlight(SharedActivity);

impl InFlight {
    fn begin(activity: &SharedActivity) -> InFlight {
        note(activity, |activity| {
            activity.in_flight += 1;
            activity.head_since = None;
            activity.last = Instant::now();
        });
        InFlight(activity.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        note(&self.0, |activity| {
            activity.in_flight -= 1;
            activity.last = Instant::now();
        });
    }
}

/// A response body that keeps its request in flight until it ends.
struct Answering {
    body: Body,
    _in_flight: InFlight,
}

impl http_body::Body for Answering {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// Accepts connections until `shutdown` turns `true`, then waits until every
/// connection has finished (hyper closes idle ones and ends the others after
/// their response).
pub(crate) async fn accept(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    nodes: NodeAddresses,
    shutdown: watch::Receiver<bool>,
) {
    let slots = Arc::new(Slots::default());
    let connections = Live::default();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of descriptors (or a like failure): wait rather than spin.
                    tracing::warn!(%err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = crate::stopped(shutdown.clone()) => break,
        };
        let slot = if nodes.contains(peer.ip()) {
            None
        } else if let Some(slot) = slots.take(peer.ip(), limits.max_connections_per_ip) {
            Some(slot)
        } else {
            tracing::debug!(ip = %peer.ip(), "connection refused: too many from this address");
            continue;
        };
        let guard = connections.enter();
        tokio::spawn(serve_connection(
            stream,
            peer,
            slot,
            app.clone(),
            limits,
            shutdown.clone(),
            guard,
        ));
    }
    drop(listener);
    connections.none_left().await;
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    slot: Option<Slot>,
    app: Router,
    limits: Limits,
    shutdown: watch::Receiver<bool>,
    _live: LiveGuard,
) {
    let activity = Arc::new(Mutex::new(Activity {
        in_flight: 0,
        last: Instant::now(),
        head_since: None,
    }));
    let io = TokioIo::new(Watched {
        stream,
        activity: activity.clone(),
        _slot: slot,
    });
    let requests = activity.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let in_flight = InFlight::begin(&requests);
        request.extensions_mut().insert(ConnectInfo(peer));
        let response = app.clone().oneshot(request);
        async move {
            let response = response.await;
            response.map(|response| {
                response.map(|body| Answering {
                    body,
                    _in_flight: in_flight,
                })
            })
        }
    });
    let connection = http1::Builder::new()
        .serve_connection(io, service)
        .with_upgrades();
    tokio::pin!(connection);
    let stopped = crate::stopped(shutdown);
    tokio::pin!(stopped);
    let mut stopping = false;
    let deadline_now = || {
        activity
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .deadline(limits)
    };
    let idle = tokio::time::sleep_until(
        deadline_now().unwrap_or_else(|| Instant::now() + limits.idle_timeout),
    );
    tokio::pin!(idle);
    // Every read, write, request and response of the connection happens
    // while this task polls it (until an upgrade, which ends the future), so
    // its deadline is looked at after each poll and the timer follows it: the
    // task never wakes only to find nothing due.
    std::future::poll_fn(|cx| {
        if let Poll::Ready(result) = connection.as_mut().poll(cx) {
            if let Err(err) = result {
                tracing::debug!(%err, "connection ended with an error");
            }
            return Poll::Ready(());
        }
        if !stopping && stopped.as_mut().poll(cx).is_ready() {
            stopping = true;
            connection.as_mut().graceful_shutdown();
            // The connection acts on the shutdown when polled again.
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        // None while a request is handled: the handlers' own timeout bounds it.
        let Some(deadline) = deadline_now() else {
            return Poll::Pending;
        };
        if idle.deadline() != deadline {
            idle.as_mut().reset(deadline);
        }
        if idle.as_mut().poll(cx).is_ready() {
            tracing::debug!(%peer, "connection closed: idle or slow request head");
            return Poll::Ready(());
        }
        Poll::Pending
    })
    .await;
}
