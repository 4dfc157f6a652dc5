//! The room as a pure state machine: [`Room::decide`] checks a [`Command`]
//! and answers with the events it causes, changing nothing;
//! [`Room::apply`] is the one place the room changes, used alike by live
//! play (after the events are stored) and by recovery (replaying the log).
//! No I/O, no clock of its own: time is passed in as unix milliseconds.

use rules::{AnyGame, AnyMove, EndReason, ImpasseError, Outcome, PlayError, Side, Variant};

use super::Phrase;
use super::clock::Clock;
use super::event::{Event, EventKind};
use crate::room_settings::RoomSettings;

/// How a recovered room's clocks go on.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Resume {
    /// The side to move's turn begins afresh at this time (unix ms): after
    /// the one server restarted, the time it was down costs nobody.
    Afresh(i64),
    /// The turn goes on from its stored start: another node takes over a
    /// room whose clocks never stopped for the players, so a player whose
    /// time ran out meanwhile loses on time at the next tick.
    Running,
}

/// What the computer needs of an away player's clock once it takes over:
/// the takeover is stored and sent, then the computer waits its turn for a
/// search and thinks for half of what the clock leaves (`computer::Computer`).
/// Two seconds leave it a search of about a second; with less it could only
/// play a quick one-ply move.
const TAKEOVER_MARGIN_MS: u64 = 2_000;

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
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Mode {
    type Err = String;

    fn from_str(name: &str) -> Result<Mode, String> {
        [Mode::Online, Mode::Local, Mode::Computer]
            .into_iter()
            .find(|mode| mode.name() == name)
            .ok_or_else(|| format!("unknown mode '{name}' (expected online, local or computer)"))
    }
}

/// Where a room's game stands.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum RoomStatus {
    /// A seat is free.
    Waiting,
    /// Both seats are taken and the game goes on.
    Playing,
    /// The game is over.
    Finished,
}

impl RoomStatus {
    /// The API name.
    pub fn name(self) -> &'static str {
        match self {
            RoomStatus::Waiting => "waiting",
            RoomStatus::Playing => "playing",
            RoomStatus::Finished => "finished",
        }
    }
}

/// What a room is, fixed when it is made.
#[derive(Clone, Debug)]
pub struct RoomSetup {
    /// The room id.
    pub id: String,
    /// The game.
    pub variant: Variant,
    /// How it is played.
    pub mode: Mode,
    /// The computer's level (computer rooms), else 0.
    pub level: u8,
    /// The house rules.
    pub settings: RoomSettings,
    /// The start position (SFEN/FEN), or the usual start.
    pub start: String,
    /// When it was made (unix milliseconds).
    pub created_at: i64,
    /// How long an away player's seat waits before the computer plays for it.
    pub grace_ms: u64,
    /// Time added to every clock for the network before a turn is lost.
    pub lag_allowance_ms: u64,
    /// How long a game waits with both players away before it is abandoned.
    pub abandon_after_ms: u64,
    /// How long a room waits for its second player before it closes.
    pub waiting_ttl_ms: u64,
}

/// One taken seat.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Seat {
    /// The player's anonymous id.
    pub player: String,
    /// The display name.
    pub name: String,
    /// Whether the computer holds the seat.
    pub computer: bool,
}

/// Whether a seated player is here, as the room's events tell it (the
/// connections themselves are the room task's to count).
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Presence {
    /// Here, or never gone.
    #[default]
    Here,
    /// Gone: the computer takes over at `until` (unix milliseconds).
    Away {
        /// When they went.
        since: i64,
        /// When the grace period ends.
        until: i64,
    },
    /// Gone, and the computer plays for them while the opponent is here.
    TakenOver {
        /// When they went.
        since: i64,
    },
}

impl Presence {
    /// When the player went, if they are gone.
    pub fn gone_since(self) -> Option<i64> {
        match self {
            Presence::Here => None,
            Presence::Away { since, .. } | Presence::TakenOver { since } => Some(since),
        }
    }
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
    /// The seat is the computer's.
    pub computer: bool,
}

/// What a seated player asks the room to do.
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
    /// Take back a move: at once in local and computer rooms, by asking the
    /// opponent (or agreeing to their asking) online; never in rated rooms.
    Takeback,
    /// Decline the opponent's asking to take back a move.
    DeclineTakeback,
    /// Send a quick-chat phrase (online rooms with `chat` on), at any stage of the game.
    Chat(Phrase),
    /// Ask for (or agree to) the engine's analysis while the game is played:
    /// online it starts when both seats asked; never in rated rooms.
    AgreeAnalysis,
}

/// What may change a room. Who sends it was checked before: `seats` are the
/// seats the sender's token holds.
#[derive(Clone, Debug)]
pub enum Command {
    /// Take a seat.
    Join(Joiner),
    /// A player holding `seats` acts.
    Act {
        /// The seats the sender holds.
        seats: Vec<Side>,
        /// What they do.
        action: Action,
    },
    /// The players holding `seats` take a new display name.
    Rename {
        /// The seats to rename.
        seats: Vec<Side>,
        /// The new name.
        name: String,
    },
    /// The last connection of a seat closed.
    Leave(Side),
    /// A seat has a connection again.
    Return(Side),
    /// Time passed: a clock may have run out, a grace period ended.
    Tick,
    /// The computer's answer to the draw offered to it after `ply` moves.
    ComputerDrawAnswer {
        /// The room's [`Room::turn`] when it was asked.
        turn: u64,
        /// Whether it accepts.
        accept: bool,
    },
    /// The computer's choice for the side to move on the room's `turn`.
    ComputerMove {
        /// The room's [`Room::turn`] when it was asked.
        turn: u64,
        /// Its move.
        mv: AnyMove,
    },
}

/// Why a command changes nothing.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The sender holds no seat of this room.
    #[error("the token holds no seat in this room")]
    NotSeated,
    /// Not the sender's turn.
    #[error("not your turn")]
    NotYourTurn,
    /// Both seats (or the one asked for) are taken.
    #[error("no seat is free in this room")]
    NoFreeSeat,
    /// The game is not being played (waiting for a player, or over).
    #[error("{0}")]
    NotPlaying(&'static str),
    /// The move text is not a move, or the move breaks a rule.
    #[error("{0}")]
    Move(#[from] PlayError),
    /// An impasse claim the rules refuse.
    #[error("{0}")]
    Impasse(#[from] ImpasseError),
    /// The computer answered a position (or an offer) that is gone.
    #[error("the computer's answer is for an earlier position")]
    Stale,
    /// A takeback that cannot be: a rated room, nothing to take back, or
    /// nothing asked to decline.
    #[error("{0}")]
    NoTakeback(&'static str),
    /// Quick chat is off: a local or computer room, or `chat` turned off.
    #[error("{0}")]
    NoChat(&'static str),
    /// A seat's phrase came sooner than [`CHAT_INTERVAL_MS`] after its last.
    #[error("one quick-chat phrase every 3 seconds")]
    ChatTooSoon,
    /// A rated game is analysed only once it is over: the engine must not
    /// help either player in a game that changes ratings.
    #[error("a rated game is analysed only once it is over")]
    RatedGame,
}

/// A room: its game, seats, offers and clock.
#[derive(Clone, Debug)]
pub struct Room {
    setup: RoomSetup,
    game: AnyGame,
    seats: [Option<Seat>; 2],
    presence: [Presence; 2],
    draw_offer: Option<Side>,
    /// The side that declined a draw since the last move.
    draw_declined: Option<Side>,
    rematch_offer: Option<Side>,
    takeback_offer: Option<Side>,
    /// The seat that asked to analyse the game being played.
    analysis_offer: Option<Side>,
    /// Whether both seats agreed to analyse the game being played.
    analysis_agreed: bool,
    /// When each seat last sent a quick-chat phrase.
    last_chat: [Option<i64>; 2],
    /// Moves and takebacks so far: a computer's answer for another turn is stale.
    turn: u64,
    game_number: u32,
    swapped: bool,
    /// When the current game began (unix milliseconds): the last seat taken,
    /// or the new game.
    game_began_at: i64,
    clock: Clock,
    /// Each side's time left when the game ended (`Clock::left_at_end`),
    /// `None` while it is played or without a clock.
    final_clocks: Option<[u64; 2]>,
    /// Whether a person (not the computer) made a move of this game.
    played_by_people: bool,
    last_seq: u64,
}

impl Room {
    /// A new room, no seat taken.
    ///
    /// # Errors
    /// The start position or a setting does not fit the game.
    pub fn new(setup: RoomSetup) -> Result<Room, rules::SetupError> {
        let game = AnyGame::new(setup.variant, Some(&setup.start), &setup.settings.rules)?;
        let ms = |seconds: u32| u64::from(seconds) * 1000;
        let clock = Clock::new(
            ms(setup.settings.main_time),
            ms(setup.settings.time_per_move),
        );
        Ok(Room {
            game_began_at: setup.created_at,
            setup,
            game,
            seats: [None, None],
            presence: [Presence::Here; 2],
            draw_offer: None,
            draw_declined: None,
            rematch_offer: None,
            takeback_offer: None,
            analysis_offer: None,
            analysis_agreed: false,
            last_chat: [None; 2],
            turn: 0,
            game_number: 1,
            swapped: false,
            clock,
            final_clocks: None,
            played_by_people: false,
            last_seq: 0,
        })
    }

    /// The room after its stored log: each entry is read by `read` in the
    /// game as it stands before it (a move is read on its board), then
    /// applied; then the clocks resume as `resume` says.
    ///
    /// # Errors
    /// The first error of `read`.
    pub fn recover<T, E>(
        mut self,
        log: impl IntoIterator<Item = T>,
        mut read: impl FnMut(&AnyGame, T) -> Result<Event, E>,
        resume: Resume,
    ) -> Result<Room, E> {
        for entry in log {
            let event = read(&self.game, entry)?;
            self.apply(&event);
        }
        if let Resume::Afresh(now) = resume {
            self.clock.start_turn(now);
        }
        Ok(self)
    }

    /// The events `command` causes at `now`, numbered after the last; none
    /// when it changes nothing. The room itself does not change.
    ///
    /// # Errors
    /// Why the command is refused.
    pub fn decide(&self, command: &Command, now: i64) -> Result<Vec<Event>, Refusal> {
        let kinds = match command {
            Command::Join(joiner) => vec![self.join(joiner)?],
            Command::Act { seats, action } => self.act(seats, action, now)?,
            Command::Rename { seats, name } => {
                if seats.is_empty() || seats.iter().any(|&seat| self.seat(seat).is_none()) {
                    return Err(Refusal::NotSeated);
                }
                seats
                    .iter()
                    .map(|&seat| EventKind::Renamed {
                        seat,
                        name: name.clone(),
                    })
                    .collect()
            }
            Command::Leave(seat) => self.leave(*seat, now),
            Command::Return(seat) => self.come_back(*seat).into_iter().collect(),
            Command::Tick => self.tick(now),
            Command::ComputerDrawAnswer { turn, accept } => {
                if *turn != self.turn || !self.computer_to_answer_draw() {
                    return Err(Refusal::Stale);
                }
                let offered = self.draw_offer.ok_or(Refusal::Stale)?;
                vec![if *accept {
                    EventKind::End {
                        outcome: Outcome::draw(EndReason::Agreement),
                        by: None,
                    }
                } else {
                    EventKind::DrawDeclined {
                        side: offered.opponent(),
                    }
                }]
            }
            Command::ComputerMove { turn, mv } => {
                if *turn != self.turn || !self.computer_to_move() {
                    return Err(Refusal::Stale);
                }
                self.play(*mv, true)?
            }
        };
        Ok(self.number(kinds, now))
    }

    /// Changes the room by one event: the one place it changes.
    pub fn apply(&mut self, event: &Event) {
        self.last_seq = event.seq;
        match &event.kind {
            EventKind::Seated {
                seat,
                player,
                name,
                computer,
            } => {
                self.seats[seat.index()] = Some(Seat {
                    player: player.clone(),
                    name: name.clone(),
                    computer: *computer,
                });
                // Play, and the clock, begin when the last seat is taken.
                self.clock.start_turn(event.at);
                self.game_began_at = event.at;
            }
            EventKind::Move {
                side, mv, computer, ..
            } => {
                self.clock.moved(*side, event.at);
                self.played_by_people |= !computer;
                // Decided legal before it was stored; a stored move the rules
                // refuse now is caught when the log is read.
                let _ = self.game.play(*mv);
                self.draw_offer = None;
                self.draw_declined = None;
                self.takeback_offer = None;
                self.turn += 1;
            }
            EventKind::DrawOffered { side } => self.draw_offer = Some(*side),
            EventKind::DrawDeclined { side } => {
                self.draw_offer = None;
                self.draw_declined = Some(*side);
            }
            EventKind::End { outcome, by } => {
                if self.clock.is_set() && self.status() == RoomStatus::Playing {
                    // The clock stood still once both players were gone.
                    let stopped = if self.both_away() {
                        self.presence
                            .iter()
                            .filter_map(|presence| presence.gone_since())
                            .max()
                            .unwrap_or(event.at)
                    } else {
                        event.at
                    };
                    self.final_clocks =
                        Some(self.clock.left_at_end(self.game.side_to_move(), stopped));
                }
                self.end_game(outcome, *by);
            }
            EventKind::RematchOffered { seat } => self.rematch_offer = Some(*seat),
            EventKind::TakebackOffered { seat } => self.takeback_offer = Some(*seat),
            EventKind::Chat { seat, .. } => self.last_chat[seat.index()] = Some(event.at),
            EventKind::TakebackDeclined { .. } => self.takeback_offer = None,
            EventKind::AnalysisOffered { seat } => self.analysis_offer = Some(*seat),
            EventKind::AnalysisAgreed => {
                self.analysis_offer = None;
                self.analysis_agreed = true;
            }
            EventKind::TakenBack { ply } => {
                let mut game = self.fresh_game();
                for mv in self.game.moves().into_iter().take(*ply) {
                    // Each was legal when it was played from this start.
                    let _ = game.play(mv);
                }
                self.game = game;
                // Time spent stays spent; the side to move starts its turn afresh.
                self.clock.start_turn(event.at);
                self.draw_offer = None;
                self.takeback_offer = None;
                self.turn += 1;
            }
            EventKind::NewGame { game, swapped } => {
                self.game = self.fresh_game();
                self.game_began_at = event.at;
                self.clock.reset(event.at);
                self.final_clocks = None;
                self.game_number = *game;
                self.swapped = *swapped;
                self.draw_offer = None;
                self.draw_declined = None;
                self.rematch_offer = None;
                self.takeback_offer = None;
                self.analysis_offer = None;
                self.analysis_agreed = false;
                self.turn += 1;
                self.played_by_people = false;
            }
            EventKind::Away { seat, grace_ms } => {
                self.presence[seat.index()] = Presence::Away {
                    since: event.at,
                    until: event.at.saturating_add(ms(*grace_ms)),
                };
            }
            EventKind::Takeover { seat } => {
                let since = self.presence(*seat).gone_since().unwrap_or(event.at);
                self.presence[seat.index()] = Presence::TakenOver { since };
            }
            EventKind::Back { seat } => {
                // The clock stood still while both were away: the turn starts afresh.
                if self.both_away() {
                    self.clock.start_turn(event.at);
                }
                self.presence[seat.index()] = Presence::Here;
            }
            EventKind::Renamed { seat, name } => {
                if let Some(taken) = self.seats[seat.index()].as_mut() {
                    taken.name.clone_from(name);
                }
            }
        }
    }

    /// Ends the game as an `End` event says.
    fn end_game(&mut self, outcome: &Outcome, by: Option<Side>) {
        match (outcome.reason, by) {
            (EndReason::Resignation, Some(side)) => self.game.resign(side),
            (EndReason::Timeout, Some(side)) => self.game.time_out(side),
            (EndReason::Agreement, _) => self.game.agree_draw(),
            (EndReason::Abandoned, _) => self.game.abandon(),
            (EndReason::Impasse, Some(side)) => {
                let _ = self.game.claim_impasse(side);
            }
            // Every other end followed from the moves already.
            _ => {}
        }
    }

    /// The next time something happens by itself (a clock runs out, the lag
    /// allowance included; a grace period ends; a game both players left is
    /// abandoned; a room nobody joined closes), if anything will.
    pub fn next_deadline(&self) -> Option<i64> {
        match self.status() {
            RoomStatus::Finished => None,
            RoomStatus::Waiting => Some(self.closes_at()),
            RoomStatus::Playing => {
                let lag = ms(self.setup.lag_allowance_ms);
                let clock = self
                    .clock_deadline()
                    .map(|deadline| deadline.saturating_add(lag));
                let away = self.presence.iter().filter_map(|presence| match presence {
                    Presence::Away { until, .. } => Some(*until),
                    _ => None,
                });
                clock
                    .into_iter()
                    .chain(away)
                    .chain(self.abandoned_at())
                    .min()
            }
        }
    }

    /// Whether the computer chooses the side to move's move now: for a
    /// computer seat, or for a player it took over while the opponent is
    /// here (when both are away, nobody plays).
    pub fn computer_to_move(&self) -> bool {
        let seat = self.seat_of(self.game.side_to_move());
        self.status() == RoomStatus::Playing
            && (self.seat(seat).is_some_and(|taken| taken.computer)
                || (matches!(self.presence(seat), Presence::TakenOver { .. })
                    && self.presence(seat.opponent()) == Presence::Here))
    }

    /// Whether a draw was offered to a computer seat, which answers it.
    pub fn computer_to_answer_draw(&self) -> bool {
        self.status() == RoomStatus::Playing
            && self.draw_offer.is_some_and(|side| {
                self.seat(self.seat_of(side.opponent()))
                    .is_some_and(|taken| taken.computer)
            })
    }

    /// Whether the finished game counts in statistics and ratings: not
    /// abandoned, and not played by the computer alone.
    pub fn counts(&self) -> bool {
        let abandoned = self
            .game
            .outcome()
            .is_some_and(|outcome| outcome.reason == EndReason::Abandoned);
        !abandoned && (self.played_by_people || self.game.ply() == 0)
    }

    /// Where the game stands.
    pub fn status(&self) -> RoomStatus {
        if self.game.outcome().is_some() {
            RoomStatus::Finished
        } else if self.seats.iter().any(Option::is_none) {
            RoomStatus::Waiting
        } else {
            RoomStatus::Playing
        }
    }

    /// What the room is.
    pub fn setup(&self) -> &RoomSetup {
        &self.setup
    }

    /// The game being played (or the last one, once over).
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Who holds a seat.
    pub fn seat(&self, seat: Side) -> Option<&Seat> {
        self.seats[seat.index()].as_ref()
    }

    /// Whether a seat's player is here, as the events tell it.
    pub fn presence(&self, seat: Side) -> Presence {
        self.presence[seat.index()]
    }

    /// The side that offered a draw.
    pub fn draw_offer(&self) -> Option<Side> {
        self.draw_offer
    }

    /// The side that declined a draw since the last move.
    pub fn draw_declined(&self) -> Option<Side> {
        self.draw_declined
    }

    /// The seat that asked for a rematch.
    pub fn rematch_offer(&self) -> Option<Side> {
        self.rematch_offer
    }

    /// The seat that asked to take back a move.
    pub fn takeback_offer(&self) -> Option<Side> {
        self.takeback_offer
    }

    /// The seat that asked to analyse the game being played.
    pub fn analysis_offer(&self) -> Option<Side> {
        self.analysis_offer
    }

    /// Whether the game may be analysed now: once over, or while it is
    /// played when both seats agreed.
    pub fn analysable(&self) -> bool {
        self.game.outcome().is_some() || self.analysis_agreed
    }

    /// How many moves and takebacks the room has seen: what a computer's
    /// answer names as the turn it was asked on.
    pub fn turn(&self) -> u64 {
        self.turn
    }

    /// 1 for the room's first game, 2 after a rematch ...
    pub fn game_number(&self) -> u32 {
        self.game_number
    }

    /// The number of the last event.
    pub fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Each side's time left when the game ended, by side: main time, or
    /// the time per move once that was gone (0 for a loss on time); `None`
    /// while the game is played or without a clock.
    pub fn final_clocks(&self) -> Option<[u64; 2]> {
        self.final_clocks
    }

    /// Whether a seat's player is away during play: once the game is over,
    /// nobody plays for them, so there is nothing to tell.
    pub fn away_in_play(&self, seat: Side) -> bool {
        self.status() == RoomStatus::Playing && self.presence(seat) != Presence::Here
    }

    /// When the side to move loses on time (the lag allowance not counted),
    /// while a game with a clock is played and someone is there to play it.
    pub fn clock_deadline(&self) -> Option<i64> {
        (self.clock.is_set() && self.status() == RoomStatus::Playing && !self.both_away())
            .then(|| self.clock.deadline(self.game.side_to_move()))
    }

    /// Whether both seated players are gone.
    fn both_away(&self) -> bool {
        self.presence
            .iter()
            .all(|presence| *presence != Presence::Here)
    }

    /// When a game both players left is abandoned.
    fn abandoned_at(&self) -> Option<i64> {
        let [first, second] = self.presence.map(Presence::gone_since);
        Some(
            first?
                .max(second?)
                .saturating_add(ms(self.setup.abandon_after_ms)),
        )
    }

    /// When a room still waiting for its second player closes.
    fn closes_at(&self) -> i64 {
        self.setup
            .created_at
            .saturating_add(ms(self.setup.waiting_ttl_ms))
    }

    /// When the current game began (unix milliseconds).
    pub fn game_began_at(&self) -> i64 {
        self.game_began_at
    }

    /// The side a seat plays in the current game.
    pub fn side_of(&self, seat: Side) -> Side {
        if self.swapped { seat.opponent() } else { seat }
    }

    /// The seat that plays a side in the current game.
    pub fn seat_of(&self, side: Side) -> Side {
        self.side_of(side)
    }

    fn number(&self, kinds: Vec<EventKind>, now: i64) -> Vec<Event> {
        (self.last_seq + 1..)
            .zip(kinds)
            .map(|(seq, kind)| Event { seq, at: now, kind })
            .collect()
    }

    fn join(&self, joiner: &Joiner) -> Result<EventKind, Refusal> {
        if self.game.outcome().is_some() {
            return Err(Refusal::NotPlaying("the room is closed"));
        }
        let free = |seat: &Side| self.seat(*seat).is_none();
        let seat = match joiner.seat {
            Some(seat) if free(&seat) => seat,
            Some(_) => return Err(Refusal::NoFreeSeat),
            None => [Side::First, Side::Second]
                .into_iter()
                .find(free)
                .ok_or(Refusal::NoFreeSeat)?,
        };
        Ok(EventKind::Seated {
            seat,
            player: joiner.player.clone(),
            name: joiner.name.clone(),
            computer: joiner.computer,
        })
    }

    fn act(&self, seats: &[Side], action: &Action, now: i64) -> Result<Vec<EventKind>, Refusal> {
        if seats.is_empty() || seats.iter().any(|&seat| self.seat(seat).is_none()) {
            return Err(Refusal::NotSeated);
        }
        match action {
            Action::Rematch => return self.rematch(seats[0]),
            Action::Chat(phrase) => return self.chat(seats[0], *phrase, now),
            _ => {}
        }
        let side = self.acting_side(seats, action)?;
        let mut events: Vec<EventKind> = self.come_back(self.seat_of(side)).into_iter().collect();
        events.extend(match action {
            Action::Move(text) => {
                let mv = self.game.parse_move(text).map_err(PlayError::Parse)?;
                self.play(mv, false)?
            }
            Action::Resign => vec![self.end(Outcome::loss(side, EndReason::Resignation), side)],
            Action::Draw if self.draw_offer == Some(side.opponent()) => {
                vec![EventKind::End {
                    outcome: Outcome::draw(EndReason::Agreement),
                    by: None,
                }]
            }
            Action::Draw if self.draw_offer == Some(side) => Vec::new(),
            Action::Draw => vec![EventKind::DrawOffered { side }],
            Action::Impasse => {
                let mut next = self.game.clone();
                let outcome = next.claim_impasse(side)?;
                vec![self.end(outcome, side)]
            }
            Action::Takeback => self.takeback(self.seat_of(side))?,
            Action::DeclineTakeback => {
                let seat = self.seat_of(side);
                if self.takeback_offer != Some(seat.opponent()) {
                    return Err(Refusal::NoTakeback("no takeback was asked of you"));
                }
                vec![EventKind::TakebackDeclined { seat }]
            }
            Action::AgreeAnalysis => self.agree_analysis(self.seat_of(side))?,
            Action::Rematch | Action::Chat(_) => Vec::new(),
        });
        Ok(events)
    }

    /// The side a player holding `seats` acts for: for a move, the side to
    /// move; any other act may come on either turn, and a token holding both
    /// seats (a local room) acts for the side to move.
    fn acting_side(&self, seats: &[Side], action: &Action) -> Result<Side, Refusal> {
        match self.status() {
            RoomStatus::Finished => return Err(Refusal::NotPlaying("the game is over")),
            RoomStatus::Waiting => {
                return Err(Refusal::NotPlaying(
                    "the game has not started: a seat is free",
                ));
            }
            RoomStatus::Playing => {}
        }
        let to_move = self.game.side_to_move();
        if seats.contains(&self.seat_of(to_move)) {
            Ok(to_move)
        } else if let Action::Move(_) = action {
            Err(Refusal::NotYourTurn)
        } else {
            Ok(self.side_of(seats[0]))
        }
    }

    fn end(&self, outcome: Outcome, by: Side) -> EventKind {
        EventKind::End {
            outcome,
            by: Some(by),
        }
    }

    /// A move for the side to move, and the end it brings: on a shogi
    /// repetition draw (千日手, sennichite) the game is replayed at once
    /// with the sides swapped.
    fn play(&self, mv: AnyMove, computer: bool) -> Result<Vec<EventKind>, Refusal> {
        let mut next = self.game.clone();
        let outcome = next.play(mv)?;
        let mut events = vec![EventKind::Move {
            ply: self.game.ply() + 1,
            side: self.game.side_to_move(),
            mv,
            computer,
        }];
        if let Some(outcome) = outcome {
            events.push(EventKind::End { outcome, by: None });
            if outcome.reason == EndReason::Repetition
                && outcome.winner.is_none()
                && self.setup.variant.is_shogi_family()
            {
                events.push(self.new_game(true));
            }
        }
        Ok(events)
    }

    /// `seat` takes back a move: in a local room the last one; against the
    /// computer its own last move and the reply, on its own turn; online it
    /// asks, and the takeback happens when the opponent asks too. Rated rooms
    /// refuse it, so a rating never rests on a game played over.
    fn takeback(&self, seat: Side) -> Result<Vec<EventKind>, Refusal> {
        if self.setup.settings.rated {
            return Err(Refusal::NoTakeback("a rated game has no takebacks"));
        }
        match self.setup.mode {
            Mode::Local => Ok(vec![EventKind::TakenBack {
                ply: self.game.ply().checked_sub(1).ok_or(NOTHING_TO_TAKE_BACK)?,
            }]),
            Mode::Computer if self.computer_to_move() => Err(Refusal::NotYourTurn),
            Mode::Computer => Ok(vec![self.taken_back(seat)?]),
            Mode::Online => match self.takeback_offer {
                Some(asked) if asked == seat.opponent() => Ok(vec![self.taken_back(asked)?]),
                Some(_) => Ok(Vec::new()),
                None => {
                    self.taken_back(seat)?;
                    Ok(vec![EventKind::TakebackOffered { seat }])
                }
            },
        }
    }

    /// Taking back `seat`'s last move, and the opponent's reply if one came.
    fn taken_back(&self, seat: Side) -> Result<EventKind, Refusal> {
        let plies = if self.side_of(seat) == self.game.side_to_move() {
            2
        } else {
            1
        };
        let ply = self
            .game
            .ply()
            .checked_sub(plies)
            .ok_or(NOTHING_TO_TAKE_BACK)?;
        Ok(EventKind::TakenBack { ply })
    }

    /// `seat` asks to analyse the game being played: at once in local and
    /// computer rooms (nobody else plays in them), online when the other
    /// seat asked too. Rated rooms refuse, and asking twice changes nothing.
    fn agree_analysis(&self, seat: Side) -> Result<Vec<EventKind>, Refusal> {
        if self.setup.settings.rated {
            return Err(Refusal::RatedGame);
        }
        let agreed =
            self.setup.mode != Mode::Online || self.analysis_offer == Some(seat.opponent());
        Ok(
            if self.analysis_agreed || self.analysis_offer == Some(seat) {
                Vec::new()
            } else if agreed {
                vec![EventKind::AnalysisAgreed]
            } else {
                vec![EventKind::AnalysisOffered { seat }]
            },
        )
    }

    /// `seat` sends a quick-chat phrase: online with `chat` on, one every
    /// [`CHAT_INTERVAL_MS`] per seat, before, during and after the game.
    fn chat(&self, seat: Side, phrase: Phrase, now: i64) -> Result<Vec<EventKind>, Refusal> {
        if self.setup.mode != Mode::Online {
            return Err(Refusal::NoChat("quick chat is for online rooms"));
        }
        if !self.setup.settings.chat {
            return Err(Refusal::NoChat("quick chat is off in this room"));
        }
        if self.last_chat[seat.index()].is_some_and(|at| now < at.saturating_add(CHAT_INTERVAL_MS))
        {
            return Err(Refusal::ChatTooSoon);
        }
        Ok(vec![EventKind::Chat { seat, phrase }])
    }

    /// `seat` asks for another game: it starts when the other seat asked too
    /// (at once in local and computer rooms).
    fn rematch(&self, seat: Side) -> Result<Vec<EventKind>, Refusal> {
        if self.game.outcome().is_none() {
            return Err(Refusal::NotPlaying(
                "a rematch is asked for once the game is over",
            ));
        }
        let agreed = self.setup.mode != Mode::Online || self.rematch_offer == Some(seat.opponent());
        Ok(if agreed {
            vec![self.new_game(self.setup.settings.swap_first_player)]
        } else if self.rematch_offer == Some(seat) {
            Vec::new()
        } else {
            vec![EventKind::RematchOffered { seat }]
        })
    }

    fn new_game(&self, swap: bool) -> EventKind {
        EventKind::NewGame {
            game: self.game_number + 1,
            swapped: self.swapped ^ swap,
        }
    }

    /// A seated player of an online game in play lost their last connection
    /// at `now`.
    fn leave(&self, seat: Side, now: i64) -> Vec<EventKind> {
        let goes_away = self.setup.mode == Mode::Online
            && self.status() == RoomStatus::Playing
            && self.seat(seat).is_some()
            && self.presence(seat) == Presence::Here;
        if goes_away {
            vec![EventKind::Away {
                seat,
                grace_ms: self.grace_period(seat, now),
            }]
        } else {
            Vec::new()
        }
    }

    /// How long `seat`, gone at `now`, waits before the computer plays for
    /// it: the room's grace period, but short enough that the computer
    /// still has [`TAKEOVER_MARGIN_MS`] of the player's clock to move in.
    /// The time left is this turn's when the player is to move, else the
    /// whole of their next turn (it cannot start before they went).
    fn grace_period(&self, seat: Side, now: i64) -> u64 {
        if !self.clock.is_set() {
            return self.setup.grace_ms;
        }
        let side = self.side_of(seat);
        let left = if side == self.game.side_to_move() {
            u64::try_from(self.clock.deadline(side).saturating_sub(now)).unwrap_or(0)
        } else {
            self.clock.turn_allowance(side)
        };
        self.setup
            .grace_ms
            .min(left.saturating_sub(TAKEOVER_MARGIN_MS))
    }

    /// A seat is connected or acting again: the computer stops playing for it.
    fn come_back(&self, seat: Side) -> Option<EventKind> {
        (self.presence(seat) != Presence::Here).then_some(EventKind::Back { seat })
    }

    /// What time brings at `now`: a room nobody joined closes; a loss on
    /// time; a game both players left is abandoned; the computer takes over
    /// for players whose grace period ended.
    fn tick(&self, now: i64) -> Vec<EventKind> {
        let abandoned = EventKind::End {
            outcome: Outcome::draw(EndReason::Abandoned),
            by: None,
        };
        match self.status() {
            RoomStatus::Finished => return Vec::new(),
            RoomStatus::Waiting if self.closes_at() <= now => return vec![abandoned],
            RoomStatus::Waiting => return Vec::new(),
            RoomStatus::Playing => {}
        }
        if self
            .clock_deadline()
            .is_some_and(|deadline| deadline.saturating_add(ms(self.setup.lag_allowance_ms)) <= now)
        {
            let loser = self.game.side_to_move();
            return vec![self.end(Outcome::loss(loser, EndReason::Timeout), loser)];
        }
        if self.abandoned_at().is_some_and(|at| at <= now) {
            return vec![abandoned];
        }
        [Side::First, Side::Second]
            .into_iter()
            .filter(
                |&seat| matches!(self.presence(seat), Presence::Away { until, .. } if until <= now),
            )
            .map(|seat| EventKind::Takeover { seat })
            .collect()
    }

    /// The room's start position again, for a new game.
    fn fresh_game(&self) -> AnyGame {
        AnyGame::new(
            self.setup.variant,
            Some(&self.setup.start),
            &self.setup.settings.rules,
        )
        // The start was checked when the room was made; keep the old game's start.
        .unwrap_or_else(|_| {
            AnyGame::from_position(self.game.position(), self.setup.settings.rules.clone())
        })
    }
}

/// The least time between two quick-chat phrases of one seat, in milliseconds.
const CHAT_INTERVAL_MS: i64 = 3_000;

/// The refusal of a takeback before the first move of its side.
const NOTHING_TO_TAKE_BACK: Refusal = Refusal::NoTakeback("no move of yours to take back");

/// Milliseconds as a time offset.
fn ms(duration_ms: u64) -> i64 {
    i64::try_from(duration_ms).unwrap_or(i64::MAX)
}
