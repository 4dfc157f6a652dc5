//! Minishogi's evaluation network: a small network that adds what the
//! hand-made evaluation misses, trained on Fairy-Stockfish's scores of
//! Koma's games with the hand-made evaluation held as it is
//! (`scripts/tuning/network.py`, `docs/tuning.md`).
//!
//! Its inputs are each piece by kind and square, and each piece in hand by
//! kind and count (the first and the second), all seen from the side to
//! move; a hidden layer of clipped ReLUs; one output in centipawns. A
//! minishogi position has a dozen active inputs, so the hidden layer is
//! summed afresh at every evaluation: no update on every move to keep.

use rules::shogi::{Color, Position, Role, Square};

/// Kinds of piece the inputs tell apart, the side to move's and then the
/// opponent's: pawn, silver, gold, bishop, rook, tokin, promoted silver,
/// horse, dragon, king.
const KINDS: usize = 10;

/// The squares of the minishogi board.
const SQUARES: usize = 25;

/// The first input of the pieces in hand, after the pieces on the board.
const HAND_INPUTS: usize = 2 * KINDS * SQUARES;

/// The kinds held in hand, in the order of their inputs.
const HAND_KINDS: [Role; 5] = [
    Role::Pawn,
    Role::Silver,
    Role::Gold,
    Role::Bishop,
    Role::Rook,
];

/// Inputs: the board's, then per side, per kind in hand, the first and the
/// second piece held.
const INPUTS: usize = HAND_INPUTS + 2 * HAND_KINDS.len() * 2;

/// Hidden units.
const HIDDEN: usize = 64;

/// A hidden unit's 1.0, where its ReLU is clipped. Its sums stay in 16
/// bits: `network.py` checks that twelve inputs (minishogi's pieces, each
/// on the board or in hand) cannot overflow them.
const HIDDEN_ONE: i16 = 512;

/// An output weight's centipawn per hidden unit's 1.0.
const OUTPUT_ONE: i32 = 64;

/// The weights, quantised to 16 bits as `network.py` writes them.
struct Network {
    hidden_weights: [[i16; HIDDEN]; INPUTS],
    hidden_biases: [i16; HIDDEN],
    output_weights: [i16; HIDDEN],
    output_bias: i16,
}

const NETWORK_BYTES: &[u8] = include_bytes!("minishogi.net");

static NETWORK: Network = decode(NETWORK_BYTES);

/// Reads the weights in `network.py`'s order: the hidden weights input by
/// input, the hidden biases, the output weights, the output bias, each a
/// little-endian `i16`.
const fn decode(bytes: &[u8]) -> Network {
    assert!(
        bytes.len() == 2 * (INPUTS * HIDDEN + 2 * HIDDEN + 1),
        "minishogi.net is not a network of this shape"
    );
    let mut network = Network {
        hidden_weights: [[0; HIDDEN]; INPUTS],
        hidden_biases: [0; HIDDEN],
        output_weights: [0; HIDDEN],
        output_bias: read(bytes, INPUTS * HIDDEN + 2 * HIDDEN),
    };
    let mut at = 0;
    while at < INPUTS * HIDDEN {
        network.hidden_weights[at / HIDDEN][at % HIDDEN] = read(bytes, at);
        at += 1;
    }
    let mut unit = 0;
    while unit < HIDDEN {
        network.hidden_biases[unit] = read(bytes, INPUTS * HIDDEN + unit);
        network.output_weights[unit] = read(bytes, INPUTS * HIDDEN + HIDDEN + unit);
        unit += 1;
    }
    network
}

/// The `at`th little-endian `i16` of `bytes`.
const fn read(bytes: &[u8], at: usize) -> i16 {
    i16::from_le_bytes([bytes[2 * at], bytes[2 * at + 1]])
}

/// The kind's place among the inputs' kinds, `None` for the lance and the
/// knight (and their promotions), which minishogi does not have.
fn kind(role: Role) -> Option<usize> {
    match role {
        Role::Pawn => Some(0),
        Role::Silver => Some(1),
        Role::Gold => Some(2),
        Role::Bishop => Some(3),
        Role::Rook => Some(4),
        Role::Tokin => Some(5),
        Role::PromotedSilver => Some(6),
        Role::Horse => Some(7),
        Role::Dragon => Some(8),
        Role::King => Some(9),
        Role::Lance | Role::Knight | Role::PromotedLance | Role::PromotedKnight => None,
    }
}

/// The input of a `color` piece of `kind` on `sq`, seen from `us`: rows
/// from rank a, columns from file 5, the board turned around for Gote.
fn board_input(us: Color, color: Color, kind: usize, sq: Square) -> usize {
    let (row, column) = match us {
        Color::Sente => (sq.rank() - 1, 5 - sq.file()),
        Color::Gote => (5 - sq.rank(), sq.file() - 1),
    };
    let kind = if color == us { kind } else { KINDS + kind };
    kind * SQUARES + usize::from(row) * 5 + usize::from(column)
}

/// What the network adds to the evaluation of `pos`, for the side to move.
pub(super) fn correction(pos: &Position) -> i32 {
    let network = &NETWORK;
    let us = pos.turn();
    let mut hidden = network.hidden_biases;
    let mut add = |input: usize| {
        for (sum, weight) in hidden.iter_mut().zip(&network.hidden_weights[input]) {
            *sum += weight;
        }
    };
    for color in Color::ALL {
        for role in Role::ALL {
            let Some(kind) = kind(role) else { continue };
            for index in pos.pieces(color, role).iter() {
                if let Some(sq) = Square::from_index(index) {
                    add(board_input(us, color, kind, sq));
                }
            }
        }
        let side = if color == us { 0 } else { 1 };
        let hand = pos.hand(color);
        for (place, &role) in HAND_KINDS.iter().enumerate() {
            let first = HAND_INPUTS + (side * HAND_KINDS.len() + place) * 2;
            for held in 0..usize::from(hand.get(role).min(2)) {
                add(first + held);
            }
        }
    }
    let output: i32 = hidden
        .iter()
        .zip(&network.output_weights)
        .map(|(&sum, &weight)| i32::from(sum.clamp(0, HIDDEN_ONE)) * i32::from(weight))
        .sum();
    // Rounded down, as `network.py` computes it.
    output.div_euclid(i32::from(HIDDEN_ONE) * OUTPUT_ONE) + i32::from(network.output_bias)
}

#[cfg(test)]
mod tests {
    use rules::{AnnanDeadPiece, Variant};

    use super::*;

    #[test]
    fn the_network_gives_what_its_trainer_computed() {
        // Positions of the held-out games and the outputs `network.py`
        // printed for them with the engine's integer arithmetic.
        for (sfen, output) in [
            ("r2gk/3sp/1B3/P2G1/1KS1R b B 13", -162),
            ("r2gk/3sp/1B3/PB1G1/1KS1R w - 14", -62),
            ("1r1gk/3sp/1B3/PB1G1/1KS1R b - 15", -323),
            ("3gk/3sp/1S3/PB1G1/1K2R w Rb 18", 43),
        ] {
            let pos =
                Position::from_sfen(sfen, Variant::Minishogi, AnnanDeadPiece::default()).unwrap();
            assert_eq!(correction(&pos), output, "{sfen}");
        }
    }
}
