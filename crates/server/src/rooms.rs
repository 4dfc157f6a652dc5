//! The registry of live rooms: finds a room's task, starting it from the store
//! when the room is not live (after a restart, or a finished room looked at).

use std::collections::HashMap;
use std::sync::Arc;

use rules::{AnyGame, Variant};
use store::RoomRecord;
use tokio::sync::Mutex;

use crate::error::ApiError;
use crate::ids;
use crate::room::{self, Mode, RoomContext, RoomHandle, now_ms};
use crate::room_settings::RoomSettings;

/// A room to create.
#[derive(Clone, Debug)]
pub struct NewRoom {
    /// The game.
    pub variant: Variant,
    /// How it is played.
    pub mode: Mode,
    /// The computer's level (computer mode), else 0.
    pub level: u8,
    /// The house rules.
    pub settings: RoomSettings,
    /// The start position (SFEN/FEN or a handicap name), or the usual start.
    pub position: Option<String>,
    /// Who creates it (for the rooms-per-device limit).
    pub device: String,
}

/// The live rooms.
#[derive(Clone)]
pub struct Rooms {
    live: Arc<Mutex<HashMap<String, RoomHandle>>>,
    context: RoomContext,
}

impl Rooms {
    /// An empty registry whose rooms use `context`.
    pub fn new(context: RoomContext) -> Rooms {
        Rooms {
            live: Arc::default(),
            context,
        }
    }

    /// What the rooms share: store, computer, settings, lobby, shutdown signal.
    pub fn context(&self) -> &RoomContext {
        &self.context
    }

    /// The room with this id, started from the store if it is not live.
    ///
    /// # Errors
    /// [`ApiError::RoomNotFound`]; store failures.
    pub async fn get(&self, id: &str) -> Result<RoomHandle, ApiError> {
        if !ids::is_id(id) {
            return Err(ApiError::RoomNotFound(id.to_owned()));
        }
        // Held while a room loads, so that a room never gets two tasks.
        let mut live = self.live.lock().await;
        if let Some(handle) = live.get(id).filter(|handle| !handle.is_closed()) {
            return Ok(handle.clone());
        }
        // Forget every room whose task stopped, so the map does not grow forever.
        live.retain(|_, handle| !handle.is_closed());
        let handle = room::spawn(id, self.context.clone()).await?;
        live.insert(id.to_owned(), handle.clone());
        Ok(handle)
    }

    /// Creates a room (no seat taken yet) and starts its task.
    ///
    /// # Errors
    /// A position or setting the rules refuse, the device's room limit, store failures.
    pub async fn create(&self, new: NewRoom) -> Result<(String, RoomHandle), ApiError> {
        let limit = self.context.config.rooms_per_device_per_hour;
        let game = AnyGame::new(new.variant, new.position.as_deref(), &new.settings.rules)
            .map_err(|err| ApiError::BadRequest(err.to_string()))?;
        let id = ids::secret();
        let now = now_ms();
        let record = RoomRecord {
            id: id.clone(),
            variant: new.variant.name().to_owned(),
            mode: new.mode.name().to_owned(),
            level: i64::from(new.level),
            settings: new.settings.to_json().to_string(),
            start: game.start_text(),
            device: new.device,
            created_at: now,
        };
        let hour_ago = now - 3_600_000;
        let created = self
            .context
            .store
            .create_room_within_limit(&record, hour_ago, i64::from(limit))
            .await?;
        if !created {
            return Err(ApiError::TooMany(format!(
                "at most {limit} rooms per device per hour"
            )));
        }
        let handle = self.get(&id).await?;
        Ok((id, handle))
    }

    /// The live rooms' ids and handles, as they are now.
    pub(crate) async fn live(&self) -> Vec<(String, RoomHandle)> {
        let live = self.live.lock().await;
        live.iter()
            .map(|(id, handle)| (id.clone(), handle.clone()))
            .collect()
    }

    /// Stops the room's task `handle` reaches (another node took the room)
    /// and forgets it, unless the room was started again since.
    pub(crate) async fn stop(&self, id: &str, handle: &RoomHandle) {
        let mut live = self.live.lock().await;
        if live.get(id).is_some_and(|live| live.same_task(handle)) {
            live.remove(id);
        }
        handle.lost();
    }

    /// Waits until every room's task stopped (after the shutdown signal),
    /// five seconds at most.
    pub(crate) async fn stopped(&self) {
        for _ in 0..50 {
            if self.live.lock().await.values().all(RoomHandle::is_closed) {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }

    /// Starts every room whose game was not over when the server stopped.
    /// Returns how many.
    ///
    /// # Errors
    /// Store failures.
    pub async fn recover(&self) -> Result<usize, ApiError> {
        let ids = self.context.store.unfinished_rooms().await?;
        for id in &ids {
            if let Err(err) = self.get(id).await {
                tracing::error!(room = %id, %err, "room not recovered");
            }
        }
        Ok(ids.len())
    }
}
