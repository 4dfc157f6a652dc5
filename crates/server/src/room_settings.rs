//! A room's house rules as the API names them (docs/api.md): the
//! rules library's settings plus what only the server uses (clock, swap, rated).

use std::time::Duration;

use rules::{AnnanDeadPiece, AnnanSetup, Handicap, Impasse, Settings};
use serde::Serialize;
use serde_json::Value;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// Every setting of a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomSettings {
    /// `time_per_move`: seconds each move may take, 0 for no clock; after
    /// main time, the byoyomi (秒読み) period.
    pub time_per_move: u32,
    /// `main_time`: seconds each player has for the whole game before the
    /// per-move time applies, 0 for none.
    pub main_time: u32,
    /// `swap_first_player`: who moves first changes after each game.
    pub swap_first_player: bool,
    /// `show_targets`: the browser shows the selected piece's targets.
    pub show_targets: bool,
    /// `rated`: the game changes both players' ratings.
    pub rated: bool,
    /// `chat`: the seated players of an online room may send quick-chat phrases.
    pub chat: bool,
    /// The rules library's settings (`impasse`, `handicap`, `move_limit` ...).
    pub rules: Settings,
}

impl Default for RoomSettings {
    fn default() -> RoomSettings {
        RoomSettings {
            time_per_move: 0,
            main_time: 0,
            swap_first_player: true,
            show_targets: true,
            rated: false,
            chat: true,
            rules: Settings::default(),
        }
    }
}

/// The longest per-move time: one hour.
const MAX_TIME_PER_MOVE: u32 = 3600;
/// The longest main time: six hours.
const MAX_MAIN_TIME: u32 = 6 * 3600;

impl RoomSettings {
    /// Reads the `settings` object of a request; missing keys keep their defaults.
    ///
    /// # Errors
    /// A message naming the first unknown key or bad value.
    pub fn from_json(value: &Value) -> Result<RoomSettings, String> {
        let mut settings = RoomSettings::default();
        let Some(object) = value.as_object() else {
            return if value.is_null() {
                Ok(settings)
            } else {
                Err("settings must be a JSON object".to_owned())
            };
        };
        for (key, value) in object {
            settings.set(key, value)?;
        }
        Ok(settings)
    }

    fn set(&mut self, key: &str, value: &Value) -> Result<(), String> {
        let bad =
            |expected: &str| format!("bad value {value} for setting '{key}' (expected {expected})");
        match key {
            "time_per_move" => {
                self.time_per_move = value
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|&n| n <= MAX_TIME_PER_MOVE)
                    .ok_or_else(|| bad("seconds from 0 (no clock) to 3600"))?;
            }
            "main_time" => {
                self.main_time = value
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|&n| n <= MAX_MAIN_TIME)
                    .ok_or_else(|| bad("seconds from 0 (none) to 21600"))?;
            }
            "swap_first_player" => {
                self.swap_first_player = value.as_bool().ok_or_else(|| bad("true or false"))?
            }
            "show_targets" => {
                self.show_targets = value.as_bool().ok_or_else(|| bad("true or false"))?
            }
            "rated" => self.rated = value.as_bool().ok_or_else(|| bad("true or false"))?,
            "chat" => self.chat = value.as_bool().ok_or_else(|| bad("true or false"))?,
            _ => {
                // The rules library takes its values as text: "27-point", "200", "true".
                let text = match value {
                    Value::String(text) => text.clone(),
                    Value::Number(_) | Value::Bool(_) => value.to_string(),
                    _ => return Err(bad("a string, number or boolean")),
                };
                self.rules.set(key, &text).map_err(|err| err.to_string())?;
            }
        }
        Ok(())
    }

    /// Whether the room plays with a clock.
    pub fn has_clock(&self) -> bool {
        self.time_per_move > 0 || self.main_time > 0
    }

    /// Each player's main time.
    pub fn main_time(&self) -> Duration {
        Duration::from_secs(u64::from(self.main_time))
    }

    /// The time for each move once the main time is used up.
    pub fn byoyomi(&self) -> Duration {
        Duration::from_secs(u64::from(self.time_per_move))
    }

    /// All settings as a JSON object with the API's keys.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(SettingsView::from(self)).unwrap_or(Value::Null)
    }
}

/// A room's settings as the API shows them, every key present.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SettingsView {
    /// Seconds per move once the main time is used up; 0 for no clock.
    pub time_per_move: u32,
    /// Seconds of main time per player; 0 for none.
    pub main_time: u32,
    /// Who moves first changes after each game.
    pub swap_first_player: bool,
    /// The browser shows the selected piece's targets.
    pub show_targets: bool,
    /// The game changes both players' ratings.
    pub rated: bool,
    /// The seated players of an online room may send quick-chat phrases.
    pub chat: bool,
    /// `24-point`, `27-point` or `off` (shogi, annan).
    pub impasse: String,
    /// `standard` or `traditional` (annan).
    pub annan_setup: String,
    /// `allowed-if-supported`, `by-original-type` or `always-allowed` (annan).
    pub annan_dead_piece: String,
    /// Plies after which the game is drawn; 0 for none.
    pub move_limit: u32,
    /// An illegal move loses instead of being refused.
    pub illegal_move_loses: bool,
    /// The handicap (shogi): `even`, `lance`, `bishop` ...
    pub handicap: String,
}

impl From<&RoomSettings> for SettingsView {
    fn from(settings: &RoomSettings) -> SettingsView {
        let rules = &settings.rules;
        SettingsView {
            time_per_move: settings.time_per_move,
            main_time: settings.main_time,
            swap_first_player: settings.swap_first_player,
            show_targets: settings.show_targets,
            rated: settings.rated,
            chat: settings.chat,
            impasse: rules.impasse.to_string(),
            annan_setup: rules.annan_setup.to_string(),
            annan_dead_piece: rules.annan_dead_piece.to_string(),
            move_limit: rules.move_limit,
            illegal_move_loses: rules.illegal_move_loses,
            handicap: rules.handicap.to_string(),
        }
    }
}

/// The `Settings` schema: the keys [`SettingsView`] writes, every one of
/// them, with their values and defaults.
impl PartialSchema for SettingsView {
    fn schema() -> RefOr<Schema> {
        settings_schema("A room's house rules, every key present.", true)
    }
}

impl ToSchema for SettingsView {
    fn name() -> std::borrow::Cow<'static, str> {
        "Settings".into()
    }
}

/// The `SettingsChoice` schema: the keys [`RoomSettings::from_json`] reads,
/// any of them.
pub(crate) enum SettingsChoice {}

impl PartialSchema for SettingsChoice {
    fn schema() -> RefOr<Schema> {
        settings_schema(
            "House rules for a new room; the keys left out keep their defaults.",
            false,
        )
    }
}

impl ToSchema for SettingsChoice {}

/// The settings' keys with their values and defaults; all of them required
/// if `every_key`.
fn settings_schema(description: &str, every_key: bool) -> RefOr<Schema> {
    let defaults = RoomSettings::default().to_json();
    let seconds = |max: u32, description: &str| {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(0))
            .maximum(Some(max))
            .description(Some(description))
    };
    let boolean = |description: &str| {
        ObjectBuilder::new()
            .schema_type(Type::Boolean)
            .description(Some(description))
    };
    let one_of = |names: Vec<&'static str>, description: &str| {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(names))
            .description(Some(description))
    };
    let properties = [
        (
            "time_per_move",
            seconds(
                MAX_TIME_PER_MOVE,
                "Seconds per move (0 = none); after main_time is used up, the byoyomi period.",
            ),
        ),
        (
            "main_time",
            seconds(
                MAX_MAIN_TIME,
                "Seconds each player has for the whole game before time_per_move applies \
                     (0 = none).",
            ),
        ),
        (
            "swap_first_player",
            boolean("Who moves first changes after each game (rematch)."),
        ),
        (
            "show_targets",
            boolean("The browser shows the selected piece's targets."),
        ),
        (
            "rated",
            boolean("The game changes both players' Glicko-2 ratings."),
        ),
        (
            "chat",
            boolean("The seated players of an online room may send quick-chat phrases."),
        ),
        (
            Impasse::KEY,
            one_of(
                Impasse::ALL.iter().map(|v| v.name()).collect(),
                "How an impasse (jishogi) is decided in shogi and annan.",
            ),
        ),
        (
            AnnanSetup::KEY,
            one_of(
                AnnanSetup::ALL.iter().map(|v| v.name()).collect(),
                "The start position of Annan Shogi.",
            ),
        ),
        (
            AnnanDeadPiece::KEY,
            one_of(
                AnnanDeadPiece::ALL.iter().map(|v| v.name()).collect(),
                "When an unpromoted pawn, lance or knight may stand where its own movement \
                     has no square to go (Annan Shogi).",
            ),
        ),
        (
            "move_limit",
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0))
                .description(Some(
                    "0 for none, else the number of plies after which the game is drawn.",
                )),
        ),
        (
            "illegal_move_loses",
            boolean("An illegal move loses instead of being refused."),
        ),
        (
            Handicap::KEY,
            one_of(
                Handicap::ALL.iter().map(|v| v.name()).collect(),
                "The pieces the stronger player (Gote, moving first) removes, in shogi.",
            ),
        ),
    ];
    let mut object = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(description))
        .additional_properties(Some(AdditionalProperties::FreeForm(false)));
    for (key, property) in properties {
        object = object.property(key, property.default(defaults.get(key).cloned()));
        if every_key {
            object = object.required(key);
        }
    }
    RefOr::T(Schema::Object(object.build()))
}

#[cfg(test)]
mod tests {
    use rules::Impasse;
    use serde_json::json;

    use super::*;

    #[test]
    fn defaults_are_the_platform_spec_defaults() {
        let settings = RoomSettings::from_json(&json!({})).unwrap();
        assert_eq!(settings, RoomSettings::default());
        let json = settings.to_json();
        assert_eq!(json["time_per_move"], 0);
        assert_eq!(json["move_limit"], 0);
        assert_eq!(json["swap_first_player"], true);
        assert_eq!(json["show_targets"], true);
        assert_eq!(json["handicap"], "even");
        assert_eq!(json["impasse"], "24-point");
        assert_eq!(json["annan_dead_piece"], "allowed-if-supported");
        assert_eq!(json["annan_setup"], "standard");
        assert_eq!(json["illegal_move_loses"], false);
        assert_eq!(json["rated"], false);
        assert_eq!(json["chat"], true);
    }

    #[test]
    fn settings_round_trip_through_json() {
        let given = json!({"time_per_move": 30, "impasse": "27-point", "move_limit": 200,
            "rated": true, "illegal_move_loses": true});
        let settings = RoomSettings::from_json(&given).unwrap();
        assert_eq!(settings.rules.impasse, Impasse::TwentySevenPoint);
        assert_eq!(settings.rules.move_limit, 200);
        assert_eq!(
            RoomSettings::from_json(&settings.to_json()).unwrap(),
            settings
        );
    }

    #[test]
    fn bad_keys_and_values_are_named() {
        let err = RoomSettings::from_json(&json!({"colour": "red"})).unwrap_err();
        assert!(err.contains("colour"), "{err}");
        let err = RoomSettings::from_json(&json!({"time_per_move": -5})).unwrap_err();
        assert!(err.contains("time_per_move"), "{err}");
        let err = RoomSettings::from_json(&json!({"impasse": "99-point"})).unwrap_err();
        assert!(err.contains("impasse"), "{err}");
        assert!(RoomSettings::from_json(&json!([1])).is_err());
    }

    #[test]
    fn the_schema_names_every_key_with_its_default() {
        let RefOr::T(Schema::Object(schema)) = SettingsView::schema() else {
            panic!("the settings schema is an object");
        };
        let documented: Vec<&String> = schema.properties.keys().collect();
        let json = RoomSettings::default().to_json();
        let written: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(documented, written);
        for (key, property) in &schema.properties {
            let RefOr::T(Schema::Object(property)) = property else {
                panic!("{key} is inline");
            };
            assert_eq!(property.default.as_ref(), Some(&json[key]), "{key}");
        }
    }
}
