#!/usr/bin/env python3
"""Writes the web fonts that draw pieces and move text on machines without a CJK font.

Two subsets of Debian's `fonts-noto-cjk` (SIL Open Font License 1.1), renamed as the
licence asks of modified versions:

- `Koma Pieces`, Noto Serif CJK JP Bold: the labels on shogi and xiangqi pieces (both
  sides' characters and the letter-mode characters of every language), the river words
  and the board's coordinates: the characters in the string literals of
  `web/js/pieces.js` and `web/js/board.js` and the values of the `letter.*` texts.
- `Koma Moves`, Noto Sans CJK JP Regular, for the page's text: move text as the move lists
  show it, Japanese (`▲７六歩`, `△同　成銀`, `５八金右`) and Chinese (`炮二平五`, `前兵进一`),
  the coordinates beside the boards, and the page frame's mark (駒) and language names
  (日本語, 中文): the characters in the string and character literals of the modules of
  `crates/notation` that write move text and of `web/js/board.js` and `web/js/diagrams.js`,
  and in `web/index.html`.

Only CJK characters and symbols are kept (U+2190 and above); Latin text is left to the
system fonts. The script writes `web/fonts/koma-pieces.woff2`, `web/fonts/koma-moves.woff2`,
`web/fonts/LICENSE` (the fonts' copyright and the OFL text) and `web/css/fonts.css` (the
`@font-face` rules with each file's `unicode-range`), and lists each font's characters in
`scripts/fonts/<name>.txt` so a change to them shows in review.

    python3 -m venv target/fontvenv
    target/fontvenv/bin/pip install fonttools brotli
    target/fontvenv/bin/python scripts/fonts/subset.py          # writes the files
    python3 scripts/fonts/subset.py --check  # fails if the code needs others (CI runs it)

Run it from the repository root after changing a piece label, a letter text or a word
of the Japanese or Chinese move text. Needs `apt-get install fonts-noto-cjk`.
"""

import argparse
import re
import sys
from pathlib import Path

NOTO = Path("/usr/share/fonts/opentype/noto")
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")

FONTS = {
    "pieces": {
        "family": "Koma Pieces",
        "weight": 700,
        "source": (NOTO / "NotoSerifCJK-Bold.ttc", "Noto Serif CJK JP"),
        "code": ["web/js/pieces.js", "web/js/board.js"],
        "texts": "letter.",
    },
    "moves": {
        "family": "Koma Moves",
        "weight": 400,
        "source": (NOTO / "NotoSansCJK-Regular.ttc", "Noto Sans CJK JP"),
        "code": [
            "web/index.html",
            "web/js/board.js",
            "web/js/diagrams.js",
            "crates/notation/src/japanese.rs",
            "crates/notation/src/chinese.rs",
            "crates/notation/src/text.rs",
        ],
        "texts": None,
    },
}


def literals(source: str, javascript: bool) -> str:
    """The text of the string and character literals of JS or Rust source, comments skipped.

    Rust's `#[cfg(test)]` modules are left out: their examples are not what the program
    writes.
    """
    source = source.split("#[cfg(test)]", 1)[0]
    out = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        elif source.startswith("/*", i):
            i = source.find("*/", i + 2)
            i = n if i < 0 else i + 2
        elif c in "\"`":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            out.append(source[i + 1 : j])
            i = j + 1
        elif c == "'":
            # A JS string or a Rust char literal; a Rust lifetime has no closing quote near.
            end = re.match(r"'((?:\\.|[^'\\\n])*)'", source[i:])
            if end and (javascript or re.fullmatch(r"\\u\{[0-9a-fA-F]+\}|\\.|[^\\]", end.group(1))):
                out.append(end.group(1))
                i += end.end()
            else:
                i += 1
        else:
            i += 1
    escapes = re.compile(r"\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})")
    return escapes.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), "".join(out))


def letter_texts(prefix: str) -> str:
    """The values of every language's texts whose keys start with `prefix`."""
    pattern = re.compile(r'"' + re.escape(prefix) + r'[^"]*":\s*"([^"]*)"')
    return "".join(
        value
        for path in sorted(Path("web/js/i18n").glob("*.js"))
        for value in pattern.findall(path.read_text(encoding="utf-8"))
    )


def characters(font: dict) -> str:
    """The CJK characters and symbols `font` must draw, sorted."""
    text = "".join(source if path.endswith(".html") else literals(source, path.endswith(".js"))
                   for path in font["code"]
                   for source in [Path(path).read_text(encoding="utf-8")])
    if font["texts"]:
        text += letter_texts(font["texts"])
    return "".join(sorted({c for c in text if ord(c) >= 0x2190}))


def source_font(path: Path, family: str):
    """The face of the collection at `path` named `family`."""
    from fontTools.ttLib import TTCollection  # only writing needs fontTools; --check does not

    for face in TTCollection(str(path)).fonts:
        if face["name"].getDebugName(1) == family:
            return face
    sys.exit(f"{path} has no face named {family}")


def unicode_range(chars: str) -> str:
    """The CSS `unicode-range` of `chars`, consecutive code points merged."""
    points = sorted(ord(c) for c in chars)
    runs = []
    for p in points:
        if runs and runs[-1][1] == p - 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in runs)


def write_font(name: str, font: dict, chars: str) -> tuple[str, int]:
    """Subsets and renames one font; answers its copyright notice and size in bytes."""
    from fontTools import subset

    face = source_font(*font["source"])
    missing = [c for c in chars if ord(c) not in face.getBestCmap()]
    if missing:
        sys.exit(f"{font['source'][1]} lacks {''.join(missing)}")
    copyright_notice = face["name"].getDebugName(0)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["kern", "palt", "vert", "locl"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(face)
    # The OFL reserves the original names for the original fonts.
    style = "Bold" if font["weight"] == 700 else "Regular"
    names = {1: font["family"], 2: style, 3: f"{font['family']} {style}", 4: f"{font['family']} {style}",
             6: f"{font['family'].replace(' ', '')}-{style}"}
    table = face["name"]
    for record in list(table.names):
        if record.nameID in names:
            table.setName(names[record.nameID], record.nameID, record.platformID,
                          record.platEncID, record.langID)
        elif record.nameID not in (0, 5):
            table.removeNames(nameID=record.nameID)
    out = Path(f"web/fonts/koma-{name}.woff2")
    out.parent.mkdir(parents=True, exist_ok=True)
    face.flavor = "woff2"
    # The source's own date, so that a rerun writes the same bytes.
    face.recalcTimestamp = False
    face.save(str(out))
    return copyright_notice, out.stat().st_size


def ofl_text() -> str:
    """The SIL Open Font License 1.1 as Debian's copyright file quotes it."""
    text = DEBIAN_COPYRIGHT.read_text(encoding="utf-8")
    body = text.split("License: SIL-1.1\n", 2)[2].split("\nLicense:", 1)[0]
    lines = [line[1:] if line != " ." else "" for line in body.rstrip("\n").split("\n")]
    return "\n".join(lines) + "\n"


def css(fonts: dict) -> str:
    rules = [
        "/* Written by scripts/fonts/subset.py: the subsets of Noto CJK (OFL, web/fonts/LICENSE)\n"
        "   that draw pieces and move text where no CJK font is installed. */\n"
    ]
    for name, (font, chars) in fonts.items():
        rules.append(
            "@font-face {\n"
            f'  font-family: "{font["family"]}";\n'
            f'  src: url("/assets/fonts/koma-{name}.woff2") format("woff2");\n'
            f"  font-weight: {font['weight']};\n"
            "  font-display: swap;\n"
            f"  unicode-range: {unicode_range(chars)};\n"
            "}\n"
        )
    return "\n".join(rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only check that the committed character lists are what the code needs")
    args = parser.parse_args()
    lists = {name: characters(font) for name, font in FONTS.items()}
    if args.check:
        stale = [name for name, chars in lists.items()
                 if Path(f"scripts/fonts/{name}.txt").read_text(encoding="utf-8").strip() != chars]
        if stale:
            sys.exit(f"the fonts' characters differ from those the code draws: rerun scripts/fonts/subset.py ({', '.join(stale)})")
        print("the fonts hold every character the code uses")
        return
    notices = set()
    for name, font in FONTS.items():
        Path(f"scripts/fonts/{name}.txt").write_text(lists[name] + "\n", encoding="utf-8")
        notice, size = write_font(name, font, lists[name])
        notices.add(notice)
        print(f"web/fonts/koma-{name}.woff2: {len(lists[name])} characters, {size} bytes")
    licence = (
        "The fonts in this folder, koma-pieces.woff2 (\"Koma Pieces\") and koma-moves.woff2\n"
        "(\"Koma Moves\"), are subsets of Noto Serif CJK JP Bold and Noto Sans CJK JP Regular\n"
        "(Debian's fonts-noto-cjk), renamed as the licence asks of modified versions, made by\n"
        "scripts/fonts/subset.py. They are licensed under the SIL Open Font License 1.1:\n\n"
        + "\n".join(sorted(notices)) + "\n\n" + ofl_text()
    )
    Path("web/fonts/LICENSE").write_text(licence, encoding="utf-8")
    Path("web/css/fonts.css").write_text(css({n: (f, lists[n]) for n, f in FONTS.items()}), encoding="utf-8")


if __name__ == "__main__":
    main()
