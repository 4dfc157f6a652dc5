//! Who chooses the moves of a computer seat (computer rooms, and away players
//! after the grace period).

use rules::AnyGame;

/// Chooses a move for the side to move. Called on a blocking thread
/// (`spawn_blocking`), so it may search for as long as its level allows.
pub trait ComputerPlayer: Send + Sync + 'static {
    /// A legal move in USI/ICCS text at `level` (1-8), or `None` when there is none.
    fn choose(&self, game: &AnyGame, level: u8) -> Option<String>;
}

/// The stand-in until the engine crate lands: the first legal move in
/// alphabetical order, at every level. Deterministic, so tests can predict it.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstLegalMove;

impl ComputerPlayer for FirstLegalMove {
    fn choose(&self, game: &AnyGame, _level: u8) -> Option<String> {
        game.legal_moves_text().into_iter().min()
    }
}

#[cfg(test)]
mod tests {
    use rules::{Settings, Variant};

    use super::*;

    #[test]
    fn the_stand_in_plays_the_alphabetically_first_legal_move() {
        let game = AnyGame::new(Variant::Xiangqi, None, &Settings::default()).unwrap();
        // a0a1 and a0a2 (chariot up) come first in ICCS order.
        assert_eq!(FirstLegalMove.choose(&game, 4).as_deref(), Some("a0a1"));
        let mate = AnyGame::new(
            Variant::Shogi,
            Some("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"),
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(FirstLegalMove.choose(&mate, 4), None);
    }
}
