"""Shared paths and helpers for the tests of the xq Python package.

The tests run against the installed package (the wheel), and read the repository's data
files: data/ (perft, mates, repetition rulings) and xq-records/tests/data/games/.
"""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
GAMES = ROOT / "xq-records" / "tests" / "data" / "games"


def epd_lines(name):
    """The non-comment, non-blank lines of a data file."""
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            yield line


def perft_cases():
    """(fen, {depth: count}) for every line of data/perft.epd."""
    out = []
    for line in epd_lines("perft.epd"):
        fen, *fields = [f.strip() for f in line.split(";")]
        counts = {}
        for f in fields:
            d, n = f.split()
            counts[int(d[1:])] = int(n)
        out.append((fen, counts))
    return out


def repetition_cases():
    """Every case of data/repetition.epd as a dict: line, fen, moves, result, kind."""
    out = []
    lines = (DATA / "repetition.epd").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(" ; ")]
        case = {"line": number, "fen": fields[0]}
        for f in fields[1:]:
            key, _, value = f.partition(" ")
            case[key] = value
        case["moves"] = case["moves"].split()
        out.append(case)
    return out


def mate_cases():
    """(fen, mate_in, best_moves) for every line of data/mates.epd."""
    out = []
    for line in epd_lines("mates.epd"):
        fen, *fields = [f.strip() for f in line.split(";")]
        mate = bm = None
        for f in fields:
            key, _, value = f.partition(" ")
            if key == "mate":
                mate = int(value)
            elif key == "bm":
                bm = value.split()
        out.append((fen, mate, bm))
    return out


@pytest.fixture
def start():
    import xq

    return xq.Board()
