#!/usr/bin/env python3
"""How many nodes and how long an engine takes to search positions of match
games to a fixed depth.

    treesize.py [--variant VARIANT] [--plies 30,50,70,90] [--ranks-from-1] [--each]
                ENGINE DEPTH LOG [LOG ...]

The positions are those of each game of each LOG (written by
`scripts/match/match.mjs --log`) after each of PLIES plies from the start;
games that end within two plies of one are skipped there. ENGINE, a command
with its arguments (`"target/release/koma usi"`, `/usr/games/fairy-stockfish`),
searches each from a new game (`usinewgame`/`ucinewgame`) with `go depth
DEPTH`, and the nodes and time of its last `info` line are added up.
`--ranks-from-1` writes xiangqi ranks 1-10 for Fairy-Stockfish. `--each`
prints a line per position (game, ply, nodes, milliseconds) as well.

The last line gives the count of positions, the total nodes, the geometric
mean of the nodes (a few king hunts make most of the total) and the total
time. A change to the search is measured by it before it is played in a
match, and two engines' trees are compared on the same positions.
"""

import argparse
import math
import re

from label import Engine


def positions(logs, plies):
    """(game, ply, moves) for each game of each log, after each of `plies`."""
    for log in logs:
        games = {}
        with open(log) as file:
            for line in file:
                words = line.split()
                if len(words) >= 4:
                    games.setdefault(words[0], []).append(words[3])
        for game, moves in games.items():
            for ply in plies:
                if len(moves) > ply + 2:
                    yield game, ply, moves[:ply]


def measure(engine, moves, depth):
    """The nodes and milliseconds of the last `info` line of a search to `depth`."""
    engine.new_game()
    position = "startpos" + (" moves " + " ".join(moves) if moves else "")
    nodes = time = None
    for line in engine.search(position, f"depth {depth}"):
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words and "time" in words:
            nodes = int(words[words.index("nodes") + 1])
            time = int(words[words.index("time") + 1])
    if nodes is None:
        raise RuntimeError(f"no info line with nodes and time for {position}")
    return nodes, time


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--variant", choices=("shogi", "minishogi", "annan", "xiangqi"), default="shogi"
    )
    parser.add_argument("--plies", default="30,50,70,90")
    parser.add_argument("--ranks-from-1", action="store_true")
    parser.add_argument("--each", action="store_true")
    parser.add_argument("engine")
    parser.add_argument("depth", type=int)
    parser.add_argument("logs", metavar="log", nargs="+")
    args = parser.parse_args()
    plies = [int(ply) for ply in args.plies.split(",")]
    engine = Engine(args.engine, args.variant)
    total_nodes = total_time = 0
    log_nodes = []
    for game, ply, moves in positions(args.logs, plies):
        if args.ranks_from_1:
            moves = [re.sub(r"\d+", lambda d: str(int(d.group()) + 1), move) for move in moves]
        nodes, time = measure(engine, moves, args.depth)
        if args.each:
            print(f"game {game} ply {ply}: {nodes} nodes, {time} ms", flush=True)
        total_nodes += nodes
        total_time += time
        log_nodes.append(math.log(max(nodes, 1)))
    engine.quit()
    if not log_nodes:
        raise SystemExit("no position: the logs hold no game that long")
    mean = math.exp(sum(log_nodes) / len(log_nodes))
    print(
        f"{len(log_nodes)} positions, depth {args.depth}: {total_nodes} nodes "
        f"(geometric mean {mean:.0f}), {total_time} ms"
    )


if __name__ == "__main__":
    main()
