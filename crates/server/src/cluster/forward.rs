//! Every request for a room reaches the node that plays it.
//!
//! A request under `/api/v1/rooms/{id}/...` that arrives at a node which
//! does not own the room is passed on to the owner's `--node-url`, HTTP and
//! WebSocket alike (the upgrade is joined end to end), and the owner's answer
//! comes back unchanged. So one node alone decides everything about a room,
//! and it sees every socket of the room, wherever it was opened: a player
//! connected through another node is present, not away.
//!
//! An analysis runs on the node that started it, whose [`Node::tag`] begins
//! its id: a request for it that arrives elsewhere is passed on the same way.
//!
//! The forwarding node names itself in [`NODE_HEADER`] (its id, which only
//! nodes know) and the client's address in [`CLIENT_HEADER`]; the owner
//! trusts that address for its per-address limits only when the id is a live
//! node's. A forwarded request is never forwarded again: when its receiver
//! is not the owner either (the room is changing hands), it answers
//! `room-moving` and the client tries again.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::UPGRADE;
use axum::http::{HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};

use super::Node;
use crate::AppState;
use crate::error::ApiError;
use crate::ids;

/// The forwarding node's id.
const NODE_HEADER: &str = "x-koma-node";

/// The client's address as the forwarding node saw it.
const CLIENT_HEADER: &str = "x-koma-client";

/// How long a node waits to reach another.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// The middleware: serves a room's request here when this node plays the
/// room (taking it when nobody does), else forwards it to the owner.
pub(crate) async fn to_owner(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let Some(node) = state.node.clone() else {
        return next.run(request).await;
    };
    let forwarded = take_forwarded(&node, &mut request);
    if let Some(id) = analysis_of(request.uri().path())
        && let Some(url) = node.url_of_tag(id).filter(|_| !forwarded)
    {
        let id = id.to_owned();
        return match pass_on(&node, &url, request).await {
            Ok(response) => response,
            // Its node is gone, and the analysis with it.
            Err(err) => {
                tracing::warn!(node = %url, %err, "node of an analysis not reached");
                ApiError::AnalysisNotFound(id).into_response()
            }
        };
    }
    let Some(id) = room_of(request.uri().path()) else {
        return next.run(request).await;
    };
    if !forwarded && let Some(url) = node.recent_owner(&id) {
        return forward(&node, &id, &url, request).await;
    }
    match state.rooms.get(&id).await {
        Ok(_) => next.run(request).await,
        Err(ApiError::Elsewhere(url)) if !forwarded => {
            node.note_owner(&id, Some(&url));
            forward(&node, &id, &url, request).await
        }
        Err(ApiError::Elsewhere(_)) => ApiError::RoomMoving.into_response(),
        Err(err) => err.into_response(),
    }
}

/// The room a path names, if it is one of a room's routes.
fn room_of(path: &str) -> Option<String> {
    let rest = path.strip_prefix("/api/v1/rooms/")?;
    let id = rest.split('/').next()?;
    ids::is_id(id).then(|| id.to_owned())
}

/// The analysis a path names, if it is an analysis's route.
fn analysis_of(path: &str) -> Option<&str> {
    let id = path.strip_prefix("/api/v1/analysis/")?;
    ids::is_id(id).then_some(id)
}

/// Removes the forwarding headers; whether the request came from another
/// node. A live node's word on the client's address replaces the address
/// this node sees (the forwarding node's).
fn take_forwarded(node: &Node, request: &mut Request) -> bool {
    let headers = request.headers_mut();
    let from = headers.remove(NODE_HEADER);
    let client = headers.remove(CLIENT_HEADER);
    let Some(from) = from else {
        return false;
    };
    let trusted = from.to_str().is_ok_and(|from| node.is_peer(from));
    let client = client
        .as_ref()
        .and_then(|client| client.to_str().ok()?.parse::<SocketAddr>().ok());
    if let (true, Some(client)) = (trusted, client) {
        request.extensions_mut().insert(ConnectInfo(client));
    }
    true
}

/// Passes `request` to the node at `url` and its answer back; an owner that
/// cannot be reached makes the room `room-moving` (it is taken over soon).
async fn forward(node: &Node, room_id: &str, url: &str, request: Request) -> Response {
    match pass_on(node, url, request).await {
        Ok(response) => {
            if response.status() == StatusCode::SERVICE_UNAVAILABLE {
                node.note_owner(room_id, None);
            }
            response
        }
        Err(err) => {
            node.note_owner(room_id, None);
            tracing::warn!(node = %url, %err, "owner of a room not reached");
            ApiError::RoomMoving.into_response()
        }
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The connections to the other nodes, kept open between requests: a
/// forwarded move costs no new TCP connection, and two busy nodes do not
/// fill the port range with connections waiting out `TIME_WAIT`.
pub(crate) type Pool = Client<HttpConnector, Body>;

/// How long an unused connection to another node is kept: well below the
/// other node's `--idle-connection-timeout` (60 s by default), so a pooled
/// connection is not reused just as the other end closes it.
const PEER_IDLE: Duration = Duration::from_secs(20);

/// A pool of connections to the other nodes, from this node's own address
/// (`own_url`'s, when it is an address of this machine): the other nodes know
/// a node's connections by the address its URL names, and exempt them from the
/// per-address limits, while the operating system might pick another source.
pub(crate) fn pool(own_url: &str) -> Pool {
    let mut connector = HttpConnector::new();
    connector.set_local_address(local_address(own_url));
    connector.set_nodelay(true);
    connector.set_connect_timeout(Some(CONNECT_TIMEOUT));
    Client::builder(TokioExecutor::new())
        .pool_idle_timeout(PEER_IDLE)
        .pool_timer(TokioTimer::new())
        .build(connector)
}

/// The `HOST:PORT` of a node URL (`http://HOST:PORT`, a path after it
/// ignored): what a node connects to and resolves; `None` for any other URL.
pub(super) fn authority(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("http://")?;
    Some(
        rest.split_once('/')
            .map_or(rest, |(authority, _)| authority),
    )
}

/// The IP address `url` names, if it is one this machine can send from.
fn local_address(url: &str) -> Option<IpAddr> {
    let ip: IpAddr = authority(url)?.parse::<SocketAddr>().ok()?.ip();
    std::net::UdpSocket::bind((ip, 0)).is_ok().then_some(ip)
}

async fn pass_on(node: &Node, url: &str, mut request: Request) -> Result<Response, BoxError> {
    let base = authority(url).ok_or("a node URL is http://HOST:PORT")?;
    let client = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(client)| *client);
    let upgrading = request.headers().contains_key(UPGRADE);
    let client_side = hyper::upgrade::on(&mut request);
    let (mut parts, body) = request.into_parts();
    parts.uri = Uri::builder()
        .scheme("http")
        .authority(base)
        .path_and_query(parts.uri.path_and_query().map_or("/", |pq| pq.as_str()))
        .build()?;
    parts.extensions = axum::http::Extensions::new();
    parts
        .headers
        .insert(NODE_HEADER, HeaderValue::from_str(node.id())?);
    if let Some(client) = client {
        parts
            .headers
            .insert(CLIENT_HEADER, HeaderValue::from_str(&client.to_string())?);
    }
    let mut response = node
        .pool()
        .request(Request::from_parts(parts, body))
        .await?;
    if upgrading && response.status() == StatusCode::SWITCHING_PROTOCOLS {
        let owner_side = hyper::upgrade::on(&mut response);
        tokio::spawn(async move {
            match tokio::join!(client_side, owner_side) {
                (Ok(client), Ok(owner)) => {
                    let _ = tokio::io::copy_bidirectional(
                        &mut TokioIo::new(client),
                        &mut TokioIo::new(owner),
                    )
                    .await;
                }
                (Err(err), _) | (_, Err(err)) => {
                    tracing::debug!(%err, "forwarded WebSocket not joined");
                }
            }
        });
    }
    Ok(response.map(Body::new))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_routes_of_rooms_and_analyses_name_what_they_reach() {
        let id = "0123456789abcdef0123456789abcdef";
        assert_eq!(room_of(&format!("/api/v1/rooms/{id}")), Some(id.to_owned()));
        assert_eq!(
            room_of(&format!("/api/v1/rooms/{id}/ws")),
            Some(id.to_owned())
        );
        assert_eq!(room_of("/api/v1/rooms"), None);
        assert_eq!(room_of("/api/v1/rooms/"), None);
        assert_eq!(room_of("/api/v1/rooms/not-an-id/moves"), None);
        assert_eq!(room_of(&format!("/api/v1/players/{id}")), None);
        assert_eq!(analysis_of(&format!("/api/v1/analysis/{id}")), Some(id));
        assert_eq!(analysis_of("/api/v1/analysis"), None);
        assert_eq!(analysis_of(&format!("/api/v1/rooms/{id}/analysis")), None);
    }

    #[test]
    fn a_node_url_names_its_host_and_port() {
        assert_eq!(authority("http://10.0.0.5:8080"), Some("10.0.0.5:8080"));
        assert_eq!(authority("http://node-a:8080/"), Some("node-a:8080"));
        assert_eq!(authority("http://[::1]:8080/koma"), Some("[::1]:8080"));
        assert_eq!(authority("https://node-a:8080"), None);
        assert_eq!(authority("node-a:8080"), None);
        assert_eq!(authority(""), None);
    }

    #[test]
    fn connections_to_other_nodes_leave_from_the_address_of_the_node_url() {
        assert_eq!(
            local_address("http://127.0.0.2:8080"),
            Some(IpAddr::from([127, 0, 0, 2]))
        );
        // Not this machine's (TEST-NET-3), or a name: the system chooses.
        assert_eq!(local_address("http://203.0.113.9:8080"), None);
        assert_eq!(local_address("http://node-a.internal:8080"), None);
        assert_eq!(local_address(""), None);
    }
}
