#!/usr/bin/env python3
"""Trains minishogi's evaluation network on a labelled data file.

    network.py [--hidden N] [--epochs N] [--seed N] DATA EVALS OUT

DATA is a `tune generate` file relabelled by `label.py` (`RESULT SCORE
SFEN` a line), EVALS the hand-made evaluation of each of its positions
(`tune eval minishogi DATA`, one number a line). The network learns what
the hand-made evaluation misses: each position's target is the expected
result of its SCORE, `1 / (1 + 10^(-K·SCORE/400))`, and the network's
output is added to the evaluation before the same curve (K fitted to the
results, as `tune fit` does). The last tenth of the file is held out, and
the weights of the epoch that predicted it best are kept.

The network (crates/engine/src/eval/shogi/network.rs): 520 inputs, each
piece by kind and square and each piece in hand by kind and count, seen
from the side to move; a hidden layer of clipped ReLUs; one output in
centipawns (--hidden must match the engine's `HIDDEN`). OUT gets the weights quantised to 16-bit integers, little-
endian: the hidden weights input by input, the hidden biases, the output
weights, the output bias. The output of a few positions is printed as
checks for the engine's tests.

Needs numpy. A few minutes on one core for 200,000 positions.
"""

import argparse
import sys

import numpy as np

# Kinds as the network numbers them: the side to move's first, the
# opponent's ten after them.
KINDS = ["P", "S", "G", "B", "R", "+P", "+S", "+B", "+R", "K"]
HAND_KINDS = ["P", "S", "G", "B", "R"]
SQUARES = 25
HAND_INPUTS = 2 * len(KINDS) * SQUARES
# Per side, per kind in hand, the first and the second piece held.
INPUTS = HAND_INPUTS + 2 * len(HAND_KINDS) * 2

# Quantisation: a hidden unit's 1.0 is HIDDEN_ONE, an output weight's 1.0
# (a centipawn per unit) is OUTPUT_ONE.
HIDDEN_ONE = 512
OUTPUT_ONE = 64


def inputs(sfen):
    """The active inputs of an SFEN minishogi position."""
    board, turn, hand = sfen.split()[:3]
    sente_to_move = turn == "b"
    active = []
    for row, text in enumerate(board.split("/")):
        column, promoted = 0, False
        for ch in text:
            if ch == "+":
                promoted = True
                continue
            if ch.isdigit():
                column += int(ch)
                continue
            kind = KINDS.index(("+" if promoted else "") + ch.upper())
            ours = ch.isupper() == sente_to_move
            # Seen from the side to move: Gote turns the board around.
            r, c = (row, column) if sente_to_move else (4 - row, 4 - column)
            active.append((kind + (0 if ours else len(KINDS))) * SQUARES + r * 5 + c)
            column, promoted = column + 1, False
    if hand != "-":
        count = ""
        for ch in hand:
            if ch.isdigit():
                count += ch
                continue
            side = 0 if ch.isupper() == sente_to_move else 1
            place = side * len(HAND_KINDS) + HAND_KINDS.index(ch.upper())
            base = HAND_INPUTS + place * 2
            active.extend(base + held for held in range(min(int(count or 1), 2)))
            count = ""
    return active


def expected(score, k):
    return 1 / (1 + 10 ** (-k * score / 400))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("data")
    parser.add_argument("evals")
    parser.add_argument("out")
    args = parser.parse_args()

    sfens, results, scores = [], [], []
    with open(args.data) as data:
        for line in data:
            result, score, sfen = line.split(" ", 2)
            results.append(float(result))
            scores.append(float(score))
            sfens.append(sfen.strip())
    with open(args.evals) as evals:
        base = np.array([float(line) for line in evals])
    if len(base) != len(sfens):
        sys.exit(f"{args.evals} has {len(base)} lines, {args.data} {len(sfens)}")
    results, scores = np.array(results), np.array(scores)
    x = np.zeros((len(sfens), INPUTS), np.float32)
    for i, sfen in enumerate(sfens):
        x[i, inputs(sfen)] = 1

    ks = np.arange(0.05, 1.5, 0.005)
    k = ks[np.argmin([np.mean((expected(base, k) - results) ** 2) for k in ks])]
    target = expected(scores, k)
    train = len(sfens) * 9 // 10
    held = slice(train, None)

    def error(out, part):
        return np.mean((expected(base[part] + out, k) - target[part]) ** 2)

    print(f"K {k:.3f}; held-out error of the evaluation alone {error(0, held):.6f}")

    rng = np.random.default_rng(args.seed)
    h = args.hidden
    # Hidden weights, hidden biases, output weights (a centipawn a unit
    # over 100), output bias (likewise).
    params = [
        (rng.standard_normal((INPUTS, h)) * 0.1).astype(np.float32),
        np.full(h, 0.5, np.float32),
        np.zeros(h, np.float32),
        np.zeros(1, np.float32),
    ]

    def forward(batch):
        z = batch @ params[0] + params[1]
        a = np.clip(z, 0, 1)
        return (a @ params[2] + params[3][0]) * 100, z, a

    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    slope = k * np.log(10) / 400
    step, best = 0, (error(0, held), [p.copy() for p in params])
    for epoch in range(args.epochs):
        order = rng.permutation(train)
        for start in range(0, train, 256):
            rows = order[start : start + 256]
            batch = x[rows]
            out, z, a = forward(batch)
            p = expected(base[rows] + out, k)
            # The squared error's gradient by the output over 100.
            g = (2 * (p - target[rows]) * p * (1 - p) * slope * 100 / len(rows)).astype(np.float32)
            ga = np.outer(g, params[2]) * ((z > 0) & (z < 1))
            grads = [batch.T @ ga, ga.sum(0), a.T @ g, np.array([g.sum()], np.float32)]
            step += 1
            for param, grad, (m, v) in zip(params, grads, moments):
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                param -= 1e-3 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        held_error = error(forward(x[held])[0], held)
        print(f"epoch {epoch + 1}: held-out error {held_error:.6f}", flush=True)
        if held_error < best[0]:
            best = (held_error, [p.copy() for p in params])
    print(f"kept: held-out error {best[0]:.6f}")

    hidden_w, hidden_b, out_w, out_b = best[1]
    quantised = [
        np.round(hidden_w * HIDDEN_ONE),
        np.round(hidden_b * HIDDEN_ONE),
        np.round(out_w * 100 * OUTPUT_ONE),
        np.round(out_b * 100),
    ]
    for q in quantised:
        if np.abs(q).max() > 32767:
            sys.exit("a weight does not fit 16 bits: lower HIDDEN_ONE or OUTPUT_ONE")
    # The engine sums a hidden unit in 16 bits: minishogi's twelve pieces
    # make at most twelve active inputs.
    bound = np.abs(quantised[1]) + 12 * np.abs(quantised[0]).max(0)
    if bound.max() > 32767:
        sys.exit("a hidden unit's sum may overflow 16 bits: lower HIDDEN_ONE")
    with open(args.out, "wb") as out:
        for q in quantised:
            out.write(q.astype("<i2").tobytes())
    # The engine's integer arithmetic, for the checks.
    for sfen in sfens[train : train + 4]:
        acc = quantised[1] + quantised[0][inputs(sfen)].sum(0)
        a = np.clip(acc, 0, HIDDEN_ONE)
        value = int(a @ quantised[2]) // (HIDDEN_ONE * OUTPUT_ONE) + int(quantised[3][0])
        print(f"check: {sfen} -> {value}")


if __name__ == "__main__":
    main()
