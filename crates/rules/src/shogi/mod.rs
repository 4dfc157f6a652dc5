//! Shogi, Minishogi and Annan Shogi: one board model, three rule sets.
//!
//! [`Setup`] is what SFEN reads into; [`Position`] is a validated position
//! that generates legal moves (USI text: `7g7f`, `8h2b+`, `P*5e`) and implements
//! [`crate::Position`]. Minishogi uses files 1–5 and ranks a–e of the same
//! 81-square board.

mod annan;
mod attacks;
mod hand;
mod impasse;
mod movegen;
mod moves;
mod piece;
mod position;
mod setup;
mod square;
mod zobrist;

pub use hand::Hand;
pub use moves::Move;
pub use piece::{Color, Piece, Role};
pub use position::{Position, PositionError, SfenError};
pub use setup::{ParseSfenError, Setup, SfenPart};
pub use square::Square;
