//! The registry of live rooms: finds a room's task, starting it from the store
//! when the room is not live (after a restart, or an idle room looked at).
//!
//! Each room has a slot of its own, locked while that room loads: a slow load
//! holds up only the requests for that room, and a room never gets two tasks.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rules::{AnyGame, Variant};
use store::RoomRecord;

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

/// One room's place in the registry: its task's handle once loaded, locked
/// while it loads.
type Slot = Arc<tokio::sync::Mutex<Option<RoomHandle>>>;

/// The rooms' slots, and how many there were after the last sweep.
#[derive(Default)]
struct Slots {
    by_id: HashMap<String, Slot>,
    swept_at: usize,
}

impl Slots {
    /// The slot of room `id`, made if there is none. Once the map has doubled
    /// since the last sweep, the slots of stopped rooms are forgotten, so the
    /// map does not grow forever and sweeping costs O(1) per room on average.
    /// A slot someone holds (to load or read it) stays: they took it under this
    /// lock, and a second slot for the room could start a second task.
    fn slot(&mut self, id: &str) -> Slot {
        if let Some(slot) = self.by_id.get(id) {
            return slot.clone();
        }
        if self.by_id.len() >= 2 * self.swept_at.max(64) {
            self.by_id.retain(|_, slot| {
                Arc::strong_count(slot) > 1
                    || slot.try_lock().map_or(true, |held| {
                        held.as_ref().is_some_and(|handle| !handle.is_closed())
                    })
            });
            self.swept_at = self.by_id.len();
        }
        let slot = Slot::default();
        self.by_id.insert(id.to_owned(), slot.clone());
        slot
    }
}

/// The live rooms.
#[derive(Clone)]
pub struct Rooms {
    slots: Arc<Mutex<Slots>>,
    context: RoomContext,
}

impl Rooms {
    /// An empty registry whose rooms use `context`.
    pub fn new(context: RoomContext) -> Rooms {
        Rooms {
            slots: Arc::default(),
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
        let slot = self.lock_slots().slot(id);
        // Held while the room loads, so that a room never gets two tasks.
        let mut held = slot.lock().await;
        if let Some(handle) = held.as_ref().filter(|handle| !handle.is_closed()) {
            return Ok(handle.clone());
        }
        let handle = room::spawn(id, self.context.clone()).await?;
        *held = Some(handle.clone());
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

    /// The live rooms' ids and handles, as they are now (a room loading is
    /// not live yet).
    pub(crate) fn live(&self) -> Vec<(String, RoomHandle)> {
        self.lock_slots()
            .by_id
            .iter()
            .filter_map(|(id, slot)| {
                let held = slot.try_lock().ok()?;
                let handle = held.as_ref().filter(|handle| !handle.is_closed())?;
                Some((id.clone(), handle.clone()))
            })
            .collect()
    }

    /// Stops the room's task `handle` reaches (another node took the room)
    /// and forgets it, unless the room was started again since.
    pub(crate) async fn stop(&self, id: &str, handle: &RoomHandle) {
        let slot = self.lock_slots().by_id.get(id).cloned();
        if let Some(slot) = slot {
            let mut held = slot.lock().await;
            if held.as_ref().is_some_and(|live| live.same_task(handle)) {
                *held = None;
            }
        }
        handle.lost();
    }

    /// Waits until every room's task stopped (after the shutdown signal),
    /// five seconds at most.
    pub(crate) async fn stopped(&self) {
        for _ in 0..50 {
            let all_closed = self.lock_slots().by_id.values().all(|slot| {
                slot.try_lock()
                    .is_ok_and(|held| held.as_ref().is_none_or(RoomHandle::is_closed))
            });
            if all_closed {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }

    fn lock_slots(&self) -> std::sync::MutexGuard<'_, Slots> {
        self.slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts, in the background, every room whose game was not over when the
    /// server stopped, so that the server serves at once; a room asked for
    /// before its turn loads then. As after any restart, the side to move's
    /// clock starts its turn afresh when the room loads. Returns how many.
    ///
    /// # Errors
    /// Store failures while listing them.
    pub async fn recover(&self) -> Result<usize, ApiError> {
        let ids = self.context.store.unfinished_rooms().await?;
        let count = ids.len();
        let rooms = self.clone();
        tokio::spawn(async move {
            let shutdown = rooms.context.shutdown.clone();
            for id in &ids {
                if *shutdown.borrow() {
                    return;
                }
                if let Err(err) = rooms.get(id).await {
                    tracing::error!(room = %id, %err, "room not recovered");
                }
            }
            tracing::info!(rooms = ids.len(), "unfinished rooms loaded");
        });
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_forgets_stopped_rooms_but_keeps_a_slot_someone_holds() {
        let mut slots = Slots::default();
        let held = slots.slot("held");
        for n in 0..127 {
            drop(slots.slot(&format!("room{n}")));
        }
        assert_eq!(slots.by_id.len(), 128);
        // The 129th room sweeps: only the slot still held stays beside it.
        drop(slots.slot("new"));
        assert_eq!(slots.by_id.len(), 2);
        assert!(Arc::ptr_eq(&held, &slots.slot("held")));
        // The next sweep waits until the map has doubled again.
        drop(slots.slot("another"));
        assert_eq!(slots.by_id.len(), 3);
    }
}
