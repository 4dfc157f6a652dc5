#!/usr/bin/env python3
"""Writes game records with cshogi's exporters, as interop fixtures for crates/notation.

Run from the repository root (cshogi is on PyPI):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install cshogi
    /tmp/venv/bin/python scripts/records/cshogi_fixtures.py

Output, in crates/notation/tests/data/cshogi/:
- game-NN.csa   (CSA, cshogi's CSA.Exporter; UTF-8 for even NN, Shift_JIS for odd)
- game-NN.kif   (KIF, Shift_JIS, cshogi's KIF.Exporter), game-NN.kifu (the same in UTF-8)
- game-NN.ki2   (KI2, Shift_JIS, cshogi's KI2.Exporter; even-start games only)
- expected.tsv  one line per game: name, start SFEN, USI moves, end, winner
- ki2_moves.tsv  SFEN, USI move, cshogi's KI2 text, for moves that need
  disambiguation words (or 打, or 不成), from random positions

The games are random (seeded) playouts, with handicap and custom starts, drops,
promotions and declined promotions, ending in resignation, sennichite, impasse
declaration, jishogi or timeout. The Rust tests read the files without Python.
"""

import datetime
import os
import random

import cshogi
from cshogi import CSA, KI2, KIF

OUT = os.path.join("crates", "notation", "tests", "data", "cshogi")
EVEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
HANDICAPS = {
    "香落ち": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "角落ち": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛車落ち": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "二枚落ち": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "六枚落ち": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}
# A mid-game position with pieces in hand, written as a BOD board.
CUSTOM = "ln1g1g1nl/1r1sk2s1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 15"
# Rook shuffles that repeat the start position four times: sennichite.
SENNICHITE = ["2h3h", "8b7b", "3h2h", "7b8b"] * 3

ENDS = ["resign", "sennichite", "win", "draw", "time_up"]


def playout(board, rng, plies):
    """Random legal moves, preferring captures and promotions now and then."""
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over():
            break
        special = [m for m in legal if cshogi.move_is_promotion(m) or cshogi.move_cap(m)]
        pool = special if special and rng.random() < 0.4 else legal
        move = rng.choice(pool)
        moves.append(move)
        board.push(move)
    return moves


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(20240102)
    expected = []
    for n in range(24):
        name = f"game-{n:02d}"
        kind = n % 6
        if kind == 4:
            handicap = list(HANDICAPS)[(n // 6) % len(HANDICAPS)]
            sfen = HANDICAPS[handicap]
        elif kind == 5:
            handicap = None
            sfen = CUSTOM
        else:
            handicap = None
            sfen = EVEN
        board = cshogi.Board(sfen=sfen)
        end = ENDS[n % len(ENDS)]
        if end == "sennichite" and sfen == EVEN:
            moves = []
            for usi in SENNICHITE:
                move = board.move_from_usi(usi)
                moves.append(move)
                board.push(move)
        else:
            if end == "sennichite":
                end = "resign"
            moves = playout(board, rng, rng.randrange(10, 160))
        if board.is_game_over():
            end = "resign"  # mated: the mated side resigns in these files
        to_move_sente = board.turn == cshogi.BLACK
        winner = {
            "resign": "second" if to_move_sente else "first",
            "time_up": "second" if to_move_sente else "first",
            "win": "first" if to_move_sente else "second",
            "draw": "none",
            "sennichite": "none",
        }[end]
        termination = {
            "resign": "resignation",
            "time_up": "timeout",
            "win": "declaration",
            "draw": "impasse",
            "sennichite": "repetition",
        }[end]
        times = [rng.randrange(0, 600) for _ in moves]
        names = [f"先手{n}", f"Gote {n}"]
        start = datetime.datetime(2024, 1, 2, 10, 0, 0) + datetime.timedelta(days=n)

        # CSA
        csa = CSA.Exporter(os.path.join(OUT, name + ".csa"), encoding="utf-8" if n % 2 == 0 else "cp932")
        csa.info(init_board=(sfen if sfen == EVEN else cshogi.Board(sfen=sfen)), names=names, var_info={"EVENT": "cshogi interop", "START_TIME": start.strftime("%Y/%m/%d %H:%M:%S")}, version="V2.2")
        for i, (move, t) in enumerate(zip(moves, times)):
            csa.move(move, time=t, comment=("コメント" if i % 17 == 3 else None))
        csa.endgame({"resign": "%TORYO", "time_up": "%TIME_UP", "win": "%KACHI", "draw": "%JISHOGI", "sennichite": "%SENNICHITE"}[end])
        csa.close()

        # KIF, in Shift_JIS (.kif) and UTF-8 (.kifu)
        kif_end = {"resign": "resign", "time_up": "resign", "win": "win", "draw": "draw", "sennichite": "sennichite"}[end]
        for ext in (".kif", ".kifu"):
            kif = KIF.Exporter(os.path.join(OUT, name + ext))
            if handicap is not None:
                kif.header(names, start, handicap)
            elif sfen != EVEN:
                kif.header(names, start, "sfen " + sfen)
            else:
                kif.header(names, start)
            total = [0, 0]
            for i, (move, t) in enumerate(zip(moves, times)):
                total[i % 2] += t
                kif.move(move, t, total[i % 2])
            kif.end(kif_end, 5, total[len(moves) % 2] + 5)
            kif.close()

        # KI2 (cshogi's KI2 exporter starts from the even position only)
        if sfen == EVEN:
            ki2 = KI2.Exporter(os.path.join(OUT, name + ".ki2"))
            ki2.header(names, start)
            for i, move in enumerate(moves):
                ki2.move(move, comment=("コメント" if i % 13 == 5 else None))
            ki2.end({"resign": "%TORYO", "time_up": "%TORYO", "win": "%KACHI", "draw": "%JISHOGI", "sennichite": "%SENNICHITE"}[end])
            ki2.close()

        usi = " ".join(cshogi.move_to_usi(m) for m in moves)
        if end == "time_up":
            # KIF and KI2 from cshogi say resignation for a timeout.
            termination = "timeout/resignation"
        expected.append("\t".join([name, sfen, usi, termination, winner]))
    with open(os.path.join(OUT, "expected.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# name\tstart SFEN\tUSI moves\tend (CSA/KIF)\twinner\n")
        for line in expected:
            f.write(line + "\n")
    ki2_moves(random.Random(7))


def ki2_moves(rng):
    """cshogi's KI2 text for moves whose text needs more than square and piece."""
    lines = []
    seen = set()
    while len(lines) < 1500:
        board = cshogi.Board()
        for _ in range(rng.randrange(20, 200)):
            legal = list(board.legal_moves)
            if not legal or board.is_game_over():
                break
            sfen = board.sfen()
            for move in legal:
                text = KI2.move_to_ki2(move, cshogi.Board(sfen=sfen))
                body = text[1:]
                tail = body[2:]
                if any(c in tail for c in "右左直上引寄打") or "不成" in tail:
                    key = (sfen, move)
                    if key not in seen:
                        seen.add(key)
                        lines.append("\t".join([sfen, cshogi.move_to_usi(move), text]))
            board.push(rng.choice(legal))
    with open(os.path.join(OUT, "ki2_moves.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# SFEN\tUSI move\tcshogi KI2 text\n")
        for line in lines[:1500]:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
