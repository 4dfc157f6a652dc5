//! What a room shows, as typed values: the room JSON of `GET /rooms/{id}`,
//! the presence frame, the replies to actions and the lobby summary.

use rules::{AnyMove, Outcome, Side, Variant};
use serde::{Serialize, Serializer};
use utoipa::ToSchema;

use super::core::{Mode, Presence, Room, RoomStatus};
use super::event::EventKind;
use super::phrase::Phrase;
use crate::lobby::Summary;
use crate::openapi::{ModeName, SideName, StatusName, VariantName};
use crate::records::{self, MoveNotation, Notation};
use crate::room_settings::SettingsView;

/// A value for each side (or seat): `{"first": ..., "second": ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PerSide<T> {
    /// Sente's (Red's), or the first seat's.
    pub first: T,
    /// Gote's (Black's), or the second seat's.
    pub second: T,
}

impl<T> PerSide<T> {
    fn by(mut value: impl FnMut(Side) -> T) -> PerSide<T> {
        PerSide {
            first: value(Side::First),
            second: value(Side::Second),
        }
    }
}

/// The connections a room's task counts (never stored).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connections {
    /// Open connections per seat.
    pub seats: [usize; 2],
    /// Open WebSockets without a seat.
    pub spectators: usize,
}

/// `GET /rooms/{id}`: everything a client draws a room from: the fields an
/// event's `after` carries, and the rest.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = Room)]
pub struct RoomView {
    /// The room id.
    pub id: String,
    /// The game.
    #[schema(value_type = VariantName)]
    pub variant: Variant,
    /// How it is played.
    #[schema(value_type = ModeName)]
    pub mode: Mode,
    /// The computer's level in computer rooms, else 0.
    pub level: u8,
    /// The house rules.
    pub settings: SettingsView,
    /// The start position (SFEN/FEN).
    pub start: String,
    /// The moves played (USI/ICCS).
    #[schema(value_type = Vec<String>)]
    pub moves: MoveTexts,
    /// The moves as players write them.
    pub notation: Notation,
    /// Where the game stands now, its seats and offers: an event's `after`,
    /// flattened in, which a page applies to the room field by field.
    #[serde(flatten)]
    pub after: AfterView,
    /// Open WebSockets without a seat.
    pub spectators: usize,
    /// The number of the last event.
    pub last_seq: u64,
}

/// What the room shows after an event, sent with the event on the room's
/// WebSocket so that a page applies it instead of fetching the room: the
/// fields of the room JSON an event can change, besides the move list (the
/// event itself extends or cuts it) and the spectators (presence frames).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = After)]
pub struct AfterView {
    /// Where the game stands.
    #[schema(value_type = StatusName)]
    pub status: RoomStatus,
    /// The current position (SFEN/FEN).
    pub position: String,
    /// The legal moves now (none once the game is over).
    #[schema(value_type = Vec<String>)]
    pub legal_moves: MoveTexts,
    /// Who moves.
    #[schema(value_type = SideName)]
    pub side_to_move: Side,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Each side's impasse points in shogi and annan, as the 24-point rule
    /// counts them (pieces on the board and in hand: rook and bishop 5, the
    /// king 0, the others 1); `null` in minishogi and xiangqi.
    #[schema(required = true)]
    pub impasse_points: Option<PerSide<u32>>,
    /// How the game ended (nulls while it goes on).
    pub result: ResultView,
    /// The clocks as they stand (after an event: as it left them), `null` in
    /// a room without one.
    #[schema(required = true)]
    pub clocks: Option<ClocksView>,
    /// Who holds each seat (`null` while free).
    pub seats: PerSide<Option<SeatView>>,
    /// The side that offered a draw.
    #[schema(required = true, value_type = Option<SideName>)]
    pub draw_offer: Option<Side>,
    /// The side that declined a draw since the last move (the computer, by
    /// its evaluation).
    #[schema(required = true, value_type = Option<SideName>)]
    pub draw_declined: Option<Side>,
    /// The seat that asked for a rematch.
    #[schema(required = true, value_type = Option<SideName>)]
    pub rematch_offer: Option<Side>,
    /// The seat that asked to take back a move (online rooms).
    #[schema(required = true, value_type = Option<SideName>)]
    pub takeback_offer: Option<Side>,
    /// The seat that asked to analyse the game while it is played.
    #[schema(required = true, value_type = Option<SideName>)]
    pub analysis_offer: Option<Side>,
    /// Whether the game may be analysed now (`POST /rooms/{id}/analysis`):
    /// once over, or while played when both seats agreed.
    pub analysable: bool,
    /// 1 for the room's first game, 2 after a rematch ...
    pub game: u32,
}

/// Moves, serialised as a list of their engine notation (USI or ICCS).
///
/// Kept as moves, not as strings: the room's `after` is built after every
/// event, and its legal moves (dozens, up to a few hundred) were as many
/// allocated strings, each written once into the event's frame and freed.
/// Each move is written straight into the JSON instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTexts(pub Vec<AnyMove>);

impl Serialize for MoveTexts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// One move as its text, written without an intermediate string.
        struct Text<'a>(&'a AnyMove);
        impl Serialize for Text<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self.0)
            }
        }
        serializer.collect_seq(self.0.iter().map(Text))
    }
}

/// A game's result: `first`, `second` or `draw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// The first player won.
    First,
    /// The second player won.
    Second,
    /// A draw.
    Draw,
}

impl Winner {
    fn of(outcome: Outcome) -> Winner {
        match outcome.winner {
            Some(Side::First) => Winner::First,
            Some(Side::Second) => Winner::Second,
            None => Winner::Draw,
        }
    }
}

/// How the game ended, and the side to move (for a client that only reads
/// this), as `koma status` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Result)]
pub struct ResultView {
    /// Who won, `null` while the game goes on.
    #[schema(required = true)]
    pub result: Option<Winner>,
    /// The end reason's code, `null` while the game goes on.
    #[schema(required = true)]
    pub reason: Option<&'static str>,
    /// Who moves.
    #[schema(value_type = SideName)]
    pub side_to_move: Side,
    /// Whether the side to move is in check.
    pub in_check: bool,
}

/// A room's clocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Clocks)]
pub struct ClocksView {
    /// Seconds per move once the main time is used up.
    pub time_per_move: u32,
    /// Seconds of main time per player.
    pub main_time: u32,
    /// Each side's main time left, the running turn counted.
    pub main_left_ms: PerSide<u64>,
    /// The side whose clock runs, `null` when none does.
    #[schema(required = true, value_type = Option<SideName>)]
    pub running: Option<Side>,
    /// Milliseconds the running side has left on this turn.
    #[schema(required = true)]
    pub remaining_ms: Option<u64>,
    /// Each side's time left when the game ended: main time, or the time per
    /// move once that was gone (0 for a loss on time); `null` while playing.
    #[schema(required = true)]
    pub final_left_ms: Option<PerSide<u64>>,
}

/// A taken seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Seat)]
pub struct SeatView {
    /// The side it plays in the current game.
    #[schema(value_type = SideName)]
    pub side: Side,
    /// The player's anonymous id.
    pub player: String,
    /// The display name.
    pub name: String,
    /// Whether the computer holds the seat.
    pub computer: bool,
    /// Whether the seat has an open connection.
    pub connected: bool,
    /// Whether the player is gone from the game being played (the computer
    /// plays for them, or will); never once the game is over.
    pub away: bool,
    /// Whether the computer plays for them now.
    pub taken_over: bool,
}

/// The presence frame sent to every socket of a room when its connections
/// change, and once when a socket opens: never stored, never numbered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Presence)]
pub struct PresenceView {
    /// Always `presence`.
    #[serde(rename = "type")]
    pub kind: PresenceType,
    /// Each seat's connection, `null` while the seat is free.
    pub seats: PerSide<Option<SeatPresence>>,
    /// Open WebSockets without a seat.
    pub spectators: usize,
}

/// The `type` of a presence frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PresenceType {
    /// `presence`.
    Presence,
}

/// A seat's connection, in the presence frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct SeatPresence {
    /// Whether the seat has an open connection.
    pub connected: bool,
    /// Whether the player is gone from the game being played (the computer
    /// plays for them, or will); never once the game is over.
    pub away: bool,
}

/// What an action answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ActReply {
    /// A move was played: its number.
    Moved {
        /// The move's number in the game.
        ply: usize,
    },
    /// A resignation or impasse ended the game.
    Ended {
        /// How.
        result: ResultView,
    },
    /// A draw was offered, or agreed (with the result).
    Draw {
        /// `offered` or `agreed`.
        draw: Agreement,
        /// The result once agreed.
        #[serde(skip_serializing_if = "Option::is_none")]
        result: Option<ResultView>,
    },
    /// A rematch was asked for, or started (with the new game's number).
    Rematch {
        /// `offered` or `started`.
        rematch: Agreement,
        /// The new game's number once started.
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<u32>,
    },
    /// A quick-chat phrase was sent.
    Said {
        /// The phrase.
        phrase: Phrase,
    },
    /// A takeback was asked for, declined, or done (with the moves left).
    Takeback {
        /// `offered`, `agreed` (done) or `declined`.
        takeback: Agreement,
        /// How many moves of the game remain once done.
        #[serde(skip_serializing_if = "Option::is_none")]
        ply: Option<usize>,
    },
    /// Analysing the game being played was asked for, or agreed.
    Analysis {
        /// `offered` or `agreed`.
        analysis: Agreement,
    },
}

/// Where an offer stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Agreement {
    /// One side asked.
    Offered,
    /// Both agreed (a draw).
    Agreed,
    /// Both agreed (a rematch began).
    Started,
    /// The other side said no (a takeback).
    Declined,
}

impl Serialize for Mode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Serialize for RoomStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Room {
    /// The room JSON at `now`, with the task's count of connections.
    pub fn view(&self, connections: &Connections, now: i64) -> RoomView {
        let game = self.game();
        let setup = self.setup();
        RoomView {
            id: setup.id.clone(),
            variant: setup.variant,
            mode: setup.mode,
            level: setup.level,
            settings: SettingsView::from(&setup.settings),
            start: game.start_text(),
            moves: MoveTexts(game.moves()),
            notation: records::notation_of(&notation::Record::from_game(game)),
            after: self.after_view(connections, now),
            spectators: connections.spectators,
            last_seq: self.last_seq(),
        }
    }

    /// What the room shows at `now` besides its moves, its fixed setup and
    /// its spectators: what an event sends along.
    pub fn after_view(&self, connections: &Connections, now: i64) -> AfterView {
        let game = self.game();
        AfterView {
            status: self.status(),
            position: game.position_text(),
            legal_moves: MoveTexts(game.legal_moves()),
            side_to_move: game.side_to_move(),
            in_check: game.is_check(),
            impasse_points: game
                .impasse_points()
                .map(|[first, second]| PerSide { first, second }),
            result: self.result(),
            clocks: self.clocks(now),
            seats: PerSide::by(|seat| self.seat_view(seat, connections)),
            draw_offer: self.draw_offer(),
            draw_declined: self.draw_declined(),
            rematch_offer: self.rematch_offer(),
            takeback_offer: self.takeback_offer(),
            analysis_offer: self.analysis_offer(),
            analysable: self.analysable(),
            game: self.game_number(),
        }
    }

    /// How `kind` writes for people, read before it is applied: a move's
    /// notation needs the position it is played from.
    pub fn notation_of(&self, kind: &EventKind) -> Option<MoveNotation> {
        let EventKind::Move { mv, .. } = kind else {
            return None;
        };
        let game = self.game();
        records::move_notation(&game.position(), *mv, game.last_move())
    }

    /// How the game ended.
    pub fn result(&self) -> ResultView {
        let outcome = self.game().outcome();
        ResultView {
            result: outcome.map(Winner::of),
            reason: outcome.map(|outcome| outcome.reason.code()),
            side_to_move: self.game().side_to_move(),
            in_check: self.game().is_check(),
        }
    }

    fn clocks(&self, now: i64) -> Option<ClocksView> {
        let clock = self.clock();
        if !clock.is_set() {
            return None;
        }
        let deadline = self.clock_deadline();
        let running = deadline.map(|_| self.game().side_to_move());
        let [first, second] = clock.main_left(running, now);
        let settings = &self.setup().settings;
        Some(ClocksView {
            time_per_move: settings.time_per_move,
            main_time: settings.main_time,
            main_left_ms: PerSide { first, second },
            running,
            remaining_ms: deadline
                .map(|deadline| u64::try_from(deadline.saturating_sub(now)).unwrap_or(0)),
            final_left_ms: self
                .final_clocks()
                .map(|[first, second]| PerSide { first, second }),
        })
    }

    fn seat_view(&self, seat: Side, connections: &Connections) -> Option<SeatView> {
        let taken = self.seat(seat)?;
        let presence = self.presence(seat);
        Some(SeatView {
            side: self.side_of(seat),
            player: taken.player.clone(),
            name: taken.name.clone(),
            computer: taken.computer,
            connected: connections.seats[seat.index()] > 0,
            away: self.away_in_play(seat),
            taken_over: self.away_in_play(seat) && matches!(presence, Presence::TakenOver { .. }),
        })
    }

    /// The presence frame.
    pub fn presence_view(&self, connections: &Connections) -> PresenceView {
        PresenceView {
            kind: PresenceType::Presence,
            seats: PerSide::by(|seat| {
                self.seat(seat).map(|_| SeatPresence {
                    connected: connections.seats[seat.index()] > 0,
                    away: self.away_in_play(seat),
                })
            }),
            spectators: connections.spectators,
        }
    }

    /// What the lobby shows of the room.
    pub fn summary(&self) -> Summary {
        let setup = self.setup();
        Summary {
            id: setup.id.clone(),
            variant: setup.variant,
            mode: setup.mode,
            settings: setup.settings.clone(),
            status: self.status(),
            created_at: setup.created_at,
            players: [Side::First, Side::Second]
                .into_iter()
                .map(|seat| self.seat(seat).map(|taken| taken.name.clone()))
                .collect(),
        }
    }
}
