//! Game records and move text for the four games, built on `rules`.
//!
//! - [`Record`] is one game in any format: start position, moves (checked
//!   legal), headers, comments, times and result. [`Record::parse`] detects
//!   KIF, KI2, CSA, a USI-style position line or a xiangqi PGN, reading
//!   Shift_JIS as well as UTF-8; [`Record::write`] writes any [`Format`] that
//!   can hold the game, in UTF-8.
//! - Move text for players: [`japanese`] (`▲７六歩`, `△同　銀`, `５八金右`),
//!   [`western`] (`P-7f`, `Bx2b+`, `S*5e`), [`wxf`] (`C2.5`, `H2+3`, ICCS) and
//!   [`chinese`] (`炮二平五`, `马8进7`, `前炮退一`).
//!
//! Every parser is total: bad input gives an error with its line and column.
//!
//! ```
//! use notation::{Format, Record};
//!
//! let kif = "手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n3 投了\n";
//! let record = Record::parse(kif.as_bytes(), None).unwrap();
//! assert_eq!(record.write(Format::Csa).unwrap(), "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n");
//! ```
//!
//! # What each format keeps
//!
//! | | KIF | KI2 | CSA | position line | xiangqi PGN |
//! |---|---|---|---|---|---|
//! | games | shogi family | shogi family | shogi family | all four | xiangqi |
//! | variant | `手合割：5五将棋` / `安南将棋` | as KIF | `$VARIANT:` | 5×5 SFEN is minishogi; annan needs the hint | — |
//! | start | `手合割` or BOD board | as KIF | `PI` (with handicap removals) or `P1`–`P9` | SFEN / FEN | `[FEN]` |
//! | headers | yes | yes | names, `$` fields; other keys as comments | no | tags |
//! | comments | yes | yes | yes (`'*` after a move) | no | `{}` |
//! | times | yes | no | `T` seconds | no | no |
//! | result | end word and `まで` line | `まで` line | `%` line | no | `Result` and `Termination` tags |
//!
//! Ends the rules decide (checkmate, repetition and who lost it) are judged
//! again from the board when a record is read. A move limit is written as
//! 持将棋 / `%HIKIWAKE` and reads back as an impasse or agreement; a declined
//! promotion is written in KIF without 不成, which the from-square makes plain.
#![warn(missing_docs)]

pub mod chinese;
mod csa;
pub mod japanese;
mod ki2;
mod kif;
mod record;
mod rivals;
mod text;
mod usi;
pub mod western;
pub mod wxf;
mod xiangqi_record;

pub use record::{
    Format, GameResult, Headers, ParseRecordError, PushError, Record, RecordMove, Termination,
    WriteError,
};
