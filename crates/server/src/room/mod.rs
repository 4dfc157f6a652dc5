//! A room: a pure core ([`Room`]: `decide` a command into events, `apply`
//! events) driven by one task that does the I/O. Handlers and sockets reach
//! the task through a [`RoomHandle`].
//!
//! For every command the task asks the core for its events, stores them,
//! then applies them, then sends them to every connection, then asks the
//! computer if it is to move. Nothing changes before the store has the
//! events, so an acknowledged move survives a crash, and replaying the
//! stored events through the same `apply` rebuilds the room.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rules::{AnyGame, AnyMove, Side, Variant};
use store::{EventRecord, Lease, RatingRecord, RoomRecord, SeatRecord, Store, StoreError};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::time::Instant;

mod clock;
mod core;
mod event;
mod phrase;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod view;

pub use self::clock::Clock;
pub use self::core::{
    Action, Command, Joiner, Mode, Presence, Refusal, Resume, Room, RoomSetup, RoomStatus, Seat,
};
pub use self::event::{Event, EventKind};
pub use self::phrase::Phrase;
pub use self::view::{
    ActReply, AfterView, Agreement, ClocksView, Connections, MoveTexts, PerSide, PresenceType,
    PresenceView, ResultView, RoomView, SeatPresence, SeatView, Winner,
};
use crate::cluster::Node;
use crate::computer::Computer;
use crate::error::ApiError;
use crate::event::{EventJson, Frame};
use crate::lobby::Lobby;
use crate::room_settings::RoomSettings;
use crate::{Config, ids, ratings, records};

/// A live connection to a room: the events it missed and the ones to come.
#[derive(Debug)]
pub struct Watch {
    /// The seats the connection's token holds (none for a spectator).
    pub seats: Vec<Side>,
    /// The events after the `since` the client gave.
    pub backlog: Vec<Arc<Frame>>,
    /// The events from now on.
    pub live: broadcast::Receiver<Arc<Frame>>,
    /// The room's presence frame (seats' connections, spectators), latest first.
    pub presence: watch::Receiver<PresenceView>,
    /// Whether the connection counts as a spectator (a socket without a seat).
    pub spectator: bool,
}

type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

/// The way into a room's task. Its messages are boxed: the channel allocates
/// its slots 32 at a time for the room's whole life, and a message holds up
/// to a token, a name and a reply (88 bytes) where a box is 8.
type Inbox = mpsc::Sender<Box<Message>>;

/// What the task is asked, one message at a time.
#[derive(Debug)]
enum Message {
    View(oneshot::Sender<RoomView>),
    Record(oneshot::Sender<notation::Record>),
    Game(oneshot::Sender<PlayedGame>),
    Join(Joiner, Option<String>, Reply<(Side, String)>),
    Act(Option<String>, Action, Reply<ActReply>),
    Watch(u64, Option<String>, bool, Reply<Watch>),
    Since(u64, Reply<Vec<Arc<Frame>>>),
    Unwatch(Vec<Side>, bool),
    Rename(
        Option<String>,
        Option<Side>,
        String,
        Reply<(Vec<Side>, String)>,
    ),
    ComputerMove(u64, Option<AnyMove>),
    /// The computer's answer to the draw offered on that turn.
    ComputerDrawAnswer(u64, bool),
    /// Another node took the room: the task stops.
    Lost,
}

/// A handle to a room's task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    inbox: Inbox,
}

impl RoomHandle {
    async fn call<T>(&self, make: impl FnOnce(Reply<T>) -> Message) -> Result<T, ApiError> {
        self.ask(make).await?
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<T>) -> Message,
    ) -> Result<T, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.inbox
            .send(Box::new(make(reply)))
            .await
            .map_err(|_| ApiError::ShuttingDown)?;
        answer.await.map_err(|_| ApiError::ShuttingDown)
    }

    /// The room JSON.
    ///
    /// # Errors
    /// [`ApiError::ShuttingDown`] when the room's task is gone.
    pub async fn view(&self) -> Result<RoomView, ApiError> {
        self.ask(Message::View).await
    }

    /// The game so far as a record (start, moves, result, players, date).
    ///
    /// # Errors
    /// [`ApiError::ShuttingDown`] when the room's task is gone.
    pub async fn record(&self) -> Result<notation::Record, ApiError> {
        self.ask(Message::Record).await
    }

    /// The room's current game, for an analysis.
    ///
    /// # Errors
    /// [`ApiError::ShuttingDown`] when the room's task is gone.
    pub async fn game(&self) -> Result<PlayedGame, ApiError> {
        self.ask(Message::Game).await
    }

    /// Takes a seat, with `token` (a local room's second seat shares the
    /// first's) or a new one: replies with the seat and its token.
    ///
    /// # Errors
    /// No seat is free; the store fails.
    pub async fn join(
        &self,
        joiner: Joiner,
        token: Option<String>,
    ) -> Result<(Side, String), ApiError> {
        self.call(|reply| Message::Join(joiner, token, reply)).await
    }

    /// The holder of `token` acts.
    ///
    /// # Errors
    /// The token holds no seat; the room refuses the action; the store fails.
    pub async fn act(&self, token: Option<String>, action: Action) -> Result<ActReply, ApiError> {
        self.call(|reply| Message::Act(token, action, reply)).await
    }

    /// Opens a connection after event `since`, with the seat token if it has
    /// one; a WebSocket (`socket`) without a seat counts as a spectator.
    ///
    /// # Errors
    /// The token holds no seat.
    pub async fn watch(
        &self,
        since: u64,
        token: Option<String>,
        socket: bool,
    ) -> Result<Watch, ApiError> {
        self.call(|reply| Message::Watch(since, token, socket, reply))
            .await
    }

    /// The events after `since` (for a connection that fell behind).
    ///
    /// # Errors
    /// [`ApiError::ShuttingDown`] when the room's task is gone; the store
    /// fails to read events older than the room keeps.
    pub async fn since(&self, since: u64) -> Result<Vec<Arc<Frame>>, ApiError> {
        self.call(|reply| Message::Since(since, reply)).await
    }

    /// The token's seats (or the one named of them) take a new display name:
    /// replies with the seats renamed and the player id.
    ///
    /// # Errors
    /// The token holds no such seat; the store fails.
    pub async fn rename(
        &self,
        token: Option<String>,
        seat: Option<Side>,
        name: String,
    ) -> Result<(Vec<Side>, String), ApiError> {
        self.call(|reply| Message::Rename(token, seat, name, reply))
            .await
    }

    /// Whether the room's task has stopped (idle, or the server shuts down).
    pub fn is_closed(&self) -> bool {
        self.inbox.is_closed()
    }

    /// Whether both handles reach the same task.
    pub(crate) fn same_task(&self, other: &RoomHandle) -> bool {
        self.inbox.same_channel(&other.inbox)
    }

    /// Tells the room another node took it (without waiting): it stops.
    pub(crate) fn lost(&self) {
        let inbox = self.inbox.clone();
        tokio::spawn(async move { inbox.send(Box::new(Message::Lost)).await });
    }

    /// Tells the room a connection closed (without waiting).
    pub fn unwatch(&self, seats: Vec<Side>, spectator: bool) {
        if !seats.is_empty() || spectator {
            let inbox = self.inbox.clone();
            tokio::spawn(async move {
                inbox
                    .send(Box::new(Message::Unwatch(seats, spectator)))
                    .await
            });
        }
    }
}

/// A room's current game as it stands.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game: its start, moves and, once over, outcome.
    pub game: AnyGame,
    /// Which game of the room: 1, 2 ... (rematches).
    pub number: u32,
    /// Whether it changes ratings.
    pub rated: bool,
    /// Whether it may be analysed now: over, or both seats agreed.
    pub analysable: bool,
}

/// What a room's task needs from the server.
#[derive(Clone)]
pub struct RoomContext {
    /// Where events are kept.
    pub store: Arc<dyn Store>,
    /// Who plays the computer's moves, a few searches at a time.
    pub computer: Computer,
    /// The server's settings.
    pub config: Arc<Config>,
    /// The lobby's summaries, kept up to date by the rooms.
    pub lobby: Lobby,
    /// Turns `true` when the server shuts down.
    pub shutdown: watch::Receiver<bool>,
    /// This node of the cluster, when rooms are leased (a shared database).
    pub node: Option<Node>,
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The task that drives a room: it owns the core and does everything else.
struct RoomTask {
    room: Room,
    /// The digest of each seat's token, the credential of whoever holds it.
    token_hashes: [Option<String>; 2],
    connections: Connections,
    /// The last few events as sent, for connections that reconnect or fall
    /// a little behind; older ones are read from the store.
    recent: VecDeque<Arc<Frame>>,
    events: broadcast::Sender<Arc<Frame>>,
    presence: watch::Sender<PresenceView>,
    computer_thinking: bool,
    /// Whether the computer is judging a draw offered to it.
    computer_judging_draw: bool,
    last_activity: Instant,
    inbox: Inbox,
    context: RoomContext,
    /// The lease this node plays the room by, in a cluster: every append is
    /// fenced by it.
    lease: Option<Lease>,
    /// Whether another node took the room: the task stops.
    lost: bool,
}

/// What a stored room is.
fn setup_of(record: &RoomRecord, config: &Config) -> Result<RoomSetup, ApiError> {
    let stored = |what: &str, err: &dyn std::fmt::Display| {
        ApiError::Stored(format!("{what} of room {}: {err}", record.id))
    };
    let settings_json: serde_json::Value =
        serde_json::from_str(&record.settings).map_err(|err| stored("settings", &err))?;
    let ms = |duration: Duration| u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
    Ok(RoomSetup {
        id: record.id.clone(),
        variant: record
            .variant
            .parse::<Variant>()
            .map_err(|err| stored("variant", &err))?,
        mode: record
            .mode
            .parse::<Mode>()
            .map_err(|err| stored("mode", &err))?,
        level: u8::try_from(record.level).map_err(|err| stored("level", &err))?,
        settings: RoomSettings::from_json(&settings_json)
            .map_err(|err| stored("settings", &err))?,
        start: record.start.clone(),
        created_at: record.created_at,
        grace_ms: ms(config.grace_period),
        lag_allowance_ms: ms(config.lag_allowance),
        abandon_after_ms: ms(config.abandon_after),
        waiting_ttl_ms: ms(config.waiting_room_ttl),
    })
}

/// Starts the task of a room that exists in the store, replaying its events.
///
/// # Errors
/// The store fails, or holds a room this build cannot read.
pub(crate) async fn spawn(id: &str, context: RoomContext) -> Result<RoomHandle, ApiError> {
    let store = &context.store;
    let record = store.room(id).await.map_err(|err| match err {
        store::StoreError::NotFound => ApiError::RoomNotFound(id.to_owned()),
        other => ApiError::Store(other),
    })?;
    let setup = setup_of(&record, &context.config)?;
    let lease = match &context.node {
        Some(node) => Some(node.acquire(id).await?),
        None => None,
    };
    // In a cluster the players' clocks never stopped: the room ran on
    // another node until now. Alone, the time the server was down costs nobody.
    let resume = match lease {
        Some(_) => Resume::Running,
        None => Resume::Afresh(now_ms()),
    };
    let mut token_hashes = [None, None];
    for seat in store.seats(id).await? {
        let side = seat
            .seat
            .parse::<Side>()
            .map_err(|err| ApiError::Stored(format!("seat of room {id}: {err}")))?;
        token_hashes[side.index()] = Some(seat.token_hash);
    }
    let stored = store.events(id, 0).await?;
    let mut recent = VecDeque::with_capacity(RECENT_FRAMES);
    let room = Room::new(setup)
        .map_err(|err| ApiError::Stored(format!("start of room {id}: {err}")))?
        .recover(
            stored,
            |game, record: EventRecord| {
                let json: EventJson = serde_json::from_str(&record.data).map_err(|err| {
                    ApiError::Stored(format!("event {} of room {id}: {err}", record.seq))
                })?;
                let event = json.into_event(game).map_err(|err| {
                    ApiError::Stored(format!("event {} of room {id}: {err}", record.seq))
                })?;
                keep_recent(
                    &mut recent,
                    Arc::new(Frame {
                        seq: event.seq,
                        json: record.data.into(),
                    }),
                );
                Ok::<_, ApiError>(event)
            },
            resume,
        )?;
    let (inbox, messages) = mpsc::channel(256);
    let connections = Connections::default();
    let task = RoomTask {
        presence: watch::channel(room.presence_view(&connections)).0,
        room,
        token_hashes,
        connections,
        recent,
        events: broadcast::channel(LIVE_FRAMES).0,
        computer_thinking: false,
        computer_judging_draw: false,
        last_activity: Instant::now(),
        inbox: inbox.clone(),
        context,
        lease,
        lost: false,
    };
    task.context.lobby.update(task.room.summary());
    tokio::spawn(Box::new(task).run(messages));
    Ok(RoomHandle { inbox })
}

impl RoomTask {
    /// The task's loop. The task is boxed: an `async fn`'s future keeps its
    /// arguments twice, and this one lives as long as the room.
    async fn run(mut self: Box<Self>, mut messages: mpsc::Receiver<Box<Message>>) {
        let mut shutdown = self.context.shutdown.clone();
        self.computer_turn();
        loop {
            let wake = self.next_wake();
            tokio::select! {
                message = messages.recv() => match message {
                    Some(message) => {
                        self.last_activity = Instant::now();
                        // Boxed, as the tick below: what a message does (store,
                        // records, ratings) would otherwise make the task's
                        // future, which lives as long as the room, 6 KB.
                        Box::pin(self.handle(*message)).await;
                    }
                    None => break,
                },
                () = sleep_until(wake) => {
                    if self.idle_until().is_some_and(|until| until <= Instant::now()) {
                        break;
                    }
                    if let Err(err) = Box::pin(self.execute(Command::Tick)).await {
                        tracing::error!(room = %self.id(), %err, "timers not stored");
                    }
                }
                _ = shutdown.changed() => break,
            }
            if self.lost {
                tracing::info!(room = %self.id(), "room taken by another node");
                break;
            }
            self.publish_presence();
            self.computer_turn();
            self.computer_draw_answer();
        }
        // The registry starts the room again from the store when it is asked for.
        self.context.lobby.remove(self.id());
        // In a cluster, any node may start it then: this one keeps no lease
        // for a room it no longer plays.
        if let (Some(node), Some(lease), false) = (&self.context.node, &self.lease, self.lost) {
            node.release(lease).await;
        }
    }

    fn id(&self) -> &str {
        &self.room.setup().id
    }

    async fn handle(&mut self, message: Message) {
        match message {
            Message::View(reply) => {
                let _ = reply.send(self.room.view(&self.connections, now_ms()));
            }
            Message::Record(reply) => {
                let _ = reply.send(records::room_record(&self.room));
            }
            Message::Game(reply) => {
                let _ = reply.send(PlayedGame {
                    game: self.room.game().clone(),
                    number: self.room.game_number(),
                    rated: self.room.setup().settings.rated,
                    analysable: self.room.analysable(),
                });
            }
            Message::Join(joiner, token, reply) => {
                let _ = reply.send(self.join(joiner, token).await);
            }
            Message::Act(token, action, reply) => {
                let _ = reply.send(self.act(token.as_deref(), action).await);
            }
            Message::Watch(since, token, socket, reply) => {
                let _ = reply.send(self.watch(since, token.as_deref(), socket).await);
            }
            Message::Rename(token, seat, name, reply) => {
                let _ = reply.send(self.rename(token.as_deref(), seat, name).await);
            }
            Message::Since(since, reply) => {
                let _ = reply.send(self.frames_after(since).await);
            }
            Message::Unwatch(seats, spectator) => self.unwatch(&seats, spectator).await,
            Message::Lost => self.lost = true,
            Message::ComputerDrawAnswer(turn, accept) => {
                self.computer_judging_draw = false;
                match self
                    .execute(Command::ComputerDrawAnswer { turn, accept })
                    .await
                {
                    Ok(_) | Err(ApiError::Refused(Refusal::Stale)) => {}
                    Err(err) => {
                        tracing::error!(room = %self.id(), %err, "computer's draw answer not stored");
                    }
                }
            }
            Message::ComputerMove(turn, choice) => {
                self.computer_thinking = false;
                if let Some(mv) = choice {
                    match self.execute(Command::ComputerMove { turn, mv }).await {
                        Ok(_) | Err(ApiError::Refused(Refusal::Stale)) => {}
                        Err(err) => {
                            tracing::error!(room = %self.id(), %mv, %err, "computer move refused");
                        }
                    }
                }
            }
        }
    }

    /// Decides `command` and commits the events it causes.
    async fn execute(&mut self, command: Command) -> Result<Vec<Event>, ApiError> {
        let events = self.room.decide(&command, now_ms())?;
        self.commit(events, None).await
    }

    /// Stores `events` (in one transaction with `seat`, the seat a join
    /// takes), then applies them, sends them and does the bookkeeping they
    /// call for. Returns the events.
    async fn commit(
        &mut self,
        events: Vec<Event>,
        seat: Option<SeatRecord>,
    ) -> Result<Vec<Event>, ApiError> {
        if events.is_empty() {
            return Ok(events);
        }
        let records: Vec<EventRecord> = events
            .iter()
            .map(|event| EventRecord {
                seq: i64::try_from(event.seq).unwrap_or(i64::MAX),
                at: event.at,
                kind: event.kind.name().to_owned(),
                data: EventJson::from(event).stored(),
            })
            .collect();
        let appended = self
            .context
            .store
            .append_events_fenced(self.id(), &records, seat.as_ref(), self.lease.as_ref())
            .await;
        if let Err(StoreError::Fenced) = appended {
            self.lost = true;
        }
        appended?;
        for (event, record) in events.iter().zip(&records) {
            let notation = self.room.notation_of(&event.kind);
            self.room.apply(event);
            // What the event left the room showing goes with it, so that no
            // page fetches the room to learn it.
            let after = self.room.after_view(&self.connections, now_ms());
            let frame = Frame::live(event.seq, &record.data, notation.as_ref(), &after);
            // The lobby hears of a change before any client does, so a client
            // that reads the lobby after an event finds it there.
            if changes_summary(&event.kind) {
                self.context.lobby.update(self.room.summary());
            }
            keep_recent(&mut self.recent, frame.clone());
            // No receiver is fine: nobody is watching.
            let _ = self.events.send(frame);
            self.after(event).await;
        }
        Ok(events)
    }

    /// The bookkeeping an applied event calls for: a finished game's record
    /// and ratings, the room's finished mark.
    async fn after(&mut self, event: &Event) {
        match &event.kind {
            EventKind::End { .. } => self.record_finished_game().await,
            EventKind::NewGame { .. } => {
                if let Err(err) = self.context.store.set_finished(self.id(), false).await {
                    tracing::error!(room = %self.id(), %err, "room not marked open");
                }
            }
            _ => {}
        }
    }

    /// Marks the room finished and records the game that just ended, with
    /// the players' new ratings when it was rated; an abandoned game, or one
    /// the computer played alone, is not recorded.
    async fn record_finished_game(&self) {
        let store = &self.context.store;
        let id = self.id();
        if let Err(err) = store.set_finished(id, true).await {
            tracing::error!(room = %id, %err, "room not marked finished");
        }
        let room = &self.room;
        if !room.counts() {
            return;
        }
        let (Some(outcome), Some(first), Some(second)) = (
            room.game().outcome(),
            room.seat(room.seat_of(Side::First)),
            room.seat(room.seat_of(Side::Second)),
        ) else {
            return;
        };
        let setup = room.setup();
        let game = store::GameRecord {
            room_id: id.to_owned(),
            number: i64::from(room.game_number()),
            variant: setup.variant.name().to_owned(),
            rated: setup.settings.rated,
            first_player: first.player.clone(),
            second_player: second.player.clone(),
            winner: outcome.winner.map(|side| side.name().to_owned()),
            reason: outcome.reason.code().to_owned(),
            finished_at: now_ms(),
        };
        let rated = setup.settings.rated
            && setup.mode == Mode::Online
            && first.player != second.player
            && !first.computer
            && !second.computer;
        let new_ratings: Vec<RatingRecord> = if rated {
            ratings::after_game(store.as_ref(), &game)
                .await
                .unwrap_or_else(|err| {
                    tracing::error!(room = %id, %err, "ratings not read");
                    Vec::new()
                })
        } else {
            Vec::new()
        };
        if let Err(err) = store.finish_game(&game, &new_ratings).await {
            tracing::error!(room = %id, %err, "finished game not recorded");
        }
    }

    async fn join(
        &mut self,
        joiner: Joiner,
        token: Option<String>,
    ) -> Result<(Side, String), ApiError> {
        let token = token.unwrap_or_else(ids::secret);
        let token_hash = store::digest(&token);
        let events = self.room.decide(&Command::Join(joiner), now_ms())?;
        let Some(EventKind::Seated { seat, player, .. }) = events.first().map(|e| &e.kind) else {
            return Err(Refusal::NoFreeSeat.into());
        };
        let seat = *seat;
        let record = SeatRecord {
            room_id: self.id().to_owned(),
            seat: seat.name().to_owned(),
            token_hash: token_hash.clone(),
            player: player.clone(),
        };
        self.commit(events, Some(record))
            .await
            .map_err(|err| match err {
                ApiError::Store(store::StoreError::Conflict) => Refusal::NoFreeSeat.into(),
                other => other,
            })?;
        self.token_hashes[seat.index()] = Some(token_hash);
        Ok((seat, token))
    }

    async fn act(&mut self, token: Option<&str>, action: Action) -> Result<ActReply, ApiError> {
        let seats = self.seats_of(token)?;
        let events = self
            .execute(Command::Act {
                seats,
                action: action.clone(),
            })
            .await?;
        let ended = events
            .iter()
            .any(|event| matches!(event.kind, EventKind::End { .. }));
        Ok(match action {
            Action::Move(_) => ActReply::Moved {
                ply: events
                    .iter()
                    .find_map(|event| match event.kind {
                        EventKind::Move { ply, .. } => Some(ply),
                        _ => None,
                    })
                    .unwrap_or_else(|| self.room.game().ply()),
            },
            Action::Resign | Action::Impasse => ActReply::Ended {
                result: self.room.result(),
            },
            Action::Draw if ended => ActReply::Draw {
                draw: Agreement::Agreed,
                result: Some(self.room.result()),
            },
            Action::Draw => ActReply::Draw {
                draw: Agreement::Offered,
                result: None,
            },
            Action::Chat(phrase) => ActReply::Said { phrase },
            Action::AgreeAnalysis => ActReply::Analysis {
                analysis: if self.room.analysable() {
                    Agreement::Agreed
                } else {
                    Agreement::Offered
                },
            },
            Action::Takeback | Action::DeclineTakeback => {
                let taken_back = events.iter().find_map(|event| match event.kind {
                    EventKind::TakenBack { ply } => Some(ply),
                    _ => None,
                });
                let takeback = match (taken_back, action) {
                    (Some(_), _) => Agreement::Agreed,
                    (None, Action::DeclineTakeback) => Agreement::Declined,
                    (None, _) => Agreement::Offered,
                };
                ActReply::Takeback {
                    takeback,
                    ply: taken_back,
                }
            }
            Action::Rematch => match events.iter().find_map(|event| match event.kind {
                EventKind::NewGame { game, .. } => Some(game),
                _ => None,
            }) {
                Some(game) => ActReply::Rematch {
                    rematch: Agreement::Started,
                    game: Some(game),
                },
                None => ActReply::Rematch {
                    rematch: Agreement::Offered,
                    game: None,
                },
            },
        })
    }

    async fn watch(
        &mut self,
        since: u64,
        token: Option<&str>,
        socket: bool,
    ) -> Result<Watch, ApiError> {
        let seats = match token {
            Some(_) => self.seats_of(token)?,
            None => Vec::new(),
        };
        // Subscribe before taking the backlog: the task is single-threaded, so
        // nothing can be sent in between and no event is lost or doubled.
        let live = self.events.subscribe();
        let backlog = self.frames_after(since).await?;
        for &seat in &seats {
            self.connections.seats[seat.index()] += 1;
            if let Err(err) = self.execute(Command::Return(seat)).await {
                tracing::warn!(room = %self.id(), %err, "return not stored");
            }
        }
        let spectator = socket && seats.is_empty();
        if spectator {
            self.connections.spectators += 1;
        }
        self.publish_presence();
        let mut presence = self.presence.subscribe();
        // The new socket hears who is there at once, even if nothing changed.
        presence.mark_changed();
        Ok(Watch {
            seats,
            backlog,
            live,
            presence,
            spectator,
        })
    }

    async fn unwatch(&mut self, seats: &[Side], spectator: bool) {
        if spectator {
            self.connections.spectators = self.connections.spectators.saturating_sub(1);
        }
        for &seat in seats {
            let open = &mut self.connections.seats[seat.index()];
            *open = open.saturating_sub(1);
            if *open == 0
                && let Err(err) = self.execute(Command::Leave(seat)).await
            {
                tracing::warn!(room = %self.id(), %err, "away not stored");
            }
        }
    }

    /// Gives the token's seats (or `only` of them) the display name `name`;
    /// returns the seats renamed and their player id.
    async fn rename(
        &mut self,
        token: Option<&str>,
        only: Option<Side>,
        name: String,
    ) -> Result<(Vec<Side>, String), ApiError> {
        let mut seats = self.seats_of(token)?;
        if let Some(only) = only {
            if !seats.contains(&only) {
                return Err(ApiError::WrongToken);
            }
            seats = vec![only];
        }
        self.execute(Command::Rename {
            seats: seats.clone(),
            name,
        })
        .await?;
        let player = self
            .room
            .seat(seats[0])
            .map(|seat| seat.player.clone())
            .unwrap_or_default();
        Ok((seats, player))
    }

    /// The seats `token` holds: who the sender may act for.
    fn seats_of(&self, token: Option<&str>) -> Result<Vec<Side>, ApiError> {
        let token_hash = store::digest(token.ok_or(ApiError::MissingToken)?);
        let seats: Vec<Side> = [Side::First, Side::Second]
            .into_iter()
            .filter(|&seat| {
                self.room.seat(seat).is_some_and(|taken| !taken.computer)
                    && self.token_hashes[seat.index()]
                        .as_deref()
                        .is_some_and(|held| ids::same_secret(held, &token_hash))
            })
            .collect();
        if seats.is_empty() {
            return Err(ApiError::WrongToken);
        }
        Ok(seats)
    }

    /// The events after `since`: from memory when the room still keeps
    /// them all, else from the store.
    async fn frames_after(&self, since: u64) -> Result<Vec<Arc<Frame>>, ApiError> {
        let oldest_kept = self
            .recent
            .front()
            .map_or(self.room.last_seq() + 1, |frame| frame.seq);
        if since.saturating_add(1) >= oldest_kept {
            return Ok(self
                .recent
                .iter()
                .filter(|frame| frame.seq > since)
                .cloned()
                .collect());
        }
        let after = i64::try_from(since).unwrap_or(i64::MAX);
        let stored = self.context.store.events(self.id(), after).await?;
        Ok(stored
            .into_iter()
            .map(|record| {
                Arc::new(Frame {
                    seq: u64::try_from(record.seq).unwrap_or(0),
                    json: record.data.into(),
                })
            })
            .collect())
    }

    /// Sends the presence frame to every socket if it changed.
    fn publish_presence(&self) {
        let frame = self.room.presence_view(&self.connections);
        self.presence.send_if_modified(|current| {
            let changed = *current != frame;
            if changed {
                *current = frame;
            }
            changed
        });
    }

    /// The next moment the task wakes by itself: a clock, a grace period or
    /// the idle timeout.
    fn next_wake(&self) -> Option<Instant> {
        let room = self.room.next_deadline().map(|at| {
            let wait = u64::try_from(at.saturating_sub(now_ms())).unwrap_or(0);
            Instant::now() + Duration::from_millis(wait)
        });
        room.into_iter().chain(self.idle_until()).min()
    }

    /// When a room may stop its task and free its memory: nobody watches it
    /// and nothing waits in it (no deadline such as a running clock, no
    /// computer to move or to answer a draw). It loads again from the store
    /// when it is asked for; a room with a deadline stays to keep it.
    fn idle_until(&self) -> Option<Instant> {
        let watched =
            self.connections.seats.iter().any(|&open| open > 0) || self.events.receiver_count() > 0;
        let waits = self.room.next_deadline().is_some()
            || self.room.computer_to_move()
            || self.room.computer_to_answer_draw()
            || self.computer_thinking
            || self.computer_judging_draw;
        (!watched && !waits).then(|| self.last_activity + self.context.config.idle_room_timeout)
    }

    /// Asks the computer for a move when it is its turn; it waits its turn
    /// for a search and thinks on a blocking thread.
    fn computer_turn(&mut self) {
        if self.computer_thinking || !self.room.computer_to_move() {
            return;
        }
        self.computer_thinking = true;
        let game = self.room.game().clone();
        let seat = self.room.seat_of(game.side_to_move());
        let level = if self.room.seat(seat).is_some_and(|taken| taken.computer) {
            self.room.setup().level
        } else {
            self.context.config.takeover_level
        };
        let turn = self.room.turn();
        // When the side's clock runs out: the computer's wait for a search counts.
        let deadline = self.room.clock_deadline().map(|at| {
            let left = u64::try_from(at.saturating_sub(now_ms())).unwrap_or(0);
            Instant::now() + Duration::from_millis(left)
        });
        let computer = self.context.computer.clone();
        let inbox = self.inbox.clone();
        tokio::spawn(async move {
            let choice = computer.choose(game, level, deadline).await;
            let _ = inbox
                .send(Box::new(Message::ComputerMove(turn, choice)))
                .await;
        });
    }

    /// Asks the computer to answer a draw offered to it, from its
    /// evaluation of its own side ([`accepts_draw`](crate::computer::accepts_draw)).
    fn computer_draw_answer(&mut self) {
        if self.computer_judging_draw || !self.room.computer_to_answer_draw() {
            return;
        }
        self.computer_judging_draw = true;
        let game = self.room.game().clone();
        let turn = self.room.turn();
        // The offer is the person's: the computer plays the other side.
        let computer_to_move = self
            .room
            .draw_offer()
            .is_some_and(|offered| offered != game.side_to_move());
        let computer = self.context.computer.clone();
        let inbox = self.inbox.clone();
        tokio::spawn(async move {
            let score = computer.judge_draw(game).await;
            let own = score.map(|score| if computer_to_move { score } else { -score });
            let accept = own.is_some_and(crate::computer::accepts_draw);
            let _ = inbox
                .send(Box::new(Message::ComputerDrawAnswer(turn, accept)))
                .await;
        });
    }
}

/// How many of its last events a room keeps in memory as sent (about a
/// kilobyte each, with what the room shows after them): enough for a socket
/// that reconnects after a move or two; older ones come from the store.
const RECENT_FRAMES: usize = 3;

/// How many events a socket may fall behind the room before it reads the
/// missed ones back (from the room's recent events or the store).
const LIVE_FRAMES: usize = 16;

/// Adds `frame` to the room's recent events, forgetting the oldest beyond
/// [`RECENT_FRAMES`].
fn keep_recent(recent: &mut VecDeque<Arc<Frame>>, frame: Arc<Frame>) {
    if recent.len() == RECENT_FRAMES {
        recent.pop_front();
    }
    recent.push_back(frame);
}

/// Whether an event changes what the lobby shows of the room.
fn changes_summary(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Seated { .. }
            | EventKind::End { .. }
            | EventKind::NewGame { .. }
            | EventKind::Renamed { .. }
    )
}

/// Sleeps until `when`, or forever.
async fn sleep_until(when: Option<Instant>) {
    match when {
        Some(when) => tokio::time::sleep_until(when).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests;
