//! The lobby: a summary of every live room, kept up to date by the rooms
//! themselves, read by `GET /lobby` and the lobby WebSocket.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rules::Variant;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::watch;
use utoipa::ToSchema;

use crate::room::{Mode, RoomStatus};
use crate::room_settings::{RoomSettings, SettingsView};

/// What the lobby shows of a room.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The room id.
    pub id: String,
    /// The variant.
    pub variant: Variant,
    /// How it is played.
    pub mode: Mode,
    /// Its settings, written as JSON only for the open rooms listed: every
    /// live room keeps a summary, and the JSON is a map of a dozen strings.
    pub settings: RoomSettings,
    /// Where its game stands.
    pub status: RoomStatus,
    /// When it was created (unix milliseconds).
    pub created_at: i64,
    /// The display names in the two seats.
    pub players: Vec<Option<String>>,
}

/// The most open rooms the lobby lists.
const OPEN_ROOMS: usize = 200;

/// The summaries of all live rooms, and a signal that fires when one changes.
#[derive(Clone, Debug)]
pub struct Lobby {
    rooms: Arc<Mutex<HashMap<String, Summary>>>,
    changed: Arc<watch::Sender<u64>>,
    /// The lobbies of the other nodes of a cluster, as they last said.
    others: Arc<Mutex<Vec<LobbyView>>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            rooms: Arc::default(),
            changed: Arc::new(watch::channel(0).0),
            others: Arc::default(),
        }
    }
}

impl Lobby {
    /// Replaces a room's summary.
    pub fn update(&self, summary: Summary) {
        let mut rooms = self
            .rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        rooms.insert(summary.id.clone(), summary);
        drop(rooms);
        self.changed.send_modify(|version| *version += 1);
    }

    /// Forgets a room whose task stopped.
    pub fn remove(&self, id: &str) {
        let mut rooms = self
            .rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let removed = rooms.remove(id).is_some();
        drop(rooms);
        if removed {
            self.changed.send_modify(|version| *version += 1);
        }
    }

    /// A receiver that sees a new version after every change.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The lobby: open online rooms waiting for a player, newest first,
    /// and the counts of rooms waiting and games being played.
    /// The lobby of every room of the cluster: this node's rooms with the
    /// other nodes' as they last said (a second ago at most).
    pub fn view(&self) -> LobbyView {
        let mut view = self.own_view();
        let others = self
            .others
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if others.is_empty() {
            return view;
        }
        for other in others.iter() {
            view.waiting += other.waiting;
            view.playing += other.playing;
            view.rooms.extend(other.rooms.iter().cloned());
        }
        drop(others);
        view.rooms.sort_by(|a, b| {
            b.created_at
                .cmp(&a.created_at)
                .then_with(|| a.id.cmp(&b.id))
        });
        view.rooms.truncate(OPEN_ROOMS);
        view
    }

    /// Takes the other nodes' lobbies; the lobby's sockets hear of a change.
    pub(crate) fn set_others(&self, views: Vec<LobbyView>) {
        let mut others = self
            .others
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *others != views {
            *others = views;
            drop(others);
            self.changed.send_modify(|version| *version += 1);
        }
    }

    /// The lobby of this node's rooms alone, what it tells the other nodes.
    pub(crate) fn own_view(&self) -> LobbyView {
        let rooms = self
            .rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = |status| rooms.values().filter(|room| room.status == status).count();
        let (waiting, playing) = (count(RoomStatus::Waiting), count(RoomStatus::Playing));
        let mut open: Vec<&Summary> = rooms
            .values()
            .filter(|room| room.status == RoomStatus::Waiting && room.mode == Mode::Online)
            .collect();
        open.sort_by(|a, b| {
            b.created_at
                .cmp(&a.created_at)
                .then_with(|| a.id.cmp(&b.id))
        });
        let open = open
            .into_iter()
            .take(OPEN_ROOMS)
            .map(|room| OpenRoom {
                id: room.id.clone(),
                variant: room.variant.name().to_owned(),
                settings: room.settings.to_json(),
                created_at: room.created_at,
                players: room.players.clone(),
            })
            .collect();
        LobbyView {
            rooms: open,
            waiting,
            playing,
        }
    }
}

/// The lobby of `GET /lobby` and the lobby WebSocket.
#[derive(Clone, Debug, Deserialize, PartialEq, Serialize, ToSchema)]
#[schema(as = Lobby)]
pub struct LobbyView {
    /// Open online rooms waiting for a player, newest first (at most 200).
    pub rooms: Vec<OpenRoom>,
    /// Rooms with a free seat (of every mode).
    pub waiting: usize,
    /// Rooms whose game is being played.
    pub playing: usize,
}

/// An open room in the lobby.
#[derive(Clone, Debug, Deserialize, PartialEq, Serialize, ToSchema)]
pub struct OpenRoom {
    /// The room id.
    pub id: String,
    /// The variant.
    #[schema(value_type = crate::openapi::VariantName)]
    pub variant: String,
    /// The room's house rules.
    #[schema(value_type = SettingsView)]
    pub settings: Value,
    /// When it was created (unix milliseconds).
    pub created_at: i64,
    /// The display names in the first and the second seat (`null` when free).
    pub players: Vec<Option<String>>,
}
