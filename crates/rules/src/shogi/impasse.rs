//! 持将棋 and 入玉宣言: judging impasse claims and declarations.

use super::{Color, Position, Role, Square};
use crate::{EndReason, Impasse, ImpasseError, Outcome, Variant};

/// Judges `claimant`'s impasse claim (`24-point`) or declaration (`27-point`).
pub(super) fn judge(
    pos: &Position,
    rule: Impasse,
    claimant: Color,
) -> Result<Outcome, ImpasseError> {
    if pos.variant == Variant::Minishogi {
        return Err(ImpasseError::NotInThisGame);
    }
    match rule {
        Impasse::Off => Err(ImpasseError::NotInThisGame),
        Impasse::TwentyFourPoint => twenty_four_point(pos),
        Impasse::TwentySevenPoint => twenty_seven_point(pos, claimant),
    }
}

/// Whether `color`'s king stands in its enemy camp.
fn king_in_camp(pos: &Position, color: Color) -> bool {
    pos.promotion_zone(color)
        .has(pos.kings[color.index()].index())
}

impl Position {
    /// `color`'s impasse points as the 24-point rule counts them: every piece
    /// on the board and in hand, rook and bishop (promoted or not) 5, the king
    /// 0, every other piece 1.
    pub fn impasse_points(&self, color: Color) -> u32 {
        points(self, color, self.board_mask())
    }
}

/// `color`'s points over the pieces on `squares` plus the hand.
fn points(pos: &Position, color: Color, squares: crate::Bitboard) -> u32 {
    let on_board: u32 = (pos.by_color[color.index()] & squares)
        .iter()
        .filter_map(|sq| pos.piece_at(Square::from_index_unchecked(sq)))
        .map(|p| p.role.impasse_points())
        .sum();
    on_board + pos.hands[color.index()].impasse_points()
}

/// 24-point rule: with both kings in their enemy camps, a side with fewer than
/// 24 points (board and hand) loses; otherwise (both 24 or more) a draw.
fn twenty_four_point(pos: &Position) -> Result<Outcome, ImpasseError> {
    if !(king_in_camp(pos, Color::Sente) && king_in_camp(pos, Color::Gote)) {
        return Err(ImpasseError::KingsNotInCamps);
    }
    let sente = pos.impasse_points(Color::Sente);
    let gote = pos.impasse_points(Color::Gote);
    // Both below 24 only happens with a handicap set short of pieces: a draw.
    Ok(match (sente >= 24, gote >= 24) {
        (false, true) => Outcome::loss(Color::Sente.side(), EndReason::Impasse),
        (true, false) => Outcome::loss(Color::Gote.side(), EndReason::Impasse),
        _ => Outcome::draw(EndReason::Impasse),
    })
}

/// 27-point declaration by the side to move: wins if its king is in the enemy
/// camp and not in check, with at least 10 other pieces there and at least 28
/// (Sente) or 27 (Gote) points in the camp and in hand; otherwise loses.
fn twenty_seven_point(pos: &Position, claimant: Color) -> Result<Outcome, ImpasseError> {
    if claimant != pos.turn {
        return Err(ImpasseError::NotYourTurn);
    }
    let camp = pos.promotion_zone(claimant);
    let in_camp = (pos.by_color[claimant.index()] & camp).and_not(pos.by_role[Role::King.index()]);
    let needed = match claimant {
        Color::Sente => 28,
        Color::Gote => 27,
    };
    let wins = king_in_camp(pos, claimant)
        && pos.checkers.is_empty()
        && in_camp.count() >= 10
        && points(pos, claimant, camp) >= needed;
    Ok(if wins {
        Outcome::win(claimant.side(), EndReason::Impasse)
    } else {
        Outcome::loss(claimant.side(), EndReason::Impasse)
    })
}
