//! Analyses: the engine's verdict (score, best move, principal variation) on
//! every position of a game, one position at a time on the computer's
//! searches, which games always have first (see [`Computer::evaluate`]).
//!
//! An analysis lives in memory while it runs and for [`KEPT_FOR`] after it
//! ends (at most [`KEPT`] ended ones, the oldest dropped first). That of a
//! room's finished game is also stored with the game, so the room hands it
//! out at once the next time. What one request may ask is bounded:
//! [`MAX_MOVES`] moves, [`MAX_MOVE_TIME`] per position, [`PER_ADDRESS`]
//! analyses queued or running per address and [`AT_ONCE`] in all.

pub(crate) mod routes;
mod view;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rules::{AnyGame, AnyMove, AnyPosition};
use store::{AnalysisRecord, Store};
use tokio::time::Instant;

use crate::computer::Computer;
use crate::error::ApiError;
use crate::ids;
use crate::room::now_ms;

pub(crate) use self::view::{AnalysisStatus, AnalysisView, PlyView};

/// The most moves one analysis takes (its positions are one more).
pub(crate) const MAX_MOVES: usize = 600;
/// The search time per position when the request names none.
pub(crate) const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(300);
/// The longest search per position a request may ask for.
pub(crate) const MAX_MOVE_TIME: Duration = Duration::from_millis(3000);
/// Analyses queued or running at once for one address.
pub(crate) const PER_ADDRESS: usize = 2;
/// Analyses queued or running at once in all.
pub(crate) const AT_ONCE: usize = 16;
/// How long an ended analysis stays to be asked for.
const KEPT_FOR: Duration = Duration::from_secs(3600);
/// The most ended analyses kept in memory.
const KEPT: usize = 256;

/// A room's game, whose analysis is stored with it once done.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
pub(crate) struct RoomGame {
    /// The room.
    pub(crate) room: String,
    /// Which game of the room.
    pub(crate) number: u32,
}

/// What to analyse: a game from its start, and the moves played in it
/// (each legal where it was played).
pub(crate) struct Request {
    /// The game at its start.
    pub(crate) start: AnyGame,
    /// The moves.
    pub(crate) moves: Vec<AnyMove>,
    /// The search time per position.
    pub(crate) move_time: Duration,
    /// Who asked.
    pub(crate) address: IpAddr,
    /// The room's game it is of, if any.
    pub(crate) room: Option<RoomGame>,
}

/// One analysis in memory.
struct Job {
    status: AnalysisStatus,
    positions: usize,
    plies: Vec<PlyView>,
    address: IpAddr,
    room: Option<RoomGame>,
    /// When it ended.
    ended: Option<Instant>,
}

impl Job {
    fn is_active(&self) -> bool {
        self.ended.is_none()
    }

    fn view(&self) -> AnalysisView {
        AnalysisView {
            status: self.status,
            positions: self.positions,
            plies: self.plies.clone(),
        }
    }
}

/// Every analysis in memory, and what runs them. Cloning shares them.
#[derive(Clone)]
pub(crate) struct Analyses {
    jobs: Arc<Mutex<HashMap<String, Job>>>,
    computer: Computer,
    store: Arc<dyn Store>,
    /// What every id given here starts with: in a cluster, the node's tag,
    /// so that a request for the analysis reaches this node.
    id_prefix: String,
}

impl Analyses {
    /// No analyses yet; they will search on `computer` and keep rooms' games
    /// in `store`, and their ids start with `id_prefix` (hex digits, or none).
    pub(crate) fn new(computer: Computer, store: Arc<dyn Store>, id_prefix: String) -> Analyses {
        Analyses {
            jobs: Arc::default(),
            computer,
            store,
            id_prefix,
        }
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<String, Job>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `request` and returns its id; a room's game already being
    /// analysed gives the running analysis's id.
    ///
    /// # Errors
    /// [`ApiError::TooMany`] when the address or the server has as many
    /// analyses queued or running as allowed.
    pub(crate) fn start(&self, request: Request) -> Result<String, ApiError> {
        let id = {
            let mut jobs = self.jobs();
            forget_old(&mut jobs, Instant::now());
            if let Some(room) = &request.room {
                let running = jobs
                    .iter()
                    .find(|(_, job)| job.is_active() && job.room.as_ref() == Some(room));
                if let Some((id, _)) = running {
                    return Ok(id.clone());
                }
            }
            let active = jobs.values().filter(|job| job.is_active());
            let (mine, all) = active.fold((0, 0), |(mine, all), job| {
                (mine + usize::from(job.address == request.address), all + 1)
            });
            if mine >= PER_ADDRESS {
                return Err(ApiError::TooMany(format!(
                    "at most {PER_ADDRESS} analyses queued or running per address"
                )));
            }
            if all >= AT_ONCE {
                return Err(ApiError::TooMany(format!(
                    "the server runs at most {AT_ONCE} analyses at once; try again later"
                )));
            }
            let secret = ids::secret();
            let id = format!("{}{}", self.id_prefix, &secret[self.id_prefix.len()..]);
            jobs.insert(
                id.clone(),
                Job {
                    status: AnalysisStatus::Queued,
                    positions: request.moves.len() + 1,
                    plies: Vec::new(),
                    address: request.address,
                    room: request.room.clone(),
                    ended: None,
                },
            );
            id
        };
        tokio::spawn(self.clone().run(id.clone(), request));
        Ok(id)
    }

    /// The analysis with this id, as it stands.
    pub(crate) fn view(&self, id: &str) -> Option<AnalysisView> {
        self.jobs().get(id).map(Job::view)
    }

    /// The stored analysis of a room's game, if it was made.
    ///
    /// # Errors
    /// The store fails, or holds plies this build cannot read.
    pub(crate) async fn stored(&self, game: &RoomGame) -> Result<Option<AnalysisView>, ApiError> {
        let Some(record) = self
            .store
            .analysis(&game.room, i64::from(game.number))
            .await?
        else {
            return Ok(None);
        };
        let plies: Vec<PlyView> = serde_json::from_str(&record.plies)
            .map_err(|err| ApiError::Stored(format!("analysis of room {}: {err}", game.room)))?;
        Ok(Some(AnalysisView {
            status: AnalysisStatus::Done,
            positions: plies.len(),
            plies,
        }))
    }

    /// Analyses every position of `request` in order, then stores a room's.
    async fn run(self, id: String, request: Request) {
        let mut game = request.start;
        // The position before the last move and the move: what the move text of the best line needs.
        let mut previous: Option<(AnyPosition, AnyMove)> = None;
        for ply in 0..=request.moves.len() {
            let verdict = match game.outcome() {
                Some(outcome) => Some(PlyView::ended(ply, outcome)),
                None => self
                    .computer
                    .evaluate(game.clone(), request.move_time)
                    .await
                    .map(|evaluation| {
                        PlyView::searched(ply, &game, previous.as_ref(), &evaluation)
                    }),
            };
            let Some(verdict) = verdict else {
                tracing::error!(ply, "the engine gave no verdict on a position with moves");
                return self.end(&id, AnalysisStatus::Failed);
            };
            if let Some(job) = self.jobs().get_mut(&id) {
                job.plies.push(verdict);
                job.status = AnalysisStatus::Running;
            }
            // Every move was checked when the request came.
            if let Some(&mv) = request.moves.get(ply) {
                previous = Some((game.position(), mv));
                if game.play(mv).is_err() {
                    return self.end(&id, AnalysisStatus::Failed);
                }
            }
        }
        let status = match &request.room {
            Some(room) => self.keep(&id, room).await,
            None => AnalysisStatus::Done,
        };
        self.end(&id, status);
    }

    /// Stores the finished analysis `id` of a room's game: done, or failed
    /// when the store fails.
    async fn keep(&self, id: &str, room: &RoomGame) -> AnalysisStatus {
        let Some(plies) = self.jobs().get(id).map(|job| job.plies.clone()) else {
            return AnalysisStatus::Failed;
        };
        let record = AnalysisRecord {
            room_id: room.room.clone(),
            game: i64::from(room.number),
            plies: serde_json::to_string(&plies).unwrap_or_default(),
            created_at: now_ms(),
        };
        match self.store.save_analysis(&record).await {
            // One kept already (by a server sharing the database) is as good.
            Ok(()) | Err(store::StoreError::Conflict) => AnalysisStatus::Done,
            Err(err) => {
                tracing::error!(error = %err, room = %room.room, "the analysis could not be stored");
                AnalysisStatus::Failed
            }
        }
    }

    fn end(&self, id: &str, status: AnalysisStatus) {
        if let Some(job) = self.jobs().get_mut(id) {
            job.status = status;
            job.ended = Some(Instant::now());
        }
    }
}

/// Drops the analyses that ended more than [`KEPT_FOR`] ago, then the
/// oldest ended ones beyond [`KEPT`].
fn forget_old(jobs: &mut HashMap<String, Job>, now: Instant) {
    jobs.retain(|_, job| {
        job.ended
            .is_none_or(|ended| now.saturating_duration_since(ended) < KEPT_FOR)
    });
    let mut ended: Vec<(Instant, String)> = jobs
        .iter()
        .filter_map(|(id, job)| Some((job.ended?, id.clone())))
        .collect();
    if ended.len() > KEPT {
        ended.sort();
        for (_, id) in &ended[..ended.len() - KEPT] {
            jobs.remove(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;
    use std::sync::atomic::{AtomicBool, Ordering};

    use rules::{Settings, Variant};

    use super::*;
    use crate::computer::{ComputerPlayer, Evaluation, FirstLegalMove, Thinking};

    /// Evaluates as `FirstLegalMove` once opened.
    #[derive(Default)]
    struct Gate(AtomicBool);

    impl ComputerPlayer for Gate {
        fn choose(&self, game: &AnyGame, level: u8, thinking: Thinking) -> Option<AnyMove> {
            FirstLegalMove.choose(game, level, thinking)
        }

        fn evaluate(&self, game: &AnyGame, move_time: Duration) -> Option<Evaluation> {
            let given_up = std::time::Instant::now() + Duration::from_secs(40);
            while !self.0.load(Ordering::SeqCst) && std::time::Instant::now() < given_up {
                std::thread::sleep(Duration::from_millis(1));
            }
            FirstLegalMove.evaluate(game, move_time)
        }
    }

    fn request(address: [u8; 4], room: Option<RoomGame>) -> Request {
        Request {
            start: AnyGame::new(Variant::Minishogi, None, &Settings::default()).unwrap(),
            moves: Vec::new(),
            move_time: Duration::from_millis(1),
            address: IpAddr::from(address),
            room,
        }
    }

    #[tokio::test]
    async fn an_address_runs_two_analyses_the_server_sixteen_and_a_rooms_game_one() {
        let (_dir, store) = crate::temp_store::temp_store().await;
        let gate = Arc::new(Gate::default());
        let analyses = Analyses::new(Computer::new(gate.clone(), 1), store, String::new());
        let too_many = |result: Result<String, ApiError>| matches!(result, Err(ApiError::TooMany(message)) if message.contains("at most"));
        analyses.start(request([10, 0, 0, 1], None)).unwrap();
        analyses.start(request([10, 0, 0, 1], None)).unwrap();
        assert!(too_many(analyses.start(request([10, 0, 0, 1], None))));
        let game = RoomGame {
            room: "room".to_owned(),
            number: 1,
        };
        let of_room = analyses
            .start(request([10, 0, 0, 2], Some(game.clone())))
            .unwrap();
        // The same game again, from anyone: the same analysis, counted once.
        for _ in 0..3 {
            let again = analyses.start(request([10, 0, 0, 3], Some(game.clone())));
            assert_eq!(again.unwrap(), of_room);
        }
        for n in 4..17 {
            analyses.start(request([10, 0, 0, n], None)).unwrap();
        }
        assert!(too_many(analyses.start(request([10, 0, 1, 1], None))));
        assert_eq!(
            analyses.view(&of_room).unwrap().status,
            AnalysisStatus::Queued
        );
        gate.0.store(true, Ordering::SeqCst);
    }

    fn job(ended: Option<Instant>) -> Job {
        Job {
            status: AnalysisStatus::Done,
            positions: 1,
            plies: Vec::new(),
            address: IpAddr::V4(Ipv4Addr::LOCALHOST),
            room: None,
            ended,
        }
    }

    #[test]
    fn ended_analyses_are_forgotten_after_an_hour_or_beyond_the_most_kept() {
        let now = Instant::now();
        let mut jobs = HashMap::new();
        jobs.insert("running".to_owned(), job(None));
        jobs.insert("old".to_owned(), job(Some(now)));
        forget_old(&mut jobs, now + KEPT_FOR);
        assert_eq!(jobs.keys().collect::<Vec<_>>(), ["running"]);
        for n in 0..KEPT + 3 {
            let ended = now + Duration::from_millis(u64::try_from(n).unwrap());
            jobs.insert(format!("ended {n}"), job(Some(ended)));
        }
        forget_old(&mut jobs, now + Duration::from_secs(1));
        assert_eq!(jobs.len(), KEPT + 1);
        assert!(jobs.contains_key("running"));
        for n in 0..3 {
            assert!(!jobs.contains_key(&format!("ended {n}")), "{n}");
        }
        assert!(jobs.contains_key(&format!("ended {}", KEPT + 2)));
    }
}
