//! Shogi, Minishogi and Annan Shogi: one board model, three rule sets.
//!
//! [`Setup`] is what SFEN reads into; [`Position`] is a validated position
//! that generates legal moves (USI text: `7g7f`, `8h2b+`, `P*5e`) and implements
//! [`crate::Position`]. Minishogi uses files 1–5 and ranks a–e of the same
//! 81-square board.
//!
//! ```
//! use rules::shogi::{Position, Move};
//! use rules::{Position as _, Settings, Variant};
//!
//! let mut pos = Position::startpos(Variant::Shogi, &Settings::default());
//! assert_eq!(pos.legal_moves().len(), 30);
//! let mv = pos.parse_move("7g7f")?;
//! pos.check_move(mv)?;
//! pos.play_unchecked(mv);
//! assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! assert!(matches!(mv, Move::Normal { promote: false, .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
