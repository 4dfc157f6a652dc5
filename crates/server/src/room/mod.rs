//! A room as an actor: one task owns the game, its seats, clock and event log.
//! Handlers and sockets send it [`Command`]s and listen to its events.
//!
//! Every change is an [`Event`] that is written to the store *before* it
//! changes the room in memory or reaches any client, so an acknowledged move
//! survives a crash, and replaying the stored events rebuilds the room.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rules::{AnyGame, EndReason, Outcome, Side, Variant};
use serde_json::{Value, json};
use store::{EventRecord, GameRecord, RatingRecord, RoomRecord, SeatRecord, Store};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::time::Instant;

mod clock;
mod view;

use crate::computer::ComputerPlayer;
use crate::error::ApiError;
use crate::event::{Event, EventKind, Frame, side_named};
use crate::lobby::{Lobby, RoomStatus};
use crate::ratings;
use crate::room_settings::RoomSettings;
use crate::{Config, ids};

/// How a room is played.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Mode {
    /// Two devices.
    Online,
    /// Both seats on one device, one token.
    Local,
    /// One seat is the computer.
    Computer,
}

impl Mode {
    /// The API name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Online => "online",
            Mode::Local => "local",
            Mode::Computer => "computer",
        }
    }

    /// Reads the API name.
    pub fn from_name(name: &str) -> Option<Mode> {
        match name {
            "online" => Some(Mode::Online),
            "local" => Some(Mode::Local),
            "computer" => Some(Mode::Computer),
            _ => None,
        }
    }
}

/// What a seated player (or a client for them) asks the room to do.
#[derive(Clone, Debug)]
pub enum Action {
    /// Play a move (USI/ICCS).
    Move(String),
    /// Resign.
    Resign,
    /// Offer a draw, or accept the opponent's offer.
    Draw,
    /// Claim (24-point) or declare (27-point) an impasse.
    Impasse,
    /// Ask for (or agree to) another game in the room once this one is over.
    Rematch,
}

/// Who takes a seat.
#[derive(Clone, Debug)]
pub struct Joiner {
    /// The anonymous player id.
    pub player: String,
    /// The display name.
    pub name: String,
    /// The seat wanted, or `None` for any free one.
    pub seat: Option<Side>,
    /// Reuse this token (local rooms: one token holds both seats).
    pub token: Option<String>,
    /// The seat is the computer's.
    pub computer: bool,
}

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
    pub presence: watch::Receiver<Value>,
    /// Whether the connection counts as a spectator (a socket without a seat).
    pub spectator: bool,
}

type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

/// The messages a room's task handles, one at a time.
#[derive(Debug)]
pub enum Command {
    /// The room as the `GET /rooms/{id}` JSON.
    View(oneshot::Sender<Value>),
    /// The game so far as a record (start, moves, result).
    Record(oneshot::Sender<notation::Record>),
    /// Take a seat: replies with the seat and its token.
    Join(Joiner, Reply<(Side, String)>),
    /// A seated player acts: replies with the JSON acknowledgement.
    Act(Option<String>, Action, Reply<Value>),
    /// Open a connection, with the seat token if it has one; a WebSocket
    /// (`true`) without a seat counts as a spectator.
    Watch(i64, Option<String>, bool, Reply<Watch>),
    /// The events after a number (for a connection that fell behind).
    Since(i64, oneshot::Sender<Vec<Arc<Frame>>>),
    /// A connection holding these seats (or a spectator's, `true`) closed.
    Unwatch(Vec<Side>, bool),
    /// The token's seats (or the one named of them) take a new display name:
    /// replies with the seats renamed and the player id.
    Rename(
        Option<String>,
        Option<Side>,
        String,
        Reply<(Vec<Side>, String)>,
    ),
    /// The computer's choice for the position after `ply` moves.
    ComputerMove(usize, Option<String>),
}

/// A handle to a room's task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    inbox: mpsc::Sender<Command>,
}

impl RoomHandle {
    /// Sends a command and waits for its reply.
    ///
    /// # Errors
    /// [`ApiError::ShuttingDown`] when the room's task is gone; else the room's answer.
    pub async fn call<T>(&self, make: impl FnOnce(Reply<T>) -> Command) -> Result<T, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.inbox
            .send(make(reply))
            .await
            .map_err(|_| ApiError::ShuttingDown)?;
        answer.await.map_err(|_| ApiError::ShuttingDown)?
    }

    /// Sends a command whose reply is infallible and waits for it.
    ///
    /// # Errors
    /// [`ApiError::ShuttingDown`] when the room's task is gone.
    pub async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.inbox
            .send(make(reply))
            .await
            .map_err(|_| ApiError::ShuttingDown)?;
        answer.await.map_err(|_| ApiError::ShuttingDown)
    }

    /// Whether the room's task has stopped (idle, or the server shuts down).
    pub fn is_closed(&self) -> bool {
        self.inbox.is_closed()
    }

    /// Tells the room a connection closed (without waiting).
    pub fn unwatch(&self, seats: Vec<Side>, spectator: bool) {
        if !seats.is_empty() || spectator {
            let inbox = self.inbox.clone();
            tokio::spawn(async move { inbox.send(Command::Unwatch(seats, spectator)).await });
        }
    }
}

/// What a room's task needs from the server.
#[derive(Clone)]
pub struct RoomContext {
    /// Where events are kept.
    pub store: Arc<dyn Store>,
    /// Who plays the computer's moves.
    pub computer: Arc<dyn ComputerPlayer>,
    /// The server's settings.
    pub config: Arc<Config>,
    /// The lobby's summaries, kept up to date by the rooms.
    pub lobby: Lobby,
    /// Turns `true` when the server shuts down.
    pub shutdown: watch::Receiver<bool>,
}

/// One seat of a room.
#[derive(Clone, Debug)]
struct Seat {
    token: String,
    player: String,
    name: String,
    computer: bool,
}

/// A seat's connections and whether the computer plays for it.
#[derive(Clone, Copy, Debug, Default)]
struct Presence {
    connections: usize,
    away_until: Option<Instant>,
    taken_over: bool,
}

/// The room's state, owned by its task.
struct Room {
    record: RoomRecord,
    mode: Mode,
    settings: RoomSettings,
    game: AnyGame,
    seats: [Option<Seat>; 2],
    presence: [Presence; 2],
    frames: Vec<Arc<Frame>>,
    /// Open WebSockets without a seat.
    spectators: usize,
    /// The latest presence frame; not an event (never stored or numbered).
    presence_out: watch::Sender<Value>,
    draw_offer: Option<Side>,
    /// The seat that asked for a rematch.
    rematch_offer: Option<Side>,
    /// 1 for the room's first game, 2 after a rematch ...
    game_number: i64,
    /// Whether the seats play the opposite sides to their names this game.
    swapped: bool,
    deadline: Option<Instant>,
    /// Main time each side has left (byoyomi clocks), by side.
    main_left: [Duration; 2],
    /// When the side to move's turn began (unix milliseconds).
    turn_started_ms: i64,
    computer_thinking: bool,
    last_activity: Instant,
    events: broadcast::Sender<Arc<Frame>>,
    inbox: mpsc::Sender<Command>,
    context: RoomContext,
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
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
    let seats = store.seats(id).await?;
    let events = store.events(id, 0).await?;
    let settings_json: Value = serde_json::from_str(&record.settings)
        .map_err(|err| ApiError::Stored(format!("stored settings of room {id}: {err}")))?;
    let settings = RoomSettings::from_json(&settings_json).map_err(ApiError::Stored)?;
    let variant: Variant = record
        .variant
        .parse()
        .map_err(|err: rules::ParseVariantError| ApiError::Stored(err.to_string()))?;
    let mode = Mode::from_name(&record.mode).unwrap_or(Mode::Online);
    let game = AnyGame::new(variant, Some(&record.start), &settings.rules)
        .map_err(|err| ApiError::Stored(err.to_string()))?;
    let main_time = settings.main_time();
    let (inbox, commands) = mpsc::channel(256);
    let (events_out, _) = broadcast::channel(256);
    let mut room = Room {
        record,
        mode,
        settings,
        game,
        seats: [None, None],
        presence: [Presence::default(); 2],
        frames: Vec::with_capacity(events.len()),
        spectators: 0,
        presence_out: watch::channel(Value::Null).0,
        draw_offer: None,
        rematch_offer: None,
        game_number: 1,
        swapped: false,
        deadline: None,
        main_left: [main_time; 2],
        turn_started_ms: 0,
        computer_thinking: false,
        last_activity: Instant::now(),
        events: events_out,
        inbox: inbox.clone(),
        context,
    };
    for seat in seats {
        if let Some(side) = side_named(&seat.seat) {
            room.seats[side.index()] = Some(Seat {
                token: seat.token,
                player: seat.player,
                name: String::new(),
                computer: false,
            });
        }
    }
    for record in events {
        let event: Event = serde_json::from_str(&record.data).map_err(|err| {
            ApiError::Stored(format!("stored event {} of room {id}: {err}", record.seq))
        })?;
        room.replay(&event);
        room.frames.push(Frame::new(&event));
    }
    // A restart does not count against the player to move: the clock starts afresh.
    room.restart_clock();
    room.publish_summary();
    room.publish_presence();
    tokio::spawn(room.run(commands));
    Ok(RoomHandle { inbox })
}

impl Room {
    /// Applies a stored event to the room in memory, without storing it again.
    fn replay(&mut self, event: &Event) {
        match &event.kind {
            EventKind::Seated {
                seat,
                player,
                name,
                computer,
            } => {
                // Play (and the clock) begins when the last seat is taken.
                self.turn_started_ms = event.at;
                if let Some(side) = side_named(seat) {
                    let token = self.seats[side.index()]
                        .take()
                        .map(|seat| seat.token)
                        .unwrap_or_default();
                    self.seats[side.index()] = Some(Seat {
                        token,
                        player: player.clone(),
                        name: name.clone(),
                        computer: *computer,
                    });
                }
            }
            EventKind::Move { mv, side, .. } => {
                if let Some(side) = side_named(side) {
                    self.spend_main_time(side, event.at);
                }
                if let Err(err) = self.game.play_text(mv) {
                    tracing::error!(room = %self.record.id, %mv, %err, "stored move does not replay");
                }
                self.draw_offer = None;
            }
            EventKind::DrawOffered { side } => self.draw_offer = side_named(side),
            EventKind::RematchOffered { seat } => self.rematch_offer = side_named(seat),
            EventKind::NewGame { game, swapped } => {
                self.game = self.fresh_game();
                self.main_left = [self.settings.main_time(); 2];
                self.turn_started_ms = event.at;
                self.game_number = *game;
                self.swapped = *swapped;
                self.draw_offer = None;
                self.rematch_offer = None;
            }
            EventKind::End { reason, by, .. } => {
                let by = by.as_deref().and_then(side_named);
                match (reason.as_str(), by) {
                    ("resignation", Some(side)) => self.game.resign(side),
                    ("timeout", Some(side)) => self.game.time_out(side),
                    ("agreement", _) => self.game.agree_draw(),
                    ("impasse", Some(side)) => {
                        let _ = self.game.claim_impasse(side);
                    }
                    // Ends that moves decide were decided by replaying the moves.
                    _ => {}
                }
            }
            EventKind::Renamed { seat, name } => {
                if let Some(seat) =
                    side_named(seat).and_then(|side| self.seats[side.index()].as_mut())
                {
                    seat.name.clone_from(name);
                }
            }
            EventKind::Away { .. } | EventKind::Takeover { .. } | EventKind::Back { .. } => {}
        }
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        let mut shutdown = self.context.shutdown.clone();
        self.computer_turn();
        loop {
            let wake = self.next_wake();
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => {
                        self.last_activity = Instant::now();
                        self.handle(command).await;
                        self.publish_presence();
                    }
                    None => break,
                },
                () = sleep_until(wake) => {
                    if self.idle_until().is_some_and(|until| until <= Instant::now()) {
                        break;
                    }
                    self.on_timer().await;
                    self.publish_presence();
                }
                _ = shutdown.changed() => break,
            }
        }
        // The registry starts the room again from the store when it is asked for.
        self.context.lobby.remove(&self.record.id);
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::View(reply) => {
                let _ = reply.send(self.view());
            }
            Command::Record(reply) => {
                let _ = reply.send(notation::Record::from_game(&self.game));
            }
            Command::Join(joiner, reply) => {
                let answer = self.join(joiner).await;
                let _ = reply.send(answer);
            }
            Command::Act(token, action, reply) => {
                let answer = self.act(token.as_deref(), action).await;
                let _ = reply.send(answer);
            }
            Command::Watch(since, token, socket, reply) => {
                let answer = self.watch(since, token.as_deref(), socket).await;
                let _ = reply.send(answer);
            }
            Command::Rename(token, seat, name, reply) => {
                let answer = self.rename(token.as_deref(), seat, name).await;
                let _ = reply.send(answer);
            }
            Command::Since(since, reply) => {
                let _ = reply.send(self.frames_after(since));
            }
            Command::Unwatch(seats, spectator) => {
                if spectator {
                    self.spectators = self.spectators.saturating_sub(1);
                }
                self.unwatch(&seats).await;
            }
            Command::ComputerMove(ply, mv) => {
                self.computer_thinking = false;
                if let Some(mv) = mv
                    && ply == self.game.moves_text().len()
                    && self.computer_to_move()
                {
                    let side = self.game.side_to_move();
                    if let Err(err) = self.play(side, &mv, true).await {
                        tracing::error!(room = %self.record.id, %mv, %err, "computer move refused");
                    }
                }
                self.computer_turn();
            }
        }
    }

    fn status(&self) -> RoomStatus {
        if self.game.outcome().is_some() {
            RoomStatus::Finished
        } else if self.seats.iter().any(Option::is_none) {
            RoomStatus::Waiting
        } else {
            RoomStatus::Playing
        }
    }

    /// Stores an event, then records it in memory and sends it to every connection.
    /// Returns when the event happened (unix milliseconds).
    async fn emit(&mut self, kind: EventKind) -> Result<i64, ApiError> {
        let event = Event {
            seq: self.frames.len() as i64 + 1,
            at: now_ms(),
            kind,
        };
        let data =
            serde_json::to_string(&event).map_err(|err| ApiError::Stored(err.to_string()))?;
        let record = EventRecord {
            seq: event.seq,
            at: event.at,
            kind: event.kind.name().to_owned(),
            data,
        };
        self.context
            .store
            .append_event(&self.record.id, &record)
            .await?;
        let frame = Frame::new(&event);
        self.frames.push(frame.clone());
        // No receiver is fine: nobody is watching.
        let _ = self.events.send(frame);
        Ok(event.at)
    }

    fn frames_after(&self, since: i64) -> Vec<Arc<Frame>> {
        let start = usize::try_from(since.max(0)).unwrap_or(usize::MAX);
        self.frames
            .get(start..)
            .map_or_else(Vec::new, <[_]>::to_vec)
    }

    /// The seats `token` holds.
    fn seats_of(&self, token: &str) -> Vec<Side> {
        [Side::First, Side::Second]
            .into_iter()
            .filter(|side| {
                self.seats[side.index()]
                    .as_ref()
                    .is_some_and(|seat| !seat.computer && ids::same_secret(&seat.token, token))
            })
            .collect()
    }

    /// The side a seat plays in the current game.
    fn side_of(&self, seat: Side) -> Side {
        if self.swapped { seat.opponent() } else { seat }
    }

    /// The seat that plays a side in the current game.
    fn seat_of(&self, side: Side) -> Side {
        self.side_of(side)
    }

    /// The room's start position again, for a new game.
    fn fresh_game(&self) -> AnyGame {
        match AnyGame::new(
            self.game.variant(),
            Some(&self.record.start),
            &self.settings.rules,
        ) {
            Ok(game) => game,
            // The start was checked when the room was made; keep the old game's start.
            Err(_) => AnyGame::from_position(self.game.position(), self.settings.rules.clone()),
        }
    }

    async fn join(&mut self, joiner: Joiner) -> Result<(Side, String), ApiError> {
        let free = |side: &Side| self.seats[side.index()].is_none();
        let side = match joiner.seat {
            Some(side) if free(&side) => side,
            Some(_) => return Err(ApiError::NoFreeSeat),
            None => [Side::First, Side::Second]
                .into_iter()
                .find(free)
                .ok_or(ApiError::NoFreeSeat)?,
        };
        let token = joiner.token.unwrap_or_else(ids::secret);
        self.context
            .store
            .take_seat(&SeatRecord {
                room_id: self.record.id.clone(),
                seat: side.name().to_owned(),
                token: token.clone(),
                player: joiner.player.clone(),
            })
            .await
            .map_err(|err| match err {
                store::StoreError::Conflict => ApiError::NoFreeSeat,
                other => ApiError::Store(other),
            })?;
        self.seats[side.index()] = Some(Seat {
            token: token.clone(),
            player: joiner.player.clone(),
            name: joiner.name.clone(),
            computer: joiner.computer,
        });
        self.emit(EventKind::Seated {
            seat: side.name().to_owned(),
            player: joiner.player,
            name: joiner.name,
            computer: joiner.computer,
        })
        .await?;
        if self.status() == RoomStatus::Playing {
            self.restart_clock();
        }
        self.publish_summary();
        self.computer_turn();
        Ok((side, token))
    }

    /// Checks the token of a request for `action` and returns the side it acts
    /// for (for a rematch: the seat).
    fn authorise(&self, token: Option<&str>, action: &Action) -> Result<Side, ApiError> {
        let token = token.ok_or(ApiError::MissingToken)?;
        let seats = self.seats_of(token);
        if seats.is_empty() {
            return Err(ApiError::WrongToken);
        }
        if let Action::Rematch = action {
            if self.game.outcome().is_none() {
                return Err(ApiError::NotPlaying(
                    "a rematch is asked for once the game is over",
                ));
            }
            return Ok(seats[0]);
        }
        if self.game.outcome().is_some() {
            return Err(ApiError::NotPlaying("the game is over"));
        }
        if self.status() == RoomStatus::Waiting {
            return Err(ApiError::NotPlaying(
                "the game has not started: a seat is free",
            ));
        }
        let to_move = self.game.side_to_move();
        let holds_turn = seats.contains(&self.seat_of(to_move));
        let side = match action {
            Action::Move(_) => holds_turn.then_some(to_move),
            // Other actions may come on either turn; a local token acts for the side to move.
            Action::Resign | Action::Draw | Action::Impasse | Action::Rematch => {
                Some(if holds_turn {
                    to_move
                } else {
                    self.side_of(seats[0])
                })
            }
        };
        side.ok_or(ApiError::NotYourTurn)
    }

    async fn act(&mut self, token: Option<&str>, action: Action) -> Result<Value, ApiError> {
        let side = self.authorise(token, &action)?;
        if let Action::Rematch = action {
            return self.rematch(side).await;
        }
        self.come_back(self.seat_of(side)).await;
        let answer = match action {
            Action::Move(mv) => {
                let ply = self.play(side, &mv, false).await?;
                json!({ "ply": ply })
            }
            Action::Resign => {
                self.game_over(|game| game.resign(side), Some(side)).await?;
                json!({ "result": self.result_json() })
            }
            Action::Draw => {
                if self.draw_offer == Some(side.opponent()) {
                    self.game_over(AnyGame::agree_draw, None).await?;
                    json!({ "draw": "agreed", "result": self.result_json() })
                } else {
                    if self.draw_offer != Some(side) {
                        self.emit(EventKind::DrawOffered {
                            side: side.name().to_owned(),
                        })
                        .await?;
                        self.draw_offer = Some(side);
                    }
                    json!({ "draw": "offered" })
                }
            }
            Action::Impasse => {
                let mut next = self.game.clone();
                next.claim_impasse(side)?;
                self.game_over(
                    |game| {
                        let _ = game.claim_impasse(side);
                    },
                    Some(side),
                )
                .await?;
                json!({ "result": self.result_json() })
            }
            Action::Rematch => Value::Null,
        };
        self.computer_turn();
        Ok(answer)
    }

    /// `seat` asks for another game: it starts when the other seat asked too
    /// (at once in local and computer rooms).
    async fn rematch(&mut self, seat: Side) -> Result<Value, ApiError> {
        let agreed = self.mode != Mode::Online || self.rematch_offer == Some(seat.opponent());
        if !agreed {
            if self.rematch_offer != Some(seat) {
                self.emit(EventKind::RematchOffered {
                    seat: seat.name().to_owned(),
                })
                .await?;
                self.rematch_offer = Some(seat);
            }
            return Ok(json!({ "rematch": "offered" }));
        }
        let swap = self.settings.swap_first_player;
        self.new_game(swap).await?;
        Ok(json!({ "rematch": "started", "game": self.game_number }))
    }

    /// Starts the next game in the room, the seats swapping sides if `swap`.
    async fn new_game(&mut self, swap: bool) -> Result<(), ApiError> {
        let swapped = self.swapped ^ swap;
        self.emit(EventKind::NewGame {
            game: self.game_number + 1,
            swapped,
        })
        .await?;
        self.game = self.fresh_game();
        self.main_left = [self.settings.main_time(); 2];
        self.game_number += 1;
        self.swapped = swapped;
        self.draw_offer = None;
        self.rematch_offer = None;
        if let Err(err) = self
            .context
            .store
            .set_finished(&self.record.id, false)
            .await
        {
            tracing::error!(room = %self.record.id, %err, "room not marked open");
        }
        self.restart_clock();
        self.publish_summary();
        self.computer_turn();
        Ok(())
    }

    /// Ends the game by `end` (resignation, agreement ...): stores the end, then applies it.
    async fn game_over(
        &mut self,
        end: impl FnOnce(&mut AnyGame),
        by: Option<Side>,
    ) -> Result<(), ApiError> {
        let mut next = self.game.clone();
        end(&mut next);
        let Some(outcome) = next.outcome() else {
            return Err(ApiError::NotPlaying("the game is over"));
        };
        self.emit(EventKind::end(outcome, by)).await?;
        self.game = next;
        self.finished(outcome).await;
        Ok(())
    }

    /// Plays `mv` for `side`: checks it, stores it, then applies and sends it.
    /// Returns the number of moves played.
    async fn play(&mut self, side: Side, mv: &str, computer: bool) -> Result<usize, ApiError> {
        let mut next = self.game.clone();
        let outcome = next.play_text(mv)?;
        let ply = self.game.moves_text().len() + 1;
        let at = self
            .emit(EventKind::Move {
                ply,
                side: side.name().to_owned(),
                mv: mv.to_owned(),
                computer,
            })
            .await?;
        self.spend_main_time(side, at);
        self.game = next;
        self.draw_offer = None;
        if let Some(outcome) = outcome {
            if let Err(err) = self.emit(EventKind::end(outcome, None)).await {
                tracing::error!(room = %self.record.id, %err, "end of game not stored");
            }
            self.finished(outcome).await;
        } else {
            self.restart_clock();
        }
        Ok(ply)
    }

    /// Bookkeeping after a game ended: lobby, clocks, statistics and ratings.
    async fn finished(&mut self, outcome: Outcome) {
        self.deadline = None;
        self.publish_summary();
        let store = &self.context.store;
        let id = &self.record.id;
        if let Err(err) = store.set_finished(id, true).await {
            tracing::error!(room = %id, %err, "room not marked finished");
        }
        let (first, second) = (
            &self.seats[self.seat_of(Side::First).index()],
            &self.seats[self.seat_of(Side::Second).index()],
        );
        let (Some(first), Some(second)) = (first, second) else {
            return;
        };
        let game = GameRecord {
            room_id: id.clone(),
            number: self.game_number,
            variant: self.record.variant.clone(),
            rated: self.settings.rated,
            first_player: first.player.clone(),
            second_player: second.player.clone(),
            winner: outcome.winner.map(|side| side.name().to_owned()),
            reason: outcome.reason.code().to_owned(),
            finished_at: now_ms(),
        };
        let rated = self.settings.rated
            && self.mode == Mode::Online
            && first.player != second.player
            && !first.computer
            && !second.computer;
        let new_ratings: Vec<RatingRecord> = if rated {
            match ratings::after_game(store.as_ref(), &game).await {
                Ok(records) => records,
                Err(err) => {
                    tracing::error!(room = %id, %err, "ratings not read");
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        if let Err(err) = store.finish_game(&game, &new_ratings).await {
            tracing::error!(room = %id, %err, "finished game not recorded");
        }
        // 千日手 (sennichite): a repetition draw in the shogi family is
        // replayed at once with the sides swapped.
        if outcome.reason == EndReason::Repetition
            && outcome.winner.is_none()
            && self.game.variant().is_shogi_family()
            && let Err(err) = self.new_game(true).await
        {
            tracing::error!(room = %self.record.id, %err, "replay not started");
        }
    }

    async fn watch(
        &mut self,
        since: i64,
        token: Option<&str>,
        socket: bool,
    ) -> Result<Watch, ApiError> {
        let seats = match token {
            Some(token) => {
                let seats = self.seats_of(token);
                if seats.is_empty() {
                    return Err(ApiError::WrongToken);
                }
                seats
            }
            None => Vec::new(),
        };
        // Subscribe before taking the backlog: the task is single-threaded, so
        // nothing can be sent in between and no event is lost or doubled.
        let live = self.events.subscribe();
        let backlog = self.frames_after(since);
        for &side in &seats {
            self.presence[side.index()].connections += 1;
            self.come_back(side).await;
        }
        let spectator = socket && seats.is_empty();
        if spectator {
            self.spectators += 1;
        }
        self.publish_summary();
        let mut presence = self.presence_out.subscribe();
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

    /// Gives the token's seats (or `only` of them) the display name `name`;
    /// returns the seats renamed and their player id.
    async fn rename(
        &mut self,
        token: Option<&str>,
        only: Option<Side>,
        name: String,
    ) -> Result<(Vec<Side>, String), ApiError> {
        let token = token.ok_or(ApiError::MissingToken)?;
        let mut seats = self.seats_of(token);
        if seats.is_empty() {
            return Err(ApiError::WrongToken);
        }
        if let Some(only) = only {
            if !seats.contains(&only) {
                return Err(ApiError::WrongToken);
            }
            seats = vec![only];
        }
        let mut player = String::new();
        for &seat in &seats {
            self.emit(EventKind::Renamed {
                seat: seat.name().to_owned(),
                name: name.clone(),
            })
            .await?;
            if let Some(taken) = self.seats[seat.index()].as_mut() {
                taken.name.clone_from(&name);
                player.clone_from(&taken.player);
            }
        }
        self.publish_summary();
        Ok((seats, player))
    }

    /// Sends the presence frame to every socket if it changed.
    fn publish_presence(&self) {
        let frame = self.presence_json();
        self.presence_out.send_if_modified(|current| {
            let changed = *current != frame;
            if changed {
                *current = frame;
            }
            changed
        });
    }

    async fn unwatch(&mut self, seats: &[Side]) {
        for &side in seats {
            let presence = &mut self.presence[side.index()];
            presence.connections = presence.connections.saturating_sub(1);
            let takes_over = self.mode == Mode::Online && self.status() == RoomStatus::Playing;
            if self.presence[side.index()].connections == 0 && takes_over {
                let grace = self.context.config.grace_period;
                self.presence[side.index()].away_until = Some(Instant::now() + grace);
                let grace_ms = u64::try_from(grace.as_millis()).unwrap_or(u64::MAX);
                if let Err(err) = self
                    .emit(EventKind::Away {
                        seat: side.name().to_owned(),
                        grace_ms,
                    })
                    .await
                {
                    tracing::warn!(room = %self.record.id, %err, "away not stored");
                }
            }
        }
        self.publish_summary();
    }

    /// A seat is connected or acting again: the computer stops playing for it.
    async fn come_back(&mut self, side: Side) {
        let presence = &mut self.presence[side.index()];
        let was_away = presence.away_until.take().is_some() || presence.taken_over;
        presence.taken_over = false;
        if was_away
            && let Err(err) = self
                .emit(EventKind::Back {
                    seat: side.name().to_owned(),
                })
                .await
        {
            tracing::warn!(room = %self.record.id, %err, "back not stored");
        }
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        if self.deadline.is_some_and(|deadline| deadline <= now) {
            self.deadline = None;
            let loser = self.game.side_to_move();
            if self.status() == RoomStatus::Playing
                && let Err(err) = self
                    .game_over(|game| game.time_out(loser), Some(loser))
                    .await
            {
                tracing::error!(room = %self.record.id, %err, "timeout not stored");
            }
        }
        let playing = self.status() == RoomStatus::Playing;
        for side in [Side::First, Side::Second] {
            let presence = &mut self.presence[side.index()];
            if presence.away_until.is_some_and(|until| until <= now) {
                presence.away_until = None;
                if !playing {
                    continue;
                }
                presence.taken_over = true;
                if let Err(err) = self
                    .emit(EventKind::Takeover {
                        seat: side.name().to_owned(),
                    })
                    .await
                {
                    tracing::warn!(room = %self.record.id, %err, "takeover not stored");
                }
            }
        }
        self.computer_turn();
    }

    /// Whether the computer chooses the side to move's move.
    fn computer_to_move(&self) -> bool {
        let seat = self.seat_of(self.game.side_to_move());
        self.status() == RoomStatus::Playing
            && (self.seats[seat.index()]
                .as_ref()
                .is_some_and(|seat| seat.computer)
                || self.presence[seat.index()].taken_over)
    }

    /// Asks the computer for a move when it is its turn, on a blocking thread.
    fn computer_turn(&mut self) {
        if self.computer_thinking || !self.computer_to_move() {
            return;
        }
        self.computer_thinking = true;
        let seat = self.seat_of(self.game.side_to_move());
        let level = if self.seats[seat.index()]
            .as_ref()
            .is_some_and(|seat| seat.computer)
        {
            u8::try_from(self.record.level).unwrap_or(1)
        } else {
            self.context.config.takeover_level
        };
        let game = self.game.clone();
        let ply = game.moves_text().len();
        let computer = self.context.computer.clone();
        let inbox = self.inbox.clone();
        tokio::spawn(async move {
            let choice = tokio::task::spawn_blocking(move || computer.choose(&game, level))
                .await
                .unwrap_or(None);
            let _ = inbox.send(Command::ComputerMove(ply, choice)).await;
        });
    }
}

/// Sleeps until `when`, or forever.
async fn sleep_until(when: Option<Instant>) {
    match when {
        Some(when) => tokio::time::sleep_until(when).await,
        None => std::future::pending().await,
    }
}
