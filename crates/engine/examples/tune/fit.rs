//! `fit`: the weights fitted to labelled positions.
//!
//! Each position's target is its game's result blended with the
//! expectation of the search's score there, `LAMBDA · sigmoid(score) +
//! (1 − LAMBDA) · result`: the search saw a few plies further than the
//! evaluation, so its score teaches what the result teaches only through
//! the noise of everything played later.
//!
//! The evaluation is linear in nearly all its weights (material, tables,
//! mobility), so the fit first measures, for every position and weight,
//! how far the evaluation moves per unit of the weight: the Jacobian, a
//! secant for the few weights it is not linear in (king danger is squared,
//! annan's support is a share). On that linear model the mean squared
//! error of the sigmoid against the targets is minimised by Adam for all
//! weights at once, with an L2 penalty (ridge) on the changes so that rare
//! table cells move only as far as their positions support. Of the
//! penalties in [`RIDGES`], the one whose weights, rounded and evaluated
//! exactly, predict the held-out positions best is kept.

use engine::Evaluate;

use crate::data::Sample;

/// This fraction (one in so many) of the positions, the last ones of the
/// file, is held out of the fit to check it.
const HOLD_OUT: usize = 10;
/// How far each weight is moved to measure its slope: exact for the
/// weights the evaluation is linear in, a secant for the others.
const SLOPE_STEP: i32 = 4;
/// The ridge penalties tried, per squared centipawn of change.
const RIDGES: [f64; 4] = [1e-11, 1e-10, 1e-9, 1e-8];
/// Adam's steps over all positions, its step size (centipawns) and decays.
const ITERATIONS: usize = 300;
const RATE: f64 = 1.0;
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;

/// The expected result of an evaluation `eval` (centipawns) with scale `k`.
fn sigmoid(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Mean squared error between the targets and the sigmoid of the evaluations.
fn mean_squared_error(evals: &[f64], targets: &[f64], k: f64) -> f64 {
    let total: f64 = evals
        .iter()
        .zip(targets)
        .map(|(&eval, &target)| (target - sigmoid(eval, k)).powi(2))
        .sum();
    total / evals.len().max(1) as f64
}

/// The scale `k` with the lowest error: a scan, then finer scans around the best.
fn fit_k(evals: &[f64], results: &[f64]) -> f64 {
    let (mut best, mut width) = (1.0, 1.0);
    for _ in 0..4 {
        let candidates = (-10..=10).map(|i| best + width * f64::from(i) / 10.0);
        best = candidates
            .filter(|&k| k > 0.0)
            .map(|k| (k, mean_squared_error(evals, results, k)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(best, |(k, _)| k);
        width /= 10.0;
    }
    best
}

/// The target of the fit: `result` blended with the expectation of the
/// search's `score` at scale `k`, `lambda` of the latter.
fn blended(result: f64, score: Option<i32>, lambda: f64, k: f64) -> f64 {
    score.map_or(result, |score| {
        lambda * sigmoid(f64::from(score), k) + (1.0 - lambda) * result
    })
}

/// A weight's column of the Jacobian: the positions whose evaluation the
/// weight moves, and by how many centipawns per unit.
#[derive(Default)]
struct Column {
    samples: Vec<u32>,
    slopes: Vec<f32>,
}

/// The evaluation linearised around some weights: each position's
/// evaluation there, and each weight's column.
struct LinearModel {
    base: Vec<f64>,
    columns: Vec<Column>,
}

impl LinearModel {
    /// Measures the model of `samples` at `values` (the numbers of a weight
    /// table shaped like `start`), one weight after another on every core;
    /// the weights `free` rejects keep an empty column, so the descent
    /// leaves them as they are.
    fn measure<P>(
        samples: &[Sample<P>],
        start: &P::Weights,
        values: &[i32],
        free: &[bool],
    ) -> LinearModel
    where
        P: Evaluate + Sync,
        P::Weights: Sync,
    {
        let weights = P::with_weight_values(start, values);
        let base: Vec<i32> = samples
            .iter()
            .map(|s| s.position.evaluate_with(&weights))
            .collect();
        let column = |index: usize| {
            if !free[index] {
                return Column::default();
            }
            let mut moved = values.to_vec();
            moved[index] += SLOPE_STEP;
            let moved = P::with_weight_values(start, &moved);
            let mut column = Column::default();
            for (sample, (s, &before)) in samples.iter().zip(&base).enumerate() {
                let change = s.position.evaluate_with(&moved) - before;
                if change != 0 {
                    column.samples.push(sample as u32);
                    column.slopes.push(change as f32 / SLOPE_STEP as f32);
                }
            }
            column
        };
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let mut parts: Vec<std::vec::IntoIter<Column>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|thread| {
                    let indices = (thread..values.len()).step_by(threads);
                    scope.spawn(move || indices.map(column).collect::<Vec<Column>>())
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().expect("a slope worker panicked").into_iter())
                .collect()
        });
        let columns = (0..values.len())
            .map(|index| parts[index % threads].next().expect("a column per weight"))
            .collect();
        LinearModel {
            base: base.into_iter().map(f64::from).collect(),
            columns,
        }
    }

    /// Every position's evaluation with each weight moved by its `changes`.
    fn evals(&self, changes: &[f64]) -> Vec<f64> {
        let mut evals = self.base.clone();
        for (column, &change) in self.columns.iter().zip(changes) {
            if change != 0.0 {
                for (&sample, &slope) in column.samples.iter().zip(&column.slopes) {
                    evals[sample as usize] += f64::from(slope) * change;
                }
            }
        }
        evals
    }

    /// The changes of the weights that minimise the error against the
    /// first `train` `targets` plus `ridge` times their sum of squares, by
    /// Adam from no change.
    fn descend(&self, targets: &[f64], train: usize, k: f64, ridge: f64) -> Vec<f64> {
        let weights = self.columns.len();
        let mut changes = vec![0.0; weights];
        let (mut mean, mut square) = (vec![0.0; weights], vec![0.0; weights]);
        let sigmoid_slope = k * std::f64::consts::LN_10 / 400.0;
        for step in 1..=ITERATIONS {
            let evals = self.evals(&changes);
            // How the error moves with each training position's evaluation.
            let pull: Vec<f64> = (0..train)
                .map(|s| {
                    let p = sigmoid(evals[s], k);
                    2.0 * (p - targets[s]) * p * (1.0 - p) * sigmoid_slope / train as f64
                })
                .collect();
            for (index, column) in self.columns.iter().enumerate() {
                let error_slope: f64 = column
                    .samples
                    .iter()
                    .zip(&column.slopes)
                    .filter_map(|(&s, &slope)| Some(pull.get(s as usize)? * f64::from(slope)))
                    .sum();
                let gradient = error_slope + 2.0 * ridge * changes[index];
                mean[index] = BETA1 * mean[index] + (1.0 - BETA1) * gradient;
                square[index] = BETA2 * square[index] + (1.0 - BETA2) * gradient * gradient;
                let mean_hat = mean[index] / (1.0 - BETA1.powi(step as i32));
                let square_hat = square[index] / (1.0 - BETA2.powi(step as i32));
                changes[index] -= RATE * mean_hat / (square_hat.sqrt() + 1e-12);
            }
        }
        changes
    }
}

/// The errors of `evals` against `targets`: on the first `train`, and on
/// the rest (held out).
fn errors(evals: &[f64], targets: &[f64], train: usize, k: f64) -> (f64, f64) {
    (
        mean_squared_error(&evals[..train], &targets[..train], k),
        mean_squared_error(&evals[train..], &targets[train..], k),
    )
}

/// Whether the weight `name` is one of `free` (all when `free` is empty):
/// a name given whole, or a table given by its name, all of its cells.
fn is_free(name: &str, free: &[String]) -> bool {
    free.is_empty()
        || free.iter().any(|table| {
            name.strip_prefix(table.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('['))
        })
}

/// `fit`: fits the weights `P` plays `samples`' game with (only those named
/// in `free`, unless it is empty), the search's scores `lambda` of each
/// target, and prints the errors, the changed weights and the new table as
/// Rust source.
pub(crate) fn fit<P>(samples: Vec<Sample<P>>, lambda: f64, free: &[String])
where
    P: Evaluate + Sync,
    P::Weights: Sync,
{
    let Some(first) = samples.first() else {
        println!("no positions");
        return;
    };
    let start = first.position.weights().clone();
    let values = P::weight_values(&start);
    let names = P::weight_names();
    let freed: Vec<bool> = names.iter().map(|name| is_free(name, free)).collect();
    if let Some(unknown) = free.iter().find(|table| {
        !names
            .iter()
            .any(|name| is_free(name, std::slice::from_ref(table)))
    }) {
        println!("no weight is named {unknown}");
        return;
    }
    let train = samples.len() - samples.len() / HOLD_OUT;
    let timer = std::time::Instant::now();
    let model = LinearModel::measure(&samples, &start, &values, &freed);
    eprintln!(
        "{} of {} weights measured in {:.0?}",
        freed.iter().filter(|&&free| free).count(),
        values.len(),
        timer.elapsed()
    );
    // The model's base is every position's evaluation under the start.
    let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
    let k = fit_k(&model.base[..train], &results[..train]);
    let targets: Vec<f64> = samples
        .iter()
        .map(|s| blended(s.result, s.score, lambda, k))
        .collect();
    let before = errors(&model.base, &targets, train, k);
    println!(
        "{train} fitted, {} held out; K = {k:.3}; error before: fitted {:.6}, held out {:.6}",
        samples.len() - train,
        before.0,
        before.1
    );
    let (mut kept, mut kept_errors) = (values.clone(), before);
    for ridge in RIDGES {
        let changes = model.descend(&targets, train, k, ridge);
        let fitted: Vec<i32> = values
            .iter()
            .zip(&changes)
            .map(|(&value, &change)| value + change.round() as i32)
            .collect();
        let weights = P::with_weight_values(&start, &fitted);
        let evals: Vec<f64> = samples
            .iter()
            .map(|s| f64::from(s.position.evaluate_with(&weights)))
            .collect();
        let after = errors(&evals, &targets, train, k);
        println!(
            "ridge {ridge:e}: fitted {:.6}, held out {:.6}",
            after.0, after.1
        );
        if after.1 < kept_errors.1 {
            (kept, kept_errors) = (fitted, after);
        }
    }
    println!(
        "error after: fitted {:.6}, held out {:.6}",
        kept_errors.0, kept_errors.1
    );
    for ((name, old), new) in names.iter().zip(&values).zip(&kept) {
        if old != new {
            println!("{name}: {old} -> {new}");
        }
    }
    println!("{:#?}", P::with_weight_values(&start, &kept));
}

#[cfg(test)]
mod tests {
    use rules::shogi::Position;
    use rules::{Position as _, Settings, Variant};

    use super::*;

    #[test]
    fn the_sigmoid_is_even_at_zero_and_saturates() {
        assert_eq!(sigmoid(0.0, 1.0), 0.5);
        // Four hundred centipawns at K = 1 are ten to one.
        assert!((sigmoid(400.0, 1.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((sigmoid(-400.0, 1.0) - 1.0 / 11.0).abs() < 1e-12);
        assert!(sigmoid(5000.0, 1.0) > 0.999);
    }

    #[test]
    fn the_error_is_the_mean_of_squared_misses() {
        // A draw at 0 cp is a perfect guess; a win at 0 cp misses by 0.5;
        // a loss at +400 cp misses by 10/11.
        let evals = [0.0, 0.0, 400.0];
        let results = [0.5, 1.0, 0.0];
        let expected = (0.0 + 0.25 + (10.0f64 / 11.0).powi(2)) / 3.0;
        assert!((mean_squared_error(&evals, &results, 1.0) - expected).abs() < 1e-12);
    }

    #[test]
    fn the_fitted_scale_matches_the_data() {
        // Results drawn exactly from the sigmoid with K = 0.8.
        let evals: Vec<f64> = (-20..=20).map(|i| f64::from(i * 50)).collect();
        let results: Vec<f64> = evals.iter().map(|&e| sigmoid(e, 0.8)).collect();
        assert!((fit_k(&evals, &results) - 0.8).abs() < 0.01);
    }

    #[test]
    fn targets_blend_the_result_with_the_searchs_expectation() {
        // A won game the search scored -400 at K = 1: half of 1/11 and half of 1.
        let half = blended(1.0, Some(-400), 0.5, 1.0);
        assert!((half - (0.5 / 11.0 + 0.5)).abs() < 1e-12);
        assert_eq!(blended(1.0, Some(-400), 0.0, 1.0), 1.0);
        assert!((blended(1.0, Some(-400), 1.0, 1.0) - 1.0 / 11.0).abs() < 1e-12);
        assert_eq!(blended(0.0, None, 0.7, 1.0), 0.0);
    }

    #[test]
    fn weights_round_trip_through_their_list() {
        let pos = Position::startpos(Variant::Shogi, &Settings::default());
        let weights = pos.weights();
        let values = Position::weight_values(weights);
        let names = Position::weight_names();
        assert_eq!(values.len(), names.len());
        assert_eq!(&Position::with_weight_values(weights, &values), weights);
        // The tempo is the only term the start does not balance.
        let mut changed = values.clone();
        changed[index_of("tempo")] += 7;
        let changed = Position::with_weight_values(weights, &changed);
        assert_eq!(pos.evaluate_with(&changed), pos.evaluate() + 7);
        // A table of tables is listed row by row, each number named by all its indices.
        let cell = index_of("around_own_king[4][7][8]");
        assert_eq!(names[cell + 1], "around_own_king[4][8][0]");
        let mut changed = values.clone();
        changed[cell] += 5;
        let changed = Position::with_weight_values(weights, &changed);
        assert_eq!(
            changed.around_own_king[4][7][8],
            weights.around_own_king[4][7][8] + 5
        );
        assert_eq!(
            changed.around_own_king[4][8][0],
            weights.around_own_king[4][8][0]
        );
    }

    fn index_of(name: &str) -> usize {
        let names = Position::weight_names();
        names.iter().position(|n| n == name).unwrap()
    }

    /// Shogi positions a few dozen arbitrary plies from the start, with
    /// material changed hands, labelled by `label`.
    fn samples(label: impl Fn(&Position) -> f64) -> Vec<Sample<Position>> {
        (0..24)
            .map(|game| {
                let mut pos = Position::startpos(Variant::Shogi, &Settings::default());
                for ply in 0..20 + game {
                    let moves = pos.legal_moves();
                    pos.play_unchecked(moves[(game * 31 + ply * 17) % moves.len()]);
                }
                Sample {
                    result: label(&pos),
                    score: None,
                    position: pos,
                }
            })
            .collect()
    }

    #[test]
    fn the_linear_model_is_exact_for_linear_weights() {
        let samples = samples(|_| 0.5);
        let start = samples[0].position.weights();
        let values = Position::weight_values(start);
        let model = LinearModel::measure(&samples, start, &values, &vec![true; values.len()]);
        let tempo = &model.columns[index_of("tempo")];
        assert_eq!(tempo.samples.len(), samples.len());
        assert!(tempo.slopes.iter().all(|&slope| slope == 1.0));
        // Pawns in hand and a table cell: the model's evaluations are the
        // evaluations with the weights changed.
        let (pawns, cell) = (index_of("hand[0]"), index_of("around_own_king[4][8][1]"));
        let mut changes = vec![0.0; values.len()];
        changes[pawns] = 30.0;
        changes[cell] = -12.0;
        let mut changed = values.clone();
        changed[pawns] += 30;
        changed[cell] -= 12;
        let changed = Position::with_weight_values(start, &changed);
        let exact: Vec<f64> = samples
            .iter()
            .map(|s| f64::from(s.position.evaluate_with(&changed)))
            .collect();
        assert_eq!(model.evals(&changes), exact);
        assert_ne!(exact, model.base, "the positions have pawns in hand");
    }

    #[test]
    fn the_descent_finds_the_weights_the_targets_came_from() {
        // Targets from an evaluation with a larger tempo and pieces in hand
        // worth more: the fit's error must fall close to none.
        let pos = Position::startpos(Variant::Shogi, &Settings::default());
        let mut truth = Position::weight_values(pos.weights());
        truth[index_of("tempo")] += 60;
        for role in 0..7 {
            truth[index_of(&format!("hand[{role}]"))] += 40;
        }
        let truth = Position::with_weight_values(pos.weights(), &truth);
        let k = 0.5;
        let samples = samples(|p| sigmoid(f64::from(p.evaluate_with(&truth)), k));
        let start = pos.weights();
        let values = Position::weight_values(start);
        let model = LinearModel::measure(&samples, start, &values, &vec![true; values.len()]);
        let targets: Vec<f64> = samples.iter().map(|s| s.result).collect();
        let before = mean_squared_error(&model.base, &targets, k);
        let changes = model.descend(&targets, samples.len(), k, 0.0);
        let after = mean_squared_error(&model.evals(&changes), &targets, k);
        assert!(before > 1e-4, "the targets differ: {before}");
        assert!(after < before / 100.0, "{before} -> {after}");
    }

    #[test]
    fn frozen_weights_stay_and_the_free_ones_still_fit() {
        // The same targets as above, but only the tempo free: the hand
        // values keep their changes at none while the tempo moves.
        let pos = Position::startpos(Variant::Shogi, &Settings::default());
        let mut truth = Position::weight_values(pos.weights());
        truth[index_of("tempo")] += 60;
        truth[index_of("hand[0]")] += 40;
        let truth = Position::with_weight_values(pos.weights(), &truth);
        let samples = samples(|p| sigmoid(f64::from(p.evaluate_with(&truth)), 0.5));
        let start = pos.weights();
        let values = Position::weight_values(start);
        let free: Vec<bool> = Position::weight_names()
            .iter()
            .map(|name| is_free(name, &["tempo".to_owned()]))
            .collect();
        assert_eq!(free.iter().filter(|&&free| free).count(), 1);
        let model = LinearModel::measure(&samples, start, &values, &free);
        let targets: Vec<f64> = samples.iter().map(|s| s.result).collect();
        let changes = model.descend(&targets, samples.len(), 0.5, 0.0);
        for (index, change) in changes.iter().enumerate() {
            assert_eq!(*change == 0.0, !free[index], "weight {index}: {change}");
        }
        assert!(changes[index_of("tempo")] > 30.0, "{changes:?}");
        // A table's name frees all its cells, and only that table's.
        assert!(is_free("hand[3]", &["hand".to_owned()]));
        assert!(!is_free("hand_extra", &["hand".to_owned()]));
        assert!(is_free("anything", &[]));
    }
}
