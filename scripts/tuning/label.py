#!/usr/bin/env python3
"""Relabels a `tune generate` data file with another engine's search scores.

    label.py [--variant VARIANT] [--jobs JOBS] [--option NAME=VALUE]... ENGINE NODES IN OUT

Each line of IN is `RESULT SCORE POSITION`. ENGINE, a command with its
arguments (e.g. "target/release/koma usi"), searches POSITION for
NODES nodes; the line goes to OUT, in the same order, with SCORE
replaced by the engine's final score, clamped to ±3000 like Koma's own
labels (mates too). The result is kept. JOBS engines (the number of cores
unless given) share the lines, one core each. VARIANT (shogi unless given,
minishogi or xiangqi) is set as `USI_Variant` and `UCI_Variant`, the names
Koma and Fairy-Stockfish read. Each --option is set as given after those
(YaneuraOu, for one: Threads=1, USI_Hash=16, BookFile=no_book). The engine
is spoken to in USI with SFEN positions, or for xiangqi in UCI with FEN
positions.

Engines count centipawns differently, so the new scores are rescaled to
Koma's: each set of scores predicts the games' results best through a
logistic curve of some scale K (as `tune fit` finds it), and the engine's
scores are multiplied by its K over the old scores' K.

This is how an engine stronger than Koma's own search at a few thousand
nodes teaches the evaluation (docs/tuning.md).
"""

import argparse
import os
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor

MATE_LABEL = 3000


class Engine:
    def __init__(self, command, variant, options):
        # Koma speaks UCI for xiangqi and USI for the shogi games, and its data
        # files hold a FEN or an SFEN to match; Fairy-Stockfish answers in
        # whichever protocol it is first spoken to.
        protocol, self.notation = ("uci", "fen") if variant == "xiangqi" else ("usi", "sfen")
        self.process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.protocol = protocol
        self.send(protocol)
        offered = {
            line.split()[2]
            for line in self.wait_for(protocol + "ok")
            if line.startswith("option name ")
        }
        # Contempt (Fairy-Stockfish's) would tilt every score towards the
        # side to move.
        settings = {"Contempt": 0, "USI_Variant": variant, "UCI_Variant": variant}
        for name, value in settings.items():
            if name in offered:
                self.send(f"setoption name {name} value {value}")
        for name, value in options:
            if name not in offered:
                raise RuntimeError(f"the engine offers no option '{name}'")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def wait_for(self, word):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine quit before '{word}'")
            lines.append(line)
            if line.split(" ", 1)[0].strip() == word:
                return lines

    def search(self, position, go):
        """The lines the engine prints searching `position` (what follows
        `position `, e.g. `startpos moves 7g7f`) with `go GO`, up to its
        `bestmove`."""
        self.send(f"position {position}")
        self.send(f"go {go}")
        return self.wait_for("bestmove")

    def new_game(self):
        self.send("usinewgame" if self.protocol == "usi" else "ucinewgame")

    def score(self, position, nodes):
        """The score of the last `info ... score` line, for the side to move.

        After a node-limited stop that line is often a bound from the
        unfinished deepest iteration (143 of 501 shogi positions at 8,000
        nodes). It is kept: against a search of 64,000 nodes such a bound was
        off by 66 cp on average, the exact score of the iteration before by 84."""
        score = None
        for line in self.search(f"{self.notation} {position}", f"nodes {nodes}"):
            words = line.split()
            if "score" not in words:
                continue
            at = words.index("score")
            kind, value = words[at + 1], int(words[at + 2])
            if kind == "cp":
                score = value
            elif kind == "mate":
                score = MATE_LABEL if value > 0 else -MATE_LABEL
        if score is None:
            raise RuntimeError(f"no score for {position}")
        return score

    def quit(self):
        self.send("quit")
        self.process.wait()


def label(command, variant, options, nodes, lines):
    """The scores of one engine for `lines` (`RESULT SCORE POSITION`)."""
    engine = Engine(command, variant, options)
    scores = [engine.score(line.split(" ", 2)[2], nodes) for line in lines]
    engine.quit()
    return scores


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", choices=("shogi", "minishogi", "xiangqi"), default="shogi")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument(
        "--option", type=engine_option, action="append", default=[], metavar="NAME=VALUE"
    )
    parser.add_argument("engine")
    parser.add_argument("nodes", type=int)
    parser.add_argument("source", metavar="in")
    parser.add_argument("target", metavar="out")
    args = parser.parse_args()
    command, variant, nodes, jobs = args.engine, args.variant, args.nodes, args.jobs
    with open(args.source) as file:
        lines = [line.strip() for line in file if line.strip()]
    # Engine j labels lines j, j + jobs, j + 2·jobs, ...
    with ThreadPoolExecutor(jobs) as pool:
        shares = list(
            pool.map(
                lambda j: label(command, variant, args.option, nodes, lines[j::jobs]), range(jobs)
            )
        )
    new = [0] * len(lines)
    for j, scores in enumerate(shares):
        new[j::jobs] = scores
    results = [float(line.split(" ", 1)[0]) for line in lines]
    old = [int(line.split(" ", 2)[1]) for line in lines]
    old_k, new_k = fit_k(old, results), fit_k(new, results)
    scale = new_k / old_k
    print(f"old scores: K {old_k:.4f}, error {mean_squared_error(old, results, old_k):.6f}")
    print(
        f"new scores: K {new_k:.4f}, error {mean_squared_error(new, results, new_k):.6f}; "
        f"scaled by {scale:.4f}"
    )
    with open(args.target, "w") as out:
        for line, score in zip(lines, new):
            result, _, position = line.split(" ", 2)
            score = max(-MATE_LABEL, min(MATE_LABEL, round(score * scale)))
            out.write(f"{result} {score} {position}\n")


def engine_option(text):
    """`NAME=VALUE` as the pair (NAME, VALUE)."""
    name, equals, value = text.partition("=")
    if not name or not equals:
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME=VALUE")
    return name, value


def sigmoid(score, k):
    return 1 / (1 + 10 ** (-k * score / 400))


def mean_squared_error(scores, results, k):
    """How badly `scores` predict `results` through the curve of scale `k`."""
    return sum((r - sigmoid(s, k)) ** 2 for s, r in zip(scores, results)) / len(scores)


def fit_k(scores, results):
    """The scale of the logistic curve through which `scores` predict
    `results` with the least squared error: a scan, then finer scans."""

    best, width = 1.0, 1.0
    for _ in range(4):
        candidates = [best + width * i / 10 for i in range(-10, 11)]
        best = min(
            (k for k in candidates if k > 0),
            key=lambda k: mean_squared_error(scores, results, k),
        )
        width /= 10
    return best


if __name__ == "__main__":
    main()
