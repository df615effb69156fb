#!/usr/bin/env python3
"""Bytes of xq's endgame tables against Felicity EGTB's on the same endings.

    python3 tools/felicity-sizes.py FELICITY_DIR XQ_DIR > docs/data/felicity-sizes.csv

FELICITY_DIR is a folder of Felicity EGTB's generator output (its `1/` subfolder: each
ending's `NAME.w.fexq`, `NAME.b.fexq` and `NAME.txt`, which gives the index size, the
legal positions and the longest mate); XQ_DIR one of `xq tb gen` (`NAME.xqtb`,
`NAME.xqwdl`, `endings.csv`). Every ending in both is a row: Felicity's bytes (both sides
to move), xq's distance and WDL files, the positions each counts, and each side's longest
mate, which must agree. The totals go to standard error. Nothing of Felicity's code is
used or needed here: the script reads file sizes and the generator's text reports.
"""
import csv
import pathlib
import re
import sys


def felicity(folder):
    """Felicity's endings: name -> (index size a side, legal positions, bytes, longest mate)."""
    out = {}
    for txt in sorted(folder.rglob("*.txt")):
        report = txt.read_text(encoding="utf-8", errors="replace")
        index = re.search(r"Total positions:\s*(\d+)", report)
        legal = re.search(r"Legal positions:\s*(\d+)", report)
        if not (index and legal):
            continue
        mate = re.search(r"Max distance to mate:\s*(\d+)", report)
        files = [txt.with_name(f"{txt.stem}.{side}.fexq") for side in "wb"]
        size = sum(f.stat().st_size for f in files if f.exists())
        out[txt.stem.upper()] = (int(index.group(1)), int(legal.group(1)), size,
                                 int(mate.group(1)) if mate else 0)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fel = felicity(pathlib.Path(sys.argv[1]))
    xq_dir = pathlib.Path(sys.argv[2])
    lines = (l for l in open(xq_dir / "endings.csv", encoding="utf-8") if not l.startswith("#"))
    log = {r["ending"]: r for r in csv.DictReader(lines)}
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["ending", "felicity_index_a_side", "felicity_legal_positions", "felicity_bytes",
                  "xq_positions", "xq_distance_bytes", "xq_wdl_bytes", "longest_mate"])
    totals = [0, 0, 0, 0, 0]
    for name in sorted(set(fel) & set(log)):
        index, legal, size, fel_mate = fel[name]
        row = log[name]
        xq_mate = int(row["longest_mate"])
        if xq_mate != fel_mate:
            sys.exit(f"{name}: longest mate {xq_mate} plies in xq, {fel_mate} in Felicity")
        distance = (xq_dir / f"{name}.xqtb").stat().st_size
        wdl = (xq_dir / f"{name}.xqwdl").stat().st_size
        positions = int(row["positions"])
        out.writerow([name, index, legal, size, positions, distance, wdl, xq_mate])
        for i, v in enumerate((legal, size, positions, distance, wdl)):
            totals[i] += v
    legal, size, positions, distance, wdl = totals
    count = len(set(fel) & set(log))
    print(f"{count} endings: Felicity {size:,} bytes ({size / legal:.4f} a legal position), "
          f"xq distance files {distance:,} ({distance / positions:.4f} a position, "
          f"{distance / size:.3f} of Felicity's), WDL files {wdl:,} ({wdl / positions:.4f}, "
          f"{wdl / size:.3f}); longest mates agree", file=sys.stderr)


if __name__ == "__main__":
    main()
