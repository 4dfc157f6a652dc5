//! The rules of Shogi, Minishogi, Annan Shogi and Xiangqi.
//!
//! - [`shogi::Position`] plays the shogi family (shogi, minishogi, annan);
//!   [`xiangqi::Position`] plays xiangqi. Both implement [`Position`].
//! - [`Game`] adds the history: repetition, perpetual check and chase,
//!   move limit, impasse claims, resignation.
//! - [`AnyGame`] picks the game at run time from a [`Variant`] and speaks only
//!   text (SFEN/FEN, USI/ICCS), for the command line and the server.
//!
//! No I/O, no allocation in move generation, no panics on user input.
//!
//! ```
//! use rules::{AnyGame, Settings, Variant};
//!
//! let mut game = AnyGame::new(Variant::Shogi, None, &Settings::default()).unwrap();
//! game.play_text("7g7f").unwrap();
//! assert_eq!(game.legal_moves_text().len(), 30);
//! ```
#![warn(missing_docs)]

mod any;
pub mod bitboard;
mod game;
mod illegal;
mod outcome;
pub mod perft;
mod position;
mod settings;
pub mod shogi;
mod variant;
pub mod xiangqi;
mod zobrist;

pub use any::{AnyGame, AnyMove, AnyPosition, PlayError, SetupError};
pub use bitboard::Bitboard;
pub use game::Game;
pub use illegal::{IllegalMove, ParseMoveError};
pub use outcome::{EndReason, Outcome};
pub use position::{ImpasseError, MAX_LEGAL_MOVES, MoveList, MoveSet, Position};
pub use settings::{AnnanDeadPiece, AnnanSetup, Handicap, Impasse, SettingError, Settings};
pub use variant::{ParseSideError, ParseVariantError, Side, Variant};
