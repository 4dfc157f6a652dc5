//! Game records and move text for the four games, built on `rules`.
//!
//! - [`Record`] is one game in any format: start position, moves (checked
//!   legal), headers, comments, times and result. [`Record::parse`] detects
//!   KIF, KI2, CSA, a USI-style position line or a xiangqi PGN, reading
//!   Shift_JIS as well as UTF-8; [`Record::write`] writes any [`Format`] that
//!   can hold the game.
//! - Move text for players: [`japanese`] (`▲７六歩`, `△同　銀`, `５八金右`),
//!   [`western`] (`P-7f`, `Bx2b+`, `S*5e`) and [`wxf`] (`C2.5`, `H2+3`, ICCS).
//!
//! Every parser is total: bad input gives an error with its line and column.
#![warn(missing_docs)]

mod csa;
pub mod japanese;
mod ki2;
mod kif;
mod record;
mod text;
mod usi;
pub mod western;
pub mod wxf;
mod xiangqi_record;

pub use record::{
    Format, GameResult, Headers, ParseRecordError, PushError, Record, RecordMove, Termination,
    WriteError,
};
