//! The OpenAPI document served at `/api/v1/openapi.json`.

use axum::Json;
use serde_json::Value;

/// The document, kept as a JSON file beside the code it describes.
const DOCUMENT: &str = include_str!("../openapi.json");

/// `GET /openapi.json`.
pub(crate) async fn document() -> Json<Value> {
    Json(serde_json::from_str(DOCUMENT).unwrap_or(Value::Null))
}
