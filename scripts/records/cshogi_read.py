#!/usr/bin/env python3
"""Reads the KIF and CSA records in a directory with cshogi and prints what it read.

Run by crates/notation/tests/cshogi_reads_koma.rs, which writes the records with
Koma and compares (cshogi is on PyPI):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install cshogi
    /tmp/venv/bin/python scripts/records/cshogi_read.py DIR

Every `*.kif` and `*.csa` file in DIR (UTF-8) is read with cshogi's KIF.Parser
or CSA.Parser. One tab-separated line per file, in name order:

    name  start SFEN  USI moves (space-separated)  Sente's name  Gote's name

or `name  ERROR  message` when cshogi refuses the file. `--check` only says
whether cshogi can be imported (exit status 0).
"""

import os
import sys


def read(path):
    import cshogi
    from cshogi import CSA, KIF

    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".kif"):
        game = KIF.Parser.parse_str(text)
    else:
        games = CSA.Parser.parse_str(text)
        if len(games) != 1:
            raise ValueError(f"{len(games)} games in one file")
        game = games[0]
    moves = " ".join(cshogi.move_to_usi(m) for m in game.moves)
    names = ["" if n is None else n for n in game.names]
    return [game.sfen, moves, names[0], names[1]]


def main():
    if sys.argv[1:] == ["--check"]:
        import cshogi  # noqa: F401

        return
    (directory,) = sys.argv[1:]
    out = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith((".kif", ".csa")):
            continue
        try:
            fields = read(os.path.join(directory, name))
        except Exception as error:  # cshogi raises several kinds
            fields = ["ERROR", " ".join(str(error).split())]
        out.append("\t".join([name] + fields))
    sys.stdout.write("".join(line + "\n" for line in out))


if __name__ == "__main__":
    main()
