#!/usr/bin/env python3
"""Pastes the table printed by `tune fit` into the engine's source.

usage: scripts/tuning/apply.py FIT_OUTPUT CONST

FIT_OUTPUT is the standard output of `tune fit`; CONST is the table to
replace: SHOGI, MINISHOGI or ANNAN (crates/engine/src/eval/shogi/tuned.rs) or
XIANGQI (crates/engine/src/eval/xiangqi.rs). Run `cargo fmt` afterwards.
"""

import pathlib
import re
import sys

FILES = {
    "SHOGI": "shogi/tuned.rs",
    "MINISHOGI": "shogi/tuned.rs",
    "ANNAN": "shogi/tuned.rs",
    "XIANGQI": "xiangqi.rs",
}


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[2] not in FILES:
        sys.exit(__doc__)
    output, name = pathlib.Path(sys.argv[1]).read_text(), sys.argv[2]
    table = re.search(r"^(ShogiWeights|XiangqiWeights) \{\n.*?^\}", output, re.S | re.M)
    if table is None:
        sys.exit(f"{sys.argv[1]}: no table printed by `tune fit`")
    path = pathlib.Path(__file__).parents[2] / "crates/engine/src/eval" / FILES[name]
    source = path.read_text()
    pattern = re.compile(rf"^((?:pub\(super\) )?const {name}): (\w+) = .*?;\n", re.S | re.M)
    found = pattern.search(source)
    if found is None or found.group(2) != table.group(1):
        sys.exit(f"{path}: no const {name} of type {table.group(1)}")
    replacement = f"{found.group(1)}: {table.group(1)} = {table.group(0)};\n"
    path.write_text(source[: found.start()] + replacement + source[found.end() :])
    print(f"{path}: {name} replaced")


if __name__ == "__main__":
    main()
