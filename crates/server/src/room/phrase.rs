//! Quick chat: a fixed set of phrases, sent as ids and shown in each
//! reader's own language, so there is no free text to moderate.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A quick-chat phrase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phrase {
    /// "Hello"
    Hello,
    /// "Good luck"
    GoodLuck,
    /// "Have fun"
    HaveFun,
    /// "Please wait"
    PleaseWait,
    /// "Oops"
    Oops,
    /// "Nice move"
    NiceMove,
    /// "Well played"
    WellPlayed,
    /// "Good game"
    GoodGame,
    /// "Thank you"
    ThankYou,
    /// "Rematch?"
    Rematch,
}

impl Phrase {
    /// Every phrase, in the order the page offers them.
    pub const ALL: [Phrase; 10] = [
        Phrase::Hello,
        Phrase::GoodLuck,
        Phrase::HaveFun,
        Phrase::PleaseWait,
        Phrase::Oops,
        Phrase::NiceMove,
        Phrase::WellPlayed,
        Phrase::GoodGame,
        Phrase::ThankYou,
        Phrase::Rematch,
    ];
}
