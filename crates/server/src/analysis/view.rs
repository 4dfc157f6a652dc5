//! An analysis as JSON: what `GET /analysis/{id}` replies and what the store
//! keeps of a room's game (its plies).

use engine::Score;
use rules::{AnyGame, AnyMove, AnyPosition, Outcome, Side};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::computer::Evaluation;
use crate::records::{self, Notation};

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, Eq, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum AnalysisStatus {
    /// Waiting for the engine: no position analysed yet.
    Queued,
    /// Some positions analysed, the others to come.
    Running,
    /// Every position analysed.
    Done,
    /// The engine or the store failed; the positions analysed so far stay.
    Failed,
}

/// A score from the first player's view (Sente, Red): positive is good for them.
#[derive(Clone, Copy, Debug, Eq, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ScoreView {
    /// Centipawns: a pawn (shogi) or an uncrossed soldier (xiangqi) is 100.
    Cp(i32),
    /// Mate in this many plies: positive when the first player mates,
    /// negative when the second does; 0 where the game is over with a winner
    /// (`result` says whom).
    Mate(i32),
}

/// The engine's verdict on one position of the game.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize, ToSchema)]
pub(crate) struct PlyView {
    /// The position after this many moves (0: the start).
    pub(crate) ply: usize,
    /// The position's score from the first player's view.
    pub(crate) score: ScoreView,
    /// The best move (USI or ICCS); absent where the game is over (or where
    /// the side to move should declare an impasse win).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub(crate) best: Option<String>,
    /// The principal variation from `best` on; empty where the game is over.
    pub(crate) pv: Vec<String>,
    /// `pv` as players write it, in each notation of the game (as the room
    /// JSON's `notation`); absent where the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub(crate) pv_notation: Option<Notation>,
    /// Only where the game is over: `first`, `second` or `draw`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, value_type = Option<crate::room::Winner>)]
    pub(crate) result: Option<String>,
}

impl PlyView {
    /// The verdict of a search on the position of `game` at `ply`, reached
    /// by `previous` (the position before and the move) unless at the start.
    pub(crate) fn searched(
        ply: usize,
        game: &AnyGame,
        previous: Option<&(AnyPosition, AnyMove)>,
        evaluation: &Evaluation,
    ) -> PlyView {
        let score = match evaluation.score {
            Score::Cp(cp) => ScoreView::Cp(cp),
            Score::Mate(plies) => ScoreView::Mate(plies),
        };
        PlyView {
            ply,
            score: first_players_view(score, game.side_to_move()),
            best: evaluation.best.map(|mv| mv.to_string()),
            pv: evaluation.pv.iter().map(ToString::to_string).collect(),
            pv_notation: records::line_notation(game, previous, &evaluation.pv),
            result: None,
        }
    }

    /// A position where the game is over: no move to find.
    pub(crate) fn ended(ply: usize, outcome: Outcome) -> PlyView {
        let (score, result) = match outcome.winner {
            None => (ScoreView::Cp(0), "draw"),
            Some(side) => (ScoreView::Mate(0), side.name()),
        };
        PlyView {
            ply,
            score,
            best: None,
            pv: Vec::new(),
            pv_notation: None,
            result: Some(result.to_owned()),
        }
    }
}

/// `score`, given from the view of `side_to_move`, from the first player's.
fn first_players_view(score: ScoreView, side_to_move: Side) -> ScoreView {
    match (side_to_move, score) {
        (Side::First, score) => score,
        (Side::Second, ScoreView::Cp(cp)) => ScoreView::Cp(-cp),
        (Side::Second, ScoreView::Mate(plies)) => ScoreView::Mate(-plies),
    }
}

/// The reply to `GET /analysis/{id}`, and to a room's analysis kept from before.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub(crate) struct AnalysisView {
    /// Where it stands.
    pub(crate) status: AnalysisStatus,
    /// How many positions it analyses: the moves and the start.
    pub(crate) positions: usize,
    /// The positions analysed so far, from the start on: all of them once done.
    pub(crate) plies: Vec<PlyView>,
}

/// The reply to starting an analysis.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub(crate) struct AnalysisStarted {
    /// Ask `GET /analysis/{id}` how it goes.
    pub(crate) id: String,
}

#[cfg(test)]
mod tests {
    use rules::{EndReason, Settings, Variant};

    use super::*;

    #[test]
    fn scores_turn_to_the_first_players_view_and_ended_positions_name_the_winner() {
        let mut game = AnyGame::new(Variant::Shogi, None, &Settings::default()).unwrap();
        game.play_text("7g7f").unwrap();
        // Gote to move and mating in 3: the first player is mated.
        let evaluation = Evaluation {
            score: Score::Mate(3),
            best: Some(game.parse_move("3c3d").unwrap()),
            pv: vec![game.parse_move("3c3d").unwrap()],
        };
        let start = AnyGame::new(Variant::Shogi, None, &Settings::default()).unwrap();
        let previous = (start.position(), game.moves()[0]);
        let seen = PlyView::searched(1, &game, Some(&previous), &evaluation);
        assert_eq!(seen.score, ScoreView::Mate(-3));
        assert_eq!(seen.best.as_deref(), Some("3c3d"));
        let json = serde_json::to_value(&seen).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"ply": 1, "score": {"mate": -3}, "best": "3c3d", "pv": ["3c3d"],
                "pv_notation": {"japanese": ["△３四歩"], "western": ["P-3d"]}})
        );
        let ended = PlyView::ended(9, Outcome::win(Side::Second, EndReason::Checkmate));
        assert_eq!(
            serde_json::to_value(&ended).unwrap(),
            serde_json::json!({"ply": 9, "score": {"mate": 0}, "pv": [], "result": "second"})
        );
        let back: PlyView = serde_json::from_value(json).unwrap();
        assert_eq!(back, seen);
    }
}
