//! The browser front end: the files of `web/` at the repository root,
//! embedded in the binary (read from disk in debug builds, so a page reload
//! shows an edit). Every page path answers `index.html` and the client routes
//! on `location.pathname`; `/assets/...` serves `web/...`.
//!
//! Responses carry `Cache-Control: no-cache` and the file's SHA-256 as a
//! strong `ETag`, so a browser revalidates and gets `304 Not Modified` until
//! the binary (or, in debug builds, the file) changes.

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::Embed;

use crate::AppState;

/// The front end's files.
#[derive(Embed)]
#[folder = "$CARGO_MANIFEST_DIR/../../web"]
struct Assets;

/// The page routes (home, rooms, rules pages, replay, my games) and `/assets/*path`.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(page))
        .route("/rooms/{id}", get(page))
        .route("/rules/{variant}", get(page))
        .route("/replay", get(page))
        .route("/games", get(page))
        .route("/assets/{*path}", get(asset))
        .fallback(unknown_page)
}

/// Any other address: 404, with the page itself for a browser, so it can say
/// what is missing and offer the way home; a bare 404 under `/api/` and
/// `/assets/`, where programs ask.
async fn unknown_page(uri: Uri) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") || path.starts_with("/assets/") {
        return not_found();
    }
    let Some(file) = Assets::get("index.html") else {
        return not_found();
    };
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        file.data.into_owned(),
    )
        .into_response()
}

/// Any page: the client reads the path and shows the right one.
async fn page(headers: HeaderMap) -> Response {
    file("index.html", &headers)
}

/// A file under `web/`, or 404.
async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    // rust-embed refuses to leave its folder too; this keeps the rule visible.
    if path.split('/').any(|part| part.is_empty() || part == "..") {
        return not_found();
    }
    file(&path, &headers)
}

fn file(path: &str, headers: &HeaderMap) -> Response {
    let Some(file) = Assets::get(path) else {
        return not_found();
    };
    let etag = format!("\"{}\"", hex(&file.metadata.sha256_hash()));
    let cache = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (
            header::ETAG,
            HeaderValue::from_str(&etag).expect("a hex string is a header value"),
        ),
    ];
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == etag));
    if fresh {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    let content_type = match file.metadata.mimetype() {
        // mime_guess names the type; the files are UTF-8.
        text if text.starts_with("text/") || text == "application/javascript" => {
            format!("{text}; charset=utf-8")
        }
        other => other.to_owned(),
    };
    let content_type = HeaderValue::from_str(&content_type).expect("a MIME type is a header value");
    (
        cache,
        [(header::CONTENT_TYPE, content_type)],
        file.data.into_owned(),
    )
        .into_response()
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found").into_response()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
