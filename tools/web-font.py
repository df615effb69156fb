#!/usr/bin/env python3
"""Makes the analysis board's font: a subset of Noto Serif CJK SC (Regular and Bold) with
the characters the page shows, renamed "XQ Board", as WOFF2, and its licence.

Run by tools/web-font.sh, which installs fonts-noto-cjk and fontTools first. The output
is the same bytes from the same inputs (the fonts' timestamps are kept).

The characters: the pieces in both their traditional and simplified forms, the river,
the files' numerals (Chinese and full-width), every character the Chinese notations
write (xq_movegen::notation, both the simplified and the traditional form), the player
names Chinese programs write when a game has none (红方, 黑方), and every character
outside ASCII in web/page's files.
"""

import argparse
import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

FAMILY = "XQ Board"
# Index of Noto Serif CJK SC in Debian's collections (checked below by its name).
SC_INDEX = 2
SC_NAME = "Noto Serif CJK SC"

# Pieces: red and black, traditional (the board) and simplified (the notation).
PIECES = "帥仕相傌俥炮兵將士象馬車砲卒" + "帅将马车包"
RIVER = "楚河漢界汉"
NUMERALS = "一二三四五六七八九" + "１２３４５６７８９" + "0123456789"
# Directions and tandem pieces, simplified and traditional: 进 退 平, 前 中 后, and the
# readers' other spellings (上 下).
NOTATION = "进進退平前中后後上下"
# The player names Chinese programs write when a game has none (红方, 黑方).
NAMES = "红黑方"

WEIGHTS = {400: "NotoSerifCJK-Regular.ttc", 700: "NotoSerifCJK-Bold.ttc"}


def page_characters(page: pathlib.Path) -> set:
    chars = set()
    for path in sorted(page.iterdir()):
        if path.suffix in (".html", ".js", ".css"):
            chars |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 127}
    return chars


def licence_text(copyright_file: pathlib.Path) -> str:
    """The SIL OFL 1.1 text of Debian's copyright file (its `License: SIL-1.1` block)."""
    lines = copyright_file.read_text(encoding="utf-8").splitlines()
    # The stanza with the text (the first `License: SIL-1.1` is a field of `Files: *`).
    start = next(i + 1 for i, line in enumerate(lines[:-1])
                 if line == "License: SIL-1.1" and lines[i + 1].startswith(" "))
    body = []
    for line in lines[start:]:
        if not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    return "\n".join(body).strip("\n") + "\n"


def rename(font: TTFont, weight: int, note: str) -> None:
    style = "Bold" if weight == 700 else "Regular"
    names = {
        1: FAMILY,
        2: style,
        3: f"{FAMILY.replace(' ', '')}-{style};{note}",
        4: f"{FAMILY} {style}",
        6: f"{FAMILY.replace(' ', '')}-{style}",
    }
    table = font["name"]
    # Typographic family and subfamily (16, 17) and the CJK names of the original go:
    # the subset has one name in English.
    table.names = [n for n in table.names if n.nameID not in (16, 17) and
                   not (n.nameID in names and n.langID != 0x409 and n.platformID == 3)]
    for name_id, text in names.items():
        table.setName(text, name_id, 3, 1, 0x409)
        table.setName(text, name_id, 1, 0, 0)
    version = table.getDebugName(5) or ""
    table.setName(f"{version}; {note}", 5, 3, 1, 0x409)
    table.setName(f"{version}; {note}", 5, 1, 0, 0)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [f"{FAMILY.replace(' ', '')}-{style}"]
        top = cff.topDictIndex[0]
        top.FullName = f"{FAMILY} {style}"
        top.FamilyName = FAMILY


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--package-version", required=True)
    ap.add_argument("--copyright", type=pathlib.Path, required=True)
    ap.add_argument("--fonts", type=pathlib.Path, required=True)
    ap.add_argument("--out", type=pathlib.Path, required=True)
    args = ap.parse_args()

    root = pathlib.Path(__file__).resolve().parent.parent
    chars = set(PIECES + RIVER + NUMERALS + NOTATION + NAMES) | page_characters(root / "web/page")
    text = "".join(sorted(chars))
    note = f"subset of {SC_NAME} (Debian fonts-noto-cjk {args.package_version}) for the xq analysis board"
    args.out.mkdir(parents=True, exist_ok=True)
    copyrights = set()
    for weight, file in WEIGHTS.items():
        font = TTFont(args.fonts / file, fontNumber=SC_INDEX, recalcTimestamp=False)
        family = font["name"].getDebugName(1)
        if family != SC_NAME:
            sys.exit(f"{file}: font {SC_INDEX} is {family!r}, not {SC_NAME!r}")
        copyrights.add(font["name"].getDebugName(0))
        options = subset.Options()
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        options.notdef_outline = True
        options.recalc_timestamp = False
        options.flavor = "woff2"
        sub = subset.Subsetter(options)
        sub.populate(text=text)
        sub.subset(font)
        missing = [c for c in text if ord(c) not in font.getBestCmap()]
        if missing:
            sys.exit(f"{file}: no glyph for {''.join(missing)}")
        rename(font, weight, note)
        out = args.out / f"xq-board-{weight}.woff2"
        font.flavor = "woff2"
        font.save(out)
        print(f"{out}: {out.stat().st_size} bytes, {len(text)} characters")

    licence = args.out / "LICENSE-OFL.txt"
    header = "\n".join([
        f"The fonts in this folder (xq-board-400.woff2, xq-board-700.woff2, family \"{FAMILY}\")",
        f"are subsets of {SC_NAME} Regular and Bold, made by tools/web-font.sh from",
        f"Debian's package fonts-noto-cjk {args.package_version}, renamed. They are under the",
        "SIL Open Font License, Version 1.1, below (not under xq's MIT or Apache-2.0 licence).",
        "",
        "Copyright of the original fonts (their name table, and Debian's copyright file):",
        *sorted(copyrights),
        "2010-2012, Google Corporation",
        "Upstream: https://github.com/googlefonts/noto-cjk",
        "",
        "Characters: " + "".join(c for c in text if not c.isascii()),
        "",
        "",
    ])
    licence.write_text(header + licence_text(args.copyright), encoding="utf-8")
    print(f"{licence}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
