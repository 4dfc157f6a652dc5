//! The engine as a [`ComputerPlayer`].

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use engine::{Decision, Engine, EngineOptions, Level, Limits, Score};
use rules::{AnyGame, AnyMove};

use super::{ComputerPlayer, Evaluation, MATE_CP, Thinking};

/// The longest search behind the answer to a draw offer: the player waits
/// for it, and a short search already tells a lost position from a level one.
const EVALUATION_TIME: Duration = Duration::from_millis(500);

/// The engine at the requested level, each search also bounded by a move
/// time and by what the clock leaves.
///
/// Engines are pooled, so a table is not allocated on every move, but not
/// per room: a search takes an engine from the pool and gives it back, so
/// the pool holds no more engines than searches ever ran at once, which the
/// [`Computer`](super::Computer) queue bounds. Each search's table is sized
/// to its level ([`Level::hash_mb`]); an engine given back keeps only its
/// table, cleared, and forgets the game's histories. Quick moves share one
/// more engine.
pub struct EnginePlayer {
    pool: Mutex<Vec<Engine>>,
    /// The one engine of quick moves, which do not wait for the queue: a
    /// search of one ply takes milliseconds, so they take turns on it
    /// rather than each allocating an engine.
    quick: Mutex<Option<Engine>>,
    move_time: Duration,
}

impl EnginePlayer {
    /// An engine player that thinks at most `move_time` per move.
    pub fn new(move_time: Duration) -> EnginePlayer {
        EnginePlayer {
            pool: Mutex::new(Vec::new()),
            quick: Mutex::new(None),
            move_time,
        }
    }

    /// An engine set up for `game` at `level` with a table of `hash_mb`:
    /// from the pool if it has one.
    fn take(&self, game: &AnyGame, level: Level, hash_mb: usize) -> Engine {
        let options = options(game, level, hash_mb);
        let pooled = self.pool.lock().ok().and_then(|mut pool| pool.pop());
        let mut engine = match pooled {
            Some(mut engine) => {
                // A new size reallocates the table, freeing the old one.
                engine.set_options(options);
                engine
            }
            None => Engine::new(options),
        };
        engine.set_game(game);
        engine
    }

    /// Puts `engine` back in the pool with its table cleared and nothing
    /// else learned kept (the next search is of another game).
    fn give_back(&self, mut engine: Engine) {
        engine.new_game();
        if let Ok(mut pool) = self.pool.lock() {
            pool.push(engine);
        }
    }
}

impl ComputerPlayer for EnginePlayer {
    fn choose(&self, game: &AnyGame, level: u8, thinking: Thinking) -> Option<AnyMove> {
        let first_legal = game.position().legal_moves().into_iter().next()?;
        let level = Level::new(level).unwrap_or(Level::MAX);
        let decision = match thinking {
            Thinking::Search { within } => {
                let mut engine = self.take(game, level, level.hash_mb());
                let move_time = within.map_or(self.move_time, |within| within.min(self.move_time));
                let limits = Limits {
                    move_time: Some(move_time),
                    ..Limits::default()
                };
                let decision = engine.search(limits).decision;
                self.give_back(engine);
                decision
            }
            // One ply and the captures after it, at the level's noise, on
            // the quick engine with a level-1 table.
            Thinking::Quick => {
                let options = options(game, level, Level::MIN.hash_mb());
                let mut quick = self.quick.lock().unwrap_or_else(PoisonError::into_inner);
                let engine = match quick.as_mut() {
                    Some(engine) => {
                        engine.set_options(options);
                        engine
                    }
                    None => quick.insert(Engine::new(options)),
                };
                // Its move tables stay between quick moves: a one-ply search
                // learns little from them, and allocating them anew (11 MiB
                // in shogi) on every quick move left the allocator holding
                // that much per thread. Its table is another game's.
                engine.clear_hash();
                engine.set_game(game);
                engine.search(Limits::depth(1)).decision
            }
        };
        Some(match decision {
            Decision::Move { best, .. } => best,
            // The room has no way to resign or declare for the computer: it
            // plays on with a legal move.
            Decision::Resign | Decision::DeclareWin => first_legal,
        })
    }

    fn judge_draw(&self, game: &AnyGame) -> Option<i32> {
        let verdict = self.evaluate(game, EVALUATION_TIME.min(self.move_time))?;
        Some(match verdict.score {
            Score::Cp(cp) => cp,
            Score::Mate(plies) if plies > 0 => MATE_CP,
            Score::Mate(_) => -MATE_CP,
        })
    }

    /// A full-strength search (level 8, its table) of `move_time` on an
    /// engine from the pool.
    fn evaluate(&self, game: &AnyGame, move_time: Duration) -> Option<Evaluation> {
        if game.position().legal_moves().is_empty() {
            return None;
        }
        let mut engine = self.take(game, Level::MAX, Level::MAX.hash_mb());
        let result = engine.search(Limits {
            move_time: Some(move_time),
            ..Limits::default()
        });
        self.give_back(engine);
        // The first iteration always completes, so a search with a legal
        // move has a score.
        let info = result.info?;
        let best = match result.decision {
            Decision::Move { best, .. } => Some(best),
            Decision::Resign | Decision::DeclareWin => None,
        };
        let pv = match best {
            Some(best) if info.pv.first() != Some(&best) => vec![best],
            Some(_) => info.pv,
            None => Vec::new(),
        };
        Some(Evaluation {
            score: info.score,
            best,
            pv,
        })
    }
}

/// Options for a search of `game` at `level` on one thread with a table of `hash_mb`.
fn options(game: &AnyGame, level: Level, hash_mb: usize) -> EngineOptions {
    EngineOptions {
        variant: game.variant(),
        settings: game.settings().clone(),
        hash_mb,
        threads: 1,
        level,
        seed: None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rules::{Settings, Variant};

    use super::*;
    use crate::computer::Computer;

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
        let search = Thinking::Search { within: None };
        let text = |mv: Option<AnyMove>| mv.map(|mv| mv.to_string());
        assert_eq!(
            text(player.choose(&game, 8, search)).as_deref(),
            Some("5f5e")
        );
        // A quick move at a level without noise sees the capture too.
        assert_eq!(
            text(player.choose(&game, 8, Thinking::Quick)).as_deref(),
            Some("5f5e")
        );
        for level in 1..=8 {
            let mv = player.choose(&game, level, search).expect("a move");
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
        assert_eq!(player.choose(&mate, 8, search), None);
        assert_eq!(player.choose(&mate, 8, Thinking::Quick), None);
    }

    #[test]
    fn the_engine_accepts_a_draw_only_in_a_position_it_expects_to_lose() {
        let player = EnginePlayer::new(Duration::from_millis(300));
        let own_side = |sfen: &str| {
            let game = AnyGame::new(Variant::Shogi, Some(sfen), &Settings::default()).unwrap();
            player.judge_draw(&game).expect("a legal move")
        };
        // Sente to move with a rook and a bishop against a bare king: it
        // declines; Gote, to move with only its king, accepts.
        let ahead = own_side("4k4/9/9/9/9/9/9/1B5R1/4K4 b - 1");
        let behind = own_side("4k4/9/9/9/9/9/9/1B5R1/4K4 w - 1");
        assert!(!crate::computer::accepts_draw(ahead), "ahead: {ahead}");
        assert!(crate::computer::accepts_draw(behind), "behind: {behind}");
        // From the start, level: it plays on.
        let start = AnyGame::new(Variant::Xiangqi, None, &Settings::default()).unwrap();
        let level = player.judge_draw(&start).expect("a legal move");
        assert!(!crate::computer::accepts_draw(level), "start: {level}");
        let mate = AnyGame::new(
            Variant::Shogi,
            Some("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"),
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(player.judge_draw(&mate), None);
    }

    #[test]
    fn the_engine_player_sees_a_mate_in_one_and_the_move_that_gives_it() {
        // Sente drops a gold on 5b: mate (the pawn on 5c guards it).
        let game = AnyGame::new(
            Variant::Shogi,
            Some("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
            &Settings::default(),
        )
        .unwrap();
        let player = EnginePlayer::new(Duration::from_millis(300));
        let seen = player
            .evaluate(&game, Duration::from_millis(200))
            .expect("a verdict");
        assert_eq!(seen.score, engine::Score::Mate(1));
        assert_eq!(seen.best.map(|mv| mv.to_string()).as_deref(), Some("G*5b"));
        assert_eq!(seen.pv.first(), seen.best.as_ref());
        let mated = AnyGame::new(
            Variant::Shogi,
            Some("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"),
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(player.evaluate(&mated, Duration::from_millis(50)), None);
    }

    #[tokio::test]
    async fn after_a_burst_of_twenty_searches_the_pool_holds_as_many_engines_as_may_search_at_once()
    {
        let player = Arc::new(EnginePlayer::new(Duration::from_millis(200)));
        let computer = Computer::new(player.clone(), 2);
        let game = AnyGame::new(Variant::Minishogi, None, &Settings::default()).unwrap();
        let asks: Vec<_> = (0..20)
            .map(|_| {
                let (computer, game) = (computer.clone(), game.clone());
                tokio::spawn(async move { computer.choose(game, 1, None).await })
            })
            .collect();
        for ask in asks {
            let mv = ask.await.unwrap().expect("a move");
            assert!(game.position().legal_moves().contains(&mv), "{mv}");
        }
        let pool = player.pool.lock().unwrap();
        assert!(
            !pool.is_empty() && pool.len() <= 2,
            "{} engines",
            pool.len()
        );
        // A level-1 search left a level-1 table.
        assert!(
            pool.iter()
                .all(|engine| engine.options().hash_mb == Level::MIN.hash_mb())
        );
    }
}
