//! The rows the store reads and writes, as plain values.

/// A room as created: what never changes after.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct RoomRecord {
    /// The unguessable id in the invitation link.
    pub id: String,
    /// `shogi`, `minishogi`, `annan` or `xiangqi`.
    pub variant: String,
    /// `online`, `local` or `computer`.
    pub mode: String,
    /// The computer's level (1-8) in `computer` mode, else 0.
    pub level: i64,
    /// The room's settings as the server's JSON text.
    pub settings: String,
    /// The start position as SFEN or FEN.
    pub start: String,
    /// The device that created the room (for the rooms-per-device limit).
    pub device: String,
    /// When it was created, in unix milliseconds.
    pub created_at: i64,
}

/// A taken seat.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct SeatRecord {
    /// The room.
    pub room_id: String,
    /// `first` or `second`: the seat's side in the room's first game.
    pub seat: String,
    /// The digest ([`digest`](crate::digest)) of the token that lets its
    /// holder act for the seat.
    pub token_hash: String,
    /// The anonymous player id of the device in the seat (`computer` for the engine).
    pub player: String,
}

/// One numbered event of a room.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct EventRecord {
    /// The event's number: 1, 2, 3 ... per room.
    pub seq: i64,
    /// When it happened, in unix milliseconds.
    pub at: i64,
    /// What kind of event (`move`, `end` ...), as the server names it.
    pub kind: String,
    /// The event's details as the server's JSON text.
    pub data: String,
}

/// A finished game, for statistics.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct GameRecord {
    /// The room it was played in.
    pub room_id: String,
    /// Which game of the room: 1, 2 ... (rematches).
    pub number: i64,
    /// The variant.
    pub variant: String,
    /// Whether it changed ratings.
    pub rated: bool,
    /// The player who moved first.
    pub first_player: String,
    /// The player who moved second.
    pub second_player: String,
    /// `first`, `second`, or `None` for a draw.
    pub winner: Option<String>,
    /// The end reason's code (`checkmate`, `resignation` ...).
    pub reason: String,
    /// When it ended, in unix milliseconds.
    pub finished_at: i64,
}

/// A Glicko-2 rating of one player in one variant.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingRecord {
    /// The player.
    pub player: String,
    /// The variant.
    pub variant: String,
    /// The rating.
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// The rating volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

/// Finished games of one variant, counted by result.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct VariantCounts {
    /// The variant.
    pub variant: String,
    /// Games the first player won.
    pub first_wins: i64,
    /// Games the second player won.
    pub second_wins: i64,
    /// Drawn games.
    pub draws: i64,
}

/// One player's finished games of one variant, counted by result.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct PlayerCounts {
    /// The variant.
    pub variant: String,
    /// Games the player won.
    pub wins: i64,
    /// Games the player lost.
    pub losses: i64,
    /// Drawn games.
    pub draws: i64,
}

/// The engine's analysis of a finished game, one per game of a room.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct AnalysisRecord {
    /// The room the game was played in.
    pub room_id: String,
    /// Which game of the room: 1, 2 ... (rematches).
    pub game: i64,
    /// Every position's verdict as the server's JSON text.
    pub plies: String,
    /// When it was made, in unix milliseconds.
    pub created_at: i64,
}

/// A room a player holds a seat in, for their list of games.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct PlayerGame {
    /// The room.
    pub room_id: String,
    /// The variant.
    pub variant: String,
    /// `online`, `local` or `computer`.
    pub mode: String,
    /// When the room was made, in unix milliseconds.
    pub created_at: i64,
    /// 1 when the room's current game is over, else 0.
    pub finished: i64,
    /// The seat the player holds (`first` in a local room, where they hold both).
    pub seat: String,
    /// The player in the other seat (the player themselves in a local room,
    /// `computer` for the engine), `None` while it is free.
    pub opponent: Option<String>,
    /// The opponent's display name, when the store knows the player.
    pub opponent_name: Option<String>,
    /// The player's result in the room's last recorded game: `win`, `loss` or
    /// `draw`; `None` before any game was recorded.
    pub result: Option<String>,
    /// That game's end reason (`checkmate`, `resignation` ...).
    pub reason: Option<String>,
}

/// A node of a cluster, as it last told the database it is alive.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct NodeRecord {
    /// The node's id, new at each start of the process.
    pub id: String,
    /// Where the other nodes reach it (`--node-url`), empty when they cannot.
    pub url: String,
    /// When it last said it is alive, in unix milliseconds.
    pub heartbeat: i64,
    /// The lobby of the rooms it plays, as the server's JSON text.
    pub lobby: String,
}

/// A node's right to play a room until `expires_at`: who owns the room.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct Lease {
    /// The room.
    pub room_id: String,
    /// The node that holds it.
    pub node: String,
    /// Grows each time the room changes hands: an append fenced by an older
    /// number is refused.
    pub fence: i64,
    /// When the lease lapses unless renewed, in unix milliseconds.
    pub expires_at: i64,
}

/// A room's lease with the address of the node that holds it.
#[derive(Clone, Debug, Eq, PartialEq, sqlx::FromRow)]
pub struct Owner {
    /// The node that holds the lease.
    pub node: String,
    /// Its `--node-url`, empty when it gave none or is no longer registered.
    pub url: String,
    /// The lease's fencing number.
    pub fence: i64,
    /// When the lease lapses unless renewed, in unix milliseconds.
    pub expires_at: i64,
}
