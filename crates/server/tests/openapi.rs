//! The OpenAPI document against the server it describes: real requests to
//! every route, each reply validated against the schema the document gives
//! for that route, method and status; the lines of the events stream and the
//! frames of both WebSockets against theirs. Every object of the document is
//! closed to the properties it names, so a field added, renamed or dropped in
//! a reply fails here until the schema says so too. Every documented status
//! is seen at least once, except the server errors (500, 503) no request can
//! cause.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{Client, Gated, TestServer};
use jsonschema::Validator;
use serde_json::{Value, json};
use server::Config;
use tokio_tungstenite::tungstenite;

/// The document, and what the requests have seen of it.
struct Contract {
    /// The document with every object closed (see [`close`]), the root each
    /// schema is compiled in so that its `#/components/...` refs resolve.
    document: Value,
    validators: Mutex<HashMap<String, Validator>>,
    /// (method, path template, status) of every reply checked.
    seen: Mutex<BTreeSet<(String, String, u16)>>,
}

/// Adds `additionalProperties: false` to every schema that lists
/// `properties` and says nothing of others.
fn close(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            if object.get("properties").is_some_and(Value::is_object)
                && !object.contains_key("additionalProperties")
            {
                object.insert("additionalProperties".to_owned(), json!(false));
            }
            object.values_mut().for_each(close);
        }
        Value::Array(items) => items.iter_mut().for_each(close),
        _ => {}
    }
}

/// `text` as a JSON pointer token.
fn escape(text: &str) -> String {
    text.replace('~', "~0").replace('/', "~1")
}

impl Contract {
    async fn of(server: &TestServer) -> Contract {
        let mut document = server.get("/api/v1/openapi.json").await;
        assert_eq!(document["openapi"], "3.1.0");
        close(&mut document);
        Contract {
            document,
            validators: Mutex::default(),
            seen: Mutex::default(),
        }
    }

    /// The documented path template `path` (without `/api/v1` and query) falls under.
    fn template(&self, path: &str) -> String {
        let segments: Vec<&str> = path.split('/').collect();
        let paths = self.document["paths"].as_object().unwrap();
        let matching: Vec<&String> = paths
            .keys()
            .filter(|template| {
                let parts: Vec<&str> = template.split('/').collect();
                parts.len() == segments.len()
                    && parts
                        .iter()
                        .zip(&segments)
                        .all(|(part, segment)| part.starts_with('{') || part == segment)
            })
            .collect();
        assert_eq!(matching.len(), 1, "{path} matches {matching:?}");
        matching[0].clone()
    }

    /// Validates `instance` against the schema at `pointer` in the document.
    fn validate(&self, pointer: &str, instance: &Value, what: &str) {
        let mut validators = self.validators.lock().unwrap();
        let validator = validators.entry(pointer.to_owned()).or_insert_with(|| {
            assert!(
                self.document.pointer(pointer).is_some(),
                "{what}: the document has no {pointer}"
            );
            let mut root = self.document.clone();
            root["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
            // A URI fragment: the braces of path templates percent-encoded.
            let fragment = pointer.replace('{', "%7B").replace('}', "%7D");
            root["$ref"] = json!(format!("#{fragment}"));
            jsonschema::draft202012::new(&root).unwrap()
        });
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|error| format!("{} at {}", error, error.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{what} does not match {pointer}:\n{}\n{instance:#}",
            errors.join("\n")
        );
    }

    /// Checks a reply of `method path` (the path as requested, under
    /// `/api/v1`, with its query) against the documented response.
    fn check(&self, method: &str, path: &str, status: u16, body: &Value) {
        let path = path.split('?').next().unwrap();
        let template = self.template(path);
        let method = method.to_ascii_lowercase();
        let response = format!("/paths/{}/{method}/responses/{status}", escape(&template));
        let what = format!("{method} {path} {status}");
        let documented = self
            .document
            .pointer(&response)
            .unwrap_or_else(|| panic!("{what} is not documented: {body}"));
        let content = documented["content"].as_object();
        let media = content.and_then(|content| content.keys().next().cloned());
        match media.as_deref() {
            Some("application/json") => {
                self.validate(
                    &format!("{response}/content/application~1json/schema"),
                    body,
                    &what,
                );
            }
            Some("application/x-ndjson") => {
                let text = body.as_str().unwrap_or_else(|| panic!("{what}: {body}"));
                for line in text.lines() {
                    let event: Value = serde_json::from_str(line).unwrap();
                    let schema = format!("{response}/content/application~1x-ndjson/schema");
                    self.validate(&schema, &event, &what);
                }
            }
            Some("text/plain") => {
                assert!(body.is_string(), "{what} is text, not JSON: {body}");
            }
            other => panic!("{what}: no body is documented, got {other:?} for {body}"),
        }
        self.seen.lock().unwrap().insert((method, template, status));
    }

    /// A frame of a room's WebSocket.
    fn room_frame(&self, frame: &Value) {
        self.validate(
            "/components/schemas/RoomFrame",
            frame,
            "a room socket frame",
        );
    }

    /// Sends a request, checks the reply and returns it.
    async fn call(
        &self,
        server: &TestServer,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let (status, reply) = server
            .request(method, &format!("/api/v1{path}"), token, body)
            .await;
        self.check(method, path, status, &reply);
        (status, reply)
    }

    /// The same with a body that is not JSON (or too large to build as JSON).
    async fn call_text(
        &self,
        server: &TestServer,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> (u16, Value) {
        let (status, text) = server
            .request_text(method, &format!("/api/v1{path}"), token, Some(body))
            .await;
        let reply = serde_json::from_str(&text).unwrap_or(Value::String(text));
        self.check(method, path, status, &reply);
        (status, reply)
    }

    /// Calls and asserts the status (and for errors, the code).
    async fn expect(
        &self,
        server: &TestServer,
        (method, path): (&str, &str),
        token: Option<&str>,
        body: Option<&Value>,
        (status, code): (u16, Option<&str>),
    ) -> Value {
        let (got, reply) = self.call(server, method, path, token, body).await;
        assert_eq!(got, status, "{method} {path}: {reply}");
        if code.is_some() {
            assert_eq!(reply["code"].as_str(), code, "{method} {path}: {reply}");
        }
        reply
    }

    /// The room JSON of `id`, checked.
    async fn room(&self, server: &TestServer, id: &str) -> Value {
        self.expect(
            server,
            ("GET", &format!("/rooms/{id}")),
            None,
            None,
            (200, None),
        )
        .await
    }

    /// Every documented status no request saw, besides 500 and 503.
    fn unseen(&self) -> Vec<String> {
        let seen = self.seen.lock().unwrap();
        let mut unseen = Vec::new();
        for (template, item) in self.document["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                for status in operation["responses"].as_object().unwrap().keys() {
                    let code: u16 = status.parse().unwrap();
                    let key = (method.clone(), template.clone(), code);
                    if code != 500 && code != 503 && !seen.contains(&key) {
                        unseen.push(format!("{method} {template} {code}"));
                    }
                }
            }
        }
        unseen
    }
}

/// A room socket whose every frame is checked.
struct Socket<'a> {
    client: Client,
    contract: &'a Contract,
}

impl Socket<'_> {
    /// The next frame of any type, checked.
    async fn next(&mut self) -> Value {
        let frame = self.client.next_any().await;
        self.contract.room_frame(&frame);
        frame
    }

    /// The next frame of type `kind`, checking every frame on the way.
    async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let frame = self.next().await;
            if frame["type"] == kind {
                return frame;
            }
        }
    }
}

/// Notes that the handshake of `template` switched protocols.
fn switched(contract: &Contract, template: &str) {
    let key = ("get".to_owned(), template.to_owned(), 101);
    contract.seen.lock().unwrap().insert(key);
}

async fn socket<'a>(
    contract: &'a Contract,
    server: &TestServer,
    id: &str,
    query: &str,
) -> Socket<'a> {
    let client = server.ws_open(id, query).await;
    switched(contract, "/rooms/{id}/ws");
    let mut socket = Socket { client, contract };
    assert_eq!(socket.next().await["type"], "welcome");
    socket
}

/// A WebSocket handshake the server refuses: its status and JSON body, checked.
async fn refused_socket(contract: &Contract, server: &TestServer, path: &str) -> (u16, Value) {
    let url = format!("ws://{}/api/v1{path}", server.addr);
    let Err(tungstenite::Error::Http(response)) = tokio_tungstenite::connect_async(url).await
    else {
        panic!("{path} was accepted");
    };
    let status = response.status().as_u16();
    let body = response.body().clone().unwrap_or_default();
    let body: Value = serde_json::from_slice(&body).unwrap();
    contract.check("GET", path, status, &body);
    (status, body)
}

/// Both kings in their enemy camps, every other piece in the first player's
/// hand: the first player's 24-point claim wins.
const IMPASSE: &str = "4K4/9/9/9/9/9/9/9/4k4 b 2R2B4G4S4N4L18P 1";

#[tokio::test]
async fn every_route_answers_as_the_document_says() {
    // The computer plays the first legal move; analyses wait for the gate.
    let gate = Arc::new(Gated::closed());
    let server = TestServer::start_computer(Config::default(), gate.clone()).await;
    let contract = Contract::of(&server).await;
    rooms_in_every_state(&contract, &server).await;
    seat_actions_and_their_refusals(&contract, &server).await;
    events_records_and_sockets(&contract, &server).await;
    players_lobby_and_stats(&contract, &server).await;
    analyses(&contract, &server, &gate).await;
    server.stop().await;

    // Limits: a body too large, and too many rooms from one device.
    let config = Config {
        max_message_bytes: 1024,
        rooms_per_device_per_hour: 1,
        ..Config::default()
    };
    let server = TestServer::start_config(config).await;
    limits(&contract, &server).await;
    server.stop().await;

    let unseen = contract.unseen();
    assert!(unseen.is_empty(), "never seen: {unseen:#?}");
}

/// Creates a room; returns (id, token).
async fn create(contract: &Contract, server: &TestServer, body: Value) -> (String, String) {
    let created = contract
        .expect(server, ("POST", "/rooms"), None, Some(&body), (201, None))
        .await;
    (
        created["id"].as_str().unwrap().to_owned(),
        created["token"].as_str().unwrap().to_owned(),
    )
}

/// Joins `id`; returns the token.
async fn join(contract: &Contract, server: &TestServer, id: &str) -> String {
    let path = format!("/rooms/{id}/join");
    let joined = contract
        .expect(
            server,
            ("POST", &path),
            None,
            Some(&json!({"name": "Bo"})),
            (200, None),
        )
        .await;
    joined["token"].as_str().unwrap().to_owned()
}

async fn play(contract: &Contract, server: &TestServer, id: &str, token: &str, mv: &str) -> Value {
    let path = format!("/rooms/{id}/moves");
    let body = json!({"move": mv});
    contract
        .expect(
            server,
            ("POST", &path),
            Some(token),
            Some(&body),
            (200, None),
        )
        .await
}

async fn act(
    contract: &Contract,
    server: &TestServer,
    (id, action): (&str, &str),
    token: Option<&str>,
    expected: (u16, Option<&str>),
) -> Value {
    let path = format!("/rooms/{id}/{action}");
    contract
        .expect(server, ("POST", &path), token, None, expected)
        .await
}

/// The room JSON waiting, playing and finished; local, online and computer;
/// with and without clocks; in every variant.
async fn rooms_in_every_state(contract: &Contract, server: &TestServer) {
    let clocks = [
        json!({}),
        json!({"time_per_move": 30}),
        json!({"main_time": 60, "time_per_move": 10}),
    ];
    for (variant, settings) in ["shogi", "minishogi", "annan", "xiangqi"]
        .into_iter()
        .zip(clocks.iter().cycle())
    {
        let body =
            json!({"variant": variant, "mode": "online", "settings": settings, "name": "Ann"});
        let (id, first) = create(contract, server, body).await;
        assert_eq!(contract.room(server, &id).await["status"], "waiting");
        let second = join(contract, server, &id).await;
        let room = contract.room(server, &id).await;
        assert_eq!(room["status"], "playing");
        let mv = room["legal_moves"][0].as_str().unwrap().to_owned();
        play(contract, server, &id, &first, &mv).await;
        contract.room(server, &id).await;
        act(
            contract,
            server,
            (&id, "resign"),
            Some(&second),
            (200, None),
        )
        .await;
        assert_eq!(contract.room(server, &id).await["status"], "finished");
    }
    for settings in &clocks {
        let body = json!({"variant": "shogi", "mode": "local", "settings": settings});
        let (id, token) = create(contract, server, body).await;
        play(contract, server, &id, &token, "7g7f").await;
        play(contract, server, &id, &token, "3c3d").await;
        assert_eq!(contract.room(server, &id).await["mode"], "local");
        let body = json!({"variant": "xiangqi", "mode": "computer", "level": 2, "seat": "second", "settings": settings});
        let (id, _) = create(contract, server, body).await;
        assert_eq!(contract.room(server, &id).await["mode"], "computer");
    }
    // A handicap game and a study position.
    let body = json!({"mode": "local", "settings": {"handicap": "two"}});
    let (id, _) = create(contract, server, body).await;
    contract.room(server, &id).await;
    let body = json!({"mode": "local", "position": IMPASSE});
    let (id, token) = create(contract, server, body).await;
    act(
        contract,
        server,
        (&id, "impasse"),
        Some(&token),
        (200, None),
    )
    .await;
    assert_eq!(contract.room(server, &id).await["status"], "finished");

    let missing = "0".repeat(32);
    let room = ("GET", format!("/rooms/{missing}"));
    contract
        .expect(
            server,
            (room.0, &room.1),
            None,
            None,
            (404, Some("room-not-found")),
        )
        .await;
    let bad = json!({"variant": "chess"});
    contract
        .expect(
            server,
            ("POST", "/rooms"),
            None,
            Some(&bad),
            (422, Some("bad-request")),
        )
        .await;
    let no_credential = json!({"player": "someone"});
    contract
        .expect(
            server,
            ("POST", "/rooms"),
            None,
            Some(&no_credential),
            (401, Some("missing-credential")),
        )
        .await;
    let wrong_credential = json!({"player": "someone", "player_secret": "guess"});
    contract
        .expect(
            server,
            ("POST", "/rooms"),
            None,
            Some(&wrong_credential),
            (403, Some("wrong-credential")),
        )
        .await;
}

/// Every action of a seat, its replies, and each refusal it documents.
async fn seat_actions_and_their_refusals(contract: &Contract, server: &TestServer) {
    let body = json!({"variant": "shogi", "mode": "online"});
    let (id, first) = create(contract, server, body).await;
    let missing = "0".repeat(32);

    // Waiting for a player: nothing may be played yet.
    for action in [
        "moves",
        "resign",
        "draw",
        "impasse",
        "rematch",
        "takeback",
        "takeback/decline",
        "analysis/agree",
    ] {
        let path = format!("/rooms/{id}/{action}");
        let body = (action == "moves").then(|| json!({"move": "7g7f"}));
        contract
            .expect(
                server,
                ("POST", &path),
                None,
                body.as_ref(),
                (401, Some("missing-token")),
            )
            .await;
        contract
            .expect(
                server,
                ("POST", &path),
                Some("nope"),
                body.as_ref(),
                (403, Some("wrong-token")),
            )
            .await;
        contract
            .expect(
                server,
                ("POST", &path),
                Some(&first),
                body.as_ref(),
                (409, None),
            )
            .await;
        let path = format!("/rooms/{missing}/{action}");
        contract
            .expect(
                server,
                ("POST", &path),
                Some(&first),
                body.as_ref(),
                (404, Some("room-not-found")),
            )
            .await;
    }

    let second = join(contract, server, &id).await;
    let join_path = format!("/rooms/{id}/join");
    contract
        .expect(
            server,
            ("POST", &join_path),
            None,
            None,
            (409, Some("no-free-seat")),
        )
        .await;
    let unknown_field = json!({"colour": "red"});
    contract
        .expect(
            server,
            ("POST", &join_path),
            None,
            Some(&unknown_field),
            (422, Some("bad-request")),
        )
        .await;
    let no_credential = json!({"player": "someone"});
    contract
        .expect(
            server,
            ("POST", &join_path),
            None,
            Some(&no_credential),
            (401, Some("missing-credential")),
        )
        .await;
    let wrong_credential = json!({"player": "someone", "player_secret": "guess"});
    contract
        .expect(
            server,
            ("POST", &join_path),
            None,
            Some(&wrong_credential),
            (403, Some("wrong-credential")),
        )
        .await;
    let join_missing = format!("/rooms/{missing}/join");
    contract
        .expect(
            server,
            ("POST", &join_missing),
            None,
            None,
            (404, Some("room-not-found")),
        )
        .await;

    // Moves: a bad text, an illegal one, one out of turn, then legal ones.
    let moves = format!("/rooms/{id}/moves");
    for (mv, code) in [("hello", "bad-move-text"), ("7g7e", "illegal-move")] {
        let body = json!({"move": mv});
        let reply = contract
            .expect(
                server,
                ("POST", &moves),
                Some(&first),
                Some(&body),
                (422, None),
            )
            .await;
        assert!(reply["code"].as_str().is_some(), "{code}: {reply}");
    }
    let body = json!({"move": "3c3d"});
    contract
        .expect(
            server,
            ("POST", &moves),
            Some(&second),
            Some(&body),
            (409, Some("not-your-turn")),
        )
        .await;
    let ply = play(contract, server, &id, &first, "7g7f").await;
    assert_eq!(ply["ply"], 1);

    // A takeback: declined when nobody asked, asked, declined, asked again and accepted.
    let nothing_asked = (409, Some("no-takeback"));
    act(
        contract,
        server,
        (&id, "takeback/decline"),
        Some(&second),
        nothing_asked,
    )
    .await;
    let asked = act(
        contract,
        server,
        (&id, "takeback"),
        Some(&first),
        (200, None),
    )
    .await;
    assert_eq!(asked["takeback"], "offered");
    assert_eq!(contract.room(server, &id).await["takeback_offer"], "first");
    let declined = act(
        contract,
        server,
        (&id, "takeback/decline"),
        Some(&second),
        (200, None),
    )
    .await;
    assert_eq!(declined["takeback"], "declined");
    act(
        contract,
        server,
        (&id, "takeback"),
        Some(&first),
        (200, None),
    )
    .await;
    let agreed = act(
        contract,
        server,
        (&id, "takeback"),
        Some(&second),
        (200, None),
    )
    .await;
    assert_eq!(agreed, json!({"takeback": "agreed", "ply": 0}));
    assert_eq!(contract.room(server, &id).await["moves"], json!([]));
    act(
        contract,
        server,
        (&id, "takeback"),
        Some(&first),
        nothing_asked,
    )
    .await;
    play(contract, server, &id, &first, "7g7f").await;

    // Analysing the game being played: asked, then agreed; never when rated.
    let asked = act(
        contract,
        server,
        (&id, "analysis/agree"),
        Some(&first),
        (200, None),
    )
    .await;
    assert_eq!(asked, json!({"analysis": "offered"}));
    let agreed = act(
        contract,
        server,
        (&id, "analysis/agree"),
        Some(&second),
        (200, None),
    )
    .await;
    assert_eq!(agreed, json!({"analysis": "agreed"}));
    assert_eq!(contract.room(server, &id).await["analysable"], true);
    let body = json!({"variant": "shogi", "mode": "online", "settings": {"rated": true}});
    let (rated, rated_first) = create(contract, server, body).await;
    join(contract, server, &rated).await;
    act(
        contract,
        server,
        (&rated, "analysis/agree"),
        Some(&rated_first),
        (409, Some("rated-game")),
    )
    .await;

    // Quick chat: a phrase, one too soon after it, an unknown one; no seat, no chat.
    let chat = format!("/rooms/{id}/chat");
    let good_luck = json!({"phrase": "good_luck"});
    let said = contract
        .expect(
            server,
            ("POST", &chat),
            Some(&second),
            Some(&good_luck),
            (200, None),
        )
        .await;
    assert_eq!(said, json!({"phrase": "good_luck"}));
    let again = (429, Some("too-many"));
    contract
        .expect(
            server,
            ("POST", &chat),
            Some(&second),
            Some(&good_luck),
            again,
        )
        .await;
    let unknown = json!({"phrase": "you_will_lose"});
    let bad = (422, Some("bad-request"));
    contract
        .expect(server, ("POST", &chat), Some(&first), Some(&unknown), bad)
        .await;
    for (token, expected) in [
        (None, (401, Some("missing-token"))),
        (Some("nope"), (403, Some("wrong-token"))),
    ] {
        contract
            .expect(server, ("POST", &chat), token, Some(&good_luck), expected)
            .await;
    }
    let chat_missing = format!("/rooms/{missing}/chat");
    contract
        .expect(
            server,
            ("POST", &chat_missing),
            Some(&first),
            Some(&good_luck),
            (404, Some("room-not-found")),
        )
        .await;
    let quiet = json!({"variant": "shogi", "mode": "online", "settings": {"chat": false}});
    let (quiet_id, quiet_first) = create(contract, server, quiet).await;
    let quiet_chat = format!("/rooms/{quiet_id}/chat");
    contract
        .expect(
            server,
            ("POST", &quiet_chat),
            Some(&quiet_first),
            Some(&good_luck),
            (409, Some("chat-off")),
        )
        .await;
    act(
        contract,
        server,
        (&id, "impasse"),
        Some(&second),
        (422, Some("impasse-refused")),
    )
    .await;
    act(
        contract,
        server,
        (&id, "rematch"),
        Some(&second),
        (409, Some("not-playing")),
    )
    .await;

    // A draw offered, withdrawn by a move, offered again and agreed.
    let offered = act(contract, server, (&id, "draw"), Some(&second), (200, None)).await;
    assert_eq!(offered["draw"], "offered");
    play(contract, server, &id, &second, "3c3d").await;
    act(contract, server, (&id, "draw"), Some(&first), (200, None)).await;
    let agreed = act(contract, server, (&id, "draw"), Some(&second), (200, None)).await;
    assert_eq!(agreed["draw"], "agreed");
    act(
        contract,
        server,
        (&id, "resign"),
        Some(&first),
        (409, Some("not-playing")),
    )
    .await;

    // A rematch: asked, then agreed.
    let asked = act(
        contract,
        server,
        (&id, "rematch"),
        Some(&first),
        (200, None),
    )
    .await;
    assert_eq!(asked["rematch"], "offered");
    let started = act(
        contract,
        server,
        (&id, "rematch"),
        Some(&second),
        (200, None),
    )
    .await;
    assert_eq!(started["rematch"], "started");
    contract.room(server, &id).await;

    // Renaming a seat.
    let name = format!("/rooms/{id}/name");
    let body = json!({"name": "  Ann  "});
    let renamed = contract
        .expect(
            server,
            ("PUT", &name),
            Some(&first),
            Some(&body),
            (200, None),
        )
        .await;
    assert_eq!(renamed["name"], "Ann");
    contract
        .expect(
            server,
            ("PUT", &name),
            None,
            Some(&body),
            (401, Some("missing-token")),
        )
        .await;
    contract
        .expect(
            server,
            ("PUT", &name),
            Some("nope"),
            Some(&body),
            (403, Some("wrong-token")),
        )
        .await;
    let bad_seat = json!({"name": "Ann", "seat": "third"});
    contract
        .expect(
            server,
            ("PUT", &name),
            Some(&first),
            Some(&bad_seat),
            (422, Some("bad-request")),
        )
        .await;
    let name_missing = format!("/rooms/{missing}/name");
    contract
        .expect(
            server,
            ("PUT", &name_missing),
            Some(&first),
            Some(&body),
            (404, Some("room-not-found")),
        )
        .await;
}

/// The events stream, records (a room's, and imported ones) and both WebSockets.
async fn events_records_and_sockets(contract: &Contract, server: &TestServer) {
    let body = json!({"variant": "shogi", "mode": "online", "settings": {"time_per_move": 30}});
    let (id, first) = create(contract, server, body).await;
    let second = join(contract, server, &id).await;
    let missing = "0".repeat(32);

    // The room's socket: welcome, presence, events, acks, errors and pongs.
    let mut watcher = socket(contract, server, &id, "since=0").await;
    let mut player = socket(contract, server, &id, &format!("token={first}")).await;
    player
        .client
        .send(json!({"type": "ping", "request_id": 1}))
        .await;
    assert_eq!(player.next_of("pong").await["request_id"], 1);
    player
        .client
        .send(json!({"type": "move", "move": "7g7f", "request_id": "a"}))
        .await;
    assert_eq!(player.next_of("ack").await["ply"], 1);
    player
        .client
        .send(json!({"type": "move", "move": "3c3d"}))
        .await;
    assert_eq!(player.next_of("error").await["code"], "not-your-turn");
    player.client.send_raw("not json".to_owned()).await;
    assert_eq!(player.next_of("error").await["code"], "bad-request");
    for (kind, reply) in [("draw", "ack"), ("impasse", "error")] {
        player
            .client
            .send(json!({"type": kind, "request_id": kind}))
            .await;
        assert_eq!(player.next_of(reply).await["request_id"], kind);
    }
    play(contract, server, &id, &second, "3c3d").await;
    player.client.send(json!({"type": "takeback"})).await;
    player.next_of("ack").await;
    watcher.next_of("takeback_offered").await;
    player.client.send(json!({"type": "agree_analysis"})).await;
    assert_eq!(player.next_of("ack").await["analysis"], "offered");
    watcher.next_of("analysis_offered").await;
    player
        .client
        .send(json!({"type": "chat", "phrase": "oops"}))
        .await;
    assert_eq!(player.next_of("ack").await["phrase"], "oops");
    assert_eq!(watcher.next_of("chat").await["phrase"], "oops");
    player.client.send(json!({"type": "resign"})).await;
    player.next_of("ack").await;
    player.client.send(json!({"type": "rematch"})).await;
    player.next_of("ack").await;
    // Every numbered event and presence frame the watcher got on the way.
    watcher.next_of("rematch_offered").await;
    player.client.close().await;
    watcher.client.close().await;

    // The same events on the stream, each line checked.
    let events = format!("/rooms/{id}/events?follow=false");
    let (status, lines) = contract.call(server, "GET", &events, None, None).await;
    assert_eq!(status, 200);
    assert!(lines.as_str().unwrap().lines().count() >= 7, "{lines}");
    let bad_since = format!("/rooms/{id}/events?follow=false&since=soon");
    assert_eq!(
        contract.call(server, "GET", &bad_since, None, None).await.0,
        400
    );
    let wrong_token = format!("/rooms/{id}/events?follow=false&token=nope");
    contract
        .expect(
            server,
            ("GET", &wrong_token),
            None,
            None,
            (403, Some("wrong-token")),
        )
        .await;
    let events_missing = format!("/rooms/{missing}/events?follow=false");
    contract
        .expect(
            server,
            ("GET", &events_missing),
            None,
            None,
            (404, Some("room-not-found")),
        )
        .await;

    // The socket's handshake refused, and a request that is no handshake.
    let (status, _) = refused_socket(contract, server, &format!("/rooms/{id}/ws?token=nope")).await;
    assert_eq!(status, 403);
    let (status, _) = refused_socket(contract, server, &format!("/rooms/{missing}/ws")).await;
    assert_eq!(status, 404);
    for path in [format!("/rooms/{id}/ws"), "/lobby/ws".to_owned()] {
        assert_eq!(contract.call(server, "GET", &path, None, None).await.0, 400);
    }

    // The room's record in every format it can be written in.
    for format in [
        "",
        "?format=kif",
        "?format=ki2",
        "?format=csa",
        "?format=sfen",
    ] {
        let path = format!("/rooms/{id}/record{format}");
        let (status, text) = contract.call(server, "GET", &path, None, None).await;
        assert_eq!(status, 200, "{path}: {text}");
    }
    let record = format!("/rooms/{id}/record?format=pgn-iccs");
    contract
        .expect(
            server,
            ("GET", &record),
            None,
            None,
            (422, Some("bad-request")),
        )
        .await;
    let record = format!("/rooms/{id}/record?format=kif&format=csa");
    assert_eq!(
        contract.call(server, "GET", &record, None, None).await.0,
        400
    );
    let record = format!("/rooms/{missing}/record");
    contract
        .expect(
            server,
            ("GET", &record),
            None,
            None,
            (404, Some("room-not-found")),
        )
        .await;

    // Records read for replaying: a finished shogi game, a xiangqi PGN, a
    // position line with the rules in the query, and a broken one.
    let kif = "手合割：平手\n先手：Ann\n後手：Bo\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n";
    let pgn =
        "[Red \"Ann\"]\n[Black \"Bo\"]\n[Result \"0-1\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 0-1\n";
    for (query, text) in [
        ("", kif),
        ("", pgn),
        (
            "?variant=annan&annan_setup=traditional",
            "startpos moves 7g7f",
        ),
        ("?variant=shogi", "startpos"),
    ] {
        let path = format!("/records{query}");
        let (status, game) = contract.call_text(server, "POST", &path, None, text).await;
        assert_eq!(status, 200, "{path}: {game}");
    }
    let (status, error) = contract
        .call_text(server, "POST", "/records", None, "V2.2\nPI\n+\n+7776FX\n")
        .await;
    assert_eq!((status, error["code"].as_str()), (422, Some("bad-record")));
    let big = "x".repeat(2 << 20);
    let (status, error) = contract
        .call_text(server, "POST", "/records", None, &big)
        .await;
    assert_eq!((status, error["code"].as_str()), (413, Some("too-large")));
}

/// Players, their names and ratings, the lobby (and its socket), statistics
/// and the document itself.
async fn players_lobby_and_stats(contract: &Contract, server: &TestServer) {
    let body = json!({"variant": "minishogi", "mode": "online", "name": "Ann"});
    let created = contract
        .expect(server, ("POST", "/rooms"), None, Some(&body), (201, None))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let ann = created["player"].as_str().unwrap().to_owned();
    let secret = created["player_secret"].as_str().unwrap().to_owned();
    let lobby = contract
        .expect(server, ("GET", "/lobby"), None, None, (200, None))
        .await;
    assert!(
        lobby["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|room| room["id"] == id)
    );
    let url = format!("ws://{}/api/v1/lobby/ws", server.addr);
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    switched(contract, "/lobby/ws");
    let frame = loop {
        use futures_util::StreamExt;
        if let tungstenite::Message::Text(text) = socket.next().await.unwrap().unwrap() {
            break serde_json::from_str::<Value>(text.as_str()).unwrap();
        }
    };
    contract.validate("/components/schemas/Lobby", &frame, "a lobby socket frame");
    drop(socket);

    contract
        .expect(server, ("GET", "/stats"), None, None, (200, None))
        .await;

    let player = contract
        .expect(
            server,
            ("GET", &format!("/players/{ann}")),
            None,
            None,
            (200, None),
        )
        .await;
    assert_eq!(player["name"], "Ann");
    contract
        .expect(
            server,
            ("GET", "/players/nobody"),
            None,
            None,
            (404, Some("player-not-found")),
        )
        .await;
    let body = json!({"name": "Annie"});
    let ann_path = format!("/players/{ann}");
    contract
        .expect(
            server,
            ("PUT", &ann_path),
            Some(&secret),
            Some(&body),
            (200, None),
        )
        .await;
    contract
        .expect(
            server,
            ("PUT", &ann_path),
            None,
            Some(&body),
            (401, Some("missing-credential")),
        )
        .await;
    contract
        .expect(
            server,
            ("PUT", &ann_path),
            Some("not-the-secret"),
            Some(&body),
            (403, Some("wrong-credential")),
        )
        .await;
    contract
        .expect(
            server,
            ("PUT", &ann_path),
            Some(&secret),
            Some(&json!({})),
            (422, Some("bad-request")),
        )
        .await;

    // "My games": Ann's own list, with her credential only.
    let games_path = format!("/players/{ann}/games");
    let games = contract
        .expect(
            server,
            ("GET", &games_path),
            Some(&secret),
            None,
            (200, None),
        )
        .await;
    assert_eq!(games["games"][0]["room"], id.as_str());
    assert_eq!(games["games"][0]["opponent"], Value::Null);
    assert_eq!(games["more"], false);
    for (token, expected) in [
        (None, (401, Some("missing-credential"))),
        (Some("not-the-secret"), (403, Some("wrong-credential"))),
    ] {
        contract
            .expect(server, ("GET", &games_path), token, None, expected)
            .await;
    }
    let too_many = format!("{games_path}?limit=51");
    contract
        .expect(
            server,
            ("GET", &too_many),
            Some(&secret),
            None,
            (422, Some("bad-request")),
        )
        .await;
    let not_a_number = format!("{games_path}?limit=many");
    let (status, _) = contract
        .call(server, "GET", &not_a_number, Some(&secret), None)
        .await;
    assert_eq!(status, 400);

    let (status, _) = contract
        .call(server, "GET", "/openapi.json", None, None)
        .await;
    assert_eq!(status, 200);
}

/// 413 of every route with a JSON body, and 429.
/// A local room whose game the first player mates at once: (id, path of its analysis).
async fn mated_room(contract: &Contract, server: &TestServer, mate: bool) -> (String, String) {
    let body = json!({"variant": "shogi", "mode": "local",
                      "position": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"});
    let (id, token) = create(contract, server, body).await;
    if mate {
        play(contract, server, &id, &token, "G*5b").await;
    }
    let path = format!("/rooms/{id}/analysis");
    (id, path)
}

/// Analyses, standalone and of a room's game: queued, running, done and
/// kept, and each refusal.
async fn analyses(contract: &Contract, server: &TestServer, gate: &Gated) {
    let (_, playing) = mated_room(contract, server, false).await;
    contract
        .expect(
            server,
            ("POST", &playing),
            None,
            None,
            (409, Some("game-not-over")),
        )
        .await;
    let (_, room) = mated_room(contract, server, true).await;
    contract
        .expect(
            server,
            ("POST", &room),
            None,
            Some(&json!({"movetime_ms": 0})),
            (422, Some("bad-request")),
        )
        .await;
    let started = contract
        .expect(server, ("POST", &room), None, None, (202, None))
        .await;
    let of_room = format!("/analysis/{}", started["id"].as_str().unwrap());
    let queued = contract
        .expect(server, ("GET", &of_room), None, None, (200, None))
        .await;
    assert_eq!(queued["status"], "queued");
    let body = json!({"variant": "xiangqi", "moves": ["h2e2"], "movetime_ms": 10});
    let started = contract
        .expect(
            server,
            ("POST", "/analysis"),
            None,
            Some(&body),
            (202, None),
        )
        .await;
    let standalone = format!("/analysis/{}", started["id"].as_str().unwrap());
    // Two queued or running from this address: no third, on either route.
    contract
        .expect(
            server,
            ("POST", "/analysis"),
            None,
            Some(&body),
            (429, Some("too-many")),
        )
        .await;
    let (_, other_room) = mated_room(contract, server, true).await;
    contract
        .expect(
            server,
            ("POST", &other_room),
            None,
            None,
            (429, Some("too-many")),
        )
        .await;
    let illegal = json!({"variant": "xiangqi", "moves": ["h2e2", "h2e2"]});
    contract
        .expect(
            server,
            ("POST", "/analysis"),
            None,
            Some(&illegal),
            (422, None),
        )
        .await;
    gate.open.store(true, Ordering::SeqCst);
    for path in [&of_room, &standalone] {
        loop {
            let analysis = contract
                .expect(server, ("GET", path), None, None, (200, None))
                .await;
            if analysis["status"] == "done" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    let kept = contract
        .expect(server, ("POST", &room), None, None, (200, None))
        .await;
    assert_eq!(kept["status"], "done");
    let nowhere = format!("/analysis/{}", "0".repeat(32));
    contract
        .expect(
            server,
            ("GET", &nowhere),
            None,
            None,
            (404, Some("analysis-not-found")),
        )
        .await;
    let no_room = format!("/rooms/{}/analysis", "0".repeat(32));
    contract
        .expect(
            server,
            ("POST", &no_room),
            None,
            None,
            (404, Some("room-not-found")),
        )
        .await;
}

async fn limits(contract: &Contract, server: &TestServer) {
    let big = json!({"name": "x".repeat(2000)});
    contract
        .expect(
            server,
            ("POST", "/rooms"),
            None,
            Some(&big),
            (413, Some("too-large")),
        )
        .await;
    let (id, first) = create(contract, server, json!({"variant": "shogi"})).await;
    contract
        .expect(
            server,
            ("POST", "/rooms"),
            None,
            Some(&json!({})),
            (429, Some("too-many")),
        )
        .await;
    let join = format!("/rooms/{id}/join");
    let (status, _) = contract.call(server, "POST", &join, None, Some(&big)).await;
    assert_eq!(status, 413);
    let analysis = format!("/rooms/{id}/analysis");
    let (status, _) = contract
        .call(server, "POST", &analysis, None, Some(&big))
        .await;
    assert_eq!(status, 413);
    let long = json!({"variant": "shogi", "moves": vec!["7g7f"; 300]});
    contract
        .expect(
            server,
            ("POST", "/analysis"),
            None,
            Some(&long),
            (413, Some("too-large")),
        )
        .await;
    let big_move = json!({"move": "x".repeat(2000)});
    let moves = format!("/rooms/{id}/moves");
    contract
        .expect(
            server,
            ("POST", &moves),
            Some(&first),
            Some(&big_move),
            (413, Some("too-large")),
        )
        .await;
    let chat = format!("/rooms/{id}/chat");
    let big_phrase = json!({"phrase": "x".repeat(2000)});
    contract
        .expect(
            server,
            ("POST", &chat),
            Some(&first),
            Some(&big_phrase),
            (413, Some("too-large")),
        )
        .await;
    let name = format!("/rooms/{id}/name");
    contract
        .expect(
            server,
            ("PUT", &name),
            Some(&first),
            Some(&big),
            (413, Some("too-large")),
        )
        .await;
    contract
        .expect(
            server,
            ("PUT", "/players/ann-1"),
            None,
            Some(&big),
            (413, Some("too-large")),
        )
        .await;
}

/// Every route the router serves is in the document, and every documented
/// operation is served (a route the router lacks answers 404 or 405 with no
/// JSON body).
#[tokio::test]
async fn the_document_names_every_route_and_the_router_serves_each() {
    let server = TestServer::start().await;
    let document = server.get("/api/v1/openapi.json").await;
    let mut operations: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        operations.insert(
            path.clone(),
            item.as_object().unwrap().keys().cloned().collect(),
        );
    }
    let routes: BTreeMap<String, Vec<String>> = [
        ("/analysis", vec!["post"]),
        ("/analysis/{id}", vec!["get"]),
        ("/lobby", vec!["get"]),
        ("/lobby/ws", vec!["get"]),
        ("/openapi.json", vec!["get"]),
        ("/players/{id}", vec!["get", "put"]),
        ("/players/{id}/games", vec!["get"]),
        ("/records", vec!["post"]),
        ("/rooms", vec!["post"]),
        ("/rooms/{id}", vec!["get"]),
        ("/rooms/{id}/analysis", vec!["post"]),
        ("/rooms/{id}/analysis/agree", vec!["post"]),
        ("/rooms/{id}/chat", vec!["post"]),
        ("/rooms/{id}/draw", vec!["post"]),
        ("/rooms/{id}/events", vec!["get"]),
        ("/rooms/{id}/impasse", vec!["post"]),
        ("/rooms/{id}/join", vec!["post"]),
        ("/rooms/{id}/moves", vec!["post"]),
        ("/rooms/{id}/name", vec!["put"]),
        ("/rooms/{id}/record", vec!["get"]),
        ("/rooms/{id}/rematch", vec!["post"]),
        ("/rooms/{id}/resign", vec!["post"]),
        ("/rooms/{id}/takeback", vec!["post"]),
        ("/rooms/{id}/takeback/decline", vec!["post"]),
        ("/rooms/{id}/ws", vec!["get"]),
        ("/stats", vec!["get"]),
    ]
    .into_iter()
    .map(|(path, methods)| {
        (
            path.to_owned(),
            methods.into_iter().map(str::to_owned).collect(),
        )
    })
    .collect();
    assert_eq!(operations, routes);
    for (path, methods) in &operations {
        let path = path.replace("{id}", &"0".repeat(32));
        for method in methods {
            let method = method.to_ascii_uppercase();
            let (status, body) = server
                .request(&method, &format!("/api/v1{path}"), None, None)
                .await;
            assert!(
                !matches!(status, 404 | 405) || body.is_object(),
                "{method} {path} is not served: {status} {body}"
            );
        }
    }
    server.stop().await;
}
