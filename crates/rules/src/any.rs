//! The game chosen at run time, spoken in text: what the command line and the
//! server need when the variant is a value, not a type.

use core::fmt;

use crate::{
    Game, IllegalMove, ImpasseError, Outcome, ParseMoveError, Position, Settings, Side, Variant,
    shogi, xiangqi,
};

/// A position of any of the four games.
#[derive(Clone, Debug)]
pub enum AnyPosition {
    /// Shogi, minishogi or annan.
    Shogi(shogi::Position),
    /// Xiangqi.
    Xiangqi(xiangqi::Position),
}

/// A move of any of the four games.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum AnyMove {
    /// A shogi-family move.
    Shogi(shogi::Move),
    /// A xiangqi move.
    Xiangqi(xiangqi::Move),
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Shogi(mv) => mv.fmt(f),
            AnyMove::Xiangqi(mv) => mv.fmt(f),
        }
    }
}

/// Calls `$body` with `$pos` bound to the inner position (or game) of either kind.
macro_rules! dispatch {
    ($value:expr, $inner:ident => $body:expr) => {
        match $value {
            AnyPosition::Shogi($inner) => $body,
            AnyPosition::Xiangqi($inner) => $body,
        }
    };
}

/// Same as `dispatch!` for [`AnyGame`].
macro_rules! dispatch_game {
    ($value:expr, $inner:ident => $body:expr) => {
        match $value {
            AnyGame::Shogi($inner) => $body,
            AnyGame::Xiangqi($inner) => $body,
        }
    };
}

impl AnyPosition {
    /// The position `text` names for `variant`: `None` or `startpos` for the
    /// start (with the `handicap` and `annan_setup` settings), a handicap name
    /// in shogi (`lance`, `bishop`, `rook`, `rook-lance`, `two`, `four`, `six`,
    /// `eight`, `ten`), or an SFEN (shogi family) or FEN (xiangqi), optionally
    /// after the word `sfen` or `fen`.
    ///
    /// # Errors
    /// The text is not a position of the game, or a setting does not apply to it.
    pub fn new(
        variant: Variant,
        text: Option<&str>,
        settings: &Settings,
    ) -> Result<AnyPosition, SetupError> {
        if variant != Variant::Shogi && settings.handicap != crate::Handicap::Even {
            return Err(SetupError::HandicapOnlyInShogi(variant));
        }
        let text = text.map(str::trim).filter(|t| *t != "startpos");
        if variant == Variant::Xiangqi {
            return Ok(AnyPosition::Xiangqi(match text {
                None => xiangqi::Position::startpos(),
                Some(fen) => {
                    let fen = fen.strip_prefix("fen ").unwrap_or(fen);
                    xiangqi::Position::from_fen(fen).map_err(SetupError::Fen)?
                }
            }));
        }
        let handicap = text.and_then(|t| t.parse::<crate::Handicap>().ok());
        Ok(AnyPosition::Shogi(match (text, handicap) {
            (None, _) => shogi::Position::startpos(variant, settings),
            (Some(_), Some(handicap)) => {
                if variant != Variant::Shogi {
                    return Err(SetupError::HandicapOnlyInShogi(variant));
                }
                let settings = Settings {
                    handicap,
                    ..settings.clone()
                };
                shogi::Position::startpos(variant, &settings)
            }
            (Some(sfen), None) => {
                let sfen = sfen.strip_prefix("sfen ").unwrap_or(sfen);
                shogi::Position::from_sfen(sfen, variant, settings.annan_dead_piece)
                    .map_err(SetupError::Sfen)?
            }
        }))
    }

    /// Which game this is.
    pub fn variant(&self) -> Variant {
        dispatch!(self, pos => pos.variant())
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        dispatch!(self, pos => pos.side_to_move())
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        dispatch!(self, pos => pos.is_check())
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyPosition::Shogi(pos) => pos.legal_moves().into_iter().map(AnyMove::Shogi).collect(),
            AnyPosition::Xiangqi(pos) => pos
                .legal_moves()
                .into_iter()
                .map(AnyMove::Xiangqi)
                .collect(),
        }
    }

    /// Every legal move in engine notation (USI or ICCS), in generation order.
    pub fn legal_moves_text(&self) -> Vec<String> {
        self.legal_moves().iter().map(ToString::to_string).collect()
    }

    /// Reads `text` as a move of this game, without checking legality.
    ///
    /// # Errors
    /// The text is not a move of this game's board.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, ParseMoveError> {
        match self {
            AnyPosition::Shogi(pos) => pos.parse_move(text).map(AnyMove::Shogi),
            AnyPosition::Xiangqi(pos) => pos.parse_move(text).map(AnyMove::Xiangqi),
        }
    }

    /// Plays the legal move written `text`.
    ///
    /// # Errors
    /// The text is not a move, or the move is illegal here.
    pub fn play_text(&mut self, text: &str) -> Result<(), PlayError> {
        match self {
            AnyPosition::Shogi(pos) => play_checked(pos, text),
            AnyPosition::Xiangqi(pos) => play_checked(pos, text),
        }
    }

    /// The ends this position alone decides (mate, no legal move, material).
    pub fn end(&self) -> Option<Outcome> {
        dispatch!(self, pos => pos.end())
    }
}

fn play_checked<P: Position>(pos: &mut P, text: &str) -> Result<(), PlayError> {
    let mv = pos.parse_move(text).map_err(PlayError::Parse)?;
    pos.check_move(mv).map_err(|reason| PlayError::Illegal {
        mv: text.to_owned(),
        reason,
    })?;
    pos.play_unchecked(mv);
    Ok(())
}

impl fmt::Display for AnyPosition {
    /// SFEN or FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        dispatch!(self, pos => pos.fmt(f))
    }
}

/// A game of any of the four games, in text.
#[derive(Clone, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one value per game in play, never in a hot loop; boxing would only add an indirection"
)]
pub enum AnyGame {
    /// Shogi, minishogi or annan.
    Shogi(Game<shogi::Position>),
    /// Xiangqi.
    Xiangqi(Game<xiangqi::Position>),
}

impl AnyGame {
    /// A game of `variant` from the position `text` names (see [`AnyPosition::new`]).
    ///
    /// # Errors
    /// As [`AnyPosition::new`].
    pub fn new(
        variant: Variant,
        position: Option<&str>,
        settings: &Settings,
    ) -> Result<AnyGame, SetupError> {
        Ok(AnyGame::from_position(
            AnyPosition::new(variant, position, settings)?,
            settings.clone(),
        ))
    }

    /// A game from a position already made.
    pub fn from_position(start: AnyPosition, settings: Settings) -> AnyGame {
        match start {
            AnyPosition::Shogi(pos) => AnyGame::Shogi(Game::new(pos, settings)),
            AnyPosition::Xiangqi(pos) => AnyGame::Xiangqi(Game::new(pos, settings)),
        }
    }

    /// The current position.
    pub fn position(&self) -> AnyPosition {
        match self {
            AnyGame::Shogi(game) => AnyPosition::Shogi(game.position().clone()),
            AnyGame::Xiangqi(game) => AnyPosition::Xiangqi(game.position().clone()),
        }
    }

    /// The start position as SFEN or FEN.
    pub fn start_text(&self) -> String {
        dispatch_game!(self, game => game.start().to_string())
    }

    /// The current position as SFEN or FEN.
    pub fn position_text(&self) -> String {
        dispatch_game!(self, game => game.position().to_string())
    }

    /// Which game this is.
    pub fn variant(&self) -> Variant {
        dispatch_game!(self, game => game.position().variant())
    }

    /// The house rules of the game.
    pub fn settings(&self) -> &Settings {
        dispatch_game!(self, game => game.settings())
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        dispatch_game!(self, game => game.position().side_to_move())
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        dispatch_game!(self, game => game.position().is_check())
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch_game!(self, game => game.outcome())
    }

    /// The moves played, in engine notation.
    pub fn moves_text(&self) -> Vec<String> {
        dispatch_game!(self, game => game.moves().iter().map(ToString::to_string).collect())
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Shogi(game) => game.legal_moves().into_iter().map(AnyMove::Shogi).collect(),
            AnyGame::Xiangqi(game) => game
                .legal_moves()
                .into_iter()
                .map(AnyMove::Xiangqi)
                .collect(),
        }
    }

    /// The legal moves now (none once the game is over), in engine notation.
    pub fn legal_moves_text(&self) -> Vec<String> {
        self.legal_moves().iter().map(ToString::to_string).collect()
    }

    /// How many moves have been played.
    pub fn ply(&self) -> usize {
        dispatch_game!(self, game => game.moves().len())
    }

    /// The moves played.
    pub fn moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Shogi(game) => game.moves().iter().copied().map(AnyMove::Shogi).collect(),
            AnyGame::Xiangqi(game) => game.moves().iter().copied().map(AnyMove::Xiangqi).collect(),
        }
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<AnyMove> {
        match self {
            AnyGame::Shogi(game) => game.moves().last().copied().map(AnyMove::Shogi),
            AnyGame::Xiangqi(game) => game.moves().last().copied().map(AnyMove::Xiangqi),
        }
    }

    /// Reads a move of this game (USI or ICCS) without judging it.
    ///
    /// # Errors
    /// The text is not a move on this game's board.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, ParseMoveError> {
        match self {
            AnyGame::Shogi(game) => game.position().parse_move(text).map(AnyMove::Shogi),
            AnyGame::Xiangqi(game) => game.position().parse_move(text).map(AnyMove::Xiangqi),
        }
    }

    /// Plays `mv` and returns the outcome if the game ended with it.
    ///
    /// # Errors
    /// The move is refused (see [`Game::play`]), or belongs to the other kind of game.
    pub fn play(&mut self, mv: AnyMove) -> Result<Option<Outcome>, PlayError> {
        let refused = |reason| PlayError::Illegal {
            mv: mv.to_string(),
            reason,
        };
        match (self, mv) {
            (AnyGame::Shogi(game), AnyMove::Shogi(inner)) => game.play(inner).map_err(refused),
            (AnyGame::Xiangqi(game), AnyMove::Xiangqi(inner)) => game.play(inner).map_err(refused),
            (_, mv) => Err(PlayError::Parse(ParseMoveError::new(
                &mv.to_string(),
                "a move of another game",
            ))),
        }
    }

    /// Plays the move written `text` (USI or ICCS) and returns the outcome if
    /// the game ended with it.
    ///
    /// # Errors
    /// The text is not a move, or the move is refused (see [`Game::play`]).
    pub fn play_text(&mut self, text: &str) -> Result<Option<Outcome>, PlayError> {
        let mv = self.parse_move(text).map_err(PlayError::Parse)?;
        self.play(mv)
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Side) {
        dispatch_game!(self, game => game.resign(side));
    }

    /// `side` ran out of time.
    pub fn time_out(&mut self, side: Side) {
        dispatch_game!(self, game => game.time_out(side));
    }

    /// Both players agreed to a draw.
    pub fn agree_draw(&mut self) {
        dispatch_game!(self, game => game.agree_draw());
    }

    /// The players left: the game ends without a winner.
    pub fn abandon(&mut self) {
        dispatch_game!(self, game => game.abandon());
    }

    /// Each side's impasse points (`[first, second]`, see
    /// [`shogi::Position::impasse_points`]) in the games with an impasse
    /// rule, shogi and annan; `None` in minishogi and xiangqi.
    pub fn impasse_points(&self) -> Option<[u32; 2]> {
        match self {
            AnyGame::Shogi(game) => {
                let pos = game.position();
                (pos.variant() != Variant::Minishogi).then(|| {
                    [Side::First, Side::Second].map(|side| pos.impasse_points(side.into()))
                })
            }
            AnyGame::Xiangqi(_) => None,
        }
    }

    /// `claimant` claims or declares an impasse (see [`Game::claim_impasse`]).
    ///
    /// # Errors
    /// As [`Game::claim_impasse`].
    pub fn claim_impasse(&mut self, claimant: Side) -> Result<Outcome, ImpasseError> {
        dispatch_game!(self, game => game.claim_impasse(claimant))
    }
}

/// A position that cannot be set up.
#[derive(Clone, Debug)]
pub enum SetupError {
    /// A shogi-family position that is not valid SFEN or not a legal position.
    Sfen(shogi::SfenError),
    /// A xiangqi position that is not valid FEN or not a legal position.
    Fen(xiangqi::FenError),
    /// A handicap was asked for in a game other than shogi.
    HandicapOnlyInShogi(Variant),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Sfen(err) => write!(f, "bad position: {err}"),
            SetupError::Fen(err) => write!(f, "bad position: {err}"),
            SetupError::HandicapOnlyInShogi(variant) => {
                write!(f, "handicaps are for shogi only, not {variant}")
            }
        }
    }
}

impl core::error::Error for SetupError {}

/// A move given as text that cannot be played.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum PlayError {
    /// The text is not a move.
    Parse(ParseMoveError),
    /// The move breaks a rule.
    Illegal {
        /// The move as given.
        mv: String,
        /// The rule it breaks.
        reason: IllegalMove,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Parse(err) => err.fmt(f),
            PlayError::Illegal { mv, reason } => write!(f, "illegal move {mv}: {reason}"),
        }
    }
}

impl core::error::Error for PlayError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(variant: Variant, position: Option<&str>) -> AnyGame {
        AnyGame::new(variant, position, &Settings::default()).unwrap()
    }

    #[test]
    fn impasse_points_count_board_and_hand() {
        // Each side starts with rook and bishop (2 x 5) and 17 other pieces
        // (9 pawns, 2 each of lance, knight, silver, gold) at 1: 27; the king counts 0.
        assert_eq!(game(Variant::Shogi, None).impasse_points(), Some([27, 27]));
        assert_eq!(game(Variant::Annan, None).impasse_points(), Some([27, 27]));
        // Sente: dragon 5 + tokin 1 on the board, bishop 5 + 2 pawns in hand = 13;
        // Gote: gold 1 + rook 5 in hand = 6.
        let sfen = "4k4/9/4+P4/9/9/9/9/4+R4/4K4 b B2Prg 1";
        assert_eq!(
            game(Variant::Shogi, Some(sfen)).impasse_points(),
            Some([13, 6])
        );
        assert_eq!(game(Variant::Minishogi, None).impasse_points(), None);
        assert_eq!(game(Variant::Xiangqi, None).impasse_points(), None);
    }
}
