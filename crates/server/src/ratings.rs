//! Glicko-2 ratings per player per variant (the `skillratings` crate); a draw
//! counts as half a win.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use store::{GameRecord, RatingRecord, Store};

/// Both players' ratings after `game`, from their ratings before it.
///
/// # Errors
/// The store fails to read a rating.
pub(crate) async fn after_game(
    store: &dyn Store,
    game: &GameRecord,
) -> store::Result<Vec<RatingRecord>> {
    let first = store.rating(&game.first_player, &game.variant).await?;
    let second = store.rating(&game.second_player, &game.variant).await?;
    let outcome = match game.winner.as_deref() {
        Some("first") => Outcomes::WIN,
        Some("second") => Outcomes::LOSS,
        _ => Outcomes::DRAW,
    };
    let (new_first, new_second) = glicko2(
        &glicko(first.as_ref()),
        &glicko(second.as_ref()),
        &outcome,
        &Glicko2Config::new(),
    );
    Ok(vec![
        record(&game.first_player, &game.variant, new_first, first.as_ref()),
        record(
            &game.second_player,
            &game.variant,
            new_second,
            second.as_ref(),
        ),
    ])
}

fn glicko(stored: Option<&RatingRecord>) -> Glicko2Rating {
    stored.map_or_else(Glicko2Rating::new, |r| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    })
}

fn record(
    player: &str,
    variant: &str,
    rating: Glicko2Rating,
    before: Option<&RatingRecord>,
) -> RatingRecord {
    RatingRecord {
        player: player.to_owned(),
        variant: variant.to_owned(),
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
        games: before.map_or(0, |r| r.games) + 1,
    }
}
