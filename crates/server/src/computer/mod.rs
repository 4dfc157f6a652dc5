//! Who chooses the moves of a computer seat (computer rooms, and away players
//! after the grace period) and answers the draws offered to it, and how many
//! may think at once.
//!
//! A [`ComputerPlayer`] chooses a move on a blocking thread; the rooms reach
//! it only through the [`Computer`] queue, which lets `--engine-threads`
//! searches run at once, serves the others first asked, first served, and
//! tells each how long the side's clock leaves it to think, the wait
//! included. Analyses ([`Computer::evaluate`]) share the same searches but
//! take one only when no game waits for it.

mod engine;
mod queue;

use std::time::Duration;

pub use ::engine::Score;
use rules::{AnyGame, AnyMove};

pub use self::engine::EnginePlayer;
pub use self::queue::Computer;

/// How far behind the computer must judge itself, in centipawns (a pawn or
/// an uncrossed soldier is 100), to accept a draw: two pawns. A computer
/// that is level or better plays on, whatever its level; only a position it
/// expects to lose is worth a draw to it.
pub(crate) const ACCEPTS_DRAW_AT_CP: i32 = -200;

/// What a mate counts as in [`ComputerPlayer::evaluate`]'s centipawns.
pub(crate) const MATE_CP: i32 = 30_000;

/// Whether the computer accepts a draw when it judges its own side at `score_cp`.
pub(crate) fn accepts_draw(score_cp: i32) -> bool {
    score_cp <= ACCEPTS_DRAW_AT_CP
}

/// Chooses a move for the side to move. Called on a blocking thread
/// (`spawn_blocking`), so it may search for as long as `thinking` allows.
pub trait ComputerPlayer: Send + Sync + 'static {
    /// A legal move at `level` (1-8), or `None` when there is none.
    fn choose(&self, game: &AnyGame, level: u8, thinking: Thinking) -> Option<AnyMove>;

    /// How good the position is for the side to move, in centipawns (a mate
    /// is ±[`MATE_CP`]), from a short full-strength search, whatever the
    /// room's level: a weaker level's noise varies its moves, and must not
    /// make it accept a draw in a level position. `None` when the side has
    /// no legal move. Without a judgement of its own, every position is
    /// level, so a player declines every draw.
    fn judge_draw(&self, game: &AnyGame) -> Option<i32> {
        (!game.position().legal_moves().is_empty()).then_some(0)
    }

    /// The full-strength verdict on the position of `game`, searched for
    /// `move_time`; `None` when the side to move has no legal move. Called
    /// on a blocking thread, as `choose`.
    fn evaluate(&self, game: &AnyGame, move_time: Duration) -> Option<Evaluation>;
}

/// What a search thinks of a position.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Evaluation {
    /// The score from the side to move's view.
    pub score: Score,
    /// The best move, unless the side to move should declare an impasse win instead.
    pub best: Option<AnyMove>,
    /// The principal variation, from `best` on (empty without one).
    pub pv: Vec<AnyMove>,
}

/// How long a [`ComputerPlayer`] may think about one move.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Thinking {
    /// A search, of at most `within` when the side plays on a clock (what
    /// the clock leaves after the wait in the queue); the player's own
    /// limit and the level bound it besides.
    Search {
        /// The longest the search may take; `None` without a clock.
        within: Option<Duration>,
    },
    /// The clock leaves no time for a search: a quick move, at once.
    Quick,
}

/// The alphabetically first legal move, at every level: deterministic, so
/// tests of rooms can predict the computer's replies.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstLegalMove;

impl ComputerPlayer for FirstLegalMove {
    fn choose(&self, game: &AnyGame, _level: u8, _thinking: Thinking) -> Option<AnyMove> {
        game.position()
            .legal_moves()
            .into_iter()
            .min_by_key(ToString::to_string)
    }

    /// An even score and the move it would play, so tests of analyses can
    /// predict every entry.
    fn evaluate(&self, game: &AnyGame, move_time: Duration) -> Option<Evaluation> {
        let best = self.choose(
            game,
            8,
            Thinking::Search {
                within: Some(move_time),
            },
        )?;
        Some(Evaluation {
            score: Score::Cp(0),
            best: Some(best),
            pv: vec![best],
        })
    }
}

#[cfg(test)]
mod tests {
    use rules::{Settings, Variant};

    use super::*;

    #[test]
    fn the_first_legal_move_player_plays_the_alphabetically_first_legal_move() {
        let game = AnyGame::new(Variant::Xiangqi, None, &Settings::default()).unwrap();
        let first = |game: &AnyGame| {
            FirstLegalMove
                .choose(game, 4, Thinking::Search { within: None })
                .map(|mv| mv.to_string())
        };
        // a0a1 and a0a2 (chariot up) come first in ICCS order.
        assert_eq!(first(&game).as_deref(), Some("a0a1"));
        let mate = AnyGame::new(
            Variant::Shogi,
            Some("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"),
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(first(&mate), None);
        let even = FirstLegalMove
            .evaluate(&game, Duration::from_millis(1))
            .unwrap();
        assert_eq!(even.score, Score::Cp(0));
        assert_eq!(even.best.map(|mv| mv.to_string()).as_deref(), Some("a0a1"));
        assert_eq!(
            FirstLegalMove.evaluate(&mate, Duration::from_millis(1)),
            None
        );
    }
}
