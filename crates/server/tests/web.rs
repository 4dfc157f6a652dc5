//! The browser front end is served: every page path answers `index.html`,
//! `/assets/...` answers the files of `web/` with their content type, and an
//! unknown asset is a 404.

mod common;

use common::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A response: status, lower-case header lines and body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// `GET path` with extra header lines, read to the end.
async fn get(server: &TestServer, path: &str, extra: &str) -> Answer {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{extra}\r\n",
        server.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8(response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(key, value)| (key.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

fn index_html() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/index.html")).unwrap()
}

#[tokio::test]
async fn pages_answer_the_app_shell() {
    let server = TestServer::start().await;
    for path in ["/", "/rooms/3f9c0a", "/rules/xiangqi", "/replay"] {
        let answer = get(&server, path, "").await;
        assert_eq!(answer.status, 200, "{path}");
        assert_eq!(
            answer.header("content-type"),
            Some("text/html; charset=utf-8"),
            "{path}"
        );
        assert_eq!(answer.body, index_html(), "{path}");
        assert_eq!(answer.header("cache-control"), Some("no-cache"), "{path}");
    }
    server.stop().await;
}

#[tokio::test]
async fn assets_have_their_content_type_and_revalidate() {
    let server = TestServer::start().await;
    let script = get(&server, "/assets/js/app.js", "").await;
    assert_eq!(script.status, 200);
    assert_eq!(
        script.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let expected =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/js/app.js"))
            .unwrap();
    assert_eq!(script.body, expected);

    let style = get(&server, "/assets/css/app.css", "").await;
    assert_eq!(style.status, 200);
    assert_eq!(
        style.header("content-type"),
        Some("text/css; charset=utf-8")
    );

    // The ETag comes back as If-None-Match: nothing is sent again.
    let etag = script.header("etag").expect("an ETag").to_owned();
    let again = get(
        &server,
        "/assets/js/app.js",
        &format!("If-None-Match: {etag}\r\n"),
    )
    .await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn unknown_assets_are_not_found() {
    let server = TestServer::start().await;
    for path in [
        "/assets/js/missing.js",
        "/assets/../Cargo.toml",
        "/assets/js/../../Cargo.toml",
        "/assets/",
    ] {
        assert_eq!(get(&server, path, "").await.status, 404, "{path}");
    }
    // The API is untouched.
    let (status, _) = server.request("GET", "/api/v1/lobby", None, None).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test]
async fn an_unknown_page_is_a_404_that_a_browser_can_show() {
    let server = TestServer::start().await;
    for path in ["/no/such/page", "/rooms/", "/rules/"] {
        let answer = get(&server, path, "").await;
        assert_eq!(answer.status, 404, "{path}");
        assert_eq!(
            answer.header("content-type"),
            Some("text/html; charset=utf-8"),
            "{path}"
        );
        assert_eq!(answer.body, index_html(), "{path}");
    }
    // Programs asking the API or for a file get a bare 404, not a page.
    for path in ["/api/v1/no-such-route", "/assets/js/missing.js"] {
        let answer = get(&server, path, "").await;
        assert_eq!(answer.status, 404, "{path}");
        assert_ne!(answer.body, index_html(), "{path}");
    }
    server.stop().await;
}
