//! The browser's JSDoc types of the room and of analyses (`web/js/room/types.js`) against the
//! OpenAPI document the server generates: each typedef the page reads a reply
//! or a frame through must have the schema's properties, no others, with the
//! same types, the same `null`s and the same string values. A field renamed,
//! added or dropped on either side fails here.
//!
//! Both sides are brought to one small type language ([`Type`]): the JSDoc
//! type expressions by a parser for the subset types.js writes, the schemas
//! by following their `$ref`s, `oneOf`s and enums.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::TestServer;
use serde_json::Value;

/// A JSON value's type, as both sides can state it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Type {
    /// Anything (`unknown`; a schema without a type).
    Any,
    Null,
    Boolean,
    Number,
    /// A string: one of the values given, or any string when `None`.
    String(Option<BTreeSet<String>>),
    Array(Box<Type>),
    /// An object: each property's type and whether it is always there.
    Object(BTreeMap<String, (Type, bool)>),
    /// One of several (never nested, at most one `String`, sorted).
    Union(Vec<Type>),
}

impl Type {
    /// The union of `members`, flattened and with its strings merged.
    fn union(members: impl IntoIterator<Item = Type>) -> Type {
        let mut flat = BTreeSet::new();
        let mut strings: Option<Option<BTreeSet<String>>> = None;
        let mut stack: Vec<Type> = members.into_iter().collect();
        while let Some(member) = stack.pop() {
            match member {
                Type::Union(inner) => stack.extend(inner),
                Type::String(values) => {
                    strings = Some(match (strings, values) {
                        (Some(Some(mut known)), Some(more)) => {
                            known.extend(more);
                            Some(known)
                        }
                        (None, values) => values,
                        _ => None,
                    });
                }
                other => {
                    flat.insert(other);
                }
            }
        }
        if let Some(values) = strings {
            flat.insert(Type::String(values));
        }
        let mut members: Vec<Type> = flat.into_iter().collect();
        if members.len() == 1 {
            members.remove(0)
        } else {
            Type::Union(members)
        }
    }

    /// `self & other` for objects and unions of objects.
    fn intersect(self, other: Type) -> Type {
        match (self, other) {
            (Type::Union(members), other) => Type::union(
                members
                    .into_iter()
                    .map(|member| member.intersect(other.clone())),
            ),
            (one, Type::Union(members)) => Type::union(
                members
                    .into_iter()
                    .map(|member| one.clone().intersect(member)),
            ),
            (Type::Object(mut one), Type::Object(other)) => {
                one.extend(other);
                Type::Object(one)
            }
            (one, other) => panic!("cannot intersect {one:?} and {other:?}"),
        }
    }
}

/// The typedefs of a JSDoc file: name → type expression, and the
/// `@property` lines of `{object}` typedefs.
struct Typedefs {
    expressions: BTreeMap<String, String>,
    properties: BTreeMap<String, Vec<(String, String)>>,
}

/// Reads `{...}` (braces balanced) at the start of `text`; returns the inside
/// and the rest.
fn braced(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    assert!(text.starts_with('{'), "expected a type in braces: {text}");
    let mut depth = 0;
    for (index, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return (&text[1..index], &text[index + 1..]);
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced braces: {text}");
}

/// The first word of `text` (a name, possibly `[optional]`).
fn word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

impl Typedefs {
    fn read(source: &str) -> Typedefs {
        let mut typedefs = Typedefs {
            expressions: BTreeMap::new(),
            properties: BTreeMap::new(),
        };
        for block in source.split("/**").skip(1) {
            let block = block.split("*/").next().unwrap();
            let text: String = block
                .lines()
                .map(|line| line.trim_start().trim_start_matches('*'))
                .collect::<Vec<_>>()
                .join("\n");
            let Some((_, typedef)) = text.split_once("@typedef") else {
                continue;
            };
            let (expression, rest) = braced(typedef);
            let name = word(rest).to_owned();
            let mut properties = Vec::new();
            for property in rest.split("@property").skip(1) {
                let (expression, rest) = braced(property);
                properties.push((word(rest).to_owned(), expression.trim().to_owned()));
            }
            if expression.trim() == "object" {
                typedefs.properties.insert(name.clone(), properties);
            }
            typedefs
                .expressions
                .insert(name, expression.trim().to_owned());
        }
        typedefs
    }

    /// The type a typedef names, its references followed.
    fn resolve(&self, name: &str) -> Type {
        if let Some(properties) = self.properties.get(name) {
            let mut object = BTreeMap::new();
            for (property, expression) in properties {
                let (property, always) = match property.strip_prefix('[') {
                    Some(optional) => (optional.trim_end_matches(']'), false),
                    None => (property.as_str(), true),
                };
                object.insert(property.to_owned(), (self.parse(expression), always));
            }
            return Type::Object(object);
        }
        let expression = self
            .expressions
            .get(name)
            .unwrap_or_else(|| panic!("types.js has no typedef {name}"));
        self.parse(expression)
    }

    fn parse(&self, expression: &str) -> Type {
        let tokens = tokens(expression);
        let mut parser = Parser {
            tokens: &tokens,
            at: 0,
            typedefs: self,
        };
        let parsed = parser.union();
        assert_eq!(parser.at, tokens.len(), "trailing text in {expression}");
        parsed
    }
}

/// The tokens of a JSDoc type expression: names, string literals and marks.
fn tokens(expression: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = expression.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '"' => {
                let literal: String = chars.by_ref().take_while(|&c| c != '"').collect();
                tokens.push(format!("\"{literal}"));
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut name = c.to_string();
                while let Some(&next) = chars.peek() {
                    if !(next.is_alphanumeric() || next == '_') {
                        break;
                    }
                    name.push(next);
                    chars.next();
                }
                tokens.push(name);
            }
            mark => tokens.push(mark.to_string()),
        }
    }
    tokens
}

struct Parser<'a> {
    tokens: &'a [String],
    at: usize,
    typedefs: &'a Typedefs,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    fn next(&mut self) -> &str {
        self.at += 1;
        &self.tokens[self.at - 1]
    }

    fn eat(&mut self, mark: &str) -> bool {
        let found = self.peek() == Some(mark);
        if found {
            self.at += 1;
        }
        found
    }

    fn union(&mut self) -> Type {
        let mut members = vec![self.intersection()];
        while self.eat("|") {
            members.push(self.intersection());
        }
        Type::union(members)
    }

    fn intersection(&mut self) -> Type {
        let mut parsed = self.postfix();
        while self.eat("&") {
            let other = self.postfix();
            parsed = parsed.intersect(other);
        }
        parsed
    }

    fn postfix(&mut self) -> Type {
        let mut parsed = self.primary();
        while self.peek() == Some("[")
            && self.tokens.get(self.at + 1).map(String::as_str) == Some("]")
        {
            self.at += 2;
            parsed = Type::Array(Box::new(parsed));
        }
        parsed
    }

    fn primary(&mut self) -> Type {
        if self.eat("(") {
            let inner = self.union();
            assert!(self.eat(")"), "unclosed parenthesis");
            return inner;
        }
        if self.eat("{") {
            let mut object = BTreeMap::new();
            while !self.eat("}") {
                let name = self.next().to_owned();
                let always = !self.eat("?");
                assert!(self.eat(":"), "expected ':' after {name}");
                object.insert(name, (self.union(), always));
                self.eat(",");
                self.eat(";");
            }
            return Type::Object(object);
        }
        let token = self.next().to_owned();
        if let Some(literal) = token.strip_prefix('"') {
            return Type::String(Some(BTreeSet::from([literal.to_owned()])));
        }
        match token.as_str() {
            "null" => Type::Null,
            "boolean" => Type::Boolean,
            "number" => Type::Number,
            "string" => Type::String(None),
            "unknown" | "any" => Type::Any,
            name => self.typedefs.resolve(name),
        }
    }
}

/// The schema at `schema` (resolved in `document`) as a [`Type`].
fn schema_type(schema: &Value, document: &Value) -> Type {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let pointer = reference.trim_start_matches('#');
        let target = document
            .pointer(pointer)
            .unwrap_or_else(|| panic!("no {reference}"));
        return schema_type(target, document);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(branches) = schema.get(key).and_then(Value::as_array) {
            return Type::union(branches.iter().map(|branch| schema_type(branch, document)));
        }
    }
    let mut members = Vec::new();
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let strings: BTreeSet<String> = values
            .iter()
            .filter_map(|value| value.as_str().map(str::to_owned))
            .collect();
        if !strings.is_empty() {
            members.push(Type::String(Some(strings)));
        }
        if values.iter().any(Value::is_null) {
            members.push(Type::Null);
        }
        return Type::union(members);
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => return Type::Any,
    };
    for name in types {
        members.push(match name {
            "null" => Type::Null,
            "boolean" => Type::Boolean,
            "integer" | "number" => Type::Number,
            "string" => Type::String(None),
            "array" => Type::Array(Box::new(schema_type(&schema["items"], document))),
            "object" => {
                let required: BTreeSet<&str> = schema["required"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let properties = schema["properties"]
                    .as_object()
                    .cloned()
                    .unwrap_or_default();
                Type::Object(
                    properties
                        .iter()
                        .map(|(name, property)| {
                            let always = required.contains(name.as_str());
                            (name.clone(), (schema_type(property, document), always))
                        })
                        .collect(),
                )
            }
            other => panic!("a schema of type {other}"),
        });
    }
    Type::union(members)
}

/// Where the JSDoc type `js` differs from the schema's type `schema`, at `path`.
/// A string the schema does not list the values of takes any values in JSDoc
/// (the end reasons are the rules crate's, and not enumerated in the schema).
fn differences(js: &Type, schema: &Type, path: &str, found: &mut Vec<String>) {
    match (js, schema) {
        (Type::String(Some(_)), Type::String(None)) => {}
        (Type::Array(js), Type::Array(schema)) => {
            differences(js, schema, &format!("{path}[]"), found)
        }
        (Type::Object(js), Type::Object(schema)) => {
            for name in js.keys().chain(schema.keys()).collect::<BTreeSet<_>>() {
                let at = format!("{path}.{name}");
                match (js.get(name), schema.get(name)) {
                    (Some((js, js_always)), Some((schema, schema_always))) => {
                        if js_always != schema_always {
                            found.push(format!("{at}: always there in one, not the other"));
                        }
                        differences(js, schema, &at, found);
                    }
                    (Some(_), None) => found.push(format!("{at}: not in the schema")),
                    (None, _) => found.push(format!("{at}: not in types.js")),
                }
            }
        }
        (Type::Union(js), Type::Union(schema)) if js.len() == schema.len() => {
            // Objects pair up by position once sorted, as both sides sort alike;
            // an unmatched pair reports its differences.
            for (index, (js, schema)) in js.iter().zip(schema).enumerate() {
                differences(js, schema, &format!("{path}|{index}"), found);
            }
        }
        (js, schema) if js == schema => {}
        (js, schema) => found.push(format!(
            "{path}: types.js says {js:?}, the schema {schema:?}"
        )),
    }
}

/// The branch of a `oneOf` schema whose `type` property is `kind`.
fn branch<'a>(schema: &'a Value, kind: &str, document: &'a Value) -> &'a Value {
    schema["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .find(|branch| {
            let tag = &branch["properties"]["type"];
            let tag = match tag.get("$ref").and_then(Value::as_str) {
                Some(reference) => document.pointer(reference.trim_start_matches('#')).unwrap(),
                None => tag,
            };
            tag["enum"]
                .as_array()
                .is_some_and(|values| values.iter().any(|v| v == kind))
        })
        .unwrap_or_else(|| panic!("no {kind} branch"))
}

#[tokio::test]
async fn the_room_types_of_the_browser_are_the_schemas_of_the_server() {
    let server = TestServer::start().await;
    let document = server.get("/api/v1/openapi.json").await;
    server.stop().await;
    let source = include_str!("../../../web/js/room/types.js");
    let typedefs = Typedefs::read(source);
    let schemas = &document["components"]["schemas"];
    let pairs = [
        ("Room", &schemas["Room"]),
        ("RoomEvent", &schemas["Event"]),
        ("PresenceFrame", &schemas["Presence"]),
        ("Joined", &schemas["Seated"]),
        ("Analysis", &schemas["AnalysisView"]),
        ("AnalysisStarted", &schemas["AnalysisStarted"]),
        (
            "WelcomeFrame",
            branch(&schemas["SocketFrame"], "welcome", &document),
        ),
        (
            "PongFrame",
            branch(&schemas["SocketFrame"], "pong", &document),
        ),
    ];
    let mut found = Vec::new();
    for (typedef, schema) in pairs {
        let js = typedefs.resolve(typedef);
        let schema = schema_type(schema, &document);
        differences(&js, &schema, typedef, &mut found);
    }
    assert!(
        found.is_empty(),
        "types.js and the OpenAPI document differ:\n{}",
        found.join("\n")
    );
}

/// The parser reads what types.js writes, and a difference is found.
#[test]
fn a_renamed_field_is_a_difference() {
    let typedefs = Typedefs::read(
        r#"/** @typedef {"a" | "b"} Letter */
/**
 * @typedef {object} Thing
 * @property {Letter | null} letter
 * @property {{ n: number }[]} list
 */"#,
    );
    let thing = typedefs.resolve("Thing");
    let expected = Type::Object(BTreeMap::from([
        (
            "letter".to_owned(),
            (
                Type::union([
                    Type::Null,
                    Type::String(Some(BTreeSet::from(["a".to_owned(), "b".to_owned()]))),
                ]),
                true,
            ),
        ),
        (
            "list".to_owned(),
            (
                Type::Array(Box::new(Type::Object(BTreeMap::from([(
                    "n".to_owned(),
                    (Type::Number, true),
                )])))),
                true,
            ),
        ),
    ]));
    assert_eq!(thing, expected);
    let document = serde_json::json!({"type": "object", "required": ["letter", "items"], "properties": {
        "letter": {"type": ["string", "null"], "enum": ["a", "b", null]},
        "items": {"type": "array", "items": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}}}});
    let mut found = Vec::new();
    differences(
        &thing,
        &schema_type(&document, &document),
        "Thing",
        &mut found,
    );
    assert_eq!(
        found,
        [
            "Thing.items: not in types.js",
            "Thing.list: not in the schema"
        ]
    );
}
