//! What the tests that start `koma serve` processes share: a free port and
//! plain HTTP/1.1 requests (no client library: the tests see the raw status).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};

use serde_json::Value;

/// A loopback port nobody listens on now.
pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP request to 127.0.0.1: the status and the JSON body, or `None`
/// if nobody listens.
pub(crate) fn request(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Option<(u16, Value)> {
    request_at(
        SocketAddr::from(([127, 0, 0, 1], port)),
        method,
        path,
        token,
        body,
    )
}

/// One HTTP request to `addr`: the status and the JSON body, or `None` if
/// nobody listens.
pub(crate) fn request_at(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect(addr).ok()?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let (head, body) = response.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    Some((
        status,
        serde_json::from_str(body).unwrap_or(Value::String(body.to_owned())),
    ))
}

/// A request that must succeed (200 or 201): its JSON body.
pub(crate) fn must(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Value {
    let (status, body) = request(port, method, path, token, body).expect("koma answers");
    assert!(
        status == 200 || status == 201,
        "{method} {path} on {port}: {status} {body}"
    );
    body
}
