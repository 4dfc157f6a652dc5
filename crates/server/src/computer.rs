//! Who chooses the moves of a computer seat (computer rooms, and away players
//! after the grace period).

use std::sync::Mutex;
use std::time::Duration;

use engine::{Decision, Engine, EngineOptions, Level, Limits};
use rules::{AnyGame, AnyMove};

/// Chooses a move for the side to move. Called on a blocking thread
/// (`spawn_blocking`), so it may search for as long as its level allows.
pub trait ComputerPlayer: Send + Sync + 'static {
    /// A legal move at `level` (1-8), or `None` when there is none.
    fn choose(&self, game: &AnyGame, level: u8) -> Option<AnyMove>;
}

/// The engine at the requested level, each search also bounded by a move
/// time. Engines are pooled so that their hash tables are allocated once,
/// not on every move.
pub struct EnginePlayer {
    pool: Mutex<Vec<Engine>>,
    move_time: Duration,
}

/// The hash table of each pooled engine, in MiB.
const POOLED_HASH_MB: usize = 16;

impl EnginePlayer {
    /// An engine player that thinks at most `move_time` per move.
    pub fn new(move_time: Duration) -> EnginePlayer {
        EnginePlayer {
            pool: Mutex::new(Vec::new()),
            move_time,
        }
    }
}

impl ComputerPlayer for EnginePlayer {
    fn choose(&self, game: &AnyGame, level: u8) -> Option<AnyMove> {
        let first_legal = game.position().legal_moves().into_iter().next()?;
        let options = EngineOptions {
            variant: game.variant(),
            settings: game.settings().clone(),
            hash_mb: POOLED_HASH_MB,
            threads: 1,
            level: Level::new(level).unwrap_or(Level::MAX),
            seed: None,
        };
        let pooled = self.pool.lock().ok().and_then(|mut pool| pool.pop());
        let mut engine = match pooled {
            Some(mut engine) => {
                engine.set_options(options);
                engine.new_game();
                engine
            }
            None => Engine::new(options),
        };
        engine.set_game(game);
        let limits = Limits {
            move_time: Some(self.move_time),
            ..Limits::default()
        };
        let choice = match engine.search(limits).decision {
            Decision::Move { best, .. } => best,
            // The room has no way to resign or declare for the computer: it
            // plays on with a legal move.
            Decision::Resign | Decision::DeclareWin => first_legal,
        };
        if let Ok(mut pool) = self.pool.lock() {
            pool.push(engine);
        }
        Some(choice)
    }
}

/// The alphabetically first legal move, at every level: deterministic, so
/// tests of rooms can predict the computer's replies.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstLegalMove;

impl ComputerPlayer for FirstLegalMove {
    fn choose(&self, game: &AnyGame, _level: u8) -> Option<AnyMove> {
        game.position()
            .legal_moves()
            .into_iter()
            .min_by_key(ToString::to_string)
    }
}

#[cfg(test)]
mod tests {
    use rules::{Settings, Variant};

    use super::*;

    #[test]
    fn the_engine_player_takes_a_hanging_rook_and_answers_every_level() {
        // Gote's rook on 5e hangs to Sente's gold on 5f.
        let game = AnyGame::new(
            Variant::Shogi,
            Some("4k4/9/9/9/4r4/4G4/9/9/4K4 b - 1"),
            &Settings::default(),
        )
        .unwrap();
        let player = EnginePlayer::new(Duration::from_millis(300));
        let text = |mv: Option<AnyMove>| mv.map(|mv| mv.to_string());
        assert_eq!(text(player.choose(&game, 8)).as_deref(), Some("5f5e"));
        for level in 1..=8 {
            let mv = player.choose(&game, level).expect("a move");
            assert!(
                game.position().legal_moves().contains(&mv),
                "level {level}: {mv}"
            );
        }
        let mate = AnyGame::new(
            Variant::Shogi,
            Some("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"),
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(player.choose(&mate, 8), None);
    }

    #[test]
    fn the_first_legal_move_player_plays_the_alphabetically_first_legal_move() {
        let game = AnyGame::new(Variant::Xiangqi, None, &Settings::default()).unwrap();
        // a0a1 and a0a2 (chariot up) come first in ICCS order.
        let first = FirstLegalMove.choose(&game, 4).map(|mv| mv.to_string());
        assert_eq!(first.as_deref(), Some("a0a1"));
        let mate = AnyGame::new(
            Variant::Shogi,
            Some("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"),
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(FirstLegalMove.choose(&mate, 4), None);
    }
}
