//! Koma's game server: rooms with seats and spectators, server-side clocks,
//! away-player takeover, lobby, ratings and statistics, over an HTTP JSON API
//! under `/api/v1` and one WebSocket per room. `docs/api.md` describes the protocol.
//!
//! Each room is one task that owns its game ([`room`]); it checks moves with
//! the `rules` crate and writes every event to the `store` before anyone hears
//! of it. [`serve`] runs the router on a listener until a shutdown future fires,
//! so tests start a real server on 127.0.0.1 with an ephemeral port.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! let store = store::open("sqlite://koma.sqlite").await?;
//! let state = server::AppState::start(store, Arc::new(server::FirstLegalMove), server::Config::default()).await?;
//! let listener = server::listen("127.0.0.1:8080".parse()?)?;
//! server::serve(listener, state, async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! # Ok(()) }
//! ```
//!
//! Related crates: `rules` (legality), `store` (persistence), `koma` (`koma serve`).

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod analysis;
mod api;
mod cluster;
mod computer;
mod connections;
mod error;
mod event;
mod identity;
mod ids;
mod lobby;
mod openapi;
mod player_games;
mod rate;
mod ratings;
mod records;
pub mod room;
mod room_settings;
mod rooms;
#[cfg(test)]
mod temp_store;
mod web;
mod ws;

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::http::StatusCode;
use axum::routing::get;
use store::Store;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

pub use cluster::Node;
pub use computer::{
    Computer, ComputerPlayer, EnginePlayer, Evaluation, FirstLegalMove, Score, Thinking,
};
pub use connections::listen;
pub use error::{ApiError, ErrorBody};
pub use event::{EventJson, EventKindJson, Frame};
pub use lobby::{Lobby, LobbyView, OpenRoom};
pub use room::Mode;
pub use room::{Event, EventKind, RoomStatus};
pub use room_settings::RoomSettings;
pub use rooms::{NewRoom, Rooms};

/// The server's own settings (the room settings are per room).
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a seated player may be gone before the computer plays for them.
    pub grace_period: Duration,
    /// The computer's level when it plays for an away player.
    pub takeover_level: u8,
    /// Time added to every per-move clock for the network (lag compensation).
    pub lag_allowance: Duration,
    /// The largest request body or WebSocket message, in bytes.
    pub max_message_bytes: usize,
    /// How many rooms one device (IP address) may create per hour.
    pub rooms_per_device_per_hour: u32,
    /// How many messages one WebSocket, and one seat token over all its
    /// sockets, may send per second (a burst of as many is allowed).
    pub messages_per_second: u32,
    /// How many messages all the WebSockets of one IP address may send per second.
    pub messages_per_second_per_ip: u32,
    /// How many connections (WebSockets included) one IP address may hold open.
    pub max_connections_per_ip: usize,
    /// How long a client may take to send a request's head.
    pub header_read_timeout: Duration,
    /// How long a keep-alive connection may sit idle between requests.
    pub idle_connection_timeout: Duration,
    /// How often the server pings each WebSocket.
    pub websocket_ping_interval: Duration,
    /// How long a WebSocket may go without a frame from its client (pongs
    /// included) before the server closes it.
    pub websocket_timeout: Duration,
    /// How long a room nobody watches and nothing waits in (finished, or with
    /// no clock running and no computer to move) stays in memory.
    pub idle_room_timeout: Duration,
    /// How long a game waits with both players away before it ends as
    /// abandoned (unrated, outside the statistics).
    pub abandon_after: Duration,
    /// How long a room waits for its second player before it closes.
    pub waiting_room_ttl: Duration,
    /// How many computer searches run at once (`--engine-threads`); the
    /// others wait their turn. Each holds one engine and its table.
    pub engine_threads: usize,
    /// The site's public address for invitation links (`https://koma.example`);
    /// by default, taken from the request's `Host`.
    pub public_url: Option<String>,
    /// Where the other nodes of a cluster reach this one (`http://HOST:PORT`),
    /// when the database is shared; without it, they cannot forward to it.
    pub node_url: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            grace_period: Duration::from_secs(20),
            takeover_level: 4,
            lag_allowance: Duration::from_millis(500),
            max_message_bytes: 16 * 1024,
            rooms_per_device_per_hour: 100,
            messages_per_second: 20,
            messages_per_second_per_ip: 100,
            max_connections_per_ip: 256,
            header_read_timeout: Duration::from_secs(10),
            idle_connection_timeout: Duration::from_secs(60),
            websocket_ping_interval: Duration::from_secs(25),
            websocket_timeout: Duration::from_secs(60),
            idle_room_timeout: Duration::from_secs(600),
            abandon_after: Duration::from_secs(600),
            waiting_room_ttl: Duration::from_secs(3600),
            engine_threads: std::thread::available_parallelism().map_or(1, usize::from),
            public_url: None,
            node_url: None,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The persistence.
    pub store: Arc<dyn Store>,
    /// The live rooms.
    pub rooms: Rooms,
    /// The server's settings.
    pub config: Arc<Config>,
    shutdown: Arc<watch::Sender<bool>>,
    /// The open WebSockets, which shutdown waits for.
    sockets: connections::Live,
    /// The frame limits per seat token and per address.
    frame_limits: Arc<rate::FrameLimits>,
    /// The analyses running and recently ended.
    analyses: analysis::Analyses,
    /// This node of the cluster, when the database is shared.
    node: Option<cluster::Node>,
}

impl AppState {
    /// The server's state over `store`; every unfinished room comes back in the background.
    ///
    /// # Errors
    /// The store fails while rooms are recovered.
    pub async fn start(
        store: Arc<dyn Store>,
        computer: Arc<dyn ComputerPlayer>,
        config: Config,
    ) -> Result<AppState, ApiError> {
        let (shutdown, signal) = watch::channel(false);
        let frame_limits = Arc::new(rate::FrameLimits::new(&config));
        let config = Arc::new(config);
        let computer = Computer::new(computer, config.engine_threads);
        // On a shared database rooms are leased, and the nodes take over the
        // rooms nobody plays instead of starting every unfinished room.
        let node = if store.shared() {
            Some(cluster::Node::join(store.clone(), config.node_url.clone()).await?)
        } else {
            None
        };
        let analyses = analysis::Analyses::new(
            computer.clone(),
            store.clone(),
            node.as_ref().map(cluster::Node::tag).unwrap_or_default(),
        );
        let rooms = Rooms::new(room::RoomContext {
            store: store.clone(),
            computer,
            config: config.clone(),
            lobby: Lobby::default(),
            shutdown: signal.clone(),
            node: node.clone(),
        });
        match &node {
            Some(node) => node.start(rooms.clone(), signal),
            None => {
                let recovered = rooms.recover().await?;
                tracing::info!(recovered, "unfinished rooms to load");
            }
        }
        Ok(AppState {
            store,
            rooms,
            config,
            shutdown: Arc::new(shutdown),
            sockets: connections::Live::default(),
            frame_limits,
            analyses,
            node,
        })
    }

    /// A receiver that turns `true` when the server shuts down.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }
}

/// Every route: the API under `/api/v1`, the browser front end (pages and
/// `/assets/...`) and `/healthz`.
pub fn router(state: AppState) -> Router {
    let limit = state.config.max_message_bytes;
    let to_owner = axum::middleware::from_fn_with_state(state.clone(), cluster::forward::to_owner);
    Router::new()
        .nest("/api/v1", api::routes())
        .merge(web::routes())
        .route("/healthz", get(|| async { "ok" }))
        .with_state(state)
        .layer(to_owner)
        .layer(DefaultBodyLimit::max(limit))
        // A response (not a stream or socket, which answer at once) within 15 s.
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(15),
        ))
        // The span names the route, not the URI: a URI may carry a seat token.
        .layer(
            TraceLayer::new_for_http().make_span_with(|request: &Request<Body>| {
                let route = request
                    .extensions()
                    .get::<MatchedPath>()
                    .map_or("unknown", MatchedPath::as_str);
                tracing::info_span!("request", method = %request.method(), route)
            }),
        )
}

/// Serves `state` on `listener` until `shutdown` completes; then stops
/// accepting, lets every room finish the command it is handling (so every
/// acknowledged move is stored), lets every request in progress finish, closes
/// every WebSocket with code 1012 and returns once all of that is done.
/// Connections live under the limits of [`Config`] (see `connections`).
///
/// # Errors
/// Never at present: a failed `accept` (out of descriptors, say) is logged
/// and retried.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let signal = state.shutdown.clone();
    let stopping = state.shutdown_signal();
    let sockets = state.sockets.clone();
    let node = state.node.clone();
    let limits = connections::Limits::new(&state.config);
    let nodes = node
        .as_ref()
        .map(|node| node.addresses().clone())
        .unwrap_or_default();
    tokio::spawn(async move {
        shutdown.await;
        tracing::info!("shutting down");
        let _ = signal.send(true);
    });
    let app = router(state);
    connections::accept(listener, app, limits, nodes, stopping).await;
    sockets.none_left().await;
    if let Some(node) = node {
        node.left().await;
    }
    Ok(())
}

/// Waits until the shutdown signal turns `true` (or its sender is gone).
pub(crate) async fn stopped(mut signal: watch::Receiver<bool>) {
    let _ = signal.wait_for(|stop| *stop).await;
}
