//! A keep-alive HTTP/1.1 client for the few JSON requests a page sends: one
//! connection, opened on first use and kept like a browser's, one request at
//! a time. A request on a kept connection that the server closed meanwhile is
//! sent again on a new one, as browsers do, only when no answer began.

use std::io;
use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An answer: its status and body (borrowed from the client's buffer).
pub(crate) struct Answer<'a> {
    pub(crate) status: u16,
    pub(crate) body: &'a [u8],
}

impl Answer<'_> {
    pub(crate) fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(self.body).unwrap_or(serde_json::Value::Null)
    }

    /// The body as text, for error messages.
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(self.body).into_owned()
    }
}

pub(crate) struct Http {
    addr: SocketAddr,
    stream: Option<TcpStream>,
    /// The request written, then the answer read (reused).
    buffer: Vec<u8>,
    /// Connections opened, for the report.
    pub(crate) connects: u64,
}

impl Http {
    pub(crate) fn new(addr: SocketAddr) -> Http {
        Http {
            addr,
            stream: None,
            buffer: Vec::new(),
            connects: 0,
        }
    }

    /// `method path` with an optional bearer token and JSON body.
    pub(crate) async fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> io::Result<Answer<'_>> {
        let reused = self.stream.is_some();
        match self.exchange(method, path, token, body).await {
            Ok(end) => Ok(self.answer(end)),
            Err(Failure::BeforeAnswer(_)) if reused => {
                self.stream = None;
                match self.exchange(method, path, token, body).await {
                    Ok(end) => Ok(self.answer(end)),
                    Err(Failure::BeforeAnswer(err) | Failure::During(err)) => Err(err),
                }
            }
            Err(Failure::BeforeAnswer(err) | Failure::During(err)) => {
                self.stream = None;
                Err(err)
            }
        }
    }

    fn answer(&self, (status, body_start): (u16, usize)) -> Answer<'_> {
        Answer {
            status,
            body: &self.buffer[body_start..],
        }
    }

    /// Writes the request and reads the answer into `buffer`; returns the
    /// status and where the body starts.
    async fn exchange(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Result<(u16, usize), Failure> {
        if self.stream.is_none() {
            let stream = TcpStream::connect(self.addr)
                .await
                .map_err(Failure::BeforeAnswer)?;
            stream.set_nodelay(true).map_err(Failure::BeforeAnswer)?;
            self.stream = Some(stream);
            self.connects += 1;
        }
        let buffer = &mut self.buffer;
        buffer.clear();
        use std::io::Write;
        let _ = write!(
            buffer,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAccept: */*\r\n",
            self.addr
        );
        if let Some(token) = token {
            let _ = write!(buffer, "Authorization: Bearer {token}\r\n");
        }
        let body = body.unwrap_or("");
        if method != "GET" {
            let _ = write!(
                buffer,
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            );
        }
        buffer.extend_from_slice(b"\r\n");
        buffer.extend_from_slice(body.as_bytes());
        let stream = self.stream.as_mut().expect("connected above");
        stream
            .write_all(buffer)
            .await
            .map_err(Failure::BeforeAnswer)?;
        buffer.clear();
        let head_end = loop {
            let read = read_more(stream, buffer).await;
            match read {
                Ok(0) if buffer.is_empty() => {
                    return Err(Failure::BeforeAnswer(io::ErrorKind::UnexpectedEof.into()));
                }
                Ok(0) => return Err(Failure::During(io::ErrorKind::UnexpectedEof.into())),
                Ok(_) => {}
                Err(err) if buffer.is_empty() => return Err(Failure::BeforeAnswer(err)),
                Err(err) => return Err(Failure::During(err)),
            }
            if let Some(at) = find(buffer, b"\r\n\r\n") {
                break at + 4;
            }
        };
        let head = std::str::from_utf8(&buffer[..head_end]).map_err(|_| bad("head not UTF-8"))?;
        let status: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| bad("no status"))?;
        let mut length = None;
        let mut close = false;
        for line in head.split("\r\n").skip(1) {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                length = value.parse::<usize>().ok();
            } else if name.eq_ignore_ascii_case("connection") {
                close = value.eq_ignore_ascii_case("close");
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                return Err(bad("chunked answers are not read"));
            }
        }
        let length = length.ok_or_else(|| bad("no Content-Length"))?;
        while buffer.len() < head_end + length {
            match read_more(stream, buffer).await {
                Ok(0) => return Err(Failure::During(io::ErrorKind::UnexpectedEof.into())),
                Ok(_) => {}
                Err(err) => return Err(Failure::During(err)),
            }
        }
        if close {
            self.stream = None;
        }
        Ok((status, head_end))
    }
}

/// Why an exchange failed: before any byte of the answer (the request may be
/// sent again on a new connection) or during it.
enum Failure {
    BeforeAnswer(io::Error),
    During(io::Error),
}

fn bad(what: &str) -> Failure {
    Failure::During(io::Error::new(io::ErrorKind::InvalidData, what.to_owned()))
}

async fn read_more(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> io::Result<usize> {
    buffer.reserve(4096);
    stream.read_buf(buffer).await
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}
