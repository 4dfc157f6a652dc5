//! Xiangqi (象棋) on the 9×10 board, per the rules spec, section 4.
//!
//! - [`Setup`] is FEN as written; [`Position`] is a validated position with
//!   legal move generation, check, game ends and chase detection.
//! - Points are named in ICCS (`h2`), moves are ICCS text (`h2e2`).

mod attacks;
mod chase;
mod movegen;
mod moves;
mod piece;
mod position;
mod setup;
mod square;
mod zobrist;

pub use moves::Move;
pub use piece::{Color, Piece, Role};
pub use position::{FenError, Position, PositionError};
pub use setup::{FenPart, ParseFenError, Setup};
pub use square::Square;
