//! A game: a start position, the moves played, and every end that depends on
//! the history — repetition with perpetual check and chase, the move limit,
//! impasse claims — or on the players: resignation, agreement, timeout.

use crate::{
    EndReason, IllegalMove, ImpasseError, MoveList, Outcome, Position, Settings, Side, Variant,
};

/// One position of the game's history, with the move that reached it.
#[derive(Copy, Clone, Debug)]
struct Ply {
    /// [`Position::key`] of the position.
    key: u64,
    /// The move that reached this position gave check.
    check: bool,
    /// Xiangqi: the move that reached this position chased a piece.
    chase: bool,
}

/// A game of any of the four games, from its start to its end.
///
/// ```
/// use rules::{shogi, Game, Position, Settings, Variant};
///
/// let settings = Settings::default();
/// let mut game = Game::new(shogi::Position::startpos(Variant::Shogi, &settings), settings);
/// let mv = game.position().parse_move("7g7f").unwrap();
/// assert_eq!(game.play(mv), Ok(None));
/// assert_eq!(game.moves().len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    start: P,
    position: P,
    settings: Settings,
    moves: Vec<P::Move>,
    // Invariant: `history.len() == moves.len() + 1`; `history[0]` is the start.
    history: Vec<Ply>,
    outcome: Option<Outcome>,
}

impl<P: Position> Game<P> {
    /// A game from `start` under `settings`. A start position that is already
    /// mate (or stalemate, or a dead draw) starts the game finished.
    pub fn new(start: P, settings: Settings) -> Game<P> {
        let outcome = start.end();
        Game {
            history: vec![Ply {
                key: start.key(),
                check: false,
                chase: false,
            }],
            position: start.clone(),
            start,
            settings,
            moves: Vec::new(),
            outcome,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &P {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &P {
        &self.position
    }

    /// The house rules the game is played under.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves now: none once the game is over.
    pub fn legal_moves(&self) -> MoveList<P::Move> {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// Plays `mv` for the side to move and returns the outcome if the game
    /// ended with it.
    ///
    /// Under `illegal_move_loses`, a move that breaks a rule of the game
    /// (nifu, uchifuzume, leaving the king in check ...) is not refused: it
    /// ends the game as a loss for its player. It is not added to [`moves`](Self::moves).
    ///
    /// # Errors
    /// The game is over, or the move is illegal (and does not lose instead).
    pub fn play(&mut self, mv: P::Move) -> Result<Option<Outcome>, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if let Err(reason) = self.position.check_move(mv) {
            if self.settings.illegal_move_loses && reason.is_rule_violation() {
                let loser = self.position.side_to_move();
                self.outcome = Some(Outcome::loss(loser, EndReason::IllegalMove(reason)));
                return Ok(self.outcome);
            }
            return Err(reason);
        }
        let mut next = self.position.clone();
        next.play_unchecked(mv);
        let ply = Ply {
            key: next.key(),
            check: next.is_check(),
            chase: self.position.is_chase(mv, &next),
        };
        self.position = next;
        self.moves.push(mv);
        self.history.push(ply);
        self.outcome = self.decide();
        Ok(self.outcome)
    }

    /// `side` resigns (on either side's turn).
    pub fn resign(&mut self, side: Side) {
        self.finish(Outcome::loss(side, EndReason::Resignation));
    }

    /// `side` ran out of time.
    pub fn time_out(&mut self, side: Side) {
        self.finish(Outcome::loss(side, EndReason::Timeout));
    }

    /// Both players agreed to a draw.
    pub fn agree_draw(&mut self) {
        self.finish(Outcome::draw(EndReason::Agreement));
    }

    /// The players left: the game ends without a winner.
    pub fn abandon(&mut self) {
        self.finish(Outcome::draw(EndReason::Abandoned));
    }

    /// `claimant` claims (`24-point`) or declares (`27-point`) an impasse, which
    /// ends the game with the verdict of the `impasse` setting.
    ///
    /// # Errors
    /// The game is over, or the claim cannot be judged (see [`ImpasseError`]).
    pub fn claim_impasse(&mut self, claimant: Side) -> Result<Outcome, ImpasseError> {
        if self.is_over() {
            return Err(ImpasseError::GameOver);
        }
        let outcome = self
            .position
            .judge_impasse(self.settings.impasse, claimant)?;
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    fn finish(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
        }
    }

    /// The ends decided after a move: the position's own, then repetition,
    /// then the move limit.
    fn decide(&self) -> Option<Outcome> {
        if let Some(outcome) = self.position.end() {
            return Some(outcome);
        }
        if let Some(outcome) = self.repetition() {
            return Some(outcome);
        }
        let limit = self.settings.move_limit as usize;
        (limit > 0 && self.moves.len() >= limit).then_some(Outcome::draw(EndReason::MoveLimit))
    }

    /// Sennichite (fourth occurrence, shogi family) or xiangqi's third
    /// occurrence, judged over the whole sequence since the position first
    /// stood on the board.
    fn repetition(&self) -> Option<Outcome> {
        let variant = self.position.variant();
        let needed = if variant == Variant::Xiangqi { 3 } else { 4 };
        let now = self.history.len() - 1;
        let key = self.history[now].key;
        let mut occurrences = self
            .history
            .iter()
            .enumerate()
            .filter(|(_, p)| p.key == key);
        let (first, _) = occurrences.next()?;
        if occurrences.count() + 1 < needed {
            return None;
        }
        // The moves of the cycle are the ones that reached history[first+1..=now].
        // history[i] was reached by move i-1, played by the side not to move at i.
        let mover_now = self.position.side_to_move().opponent();
        let every = |side: Side, test: fn(&Ply) -> bool| {
            self.history[first + 1..=now]
                .iter()
                .enumerate()
                .filter(|(offset, _)| {
                    let mover = if (now - (first + 1 + offset)) % 2 == 0 {
                        mover_now
                    } else {
                        mover_now.opponent()
                    };
                    mover == side
                })
                .all(|(_, ply)| test(ply))
        };
        let perpetual = |test: fn(&Ply) -> bool| {
            let first_side = every(Side::First, test);
            let second_side = every(Side::Second, test);
            match (first_side, second_side) {
                (true, false) => Some(Some(Side::First)),
                (false, true) => Some(Some(Side::Second)),
                (true, true) => Some(None),
                (false, false) => None,
            }
        };
        match perpetual(|ply| ply.check) {
            Some(Some(checker)) => return Some(Outcome::loss(checker, EndReason::PerpetualCheck)),
            Some(None) => return Some(Outcome::draw(EndReason::Repetition)),
            None => {}
        }
        Some(match variant {
            // A checking move is forcing too: a side that alternates checks and
            // chases throughout loses as a perpetual chaser.
            Variant::Xiangqi => match perpetual(|ply| ply.chase || ply.check) {
                Some(Some(chaser)) => Outcome::loss(chaser, EndReason::PerpetualChase),
                _ => Outcome::draw(EndReason::Repetition),
            },
            // Minishogi: a repetition without perpetual check is lost by Sente.
            Variant::Minishogi => Outcome::loss(Side::First, EndReason::Repetition),
            Variant::Shogi | Variant::Annan => Outcome::draw(EndReason::Repetition),
        })
    }
}

#[cfg(test)]
mod tests {
    //! The repetition verdicts on a toy game whose moves say whether they
    //! check or chase, so that every combination can be scripted. The real
    //! games' scenarios are in `tests/game.rs`.
    use core::fmt;

    use super::*;
    use crate::{MoveList, MoveSet, ParseMoveError};

    /// A move to toy state `to`, checking and chasing as it says.
    #[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
    struct Toy {
        to: u8,
        check: bool,
        chase: bool,
    }

    impl fmt::Display for Toy {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}", self.to)
        }
    }

    #[derive(Clone, Debug)]
    struct ToyPosition {
        variant: Variant,
        state: u8,
        side: Side,
        in_check: bool,
    }

    impl fmt::Display for ToyPosition {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{} {}", self.state, self.side)
        }
    }

    impl Position for ToyPosition {
        type Move = Toy;

        fn variant(&self) -> Variant {
            self.variant
        }
        fn side_to_move(&self) -> Side {
            self.side
        }
        fn generate_moves(&self, _: MoveSet, _: &mut MoveList<Toy>) {}
        fn check_move(&self, _: Toy) -> Result<(), IllegalMove> {
            Ok(())
        }
        fn play_unchecked(&mut self, mv: Toy) {
            self.state = mv.to;
            self.side = self.side.opponent();
            self.in_check = mv.check;
        }
        fn is_check(&self) -> bool {
            self.in_check
        }
        fn key(&self) -> u64 {
            u64::from(self.state) << 1 | self.side.index() as u64
        }
        fn parse_move(&self, text: &str) -> Result<Toy, ParseMoveError> {
            Err(ParseMoveError::new(text, "toy moves have no text"))
        }
        fn end(&self) -> Option<Outcome> {
            None
        }
        fn is_chase(&self, mv: Toy, _: &Self) -> bool {
            mv.chase
        }
    }

    /// Plays the four-ply cycle 0 → 1 → 2 → 3 → 0 until the game ends, with
    /// First's moves marked `first` and Second's `second` (`c` check, `x`
    /// chase, `-` neither); returns the outcome.
    fn cycle(variant: Variant, first: [&str; 2], second: [&str; 2]) -> Outcome {
        let start = ToyPosition {
            variant,
            state: 0,
            side: Side::First,
            in_check: false,
        };
        let mut game = Game::new(start, Settings::default());
        let marks = [first[0], second[0], first[1], second[1]];
        for ply in 0..100 {
            let mark = marks[ply % 4];
            let mv = Toy {
                to: ((ply + 1) % 4) as u8,
                check: mark.contains('c'),
                chase: mark.contains('x'),
            };
            if let Some(outcome) = game.play(mv).unwrap() {
                let expected_plies = if variant == Variant::Xiangqi { 8 } else { 12 };
                assert_eq!(game.moves().len(), expected_plies);
                return outcome;
            }
        }
        panic!("no repetition found");
    }

    #[test]
    fn shogi_family_repetition_verdicts() {
        let draw = Outcome::draw(EndReason::Repetition);
        let first_checks = Outcome::loss(Side::First, EndReason::PerpetualCheck);
        let second_checks = Outcome::loss(Side::Second, EndReason::PerpetualCheck);
        assert_eq!(cycle(Variant::Shogi, ["-", "-"], ["-", "-"]), draw);
        assert_eq!(cycle(Variant::Shogi, ["c", "c"], ["-", "-"]), first_checks);
        assert_eq!(cycle(Variant::Annan, ["-", "-"], ["c", "c"]), second_checks);
        assert_eq!(cycle(Variant::Shogi, ["c", "-"], ["-", "-"]), draw);
        assert_eq!(cycle(Variant::Shogi, ["c", "c"], ["c", "c"]), draw);
        let sente_loses = Outcome::loss(Side::First, EndReason::Repetition);
        assert_eq!(
            cycle(Variant::Minishogi, ["-", "-"], ["-", "-"]),
            sente_loses
        );
        assert_eq!(
            cycle(Variant::Minishogi, ["-", "-"], ["c", "c"]),
            second_checks
        );
        assert_eq!(cycle(Variant::Minishogi, ["c", "c"], ["c", "c"]), draw);
    }

    #[test]
    fn xiangqi_repetition_verdicts() {
        let draw = Outcome::draw(EndReason::Repetition);
        let chase = |side| Outcome::loss(side, EndReason::PerpetualChase);
        assert_eq!(cycle(Variant::Xiangqi, ["-", "-"], ["-", "-"]), draw);
        assert_eq!(
            cycle(Variant::Xiangqi, ["c", "c"], ["x", "x"]),
            Outcome::loss(Side::First, EndReason::PerpetualCheck)
        );
        assert_eq!(cycle(Variant::Xiangqi, ["c", "c"], ["c", "c"]), draw);
        assert_eq!(
            cycle(Variant::Xiangqi, ["x", "x"], ["-", "-"]),
            chase(Side::First)
        );
        assert_eq!(
            cycle(Variant::Xiangqi, ["-", "x"], ["x", "x"]),
            chase(Side::Second)
        );
        assert_eq!(cycle(Variant::Xiangqi, ["x", "x"], ["x", "x"]), draw);
        // One check, one chase: a chaser all the same.
        assert_eq!(
            cycle(Variant::Xiangqi, ["c", "x"], ["-", "-"]),
            chase(Side::First)
        );
    }
}
