//! The queue in front of the computer: at most `--engine-threads` searches
//! at once, the others served first asked, first served, and none kept
//! waiting past the time its clock leaves. Analyses use the same searches
//! but always yield: one takes a search only when no game waits, and only
//! for one position, so a game that comes to the queue waits for at most
//! one position's search.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rules::{AnyGame, AnyMove};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::{ComputerPlayer, Evaluation, Thinking};

/// Time kept back from the side's clock for storing and sending the move.
const ANSWER_MARGIN: Duration = Duration::from_millis(100);
/// The shortest search worth waiting for; with less time, a quick move.
const SHORTEST_SEARCH: Duration = Duration::from_millis(50);
/// The least time before the side's clock runs out at which a search still
/// starts: the answer's margin and twice the shortest search, since a search
/// takes half of what is left.
const LATEST_START: Duration = ANSWER_MARGIN
    .saturating_add(SHORTEST_SEARCH)
    .saturating_add(SHORTEST_SEARCH);

/// The computer as the rooms reach it: a [`ComputerPlayer`] behind a fair
/// queue. Cloning shares the queue.
#[derive(Clone)]
pub struct Computer {
    player: Arc<dyn ComputerPlayer>,
    /// One permit per search that may run at once. Tokio's semaphore hands
    /// permits out in the order they were asked for.
    searches: Arc<Semaphore>,
    /// Games waiting for a permit.
    waiting: Arc<AtomicUsize>,
    /// Told whenever a permit is given back or a game stops waiting: what
    /// analyses wait for.
    freed: Arc<Notify>,
}

impl Computer {
    /// `player` behind a queue that lets `at_once` searches run at once (at least one).
    pub fn new(player: Arc<dyn ComputerPlayer>, at_once: usize) -> Computer {
        Computer {
            player,
            searches: Arc::new(Semaphore::new(at_once.max(1))),
            waiting: Arc::default(),
            freed: Arc::default(),
        }
    }

    /// A move for the side to move in `game` at `level`, whose clock runs
    /// out at `deadline` (`None`: no clock). Waits its turn for a search,
    /// then searches on a blocking thread for at most half of what the
    /// clock leaves by then; when the clock leaves too little, before or
    /// during the wait, it asks for a quick move at once instead.
    pub async fn choose(
        &self,
        game: AnyGame,
        level: u8,
        deadline: Option<Instant>,
    ) -> Option<AnyMove> {
        let permit = self.turn(deadline).await;
        let thinking = match permit {
            Some(_) => thinking(deadline, Instant::now()),
            None => Thinking::Quick,
        };
        // A permit given back unused (a quick move) still wakes the analyses.
        let permit = permit
            .map(|permit| Permit::new(permit, &self.freed))
            .filter(|_| thinking != Thinking::Quick);
        let player = Arc::clone(&self.player);
        tokio::task::spawn_blocking(move || {
            // The search keeps its permit until it ends, even if its room is gone.
            let _permit = permit;
            player.choose(&game, level, thinking)
        })
        .await
        .unwrap_or(None)
    }

    /// How good `game` is for its side to move, in centipawns, from a short
    /// search that waits its turn in the same queue as the moves.
    pub async fn judge_draw(&self, game: AnyGame) -> Option<i32> {
        let permit = self.turn(None).await;
        let player = Arc::clone(&self.player);
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            player.judge_draw(&game)
        })
        .await
        .unwrap_or(None)
    }

    /// The verdict on the position of `game` after a search of
    /// `move_time` (see [`ComputerPlayer::evaluate`]): one position of an
    /// analysis. Waits until a search is free and no game waits for one.
    pub async fn evaluate(&self, game: AnyGame, move_time: Duration) -> Option<Evaluation> {
        let permit = self.spare_turn().await;
        let player = Arc::clone(&self.player);
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            player.evaluate(&game, move_time)
        })
        .await
        .unwrap_or(None)
    }

    /// Searches for games (moves and draw answers) waiting now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// A permit no game is waiting for: taken only while none waits, so a
    /// game never queues behind an analysis.
    async fn spare_turn(&self) -> Permit {
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            // Registered before looking, so a permit given back between
            // the look and the wait still wakes this one.
            freed.as_mut().enable();
            if self.waiting() == 0 {
                // Tokio hands a given-back permit to a waiter first, so this
                // never takes one a game is queued for.
                if let Ok(permit) = Arc::clone(&self.searches).try_acquire_owned() {
                    return Permit::new(permit, &self.freed);
                }
            }
            freed.await;
        }
    }

    /// Waits in line for a search permit, but only until a search could no
    /// longer start before `deadline`: `None` then.
    async fn turn(&self, deadline: Option<Instant>) -> Option<OwnedSemaphorePermit> {
        let now = Instant::now();
        let give_up = deadline.map(|deadline| {
            now + deadline
                .saturating_duration_since(now)
                .saturating_sub(LATEST_START)
        });
        if give_up.is_some_and(|give_up| give_up <= now) {
            return None;
        }
        let _waiting = Waiting::new(&self.waiting, &self.freed);
        if self.searches.available_permits() == 0 {
            tracing::debug!(waiting = self.waiting(), "computer search waits its turn");
        }
        let acquire = Arc::clone(&self.searches).acquire_owned();
        let permit = match give_up {
            Some(give_up) => tokio::time::timeout_at(give_up, acquire).await.ok()?,
            None => acquire.await,
        };
        // The semaphore is never closed.
        permit.ok()
    }
}

/// Counts a game as waiting for as long as it lives; tells the analyses
/// when it stops.
struct Waiting<'a> {
    count: &'a AtomicUsize,
    freed: &'a Notify,
}

impl<'a> Waiting<'a> {
    fn new(count: &'a AtomicUsize, freed: &'a Notify) -> Waiting<'a> {
        count.fetch_add(1, Ordering::Relaxed);
        Waiting { count, freed }
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::Relaxed);
        self.freed.notify_waiters();
    }
}

/// A search permit that tells the waiting analyses when it is given back.
struct Permit {
    /// Always `Some` until dropped.
    permit: Option<OwnedSemaphorePermit>,
    freed: Arc<Notify>,
}

impl Permit {
    fn new(permit: OwnedSemaphorePermit, freed: &Arc<Notify>) -> Permit {
        Permit {
            permit: Some(permit),
            freed: Arc::clone(freed),
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        // Given back first, so the analyses woken find it free.
        drop(self.permit.take());
        self.freed.notify_waiters();
    }
}

/// How long a search starting at `now` may think when the side's clock
/// runs out at `deadline`: half of what is left after the answer's margin,
/// so that main time is never spent on one move and the next move still
/// has time; a quick move when that is less than the shortest search.
fn thinking(deadline: Option<Instant>, now: Instant) -> Thinking {
    match deadline.map(|deadline| deadline.saturating_duration_since(now)) {
        None => Thinking::Search { within: None },
        Some(left) if left < LATEST_START => Thinking::Quick,
        Some(left) => Thinking::Search {
            within: Some((left - ANSWER_MARGIN) / 2),
        },
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::atomic::AtomicBool;

    use rules::{Settings, Variant};

    use super::*;
    use crate::computer::FirstLegalMove;

    /// A stand-in that records what it is asked and how many search at
    /// once; its searches wait until it is opened.
    #[derive(Default)]
    struct Recorder {
        open: AtomicBool,
        running: AtomicUsize,
        most_at_once: AtomicUsize,
        /// The ply of each game asked about, with the thinking allowed, in order.
        asked: Mutex<Vec<(usize, Thinking)>>,
        /// Every search in the order it started: a game's move or an
        /// analysis's position, and its ply.
        started: Mutex<Vec<(Search, usize)>>,
    }

    #[derive(Clone, Copy, Debug, Eq, PartialEq)]
    enum Search {
        Game,
        Analysis,
    }

    impl Recorder {
        fn opened() -> Recorder {
            let recorder = Recorder::default();
            recorder.open.store(true, Ordering::SeqCst);
            recorder
        }

        fn asked(&self) -> Vec<(usize, Thinking)> {
            self.asked.lock().unwrap().clone()
        }

        fn started(&self) -> Vec<(Search, usize)> {
            self.started.lock().unwrap().clone()
        }

        /// Counts a search of `game` as running until the recorder opens.
        fn search(&self, search: Search, game: &AnyGame) {
            let running = self.running.fetch_add(1, Ordering::SeqCst) + 1;
            self.most_at_once.fetch_max(running, Ordering::SeqCst);
            self.started.lock().unwrap().push((search, game.ply()));
            // A search takes a while, so that overlapping ones would meet.
            std::thread::sleep(Duration::from_millis(5));
            // Opened by the test; a failed test never opens it, so the
            // search gives up in time for the runtime to shut down.
            let given_up = std::time::Instant::now() + Duration::from_secs(40);
            while !self.open.load(Ordering::SeqCst) && std::time::Instant::now() < given_up {
                std::thread::sleep(Duration::from_millis(1));
            }
            self.running.fetch_sub(1, Ordering::SeqCst);
        }
    }

    impl ComputerPlayer for Recorder {
        fn choose(&self, game: &AnyGame, level: u8, thinking: Thinking) -> Option<AnyMove> {
            self.asked.lock().unwrap().push((game.ply(), thinking));
            if thinking != Thinking::Quick {
                self.search(Search::Game, game);
            }
            FirstLegalMove.choose(game, level, thinking)
        }

        fn evaluate(&self, game: &AnyGame, move_time: Duration) -> Option<Evaluation> {
            self.search(Search::Analysis, game);
            FirstLegalMove.evaluate(game, move_time)
        }
    }

    /// A minishogi game after `ply` moves (each the first legal one).
    fn game_at(ply: usize) -> AnyGame {
        let mut game = AnyGame::new(Variant::Minishogi, None, &Settings::default()).unwrap();
        for _ in 0..ply {
            let mv = game.position().legal_moves()[0];
            game.play(mv).unwrap();
        }
        game
    }

    fn is_legal(game: &AnyGame, mv: Option<AnyMove>) -> bool {
        mv.is_some_and(|mv| game.position().legal_moves().contains(&mv))
    }

    /// Asks `computer` about `game` on a task of its own.
    fn ask(
        computer: &Computer,
        game: AnyGame,
        deadline: Option<Instant>,
    ) -> tokio::task::JoinHandle<(AnyGame, Option<AnyMove>)> {
        let computer = computer.clone();
        tokio::spawn(async move {
            let mv = computer.choose(game.clone(), 4, deadline).await;
            (game, mv)
        })
    }

    /// Yields until `computer` has `count` requests waiting.
    async fn until_waiting(computer: &Computer, count: usize) {
        let queued = async {
            while computer.waiting() < count {
                tokio::task::yield_now().await;
            }
        };
        tokio::time::timeout(Duration::from_secs(30), queued)
            .await
            .expect("the request waits in the queue");
    }

    /// Yields until `recorder` has been asked `count` times.
    async fn until_asked(recorder: &Recorder, count: usize) {
        let asked = async {
            while recorder.asked().len() < count {
                tokio::task::yield_now().await;
            }
        };
        tokio::time::timeout(Duration::from_secs(30), asked)
            .await
            .expect("the player is asked");
    }

    #[tokio::test]
    async fn no_more_searches_run_at_once_than_allowed_and_every_request_is_answered() {
        for at_once in [1, 3] {
            let recorder = Arc::new(Recorder::opened());
            let computer = Computer::new(recorder.clone(), at_once);
            let asks: Vec<_> = (0..12)
                .map(|ply| ask(&computer, game_at(ply % 4), None))
                .collect();
            for asked in asks {
                let (game, mv) = asked.await.unwrap();
                assert!(is_legal(&game, mv));
            }
            assert_eq!(recorder.asked().len(), 12);
            let most = recorder.most_at_once.load(Ordering::SeqCst);
            assert!((1..=at_once).contains(&most), "{most} searches at once");
            assert_eq!(computer.waiting(), 0);
        }
    }

    #[tokio::test]
    async fn searches_start_in_the_order_they_were_asked_for() {
        let recorder = Arc::new(Recorder::default());
        let computer = Computer::new(recorder.clone(), 1);
        // The first search holds the only permit until the recorder opens.
        let mut asks = vec![ask(&computer, game_at(0), None)];
        until_asked(&recorder, 1).await;
        for ply in 1..=5 {
            asks.push(ask(&computer, game_at(ply), None));
            until_waiting(&computer, ply).await;
        }
        recorder.open.store(true, Ordering::SeqCst);
        for asked in asks {
            let (game, mv) = asked.await.unwrap();
            assert!(is_legal(&game, mv));
        }
        let plies: Vec<usize> = recorder.asked().iter().map(|&(ply, _)| ply).collect();
        assert_eq!(plies, [0, 1, 2, 3, 4, 5]);
    }

    #[tokio::test]
    async fn a_clock_about_to_run_out_gets_a_quick_move_at_once_even_when_every_search_is_busy() {
        let recorder = Arc::new(Recorder::default());
        let computer = Computer::new(recorder.clone(), 1);
        let busy = ask(&computer, game_at(0), None);
        until_asked(&recorder, 1).await;
        let now = Instant::now();
        // Run out already, too close for a search, and time enough for one
        // but not for the wait: none of them waits for the busy search.
        for (ply, deadline) in [
            (1, now),
            (2, now + Duration::from_millis(150)),
            (3, now + Duration::from_millis(700)),
        ] {
            let answer = ask(&computer, game_at(ply), Some(deadline));
            // Not a measure of speed: without this bound a wait for the
            // busy search would hang the test instead of failing it.
            let (game, mv) = tokio::time::timeout(Duration::from_secs(30), answer)
                .await
                .expect("an answer before the busy search ends")
                .unwrap();
            assert!(is_legal(&game, mv));
        }
        assert!(!busy.is_finished());
        assert_eq!(
            recorder.asked()[1..],
            [
                (1, Thinking::Quick),
                (2, Thinking::Quick),
                (3, Thinking::Quick)
            ]
        );
        recorder.open.store(true, Ordering::SeqCst);
        let (game, mv) = busy.await.unwrap();
        assert!(is_legal(&game, mv));
    }

    /// Asks `computer` to evaluate `game` on a task of its own.
    fn evaluate(computer: &Computer, game: AnyGame) -> tokio::task::JoinHandle<Option<Evaluation>> {
        let computer = computer.clone();
        tokio::spawn(async move { computer.evaluate(game, Duration::from_millis(1)).await })
    }

    #[tokio::test]
    async fn a_game_that_comes_to_the_queue_after_an_analysis_still_searches_first() {
        let recorder = Arc::new(Recorder::default());
        let computer = Computer::new(recorder.clone(), 1);
        let busy = ask(&computer, game_at(0), None);
        until_started(&recorder, 1).await;
        // The analysis asks first, the game second, while the one search is busy.
        let analysis = evaluate(&computer, game_at(1));
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        let game = ask(&computer, game_at(2), None);
        until_waiting(&computer, 1).await;
        recorder.open.store(true, Ordering::SeqCst);
        for asked in [busy, game] {
            let (game, mv) = asked.await.unwrap();
            assert!(is_legal(&game, mv));
        }
        assert!(analysis.await.unwrap().is_some());
        assert_eq!(
            recorder.started(),
            [(Search::Game, 0), (Search::Game, 2), (Search::Analysis, 1)]
        );
        assert_eq!(recorder.most_at_once.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn an_analysis_takes_a_search_no_game_needs_at_once() {
        let recorder = Arc::new(Recorder::default());
        let computer = Computer::new(recorder.clone(), 2);
        let busy = ask(&computer, game_at(0), None);
        until_started(&recorder, 1).await;
        let analysis = evaluate(&computer, game_at(1));
        until_started(&recorder, 2).await;
        assert_eq!(recorder.started()[1], (Search::Analysis, 1));
        recorder.open.store(true, Ordering::SeqCst);
        assert!(analysis.await.unwrap().is_some());
        let (game, mv) = busy.await.unwrap();
        assert!(is_legal(&game, mv));
    }

    /// Yields until `recorder` has started `count` searches.
    async fn until_started(recorder: &Recorder, count: usize) {
        let started = async {
            while recorder.started().len() < count {
                tokio::task::yield_now().await;
            }
        };
        tokio::time::timeout(Duration::from_secs(30), started)
            .await
            .expect("the search starts");
    }

    #[test]
    fn a_search_takes_half_of_what_the_clock_leaves_or_a_quick_move() {
        let now = Instant::now();
        let ms = Duration::from_millis;
        assert_eq!(thinking(None, now), Thinking::Search { within: None });
        assert_eq!(
            thinking(Some(now + ms(10_100)), now),
            Thinking::Search {
                within: Some(ms(5_000))
            }
        );
        assert_eq!(
            thinking(Some(now + ms(200)), now),
            Thinking::Search {
                within: Some(ms(50))
            }
        );
        assert_eq!(thinking(Some(now + ms(199)), now), Thinking::Quick);
        assert_eq!(thinking(Some(now), now + ms(1)), Thinking::Quick);
    }
}
