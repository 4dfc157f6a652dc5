#!/usr/bin/env python3
"""Legal-move fixtures for the rules library's differential tests.

What: for `shogi`, `minishogi` and `xiangqi`, about 2,000 reachable positions
each, written one per line as `<SFEN or FEN>\\t<sorted space-separated legal
moves>` into `crates/rules/tests/data/oracle/<variant>.txt`, in our notation
(SFEN + USI for the shogi family, FEN + ICCS for xiangqi; see docs/cli.md). A line with no moves after the tab is a position where the side to
move has no legal move.

Why: the library's move generators are compared against an implementation
written by other people (Fairy-Stockfish through `pyffish`, cross-checked with
`cshogi` for shogi). The test suite reads the committed files and needs no
Python.

How to rerun (deterministic; the seed is SEED below, the count COUNT):
    pip install pyffish cshogi
    python3 scripts/oracle/gen_fixtures.py            # all three variants
    python3 scripts/oracle/gen_fixtures.py shogi      # one variant

Positions: random playouts of varied length from the start position (for
shogi also from every handicap start) and from random positions in which most
pieces are in hand (shogi and minishogi), so that drops, nifu and pawn-drop
mates are common. Move choice is biased towards checks, captures and pawn
drops so that checks, evasions and pawn-drop situations occur often. Every
position reached is valid in our sense (two kings, side not to move not in
check, no nifu, no dead piece), since it is either a start position, a
checked random setup, or reached by legal moves.

Notation conversions (verified at start-up against the published start counts
30 / 14 / 44 and by converting back and forth):
- Fairy-Stockfish's shogi coordinates are files a-i from Sente's left and
  ranks 1-9 from Sente's side, so its `a1` is USI `9i`; drops are `P@e5`,
  written `P*...` in USI. Positions are taken from `get_fen(..., sfen=True)`
  with the hands rewritten in the standard order (RBGSNLP, then rbgsnlp).
  In its own FEN the side to move is `w` for Sente.
- Xiangqi: Fairy-Stockfish's ranks are 1-10 from Red's side; ICCS ranks 0-9.

Differences between Fairy-Stockfish and our rules, handled here:
- Uchifuzume: Fairy-Stockfish lists pawn drops that give checkmate as legal
  moves in shogi and minishogi. Our rules forbid them: every pawn drop after
  which the opponent is in check and has no legal move is removed (the count
  is printed). The opponent's replies to a pawn check cannot include a pawn
  drop (a pawn's check is adjacent and cannot be blocked), so counting the
  opponent's Fairy-Stockfish moves is exact.
- Shogi is cross-checked with cshogi, which implements uchifuzume itself;
  every disagreement is printed and the run fails.
- Minishogi: Fairy-Stockfish forces promotion of a pawn reaching the last
  rank, allows silver, bishop and rook to decline, and forbids pawn drops on
  the last rank, as our rules do (checked by hand at the time of writing).
- Xiangqi: repetition rules do not affect move lists; flying general and
  stalemate rules are the same as ours.
- Repetition (sennichite) never removes moves in either implementation's list.
The naive reference generator in crates/rules/tests/reference, written from
the spec, agrees with every shogi and minishogi line (tests/annan_reference.rs),
so no other difference is known. Last run (pyffish 0.0.90, cshogi 1.1.0): shogi
43 and minishogi 67 pawn-drop mates removed, 0 cshogi disagreements; in check:
shogi 589, minishogi 1269, xiangqi 491 of 2,000 positions each.
"""

import datetime
import importlib.metadata
import os
import random
import re
import sys

import cshogi
import pyffish as sf

SEED = 20261130
CSHOGI_VERSION = importlib.metadata.version("cshogi")
COUNT = int(os.environ.get("ORACLE_COUNT", "2000"))
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT_DIR = os.path.join(ROOT, "crates", "rules", "tests", "data", "oracle")

HANDICAPS = [
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
]

# Pieces of one side besides the king, per variant (unpromoted letters).
PIECE_SETS = {
    "shogi": "RBGGSSNNLLPPPPPPPPP",
    "minishogi": "RBGSP",
}
HAND_ORDER = "RBGSNLPrbgsnlp"
SIZE = {"shogi": 9, "minishogi": 5}


# ---------------------------------------------------------------- notation


def shogi_square(fsf, n):
    """Fairy-Stockfish square (`a1` = Sente's left, own back rank) to USI."""
    file = n - (ord(fsf[0]) - ord("a"))
    rank = chr(ord("a") + n - int(fsf[1:]))
    return f"{file}{rank}"


MOVE_RE = re.compile(r"^([A-Z]@|[a-i]\d+)([a-i]\d+)(\+?)$")


def shogi_move(fsf, n):
    """A Fairy-Stockfish shogi-family move to USI."""
    m = MOVE_RE.match(fsf)
    if not m:
        raise ValueError(f"unexpected move {fsf!r}")
    src, dst, promo = m.groups()
    to = shogi_square(dst, n)
    if src.endswith("@"):
        return f"{src[0]}*{to}"
    return f"{shogi_square(src, n)}{to}{promo}"


XQ_RE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def xiangqi_move(fsf):
    """A Fairy-Stockfish xiangqi move (ranks 1-10) to ICCS (ranks 0-9)."""
    m = XQ_RE.match(fsf)
    if not m:
        raise ValueError(f"unexpected move {fsf!r}")
    f1, r1, f2, r2 = m.groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def normalise_sfen(sfen):
    """Rewrites the hands of an SFEN in the standard order."""
    board, side, hands, number = sfen.split(" ")
    counts = {}
    for count, piece in re.findall(r"(\d*)([A-Za-z])", hands if hands != "-" else ""):
        counts[piece] = counts.get(piece, 0) + int(count or 1)
    text = "".join(
        (str(counts[p]) if counts[p] > 1 else "") + p for p in HAND_ORDER if counts.get(p)
    )
    return f"{board} {side} {text or '-'} {number}"


def sfen_to_fsf(sfen):
    """An SFEN to Fairy-Stockfish's shogi FEN (hands in brackets, Sente = w)."""
    board, side, hands, number = sfen.split(" ")
    hand = ""
    for count, piece in re.findall(r"(\d*)([A-Za-z])", hands if hands != "-" else ""):
        hand += piece * int(count or 1)
    return f"{board}[{hand}] {'w' if side == 'b' else 'b'} 0 {number}"


# ---------------------------------------------------------------- oracles


class Stats:
    def __init__(self):
        self.pawn_drop_mates = 0
        self.cshogi_disagreements = 0
        self.in_check = 0
        self.no_moves = 0
        self.with_drops = 0
        self.with_pawn_drops = 0


def fsf_board(fen):
    """The pieces of a Fairy-Stockfish FEN by its square names (`a1`: bottom left)."""
    rows = fen.split(" ")[0].split("[")[0].split("/")
    board = {}
    for i, row in enumerate(rows):
        rank, file = len(rows) - i, 0
        for token in re.findall(r"\d+|\+?[A-Za-z]", row):
            if token.isdigit():
                file += int(token)
            else:
                board[f"{chr(ord('a') + file)}{rank}"] = token
                file += 1
    return board


def step(square, ranks):
    """The square `ranks` ranks up (towards higher numbers) from `square`."""
    return f"{square[0]}{int(square[1:]) + ranks}"


def legal_fsf(variant, fen):
    return sf.legal_moves(variant, fen, [])


def our_moves(variant, fen, stats):
    """Our legal moves at a Fairy-Stockfish FEN, in our notation, sorted."""
    moves = legal_fsf(variant, fen)
    if variant == "xiangqi":
        return sorted(xiangqi_move(m) for m in moves)
    n = SIZE[variant]
    board = fsf_board(fen)
    sente = fen.split(" ")[1] == "w"
    kept = []
    for m in moves:
        # A dropped pawn checks only a king directly in front of it.
        if m.startswith("P@") and board.get(step(m[2:], 1 if sente else -1)) == (
            "k" if sente else "K"
        ):
            if not sf.legal_moves(variant, fen, [m]):
                stats.pawn_drop_mates += 1
                continue
        kept.append(shogi_move(m, n))
    return sorted(kept)


def position_text(variant, fen):
    if variant == "xiangqi":
        return fen
    return normalise_sfen(sf.get_fen(variant, fen, [], False, True))


def cross_check(variant, sfen, moves, stats):
    """Compares our shogi move list with cshogi's; prints disagreements."""
    if variant != "shogi":
        return
    board = cshogi.Board(sfen)
    theirs = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
    if theirs != moves:
        stats.cshogi_disagreements += 1
        print(
            f"cshogi disagrees at {sfen}: missing {sorted(set(theirs) - set(moves))}"
            f" extra {sorted(set(moves) - set(theirs))}",
            file=sys.stderr,
        )


# ---------------------------------------------------------------- positions


def fsf_start(variant):
    return sf.start_fen(variant)


def random_setup(variant, rng):
    """A random valid position with most pieces in hand (shogi family)."""
    n = SIZE[variant]
    while True:
        board = [[None] * n for _ in range(n)]
        hands = {"w": "", "b": ""}  # Fairy-Stockfish sides: w = Sente
        cells = [(r, f) for r in range(n) for f in range(n)]
        rng.shuffle(cells)
        board[cells[0][0]][cells[0][1]] = "K"
        board[cells[1][0]][cells[1][1]] = "k"
        # Two thirds of the setups crowd the pieces around one king, where
        # pawn-drop checks and mates happen.
        target = rng.choice([None, cells[0], cells[1]])
        near = lambda c: target and max(abs(c[0] - target[0]), abs(c[1] - target[1])) <= 2
        free = sorted(cells[2:], key=lambda c: (not near(c), rng.random()), reverse=True)
        on_board = rng.uniform(0.05, 0.4)
        for owner in "wb":
            for piece in PIECE_SETS[variant]:
                side = owner if rng.random() < 0.7 else ("b" if owner == "w" else "w")
                if rng.random() < on_board and free:
                    r, f = free.pop()
                    letter = piece if side == "w" else piece.lower()
                    if piece not in "GK" and rng.random() < 0.2:
                        letter = "+" + letter
                    board[r][f] = letter
                else:
                    hands[side] += piece if side == "w" else piece.lower()
        rows = []
        for row in board:  # row 0 is Gote's back rank
            text, empty = "", 0
            for cell in row:
                if cell is None:
                    empty += 1
                else:
                    text += (str(empty) if empty else "") + cell
                    empty = 0
            rows.append(text + (str(empty) if empty else ""))
        side = rng.choice("wb")
        fen = f"{'/'.join(rows)}[{hands['w'] + hands['b']}] {side} 0 1"
        if valid_setup(variant, fen, board, n):
            return fen


def pawn_drop_mate_setup(variant, rng):
    """A random setup in which the side to move has a pawn-drop mate."""
    stats = Stats()
    while True:
        fen = random_setup(variant, rng)
        before = stats.pawn_drop_mates
        our_moves(variant, fen, stats)
        if stats.pawn_drop_mates > before:
            return fen


def valid_setup(variant, fen, board, n):
    """Our position invariants: no nifu, no dead piece, side not to move safe."""
    for f in range(n):
        for pawn in "Pp":
            if sum(1 for r in range(n) if board[r][f] == pawn) > 1:
                return False
    for r in range(n):
        for f in range(n):
            cell = board[r][f]
            if cell in ("P", "L") and r == 0 or cell == "N" and r <= 1:
                return False
            if cell in ("p", "l") and r == n - 1 or cell == "n" and r >= n - 2:
                return False
    kings = [(r, f) for r in range(n) for f in range(n) if board[r][f] in ("K", "k")]
    if abs(kings[0][0] - kings[1][0]) <= 1 and abs(kings[0][1] - kings[1][1]) <= 1:
        return False
    if sf.validate_fen(fen, variant) != sf.FEN_OK:
        return False
    board_part, rest = fen.split(" ", 1)
    side = rest.split(" ")[0]
    flipped = f"{board_part} {'b' if side == 'w' else 'w'} 0 1"
    return not sf.gives_check(variant, flipped, [])


def choose(variant, fen, moves, rng):
    """A random move, biased towards checks, captures and pawn drops.

    Fairy-Stockfish calls cost about a millisecond each, so only a few random
    candidates are weighed."""
    board = fsf_board(fen)
    moves = rng.sample(moves, min(len(moves), 6))
    weights = []
    for m in moves:
        w = 1.0
        if sf.gives_check(variant, fen, [m]):
            w += 30.0
        if "@" not in m and re.sub(r"^[a-i]\d+|\+$", "", m) in board:
            w += 3.0
        if m.startswith("P@"):
            w += 1.0
        weights.append(w)
    return rng.choices(moves, weights=weights)[0]


def starts(variant, rng):
    """An endless stream of (start FEN, playout length): for shogi 15% handicap
    starts; for shogi and minishogi 20% setups with a pawn-drop mate (recorded
    as they are) and 25% random setups with most pieces in hand; the rest the
    normal start."""
    while True:
        kind = rng.random()
        if variant == "shogi" and kind < 0.15:
            fen = sfen_to_fsf(rng.choice(HANDICAPS))
        elif variant in SIZE and 0.15 <= kind < 0.35:
            yield pawn_drop_mate_setup(variant, rng), 0
            continue
        elif variant in SIZE and kind < 0.6:
            fen = random_setup(variant, rng)
            yield fen, rng.randint(0, 20)
            continue
        else:
            fen = fsf_start(variant)
        yield fen, rng.randint(1, 160 if variant != "minishogi" else 80)


def generate(variant, rng, stats):
    lines, seen = [], set()
    for start, length in starts(variant, rng):
        fen = start
        for ply in range(length + 1):
            moves = legal_fsf(variant, fen)
            in_check = sf.gives_check(variant, fen, [])
            record = ply == length or rng.random() < (0.6 if in_check else 0.12)
            if record:
                text = position_text(variant, fen)
                if text not in seen:
                    seen.add(text)
                    ours = our_moves(variant, fen, stats)
                    cross_check(variant, text, ours, stats)
                    stats.in_check += in_check
                    stats.no_moves += not ours
                    stats.with_drops += any("*" in m for m in ours)
                    stats.with_pawn_drops += any(m.startswith("P*") for m in ours)
                    lines.append(f"{text}\t{' '.join(ours)}")
                    if len(lines) == COUNT:
                        return lines
            if not moves:
                break
            fen = sf.get_fen(variant, fen, [choose(variant, fen, moves, rng)])


# ---------------------------------------------------------------- checks


def self_check():
    """Verifies the conversions on known positions before generating."""
    stats = Stats()
    expected = {"shogi": 30, "minishogi": 14, "xiangqi": 44}
    for variant, count in expected.items():
        fen = fsf_start(variant)
        moves = our_moves(variant, fen, stats)
        assert len(moves) == count, (variant, len(moves))
    shogi = our_moves("shogi", fsf_start("shogi"), stats)
    assert "7g7f" in shogi and "2h7h" in shogi and "1i1h" in shogi, shogi
    assert "P*5e" in our_moves("shogi", sfen_to_fsf("4k4/9/9/9/9/9/9/9/4K4 b P 1"), stats)
    mini = our_moves("minishogi", fsf_start("minishogi"), stats)
    assert "5e4d" in mini and "2e5b" in mini and "1e1b" in mini, mini
    xq = our_moves("xiangqi", fsf_start("xiangqi"), stats)
    assert "h2e2" in xq and "b2b9" in xq and "h0g2" in xq, xq
    assert normalise_sfen("4k4/9/9/9/9/9/9/9/4K4 b p2PR 1") == "4k4/9/9/9/9/9/9/9/4K4 b R2Pp 1"
    start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert position_text("shogi", sfen_to_fsf(start)) == start
    # A pawn-drop mate (1b, backed by the gold on 2c) is removed; a pawn-drop
    # check that is not mate (the king escapes to 2a) stays.
    mate = sfen_to_fsf("7nk/7s1/7G1/9/9/9/9/9/K8 b P 1")
    assert "P*1b" in [shogi_move(m, 9) for m in legal_fsf("shogi", mate)]
    assert "P*1b" not in our_moves("shogi", mate, stats)
    assert "P*1b" in our_moves("shogi", sfen_to_fsf("8k/7s1/7G1/9/9/9/9/9/K8 b P 1"), stats)


def main():
    variants = sys.argv[1:] or ["shogi", "minishogi", "xiangqi"]
    self_check()
    os.makedirs(OUT_DIR, exist_ok=True)
    for variant in variants:
        rng = random.Random(f"{SEED}-{variant}")
        stats = Stats()
        lines = generate(variant, rng, stats)
        header = [
            f"# Legal moves of {variant} positions, one per line: position<TAB>sorted legal moves.",
            f"# Generated by scripts/oracle/gen_fixtures.py (seed {SEED}) with pyffish"
            f" {sf.version()[0]}.{sf.version()[1]}.{sf.version()[2]} (Fairy-Stockfish)"
            + (f" cross-checked with cshogi {CSHOGI_VERSION}" if variant == "shogi" else "")
            + f" on {datetime.date.today().isoformat()}.",
        ]
        if variant != "xiangqi":
            header.append(
                f"# Pawn-drop mates removed from Fairy-Stockfish's lists: {stats.pawn_drop_mates}."
            )
        path = os.path.join(OUT_DIR, f"{variant}.txt")
        with open(path, "w") as out:
            out.write("\n".join(header + lines) + "\n")
        print(
            f"{variant}: {len(lines)} positions, {stats.in_check} in check, {stats.no_moves} without"
            f" moves, {stats.with_drops} with drops, {stats.with_pawn_drops} with pawn drops,"
            f" {stats.pawn_drop_mates} pawn-drop mates removed,"
            f" {stats.cshogi_disagreements} cshogi disagreements -> {path}"
        )
        if stats.cshogi_disagreements:
            sys.exit(1)


if __name__ == "__main__":
    main()
