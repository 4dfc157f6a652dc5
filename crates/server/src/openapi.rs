//! The OpenAPI 3.1 document served at `/api/v1/openapi.json`, generated, not
//! written: every route is registered through `utoipa_axum::routes!` (see
//! `api::routes`), which takes its path, parameters, request body and
//! responses from the handler's `#[utoipa::path]` attribute, and every body
//! schema from the `#[derive(ToSchema)]` type the handler reads or replies
//! with; the prose comes from their doc comments. A route cannot be served
//! without being in the document, and a reply cannot change shape without its
//! schema changing with it.
//!
//! `crates/server/tests/openapi.rs` holds the document to the server: it drives
//! real requests to every route (rooms waiting, playing and finished; local,
//! online and computer; with and without clocks; every action and error) and
//! validates each JSON reply, each line of the events stream and each
//! WebSocket frame against the schema the document gives for that route and
//! status, with every object closed to the fields it documents.
//! `crates/server/tests/web_types.rs` holds the room page's JSDoc types
//! (`web/js/room/types.js`) to the same schemas.
//!
//! The served document is utoipa's with one rewrite ([`Document::new`]): the
//! `allOf` that `#[serde(flatten)]` makes is spread into one object per kind.

use std::borrow::Cow;
use std::sync::Arc;

use axum::Extension;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use notation::Format;
use rules::{Side, Variant};
use serde_json::{Map, Value, json};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{OpenApi, RefOr};
use utoipa::{Modify, OpenApi as _, PartialSchema, ToSchema};

use crate::room::{Mode, RoomStatus};

/// The document's outline: what no route states (title, prose, server, the seat
/// token's scheme). The routes fill in the rest.
#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Koma API",
        version = "1",
        description = "Rooms, seats, moves and events of Koma, the Shogi, Minishogi, Annan Shogi \
            and Xiangqi server. Every error is a JSON {code, message} (schema ErrorBody), except \
            the plain-text 400 of a malformed query string or WebSocket handshake. Moves are USI \
            (shogi family) or ICCS (xiangqi) text. The WebSocket /api/v1/rooms/{id}/ws carries \
            the same numbered events as the events stream, and unnumbered presence frames \
            (schema RoomFrame lists every frame the server sends, ClientFrame every frame it \
            reads); see docs/api.md. This document is generated from the server's code."
    ),
    servers((url = "/api/v1")),
    components(schemas(
        crate::ws::RoomFrame,
        crate::ws::SocketFrame,
        crate::event::EventJson,
        crate::room::PresenceView,
        crate::ws::Ack,
        crate::ws::ClientFrame
    )),
    modifiers(&SeatToken)
)]
pub(crate) struct Outline;

/// The security schemes: `seatToken` for a seat's routes, `playerCredential`
/// for a player's own.
struct SeatToken;

impl Modify for SeatToken {
    fn modify(&self, document: &mut OpenApi) {
        let components = document.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "seatToken",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The secret seat token from creating or joining a room.",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "playerCredential",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The player's secret credential (`player_secret`), issued with a new player.",
                    ))
                    .build(),
            ),
        );
    }
}

/// The outline, for the routes to fill in.
pub(crate) fn outline() -> OpenApi {
    Outline::openapi()
}

/// The generated document as JSON text, made once when the routes are built.
#[derive(Clone)]
pub(crate) struct Document(Arc<str>);

impl Document {
    /// Serialises `document`, each `allOf` spread out (see [`spread_all_of`]).
    pub(crate) fn new(document: &OpenApi) -> Document {
        // The document is plain data; serialising it cannot fail.
        let mut json = serde_json::to_value(document).unwrap_or_default();
        let components = json["components"]["schemas"].clone();
        spread_all_of(&mut json, &components);
        Document(json.to_string().into())
    }
}

/// Rewrites every `allOf` of objects and `oneOf`s of objects (what utoipa
/// makes of `#[serde(flatten)]`, as in an event's `seq` and `at` beside its
/// kind) as one object, or a `oneOf` of one object per combination: the same
/// JSON is valid, and each object lists every property it may have, so a
/// client (or a test) can hold an object to the properties it names. An
/// `allOf` of anything else stays as it is.
fn spread_all_of(schema: &mut Value, components: &Value) {
    match schema {
        Value::Object(object) => {
            object
                .values_mut()
                .for_each(|value| spread_all_of(value, components));
            let spread = object
                .get("allOf")
                .and_then(Value::as_array)
                .and_then(|parts| spread(parts, components));
            if let Some(mut spread) = spread {
                object.remove("allOf");
                // The type's own description, not that of a part it flattens.
                if object.contains_key("description") {
                    spread.remove("description");
                }
                object.extend(spread);
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| spread_all_of(item, components)),
        _ => {}
    }
}

/// The objects an `allOf` of `parts` allows, as a schema's keywords; `None`
/// when a part is neither an object nor a `oneOf` of objects.
fn spread(parts: &[Value], components: &Value) -> Option<Map<String, Value>> {
    let resolve = |part: &Value| -> Option<Value> {
        match part.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                let name = reference.strip_prefix("#/components/schemas/")?;
                let mut resolved = components.get(name)?.clone();
                spread_all_of(&mut resolved, components);
                Some(resolved)
            }
            None => Some(part.clone()),
        }
    };
    let is_object = |schema: &Value| schema.get("properties").is_some_and(Value::is_object);
    let mut combinations = vec![json!({"type": "object", "properties": {}})];
    for part in parts {
        let part = resolve(part)?;
        let choices = match part.get("oneOf").and_then(Value::as_array) {
            Some(branches) => branches
                .iter()
                .map(resolve)
                .collect::<Option<Vec<Value>>>()?,
            None => vec![part],
        };
        if !choices.iter().all(is_object) {
            return None;
        }
        combinations = combinations
            .iter()
            .flat_map(|combination| choices.iter().map(|choice| merge(combination, choice)))
            .collect();
    }
    let mut keywords = Map::new();
    if let [one] = combinations.as_slice() {
        keywords.extend(one.as_object()?.clone());
    } else {
        keywords.insert("oneOf".to_owned(), Value::Array(combinations));
    }
    Some(keywords)
}

/// `object` with the properties and required names of `more`, and its
/// description when it has one.
fn merge(object: &Value, more: &Value) -> Value {
    let mut merged = object.clone();
    for (key, value) in more["properties"].as_object().into_iter().flatten() {
        merged["properties"][key] = value.clone();
    }
    let mut required: Vec<Value> = Vec::new();
    for name in [object, more]
        .iter()
        .flat_map(|schema| schema["required"].as_array().cloned().unwrap_or_default())
    {
        if !required.contains(&name) {
            required.push(name);
        }
    }
    if !required.is_empty() {
        merged["required"] = Value::Array(required);
    }
    if let Some(description) = more.get("description") {
        merged["description"] = description.clone();
    }
    merged
}

/// `GET /openapi.json`.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "api",
    responses((status = 200, description = "This document (OpenAPI 3.1).", body = Object, content_type = "application/json"))
)]
pub(crate) async fn document(Extension(document): Extension<Document>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        document.0.to_string(),
    )
        .into_response()
}

/// What the routes' error statuses mean, shared by their `responses(...)`.
pub(crate) mod status {
    /// 401.
    pub(crate) const MISSING_TOKEN: &str =
        "missing-token: the request has no seat token (send Authorization: Bearer <token>).";
    /// 403.
    pub(crate) const WRONG_TOKEN: &str = "wrong-token: the token holds no seat in this room.";
    /// 401 of the routes that name a player.
    pub(crate) const MISSING_CREDENTIAL: &str =
        "missing-credential: a player is named without their credential.";
    /// 403 of the routes that name a player.
    pub(crate) const WRONG_CREDENTIAL: &str = "wrong-credential: the credential does not prove that player (or the player was made before credentials existed).";
    /// 403 of the events stream and the WebSocket, which take a token only to count presence.
    pub(crate) const WATCH_WRONG_TOKEN: &str =
        "wrong-token: a token was given and holds no seat in this room.";
    /// 404 of every room route.
    pub(crate) const ROOM_NOT_FOUND: &str = "room-not-found: no room with that id.";
    /// 409 of the seat's actions.
    pub(crate) const NOT_NOW: &str =
        "not-your-turn, or not-playing: the game is waiting for a player or over.";
    /// 413.
    pub(crate) const TOO_LARGE: &str = "too-large: the body is larger than the server accepts.";
    /// 429.
    pub(crate) const TOO_MANY: &str =
        "too-many: this device created as many rooms as the server allows per hour.";
    /// 500.
    pub(crate) const INTERNAL: &str = "internal: the database failed (the detail is logged).";
    /// 503 of routes that ask a room's task.
    pub(crate) const SHUTTING_DOWN: &str = "shutting-down: the server is stopping.";
    /// The plain-text 400 axum gives a query string it cannot read.
    pub(crate) const BAD_QUERY: &str =
        "The query string cannot be read (plain text, not JSON: axum's own rejection).";
}

/// Defines a schema-only type: the JSON names of a type from a crate that
/// knows nothing of JSON (`rules`, `notation`) or of a type the server writes
/// as text, as a named string enum. The type has no values; fields name it
/// with `#[schema(value_type = ...)]`.
macro_rules! names {
    ($(#[doc = $doc:literal])+ $type:ident as $name:literal = $names:expr) => {
        $(#[doc = $doc])+
        pub(crate) enum $type {}

        impl PartialSchema for $type {
            fn schema() -> RefOr<Schema> {
                let description = [$($doc),+].map(str::trim).join(" ");
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some($names))
                    .description(Some(description))
                    .into()
            }
        }

        impl ToSchema for $type {
            fn name() -> Cow<'static, str> {
                $name.into()
            }
        }
    };
}

names!(
    /// A player in game-agnostic terms: `first` moves first from the usual
    /// start (Sente in shogi, Red in xiangqi); handicap games start with `second`.
    SideName as "Side" = [Side::First, Side::Second].map(Side::name)
);

names!(
    /// The game.
    VariantName as "Variant" = Variant::ALL.map(Variant::name)
);

names!(
    /// How a room is played: `online` (two devices, the second joins with the
    /// invitation link), `local` (both seats on one device, one token) or
    /// `computer` (one seat is the computer).
    ModeName as "Mode" = [Mode::Online, Mode::Local, Mode::Computer].map(Mode::name)
);

names!(
    /// Where a room's game stands: `waiting` (a seat is free), `playing`, or
    /// `finished` (the game has an outcome).
    StatusName as "Status" = [RoomStatus::Waiting, RoomStatus::Playing, RoomStatus::Finished]
        .map(RoomStatus::name)
);

names!(
    /// A record format: kif, ki2 and csa for the shogi family; pgn-wxf (or
    /// wxf, pgn) and pgn-iccs (or iccs), PGN-style records, for xiangqi; sfen
    /// (or fen, usi, position): a position line `sfen|fen <start> moves ...`
    /// for any game.
    RecordFormatName as "RecordFormat" = Format::ALL
        .map(Format::name)
        .into_iter()
        .chain(["fen", "usi", "position", "pgn", "wxf", "iccs"])
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flattened_part_is_spread_into_the_type_which_keeps_its_description() {
        let components = json!({"After": {
            "description": "What an event can change.",
            "type": "object",
            "properties": {"status": {"type": "string"}},
            "required": ["status"],
        }});
        let mut room = json!({
            "description": "The room.",
            "allOf": [
                {"$ref": "#/components/schemas/After"},
                {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
            ],
        });
        spread_all_of(&mut room, &components);
        assert_eq!(
            room,
            json!({
                "description": "The room.",
                "type": "object",
                "properties": {"status": {"type": "string"}, "id": {"type": "string"}},
                "required": ["status", "id"],
            })
        );
    }
}
