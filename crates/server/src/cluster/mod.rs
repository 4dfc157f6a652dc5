//! A cluster: several `koma serve` nodes on one PostgreSQL database, the only
//! thing they share.
//!
//! Each room is played by one node at a time, its owner, which holds the
//! room's lease in the database ([`store::Lease`]) and renews it every few
//! seconds; every append of the room's events is fenced by that lease, so a
//! node that lost the room stores nothing. A request for a room reaches its
//! owner whichever node it arrives at ([`forward`]). The [`Node`]'s loop keeps
//! the node alive in the database, renews its leases, lets go of the rooms
//! it lost, and takes over the rooms whose owner stopped renewing (a crash)
//! or let go (a graceful shutdown).

pub(crate) mod forward;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use sha2::{Digest, Sha256};
use store::{Lease, NodeRecord, Store};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::connections::NodeAddresses;
use crate::error::ApiError;
use crate::ids;
use crate::room::now_ms;
use crate::rooms::Rooms;

/// How long a lease lasts unless renewed: a crashed node's rooms are taken
/// over this long after its last renewal (plus one [`TAKEOVER_POLL`]).
const LEASE_MS: i64 = 10_000;

/// How often a node renews its leases: three renewals
/// fit in a lease, so one slow round trip to the database loses nothing.
const RENEW_EVERY: Duration = Duration::from_secs(3);

/// How often a node says it is alive (with its lobby) and looks for rooms
/// nobody plays.
const TAKEOVER_POLL: Duration = Duration::from_secs(1);

/// The most rooms one look takes over, so that the rooms of a crashed node
/// spread over the nodes that look next.
const TAKEOVER_BATCH: i64 = 32;

/// How long a node forwards a room's requests to the owner it last found
/// without asking the database again.
const OWNER_CACHE: Duration = Duration::from_secs(1);

/// The most owners a node remembers: past it, the stale ones are forgotten.
const OWNER_CACHE_ROOMS: usize = 4096;

/// This process as a node of the cluster.
#[derive(Clone)]
pub struct Node {
    inner: Arc<Inner>,
}

struct Inner {
    id: String,
    url: String,
    store: Arc<dyn Store>,
    /// The nodes alive at the last heartbeat, by id, with their URLs: a
    /// request forwarded with one of the ids comes from a node, not from a client.
    peers: Mutex<HashMap<String, String>>,
    /// Turns `true` once the node let go of its rooms at shutdown.
    left: watch::Sender<bool>,
    /// The owners of rooms played elsewhere, as last found: their URL and when.
    owners: Mutex<HashMap<String, (String, Instant)>>,
    /// Connections to the other nodes, for forwarding.
    pool: forward::Pool,
    /// The other nodes' addresses, which the per-address limits do not count.
    addresses: NodeAddresses,
    /// The other nodes' URLs that `addresses` was last resolved from.
    resolved: Mutex<Vec<String>>,
}

/// The length of a node's [`Node::tag`], in hex digits.
const TAG_DIGITS: usize = 8;

/// A node's public name, derived from its secret id (which it never gives
/// away) so that every node that knows the id knows the name.
fn tag_of(node_id: &str) -> String {
    let digest = Sha256::digest(node_id.as_bytes());
    digest[..TAG_DIGITS / 2]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

impl std::fmt::Debug for Node {
    // The id is the node's credential towards its peers: never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Node {{ url: {:?} }}", self.inner.url)
    }
}

impl Node {
    /// Registers a new node reached by the others at `url` (empty: they
    /// cannot forward to it, so it serves only the rooms it owns).
    ///
    /// # Errors
    /// The database fails.
    pub async fn join(store: Arc<dyn Store>, url: Option<String>) -> Result<Node, ApiError> {
        let url = url.unwrap_or_default().trim_end_matches('/').to_owned();
        let node = Node {
            inner: Arc::new(Inner {
                id: ids::secret(),
                pool: forward::pool(&url),
                url,
                store,
                peers: Mutex::default(),
                left: watch::channel(false).0,
                owners: Mutex::default(),
                addresses: NodeAddresses::default(),
                resolved: Mutex::default(),
            }),
        };
        node.heartbeat(String::new()).await?;
        Ok(node)
    }

    /// The node's id: unguessable, new at each start.
    pub(crate) fn id(&self) -> &str {
        &self.inner.id
    }

    /// The pool of connections to the other nodes.
    pub(crate) fn pool(&self) -> &forward::Pool {
        &self.inner.pool
    }

    /// The other nodes' addresses, kept up to date at each heartbeat.
    pub(crate) fn addresses(&self) -> &NodeAddresses {
        &self.inner.addresses
    }

    /// Takes the lease of a room to play it here.
    ///
    /// # Errors
    /// [`ApiError::Elsewhere`] with the owner's URL when another node plays
    /// the room; [`ApiError::RoomMoving`] when its owner cannot be reached
    /// (no URL) or just lost it; database failures.
    pub(crate) async fn acquire(&self, room_id: &str) -> Result<Lease, ApiError> {
        let store = &self.inner.store;
        let now = now_ms();
        if let Some(lease) = store
            .acquire_lease(room_id, self.id(), now, now + LEASE_MS)
            .await?
        {
            return Ok(lease);
        }
        match store.owner(room_id).await? {
            Some(owner) if owner.node != self.id() && !owner.url.is_empty() => {
                Err(ApiError::Elsewhere(owner.url))
            }
            _ => Err(ApiError::RoomMoving),
        }
    }

    /// The URL of the node that played the room a moment ago, if another.
    pub(crate) fn recent_owner(&self, room_id: &str) -> Option<String> {
        let owners = self
            .inner
            .owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        owners
            .get(room_id)
            .filter(|(_, at)| at.elapsed() < OWNER_CACHE)
            .map(|(url, _)| url.clone())
    }

    /// Remembers (`Some`) or forgets (`None`) the URL of a room's owner.
    pub(crate) fn note_owner(&self, room_id: &str, url: Option<&str>) {
        let mut owners = self
            .inner
            .owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let Some(url) = url else {
            owners.remove(room_id);
            return;
        };
        if owners.len() >= OWNER_CACHE_ROOMS {
            owners.retain(|_, (_, at)| at.elapsed() < OWNER_CACHE);
            if owners.len() >= OWNER_CACHE_ROOMS {
                owners.clear();
            }
        }
        owners.insert(room_id.to_owned(), (url.to_owned(), Instant::now()));
    }

    /// Lets go of a room's lease (its task stopped here).
    pub(crate) async fn release(&self, lease: &Lease) {
        if let Err(err) = self.inner.store.release_lease(lease).await {
            tracing::warn!(room = %lease.room_id, %err, "lease not released: it lapses by itself");
        }
    }

    /// Whether `id` is a live node of the cluster (this one included).
    pub(crate) fn is_peer(&self, id: &str) -> bool {
        ids::same_secret(id, self.id())
            || self
                .inner
                .peers
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .keys()
                .any(|peer| ids::same_secret(peer, id))
    }

    /// The node's public name: the start of every analysis id it gives, so
    /// that any node passes a request for the analysis on to it.
    pub(crate) fn tag(&self) -> String {
        tag_of(self.id())
    }

    /// The URL of the other live node whose [`tag`](Self::tag) starts `analysis_id`.
    pub(crate) fn url_of_tag(&self, analysis_id: &str) -> Option<String> {
        let peers = self
            .inner
            .peers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        peers
            .iter()
            .filter(|(id, url)| *id != self.id() && !url.is_empty())
            .find(|(id, _)| analysis_id.starts_with(&tag_of(id)))
            .map(|(_, url)| url.clone())
    }

    /// Says the node is alive, with the lobby of its rooms (JSON), and
    /// learns which other nodes are; returns them.
    async fn heartbeat(&self, lobby: String) -> Result<Vec<NodeRecord>, ApiError> {
        let store = &self.inner.store;
        let now = now_ms();
        store
            .heartbeat(&NodeRecord {
                id: self.id().to_owned(),
                url: self.inner.url.clone(),
                heartbeat: now,
                lobby,
            })
            .await?;
        // A node that missed a lease's worth of heartbeats is gone.
        let alive = store.nodes(now - LEASE_MS).await?;
        *self
            .inner
            .peers
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = alive
            .iter()
            .map(|node| (node.id.clone(), node.url.clone()))
            .collect();
        self.resolve_addresses(&alive).await;
        Ok(alive)
    }

    /// Learns the addresses of the other nodes from their URLs, when those
    /// changed (a node joined or left).
    async fn resolve_addresses(&self, alive: &[NodeRecord]) {
        let mut urls: Vec<String> = alive
            .iter()
            .filter(|node| node.id != self.id() && !node.url.is_empty())
            .map(|node| node.url.clone())
            .collect();
        urls.sort_unstable();
        if *self
            .inner
            .resolved
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            == urls
        {
            return;
        }
        let mut addresses = HashSet::new();
        for url in &urls {
            let Some(authority) = forward::authority(url) else {
                tracing::warn!(node = %url, "a node's URL is not http://HOST:PORT");
                continue;
            };
            match tokio::net::lookup_host(authority).await {
                Ok(found) => addresses.extend(found.map(|addr| addr.ip())),
                Err(err) => tracing::warn!(node = %url, %err, "a node's address not resolved"),
            }
        }
        self.inner.addresses.set(addresses);
        *self
            .inner
            .resolved
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = urls;
    }

    /// Shares this node's lobby and takes the other nodes'.
    async fn share_lobby(&self, rooms: &Rooms) {
        let lobby = &rooms.context().lobby;
        let own = serde_json::to_string(&lobby.own_view()).unwrap_or_default();
        match self.heartbeat(own).await {
            Ok(alive) => lobby.set_others(
                alive
                    .into_iter()
                    .filter(|node| node.id != self.id())
                    .filter_map(|node| serde_json::from_str(&node.lobby).ok())
                    .collect(),
            ),
            Err(err) => tracing::warn!(%err, "heartbeat not stored"),
        }
    }

    /// Starts the node's loop (heartbeats and renewals, takeovers, and at
    /// shutdown the hand-over of its rooms) and, beside it, the takeover of
    /// every room nobody plays: the node serves at once, and a room asked for
    /// meanwhile is taken on the spot.
    pub(crate) fn start(&self, rooms: Rooms, shutdown: watch::Receiver<bool>) {
        let node = self.clone();
        let orphans = rooms.clone();
        tokio::spawn(async move {
            let taken = node.recover(&orphans).await;
            tracing::info!(taken, "rooms nobody played taken over");
        });
        tokio::spawn(self.clone().run(rooms, shutdown));
    }

    /// Waits until the node let go of its rooms after a shutdown.
    pub(crate) async fn left(&self) {
        let mut left = self.inner.left.subscribe();
        let _ = left.wait_for(|left| *left).await;
    }

    async fn run(self, rooms: Rooms, shutdown: watch::Receiver<bool>) {
        let mut renew = tokio::time::interval(RENEW_EVERY);
        let mut takeover = tokio::time::interval(TAKEOVER_POLL);
        loop {
            tokio::select! {
                _ = renew.tick() => self.renew(&rooms).await,
                _ = takeover.tick() => {
                    self.share_lobby(&rooms).await;
                    self.take_over(&rooms).await;
                }
                () = crate::stopped(shutdown.clone()) => break,
            }
        }
        self.leave(&rooms).await;
    }

    /// Renews the node's leases; the rooms whose lease another node took
    /// (this one paused too long) stop here.
    async fn renew(&self, rooms: &Rooms) {
        // Taken before renewing: a room started after this holds its lease.
        let live = rooms.live();
        match self
            .inner
            .store
            .renew_leases(self.id(), now_ms() + LEASE_MS)
            .await
        {
            Ok(held) => {
                let held: HashSet<String> = held.into_iter().map(|lease| lease.room_id).collect();
                for (id, handle) in live {
                    if !held.contains(&id) {
                        rooms.stop(&id, &handle).await;
                    }
                }
            }
            Err(err) => tracing::warn!(%err, "leases not renewed"),
        }
    }

    /// At start: takes over the rooms nobody plays, batch after batch while
    /// a batch finds some (a room that cannot be loaded stays behind).
    /// Returns how many.
    async fn recover(&self, rooms: &Rooms) -> usize {
        let mut taken = 0;
        loop {
            let batch = self.take_over(rooms).await;
            if batch == 0 {
                return taken;
            }
            taken += batch;
        }
    }

    /// Starts here the rooms nobody plays (their owner crashed or left);
    /// returns how many.
    async fn take_over(&self, rooms: &Rooms) -> usize {
        let orphans = match self
            .inner
            .store
            .orphaned_rooms(now_ms(), TAKEOVER_BATCH)
            .await
        {
            Ok(orphans) => orphans,
            Err(err) => {
                tracing::warn!(%err, "rooms to take over not read");
                return 0;
            }
        };
        let mut taken = 0;
        for id in orphans {
            match rooms.get(&id).await {
                Ok(_) => {
                    taken += 1;
                    tracing::info!(room = %id, "room taken over");
                }
                // Another node was quicker.
                Err(ApiError::Elsewhere(_) | ApiError::RoomMoving) => {}
                // Not a room this build made (an id it would never give).
                Err(ApiError::RoomNotFound(_)) => {}
                Err(err) => tracing::warn!(room = %id, %err, "room not taken over"),
            }
        }
        taken
    }

    /// At shutdown: once the rooms stopped, lets go of their leases so the
    /// other nodes take them over at their next look, and leaves the cluster.
    async fn leave(&self, rooms: &Rooms) {
        rooms.stopped().await;
        let store = &self.inner.store;
        // A lease that lapses at 0 is free at once.
        if let Err(err) = store.renew_leases(self.id(), 0).await {
            tracing::warn!(%err, "leases not released: they lapse by themselves");
        }
        if let Err(err) = store.remove_node(self.id()).await {
            tracing::warn!(%err, "node not removed: its heartbeat ages out");
        }
        self.inner.left.send_replace(true);
    }
}
